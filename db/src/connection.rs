//! One connection type over PostgreSQL and SQLite, chosen by the URL scheme, in an r2d2 pool.

use std::time::Duration;

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
#[derive(Debug)]
pub struct Manager {
    url: DatabaseUrl,
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
    type Connection = AnyConnection;
    type Error = ManagerError;

    fn connect(&self) -> Result<AnyConnection, ManagerError> {
        let mut conn = self.url.connect()?;
        if let AnyConnection::Sqlite(sqlite) = &mut conn {
            // The busy timeout first, so that the rest waits for locks instead of failing.
            // (WAL is a property of the file, set once in `connect`.)
            sqlite.batch_execute("PRAGMA busy_timeout = 5000;")?;
            sqlite.batch_execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        }
        Ok(conn)
    }

    fn is_valid(&self, conn: &mut AnyConnection) -> Result<(), ManagerError> {
        conn.batch_execute("SELECT 1").map_err(ManagerError::from)
    }

    fn has_broken(&self, _conn: &mut AnyConnection) -> bool {
        false
    }
}

/// A pool of connections to one database.
pub type Pool = r2d2::Pool<Manager>;

/// A connection taken from the pool.
pub type PooledConnection = r2d2::PooledConnection<Manager>;

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// Opens a pool of `size` connections (at most `timeout` to get one) and brings the schema up
/// to date.
pub fn connect(url: &str, size: u32, timeout: Duration) -> Result<Pool, DbError> {
    let url = DatabaseUrl::parse(url)?;
    let backend = url.backend;
    let pool = r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(timeout)
        .build(Manager { url })?;
    let mut conn = pool.get()?;
    if let AnyConnection::Sqlite(sqlite) = &mut *conn {
        sqlite.batch_execute("PRAGMA journal_mode = WAL;")?;
    }
    migrate(&mut conn)?;
    tracing::info!(?backend, size, "database ready");
    Ok(pool)
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

#[cfg(test)]
mod tests {
    use super::*;

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
