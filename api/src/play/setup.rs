//! Creating games, joining them, and the first deal.

use cardroom_core::{
    AnyEvent, AnyGame, BotLevel, Card, Events, GameKind, Options, Seat, Seed, Setup, Viewer,
};
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::Visibility;
use cardroom_db::games::{
    self, Commit, GameRecord, LogEntry, NewGame, NewIdempotency, SeatChange, SeatRow,
};
use cardroom_db::{AnyConnection, DbError};
use rand::RngExt;

use super::changes::{Changes, run_computers, summary};
use super::commit::{STATE_FORMAT, commit_and_view, commit_background, with_retries};
use super::loaded::{Loaded, load};
use super::view;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::events::{service_event, stored};
use crate::input::IdempotencyKey;
use crate::metrics::Metrics;
use crate::model::{CreateGame, GameCreated, GameView, JoinRequest, ServiceEvent, TurnPolicy};

/// A turn timer's bounds: seconds a move.
pub const TURN_SECONDS: std::ops::RangeInclusive<i64> = 5..=86_400;
/// Timeouts in a row before a computer player takes the seat: bounds and default.
pub const TAKEOVER_AFTER: std::ops::RangeInclusive<i64> = 1..=10;
pub const DEFAULT_TAKEOVER_AFTER: i64 = 3;

/// Deals a stored game's first hand from its stored options, seed and deck.
pub(super) fn deal_first_hand(
    row: &games::GameRow,
) -> Result<(AnyGame, Events<AnyEvent>), ApiError> {
    let kind: GameKind = row.kind;
    let options: Options =
        serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?;
    let seed = Seed::from_hex(&row.seed).map_err(ApiError::because("stored seed"))?;
    let deck: Option<Vec<Card>> = match &row.deck {
        None => None,
        Some(text) => Some(serde_json::from_str(text).map_err(ApiError::because("stored deck"))?),
    };
    let seats = usize::try_from(row.seat_count).unwrap_or(0);
    AnyGame::create(
        kind,
        Some(&row.variant),
        seats,
        &options,
        &Setup {
            seed,
            deck,
            replay: None,
        },
    )
    .map_err(ApiError::because("a stored game no longer starts"))
}

/// Starts a game whose seats are all taken: deals, lets computer players answer.
fn start(
    record: &GameRecord,
    seats: &[SeatRow],
    changes: &mut Changes,
    metrics: &Metrics,
) -> Result<AnyGame, ApiError> {
    let (mut game, events) = deal_first_hand(&record.game)?;
    changes.record(&game, None, "started", None, &events)?;
    run_computers(&mut game, seats, changes, metrics)?;
    Ok(game)
}

/// `POST /games`. With an `Idempotency-Key`, the request made again (the same key, the same
/// request) is answered with the game the first made, as it is now, and makes no other; the
/// key with another request is refused (`409 idempotency_key_reused`).
pub fn create(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: CreateGame,
    key: Option<&IdempotencyKey>,
    metrics: &Metrics,
) -> Result<GameCreated, ApiError> {
    super::access::may_sit(conn, caller)?;
    if let Some(key) = key
        && let Some(made) = games::idempotent_answer(conn, caller.id, key.key())?
    {
        return created_again(conn, caller, made, key, metrics);
    }
    let stored = key.map(|key| NewIdempotency {
        user_id: caller.id,
        key: key.key().to_owned(),
        request_hash: key.request_hash().to_owned(),
        status: 201,
        body: String::new(),
    });
    let result = create_seated(conn, caller, request, &[], None, stored.as_ref(), metrics);
    match (result, key) {
        // The same key may have raced in through another request and made the game (this one
        // then made nothing: the key goes in with the game); or the game was made and its first
        // deal was lost with the connection: answered with that game either way.
        (Err(error), Some(key)) => match games::idempotent_answer(conn, caller.id, key.key())? {
            Some(made) => created_again(conn, caller, made, key, metrics),
            None => Err(error),
        },
        (result, _) => result,
    }
}

/// The answer to a new game's request made again: the game the first made, dealt now if every
/// seat is taken and its first deal was lost with the database's connection.
fn created_again(
    conn: &mut AnyConnection,
    caller: &Caller,
    made: games::IdempotencyRow,
    key: &IdempotencyKey,
    metrics: &Metrics,
) -> Result<GameCreated, ApiError> {
    if made.request_hash != key.request_hash() || made.status != 201 {
        return Err(ApiError::Conflict {
            code: ProblemCode::IdempotencyKeyReused,
            detail: "this Idempotency-Key was used for a different request".to_owned(),
        });
    }
    deal_seated(conn, made.game_id, metrics)?;
    let loaded = load(conn, made.game_id)?;
    Ok(GameCreated {
        id: made.game_id.get(),
        invite_code: loaded.record.game.invite_code.clone(),
        view: view(conn, caller, made.game_id)?,
    })
}

