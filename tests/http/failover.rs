//! The database machine lost, or its primary moved.
//!
//! Two replicas run on a multi-host URL (`…@standby,primary/…?target_session_attrs=read-write`)
//! over a primary and its synchronous streaming standby. The primary is killed as a lost
//! machine would be (no shutdown), the standby is promoted, and the service carries on by
//! itself: 503 `unavailable` (never a 500) while there is no primary, every move it answered
//! 200 is in the new primary's log, the games replay to their snapshots, and an event stream
//! on the other replica goes on with every version once, in order. A planned switchover within
//! the hold is not seen at all. (A database that will not take writes: `unwritable.rs`.)
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
pub(crate) enum Step {
    Moved(i64, Value),
    Dealt,
    Finished,
    Refused(Reply),
}

pub(crate) fn step(server: &Server, player: &Player, id: i64, prefix: &str) -> Step {
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
pub(crate) fn assert_unavailable(reply: &Reply) {
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.body["code"], "unavailable", "{reply:?}");
    assert!(reply.header("Retry-After").is_some(), "{reply:?}");
}

/// Plays `actions` actions, each retried on 503 until it succeeds (within `patience` in all);
/// returns the moves answered 200 and how many 503s were seen on the way.
pub(crate) fn play(
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
/// one that met a connection the old primary closed is made again (every read, a move or a new
/// game with an `Idempotency-Key`, a deal that names its version, a join, a stream's opening
/// and reads) — the first requests after the stop, all at once, are a join, a new game, a
/// stream's opening and every read a player makes, which meet the pooled connections the old
/// primary closed.
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
    // A registered player reading through the page (a session) and through a program's token.
    let dalia = server.register("dalia");
    let program = crate::programs::api_token(&server, &dalia, &["read"]);

    // Everything a player's page reads.
    let amira_reads = [
        format!("/api/v1/games/{id}"),
        "/api/v1/games".to_owned(),
        format!("/api/v1/games/{id}/log"),
        format!("/api/v1/games/{id}/score"),
        format!("/api/v1/games/{id}/chat"),
        format!("/api/v1/games/{id}/events?wait=0"),
        format!("/api/v1/games/{waiting}/invitation?code={code}"),
        "/api/v1/lobby".to_owned(),
        format!(
            "/api/v1/players/{}",
            made.body["view"]["seats"][0]["name"].as_str().unwrap()
        ),
        "/api/v1/leaderboards/basra".to_owned(),
        "/api/v1/tournaments".to_owned(),
        "/api/v1/challenges".to_owned(),
        "/api/v1/mutes".to_owned(),
    ];
    let reads: Vec<(String, &str)> = amira_reads
        .into_iter()
        .map(|path| (path, amira.token.as_str()))
        .chain([
            ("/api/v1/account/tokens".to_owned(), dalia.token.as_str()),
            ("/api/v1/games".to_owned(), program.as_str()),
        ])
        .collect();
    // Each read sent again and again by its own client from before the stop until the new
    // primary has answered for a while: some meet a pooled connection the old primary closed
    // under them, others wait for a connection while there is none. Meanwhile, at once after
    // the stop: a join, a new game and a stream's opening.
    let done = std::sync::atomic::AtomicBool::new(false);
    /// Stops the readers when dropped: also when something below panics, so that the scope,
    /// which waits for them, ends and the test fails instead of hanging.
    struct StopReaders<'a>(&'a std::sync::atomic::AtomicBool);
    impl Drop for StopReaders<'_> {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    let (joined, created, reads_made, refused_reads, stopped) = std::thread::scope(|scope| {
        let _stop_readers = StopReaders(&done);
        let readers: Vec<_> = reads
            .iter()
            .map(|(path, token)| {
                let (done, server) = (&done, &server);
                scope.spawn(move || {
                    let (mut made, mut refused) = (0, Vec::new());
                    while !done.load(std::sync::atomic::Ordering::SeqCst) {
                        let reply = server.get(path, Some(token));
                        made += 1;
                        if reply.status != 200 {
                            refused.push(format!("{path}: {reply:?}"));
                        }
                    }
                    (made, refused)
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        // Some request surely in the database when the primary goes: a game's reads wait on a
        // lock held over the stop. (Without it, on a busy machine every reader was once
        // between its queries at that moment, and nothing met the stop: the test failed.)
        let lock = primary.lock("games");
        primary.wait_for_count(
            "SELECT LEAST(count(*), 1) FROM pg_locks \
             WHERE NOT granted AND relation = 'games'::regclass",
            1,
        );
        primary.stop();
        drop(lock);
        let stopped = Instant::now();
        let promotion = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(1500));
            standby.promote();
        });
        let join = scope.spawn(|| {
            server.post(
                &format!("/api/v1/games/{waiting}/join"),
                Some(&bilal.token),
                &json!({"invite_code": code, "seat": 1}),
            )
        });
        let create = scope.spawn(|| {
            server.post_with(
                "/api/v1/games",
                Some(&bilal.token),
                &[("Idempotency-Key", "switchover-table")],
                &json!({"kind": "tarneeb", "seats": [{}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "greedy"}]}),
            )
        });
        // (Opening asserts the stream was answered 200.)
        let stream = scope.spawn(|| {
            drop(crate::support::RawStream::open(
                &server,
                &format!("/api/v1/games/{id}/events"),
                &amira.token,
            ))
        });
        promotion.join().unwrap();
        stream.join().unwrap();
        let (joined, created) = (join.join().unwrap(), create.join().unwrap());
        std::thread::sleep(Duration::from_millis(500));
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        let (mut made, mut refused) = (0, Vec::new());
        for reader in readers {
            let (n, r) = reader.join().unwrap();
            made += n;
            refused.extend(r);
        }
        (joined, created, made, refused, stopped)
    });
    assert_eq!(
        joined.status, 200,
        "a join during the switchover: {joined:?}"
    );
    assert_eq!(joined.body["your_seat"], 1, "{joined:?}");
    assert_eq!(
        created.status, 201,
        "a new game during the switchover: {created:?}"
    );
    assert_eq!(created.body["view"]["status"], "active", "{created:?}");
    assert_eq!(
        refused_reads,
        Vec::<String>::new(),
        "reads refused during the switchover (of {reads_made})"
    );
    assert_eq!(
        server.get("/api/v1/games", Some(&bilal.token)).body["total"],
        2,
        "the new game made once, beside the game joined"
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
    println!(
        "switchover: {reads_made} reads, {refused} answers 503; three moves done {:?} after the \
         stop",
        stopped.elapsed()
    );
    assert_eq!(refused, 0, "a request failed during the switchover");
    // (Some requests met a connection the old primary closed, and were made again.)
    let retried = server.metric("cardroom_db_retries_total");
    println!("switchover: {retried} requests made again");
    assert!(
        retried > 0.0,
        "no request met the stop: the test tested nothing"
    );
    assert!(stopped.elapsed() >= Duration::from_millis(1500));
    drop(server);
    drop(standby);
}
