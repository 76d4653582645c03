//! Spawning the real `cardroom` binary on a free port against a fresh database.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use diesel::{Connection, RunQueryDsl};

use super::client::Client;

/// The secret the test servers sign tokens with (tests forge tokens with it).
pub const SECRET: &str = "http-test-secret-0123456789abcdef";

/// Which database a test server runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A running `cardroom` process with its own database; killed when dropped.
pub struct Server {
    child: Child,
    client: Client,
    pub database_url: String,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

static DATABASES: AtomicU32 = AtomicU32::new(0);

pub fn fresh_postgres_database() -> String {
    let admin = std::env::var("CARDROOM_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!(
            "the PostgreSQL tests need CARDROOM_TEST_POSTGRES_URL (a superuser URL); \
             scripts/test starts a throwaway cluster and sets it"
        )
    });
    // Each test is a process of its own (cargo-nextest), and a cluster outlives many runs:
    // the process id alone repeats, so the time is in the name too.
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros())
        .unwrap_or_default();
    let name = format!(
        "cardroom_t{}_{started}_{}",
        std::process::id(),
        DATABASES.fetch_add(1, Ordering::SeqCst)
    );
    let mut conn = diesel::PgConnection::establish(&admin).expect("connect to the test cluster");
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .expect("create a test database");
    let (base, _) = admin.rsplit_once('/').expect("a database URL with a path");
    format!("{base}/{name}")
}

impl Server {
    pub fn start(backend: Backend) -> Server {
        Server::start_with(backend, &[])
    }

    /// Starts a server on `backend` with these extra environment variables.
    pub fn start_with(backend: Backend, env: &[(&str, &str)]) -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let database_url = match backend {
            Backend::Sqlite => format!("sqlite://{}", dir.path().join("cardroom.db").display()),
            Backend::Postgres => fresh_postgres_database(),
        };
        Server::start_on(&database_url, dir, env)
    }

    /// Starts a server on SQLite whose standard error (its logs) goes to `log`.
    pub fn start_logging_to(env: &[(&str, &str)], log: std::fs::File) -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let database_url = format!("sqlite://{}", dir.path().join("cardroom.db").display());
        Server::launch(&database_url, dir, env, Stdio::from(log))
    }

    /// Starts a server on an existing database.
    pub fn start_on(database_url: &str, dir: tempfile::TempDir, env: &[(&str, &str)]) -> Server {
        Server::launch(database_url, dir, env, Stdio::inherit())
    }

    fn launch(
        database_url: &str,
        dir: tempfile::TempDir,
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> Server {
        // CARDROOM_SERVER_BIN runs another build of the server (a benchmark comparing two).
        let binary = std::env::var_os("CARDROOM_SERVER_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_cardroom").into());
        let mut command = Command::new(binary);
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", database_url)
            .env("CARDROOM_ADDR", "127.0.0.1:0")
            .env("CARDROOM_JWT_SECRET", SECRET)
            .env("CARDROOM_DB_POOL", "8")
            .env("CARDROOM_WORKERS", "2")
            .env("CARDROOM_LONG_POLL_SECS", "5")
            // Tests sign many players in from one address; the limit has its own test.
            .env("CARDROOM_AUTH_PER_MINUTE", "0")
            // Likewise writes: their limit has its own test too (a bot account's tier as well).
            .env("CARDROOM_WRITES_PER_MINUTE", "0")
            .env("CARDROOM_BOT_WRITES_PER_MINUTE", "0")
            .env("RUST_LOG", "warn,tracing_actix_web=error")
            // Analysing finished games (Tarneeb's double-dummy solver) is most of a server's
            // work in a test that plays whole games, and none of what it checks: the tests of
            // analysis (analysis.rs, sealed_boards.rs) turn it on.
            .env("CARDROOM_ANALYSIS", "off")
            .stdout(Stdio::piped())
            .stderr(stderr);
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("start cardroom");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("cardroom did not start: {line:?}"))
            .to_owned();
        Server {
            child,
            client: Client {
                base,
                persistent: None,
            },
            database_url: database_url.to_owned(),
            _dir: dir,
        }
    }

    /// The process id (to send it signals).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits for the process to exit; returns whether it exited cleanly.
    pub fn terminate(&mut self) -> bool {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        self.child
            .wait()
            .map(|status| status.success())
            .unwrap_or(false)
    }

    /// A second server on this one's database (another replica).
    pub fn replica(&self, env: &[(&str, &str)]) -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        Server::start_on(&self.database_url, dir, env)
    }
}

impl std::ops::Deref for Server {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}