/// [`create`], with `others` — (seat, account) — seated too (a quick match seats everyone it
/// paired at once).
pub(super) fn create_seated(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: CreateGame,
    others: &[(usize, i64)],
    rematch_of: Option<i64>,
    key: Option<&NewIdempotency>,
    metrics: &Metrics,
) -> Result<GameCreated, ApiError> {
    let n = request.seats.len();
    let (seat_changes, own_index) = seat_plan(&request, caller, others)?;
    let turn = turn_policy(request.turn.as_ref())?;
    let new = new_game(&request, caller, seat_changes, turn, None)?;
    let row = games::create(conn, &new, &created(caller, n, own_index, rematch_of)?, key)?;
    Metrics::add(&metrics.games_created, 1);
    let loaded = load(conn, row.id)?;
    let view = if loaded
        .record
        .seats
        .iter()
        .any(|s| s.user_id.is_none() && s.bot.is_none())
    {
        view(conn, caller, row.id)?
    } else {
        let mut changes = Changes::new(None);
        let game = start(&loaded.record, &loaded.record.seats, &mut changes, metrics)?;
        let viewer = Viewer::Seat(Seat::new(own_index as u8));
        commit_and_view(conn, &loaded, game, changes, None, viewer, metrics)?.1
    };
    Ok(GameCreated {
        id: row.id.get(),
        invite_code: row.invite_code,
        view,
    })
}

/// A new game's first log entry: who made it, with how many seats, from their seat. A rematch
/// is made by whoever accepted last, but set up by everyone at the old table: its first event
/// says which game it follows.
fn created(
    caller: &Caller,
    seats: usize,
    own_index: usize,
    rematch_of: Option<i64>,
) -> Result<LogEntry, ApiError> {
    let created = ServiceEvent::Created {
        by: caller.name.clone(),
        seats: seats as i64,
        rematch_of,
    };
    Ok(LogEntry {
        seat: Some(own_index as i32),
        action: "created".to_owned(),
        payload: None,
        events: stored(&[service_event(&created)?])?,
    })
}

/// Deals the server chooses for a game (a tournament's): the seed, and whether the game is
/// practice (never rated or counted) all the same.
pub(super) struct HouseDeal {
    pub(super) seed: Seed,
    pub(super) practice: bool,
}

/// Makes a game whose every seat is taken — the caller's, `others` and computer players — and
/// does not deal it: a tournament's pairing makes its tables so, in its own short transaction,
/// and [`deal_seated`] deals each afterwards.
pub(super) fn create_undealt(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: &CreateGame,
    others: &[(usize, i64)],
    house: Option<HouseDeal>,
    metrics: &Metrics,
) -> Result<GameId, ApiError> {
    let (seat_changes, own_index) = seat_plan(request, caller, others)?;
    if seat_changes
        .iter()
        .any(|s| s.user_id.is_none() && s.bot.is_none())
    {
        return Err(ApiError::internal("an undealt game with an open seat"));
    }
    let turn = turn_policy(request.turn.as_ref())?;
    let new = new_game(request, caller, seat_changes, turn, house)?;
    let first = created(caller, request.seats.len(), own_index, None)?;
    let row = games::create(conn, &new, &first, None)?;
    Metrics::add(&metrics.games_created, 1);
    Ok(row.id)
}

/// Deals game `id` if it waits with every seat taken: the first hand and the computer players'
/// answers, in one versioned write. Whether this call dealt it (not when it was dealt already,
/// here or on another replica).
pub(super) fn deal_seated(
    conn: &mut AnyConnection,
    id: GameId,
    metrics: &Metrics,
) -> Result<bool, ApiError> {
    let loaded = load(conn, id)?;
    let seats = &loaded.record.seats;
    let full = seats.iter().all(|s| s.user_id.is_some() || s.bot.is_some());
    if loaded.record.game.status != GameStatus::Waiting || !full {
        return Ok(false);
    }
    let mut changes = Changes::new(None);
    let game = start(&loaded.record, seats, &mut changes, metrics)?;
    match commit_background(conn, &loaded, &game, seats, changes) {
        Ok(()) => Ok(true),
        Err(ApiError::VersionConflict { .. }) => Ok(false),
        Err(other) => Err(other),
    }
}

