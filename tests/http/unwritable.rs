//! A database that will not take writes: made read-only (as an operator does with
//! `default_transaction_read_only`, or a standby reached by mistake) it answers 503 and changes
//! nothing; a full disk under an SQLite file likewise, until space returns.
//!
//! Each test runs its own cluster (`scripts/pg-cluster`) or file system, so none disturbs
//! another.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::failover::{Step, assert_unavailable, play, step};
use crate::support::{Cluster, Server};

#[test]
fn a_read_only_database_answers_503_changes_nothing_and_recovers() {
    let cluster = Cluster::init("read-only");
    let url = format!("{}?target_session_attrs=read-write", cluster.url());
    let server = Server::start_on(
        &url,
        tempfile::tempdir().unwrap(),
        &[("CARDROOM_DB_TIMEOUT_MS", "1000")],
    );
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let mut acknowledged = Vec::new();
    play(
        &[&server],
        &amira,
        id,
        2,
        Duration::from_secs(5),
        &mut acknowledged,
    );
    let version = server.view(&amira, id)["version"].clone();

    cluster.execute("ALTER SYSTEM SET default_transaction_read_only = on");
    cluster.execute("SELECT pg_reload_conf()");
    // Connections already open see it at their next statement; new ones are refused by
    // `target_session_attrs`. Either way: 503, and nothing written.
    for attempt in 0..4 {
        match step(&server, &amira, id, &format!("read-only-{attempt}")) {
            Step::Refused(reply) => assert_unavailable(&reply),
            _ => panic!("a write succeeded on a read-only database"),
        }
    }
    let joined = server.post("/api/v1/auth/guest", None, &json!({"name": "karim"}));
    assert_unavailable(&joined);

    cluster.execute("ALTER SYSTEM RESET default_transaction_read_only");
    cluster.execute("SELECT pg_reload_conf()");
    let start = Instant::now();
    let view = loop {
        let reply = server.get(&format!("/api/v1/games/{id}"), Some(&amira.token));
        if reply.status == 200 {
            break reply.body;
        }
        assert_unavailable(&reply);
        assert!(start.elapsed() < Duration::from_secs(5), "not back");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(
        view["version"], version,
        "the refused writes changed the game"
    );
    play(
        &[&server],
        &amira,
        id,
        2,
        Duration::from_secs(5),
        &mut acknowledged,
    );
    assert_eq!(acknowledged.len(), 4, "{acknowledged:?}");
}

/// A small filesystem of its own (tmpfs), unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(megabytes: u32) -> SmallDisk {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("run mount");
        assert!(
            status.success(),
            "cannot mount a small filesystem (CARDROOM_TEST_MOUNT is set: this needs root)"
        );
        SmallDisk { dir }
    }

    /// Fills what is left of it with one file.
    fn fill(&self) -> std::path::PathBuf {
        use std::io::Write;
        let path = self.dir.path().join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let block = vec![0u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
        let small = [0u8; 512];
        while file.write_all(&small).is_ok() {}
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

#[test]
fn a_full_disk_answers_503_damages_nothing_and_recovers_when_space_returns() {
    // Mounting a filesystem needs root: the test command sets CARDROOM_TEST_MOUNT when it runs
    // as root (as CI does); docs/testing.md says so.
    if std::env::var_os("CARDROOM_TEST_MOUNT").is_none() {
        eprintln!("a_full_disk_…: not run (CARDROOM_TEST_MOUNT unset: it mounts a tmpfs)");
        return;
    }
    let disk = SmallDisk::mount(24);
    let url = format!("sqlite://{}", disk.dir.path().join("cardroom.db").display());
    let server = Server::start_on(&url, tempfile::tempdir().unwrap(), &[]);
    let amira = server.guest("amira");
    // A program's token, used first while the disk is full (its first use is noted, a write).
    let dalia = server.register("dalia");
    let program = crate::programs::api_token(&server, &dalia, &["read"]);
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let mut acknowledged = Vec::new();
    play(
        &[&server],
        &amira,
        id,
        2,
        Duration::from_secs(5),
        &mut acknowledged,
    );

    let filler = disk.fill();
    // The write-ahead log may still have room it made before: write until the disk refuses.
    // Every answer is a success or 503, never a 500.
    let mut refusals = 0;
    for n in 0..400 {
        match step(&server, &amira, id, &format!("full-{n}")) {
            Step::Moved(version, mv) => acknowledged.push((version, mv)),
            Step::Dealt => {}
            Step::Finished => panic!("the game ended before the disk refused a write"),
            Step::Refused(reply) => {
                assert_unavailable(&reply);
                refusals += 1;
                if refusals == 3 {
                    break;
                }
            }
        }
        let guest = server.post("/api/v1/auth/guest", None, &json!({"name": "karim"}));
        if guest.status != 201 {
            assert_unavailable(&guest);
            refusals += 1;
        }
    }
    assert!(refusals >= 3, "the full disk never refused a write");
    // Reads go on while the disk is full, a program's too: its token's last use is a note the
    // full disk may refuse, not a condition of the read.
    let version = server.view(&amira, id)["version"].clone();
    let read = server.get("/api/v1/games", Some(&program));
    assert_eq!(
        read.status, 200,
        "a program's read on a full disk: {read:?}"
    );

    std::fs::remove_file(filler).unwrap();
    let start = Instant::now();
    let refused_after = play(
        &[&server],
        &amira,
        id,
        3,
        Duration::from_secs(5),
        &mut acknowledged,
    );
    println!(
        "disk full: {refusals} writes refused; back {:?} after space returned ({refused_after} \
         more 503s)",
        start.elapsed()
    );

    // Nothing was damaged: every acknowledged move is in the log, and the game replays.
    let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&amira.token));
    let entries = log.body["entries"].as_array().expect("entries");
    for (version, mv) in &acknowledged {
        assert!(
            entries
                .iter()
                .any(|e| e["version"] == *version && e["move"] == *mv),
            "acknowledged version {version} is lost"
        );
    }
    assert!(entries.iter().any(|e| e["version"] == version));
    let pool = cardroom_db::connect(&url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let game = cardroom_db::GameId::new(id);
    assert_eq!(
        cardroom_api::play::replay(&mut conn, game).unwrap(),
        cardroom_api::play::snapshot_of(&mut conn, game).unwrap(),
    );
    drop(conn);
    drop(pool);
    drop(server);
}
