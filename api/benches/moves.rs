//! Request latency of a move over HTTP, on SQLite and (with `CARDROOM_TEST_POSTGRES_URL`, as
//! `scripts/with-postgres` sets it) on PostgreSQL.
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench moves`
//!
//! Each client plays whole Basra games against the `greedy` computer player, always choosing
//! its first legal move; a move's latency is the round trip of `POST /games/{id}/moves`,
//! which includes the computer's reply and the versioned write. Prints p50, p99 and moves per
//! second for one client and for eight at once.
//!
//! On PostgreSQL it also measures the cross-replica event delay: two people play through
//! replica A while a client streams the game's events (SSE) from replica B; the delay runs from
//! A's answer to the move until B's stream delivers it (LISTEN/NOTIFY between them).
//! `… --bench moves -- replicas` measures that alone; `CARDROOM_SERVER_BIN=path` runs another
//! build of the server, to compare two in one run.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::time::{Duration, Instant};

use serde_json::json;

#[allow(
    dead_code,
    unused_imports,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support/mod.rs"]
mod support;

use support::{Backend, Player, Server};

fn play_games(server: &Server, player: &Player, games: usize) -> Vec<Duration> {
    let mut latencies = Vec::new();
    for _ in 0..games {
        let (id, _) = server.create(
            player,
            json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
        );
        loop {
            let view = server.view(player, id);
            match view["status"].as_str() {
                Some("finished") => break,
                Some("hand_over") => {
                    server.post(
                        &format!("/api/v1/games/{id}/deal"),
                        Some(&player.token),
                        &json!({}),
                    );
                }
                _ => {
                    let started = Instant::now();
                    let reply = server.play(player, &view, &view["legal_moves"][0]);
                    latencies.push(started.elapsed());
                    assert_eq!(reply.status, 200, "{reply:?}");
                }
            }
        }
    }
    latencies
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn measure(backend: Backend, clients: usize, games_each: usize) {
    let server = Server::start_with(
        backend,
        // (The move path alone: the analysis of the games that finish is a background job with
        // its own bench, `cargo bench -p cardroom-core --bench analysis`.)
        &[
            ("CARDROOM_WORKERS", "2"),
            ("CARDROOM_DB_POOL", "16"),
            ("CARDROOM_ANALYSIS", "off"),
        ],
    );
    let players: Vec<Player> = (0..clients)
        .map(|i| server.guest(&format!("bench{i}")))
        .collect();
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .map(|p| scope.spawn(|| play_games(&server, p, games_each)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let elapsed = started.elapsed();
    latencies.sort();
    println!(
        "{backend:?}, {clients} client(s): {} moves, p50 {:.2} ms, p99 {:.2} ms, {:.0} moves/s",
        latencies.len(),
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        latencies.len() as f64 / elapsed.as_secs_f64(),
    );
}

/// Two people play `moves` moves of Basra through `a`; returns how long after each move's
/// answer the stream from `b` delivered it.
fn stream_delays(a: &Server, b: &Server, name: &str, moves: usize) -> Vec<Duration> {
    let amira = a.guest(&format!("{name}a"));
    let karim = a.guest(&format!("{name}k"));
    let (id, view) = a.create(&amira, json!({"kind": "basra", "seats": [{}, {}]}));
    let joined = a.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    let after = a.view(&amira, id)["version"].as_i64().unwrap();
    let stream = b
        .stream(
            &format!("/api/v1/games/{id}/events?after={after}"),
            &karim.token,
            None,
        )
        .unwrap();
    let mut delays = Vec::new();
    while delays.len() < moves {
        let mut version = None;
        for player in [&amira, &karim] {
            let view = a.view(player, id);
            match view["status"].as_str() {
                Some("finished") => return delays,
                Some("hand_over") => {
                    let reply = a.post(
                        &format!("/api/v1/games/{id}/deal"),
                        Some(&player.token),
                        &json!({}),
                    );
                    version = reply.body["view"]["version"].as_i64();
                    break;
                }
                _ if view["to_act"] == view["your_seat"] => {
                    let reply = a.play(player, &view, &view["legal_moves"][0]);
                    assert_eq!(reply.status, 200, "{reply:?}");
                    version = reply.body["view"]["version"].as_i64();
                    break;
                }
                _ => {}
            }
        }
        let version = version.expect("someone acted");
        let answered = Instant::now();
        loop {
            let (at, event) = stream.recv_timeout(Duration::from_secs(10)).unwrap();
            assert!(!event.is_null(), "the stream ended");
            if event["version"].as_i64() >= Some(version) {
                delays.push(at.saturating_duration_since(answered));
                break;
            }
        }
    }
    delays
}

fn measure_replicas(games: usize, moves_each: usize) {
    let a = Server::start_with(Backend::Postgres, &[("CARDROOM_WORKERS", "2")]);
    let b = a.replica(&[("CARDROOM_WORKERS", "2")]);
    let mut delays: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..games)
            .map(|i| {
                let (a, b) = (&a, &b);
                scope.spawn(move || stream_delays(a, b, &format!("r{i}"), moves_each))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    delays.sort();
    println!(
        "cross-replica event delay, {games} games at once: {} moves, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        delays.len(),
        percentile(&delays, 0.50).as_secs_f64() * 1000.0,
        percentile(&delays, 0.99).as_secs_f64() * 1000.0,
        delays.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `replicas` measures the cross-replica delay alone.
    if std::env::args().any(|arg| arg == "replicas") {
        assert!(
            std::env::var("CARDROOM_TEST_POSTGRES_URL").is_ok(),
            "the cross-replica delay needs PostgreSQL: run under scripts/with-postgres"
        );
        measure_replicas(1, 300);
        measure_replicas(4, 150);
        return;
    }
    let mut backends = vec![Backend::Sqlite];
    if std::env::var("CARDROOM_TEST_POSTGRES_URL").is_ok() {
        backends.push(Backend::Postgres);
    } else {
        println!("PostgreSQL skipped: run under scripts/with-postgres to include it");
    }
    for &backend in &backends {
        measure(backend, 1, 6);
        measure(backend, 8, 3);
    }
    if backends.contains(&Backend::Postgres) {
        measure_replicas(1, 300);
        measure_replicas(4, 150);
    }
}
