//! The database machine lost, and a database that will not take writes.
//!
//! Two replicas run on a multi-host URL (`…@standby,primary/…?target_session_attrs=read-write`)
//! over a primary and its synchronous streaming standby. The primary is killed as a lost
//! machine would be (no shutdown), the standby is promoted, and the service carries on by
//! itself: 503 `unavailable` (never a 500) while there is no primary, every move it answered
//! 200 is in the new primary's log, the games replay to their snapshots, and an event stream
//! on the other replica goes on with every version once, in order.
//!
//! A database made read-only (as an operator does with `default_transaction_read_only`, or a
//! standby reached by mistake) answers 503 and changes nothing; a full disk under an SQLite
//! file likewise, until space returns.
//!
//! Each test runs its own clusters (`scripts/pg-cluster`), so killing one disturbs no other.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Cluster, Player, Reply, Server, SseEvent};

/// One action of `player` in game `id`: the next deal when a hand is over, else the first
/// legal move, with an `Idempotency-Key` of `prefix` and the version it was read at (so that a
/// retry of the same move is the same request). On a move answered 200, the version it made
/// and the move; on any other answer, the reply.
enum Step {
    Moved(i64, Value),
    Dealt,
    Finished,
    Refused(Reply),
}

fn step(server: &Server, player: &Player, id: i64, prefix: &str) -> Step {
    let view = server.get(&format!("/api/v1/games/{id}"), Some(&player.token));
    if view.status != 200 {
        return Step::Refused(view);
    }
    let view = view.body;
    match view["status"].as_str() {
        Some("finished") => Step::Finished,
        Some("hand_over") => {
            let dealt = server.post(
                &format!("/api/v1/games/{id}/deal"),
                Some(&player.token),
                &json!({}),
            );
            if dealt.status == 200 {
                Step::Dealt
            } else {
                Step::Refused(dealt)
            }
        }
        _ => {
            let mv = view["legal_moves"][0].clone();
            assert!(!mv.is_null(), "not this player's turn: {view}");
            let expected = view["version"].as_i64().expect("a version");
            let key = format!("{prefix}-{id}-{expected}");
            let reply = server.post_with(
                &format!("/api/v1/games/{id}/moves"),
                Some(&player.token),
                &[("Idempotency-Key", &key)],
                &json!({"expected_version": expected, "move": mv}),
            );
            if reply.status == 200 {
                Step::Moved(expected + 1, mv)
            } else {
                Step::Refused(reply)
            }
        }
    }
}

/// Asserts a refusal is the documented one for a database that cannot take the request.
fn assert_unavailable(reply: &Reply) {
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.body["code"], "unavailable", "{reply:?}");
    assert!(reply.header("Retry-After").is_some(), "{reply:?}");
}

