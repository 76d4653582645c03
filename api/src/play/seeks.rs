//! Quick match: a person asks for a game (a seek), and the server seats compatible seekers
//! together — by rating when the game is rated — in one new game.
//!
//! A seek pairs the moment it is made if compatible seekers wait; otherwise it waits, and each
//! time its client asks after it (a long-poll, at most once a second) and at every sweep the
//! pairing is tried again (two seeks made at the same instant on two replicas each pass the
//! other over while it is locked, and pair on the next try). A seek may ask for computer
//! players to fill the seats nobody took after `fill_after` seconds; a seek whose client stops
//! asking expires.

use std::time::Duration;

use cardroom_core::{AnyGame, GameKind, Setup};
use cardroom_db::account_events::AccountNotice;
use cardroom_db::seeks::{self, NewSeek, SeekRow};
use cardroom_db::{AnyConnection, DbError};

use super::setup::create_seated;
use super::setup::random_seed;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::metrics::Metrics;
use crate::model::{AccountEvent, CreateGame, SeatRequest, Seek, SeekRequest};

/// A new player's rating, for pairing people who have none yet.
const UNRATED: f64 = 1500.0;

/// The bounds of a seek's `fill_after` and `rating_range`.
pub const FILL_AFTER: std::ops::RangeInclusive<i64> = 1..=3600;
pub const RATING_RANGE: std::ops::RangeInclusive<i64> = 0..=3000;

/// The answer about a seek.
pub fn seek_out(row: &SeekRow) -> Result<Seek, ApiError> {
    Ok(Seek {
        id: row.id,
        kind: row.kind,
        variant: row.variant.clone(),
        players: i64::from(row.players),
        options: serde_json::from_str(&row.options).unwrap_or_default(),
        rated: row.rated,
        rating_range: row.rating_range.map(i64::from),
        fill_after: row.fill_after.map(i64::from),
        status: row.status,
        game_id: row.game_id,
        created_at: row.created_at.and_utc(),
    })
}

/// `POST /seeks`: stores the seek and tries to pair it at once.
pub fn create(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: &SeekRequest,
    metrics: &Metrics,
) -> Result<Seek, ApiError> {
    let kind = request.kind;
    let players = request.players;
    if !(2..=8).contains(&players) {
        return Err(ApiError::Invalid("players is 2 to 8".to_owned()));
    }
    if let Some(range) = request.rating_range
        && !RATING_RANGE.contains(&range)
    {
        return Err(ApiError::Invalid(format!(
            "rating_range is {} to {}",
            RATING_RANGE.start(),
            RATING_RANGE.end()
        )));
    }
    if let Some(after) = request.fill_after
        && !FILL_AFTER.contains(&after)
    {
        return Err(ApiError::Invalid(format!(
            "fill_after is {} to {} seconds",
            FILL_AFTER.start(),
            FILL_AFTER.end()
        )));
    }
    // The variant, seat count and house rules, checked by the rules themselves.
    let setup = Setup {
        seed: random_seed(),
        deck: None,
        replay: None,
    };
    let (probe, _) = AnyGame::create(
        kind,
        request.variant.as_deref(),
        players as usize,
        &request.options,
        &setup,
    )
    .map_err(|e| ApiError::Invalid(e.to_string()))?;
    super::access::may_sit(conn, caller)?;
    let bot = cardroom_db::users::by_id(conn, caller.id)?.is_some_and(|u| u.bot);
    if seeks::open_of_user(conn, caller.id)?.is_some() {
        return Err(already_seeking());
    }
    let rating = cardroom_db::ratings::of_users(conn, &[caller.id], kind, "people")?
        .first()
        .map_or(UNRATED, |r| r.rating);
    let options =
        serde_json::to_string(&request.options).map_err(ApiError::because("options encoding"))?;
    let row = seeks::create(
        conn,
        &NewSeek {
            user_id: caller.id,
            kind,
            variant: probe.variant().to_owned(),
            players: players as i32,
            options,
            rated: request.rated.unwrap_or(true),
            rating,
            rating_range: request.rating_range.map(|r| r as i32),
            fill_after: request.fill_after.map(|f| f as i32),
            bot,
            // A bot account plays bots unless it says otherwise; a person, only if they ask.
            with_bots: request.bots.unwrap_or(bot),
        },
    )
    // Another seek of theirs was written since the look above (two at the same moment): the
    // database holds one open seek an account.
    .map_err(|e| match e {
        DbError::Duplicate(_) => already_seeking(),
        other => other.into(),
    })?;
    try_to_pair(conn, row.id, false, metrics)?;
    let row = seeks::get(conn, row.id)?.ok_or(DbError::NotFound)?;
    seek_out(&row)
}

