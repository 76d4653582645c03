//! Recovery of games left on a computer player's turn, and replaying a game from its log.

use cardroom_core::{AnyGame, AnyMove, Seat};
use cardroom_db::AnyConnection;
use cardroom_db::GameId;
use cardroom_db::games::{self, GameRow, LogRow};
use serde_json::Value;

use super::changes::{Changes, run_computers};
use super::commit::commit_background;
use super::loaded::load;
use super::seats::controllers;
use crate::error::ApiError;
use crate::metrics::Metrics;

/// Finds games left on a computer player's turn (a replica died between a person's move and
/// the computer's reply, or a reply was cut short) and lets the computers play; returns the
/// games it moved on. Any replica may run this at any time: on PostgreSQL a replica holds each
/// game's row while it works (`FOR UPDATE SKIP LOCKED`), and the versioned write lets exactly
/// one replica win each game in any case.
pub fn recover(conn: &mut AnyConnection, metrics: &Metrics) -> Result<Vec<GameId>, ApiError> {
    let mut recovered = Vec::new();
    for id in games::bot_pending(conn, 20)? {
        match games::with_claimed_game(conn, id, games::Claim::BotPending, |conn| {
            recover_one(conn, id, metrics)
        }) {
            Ok(Some(true)) => {
                recovered.push(id);
                Metrics::add(&metrics.recovered_games, 1);
            }
            Ok(_) => {}
            Err(ApiError::VersionConflict { .. }) => Metrics::add(&metrics.version_conflicts, 1),
            Err(other) => return Err(other),
        }
    }
    Ok(recovered)
}

/// Lets the computer players of one game act; returns whether anything changed.
fn recover_one(conn: &mut AnyConnection, id: GameId, metrics: &Metrics) -> Result<bool, ApiError> {
    let loaded = load(conn, id)?;
    let Some(game) = &loaded.game else {
        return Ok(false);
    };
    let mut game = game.clone();
    let mut changes = Changes::new(Some(&game));
    run_computers(&mut game, &loaded.record.seats, &mut changes, metrics)?;
    let seats = &loaded.record.seats;
    if changes.entries.is_empty() && game.next_automatic(&controllers(seats)).is_some() {
        tracing::warn!(game = id.get(), "a computer player found no move");
        return Ok(false);
    }
    // (With nothing to do, the write clears a stale `bot_pending`.)
    commit_background(conn, &loaded, &game, seats, changes)?;
    Ok(true)
}

/// Rebuilds a game from its log alone: the stored options, seed and deck, then every logged
/// move, deal and resignation in order. The snapshot must equal it.
pub fn replay(conn: &mut AnyConnection, id: GameId) -> Result<Option<AnyGame>, ApiError> {
    replay_each(conn, id, |_, _| Ok(()))
}

/// Like [`replay`], calling `after` with each log entry and the game as it stands after it
/// (none before the first deal).
pub(super) fn replay_each(
    conn: &mut AnyConnection,
    id: GameId,
    mut after: impl FnMut(&LogRow, Option<&AnyGame>) -> Result<(), ApiError>,
) -> Result<Option<AnyGame>, ApiError> {
    let loaded = load(conn, id)?;
    let mut game: Option<AnyGame> = None;
    let mut last_seq = 0;
    loop {
        let rows = games::log_after(conn, id, last_seq, 1000)?;
        let Some(last) = rows.last() else { break };
        last_seq = last.seq;
        for row in rows {
            replay_entry(&loaded.record.game, &mut game, &row, &mut |_, _, _| Ok(()))?;
            after(&row, game.as_ref())?;
        }
    }
    Ok(game)
}

/// Applies one log entry to the game being rebuilt from `record` (none before the first deal),
/// calling `before_move` with the game, the seat and the move just before a move is made.
pub(super) fn replay_entry(
    record: &GameRow,
    game: &mut Option<AnyGame>,
    row: &LogRow,
    before_move: &mut dyn FnMut(&AnyGame, Seat, &AnyMove) -> Result<(), ApiError>,
) -> Result<(), ApiError> {
    let id = record.id;
    let broken = |what: String| ApiError::internal(format!("game {id} does not replay: {what}"));
    let seat = || {
        row.seat
            .and_then(|s| u8::try_from(s).ok())
            .map(Seat::new)
            .ok_or_else(|| broken(format!("entry {} names no seat", row.seq)))
    };
    match (row.action.as_str(), game.as_mut()) {
        ("started", _) => *game = Some(super::setup::deal_first_hand(record)?.0),
        ("move", Some(g)) => {
            let payload: Value = serde_json::from_str(row.payload.as_deref().unwrap_or("null"))
                .map_err(|e| broken(e.to_string()))?;
            let mv = record
                .kind
                .parse_move(&payload)
                .map_err(|e| broken(e.to_string()))?;
            before_move(g, seat()?, &mv)?;
            g.play(seat()?, &mv).map_err(|e| broken(e.to_string()))?;
        }
        ("deal", Some(g)) => {
            g.deal_next().map_err(|e| broken(e.to_string()))?;
        }
        ("resign", Some(g)) => {
            g.resign(seat()?).map_err(|e| broken(e.to_string()))?;
        }
        ("move" | "deal" | "resign", None) => {
            return Err(broken(format!("entry {} comes before the deal", row.seq)));
        }
        _ => {}
    }
    Ok(())
}

/// The stored snapshot of a game.
pub fn snapshot_of(conn: &mut AnyConnection, id: GameId) -> Result<Option<AnyGame>, ApiError> {
    Ok(load(conn, id)?.game)
}
