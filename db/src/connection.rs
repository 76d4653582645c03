//! One connection type over PostgreSQL and SQLite, chosen by the URL scheme, in an r2d2 pool.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection, SqliteConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::error::DbError;

/// A connection to either backend; queries written once run on both.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

impl std::fmt::Debug for AnyConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyConnection::Postgresql(_) => f.write_str("AnyConnection::Postgresql"),
            AnyConnection::Sqlite(_) => f.write_str("AnyConnection::Sqlite"),
        }
    }
}

/// Which database a URL names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// A parsed `DATABASE_URL`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DatabaseUrl {
    pub backend: Backend,
    /// What the driver is given: the PostgreSQL URL, or the SQLite file path.
    target: String,
}

impl DatabaseUrl {
    /// Parses `postgres://…`, `postgresql://…`, `sqlite://PATH` or `sqlite:PATH`.
    pub fn parse(url: &str) -> Result<DatabaseUrl, DbError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let separator = if url.contains('?') { '&' } else { '?' };
            let target = if url.contains("connect_timeout=") {
                url.to_owned()
            } else {
                format!("{url}{separator}connect_timeout=5")
            };
            return Ok(DatabaseUrl {
                backend: Backend::Postgres,
                target,
            });
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .ok_or_else(|| {
                DbError::Other(
                    "DATABASE_URL must start with postgres://, postgresql:// or sqlite://"
                        .to_owned(),
                )
            })?;
        if path.is_empty() {
            return Err(DbError::Other("the SQLite URL names no file".to_owned()));
        }
        Ok(DatabaseUrl {
            backend: Backend::Sqlite,
            target: path.to_owned(),
        })
    }

    /// What the driver is given: the PostgreSQL URL (with a connect timeout) or the file path.
    pub fn target(&self) -> &str {
        &self.target
    }

    fn connect(&self) -> Result<AnyConnection, diesel::ConnectionError> {
        match self.backend {
            Backend::Postgres => {
                PgConnection::establish(&self.target).map(AnyConnection::Postgresql)
            }
            Backend::Sqlite => SqliteConnection::establish(&self.target).map(AnyConnection::Sqlite),
        }
    }
}

/// The r2d2 manager: connects to the backend the URL names (never "tries" the other one) and
/// prepares SQLite connections (busy timeout first, then synchronous and foreign keys).
///
/// A connection is checked (`SELECT 1`) when it is taken from the pool only if it has rested
/// longer than [`TRUSTED_FOR`] since it was last handed back: one busy enough to have just been
/// used is trusted, as HikariCP does, which spares a round trip on every request under load —
/// unless a connection has failed since it was handed back ([`Health::suspect`]). A connection
/// its user saw fail ([`Tracked::mark_failed`]) is closed instead of kept.
#[derive(Debug)]
pub struct Manager {
    url: DatabaseUrl,
    health: Arc<Health>,
}

/// Whether the database is known to be down: the last attempt to connect failed, and none has
/// succeeded since; and since when. Shared by the pool's manager (which learns it) and whoever
/// waits for a connection (see [`checkout`]).
#[derive(Debug, Default)]
pub struct Health {
    down: AtomicBool,
    /// When it went down (milliseconds after `epoch`).
    down_at: AtomicU64,
    /// How long a request waits for the database after it went down before failing fast.
    hold_ms: AtomicU64,
    /// Moved on whenever a connection is seen to fail: every pooled connection handed back
    /// before is checked before its next use, however recently it was used (the server may
    /// have closed them all: a primary stopped for a switchover).
    generation: AtomicU64,
    epoch: OnceLock<Instant>,
}