fn already_seeking() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::AlreadySeeking,
        detail: "you are already waiting for a quick match: cancel that one first".to_owned(),
    }
}

/// The caller's seek, or 404 (another's is none of theirs).
pub fn own(conn: &mut AnyConnection, caller: &Caller, id: i64) -> Result<SeekRow, ApiError> {
    match seeks::get(conn, id)? {
        Some(row) if row.user_id == caller.id => Ok(row),
        _ => Err(ApiError::NotFound(format!("you have no seek {id}"))),
    }
}

/// `GET /seeks/{id}` looks; with `pair` (at most once a second), the client is marked still
/// there and the pairing is tried again.
pub fn look(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    pair: bool,
    metrics: &Metrics,
) -> Result<Seek, ApiError> {
    let row = own(conn, caller, id)?;
    if row.status == seeks::SeekStatus::Open && pair {
        seeks::touch(conn, id)?;
        try_to_pair(conn, id, false, metrics)?;
    }
    let row = seeks::get(conn, id)?.ok_or(DbError::NotFound)?;
    seek_out(&row)
}

/// `POST /seeks/{id}/cancel`.
pub fn cancel(conn: &mut AnyConnection, caller: &Caller, id: i64) -> Result<Seek, ApiError> {
    own(conn, caller, id)?;
    if !seeks::cancel(conn, id)? {
        return Err(ApiError::Conflict {
            code: ProblemCode::SeekClosed,
            detail: "this seek is no longer open (matched, cancelled or expired)".to_owned(),
        });
    }
    let row = seeks::get(conn, id)?.ok_or(DbError::NotFound)?;
    seek_out(&row)
}

/// Whether two seekers suit each other: each within the other's rating range (for a rated
/// game), and neither a bot account unless the other will play bots.
fn suits(a: &SeekRow, b: &SeekRow) -> bool {
    let apart = (a.rating - b.rating).abs();
    let within = |range: Option<i32>| range.is_none_or(|r| apart <= f64::from(r));
    let ratings = !a.rated || (within(a.rating_range) && within(b.rating_range));
    let bots = (!a.bot || b.with_bots) && (!b.bot || a.with_bots);
    ratings && bots
}

