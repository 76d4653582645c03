//! Cross-replica change notices on PostgreSQL: every committed change of a game sends
//! `NOTIFY cardroom_games, '<game id>'` in its transaction, and each replica listens on its own
//! connection. (SQLite has no such channel: replicas of one SQLite file fall back to polling.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::sql_types::Text;
use diesel::{Connection, PgConnection, RunQueryDsl};

use crate::connection::{AnyConnection, Backend, DatabaseUrl};
use crate::error::DbError;

/// The notification channel.
pub const CHANNEL: &str = "cardroom_games";

/// Whether this process sends notices. Cleared by [`listen`] when the database turns out not
/// to support `LISTEN/NOTIFY` (several PostgreSQL-compatible distributed databases do not):
/// then nothing is sent, since a failing `pg_notify` would abort every write, and replicas
/// poll instead.
static SUPPORTED: AtomicBool = AtomicBool::new(true);

/// Whether this process sends change notices (a move's update carries its own).
pub(crate) fn sending() -> bool {
    SUPPORTED.load(Ordering::Relaxed)
}

/// A change notice from any replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` changed (a move, a join, chat…).
    Game(i64),
    /// Account `id` has new events.
    Account(i64),
    /// Notices may have been missed (the listener reconnected): look again at everything.
    Everything,
}

impl Notice {
    /// The notice a payload carries: a game's id, or `a` and an account's id.
    pub fn parse(payload: &str) -> Option<Notice> {
        match payload.strip_prefix('a') {
            Some(account) => account.parse().ok().map(Notice::Account),
            None => payload.parse().ok().map(Notice::Game),
        }
    }
}

/// The payload of an account's notice.
pub(crate) fn account_payload(user_id: i64) -> String {
    format!("a{user_id}")
}

/// Queues a notice that account `user_id` has new events, delivered at the commit.
pub(crate) fn notify_account(conn: &mut AnyConnection, user_id: i64) -> Result<(), DbError> {
    if let AnyConnection::Postgresql(pg) = conn
        && SUPPORTED.load(Ordering::Relaxed)
    {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(account_payload(user_id))
            .execute(pg)?;
    }
    Ok(())
}

/// Queues a notice for `game_id`, delivered when the surrounding transaction commits.
pub(crate) fn notify(conn: &mut AnyConnection, game_id: i64) -> Result<(), DbError> {
    if let AnyConnection::Postgresql(pg) = conn
        && SUPPORTED.load(Ordering::Relaxed)
    {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(game_id.to_string())
            .execute(pg)?;
    }
    Ok(())
}

/// On PostgreSQL, starts a thread that listens for change notices and calls `on_notice` with
/// each, or with [`Notice::Everything`] when notices may have been missed (after
/// (re)connecting), so that listeners look again. Returns `false` (and starts nothing) for SQLite, and for a
/// database that refuses `LISTEN` or `pg_notify` (which also stops this process sending
/// notices).
pub fn listen(url: &str, on_notice: impl Fn(Notice) + Send + 'static) -> Result<bool, DbError> {
    let url = DatabaseUrl::parse(url)?;
    if url.backend != Backend::Postgres {
        return Ok(false);
    }
    // Ask once whether notifications work here. (If the database cannot be reached now, assume
    // they do: the thread below keeps trying.)
    if let Ok(mut conn) = PgConnection::establish(url.target()) {
        let probe = format!("LISTEN {CHANNEL}; SELECT pg_notify('{CHANNEL}', ''); UNLISTEN *");
        if let Err(error) = conn.batch_execute(&probe) {
            SUPPORTED.store(false, Ordering::Relaxed);
            tracing::warn!(
                %error,
                "this database has no LISTEN/NOTIFY: event streams fall back to reading the log \
                 every second"
            );
            return Ok(false);
        }
    }
    std::thread::Builder::new()
        .name("cardroom-listen".to_owned())
        .spawn(move || {
            loop {
                match PgConnection::establish(url.target()) {
                    Ok(mut conn) => {
                        if conn.batch_execute(&format!("LISTEN {CHANNEL}")).is_ok() {
                            on_notice(Notice::Everything);
                            follow(&mut conn, &on_notice);
                        }
                        tracing::warn!("lost the notification connection; reconnecting");
                    }
                    Err(error) => tracing::warn!(%error, "cannot listen for notifications"),
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        })
        .map_err(|e| DbError::Other(format!("cannot start the listener: {e}")))?;
    Ok(true)
}

/// Forwards notices until the connection fails. libpq is polled: a notice waits at most 10 ms.
fn follow(conn: &mut PgConnection, on_notice: &impl Fn(Notice)) {
    let mut idle = Duration::ZERO;
    loop {
        for notice in conn.notifications_iter() {
            match notice {
                Ok(notice) => {
                    if let Some(notice) = Notice::parse(&notice.payload) {
                        on_notice(notice);
                    }
                }
                Err(_) => return,
            }
        }
        std::thread::sleep(Duration::from_millis(10));
        idle += Duration::from_millis(10);
        // A query now and then notices a dead connection that polling alone would not.
        if idle >= Duration::from_secs(5) {
            idle = Duration::ZERO;
            if conn.batch_execute("SELECT 1").is_err() {
                return;
            }
        }
    }
}
