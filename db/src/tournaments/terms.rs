//! An organiser's changes to a tournament: its terms rewritten before the start, or the
//! tournament called off.

use diesel::prelude::*;

use super::{CancelCause, NewTournament, TournamentRow, TournamentStatus};
use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::notify::notify_tournament;
use crate::schema::tournaments;

/// Calls tournament `row` off (before or while it runs) for `cause`, with `note`, if it is still
/// at the version read; fails with [`DbError::VersionConflict`] otherwise.
pub fn cancel(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    cause: CancelCause,
    note: Option<&str>,
) -> Result<(), DbError> {
    let changed = diesel::update(
        tournaments::table
            .find(row.id)
            .filter(tournaments::version.eq(row.version)),
    )
    .set((
        tournaments::status.eq(TournamentStatus::Cancelled),
        tournaments::finished_at.eq(Some(crate::now())),
        tournaments::cancel_cause.eq(Some(cause)),
        tournaments::cancel_note.eq(note),
        tournaments::version.eq(row.version + 1),
    ))
    .execute(conn)?;
    if changed == 1 {
        notify_tournament(conn, row.id)
    } else {
        Err(DbError::VersionConflict)
    }
}

/// Rewrites upcoming tournament `row`'s terms (everything but its maker, code and seed) as
/// `new` has them, if it is still upcoming at the version read; fails with
/// [`DbError::VersionConflict`] otherwise.
pub fn edit(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    new: &NewTournament,
) -> Result<TournamentRow, DbError> {
    let changed: Option<TournamentRow> = diesel::update(
        tournaments::table
            .find(row.id)
            .filter(tournaments::version.eq(row.version))
            .filter(tournaments::status.eq(TournamentStatus::Upcoming)),
    )
    .set((
        tournaments::name.eq(&new.name),
        tournaments::format.eq(new.format),
        tournaments::kind.eq(new.kind),
        tournaments::variant.eq(&new.variant),
        tournaments::options.eq(&new.options),
        tournaments::table_seats.eq(new.table_seats),
        tournaments::rounds.eq(new.rounds),
        tournaments::minutes.eq(new.minutes),
        tournaments::fill.eq(new.fill),
        tournaments::turn_seconds.eq(new.turn_seconds),
        tournaments::takeover_after.eq(new.takeover_after),
        tournaments::rated.eq(new.rated),
        tournaments::starts_at.eq(new.starts_at),
        tournaments::teams.eq(new.teams),
        tournaments::version.eq(row.version + 1),
    ))
    .returning(tournaments::all_columns)
    .get_result(conn)
    .optional()?;
    match changed {
        Some(updated) => {
            notify_tournament(conn, row.id)?;
            Ok(updated)
        }
        None => Err(DbError::VersionConflict),
    }
}
