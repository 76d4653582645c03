//! What a change of a game updates beside the game: the dashboard's daily roll-ups, the
//! players' ratings, and the queue of analyses. The game rows' writes (creating a game, committing a change) reach the
//! roll-ups and the ratings only through these functions; neither calls back into the game
//! rows, they take what they need as values.

use cardroom_core::GameKind;
use chrono::NaiveDateTime;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::rows::{Leaving, SeatResult};
use crate::{analyses, ratings, rollups};

/// A real (non-practice) game was created: counted as started on `now`'s day.
pub(crate) fn game_created(
    conn: &mut AnyConnection,
    kind: GameKind,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    rollups::roll_up_start(conn, kind, now)
}

/// A game finished, its row and results written: counted on `now`'s day, unless it is a
/// practice game rated (a duplicate round's table when its round is over:
/// [`crate::ratings::rate_round`]), and queued for its analysis.
pub(crate) fn game_finished(
    conn: &mut AnyConnection,
    game_id: GameId,
    results: &[SeatResult],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    rollups::roll_up_finish(conn, game_id, now)?;
    if !ratings::waits_for_round(conn, game_id)? {
        ratings::rate_game(conn, game_id, results, None, now)?;
    }
    analyses::queue(conn, game_id, now)
}

/// A person left a game for good: rated now, as a loss against every other seat.
pub(crate) fn player_left(
    conn: &mut AnyConnection,
    game_id: GameId,
    leaving: &Leaving,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    ratings::rate_game(conn, game_id, &leaving.seats, Some(leaving.user_id), now)
}

/// The people in these seats made a move on `now`'s day (in the change's transaction).
pub(crate) fn players_moved(
    conn: &mut AnyConnection,
    game_id: GameId,
    seats: &[i32],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    for &seat in seats {
        rollups::record_player_day(conn, game_id, seat, now)?;
    }
    Ok(())
}

/// Whether this process already counted every one of these seats as playing on `now`'s day,
/// so that a move needs no roll-up write.
pub(crate) fn moves_already_counted(game_id: GameId, seats: &[i32], now: NaiveDateTime) -> bool {
    seats
        .iter()
        .all(|&seat| rollups::is_noted(game_id, seat, now))
}

/// Remembers that these seats were counted on `now`'s day (call once the change committed).
pub(crate) fn moves_counted(game_id: GameId, seats: &[i32], now: NaiveDateTime) {
    for &seat in seats {
        rollups::noted(game_id, seat, now);
    }
}
