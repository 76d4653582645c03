//! Private PostgreSQL clusters (`scripts/pg-cluster`) for the tests that stop, kill or promote
//! their database, so that doing it disturbs no other test.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};

/// A private cluster, destroyed when dropped.
pub struct Cluster {
    dir: PathBuf,
    pub port: u16,
}

fn pg_cluster(args: &[&str]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/pg-cluster");
    let status = Command::new(script)
        .args(args)
        .status()
        .expect("run scripts/pg-cluster");
    assert!(status.success(), "pg-cluster {args:?} failed");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

impl Cluster {
    fn at(label: &str) -> Cluster {
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("cardroom-{label}-{}-{port}", std::process::id()));
        Cluster { dir, port }
    }

    /// A new cluster, started.
    pub fn init(label: &str) -> Cluster {
        let cluster = Cluster::at(label);
        pg_cluster(&["init", &cluster.path(), &cluster.port.to_string()]);
        cluster
    }

    /// A streaming standby of `primary` (from a base backup), started.
    pub fn standby_of(primary: &Cluster, label: &str) -> Cluster {
        let cluster = Cluster::at(label);
        pg_cluster(&[
            "standby",
            &cluster.path(),
            &cluster.port.to_string(),
            &primary.port.to_string(),
        ]);
        cluster
    }

    fn path(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }

    /// The superuser's URL of this cluster alone.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops it as an operator would (fast: clients are cut off).
    pub fn stop(&self) {
        pg_cluster(&["stop", &self.path()]);
    }

    /// Stops it as a lost machine would: at once, no shutdown checkpoint.
    pub fn kill(&self) {
        pg_cluster(&["kill", &self.path()]);
    }

    pub fn start(&self) {
        pg_cluster(&["start", &self.path(), &self.port.to_string()]);
    }

    /// Makes this standby the primary, and waits until it accepts writes.
    pub fn promote(&self) {
        pg_cluster(&["promote", &self.path()]);
    }

    /// Runs one statement (outside a transaction: `ALTER SYSTEM` may be one).
    pub fn execute(&self, statement: &str) {
        let mut conn = PgConnection::establish(&self.url()).expect("connect to the cluster");
        diesel::sql_query(statement)
            .execute(&mut conn)
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
    }

    /// Takes `table` in ACCESS EXCLUSIVE mode, in a transaction left open on the connection
    /// returned: every query of the table waits until that transaction ends, or the server goes.
    /// (Waiting 10 s at most for the lock itself.)
    pub fn lock(&self, table: &str) -> PgConnection {
        let mut conn = PgConnection::establish(&self.url()).expect("connect to the cluster");
        for statement in [
            "BEGIN".to_owned(),
            "SET LOCAL lock_timeout = '10s'".to_owned(),
            format!("LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE"),
        ] {
            diesel::sql_query(&statement)
                .execute(&mut conn)
                .unwrap_or_else(|e| panic!("{statement}: {e}"));
        }
        conn
    }

    /// Waits (at most 30 s) until `query`, which counts something, counts `expected`.
    pub fn wait_for_count(&self, query: &str, expected: i64) {
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let start = Instant::now();
        loop {
            let n = PgConnection::establish(&self.url())
                .ok()
                .and_then(|mut conn| {
                    diesel::sql_query(format!("SELECT ({query})::bigint AS n"))
                        .get_result::<Count>(&mut conn)
                        .ok()
                })
                .map(|count| count.n);
            if n == Some(expected) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{query} is {n:?}, not {expected}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/pg-cluster"
        ))
        .args(["destroy", &self.path()])
        .status();
    }
}
