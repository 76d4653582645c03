//! Finished games' analyses, made in the background. A game is queued in the transaction that
//! finishes it; a replica claims a queued game (or one whose claim went stale) with one
//! conditional update, so of two replicas looking at once exactly one works on it; it then
//! reports its progress and finally the analysis, each write only while its claim still stands.

use chrono::NaiveDateTime;
use diesel::dsl::{exists, not};
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::schema::{game_analyses, games};
use crate::status::GameStatus;

/// Where a game's analysis stands.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Debug,
    serde::Serialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Waiting for a replica to claim it.
    Queued,
    /// Claimed: a replica is making it (or made it and stopped answering; then it is stale).
    Running,
    /// Made: the body is stored.
    Done,
    /// The analyser failed: the error is stored.
    Failed,
}

impl AnalysisStatus {
    /// Every status.
    pub const ALL: [AnalysisStatus; 4] = [
        AnalysisStatus::Queued,
        AnalysisStatus::Running,
        AnalysisStatus::Done,
        AnalysisStatus::Failed,
    ];

    /// The stored (and answered) word.
    pub const fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }

    /// Not yet made (queued or being made).
    pub const fn is_pending(self) -> bool {
        matches!(self, AnalysisStatus::Queued | AnalysisStatus::Running)
    }
}

crate::words::text_column!(AnalysisStatus, "analysis status", not ["waiting", "Done", ""]);

/// A game's analysis as stored.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct AnalysisRow {
    pub game_id: i64,
    pub format: i32,
    pub status: AnalysisStatus,
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

/// Rows a replica may claim: queued, or claimed by a replica that has said nothing since
/// `stale`.
#[diesel::dsl::auto_type]
fn claimable(stale: NaiveDateTime) -> _ {
    let queued: AnalysisStatus = AnalysisStatus::Queued;
    let running: AnalysisStatus = AnalysisStatus::Running;
    game_analyses::status.eq(queued).or(game_analyses::status
        .eq(running)
        .and(game_analyses::updated_at.lt(stale)))
}

/// The row of `game` while the claim made at `started` stands.
#[diesel::dsl::auto_type]
fn held(game: i64, started: NaiveDateTime) -> _ {
    let running: AnalysisStatus = AnalysisStatus::Running;
    game_analyses::game_id
        .eq(game)
        .and(game_analyses::status.eq(running))
        .and(game_analyses::started_at.eq(started))
}

/// Queues `game`, just finished, for its analysis (nothing if it is already there).
pub(crate) fn queue(
    conn: &mut AnyConnection,
    game: GameId,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let row = (
        game_analyses::game_id.eq(game.get()),
        game_analyses::format.eq(0),
        game_analyses::status.eq(AnalysisStatus::Queued),
        game_analyses::done.eq(0),
        game_analyses::total.eq(0),
        game_analyses::started_at.eq(now),
        game_analyses::updated_at.eq(now),
    );
    // (`ON CONFLICT` is written for each backend on its own connection type.)
    match conn {
        AnyConnection::Postgresql(c) => diesel::insert_into(game_analyses::table)
            .values(row)
            .on_conflict_do_nothing()
            .execute(c)?,
        AnyConnection::Sqlite(c) => diesel::insert_into(game_analyses::table)
            .values(row)
            .on_conflict_do_nothing()
            .execute(c)?,
    };
    Ok(())
}

/// Once a process: queues every finished game that has no analysis row (games finished before
/// analyses existed), and every analysis of a format older than `format` to be made again.
/// Returns how many it queued.
pub fn queue_missing(conn: &mut AnyConnection, format: i32) -> Result<usize, DbError> {
    let mut queued = diesel::update(
        game_analyses::table
            .filter(game_analyses::format.lt(format))
            .filter(game_analyses::status.eq_any([AnalysisStatus::Done, AnalysisStatus::Failed])),
    )
    .set((
        game_analyses::status.eq(AnalysisStatus::Queued),
        game_analyses::done.eq(0),
        game_analyses::body.eq(None::<String>),
        game_analyses::error.eq(None::<String>),
    ))
    .execute(conn)?;
    loop {
        let has_row = game_analyses::table.filter(game_analyses::game_id.eq(games::id));
        let missing: Vec<(i64, Option<NaiveDateTime>)> = games::table
            .filter(games::status.eq(GameStatus::Finished))
            .filter(not(exists(has_row)))
            .select((games::id, games::finished_at))
            .limit(1000)
            .load(conn)?;
        if missing.is_empty() {
            return Ok(queued);
        }
        for (id, finished_at) in missing {
            queue(
                conn,
                GameId::new(id),
                finished_at.unwrap_or_else(crate::now),
            )?;
            queued += 1;
        }
    }
}

