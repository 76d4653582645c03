//! The API's move rate against the database's own, on one PostgreSQL, in one run.
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench load`
//! (`LOAD_CLIENTS`, default 8; `LOAD_SECS`, default 15)
//!
//! (b) `LOAD_CLIENTS` clients play Basra against the `greedy` computer player through
//! `POST /games/{id}/moves` for `LOAD_SECS` seconds (a new game when one ends): moves per
//! second, p50/p99 latency, and the server's peak memory (VmHWM).
//! (a) Then `pgbench`, with as many clients on the same database, runs a transaction shaped
//! like one of those moves, each client on a game the API played: read the game row, rewrite
//! its state under a version check, append two log rows (the person's move and the computer's
//! reply), and notify.
//! It prints both and the ratio API/pgbench.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

#[allow(
    dead_code,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support.rs"]
mod support;

use support::{Backend, Client, Player, Server};

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len().saturating_sub(1))]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Plays moves until `running` turns false, on one kept-alive connection (as pgbench keeps its
/// own); returns each move's latency.
fn play(server: &Client, player: &Player, running: &AtomicBool) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let new_game = || {
        server
            .create(
                player,
                json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
            )
            .0
    };
    let mut id = new_game();
    let mut view = server.view(player, id);
    while running.load(Ordering::Relaxed) {
        match view["status"].as_str() {
            Some("finished") => {
                id = new_game();
                view = server.view(player, id);
            }
            Some("hand_over") => {
                let reply = server.post(
                    &format!("/api/v1/games/{id}/deal"),
                    Some(&player.token),
                    &json!({}),
                );
                view = reply.body["view"].clone();
            }
            _ => {
                let started = Instant::now();
                let reply = server.play(player, &view, &view["legal_moves"][0]);
                latencies.push(started.elapsed());
                assert_eq!(reply.status, 200, "{reply:?}");
                view = reply.body["view"].clone();
            }
        }
    }
    latencies
}

/// The server's peak resident memory, from /proc.
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

// Each client writes its own game, as each API client plays its own (no version races).
const PGBENCH_SCRIPT: &str = r"\set id :lo + :client_id
BEGIN;
SELECT state FROM games WHERE id = :id;
SELECT version AS old_version FROM games WHERE id = :id \gset
UPDATE games SET state = md5(random()::text) || substr(state, 33), version = version + 2,
    moves = moves + 2, updated_at = now(), to_act = 0
  WHERE id = :id AND version = :old_version RETURNING version \gset
INSERT INTO game_log (game_id, seq, seat, action, payload, events, created_at) VALUES
  (:id, :version - 1, 0, 'move', '{}', '[]', now()),
  (:id, :version, 1, 'move', '{}', '[]', now());
SELECT pg_notify('game_' || :id, :version::text);
COMMIT;
";

fn pgbench_binary() -> String {
    let dirs = std::fs::read_dir("/usr/lib/postgresql").expect("PostgreSQL binaries");
    let mut found: Vec<String> = dirs
        .filter_map(|d| d.ok())
        .map(|d| format!("{}/bin/pgbench", d.path().display()))
        .filter(|p| std::path::Path::new(p).exists())
        .collect();
    found.sort();
    found.pop().expect("pgbench")
}

fn main() {
    if std::env::var("CARDROOM_TEST_POSTGRES_URL").is_err() {
        eprintln!("load: run under scripts/with-postgres");
        std::process::exit(2);
    }
    let clients = env_number("LOAD_CLIENTS", 8);
    let secs = env_number("LOAD_SECS", 15);
    let server = Server::start_with(
        Backend::Postgres,
        &[("CARDROOM_WORKERS", "2"), ("CARDROOM_DB_POOL", "16")],
    );
    let players: Vec<Player> = (0..clients)
        .map(|i| server.guest(&format!("load{i}")))
        .collect();

    // (b) The API.
    let running = AtomicBool::new(true);
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .map(|p| scope.spawn(|| play(&server.keep_alive(), p, &running)))
            .collect();
        std::thread::sleep(Duration::from_secs(secs as u64));
        running.store(false, Ordering::Relaxed);
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let elapsed = started.elapsed();
    latencies.sort();
    let api_rate = latencies.len() as f64 / elapsed.as_secs_f64();
    let peak = peak_memory_kib(server.pid()).unwrap_or(0);
    println!(
        "API, {clients} clients, {secs} s: {} moves, {api_rate:.0} moves/s, p50 {:.2} ms, p99 {:.2} ms, server peak memory {:.1} MiB",
        latencies.len(),
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.99)),
        peak as f64 / 1024.0
    );

    // (a) pgbench on the same database, over the games the API just played.
    let url = &server.database_url;
    let pool = cardroom_db::connect(url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    use diesel::{QueryableByName, RunQueryDsl, sql_types::BigInt};
    #[derive(QueryableByName)]
    struct Bounds {
        #[diesel(sql_type = BigInt)]
        lo: i64,
    }
    // Every client created a game first: ids lo … lo + clients − 1 are the clients' own.
    let bounds: Bounds = diesel::sql_query("SELECT min(id) AS lo FROM games")
        .get_result(&mut **conn)
        .unwrap();
    drop(conn);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("move.sql");
    std::fs::write(&script, PGBENCH_SCRIPT).unwrap();
    let output = Command::new(pgbench_binary())
        .current_dir(dir.path())
        .args([
            "-n",
            "-c",
            &clients.to_string(),
            "-j",
            "2",
            "-T",
            &secs.to_string(),
            "-l",
            "--log-prefix",
            "tx",
            "-D",
            &format!("lo={}", bounds.lo),
            "-f",
        ])
        .arg(&script)
        .arg(url)
        .output()
        .expect("run pgbench");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "pgbench failed: {text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tps: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("pgbench's tps");
    // Per-transaction latencies (µs, third field) from pgbench's logs.
    let mut pg_latencies: Vec<Duration> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("tx"))
        .flat_map(|e| {
            std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.split_whitespace().nth(2)?.parse::<u64>().ok())
                .map(Duration::from_micros)
                .collect::<Vec<_>>()
        })
        .collect();
    pg_latencies.sort();
    println!(
        "pgbench, {clients} clients, {secs} s, the same transaction shape: {tps:.0} tx/s, p50 {:.2} ms, p99 {:.2} ms",
        ms(percentile(&pg_latencies, 0.50)),
        ms(percentile(&pg_latencies, 0.99)),
    );
    println!(
        "ratio: the API delivers {:.0}% of the database's own rate",
        100.0 * api_rate / tps
    );
}
