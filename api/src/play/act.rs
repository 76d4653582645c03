//! Moves, deals and resignations.

use cardroom_core::{AnyGame, AnyMove, AnyRejection, Resignation, Seat, Viewer};
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::games::{self, Leaving, SeatChange, SeatResult};
use cardroom_db::{AnyConnection, DbError};
use serde_json::Value;

use super::changes::{Changes, abandonment, run_computers};
use super::commit::{action_body, commit_and_view, with_retries};
use super::loaded::{Loaded, load};
use super::view;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode, move_error};
use crate::input::{IdempotencyKey, MoveFor, ParsedMove};
use crate::metrics::Metrics;
use crate::model::{EventOut, GameView, ServiceEvent, TakeoverReason};

/// What an action did: the events the caller may see and their view of the game after it.
#[derive(Debug)]
pub struct Acted {
    pub events: Vec<EventOut>,
    pub view: GameView,
}

impl Acted {
    /// The answer's body: the game's kind, the events and the view.
    pub fn body(&self) -> Result<String, ApiError> {
        action_body(&self.events, &self.view)
    }
}

/// The answer to a move: what it did, or the answer stored for an earlier request with the same
/// `Idempotency-Key` (its status and body, as first sent).
#[derive(Debug)]
pub enum MoveAnswer {
    Acted(Box<Acted>),
    Replayed { status: u16, body: String },
}

/// A move as its request asked for it.
#[derive(Clone, Debug)]
pub struct MoveOrder {
    /// The version of the view the move was chosen from.
    pub expected_version: i64,
    /// The move, parsed as the games it was sent for.
    pub mv: ParsedMove,
    pub idempotency: Option<IdempotencyKey>,
}

/// `POST /games/{id}/moves`: plays the caller's move and the computers' replies. A retry with
/// the same `Idempotency-Key` gets the first answer.
pub fn play_move(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    order: MoveOrder,
    metrics: &Metrics,
) -> Result<MoveAnswer, ApiError> {
    let MoveOrder {
        expected_version,
        mv,
        idempotency,
    } = order;
    if let Some(key) = &idempotency
        && let Some(answer) = games::idempotent_answer(conn, caller.id, key.key())?
    {
        return replay_answer(answer, id, key);
    }
    let key = idempotency.map(|key| (caller.id, key));
    let result = make_move(
        conn,
        caller,
        id,
        expected_version,
        &mv,
        key.clone(),
        metrics,
    );
    match (result, key) {
        (Ok(acted), _) => Ok(MoveAnswer::Acted(Box::new(acted))),
        // The same key may have raced in through another request and won: answer as that
        // request did.
        (Err(error), Some((user_id, key))) => {
            match games::idempotent_answer(conn, user_id, key.key())? {
                Some(answer) => replay_answer(answer, id, &key),
                None => Err(error),
            }
        }
        (Err(error), None) => Err(error),
    }
}

