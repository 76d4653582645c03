//! Finished games' analyses, made in the background. A replica claims a game with one
//! conditional statement (an insert that does nothing on a conflict, or an update of a claim
//! gone stale), so of two replicas looking at once exactly one works on it; it then reports its
//! progress and finally the analysis, each write only while its claim still stands.

use chrono::NaiveDateTime;
use diesel::dsl::{exists, not};
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::schema::{game_analyses, games};
use crate::status::GameStatus;

/// A game's analysis as stored.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct AnalysisRow {
    pub game_id: i64,
    pub format: i32,
    /// `running`, `done` or `failed`.
    pub status: String,
    pub done: i32,
    pub total: i32,
    /// The analysis as JSON, once done.
    pub body: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    pub started_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The stored analysis of `game`, if any.
pub fn get(conn: &mut AnyConnection, game: GameId) -> Result<Option<AnalysisRow>, DbError> {
    Ok(game_analyses::table
        .find(game.get())
        .first::<AnalysisRow>(conn)
        .optional()?)
}

/// The finished game that has waited longest for an analysis of `format`: one with none, or of
/// an older format, or whose claim was last renewed before `stale`.
pub fn next_due(
    conn: &mut AnyConnection,
    format: i32,
    stale: NaiveDateTime,
) -> Result<Option<GameId>, DbError> {
    let settled = game_analyses::table.filter(
        game_analyses::game_id
            .eq(games::id)
            .and(game_analyses::format.ge(format))
            .and(
                game_analyses::status
                    .ne("running")
                    .or(game_analyses::updated_at.ge(stale)),
            ),
    );
    let id = games::table
        .filter(games::status.eq(GameStatus::Finished))
        .filter(not(exists(settled)))
        .order((games::finished_at.asc(), games::id.asc()))
        .select(games::id)
        .first::<i64>(conn)
        .optional()?;
    Ok(id.map(GameId::new))
}

/// Claims `game` for an analysis of `format` of `total` moves: the claim's time when this
/// caller now holds it (no row yet, an older format, or a claim last renewed before `stale`),
/// which its later writes name.
pub fn claim(
    conn: &mut AnyConnection,
    game: GameId,
    format: i32,
    total: i32,
    stale: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, DbError> {
    let now = crate::now();
    let row = (
        game_analyses::game_id.eq(game.get()),
        game_analyses::format.eq(format),
        game_analyses::status.eq("running"),
        game_analyses::done.eq(0),
        game_analyses::total.eq(total),
        game_analyses::started_at.eq(now),
        game_analyses::updated_at.eq(now),
    );
    // (`ON CONFLICT` is written for each backend on its own connection type.)
    let inserted = match conn {
        AnyConnection::Postgresql(c) => diesel::insert_into(game_analyses::table)
            .values(row)
            .on_conflict_do_nothing()
            .execute(c)?,
        AnyConnection::Sqlite(c) => diesel::insert_into(game_analyses::table)
            .values(row)
            .on_conflict_do_nothing()
            .execute(c)?,
    };
    if inserted == 1 {
        return Ok(Some(now));
    }
    let taken = diesel::update(
        game_analyses::table.filter(
            game_analyses::game_id.eq(game.get()).and(
                game_analyses::format.lt(format).or(game_analyses::status
                    .eq("running")
                    .and(game_analyses::updated_at.lt(stale))),
            ),
        ),
    )
    .set((
        game_analyses::format.eq(format),
        game_analyses::status.eq("running"),
        game_analyses::done.eq(0),
        game_analyses::total.eq(total),
        game_analyses::body.eq(None::<String>),
        game_analyses::error.eq(None::<String>),
        game_analyses::started_at.eq(now),
        game_analyses::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok((taken == 1).then_some(now))
}

/// Records that `done` moves of `game` are analysed, while the claim made at `started` still
/// stands (false when another replica took it over).
pub fn progress(
    conn: &mut AnyConnection,
    game: GameId,
    started: NaiveDateTime,
    done: i32,
) -> Result<bool, DbError> {
    let updated = diesel::update(
        game_analyses::table
            .filter(game_analyses::game_id.eq(game.get()))
            .filter(game_analyses::status.eq("running"))
            .filter(game_analyses::started_at.eq(started)),
    )
    .set((
        game_analyses::done.eq(done),
        game_analyses::updated_at.eq(crate::now()),
    ))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Stores the analysis of `game` (its JSON), or why it failed, under the claim made at
/// `started` (false when another replica took it over).
pub fn finish(
    conn: &mut AnyConnection,
    game: GameId,
    started: NaiveDateTime,
    outcome: Result<String, String>,
) -> Result<bool, DbError> {
    let (status, body, error) = match outcome {
        Ok(body) => ("done", Some(body), None),
        Err(error) => ("failed", None, Some(error)),
    };
    let updated = diesel::update(
        game_analyses::table
            .filter(game_analyses::game_id.eq(game.get()))
            .filter(game_analyses::status.eq("running"))
            .filter(game_analyses::started_at.eq(started)),
    )
    .set((
        game_analyses::status.eq(status),
        game_analyses::done.eq(game_analyses::total),
        game_analyses::body.eq(body),
        game_analyses::error.eq(error),
        game_analyses::updated_at.eq(crate::now()),
    ))
    .execute(conn)?;
    Ok(updated == 1)
}
