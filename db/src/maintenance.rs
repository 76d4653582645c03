//! What an operator's tools read beside the service: a consistent copy of an SQLite database
//! taken while it serves, and the games one by one for a check.

use diesel::prelude::*;
use diesel::sql_types::Text;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::schema::games;

/// Copies an SQLite database into the new file `dest` (`VACUUM INTO`): the copy is read in one
/// transaction, so it is the database as of one commit, compacted, while the service goes on
/// writing (the database is in WAL mode: its writers do not wait for a reader). PostgreSQL has
/// its own tools for this (docs/operations.md).
pub fn backup_sqlite(conn: &mut AnyConnection, dest: &str) -> Result<(), DbError> {
    match conn {
        AnyConnection::Sqlite(sqlite) => {
            diesel::sql_query("VACUUM INTO ?")
                .bind::<Text, _>(dest)
                .execute(sqlite)?;
            Ok(())
        }
        AnyConnection::Postgresql(_) => Err(DbError::Other(
            "a PostgreSQL database is backed up with pgBackRest or pg_dump (docs/operations.md)"
                .to_owned(),
        )),
    }
}

/// Up to `limit` games' ids after `after`, in order.
pub fn game_ids_after(
    conn: &mut AnyConnection,
    after: i64,
    limit: i64,
) -> Result<Vec<GameId>, DbError> {
    games::table
        .select(games::id)
        .filter(games::id.gt(GameId::new(after)))
        .order(games::id.asc())
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}
