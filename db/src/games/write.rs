//! Writing games, besides a move's commit: creating one, importing one, appending the
//! service's own log entries, and claiming a game for background work.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::derived;
use crate::error::DbError;
use crate::id::GameId;
use crate::rows::{GameRow, LogEntry, NewDeal, NewGame, NewIdempotency, SeatChange, Summary};
use crate::schema::{deals, game_log, games, idempotency_keys, seats};

use super::statements::AppendLog;
use crate::status::GameStatus;

/// Creates a game with its seats and its first log entry (version 1), and with `key` the
/// creator's idempotency key naming it (in the same transaction: a key already taken makes
/// nothing, `Duplicate`).
pub fn create(
    conn: &mut AnyConnection,
    new: &NewGame,
    first: &LogEntry,
    key: Option<&NewIdempotency>,
) -> Result<GameRow, DbError> {
    conn.transaction(|conn| {
        let now = crate::now();
        let row: GameRow = diesel::insert_into(games::table)
            .values((
                games::kind.eq(&new.kind),
                games::variant.eq(&new.variant),
                games::options.eq(&new.options),
                games::seat_count.eq(new.seats.len() as i32),
                games::status.eq(GameStatus::Waiting),
                games::seed.eq(&new.seed),
                games::deck.eq(new.deck.as_deref()),
                games::state.eq(None::<String>),
                games::state_format.eq(new.state_format),
                games::version.eq(1i64),
                games::practice.eq(new.practice),
                games::invite_code.eq(&new.invite_code),
                games::created_by.eq(new.created_by),
                games::created_at.eq(now),
                games::updated_at.eq(now),
                games::hands.eq(0),
                games::moves.eq(0),
                games::bot_pending.eq(false),
                games::turn_seconds.eq(new.turn_seconds),
                games::takeover_after.eq(new.takeover_after),
                games::visibility.eq(new.visibility),
            ))
            .returning(games::all_columns)
            .get_result(conn)?;
        insert_seats(conn, row.id, &new.seats, now)?;
        append(conn, row.id, 1, std::slice::from_ref(first), now)?;
        if !row.practice {
            derived::game_created(conn, row.kind, now)?;
        }
        if let Some(key) = key {
            store_key(conn, key, row.id, now)?;
        }
        crate::notify::notify(conn, row.id)?;
        Ok(row)
    })
}

