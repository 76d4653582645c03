//! PostgreSQL stopped for ten seconds under load: the service answers `503 unavailable` (not a
//! hang, not a 500) while it is down, recovers by itself within five seconds of its return, and
//! no game is corrupted — every game's log still replays to its snapshot.
//!
//! The test runs its own cluster (`scripts/pg-cluster`), so stopping it disturbs no other test.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Cluster, Server};

/// One answer seen by the load: when it was sent and answered, its status and code.
#[derive(Clone, Debug)]
struct Seen {
    sent: Instant,
    took: Duration,
    status: u16,
    code: String,
}

#[test]
fn postgres_stopped_under_load_answers_503_and_recovers_within_five_seconds() {
    let cluster = Cluster::init("outage");
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_on(&cluster.url(), dir, &[("CARDROOM_DB_TIMEOUT_MS", "1000")]);
    let amira = server.guest("amira");
    let first_games: Vec<i64> = (0..4)
        .map(|_| {
            server
                .create(
                    &amira,
                    json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
                )
                .0
        })
        .collect();

    // Four clients play their games (a move, or the next deal) as fast as answers come,
    // each request with a 10-second limit: a request that hangs fails the test.
    let running = Arc::new(AtomicBool::new(true));
    let seen = Arc::new(Mutex::new(Vec::<Seen>::new()));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let base = server.url("");
    let clients: Vec<_> = first_games
        .iter()
        .map(|&id| {
            let (running, seen, agent, token, base) = (
                running.clone(),
                seen.clone(),
                agent.clone(),
                amira.token.clone(),
                base.clone(),
            );
            std::thread::spawn(move || {
                let mut id = id;
                let mut played = vec![id];
                let auth = format!("Bearer {token}");
                let mut last_view: Option<Value> = None;
                while running.load(Ordering::Relaxed) {
                    let sent = Instant::now();
                    let reply = match last_view.take() {
                        Some(view) if view["status"] == "hand_over" => agent
                            .post(format!("{base}/api/v1/games/{id}/deal"))
                            .header("Authorization", &auth)
                            .send_json(json!({})),
                        Some(view) if view["status"] == "active" => agent
                            .post(format!("{base}/api/v1/games/{id}/moves"))
                            .header("Authorization", &auth)
                            .send_json(json!({
                                "expected_version": view["version"],
                                "move": view["legal_moves"][0],
                            })),
                        _ => agent
                            .get(format!("{base}/api/v1/games/{id}"))
                            .header("Authorization", &auth)
                            .call(),
                    };
                    let took = sent.elapsed();
                    let (status, body) = match reply {
                        Ok(mut response) => (
                            response.status().as_u16(),
                            response
                                .body_mut()
                                .read_json::<Value>()
                                .unwrap_or(Value::Null),
                        ),
                        // No answer at all (a timeout, a reset): status 0.
                        Err(_) => (0, Value::Null),
                    };
                    let code = body["code"].as_str().unwrap_or_default().to_owned();
                    if status == 200 {
                        // A move's answer holds the new view; a view is the view.
                        let view = if body["view"].is_object() {
                            body["view"].clone()
                        } else {
                            body.clone()
                        };
                        if view["status"] == "finished" {
                            // Keep the load up: the next game.
                            let created = agent
                                .post(format!("{base}/api/v1/games"))
                                .header("Authorization", &auth)
                                .send_json(
                                    json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
                                )
                                .ok()
                                .and_then(|mut r| r.body_mut().read_json::<Value>().ok());
                            if let Some(next) = created.as_ref().and_then(|c| c["id"].as_i64()) {
                                id = next;
                                played.push(id);
                            }
                            continue;
                        }
                        last_view = Some(view);
                    } else {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    if let Ok(mut seen) = seen.lock() {
                        seen.push(Seen {
                            sent,
                            took,
                            status,
                            code,
                        });
                    }
                }
                played
            })
        })
        .collect();

    std::thread::sleep(Duration::from_secs(1));
    cluster.stop();
    let stopped = Instant::now();
    std::thread::sleep(Duration::from_secs(10));
    // The database may accept connections before `pg_ctl start` returns (it polls, and on a
    // busy machine returns late), so the outage ends when the start begins, and recovery is
    // counted from when it has returned.
    let restarting = Instant::now();
    cluster.start();
    let restarted = Instant::now();
    // Let the load run on until every client has been served again (or 15 s have passed).
    while restarted.elapsed() < Duration::from_secs(15) {
        let served_again = seen
            .lock()
            .is_ok_and(|seen| seen.iter().any(|s| s.sent > restarted && s.status == 200));
        if served_again && restarted.elapsed() > Duration::from_secs(2) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    running.store(false, Ordering::Relaxed);
    let played: Vec<i64> = clients
        .into_iter()
        .flat_map(|client| client.join().unwrap())
        .collect();
    let seen = seen.lock().unwrap().clone();

    assert!(
        seen.iter().any(|s| s.sent < stopped && s.status == 200),
        "no load before the outage: {seen:?}"
    );
    for s in &seen {
        assert!(
            s.status == 200 || (s.status == 503 && s.code == "unavailable"),
            "an answer that is neither a success nor 503 unavailable: {s:?}"
        );
        assert!(s.took < Duration::from_secs(5), "a request hung: {s:?}");
    }
    // While the database was down (a second after the stop, to the start of its return),
    // nothing succeeded.
    let down: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.sent > stopped + Duration::from_secs(1) && s.sent + s.took < restarting)
        .collect();
    assert!(!down.is_empty(), "no request while the database was down");
    assert!(down.iter().all(|s| s.status == 503), "{down:?}");
    // Recovered: the first success after the restart came within five seconds.
    let first_success = seen
        .iter()
        .filter(|s| s.sent >= restarted && s.status == 200)
        .map(|s| (s.sent + s.took).duration_since(restarted))
        .min()
        .expect("no success after the database came back");
    assert!(
        first_success <= Duration::from_secs(5),
        "recovered only after {first_success:?}"
    );
    let slowest = down.iter().map(|s| s.took).max().unwrap_or_default();
    println!(
        "outage: {} answers during it, all 503, the slowest in {slowest:?}; first success \
         {first_success:?} after the restart",
        down.len()
    );
    assert_eq!(server.get("/readyz", None).status, 200);

    // No game was corrupted: every log replays to its snapshot.
    let pool = cardroom_db::connect(&cluster.url(), 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    for id in played {
        let replayed = cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(id)).unwrap();
        let stored =
            cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id)).unwrap();
        assert!(stored.is_some());
        assert_eq!(
            replayed, stored,
            "game {id}'s log does not replay to its snapshot"
        );
    }
}

