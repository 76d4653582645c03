//! Turn timers: when a person's time runs out the server plays for them, and after the table's
//! number of timeouts in a row a computer player takes their seat until they reclaim it.
//!
//! The deadline is a column of the game, written with every change, so it outlives any replica.
//! Every replica's sweep looks for games past their deadline; on PostgreSQL a replica holds the
//! game's row while it acts (`FOR UPDATE SKIP LOCKED`), and the versioned write lets exactly one
//! replica act on each deadline in any case: a timeout is applied once.

use cardroom_core::{Automatic, BotLevel, Controller, Status, Viewer};
use cardroom_db::AnyConnection;
use cardroom_db::GameId;
use cardroom_db::games::{self, SeatChange};

use super::changes::{Changes, run_computers};
use super::commit::{commit_and_view, commit_background};
use super::loaded::load;
use super::seats::controllers;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::metrics::Metrics;
use crate::model::{ServiceEvent, TakeoverReason};

/// The computer player that moves for a person out of time.
const STAND_IN: BotLevel = BotLevel::Easy;

/// The catalogue's turn-timer bounds.
pub fn turn_bounds() -> crate::model::TurnBounds {
    use super::setup::{DEFAULT_TAKEOVER_AFTER, TAKEOVER_AFTER, TURN_SECONDS};
    crate::model::TurnBounds {
        min_seconds: *TURN_SECONDS.start(),
        max_seconds: *TURN_SECONDS.end(),
        min_takeover_after: *TAKEOVER_AFTER.start(),
        max_takeover_after: *TAKEOVER_AFTER.end(),
        default_takeover_after: DEFAULT_TAKEOVER_AFTER,
        stand_in: STAND_IN.name().to_owned(),
    }
}

/// Acts on the games whose deadline has passed; returns the games it moved on.
pub fn enforce(conn: &mut AnyConnection, metrics: &Metrics) -> Result<Vec<GameId>, ApiError> {
    let now = cardroom_db::now();
    let mut moved = Vec::new();
    for id in games::past_deadline(conn, now, 20)? {
        match games::with_claimed_game(conn, id, games::Claim::PastDeadline(now), |conn| {
            time_out(conn, id, now, metrics)
        }) {
            Ok(Some(true)) => {
                moved.push(id);
                Metrics::add(&metrics.timeouts, 1);
            }
            Ok(_) => {}
            Err(ApiError::VersionConflict { .. }) => Metrics::add(&metrics.version_conflicts, 1),
            Err(ApiError::Unavailable) => return Err(ApiError::Unavailable),
            // One game that cannot be moved on must not hold up the others.
            Err(error) => tracing::warn!(game = id.get(), %error, "a timeout could not be applied"),
        }
    }
    Ok(moved)
}

