//! Request latency of a move over HTTP, on SQLite and (with `CARDROOM_TEST_POSTGRES_URL`, as
//! `scripts/with-postgres` sets it) on PostgreSQL.
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench moves`
//!
//! Each client plays whole Basra games against the `greedy` computer player, always choosing
//! its first legal move; a move's latency is the round trip of `POST /games/{id}/moves`,
//! which includes the computer's reply and the versioned write. Prints p50, p99 and moves per
//! second for one client and for eight at once.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::time::{Duration, Instant};

use serde_json::json;

#[allow(
    dead_code,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support.rs"]
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
        &[("CARDROOM_WORKERS", "2"), ("CARDROOM_DB_POOL", "16")],
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

fn main() {
    // `cargo bench` passes `--bench`; anything else is ignored.
    let mut backends = vec![Backend::Sqlite];
    if std::env::var("CARDROOM_TEST_POSTGRES_URL").is_ok() {
        backends.push(Backend::Postgres);
    } else {
        println!("PostgreSQL skipped: run under scripts/with-postgres to include it");
    }
    for backend in backends {
        measure(backend, 1, 6);
        measure(backend, 8, 3);
    }
}
