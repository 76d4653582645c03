//! Holding a tournament's row for a transaction: the pairing step passes over a row another
//! replica holds ([`with_claimed_tournament`]); an entry, a withdrawal or an organiser's change
//! waits for it ([`with_locked_tournament`]), so what it checked stays true until it commits.

use diesel::prelude::*;

use super::{TournamentRow, get};
use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::tournaments;

/// Runs `work` on tournament `id` in one transaction while holding its row, waiting for whoever
/// holds it now (the pairing step, another entrant): what `work` checks of the row stays true
/// until it commits, so an entry cannot slip past the start. `work` reads the row afresh; none
/// when there is no such tournament.
pub fn with_locked_tournament<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    id: i64,
    work: impl FnOnce(&mut AnyConnection, Option<TournamentRow>) -> Result<T, E>,
) -> Result<T, E> {
    crate::connection::in_transaction(conn, |conn| {
        match conn {
            AnyConnection::Postgresql(pg) => {
                diesel::sql_query("SELECT id FROM tournaments WHERE id = $1 FOR UPDATE")
                    .bind::<diesel::sql_types::BigInt, _>(id)
                    .execute(pg)
                    .map_err(DbError::from)?;
            }
            AnyConnection::Sqlite(_) => {
                // A write first: it takes SQLite's one writer for the whole transaction.
                diesel::update(tournaments::table.find(id))
                    .set(tournaments::version.eq(tournaments::version))
                    .execute(conn)
                    .map_err(DbError::from)?;
            }
        }
        let row = get(conn, id)?;
        work(conn, row)
    })
}

/// Runs `work` on tournament `id` in one transaction while holding its row, unless another
/// replica holds it now (then `None`). `work` reads the row afresh: it is the one to act on.
pub fn with_claimed_tournament<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    id: i64,
    work: impl FnOnce(&mut AnyConnection, TournamentRow) -> Result<T, E>,
) -> Result<Option<T>, E> {
    #[derive(QueryableByName)]
    struct Claimed {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        #[allow(dead_code, reason = "read only to count the claimed rows")]
        id: i64,
    }
    crate::connection::in_transaction(conn, |conn| {
        match conn {
            AnyConnection::Postgresql(pg) => {
                let claimed = diesel::sql_query(
                    "SELECT id FROM tournaments WHERE id = $1 FOR UPDATE SKIP LOCKED",
                )
                .bind::<diesel::sql_types::BigInt, _>(id)
                .load::<Claimed>(pg)
                .map_err(DbError::from)?;
                if claimed.is_empty() {
                    return Ok(None);
                }
            }
            AnyConnection::Sqlite(_) => {
                // A write first: SQLite's deferred BEGIN could not upgrade a read to a write.
                diesel::update(tournaments::table.find(id))
                    .set(tournaments::version.eq(tournaments::version))
                    .execute(conn)
                    .map_err(DbError::from)?;
            }
        }
        let Some(row) = get(conn, id)? else {
            return Ok(None);
        };
        work(conn, row).map(Some)
    })
}