/// `POST /games/{id}/deal`: deals the next hand. With the version the caller saw the hand over
/// at, a hand someone else dealt since is no failure: the game as it is now, with no events.
pub fn deal(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    expected_version: Option<i64>,
    metrics: &Metrics,
) -> Result<Acted, ApiError> {
    with_retries(metrics, || {
        let loaded = load(conn, id)?;
        let seat = loaded.require_seat(caller)?;
        if let Some(expected) = expected_version {
            match loaded.version().cmp(&expected) {
                std::cmp::Ordering::Less => {
                    return Err(ApiError::VersionConflict {
                        current: loaded.version(),
                    });
                }
                // The hand the caller was asked to deal was dealt (by another player, or a
                // timer) since it saw it over: what it wanted is done; the game as it is.
                std::cmp::Ordering::Greater => {
                    let next = games::log_after(conn, id, expected, 1)?;
                    if next.first().is_some_and(|entry| entry.action == "deal") {
                        return Ok(Acted {
                            events: Vec::new(),
                            view: view(conn, caller, id)?,
                        });
                    }
                    return Err(ApiError::VersionConflict {
                        current: loaded.version(),
                    });
                }
                std::cmp::Ordering::Equal => {}
            }
        }
        let mut game = loaded.started()?.clone();
        let mut changes = Changes::new(Some(&game));
        let events = game.deal_next().map_err(|e| match e {
            cardroom_core::MoveError::NotYourTurn { .. } => ApiError::Conflict {
                code: ProblemCode::HandNotOver,
                detail: "the hand is still being played".to_owned(),
            },
            other => move_error(other, game.kind(), Value::Array(Vec::new())),
        })?;
        changes.record(&game, Some(seat.number()), "deal", None, &events)?;
        run_computers(&mut game, &loaded.record.seats, &mut changes, metrics)?;
        let viewer = Viewer::Seat(seat);
        let (events, view) = commit_and_view(conn, &loaded, game, changes, None, viewer, metrics)?;
        Ok(Acted { events, view })
    })
}

/// `POST /games/{id}/resign`: with two sides the caller's side loses; with more, the seat goes
/// to the computer. Before the game starts, resigning abandons it.
pub fn resign(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    metrics: &Metrics,
) -> Result<Acted, ApiError> {
    with_retries(metrics, || {
        let loaded = load(conn, id)?;
        let seat = loaded.require_seat(caller)?;
        let Some(game) = &loaded.game else {
            return abandon(conn, caller, &loaded, seat);
        };
        let mut game = game.clone();
        let mut changes = Changes::new(Some(&game));
        let (effect, events) = game
            .resign(seat)
            .map_err(|e| move_error(e, game.kind(), Value::Array(Vec::new())))?;
        changes.record(&game, Some(seat.number()), "resign", None, &events)?;
        let (loaded, viewer) = match effect {
            Resignation::GameLost => (loaded, Viewer::Seat(seat)),
            // Whoever hands their seat to the computer sees the table as a spectator from now
            // on: the seat's cards are the computer's.
            Resignation::SeatToComputer => {
                let left = hand_seat_to_computer(&game, &loaded, caller, seat, &mut changes)?;
                run_computers(&mut game, &left.record.seats, &mut changes, metrics)?;
                (left, Viewer::Spectator)
            }
        };
        let (events, view) = commit_and_view(conn, &loaded, game, changes, None, viewer, metrics)?;
        Ok(Acted { events, view })
    })
}

/// A resigning person leaves a table of more than two sides for good: a loss against everyone
/// still at it, and the game's default computer level in the seat. Returns the game with the
/// seats as they are after it.
fn hand_seat_to_computer(
    game: &AnyGame,
    loaded: &Loaded,
    caller: &Caller,
    seat: Seat,
    changes: &mut Changes,
) -> Result<Loaded, ApiError> {
    let sides = game.table().sides();
    let mine = i32::from(seat.number());
    changes.leaving = Some(Leaving {
        user_id: caller.id,
        seats: loaded
            .record
            .seats
            .iter()
            .map(|s| SeatResult {
                seat: s.seat,
                user_id: s.user_id,
                bot: s.bot,
                side: u8::try_from(s.seat).map_or(-1, |n| i32::from(sides.side_of(Seat::new(n)))),
                won: s.seat != mine,
            })
            .collect(),
    });
    let level = game.kind().describe().default_level;
    changes.seats.push(SeatChange {
        seat: mine,
        user_id: None,
        bot: Some(level),
        ..Default::default()
    });
    changes.record_takeover(seat, level, TakeoverReason::Resigned)?;
    Ok(loaded.with_seats(&changes.seats))
}

