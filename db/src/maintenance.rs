//! What an operator's tools read beside the service: a consistent copy of an SQLite database
//! taken while it serves; and for a check, the games one by one, their results and what
//! tournaments recorded of them, and each rating with its history.

use diesel::prelude::*;
use diesel::sql_types::Text;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::ratings::RatingRow;
use crate::rows::SeatResult;
use crate::schema::{games, rating_history, ratings, tournament_seats, tournaments};
use crate::tournaments::Recorded;
use cardroom_core::GameKind;

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

/// A game's stored results (one row a seat, once it is finished), by seat: the rows its
/// rating was made from.
pub fn results_of(conn: &mut AnyConnection, game: GameId) -> Result<Vec<SeatResult>, DbError> {
    crate::ratings::stored_results(conn, game)
}

/// What a tournament recorded of one of its games: its tournament, whether that is a team
/// match, and how each entrant's seat did.
#[derive(Clone, Debug)]
pub struct RecordedSeat {
    pub tournament: i64,
    pub teams: bool,
    pub recorded: Recorded,
}

/// The tournament seats recorded for `game` (none for a game outside a tournament, or one
/// whose result is not recorded yet).
pub fn recorded_seats(
    conn: &mut AnyConnection,
    game: GameId,
) -> Result<Vec<RecordedSeat>, DbError> {
    tournament_seats::table
        .inner_join(tournaments::table.on(tournaments::id.eq(tournament_seats::tournament_id)))
        .filter(tournament_seats::game_id.eq(game))
        .select((
            tournament_seats::tournament_id,
            tournaments::teams,
            tournament_seats::seat,
            tournament_seats::place,
            tournament_seats::points,
            tournament_seats::result,
            tournament_seats::first,
        ))
        .order(tournament_seats::seat)
        .load::<(
            i64,
            bool,
            Option<i32>,
            Option<i32>,
            Option<i32>,
            Option<i64>,
            Option<i32>,
        )>(conn)
        .map(|rows| {
            rows.into_iter()
                .filter_map(|(tournament, teams, seat, place, points, result, first)| {
                    Some(RecordedSeat {
                        tournament,
                        teams,
                        recorded: Recorded {
                            seat: seat?,
                            place: place?,
                            points: points?,
                            result: result?,
                            first: first?,
                        },
                    })
                })
                .collect()
        })
        .map_err(DbError::from)
}

/// One rating and its history: every rated game's change to it, in no particular order.
#[derive(Clone, Debug)]
pub struct RatingTrail {
    pub rating: RatingRow,
    /// `(game, rating before, rating after, deviation after)`.
    pub changes: Vec<(GameId, f64, f64, f64)>,
}

/// The ratings of the people with ids after `after` (at most `limit` people), each with its
/// history.
pub fn rating_trails_after(
    conn: &mut AnyConnection,
    after: i64,
    limit: i64,
) -> Result<Vec<RatingTrail>, DbError> {
    let people: Vec<i64> = ratings::table
        .select(ratings::user_id)
        .filter(ratings::user_id.gt(after))
        .distinct()
        .order(ratings::user_id.asc())
        .limit(limit)
        .load(conn)?;
    let rows: Vec<RatingRow> = ratings::table
        .filter(ratings::user_id.eq_any(&people))
        .order((ratings::user_id, ratings::kind, ratings::pool))
        .load(conn)?;
    let history: Vec<(i64, GameKind, String, GameId, f64, f64, f64)> = rating_history::table
        .filter(rating_history::user_id.eq_any(&people))
        .select((
            rating_history::user_id,
            rating_history::kind,
            rating_history::pool,
            rating_history::game_id,
            rating_history::before,
            rating_history::rating,
            rating_history::deviation,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|rating| {
            let changes = history
                .iter()
                .filter(|h| h.0 == rating.user_id && h.1 == rating.kind && h.2 == rating.pool)
                .map(|h| (h.3, h.4, h.5, h.6))
                .collect();
            RatingTrail { rating, changes }
        })
        .collect())
}

/// Rated games that cannot have been rated: missing, or practice.
pub fn unratable_games(conn: &mut AnyConnection, rated: &[GameId]) -> Result<Vec<GameId>, DbError> {
    let ratable: Vec<GameId> = games::table
        .filter(games::id.eq_any(rated))
        .filter(games::practice.eq(false))
        .select(games::id)
        .load(conn)?;
    Ok(rated
        .iter()
        .copied()
        .filter(|id| !ratable.contains(id))
        .collect())
}