/// Tries to seat seek `id` with compatible seekers (with `fill`, with computer players in the
/// seats nobody took). Returns the game made, if one was.
pub fn try_to_pair(
    conn: &mut AnyConnection,
    id: i64,
    fill: bool,
    metrics: &Metrics,
) -> Result<Option<i64>, ApiError> {
    let paired = seeks::with_pairing(conn, id, |conn, seek, candidates| {
        let wanted = usize::try_from(seek.players - 1).unwrap_or(0);
        let mut chosen: Vec<SeekRow> = Vec::new();
        for candidate in candidates {
            if chosen.len() == wanted {
                break;
            }
            // (One seat a person: never two seeks of one account at a table.)
            let theirs = candidate.user_id == seek.user_id
                || chosen.iter().any(|c| c.user_id == candidate.user_id);
            if !theirs && suits(&seek, &candidate) && chosen.iter().all(|c| suits(c, &candidate)) {
                chosen.push(candidate);
            }
        }
        if chosen.len() < wanted && !fill {
            return Ok(None);
        }
        // The longest-waiting seeker first: seats in the order they asked.
        chosen.push(seek);
        chosen.sort_by_key(|s| (s.created_at, s.id));
        let game = seat_together(conn, &chosen, metrics)?;
        let ids: Vec<i64> = chosen.iter().map(|s| s.id).collect();
        // (Every one of them is locked, so this holds; if it did not, all is undone.)
        seeks::mark_matched(conn, &ids, game).map_err(|e| match e {
            DbError::VersionConflict => ApiError::VersionConflict { current: 0 },
            other => other.into(),
        })?;
        let notices: Vec<AccountNotice> = chosen
            .iter()
            .map(|s| {
                AccountEvent::SeekMatched {
                    seek_id: s.id,
                    game_id: game,
                }
                .notice(s.user_id)
            })
            .collect();
        cardroom_db::account_events::add(conn, &notices)?;
        Ok(Some(game))
    });
    match paired {
        Err(ApiError::VersionConflict { .. }) => Ok(None),
        other => other,
    }
}

/// Makes the game for these seekers (seats in this order; computer players in the rest).
fn seat_together(
    conn: &mut AnyConnection,
    seekers: &[SeekRow],
    metrics: &Metrics,
) -> Result<i64, ApiError> {
    let first = seekers
        .first()
        .ok_or_else(|| ApiError::internal("a pairing of no one"))?;
    let kind: GameKind = first.kind;
    let creator = cardroom_db::users::by_id(conn, first.user_id)?
        .ok_or_else(|| ApiError::internal("a seeker without an account"))?;
    let level = kind.describe().default_level;
    let players = usize::try_from(first.players).unwrap_or(0);
    let seats = (0..players)
        .map(|seat| SeatRequest {
            bot: (seat >= seekers.len()).then(|| level.name().to_owned()),
        })
        .collect();
    let request = CreateGame {
        kind,
        variant: Some(first.variant.clone()),
        seats,
        options: serde_json::from_str(&first.options)
            .map_err(ApiError::because("stored options"))?,
        seat: Some(0),
        // An unrated quick match is a practice game from a seed nobody knows: never rated or
        // counted.
        seed: (!first.rated).then(|| random_seed().to_hex()),
        deck: None,
        turn: None,
        visibility: Some(cardroom_db::Visibility::Public),
    };
    let caller = Caller::acting_for(&creator);
    let others: Vec<(usize, i64)> = seekers
        .iter()
        .enumerate()
        .skip(1)
        .map(|(seat, s)| (seat, s.user_id))
        .collect();
    let created = create_seated(conn, &caller, request, &others, None, None, metrics)?;
    Ok(created.id)
}

/// The sweep's part: expires the seeks whose clients stopped asking, fills the seats of those
/// that asked for computer players and have waited long enough, and tries the pairing of every
/// other open seek again. Returns the games made.
pub fn sweep(
    conn: &mut AnyConnection,
    gone_after: Duration,
    metrics: &Metrics,
) -> Result<Vec<i64>, ApiError> {
    let gone = chrono::Duration::from_std(gone_after).map_err(ApiError::because("seek expiry"))?;
    seeks::expire_unseen(conn, cardroom_db::now() - gone)?;
    let now = cardroom_db::now();
    let mut made = Vec::new();
    for id in seeks::open_seeks(conn, 200)? {
        let Some(row) = seeks::get(conn, id)? else {
            continue;
        };
        let fill = row.fill_after.is_some_and(|after| {
            row.created_at + chrono::Duration::seconds(i64::from(after)) <= now
        });
        if let Some(game) = try_to_pair(conn, id, fill, metrics)? {
            made.push(game);
        }
    }
    Ok(made)
}
