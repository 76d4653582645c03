//! Rematch: once a game is finished, any person at the table may offer one; when every person
//! has accepted, a new game with the same options starts, every seat moved one place on (so
//! another deals first; partners stay partners), and the finished game's events say where.
//!
//! Offers, acceptances and refusals are entries of the finished game's log (action `rematch`):
//! they reach everyone at the table and its spectators through the game's events on every
//! replica, and each is a versioned write, so two people accepting at once are counted one
//! after the other and exactly one new game is made. Replays and imports pass over them.

use cardroom_core::OptionValue;
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::games::{self, LogEntry};
use cardroom_db::{AnyConnection, DbError};
use std::collections::BTreeMap;

use super::commit::with_retries;
use super::loaded::{Loaded, load};
use super::rematch_state::{ACTION, people, state_from, state_of};
use super::setup::create_seated;
use super::setup::random_seed;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::events::{service_event, stored};
use crate::metrics::Metrics;
use crate::model::{CreateGame, RematchState, SeatRequest, ServiceEvent, TurnPolicy};

/// `POST /games/{id}/rematch`: offers or accepts (`accept` true) or declines (false).
pub fn rematch(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    accept: bool,
    metrics: &Metrics,
) -> Result<RematchState, ApiError> {
    with_retries(metrics, || {
        let loaded = load(conn, id)?;
        let seat = i64::from(loaded.require_seat(caller)?.number());
        if loaded.record.game.status != GameStatus::Finished {
            return Err(ApiError::Conflict {
                code: ProblemCode::GameNotFinished,
                detail: "a rematch is offered once the game is finished".to_owned(),
            });
        }
        let state = state_of(conn, &loaded)?.unwrap_or_else(|| state_from(&[], &[]));
        if state.game_id.is_some() {
            if accept {
                return Ok(state);
            }
            return Err(ApiError::Conflict {
                code: ProblemCode::RematchStarted,
                detail: "the rematch has started already".to_owned(),
            });
        }
        let name = caller.name.clone();
        let mut events = Vec::new();
        let mut next = None;
        if accept {
            if state.accepted.contains(&seat) {
                return Ok(state);
            }
            let event = if state.accepted.is_empty() {
                ServiceEvent::RematchOffered { seat, name }
            } else {
                ServiceEvent::RematchAccepted { seat, name }
            };
            events.push(service_event(&event)?);
            if state.waiting_for.iter().all(|&s| s == seat) {
                next = Some(());
            }
        } else {
            if state.accepted.is_empty() {
                return Err(ApiError::Conflict {
                    code: ProblemCode::NoRematchOffered,
                    detail: "nobody has offered a rematch".to_owned(),
                });
            }
            events.push(service_event(&ServiceEvent::RematchDeclined {
                seat,
                name,
            })?);
        }
        cardroom_db::in_transaction(conn, |conn| {
            let game = match next {
                None => None,
                Some(()) => {
                    let game = start_rematch(conn, &loaded, caller, metrics)?;
                    events.push(service_event(&ServiceEvent::RematchStarted {
                        game_id: game,
                    })?);
                    Some(game)
                }
            };
            let entry = LogEntry {
                seat: i32::try_from(seat).ok(),
                action: ACTION.to_owned(),
                payload: None,
                events: stored(&events)?,
            };
            games::append_service(conn, id, loaded.version(), &[entry]).map_err(|e| match e {
                DbError::VersionConflict => ApiError::VersionConflict {
                    current: loaded.version(),
                },
                other => other.into(),
            })?;
            let mut after = state.clone();
            if accept {
                after.accepted.push(seat);
                after.accepted.sort_unstable();
                after.waiting_for.retain(|&s| s != seat);
                after.declined_by = None;
            } else {
                after.accepted.clear();
                after.waiting_for = people(&loaded.record.seats);
                after.declined_by = Some(seat);
            }
            after.game_id = game;
            if game.is_some() {
                after.waiting_for.clear();
            }
            Ok(after)
        })
    })
}

/// Makes the new game: the same kind, variant, options, timer and visibility, each seat's
/// player moved one seat on (computers keep their level; a person away plays again), a fresh
/// seed (a practice game stays one, from a seed nobody knows). `caller` creates it.
fn start_rematch(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    caller: &Caller,
    metrics: &Metrics,
) -> Result<i64, ApiError> {
    let row = &loaded.record.game;
    let seats = &loaded.record.seats;
    let n = seats.len();
    let moved = |seat: i32| usize::try_from(seat).map_or(0, |s| (s + 1) % n.max(1));
    let mut requests: Vec<SeatRequest> = (0..n).map(|_| SeatRequest { bot: None }).collect();
    let mut own = None;
    let mut others = Vec::new();
    for seat in seats {
        let to = moved(seat.seat);
        match seat.user_id {
            Some(user) if user == caller.id => own = Some(to),
            Some(user) => others.push((to, user)),
            None => {
                if let Some(request) = requests.get_mut(to) {
                    request.bot = seat.bot.map(|level| level.name().to_owned());
                }
            }
        }
    }
    let own =
        own.ok_or_else(|| ApiError::Forbidden("you are not seated at this game".to_owned()))?;
    let options: BTreeMap<String, OptionValue> =
        serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?;
    let request = CreateGame {
        kind: loaded.kind(),
        variant: Some(row.variant.clone()),
        seats: requests,
        options,
        seat: i64::try_from(own).ok(),
        seed: row.practice.then(|| random_seed().to_hex()),
        deck: None,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        visibility: Some(row.visibility),
    };
    Ok(create_seated(
        conn,
        caller,
        request,
        &others,
        Some(row.id.get()),
        None,
        metrics,
    )?
    .id)
}