/// The row of a new game: its configuration checked by the rules themselves (by dealing once),
/// its seed (the request's, for practice, or a fresh one), and its seats.
fn new_game(
    request: &CreateGame,
    caller: &Caller,
    seats: Vec<SeatChange>,
    (turn_seconds, takeover_after): (Option<i32>, Option<i32>),
    house: Option<HouseDeal>,
) -> Result<NewGame, ApiError> {
    let kind = request.kind;
    let n = seats.len();
    let mut practice = request.seed.is_some() || request.deck.is_some();
    let seed = match (&request.seed, house) {
        (Some(text), _) => {
            Seed::from_hex(text).map_err(|e| ApiError::Invalid(format!("seed: {e}")))?
        }
        (None, Some(house)) => {
            practice = house.practice;
            house.seed
        }
        (None, None) => random_seed(),
    };
    // Check variant, seats, options and deck now, with the real rules, by dealing once.
    let setup = Setup {
        seed,
        deck: request.deck.clone(),
        replay: None,
    };
    let (probe, _) = AnyGame::create(
        kind,
        request.variant.as_deref(),
        n,
        &request.options,
        &setup,
    )
    .map_err(|e| ApiError::Invalid(e.to_string()))?;
    let options =
        serde_json::to_string(&request.options).map_err(ApiError::because("options encoding"))?;
    let deck = match &request.deck {
        None => None,
        Some(deck) => {
            Some(serde_json::to_string(deck).map_err(ApiError::because("deck encoding"))?)
        }
    };
    Ok(NewGame {
        kind,
        variant: probe.variant().to_owned(),
        options,
        seed: seed.to_hex(),
        deck,
        practice,
        invite_code: random_code(10),
        created_by: caller.id,
        state_format: STATE_FORMAT,
        turn_seconds,
        takeover_after,
        visibility: request.visibility.unwrap_or_default(),
        seats,
    })
}

/// Who sits where in a new game: the requested computer levels (each one of the game's), the
/// caller in their seat, and `others` in theirs. Returns the seats and the caller's.
fn seat_plan(
    request: &CreateGame,
    caller: &Caller,
    others: &[(usize, i64)],
) -> Result<(Vec<SeatChange>, usize), ApiError> {
    let kind = request.kind;
    let n = request.seats.len();
    if n == 0 || n > 8 {
        return Err(ApiError::Invalid(format!(
            "a game has 1 to 8 seats, not {n}"
        )));
    }
    let levels: Vec<&str> = kind.describe().levels.iter().map(|l| l.name).collect();
    let mut seat_changes = Vec::with_capacity(n);
    for (i, seat) in request.seats.iter().enumerate() {
        let bot = match seat
            .bot
            .as_deref()
            .map(|given| (given, given.parse::<BotLevel>()))
        {
            None => None,
            Some((_, Ok(level))) if levels.contains(&level.name()) => Some(level),
            Some((level, _)) => {
                return Err(ApiError::Invalid(format!(
                    "seat {i}: `{}` is not a computer-player level of {kind}; the levels are {}",
                    level.chars().take(32).collect::<String>(),
                    levels.join(", ")
                )));
            }
        };
        seat_changes.push(SeatChange {
            seat: i as i32,
            user_id: None,
            bot,
            ..Default::default()
        });
    }
    let own = request.seat.unwrap_or(0);
    let own_index = usize::try_from(own)
        .ok()
        .filter(|&s| s < n)
        .ok_or_else(|| ApiError::Invalid(format!("there is no seat {own} in a game of {n}")))?;
    if seat_changes[own_index].bot.is_some() {
        return Err(ApiError::Invalid(format!(
            "seat {own} is a computer player's; take a person's seat"
        )));
    }
    seat_changes[own_index].user_id = Some(caller.id);
    for &(seat, user) in others {
        let open = seat_changes
            .get_mut(seat)
            .filter(|s| s.bot.is_none() && s.user_id.is_none())
            .ok_or_else(|| ApiError::internal(format!("seat {seat} is not open for {user}")))?;
        open.user_id = Some(user);
    }
    Ok((seat_changes, own_index))
}

/// A new game's turn timer, within the published bounds: seconds per move and the timeouts in a
/// row before a computer takes the seat (none: no timer).
pub(super) fn turn_policy(
    turn: Option<&TurnPolicy>,
) -> Result<(Option<i32>, Option<i32>), ApiError> {
    let Some(turn) = turn else {
        return Ok((None, None));
    };
    if !TURN_SECONDS.contains(&turn.seconds) {
        return Err(ApiError::Invalid(format!(
            "turn.seconds must be from {} to {}",
            TURN_SECONDS.start(),
            TURN_SECONDS.end()
        )));
    }
    let after = turn.takeover_after.unwrap_or(DEFAULT_TAKEOVER_AFTER);
    if !TAKEOVER_AFTER.contains(&after) {
        return Err(ApiError::Invalid(format!(
            "turn.takeover_after must be from {} to {}",
            TAKEOVER_AFTER.start(),
            TAKEOVER_AFTER.end()
        )));
    }
    // (Both bounded above, so they fit.)
    Ok((Some(turn.seconds as i32), Some(after as i32)))
}