/// Plays for the person out of time in game `id` (or deals, between hands); returns whether
/// anything changed.
fn time_out(
    conn: &mut AnyConnection,
    id: GameId,
    now: chrono::NaiveDateTime,
    metrics: &Metrics,
) -> Result<bool, ApiError> {
    let loaded = load(conn, id)?;
    let (Some(game), Some(deadline)) = (&loaded.game, loaded.record.game.deadline) else {
        return Ok(false);
    };
    if deadline > now {
        return Ok(false);
    }
    // A deadline with nobody left to time out (no change leaves one, but a stale one must not
    // be looked at again on every sweep).
    let nothing_to_do = |conn: &mut AnyConnection| -> Result<bool, ApiError> {
        games::clear_deadline(conn, id, loaded.version())?;
        Ok(false)
    };
    let mut game = game.clone();
    let mut changes = Changes::new(Some(&game));
    let mut seats = loaded.record.seats.clone();
    match game.table().status() {
        Status::Finished => return nothing_to_do(conn),
        Status::HandOver => {
            changes.record_service(
                None,
                "timed_out",
                ServiceEvent::TimedOut {
                    seat: None,
                    timeouts: None,
                    stand_in: "deal".to_owned(),
                },
            )?;
            let events = game
                .deal_next()
                .map_err(ApiError::because("the timed-out deal was refused"))?;
            changes.record(&game, None, "deal", None, &events)?;
        }
        Status::Active => {
            let Some(seat) = game.to_act() else {
                return nothing_to_do(conn);
            };
            let Some(row) = seats.iter().find(|s| s.seat == i32::from(seat.number())) else {
                return Err(ApiError::internal(format!(
                    "game {id} has no seat {seat:?}"
                )));
            };
            if row.user_id.is_none() || row.bot.is_some() {
                return nothing_to_do(conn);
            }
            let timeouts = row.timeouts.saturating_add(1);
            let takeover = timeouts >= loaded.record.game.takeover_after.unwrap_or(i32::MAX);
            changes.record_service(
                Some(seat.number()),
                "timed_out",
                ServiceEvent::TimedOut {
                    seat: Some(i64::from(seat.number())),
                    timeouts: Some(i64::from(timeouts)),
                    stand_in: STAND_IN.name().to_owned(),
                },
            )?;
            // The stand-in plays from the seat's view, like any computer player.
            let mut stand_in = controllers(&seats);
            if let Some(c) = stand_in.get_mut(seat.index()) {
                *c = Controller::Computer(STAND_IN);
            }
            let Some(Automatic::Move(mover, mv)) = game.next_automatic(&stand_in) else {
                return Err(ApiError::internal(format!(
                    "game {id}: no stand-in move for seat {}",
                    seat.number()
                )));
            };
            let events = game
                .play(mover, &mv)
                .map_err(ApiError::because("the stand-in's move was refused"))?;
            let payload = serde_json::to_value(&mv).ok();
            changes.record(&game, Some(mover.number()), "move", payload, &events)?;
            let level = game.kind().describe().default_level;
            let change = SeatChange {
                seat: row.seat,
                user_id: row.user_id,
                bot: takeover.then_some(level),
                timeouts,
                label: None,
            };
            if takeover {
                changes.record_takeover(seat, level, TakeoverReason::Timeouts)?;
            }
            changes.seats.push(change);
            seats = loaded.with_seats(&changes.seats).record.seats;
        }
    }
    run_computers(&mut game, &seats, &mut changes, metrics)?;
    commit_background(conn, &loaded, &game, &seats, changes)?;
    Ok(true)
}

/// `POST /games/{id}/reclaim`: a person takes back the seat a computer played while they were
/// away.
pub fn reclaim(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    metrics: &Metrics,
) -> Result<super::Acted, ApiError> {
    super::commit::with_retries(metrics, || {
        let loaded = load(conn, id)?;
        let seat = loaded.require_seat(caller)?;
        let game = loaded.started()?.clone();
        if game.table().status() == Status::Finished {
            return Err(ApiError::GameOver("the game is over".to_owned()));
        }
        let Some(row) = loaded
            .record
            .seats
            .iter()
            .find(|s| s.seat == i32::from(seat.number()) && s.bot.is_some())
        else {
            return Err(ApiError::Conflict {
                code: ProblemCode::NotAway,
                detail: "you are playing your seat yourself".to_owned(),
            });
        };
        let mut changes = Changes::new(Some(&game));
        let change = SeatChange {
            seat: row.seat,
            user_id: row.user_id,
            bot: None,
            timeouts: 0,
            label: None,
        };
        changes.record_service(
            Some(seat.number()),
            "seat_reclaimed",
            ServiceEvent::SeatReclaimed {
                seat: i64::from(seat.number()),
                name: caller.name.clone(),
            },
        )?;
        changes.seats.push(change);
        let loaded = loaded.with_seats(&changes.seats);
        let viewer = Viewer::Seat(seat);
        let (events, view) = commit_and_view(conn, &loaded, game, changes, None, viewer, metrics)?;
        Ok(super::Acted { events, view })
    })
}
