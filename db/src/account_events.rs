//! The account event log: what concerns an account — a game started, its turn, a game over, a
//! challenge, a quick match — in order, for the account's event stream to resume from.

use std::cell::RefCell;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::account_events;

/// Something to tell an account.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AccountNotice {
    pub user_id: i64,
    /// The event's type (`game_started`, `your_turn`, …).
    pub kind: String,
    /// The event, as JSON text.
    pub data: String,
}

/// A stored account event.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct EventRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub data: String,
    pub created_at: NaiveDateTime,
}

thread_local! {
    /// The accounts this thread wrote events for since it was last asked (see [`take_woken`]).
    static WOKEN: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) };
}

/// Notes that `users` have new events (once their write commits), for [`take_woken`].
pub(crate) fn note_woken(users: impl IntoIterator<Item = i64>) {
    WOKEN.with(|woken| woken.borrow_mut().extend(users));
}

/// The accounts this thread wrote events for since it was last asked: the caller wakes their
/// streams in this process once the work that wrote them is done (other processes hear the
/// database's notification; SQLite has none). One written in a transaction that was undone is
/// named too: a stream woken for nothing reads nothing new.
pub fn take_woken() -> Vec<i64> {
    WOKEN.with(|woken| {
        let mut users = std::mem::take(&mut *woken.borrow_mut());
        users.sort_unstable();
        users.dedup();
        users
    })
}

/// Stores `notices` and wakes each account's streams on every replica (at the commit of the
/// surrounding transaction, if there is one).
pub fn add(conn: &mut AnyConnection, notices: &[AccountNotice]) -> Result<(), DbError> {
    if notices.is_empty() {
        return Ok(());
    }
    note_woken(notices.iter().map(|n| n.user_id));
    let now = crate::now();
    let rows: Vec<_> = notices
        .iter()
        .map(|n| {
            (
                account_events::user_id.eq(n.user_id),
                account_events::kind.eq(&n.kind),
                account_events::data.eq(&n.data),
                account_events::created_at.eq(now),
            )
        })
        .collect();
    // (A multi-row insert is written for each backend on its own connection type.)
    match conn {
        AnyConnection::Postgresql(c) => {
            diesel::insert_into(account_events::table)
                .values(&rows)
                .execute(c)?;
        }
        AnyConnection::Sqlite(c) => {
            diesel::insert_into(account_events::table)
                .values(&rows)
                .execute(c)?;
        }
    }
    let mut users: Vec<i64> = notices.iter().map(|n| n.user_id).collect();
    users.sort_unstable();
    users.dedup();
    for user in users {
        crate::notify::notify_account(conn, user)?;
    }
    Ok(())
}

/// An account's events after `after`, oldest first, at most `limit`.
pub fn after(
    conn: &mut AnyConnection,
    user_id: i64,
    after: i64,
    limit: i64,
) -> Result<Vec<EventRow>, DbError> {
    account_events::table
        .filter(account_events::user_id.eq(user_id))
        .filter(account_events::id.gt(after))
        .order(account_events::id.asc())
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// The id of an account's newest event (0 for none).
pub fn newest(conn: &mut AnyConnection, user_id: i64) -> Result<i64, DbError> {
    let newest: Option<i64> = account_events::table
        .filter(account_events::user_id.eq(user_id))
        .select(diesel::dsl::max(account_events::id))
        .first(conn)?;
    Ok(newest.unwrap_or(0))
}

/// The id of the newest event of each of the accounts `users` that has any, in one statement
/// per thousand accounts (for the safety net that catches events whose notice never came).
pub fn newest_of(conn: &mut AnyConnection, users: &[i64]) -> Result<Vec<(i64, i64)>, DbError> {
    let mut found = Vec::with_capacity(users.len());
    for chunk in users.chunks(1000) {
        let rows: Vec<(i64, Option<i64>)> = account_events::table
            .filter(account_events::user_id.eq_any(chunk))
            .group_by(account_events::user_id)
            .select((
                account_events::user_id,
                diesel::dsl::max(account_events::id),
            ))
            .load(conn)?;
        found.extend(
            rows.into_iter()
                .filter_map(|(user, newest)| Some((user, newest?))),
        );
    }
    Ok(found)
}

/// The newest event of any account (0: none kept): no stream can resume after a later one.
pub fn newest_of_all(conn: &mut AnyConnection) -> Result<i64, DbError> {
    let newest: Option<i64> = account_events::table
        .select(diesel::dsl::max(account_events::id))
        .first(conn)?;
    Ok(newest.unwrap_or(0))
}

/// Forgets events older than `before`; how many went.
pub fn forget_before(conn: &mut AnyConnection, before: NaiveDateTime) -> Result<usize, DbError> {
    diesel::delete(account_events::table.filter(account_events::created_at.lt(before)))
        .execute(conn)
        .map_err(DbError::from)
}
