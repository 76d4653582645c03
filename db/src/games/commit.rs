//! The commit: one versioned write of a game's change — the new snapshot, the log entries that
//! led to it and everything that goes with them — refused if the game moved on. On PostgreSQL
//! the common move is a single statement; anything more is one transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::derived;
use crate::error::DbError;
use crate::rows::Commit;
use crate::schema::{deals, games, results, seats};
use crate::status::GameStatus;

use super::statements::{AppendLog, MoveWrite, Notices, UpdateGame};
use super::write::{append, store_key};

/// Applies a [`Commit`] atomically: the versioned update first (so SQLite takes its write lock
/// before any read), then the log, seats, deals and idempotency key. Returns the new version.
pub fn commit(conn: &mut AnyConnection, change: &Commit) -> Result<i64, DbError> {
    let now = crate::now();
    let mut movers: Vec<i32> = change
        .entries
        .iter()
        .filter(|e| e.action == "move")
        .filter_map(|e| e.seat)
        .collect();
    movers.sort_unstable();
    movers.dedup();
    if let AnyConnection::Postgresql(pg) = conn
        && is_plain_move(change, &movers, now)
    {
        return write_move(pg, change, now);
    }
    let version = conn.transaction(|conn| {
        let new_version = change.expected_version + change.entries.len() as i64;
        let summary = &change.summary;
        let updated = update_game(conn, change, new_version, now)?;
        if updated == 0 {
            return Err(DbError::VersionConflict);
        }
        if summary.finished {
            diesel::update(games::table.find(change.game_id))
                .set(games::finished_at.eq(Some(now)))
                .execute(conn)?;
            for result in &summary.results {
                diesel::insert_into(results::table)
                    .values((
                        results::game_id.eq(change.game_id),
                        results::seat.eq(result.seat),
                        results::user_id.eq(result.user_id),
                        results::bot.eq(result.bot),
                        results::side.eq(result.side),
                        results::won.eq(result.won),
                    ))
                    .execute(conn)?;
            }
            if summary.status == GameStatus::Finished {
                derived::game_finished(conn, change.game_id, &summary.results, now)?;
            }
        }
        if let Some(leaving) = &change.leaving {
            derived::player_left(conn, change.game_id, leaving, now)?;
        }
        append(
            conn,
            change.game_id,
            change.expected_version + 1,
            &change.entries,
            now,
        )?;
        crate::account_events::add(conn, &change.notices)?;
        derived::players_moved(conn, change.game_id, &movers, now)?;
        for seat in &change.seats {
            diesel::update(seats::table.find((change.game_id, seat.seat)))
                .set((
                    seats::user_id.eq(seat.user_id),
                    seats::bot.eq(seat.bot),
                    seats::joined_at.eq(seat.user_id.map(|_| now)),
                    seats::timeouts.eq(seat.timeouts),
                ))
                .execute(conn)?;
        }
        for deal in &change.deals {
            diesel::insert_into(deals::table)
                .values((
                    deals::game_id.eq(change.game_id),
                    deals::deal.eq(deal.deal),
                    deals::hand.eq(deal.hand),
                    deals::commitment.eq(&deal.commitment),
                    deals::dealt_at.eq(now),
                ))
                .execute(conn)?;
        }
        for reveal in &change.reveals {
            diesel::update(deals::table.find((change.game_id, reveal.deal)))
                .set((
                    deals::seed.eq(Some(&reveal.seed)),
                    deals::revealed_at.eq(Some(now)),
                ))
                .execute(conn)?;
        }
        // (The change notice went with the update.)
        if let Some(key) = &change.idempotency {
            store_key(conn, key, change.game_id, now)?;
        }
        Ok(new_version)
    })?;
    derived::moves_counted(change.game_id, &movers, now);
    Ok(version)
}

/// The versioned update of a commit (with the change notice where this process sends them):
/// the number of rows rewritten, 0 when the version moved on.
fn update_game(
    conn: &mut AnyConnection,
    change: &Commit,
    new_version: i64,
    now: NaiveDateTime,
) -> Result<usize, DbError> {
    let quiet = UpdateGame::<false> {
        change,
        new_version,
        now,
    };
    Ok(match conn {
        AnyConnection::Postgresql(c) if crate::notify::sending() => UpdateGame::<true> {
            change,
            new_version,
            now,
        }
        .execute(c)?,
        AnyConnection::Postgresql(c) => quiet.execute(c)?,
        AnyConnection::Sqlite(c) => quiet.execute(c)?,
    })
}

/// Whether a commit only rewrites the snapshot and appends to the log (the common move): no
/// finish, seats, deals, reveals or idempotency key, and its movers already noted today.
fn is_plain_move(change: &Commit, movers: &[i32], now: NaiveDateTime) -> bool {
    !change.entries.is_empty()
        && !change.summary.finished
        && change.seats.is_empty()
        && change.deals.is_empty()
        && change.reveals.is_empty()
        && change.idempotency.is_none()
        && change.leaving.is_none()
        && derived::moves_already_counted(change.game_id, movers, now)
}

/// [`commit`] for a plain move on PostgreSQL: one statement, atomic on its own.
fn write_move(
    conn: &mut diesel::PgConnection,
    change: &Commit,
    now: NaiveDateTime,
) -> Result<i64, DbError> {
    let new_version = change.expected_version + change.entries.len() as i64;
    let log = AppendLog::new(
        change.game_id,
        change.expected_version + 1,
        &change.entries,
        now,
    );
    let notices = Notices::of(&change.notices);
    crate::account_events::note_woken(notices.users.iter().copied());
    let written = if crate::notify::sending() {
        MoveWrite {
            update: UpdateGame::<true> {
                change,
                new_version,
                now,
            },
            log,
            notices,
        }
        .execute(conn)?
    } else {
        MoveWrite {
            update: UpdateGame::<false> {
                change,
                new_version,
                now,
            },
            log,
            notices,
        }
        .execute(conn)?
    };
    if written == 0 {
        return Err(DbError::VersionConflict);
    }
    Ok(new_version)
}