/// `POST /games/{id}/join`.
pub fn join(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    request: &JoinRequest,
    metrics: &Metrics,
) -> Result<GameView, ApiError> {
    super::access::may_sit(conn, caller)?;
    with_retries(metrics, || {
        let loaded = load(conn, id)?;
        let seat = seat_to_take(&loaded, caller, request)?;
        let mut seats = loaded.record.seats.clone();
        for s in &mut seats {
            if s.seat == seat {
                s.user_id = Some(caller.id);
                s.name = Some(caller.name.clone());
            }
        }
        let mut changes = Changes::new(None);
        changes.seats.push(SeatChange {
            seat,
            user_id: Some(caller.id),
            bot: None,
            ..Default::default()
        });
        changes.record_service(
            Some(seat as u8),
            "joined",
            ServiceEvent::Joined {
                seat: i64::from(seat),
                name: caller.name.clone(),
            },
        )?;
        let all_taken = seats.iter().all(|s| s.user_id.is_some() || s.bot.is_some());
        let viewer = Viewer::Seat(Seat::new(seat as u8));
        if all_taken {
            let game = start(&loaded.record, &seats, &mut changes, metrics)?;
            let record = GameRecord {
                game: loaded.record.game.clone(),
                seats,
            };
            let loaded = Loaded {
                record,
                game: None,
                recent: loaded.recent.clone(),
                spectators: loaded.spectators,
                tournament: loaded.tournament.clone(),
            };
            Ok(commit_and_view(conn, &loaded, game, changes, None, viewer, metrics)?.1)
        } else {
            commit_seating(conn, &loaded, &seats, changes)?;
            view(conn, caller, id)
        }
    })
}

/// Commits a seat taken at a table that still waits for players (nothing is dealt).
fn commit_seating(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    seats: &[SeatRow],
    changes: Changes,
) -> Result<(), ApiError> {
    let change = Commit {
        game_id: loaded.id(),
        expected_version: loaded.version(),
        state: None,
        summary: summary(None, None, seats, None),
        entries: changes.entries,
        seats: changes.seats,
        deals: Vec::new(),
        reveals: Vec::new(),
        idempotency: None,
        tally: changes.tally,
        leaving: None,
        notices: Vec::new(),
    };
    // (Someone else sat down meanwhile, or this person twice at once: look again.)
    match super::commit::commit_change(conn, &change) {
        Ok(_) => Ok(()),
        Err(DbError::VersionConflict) => {
            let current = games::version(conn, loaded.id())?.unwrap_or(0);
            Err(ApiError::VersionConflict { current })
        }
        Err(other) => Err(other.into()),
    }
}

/// The seat a join takes: the one asked for, or the first open one; refused when the caller
/// lacks the invite code, sits there already, or no such seat is open.
fn seat_to_take(loaded: &Loaded, caller: &Caller, request: &JoinRequest) -> Result<i32, ApiError> {
    // A public table seats anyone signed in; the others, whoever has the invite code.
    let public = loaded.record.game.visibility == Visibility::Public;
    if !public && request.invite_code.as_deref() != Some(&loaded.record.game.invite_code) {
        return Err(ApiError::Forbidden(
            "the invite code does not match this game".to_owned(),
        ));
    }
    if loaded.seat_of(caller).is_some() {
        return Err(ApiError::Conflict {
            code: ProblemCode::AlreadySeated,
            detail: "you already have a seat at this game".to_owned(),
        });
    }
    if loaded.record.game.status != GameStatus::Waiting {
        return Err(ApiError::Conflict {
            code: ProblemCode::GameFull,
            detail: "every seat of this game is taken".to_owned(),
        });
    }
    let open: Vec<&SeatRow> = loaded
        .record
        .seats
        .iter()
        .filter(|s| s.user_id.is_none() && s.bot.is_none())
        .collect();
    let seat = match request.seat {
        None => open
            .first()
            .map(|s| s.seat)
            .ok_or_else(|| ApiError::Conflict {
                code: ProblemCode::GameFull,
                detail: "every seat of this game is taken".to_owned(),
            })?,
        Some(wanted) => {
            let exists = loaded
                .record
                .seats
                .iter()
                .any(|s| i64::from(s.seat) == wanted);
            if !exists {
                return Err(ApiError::Invalid(format!(
                    "there is no seat {wanted} at this game"
                )));
            }
            open.iter()
                .find(|s| i64::from(s.seat) == wanted)
                .map(|s| s.seat)
                .ok_or_else(|| ApiError::Conflict {
                    code: ProblemCode::SeatTaken,
                    detail: format!("seat {wanted} is not open"),
                })?
        }
    };
    Ok(seat)
}

/// A random code of `length` letters and digits (no look-alikes).
pub fn random_code(length: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..length)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

pub(super) fn random_seed() -> Seed {
    let mut bytes = [0u8; 32];
    rand::rng().fill(&mut bytes);
    Seed::from_bytes(bytes)
}
