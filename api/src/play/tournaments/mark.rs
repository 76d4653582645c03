//! What tells the safety net (`crate::sentinel`) that a tournament changed: everything its page
//! is built from, read for anyone — its row, its entrants, its seats and their results, its
//! maker's name.

use cardroom_db::tournaments::{self, EntrantRow, SeatRow, TournamentRow};
use cardroom_db::{AnyConnection, users};

use crate::error::ApiError;

/// Tournament `id` as the safety net last saw it: equal marks, nothing a follower sees changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentMark {
    row: TournamentRow,
    entrants: Vec<EntrantRow>,
    seats: Vec<SeatRow>,
    creator: Option<String>,
}

/// The marks of tournaments `ids` (none for one that is gone), four statements each.
pub fn marks(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, Option<TournamentMark>)>, ApiError> {
    ids.iter()
        .map(|&id| {
            let Some(row) = tournaments::get(conn, id)? else {
                return Ok((id, None));
            };
            let mark = TournamentMark {
                entrants: tournaments::entrants(conn, id)?,
                seats: tournaments::seats(conn, id)?,
                creator: users::by_id(conn, row.created_by)?.map(|u| u.name),
                row,
            };
            Ok((id, Some(mark)))
        })
        .collect()
}
