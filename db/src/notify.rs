//! Cross-replica change notices on PostgreSQL: every committed change of a game sends
//! `NOTIFY cardroom_games, '<game id>'` in its transaction, and each replica listens on its own
//! connection, an asynchronous one that wakes when a notification arrives (libpq's, polled
//! every 10 ms, only where that one cannot connect, as when the server requires TLS). (SQLite
//! has no such channel: replicas of one SQLite file fall back to polling.)

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::sql_types::Text;
use diesel::{Connection, PgConnection, RunQueryDsl};

use crate::connection::{AnyConnection, Backend, DatabaseUrl};
use crate::error::DbError;
use crate::id::GameId;

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
    Game(GameId),
    /// Account `id` has new events.
    Account(i64),
    /// Tournament `id` changed (an entrant, a round, a result).
    Tournament(i64),
    /// Notices may have been missed (the listener reconnected): look again at everything.
    Everything,
}

impl Notice {
    /// The notice a payload carries: a game's id, `a` and an account's id, or `t` and a
    /// tournament's id; then, from a process that says who sent it, `@` and its [`origin`].
    pub fn parse(payload: &str) -> Option<Notice> {
        let payload = payload
            .split_once('@')
            .map_or(payload, |(notice, _)| notice);
        if let Some(tournament) = payload.strip_prefix('t') {
            return tournament.parse().ok().map(Notice::Tournament);
        }
        match payload.strip_prefix('a') {
            Some(account) => account.parse().ok().map(Notice::Account),
            None => payload.parse().ok().map(|n| Notice::Game(GameId::new(n))),
        }
    }
}

/// The payload of an account's notice.
pub(crate) fn account_payload(user_id: i64) -> String {
    format!("a{user_id}{}", signature())
}

/// This process's mark on the notices it sends: random, drawn at first use. A process wakes its
/// own followers the moment its transaction commits, so the database's echo of its own notice
/// tells it nothing new; [`listen`] passes on only the others' (a second wake would cost every
/// followed game a second read of its log for each of this process's changes).
pub fn origin() -> u64 {
    static ORIGIN: OnceLock<u64> = OnceLock::new();
    *ORIGIN.get_or_init(|| {
        // `RandomState` draws its keys from the operating system's randomness.
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    })
}

/// What this process appends to a notice's payload: `@` and its [`origin`] in hexadecimal
/// (written once: the move statement's walk and every notice use it).
pub(crate) fn signature() -> &'static str {
    static SIGNATURE: OnceLock<String> = OnceLock::new();
    SIGNATURE.get_or_init(|| format!("@{:x}", origin()))
}

/// The notice a payload carries, unless this process sent it (see [`origin`]). A payload
/// without a signature (a replica of an earlier release, or an operator's hand) counts as
/// another's.
fn heard(payload: &str) -> Option<Notice> {
    if let Some((_, from)) = payload.split_once('@')
        && u64::from_str_radix(from, 16) == Ok(origin())
    {
        return None;
    }
    Notice::parse(payload)
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

/// Queues a notice that tournament `id` changed, delivered at the commit.
pub(crate) fn notify_tournament(conn: &mut AnyConnection, id: i64) -> Result<(), DbError> {
    if let AnyConnection::Postgresql(pg) = conn
        && SUPPORTED.load(Ordering::Relaxed)
    {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(format!("t{id}{}", signature()))
            .execute(pg)?;
    }
    Ok(())
}

/// Queues a notice for `game_id`, delivered when the surrounding transaction commits.
pub(crate) fn notify(conn: &mut AnyConnection, game_id: GameId) -> Result<(), DbError> {
    if let AnyConnection::Postgresql(pg) = conn
        && SUPPORTED.load(Ordering::Relaxed)
    {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(format!("{game_id}{}", signature()))
            .execute(pg)?;
    }
    Ok(())
}

/// On PostgreSQL, starts a thread that listens for change notices and calls `on_notice` with
/// each another process sent (see [`origin`]), or with [`Notice::Everything`] when notices may have been missed (after
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
            let mut polling = false;
            loop {
                match follow_waking(url.target(), &on_notice) {
                    Ended::Lost(error) => {
                        polling = false;
                        tracing::warn!(%error, "lost the notification connection; reconnecting");
                    }
                    // The asynchronous connection speaks no TLS: where the server requires it,
                    // libpq's connection (the pool's own) listens, polled.
                    Ended::NotConnected(async_error) => {
                        match PgConnection::establish(url.target()) {
                            Ok(mut conn) => {
                                if conn.batch_execute(&format!("LISTEN {CHANNEL}")).is_ok() {
                                    if !polling {
                                        tracing::warn!(
                                            error = %async_error,
                                            "listening for notifications on a polled \
                                             connection (every 10 ms)"
                                        );
                                        polling = true;
                                    }
                                    on_notice(Notice::Everything);
                                    follow_polled(&mut conn, &on_notice);
                                }
                                tracing::warn!("lost the notification connection; reconnecting");
                            }
                            Err(error) => {
                                tracing::warn!(%error, "cannot listen for notifications");
                            }
                        }
                    }
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        })
        .map_err(|e| DbError::Other(format!("cannot start the listener: {e}")))?;
    Ok(true)
}