fn make_move(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    expected_version: i64,
    mv: &ParsedMove,
    key: Option<(i64, IdempotencyKey)>,
    metrics: &Metrics,
) -> Result<Acted, ApiError> {
    let loaded = load(conn, id)?;
    let seat = loaded.require_seat(caller)?;
    let game = loaded.started()?;
    if expected_version != loaded.version() {
        return Err(ApiError::VersionConflict {
            current: loaded.version(),
        });
    }
    let kind = loaded.kind();
    let legal = || serde_json::to_value(game.legal_moves(seat)).unwrap_or(Value::Null);
    let mv: AnyMove = match mv.of(kind) {
        MoveFor::Game(mv) => mv,
        MoveFor::Unreadable(refused) => return Err(refused),
        MoveFor::Another(said) => {
            return Err(ApiError::IllegalMove {
                rejection: AnyRejection::WrongGame {
                    game: kind,
                    move_of: said,
                },
                kind,
                legal_moves: legal(),
            });
        }
    };
    let canonical = game
        .validate(seat, &mv)
        .map_err(|e| move_error(e, kind, legal()))?;
    let mut game = game.clone();
    let mut changes = Changes::new(Some(&game));
    let events = game
        .play(seat, &canonical)
        .map_err(ApiError::because("a validated move was refused"))?;
    Metrics::add(&metrics.moves, 1);
    let payload = serde_json::to_value(&canonical).ok();
    changes.record(&game, Some(seat.number()), "move", payload, &events)?;
    run_computers(&mut game, &loaded.record.seats, &mut changes, metrics)?;
    let viewer = Viewer::Seat(seat);
    // A move of one's own ends a run of timeouts.
    if let Some(row) = loaded
        .record
        .seats
        .iter()
        .find(|s| s.seat == i32::from(seat.number()) && s.timeouts > 0)
    {
        changes.seats.push(SeatChange {
            seat: row.seat,
            user_id: row.user_id,
            bot: row.bot,
            timeouts: 0,
            label: None,
        });
        let loaded = loaded.with_seats(&changes.seats);
        let (events, view) = commit_and_view(conn, &loaded, game, changes, key, viewer, metrics)?;
        return Ok(Acted { events, view });
    }
    let (events, view) = commit_and_view(conn, &loaded, game, changes, key, viewer, metrics)?;
    Ok(Acted { events, view })
}

/// The stored answer to an earlier request with the same idempotency key.
fn replay_answer(
    answer: games::IdempotencyRow,
    id: GameId,
    key: &IdempotencyKey,
) -> Result<MoveAnswer, ApiError> {
    if answer.game_id != id || answer.request_hash != key.request_hash() {
        return Err(ApiError::Conflict {
            code: ProblemCode::IdempotencyKeyReused,
            detail: "this Idempotency-Key was used for a different request".to_owned(),
        });
    }
    Ok(MoveAnswer::Replayed {
        status: u16::try_from(answer.status).unwrap_or(200),
        body: answer.body,
    })
}

/// Resigning before the game starts abandons it.
fn abandon(
    conn: &mut AnyConnection,
    caller: &Caller,
    loaded: &Loaded,
    seat: Seat,
) -> Result<Acted, ApiError> {
    if loaded.record.game.status == GameStatus::Abandoned {
        return Err(ApiError::GameOver("the game was abandoned".to_owned()));
    }
    let mut changes = Changes::new(None);
    changes.record_service(
        Some(seat.number()),
        "abandoned",
        ServiceEvent::Abandoned {
            by: caller.name.clone(),
        },
    )?;
    let viewer = Viewer::Seat(seat);
    let events = changes.visible(loaded.version(), viewer)?;
    match super::commit::commit_change(conn, &abandonment(loaded, changes)) {
        Ok(_) => {}
        Err(DbError::VersionConflict) => {
            let current = games::version(conn, loaded.id())?.unwrap_or(0);
            return Err(ApiError::VersionConflict { current });
        }
        Err(other) => return Err(other.into()),
    }
    let view = view(conn, caller, loaded.id())?;
    Ok(Acted { events, view })
}