#[test]
fn while_postgres_is_down_requests_fail_fast_and_readyz_answers_within_a_second() {
    let cluster = Cluster::init("outage");
    let dir = tempfile::tempdir().unwrap();
    // The pool's full wait is five seconds: a request that waited it out would show. Requests
    // wait for the database for a second after it goes (the hold), then fail fast.
    let server = Server::start_on(
        &cluster.url(),
        dir,
        &[
            ("CARDROOM_DB_TIMEOUT_MS", "5000"),
            ("CARDROOM_DB_HOLD_MS", "1000"),
        ],
    );
    let player = server.guest("patient");
    assert_eq!(server.get("/readyz", None).status, 200);
    cluster.stop();
    // The first look after the stop finds the database gone, and still answers within a second.
    for _ in 0..3 {
        let asked = Instant::now();
        server
            .get("/readyz", None)
            .assert_problem(503, "unavailable");
        eprintln!("while down: /readyz answered in {:?}", asked.elapsed());
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{:?}",
            asked.elapsed()
        );
    }
    // Within the hold a request waits for the database (here it does not come back: 503 after
    // the hold, not after five seconds); past it, every request fails fast.
    let asked = Instant::now();
    server
        .get("/api/v1/games", Some(&player.token))
        .assert_problem(503, "unavailable");
    eprintln!("within the hold: 503 after {:?}", asked.elapsed());
    assert!(asked.elapsed() < Duration::from_millis(1500));
    std::thread::sleep(Duration::from_millis(1100));
    let mut slowest = Duration::ZERO;
    for _ in 0..10 {
        let asked = Instant::now();
        let reply = server.get("/api/v1/games", Some(&player.token));
        reply.assert_problem(503, "unavailable");
        assert!(reply.header("retry-after").is_some(), "{reply:?}");
        slowest = slowest.max(asked.elapsed());
    }
    eprintln!("while down: the slowest of ten 503s took {slowest:?}");
    assert!(
        slowest < Duration::from_millis(500),
        "slowest 503: {slowest:?}"
    );
    let asked = Instant::now();
    let metrics = server.get("/metrics", None);
    assert_eq!(metrics.status, 200);
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    // Back up: answered again within five seconds.
    cluster.start();
    let back = Instant::now();
    loop {
        if server.get("/api/v1/games", Some(&player.token)).status == 200 {
            break;
        }
        assert!(
            back.elapsed() < Duration::from_secs(5),
            "no success within five seconds of the restart"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