/// Plays `actions` actions, each retried on 503 until it succeeds (within `patience` in all);
/// returns the moves answered 200 and how many 503s were seen on the way.
fn play(
    servers: &[&Server],
    player: &Player,
    id: i64,
    actions: usize,
    patience: Duration,
    acknowledged: &mut Vec<(i64, Value)>,
) -> usize {
    let start = Instant::now();
    let mut refused = 0;
    let mut done = 0;
    while done < actions {
        let server = servers[(done + refused) % servers.len()];
        match step(server, player, id, "play") {
            Step::Moved(version, mv) => {
                acknowledged.push((version, mv));
                done += 1;
            }
            Step::Dealt => done += 1,
            Step::Finished => break,
            Step::Refused(reply) => {
                assert_unavailable(&reply);
                refused += 1;
                assert!(
                    start.elapsed() < patience,
                    "still refused after {patience:?}: {reply:?}"
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
    refused
}

/// The versions a stream delivered (each version's id once, at its last event), reading until
/// `last`, reopening with `Last-Event-ID` whenever the stream ends.
fn versions_streamed(
    server: &Server,
    path: &str,
    token: &str,
    mut stream: Receiver<Option<SseEvent>>,
    last: i64,
) -> (Vec<i64>, usize) {
    let mut versions = Vec::new();
    let mut reopened = 0;
    let mut last_id: Option<String> = None;
    loop {
        match stream
            .recv_timeout(Duration::from_secs(20))
            .expect("the stream went quiet before the last version")
        {
            Some(event) => {
                let Some(id) = event.id else { continue };
                let version: i64 = id
                    .split(':')
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("an event id that is no version: {id}"));
                versions.push(version);
                last_id = Some(id);
                if version == last {
                    return (versions, reopened);
                }
            }
            None => {
                reopened += 1;
                assert!(reopened < 10, "the stream kept ending");
                stream = server.sse(path, token, last_id.as_deref());
            }
        }
    }
}

#[test]
fn a_promoted_standby_carries_every_acknowledged_move_and_the_streams_follow() {
    let primary = Cluster::init("failover-primary");
    let standby = Cluster::standby_of(&primary, "failover-standby");
    // Synchronous: a commit is acknowledged only once the standby has it.
    primary.execute("ALTER SYSTEM SET synchronous_standby_names = '*'");
    primary.execute("SELECT pg_reload_conf()");
    primary.wait_for_count(
        "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'",
        1,
    );
    // The standby is listed first: while it is one, `target_session_attrs` passes it over.
    let url = format!(
        "postgres://postgres@127.0.0.1:{},127.0.0.1:{}/postgres?target_session_attrs=read-write",
        standby.port, primary.port
    );
    let env = [("CARDROOM_DB_TIMEOUT_MS", "1000")];
    let one = Server::start_on(&url, tempfile::tempdir().unwrap(), &env);
    let two = Server::start_on(&url, tempfile::tempdir().unwrap(), &env);
    let amira = one.guest("amira");
    let (id, _) = one.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let path = format!("/api/v1/games/{id}/events");
    let stream = two.sse(&path, &amira.token, None);

    let mut acknowledged = Vec::new();
    let before = play(
        &[&one, &two],
        &amira,
        id,
        8,
        Duration::from_secs(10),
        &mut acknowledged,
    );
    assert_eq!(before, 0, "refusals before the primary was lost");

    primary.kill();
    // No primary: every request that needs the database is refused, as unavailable.
    for server in [&one, &two, &one, &two] {
        match step(server, &amira, id, "while-no-primary") {
            Step::Refused(reply) => assert_unavailable(&reply),
            _ => panic!("an action succeeded with no primary"),
        }
    }
    standby.promote();
    let promoted = Instant::now();
    let refused = play(
        &[&one, &two],
        &amira,
        id,
        8,
        Duration::from_secs(10),
        &mut acknowledged,
    );
    println!(
        "failover: {refused} answers 503 after the promotion; writes back {:?} after it",
        promoted.elapsed()
    );

    // Every move answered 200 is in the new primary's log, as it was sent.
    let log = two.get(&format!("/api/v1/games/{id}/log"), Some(&amira.token));
    assert_eq!(log.status, 200, "{log:?}");
    let entries = log.body["entries"].as_array().expect("entries");
    for (version, mv) in &acknowledged {
        let entry = entries
            .iter()
            .find(|e| e["version"] == *version)
            .unwrap_or_else(|| panic!("acknowledged version {version} is lost"));
        assert_eq!(entry["action"], "move", "{entry}");
        assert_eq!(entry["move"], *mv, "version {version} holds another move");
    }
    let last = entries
        .iter()
        .filter_map(|e| e["version"].as_i64())
        .max()
        .expect("a version");

    // The stream on the other replica delivered every version with events, once, in order.
    let (streamed, reopened) = versions_streamed(&two, &path, &amira.token, stream, last);
    let expected: Vec<i64> = entries
        .iter()
        .filter(|e| {
            e["events"]
                .as_array()
                .is_some_and(|events| !events.is_empty())
        })
        .filter_map(|e| e["version"].as_i64())
        .collect();
    assert_eq!(
        streamed, expected,
        "the stream skipped or repeated versions"
    );
    println!(
        "{} moves acknowledged, none lost; the stream reopened {reopened} times",
        acknowledged.len()
    );

    // The new primary's game replays from its log to its snapshot.
    let pool = cardroom_db::connect(&standby.url(), 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let game = cardroom_db::GameId::new(id);
    assert_eq!(
        cardroom_api::play::replay(&mut conn, game).unwrap(),
        cardroom_api::play::snapshot_of(&mut conn, game).unwrap(),
    );
    for server in [&one, &two] {
        assert_eq!(server.get("/readyz", None).status, 200);
    }
}

/// A planned switchover (the primary stopped cleanly, its synchronous standby promoted) within
/// the hold: a request sent while there is no primary waits for the new one and succeeds, and
/// one that met a connection the old primary closed is made again (a read, a move with an
/// `Idempotency-Key`, a deal that names its version, a join, a stream's reads) — the first
/// requests after the stop are a join and a stream's opening, which meet the pooled
/// connections the old primary closed.
#[test]
fn a_switchover_within_the_hold_is_not_seen() {
    let primary = Cluster::init("switchover-primary");
    let standby = Cluster::standby_of(&primary, "switchover-standby");
    let url = format!(
        "postgres://postgres@127.0.0.1:{},127.0.0.1:{}/postgres?target_session_attrs=read-write",
        primary.port, standby.port
    );
    let server = Server::start_on(
        &url,
        tempfile::tempdir().unwrap(),
        &[
            ("CARDROOM_DB_TIMEOUT_MS", "8000"),
            ("CARDROOM_DB_HOLD_MS", "6000"),
        ],
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

    // A table waiting for its second player, whom the switchover must not turn away.
    let made = server.post(
        "/api/v1/games",
        Some(&amira.token),
        &json!({"kind": "basra", "seats": [{}, {}]}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    let waiting = made.body["id"].as_i64().unwrap();
    let code = made.body["invite_code"].as_str().unwrap().to_owned();
    let bilal = server.guest("bilal");

    primary.stop();
    let stopped = Instant::now();
    let promotion = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        standby.promote();
        standby
    });
    let joined = server.post(
        &format!("/api/v1/games/{waiting}/join"),
        Some(&bilal.token),
        &json!({"invite_code": code, "seat": 1}),
    );
    assert_eq!(
        joined.status, 200,
        "a join during the switchover: {joined:?}"
    );
    assert_eq!(joined.body["your_seat"], 1, "{joined:?}");
    // (Opening asserts the stream was answered 200.)
    let _stream = crate::support::RawStream::open(
        &server,
        &format!("/api/v1/games/{id}/events"),
        &amira.token,
    );
    // Sent while no node takes writes: answered once the standby is the primary.
    let refused = play(
        &[&server],
        &amira,
        id,
        3,
        Duration::from_secs(8),
        &mut acknowledged,
    );
    let standby = promotion.join().unwrap();
    println!(
        "switchover: {refused} answers 503; three moves done {:?} after the stop",
        stopped.elapsed()
    );
    assert_eq!(refused, 0, "a request failed during the switchover");
    assert!(stopped.elapsed() >= Duration::from_millis(1500));
    drop(server);
    drop(standby);
}

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
    // Reads go on while the disk is full.
    let version = server.view(&amira, id)["version"].clone();

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