/// The next analysis to make, the accounts taking turns: each account's analyses not yet made
/// (by who made the game; one being made first, then the queued in the order they waited) are
/// numbered, and of those due (queued, or claimed by a replica that has said nothing since
/// `stale`) the lowest number goes first, the longest wait among equals. So one account that
/// finishes a hundred games at once puts at most one or two of them ahead of another's.
pub fn next_due(conn: &mut AnyConnection, stale: NaiveDateTime) -> Result<Option<GameId>, DbError> {
    #[derive(QueryableByName)]
    struct Due {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        game_id: i64,
    }
    // (The words are the column's own, written in from its type.)
    let due_sql = format!(
        "SELECT game_id FROM (\
         SELECT a.game_id, a.status, a.updated_at, ROW_NUMBER() OVER (\
           PARTITION BY g.created_by \
           ORDER BY CASE WHEN a.status = '{running}' THEN 0 ELSE 1 END, a.updated_at, a.game_id\
         ) AS turn \
         FROM game_analyses a JOIN games g ON g.id = a.game_id \
         WHERE a.status IN ('{queued}', '{running}')\
       ) due WHERE status = '{queued}' OR updated_at < $1 \
       ORDER BY turn, updated_at, game_id LIMIT 1",
        running = AnalysisStatus::Running.as_str(),
        queued = AnalysisStatus::Queued.as_str(),
    );
    let due = match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(due_sql)
            .bind::<diesel::sql_types::Timestamp, _>(stale)
            .load::<Due>(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(due_sql.replace("$1", "?"))
            .bind::<diesel::sql_types::Timestamp, _>(stale)
            .load::<Due>(c)?,
    };
    Ok(due.first().map(|d| GameId::new(d.game_id)))
}

/// Claims `game`'s analysis, in `format`: the claim's time when this caller now holds it (it was
/// queued, or its claim was last renewed before `stale`), which its later writes name. One
/// conditional update: of two replicas claiming at once, one wins.
pub fn claim(
    conn: &mut AnyConnection,
    game: GameId,
    format: i32,
    stale: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, DbError> {
    let now = crate::now();
    let taken = diesel::update(
        game_analyses::table.filter(game_analyses::game_id.eq(game.get()).and(claimable(stale))),
    )
    .set((
        game_analyses::format.eq(format),
        game_analyses::status.eq(AnalysisStatus::Running),
        game_analyses::done.eq(0),
        game_analyses::total.eq(0),
        game_analyses::body.eq(None::<String>),
        game_analyses::error.eq(None::<String>),
        game_analyses::started_at.eq(now),
        game_analyses::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok((taken == 1).then_some(now))
}

/// Gives the claim made at `started` back (the process is stopping): the game is queued again,
/// for this replica or another to make from the start. False if the claim was not held.
pub fn release(
    conn: &mut AnyConnection,
    game: GameId,
    started: NaiveDateTime,
) -> Result<bool, DbError> {
    let released = diesel::update(game_analyses::table.filter(held(game.get(), started)))
        .set((
            game_analyses::status.eq(AnalysisStatus::Queued),
            game_analyses::done.eq(0),
            game_analyses::updated_at.eq(crate::now()),
        ))
        .execute(conn)?;
    Ok(released == 1)
}

/// Records that `done` of `total` moves of `game` are analysed, while the claim made at
/// `started` still stands (false when another replica took it over).
pub fn progress(
    conn: &mut AnyConnection,
    game: GameId,
    started: NaiveDateTime,
    done: i32,
    total: i32,
) -> Result<bool, DbError> {
    let updated = diesel::update(game_analyses::table.filter(held(game.get(), started)))
        .set((
            game_analyses::done.eq(done),
            game_analyses::total.eq(total),
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
        Ok(body) => (AnalysisStatus::Done, Some(body), None),
        Err(error) => (AnalysisStatus::Failed, None, Some(error)),
    };
    let updated = diesel::update(game_analyses::table.filter(held(game.get(), started)))
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