/// How a listening connection ended.
enum Ended {
    /// It could not be made (the database is away, or asks for what this connection does not
    /// speak).
    NotConnected(String),
    /// It was made, and then failed.
    Lost(String),
}

/// The listening connection's `application_name`, unless the URL names one.
pub const LISTENER_NAME: &str = "cardroom-listen";

/// How often a quiet listening connection is checked with a query, and how long the answer may
/// take: a connection dropped without a word (a half-open TCP connection) sends no error.
const CHECK_EVERY: Duration = Duration::from_secs(5);

/// Listens on an asynchronous connection, forwarding each notice the moment its message
/// arrives (the connection's socket wakes this thread; nothing polls), until the connection
/// fails. Announces [`Notice::Everything`] once listening.
fn follow_waking(target: &str, on_notice: &impl Fn(Notice)) -> Ended {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return Ended::NotConnected(error.to_string()),
    };
    runtime.block_on(async {
        let mut config: tokio_postgres::Config = match target.parse() {
            Ok(config) => config,
            Err(error) => return Ended::NotConnected(error.to_string()),
        };
        if config.get_application_name().is_none() {
            // So operators (and a test) can tell it in `pg_stat_activity`.
            config.application_name(LISTENER_NAME);
        }
        let (client, mut connection) = match config.connect(tokio_postgres::NoTls).await {
            Ok(pair) => pair,
            Err(error) => return Ended::NotConnected(error.to_string()),
        };
        // Driving the connection delivers notifications and the client's queries' answers.
        let messages = async {
            loop {
                match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    Some(Ok(tokio_postgres::AsyncMessage::Notification(notification))) => {
                        if let Some(notice) = heard(notification.payload()) {
                            on_notice(notice);
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(error)) => return error.to_string(),
                    None => return "the server closed the connection".to_owned(),
                }
            }
        };
        let listening = async {
            if let Err(error) = client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                return error.to_string();
            }
            on_notice(Notice::Everything);
            loop {
                tokio::time::sleep(CHECK_EVERY).await;
                match tokio::time::timeout(CHECK_EVERY, client.batch_execute("SELECT 1")).await {
                    Ok(Ok(())) => {}
                    Ok(Err(error)) => return error.to_string(),
                    Err(_) => return "the server did not answer a check".to_owned(),
                }
            }
        };
        let reason = tokio::select! {
            reason = messages => reason,
            reason = listening => reason,
        };
        Ended::Lost(reason)
    })
}

/// Forwards notices until the connection fails. libpq is polled: a notice waits at most 10 ms.
/// (Only where the asynchronous connection cannot be made.)
fn follow_polled(conn: &mut PgConnection, on_notice: &impl Fn(Notice)) {
    let mut idle = Duration::ZERO;
    loop {
        for notice in conn.notifications_iter() {
            match notice {
                Ok(notice) => {
                    if let Some(notice) = heard(&notice.payload) {
                        on_notice(notice);
                    }
                }
                Err(_) => return,
            }
        }
        std::thread::sleep(Duration::from_millis(10));
        idle += Duration::from_millis(10);
        // A query now and then notices a dead connection that polling alone would not.
        if idle >= CHECK_EVERY {
            idle = Duration::ZERO;
            if conn.batch_execute("SELECT 1").is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_reads_the_same_signed_or_not() {
        for (payload, notice) in [
            ("12", Notice::Game(GameId::new(12))),
            ("a7", Notice::Account(7)),
            ("t3", Notice::Tournament(3)),
        ] {
            assert_eq!(Notice::parse(payload), Some(notice), "{payload}");
            let signed = format!("{payload}@1f2e3d");
            assert_eq!(Notice::parse(&signed), Some(notice), "{signed}");
        }
        for bad in ["", "x", "a", "t", "@12", "12x@1"] {
            assert_eq!(Notice::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_listener_passes_on_the_others_notices_and_not_this_processs_echo() {
        let own = format!("12{}", signature());
        assert_eq!(heard(&own), None);
        assert_eq!(heard(&account_payload(7)), None);
        let other = format!("12@{:x}", origin().wrapping_add(1));
        assert_eq!(heard(&other), Some(Notice::Game(GameId::new(12))));
        // An unsigned notice (an earlier release's, an operator's) is another's.
        assert_eq!(heard("12"), Some(Notice::Game(GameId::new(12))));
        // A signature that is no number is nobody's: the notice still counts.
        assert_eq!(heard("t3@zz"), Some(Notice::Tournament(3)));
    }
}