/// Stores `key`'s answer for game `game` (in the caller's transaction: a key already taken is
/// `Duplicate`, and the transaction's other writes go with it).
pub(super) fn store_key(
    conn: &mut AnyConnection,
    key: &NewIdempotency,
    game: GameId,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::user_id.eq(key.user_id),
            idempotency_keys::key.eq(&key.key),
            idempotency_keys::game_id.eq(game),
            idempotency_keys::request_hash.eq(&key.request_hash),
            idempotency_keys::status.eq(key.status),
            idempotency_keys::body.eq(&key.body),
            idempotency_keys::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// A finished game brought in from an export: stored as it was, a practice game (never rated
/// or counted), its players' names as labels.
#[derive(Clone, Debug)]
pub struct ImportedGame {
    pub game: NewGame,
    pub state: String,
    pub summary: Summary,
    /// The log, each entry with its version and time.
    pub log: Vec<(i64, LogEntry, NaiveDateTime)>,
    /// Every deal with its seed.
    pub deals: Vec<(NewDeal, String)>,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
}

/// Stores an imported game; returns its row.
pub fn import(conn: &mut AnyConnection, imported: &ImportedGame) -> Result<GameRow, DbError> {
    conn.transaction(|conn| {
        let new = &imported.game;
        let summary = &imported.summary;
        let now = crate::now();
        let version = imported.log.last().map_or(0, |(seq, _, _)| *seq);
        let row: GameRow = diesel::insert_into(games::table)
            .values((
                games::kind.eq(&new.kind),
                games::variant.eq(&new.variant),
                games::options.eq(&new.options),
                games::seat_count.eq(new.seats.len() as i32),
                games::status.eq(&summary.status),
                games::seed.eq(&new.seed),
                games::deck.eq(new.deck.as_deref()),
                games::state.eq(Some(&imported.state)),
                games::state_format.eq(new.state_format),
                games::version.eq(version),
                games::practice.eq(true),
                games::invite_code.eq(&new.invite_code),
                games::created_by.eq(new.created_by),
                games::created_at.eq(imported.created_at),
                games::updated_at.eq(now),
                games::finished_at.eq(imported.finished_at),
                games::hands.eq(summary.hands),
                games::moves.eq(summary.moves),
                games::winners.eq(summary.winners.as_deref()),
                games::end_reason.eq(summary.end_reason.as_deref()),
                games::bot_pending.eq(false),
                games::turn_seconds.eq(new.turn_seconds),
                games::takeover_after.eq(new.takeover_after),
                games::visibility.eq(new.visibility),
            ))
            .returning(games::all_columns)
            .get_result(conn)?;
        insert_seats(conn, row.id, &new.seats, now)?;
        for (seq, entry, at) in &imported.log {
            diesel::insert_into(game_log::table)
                .values((
                    game_log::game_id.eq(row.id),
                    game_log::seq.eq(seq),
                    game_log::seat.eq(entry.seat),
                    game_log::action.eq(&entry.action),
                    game_log::payload.eq(entry.payload.as_deref()),
                    game_log::events.eq(&entry.events),
                    game_log::created_at.eq(at),
                ))
                .execute(conn)?;
        }
        for (deal, seed) in &imported.deals {
            diesel::insert_into(deals::table)
                .values((
                    deals::game_id.eq(row.id),
                    deals::deal.eq(deal.deal),
                    deals::hand.eq(deal.hand),
                    deals::commitment.eq(&deal.commitment),
                    deals::seed.eq(Some(seed)),
                    deals::dealt_at.eq(imported.created_at),
                    deals::revealed_at.eq(imported.finished_at),
                ))
                .execute(conn)?;
        }
        if row.status == GameStatus::Finished {
            crate::analyses::queue(conn, row.id, now)?;
        }
        Ok(row)
    })
}

/// A new game's seats; a person's joined now.
fn insert_seats(
    conn: &mut AnyConnection,
    game_id: GameId,
    new: &[SeatChange],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    for seat in new {
        diesel::insert_into(seats::table)
            .values((
                seats::game_id.eq(game_id),
                seats::seat.eq(seat.seat),
                seats::user_id.eq(seat.user_id),
                seats::bot.eq(seat.bot),
                seats::joined_at.eq(seat.user_id.map(|_| now)),
                seats::label.eq(seat.label.as_deref()),
            ))
            .execute(conn)?;
    }
    Ok(())
}

pub(super) fn append(
    conn: &mut AnyConnection,
    game_id: GameId,
    first_seq: i64,
    entries: &[LogEntry],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    if entries.is_empty() {
        return Ok(());
    }
    // One statement for the whole batch (a move and the computers' replies).
    match conn {
        AnyConnection::Postgresql(c) => {
            AppendLog::new(game_id, first_seq, entries, now).execute(c)?;
        }
        // (SQLite prepares statements in-process: preparing afresh costs no round trip.)
        AnyConnection::Sqlite(c) => {
            let rows: Vec<_> = entries
                .iter()
                .zip(first_seq..)
                .map(|(entry, seq)| {
                    (
                        game_log::game_id.eq(game_id),
                        game_log::seq.eq(seq),
                        game_log::seat.eq(entry.seat),
                        game_log::action.eq(&entry.action),
                        game_log::payload.eq(entry.payload.as_deref()),
                        game_log::events.eq(&entry.events),
                        game_log::created_at.eq(now),
                    )
                })
                .collect();
            diesel::insert_into(game_log::table)
                .values(rows)
                .execute(c)?;
        }
    }
    Ok(())
}

/// Appends the service's own entries to a game still at `expected_version`, changing nothing
/// else about it (a rematch offered after the game is over, say), and wakes its listeners.
/// Returns the new version; a lost race is [`DbError::VersionConflict`].
pub fn append_service(
    conn: &mut AnyConnection,
    id: GameId,
    expected_version: i64,
    entries: &[LogEntry],
) -> Result<i64, DbError> {
    let now = crate::now();
    let new_version = expected_version + entries.len() as i64;
    conn.transaction(|conn| {
        let updated = diesel::update(
            games::table
                .filter(games::id.eq(id))
                .filter(games::version.eq(expected_version)),
        )
        .set((games::version.eq(new_version), games::updated_at.eq(now)))
        .execute(conn)?;
        if updated == 0 {
            return Err(DbError::VersionConflict);
        }
        append(conn, id, expected_version + 1, entries, now)?;
        crate::notify::notify(conn, id)?;
        Ok(new_version)
    })
}

/// What a background job claims a game for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Claim {
    /// It is left on a computer player's turn.
    BotPending,
    /// Its deadline is at or before this time.
    PastDeadline(NaiveDateTime),
}

/// Runs `work` on game `id` while holding its row, if it still needs the `claim`ed work and no
/// other replica holds it: on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` in one transaction
/// with the work; on SQLite (one writer at a time) the work's own versioned write. Returns
/// `None` when the game was skipped.
pub fn with_claimed_game<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    id: GameId,
    claim: Claim,
    work: impl FnOnce(&mut AnyConnection) -> Result<T, E>,
) -> Result<Option<T>, E> {
    #[derive(QueryableByName)]
    struct Claimed {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        #[allow(dead_code, reason = "read only to count the claimed rows")]
        id: i64,
    }
    if let AnyConnection::Sqlite(_) = conn {
        // No outer transaction: SQLite's deferred BEGIN would read first and could not upgrade
        // to the write; the work's own commit writes first and checks the version.
        return work(conn).map(Some);
    }
    crate::connection::in_transaction(conn, |conn| {
        let AnyConnection::Postgresql(pg) = conn else {
            return Ok(None);
        };
        let claimed = match claim {
            Claim::BotPending => diesel::sql_query(
                "SELECT id FROM games WHERE id = $1 AND bot_pending FOR UPDATE SKIP LOCKED",
            )
            .bind::<diesel::sql_types::BigInt, _>(id)
            .load::<Claimed>(pg),
            Claim::PastDeadline(now) => diesel::sql_query(
                "SELECT id FROM games WHERE id = $1 AND deadline <= $2 FOR UPDATE SKIP LOCKED",
            )
            .bind::<diesel::sql_types::BigInt, _>(id)
            .bind::<diesel::sql_types::Timestamp, _>(now)
            .load::<Claimed>(pg),
        }
        .map_err(DbError::from)?;
        if claimed.is_empty() {
            return Ok(None);
        }
        work(conn).map(Some)
    })
}

/// Clears the deadline of a game still at `version` (a deadline with nobody left to time out).
pub fn clear_deadline(conn: &mut AnyConnection, id: GameId, version: i64) -> Result<(), DbError> {
    diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::version.eq(version)),
    )
    .set(games::deadline.eq(None::<NaiveDateTime>))
    .execute(conn)?;
    Ok(())
}