impl Health {
    /// Whether the last attempt to connect failed.
    pub fn is_down(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    /// Requests wait for the database up to `hold` from the moment it went down (a switchover
    /// of the primary passes unseen); once it has been down longer, they fail fast.
    pub fn set_hold(&self, hold: Duration) {
        self.hold_ms.store(
            u64::try_from(hold.as_millis()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// A connection failed as if the server went away: check every pooled one before it is
    /// used again.
    pub fn suspect(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn now_ms(&self) -> u64 {
        let epoch = *self.epoch.get_or_init(Instant::now);
        u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether the database is down and has been for longer than the hold: requests give up at
    /// once.
    pub fn failing_fast(&self) -> bool {
        self.is_down()
            && self
                .now_ms()
                .saturating_sub(self.down_at.load(Ordering::Relaxed))
                >= self.hold_ms.load(Ordering::Relaxed)
    }

    fn set(&self, down: bool) {
        if self.down.load(Ordering::Relaxed) != down {
            if down {
                self.down_at.store(self.now_ms(), Ordering::Relaxed);
            }
            self.down.store(down, Ordering::Relaxed);
            if down {
                tracing::warn!(
                    "the database is down: requests wait for it through the hold, then fail \
                     fast until it answers again"
                );
            } else {
                tracing::info!("the database answers again");
            }
        }
    }
}

/// How long a request waits for a connection while the database is known to be down (the pool
/// keeps trying to connect in the background, and the first success ends the fast failures).
pub const FAIL_FAST: Duration = Duration::from_millis(100);

/// A connection from `pool` within `timeout`, in slices of [`FAIL_FAST`]. Once the database is
/// known to have been down longer than its hold ([`Health::set_hold`]) — now, or from the moment
/// it is found to be, during the wait — the wait ends at once with [`DbError::Unavailable`]
/// instead of running out the whole timeout. Within the hold (the primary being replaced), the
/// request waits for it, within its own timeout.
pub fn checkout(
    pool: &Pool,
    health: &Health,
    timeout: Duration,
) -> Result<PooledConnection, DbError> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match pool.get_timeout(left.min(FAIL_FAST).max(Duration::from_millis(1))) {
            Ok(conn) => return Ok(conn),
            Err(error) if health.failing_fast() || left <= FAIL_FAST => return Err(error.into()),
            Err(_) => continue,
        }
    }
}

/// How long after its last use a connection is trusted without a check.
pub const TRUSTED_FOR: Duration = Duration::from_millis(500);

/// A pooled connection, with when it was last handed back to the pool and whether its user
/// saw it fail. Dereferences to the [`AnyConnection`].
pub struct Tracked {
    conn: AnyConnection,
    returned: Option<Instant>,
    /// The [`Health`] generation when it was handed back.
    generation: u64,
    failed: bool,
}

impl Tracked {
    /// The connection failed in a way that may have broken it (the server went away): close
    /// it when it is handed back rather than offer it again.
    pub fn mark_failed(&mut self) {
        self.failed = true;
    }
}

impl std::fmt::Debug for Tracked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracked")
            .field("conn", &self.conn)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl std::ops::Deref for Tracked {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Tracked {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }
}

/// Why a connection could not be made or kept.
#[derive(Debug, thiserror::Error)]
pub enum ManagerError {
    #[error(transparent)]
    Connect(#[from] diesel::ConnectionError),
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
}

impl r2d2::ManageConnection for Manager {
    type Connection = Tracked;
    type Error = ManagerError;

    fn connect(&self) -> Result<Tracked, ManagerError> {
        let connected = self.url.connect();
        self.health.set(connected.is_err());
        let mut conn = connected?;
        if let AnyConnection::Sqlite(sqlite) = &mut conn {
            // The busy timeout first, so that the rest waits for locks instead of failing.
            // (WAL is a property of the file, set once in `connect`.)
            sqlite.batch_execute("PRAGMA busy_timeout = 5000;")?;
            sqlite.batch_execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
            // The write-ahead log grows while a backup reads (it cannot be written back past
            // the copy's snapshot); once written back, its file is cut to 64 MiB again rather
            // than keep its largest size.
            sqlite.batch_execute("PRAGMA journal_size_limit = 67108864;")?;
        }
        Ok(Tracked {
            conn,
            returned: None,
            generation: self.health.generation.load(Ordering::Relaxed),
            failed: false,
        })
    }

    fn is_valid(&self, tracked: &mut Tracked) -> Result<(), ManagerError> {
        if tracked
            .returned
            .is_some_and(|at| at.elapsed() < TRUSTED_FOR)
            && tracked.generation == self.health.generation.load(Ordering::Relaxed)
        {
            return Ok(());
        }
        tracked
            .conn
            .batch_execute("SELECT 1")
            .map_err(ManagerError::from)
    }

    fn has_broken(&self, tracked: &mut Tracked) -> bool {
        tracked.returned = Some(Instant::now());
        tracked.generation = self.health.generation.load(Ordering::Relaxed);
        tracked.failed
    }
}

/// A pool of connections to one database.
pub type Pool = r2d2::Pool<Manager>;

/// What the pool does with a failed attempt to connect: r2d2 logs each as an error, which while
/// a primary is replaced means one error line per attempt per host. [`Health`] logs the database
/// going down and coming back; each attempt is left to the debug level.
#[derive(Debug)]
struct QuietErrors;

impl r2d2::HandleError<ManagerError> for QuietErrors {
    fn handle_error(&self, error: ManagerError) {
        tracing::debug!(%error, "an attempt to connect to the database failed");
    }
}

/// A connection taken from the pool.
pub type PooledConnection = r2d2::PooledConnection<Manager>;

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// Opens a pool of `size` connections (at most `timeout` to get one) and brings the schema up
/// to date.
pub fn connect(url: &str, size: u32, timeout: Duration) -> Result<Pool, DbError> {
    connect_with_health(url, size, timeout).map(|(pool, _)| pool)
}

/// [`connect`], with the pool's [`Health`].
pub fn connect_with_health(
    url: &str,
    size: u32,
    timeout: Duration,
) -> Result<(Pool, Arc<Health>), DbError> {
    let url = DatabaseUrl::parse(url)?;
    let backend = url.backend;
    let health = Arc::new(Health::default());
    let pool = r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(timeout)
        .error_handler(Box::new(QuietErrors))
        .build(Manager {
            url,
            health: health.clone(),
        })?;
    let mut conn = pool.get()?;
    if let AnyConnection::Sqlite(sqlite) = &mut **conn {
        sqlite.batch_execute("PRAGMA journal_mode = WAL;")?;
    }
    with_setup_lock(&mut conn, migrate)?;
    drop(conn);
    tracing::info!(?backend, size, "database ready");
    Ok((pool, health))
}

/// The key of the PostgreSQL advisory lock held while a process sets the database up.
const SETUP_LOCK: i64 = 0x6361_7264_726f_6f6d; // "cardroom"

/// Runs `work` holding the database's setup lock, so that processes starting together on one
/// database set it up one after the other: the first migrates (and makes the first admin), the
/// others then find it done. On PostgreSQL this is a session advisory lock (released by the
/// server if the process dies holding it); SQLite serves one process, which needs no lock.
pub fn with_setup_lock<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    work: impl FnOnce(&mut AnyConnection) -> Result<T, E>,
) -> Result<T, E> {
    let AnyConnection::Postgresql(_) = conn else {
        return work(conn);
    };
    conn.batch_execute(&format!("SELECT pg_advisory_lock({SETUP_LOCK})"))
        .map_err(DbError::from)?;
    let result = work(conn);
    let unlocked = conn
        .batch_execute(&format!("SELECT pg_advisory_unlock({SETUP_LOCK})"))
        .map_err(DbError::from);
    let value = result?;
    unlocked?;
    Ok(value)
}

/// Runs the pending migrations of the connection's backend.
pub fn migrate(conn: &mut AnyConnection) -> Result<(), DbError> {
    let result = match conn {
        AnyConnection::Postgresql(pg) => pg.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ()),
        AnyConnection::Sqlite(sqlite) => {
            sqlite.run_pending_migrations(SQLITE_MIGRATIONS).map(|_| ())
        }
    };
    result.map_err(|e| DbError::Other(format!("migration failed: {e}")))
}

/// Checks that the database answers on this connection.
pub fn check(conn: &mut AnyConnection) -> Result<(), DbError> {
    conn.batch_execute("SELECT 1").map_err(DbError::from)
}

/// Runs `work` in one transaction: kept if it succeeds, undone if it fails (with `work`'s own
/// error; a failure of the transaction itself becomes `E` through [`DbError`]).
pub fn in_transaction<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    work: impl FnOnce(&mut AnyConnection) -> Result<T, E>,
) -> Result<T, E> {
    /// An error inside the transaction: the database's, or the work's.
    enum Failure<E> {
        Db(DbError),
        Work(E),
    }
    impl<E> From<diesel::result::Error> for Failure<E> {
        fn from(error: diesel::result::Error) -> Failure<E> {
            Failure::Db(error.into())
        }
    }
    let result: Result<T, Failure<E>> = conn.transaction(|conn| work(conn).map_err(Failure::Work));
    match result {
        Ok(value) => Ok(value),
        Err(Failure::Db(error)) => Err(E::from(error)),
        Err(Failure::Work(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether this connection is the one that made the marker (a temporary table lives and
    /// dies with its connection).
    fn has_marker(conn: &mut AnyConnection) -> bool {
        conn.batch_execute("SELECT * FROM temp.marker").is_ok()
    }

    #[test]
    fn a_connection_is_kept_for_reuse_unless_its_user_saw_it_fail() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("pool.db").display());
        let pool = connect(&url, 1, Duration::from_secs(5)).unwrap();
        {
            let mut conn = pool.get().unwrap();
            conn.batch_execute("CREATE TEMP TABLE marker (x INTEGER)")
                .unwrap();
        }
        // Handed back a moment ago: offered again without a check, and it is the same one.
        let mut conn = pool.get().unwrap();
        assert!(has_marker(&mut conn));
        conn.mark_failed();
        drop(conn);
        // A failed connection is closed: the next one is new.
        let mut conn = pool.get().unwrap();
        assert!(!has_marker(&mut conn));
        drop(conn);
        // A rested connection is checked, passes, and is kept.
        std::thread::sleep(TRUSTED_FOR + Duration::from_millis(100));
        let mut conn = pool.get().unwrap();
        conn.batch_execute("CREATE TEMP TABLE marker (x INTEGER)")
            .unwrap();
        drop(conn);
        std::thread::sleep(TRUSTED_FOR + Duration::from_millis(100));
        let mut conn = pool.get().unwrap();
        assert!(has_marker(&mut conn));
    }

    #[test]
    fn the_url_scheme_chooses_the_backend() {
        let pg = DatabaseUrl::parse("postgres://u:p@host/db").unwrap();
        assert_eq!(pg.backend, Backend::Postgres);
        assert_eq!(pg.target, "postgres://u:p@host/db?connect_timeout=5");
        let pg = DatabaseUrl::parse("postgresql://host/db?sslmode=disable").unwrap();
        assert!(pg.target.ends_with("sslmode=disable&connect_timeout=5"));
        let sqlite = DatabaseUrl::parse("sqlite://cardroom.db").unwrap();
        assert_eq!(sqlite.backend, Backend::Sqlite);
        assert_eq!(sqlite.target, "cardroom.db");
        assert_eq!(
            DatabaseUrl::parse("sqlite:/tmp/x.db").unwrap().target,
            "/tmp/x.db"
        );
        assert!(DatabaseUrl::parse("mysql://host/db").is_err());
        assert!(DatabaseUrl::parse("cardroom.db").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }
}
