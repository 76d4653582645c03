//! The API's move rate against the database's own, on one PostgreSQL, in one run.
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench load`
//! (`LOAD_CLIENTS`, default 8; `LOAD_SECS` a phase, default 10; `LOAD_ROUNDS`, default 3)
//!
//! Each round has two phases of `LOAD_SECS`:
//! (b) `LOAD_CLIENTS` clients play Basra against the `greedy` computer player through
//! `POST /games/{id}/moves`, each on one kept-alive connection (a new game when one ends).
//! (a) `pgbench`, with as many clients on the same database, runs a transaction shaped like one
//! of those moves, each client on a game the API played: read the game row, rewrite its state
//! under a version check, append two log rows (the person's move and the computer's reply),
//! and notify.
//! It prints each round, then the median round's rates and ratio API/pgbench, the server's CPU
//! time a move over the API phases (user and system, all its threads, from /proc), the p50/p99
//! latencies over all rounds, and the server's peak memory (VmHWM). Beside each move's CPU time
//! it prints its threads' switches a move (`/proc/PID/task/*/status`).
//!
//! Then what stands between, each for half a phase: the same clients asking with GET for less
//! and less of a move's work, the server's CPU time and thread switches a request for each —
//! `/healthz` (the HTTP exchange alone), `/readyz` (and a hop to the blocking pool with one
//! round trip to the database), and a game's view (and the token, the game's read, the view
//! made and encoded).
//!
//! `LOAD_PIN=1` pins PostgreSQL (every `postgres` process, and so the backends it forks later)
//! to the first core, and the server, this process's clients and pgbench to the second (with
//! `taskset`): the database on cores of its own, as in a real deployment.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

#[allow(
    dead_code,
    unused_imports,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support/mod.rs"]
mod support;

use support::{Backend, Client, Player, Server};

mod common;
use common::{context_switches, cpu_seconds};

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

/// What the load client reads of a view: no more than it needs to answer, so that the
/// client spends as little of the machine as it can (it shares the cores with the server and
/// the database, as pgbench's client does).
#[derive(serde::Deserialize)]
struct Glance {
    status: String,
    version: i64,
    #[serde(default)]
    legal_moves: Vec<serde_json::Value>,
}

#[derive(serde::Deserialize)]
struct MoveAnswer {
    view: Glance,
}

fn glance(view: &serde_json::Value) -> Glance {
    serde_json::from_value(view.clone()).unwrap()
}

/// Plays moves until `running` turns false, on one kept-alive connection (as pgbench keeps its
/// own); returns each move's latency.
fn play(server: &Client, player: &Player, running: &AtomicBool) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let agent = server.persistent.clone().expect("a kept-alive client");
    let auth = format!("Bearer {}", player.token);
    let new_game = || {
        server
            .create(
                player,
                json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
            )
            .0
    };
    let mut id = new_game();
    let mut view = glance(&server.view(player, id));
    while running.load(Ordering::Relaxed) {
        match view.status.as_str() {
            "finished" => {
                id = new_game();
                view = glance(&server.view(player, id));
            }
            "hand_over" => {
                let reply = server.post(
                    &format!("/api/v1/games/{id}/deal"),
                    Some(&player.token),
                    &json!({}),
                );
                view = glance(&reply.body["view"]);
            }
            _ => {
                let body = json!({"expected_version": view.version, "move": view.legal_moves[0]})
                    .to_string();
                let started = Instant::now();
                let mut response = agent
                    .post(server.url(&format!("/api/v1/games/{id}/moves")))
                    .header("Authorization", &auth)
                    .content_type("application/json")
                    .send(body.as_bytes())
                    .unwrap();
                let bytes = response.body_mut().read_to_vec().unwrap();
                latencies.push(started.elapsed());
                assert_eq!(
                    response.status().as_u16(),
                    200,
                    "{}",
                    String::from_utf8_lossy(&bytes)
                );
                view = serde_json::from_slice::<MoveAnswer>(&bytes).unwrap().view;
            }
        }
    }
    latencies
}

/// What a request costs the server with less and less of a move's work in it: the `path` asked
/// with GET by every client on its kept-alive connection for `secs` seconds, with its token (a
/// `{game}` in the path: a game of its own, made first); returns the rate, the server's CPU
/// seconds a request and its threads' switches a request.
fn floor_phase(
    server: &Client,
    pid: u32,
    players: &[Player],
    secs: usize,
    path: &str,
) -> (f64, f64, f64) {
    let paths: Vec<String> = players
        .iter()
        .map(|p| {
            if path.contains("{game}") {
                let body = json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]});
                path.replace("{game}", &server.create(p, body).0.to_string())
            } else {
                path.to_owned()
            }
        })
        .collect();
    let running = AtomicBool::new(true);
    let (cpu_before, switches_before) = (cpu_seconds(pid), context_switches(pid));
    let started = Instant::now();
    let requests: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .zip(&paths)
            .map(|(p, path)| {
                let running = &running;
                scope.spawn(move || {
                    let client = server.keep_alive();
                    let agent = client.persistent.clone().expect("a kept-alive client");
                    let auth = format!("Bearer {}", p.token);
                    let mut count = 0;
                    while running.load(Ordering::Relaxed) {
                        let mut response = agent
                            .get(client.url(path))
                            .header("Authorization", &auth)
                            .call()
                            .unwrap();
                        let bytes = response.body_mut().read_to_vec().unwrap();
                        assert_eq!(response.status().as_u16(), 200, "{path}: {bytes:?}");
                        count += 1;
                    }
                    count
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs(secs as u64));
        running.store(false, Ordering::Relaxed);
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let rate = requests as f64 / started.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu_before;
    let switches = context_switches(pid).saturating_sub(switches_before);
    let requests = requests.max(1) as f64;
    (rate, cpu / requests, switches as f64 / requests)
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

/// Pins every thread of `pid` to `cores` (a `taskset` list).
fn pin(pid: u32, cores: &str) {
    let status = Command::new("taskset")
        .args(["-a", "-p", "-c", cores, &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run taskset");
    assert!(status.success(), "taskset {cores} {pid} failed");
}

/// `LOAD_PIN=1`: PostgreSQL on core 0; the server, the clients and pgbench on core 1.
fn pin_cores(server: &Server) {
    let output = Command::new("pgrep")
        .args(["-x", "postgres"])
        .output()
        .expect("run pgrep");
    let database: Vec<u32> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert!(!database.is_empty(), "no postgres process to pin");
    for pid in database {
        pin(pid, "0");
    }
    pin(server.pid(), "1");
    pin(std::process::id(), "1");
}

/// (b) One API phase: `players` play for `secs` seconds; the moves' latencies, the rate, and
/// the server's CPU seconds a move (its own move and the computer's reply, through HTTP) and
/// its threads' switches a move.
fn api_phase(server: &Server, players: &[Player], secs: usize) -> (Vec<Duration>, f64, f64, f64) {
    let running = AtomicBool::new(true);
    let cpu_before = cpu_seconds(server.pid());
    let switches_before = context_switches(server.pid());
    let started = Instant::now();
    let latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = players
            .iter()
            .map(|p| {
                let running = &running;
                scope.spawn(move || play(&server.keep_alive(), p, running))
            })
            .collect();
        std::thread::sleep(Duration::from_secs(secs as u64));
        running.store(false, Ordering::Relaxed);
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let rate = latencies.len() as f64 / started.elapsed().as_secs_f64();
    let cpu = cpu_seconds(server.pid()) - cpu_before;
    let switches = context_switches(server.pid()).saturating_sub(switches_before);
    let moves = latencies.len().max(1) as f64;
    (latencies, rate, cpu / moves, switches as f64 / moves)
}

/// (a) One pgbench phase on games `lo` … `lo + clients − 1`: the transactions' latencies and
/// the rate.
fn pgbench_phase(url: &str, lo: i64, clients: usize, secs: usize) -> (Vec<Duration>, f64) {
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
            &format!("lo={lo}"),
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
    let latencies: Vec<Duration> = std::fs::read_dir(dir.path())
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
    (latencies, tps)
}

fn main() {
    if std::env::var("CARDROOM_TEST_POSTGRES_URL").is_err() {
        eprintln!("load: run under scripts/with-postgres");
        std::process::exit(2);
    }
    let clients = env_number("LOAD_CLIENTS", 8);
    let secs = env_number("LOAD_SECS", 10);
    let rounds = env_number("LOAD_ROUNDS", 3).max(1);
    let server = Server::start_with(
        Backend::Postgres,
        // (The move path alone: the analysis of the games that finish is a background job with
        // its own bench, `cargo bench -p cardroom-core --bench analysis`.)
        &[
            ("CARDROOM_WORKERS", "2"),
            ("CARDROOM_DB_POOL", "16"),
            ("CARDROOM_ANALYSIS", "off"),
        ],
    );
    let pinned = std::env::var("LOAD_PIN").is_ok_and(|v| v == "1");
    if pinned {
        pin_cores(&server);
        println!("pinned: PostgreSQL on core 0; the server, the clients and pgbench on core 1");
    }
    let players: Vec<Player> = (0..clients)
        .map(|i| server.guest(&format!("load{i}")))
        .collect();
    // pgbench works on the games the API played first: every client creates one before anything
    // else, so ids lo … lo + clients − 1 are the clients' own. (pgbench scribbles over their
    // snapshots; the API has moved on to new games by then.)
    let mut lo = None;
    let (mut api_all, mut pg_all, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut cpu_per_move = Vec::new();
    // Alternating phases, so that a machine that speeds up or slows down during the run
    // affects both sides alike; the ratio reported is the median round's.
    for round in 1..=rounds {
        let (latencies, api_rate, cpu, switches) = api_phase(&server, &players, secs);
        let lo = *lo.get_or_insert_with(|| first_game(&server.database_url));
        let (pg_latencies, tps) = pgbench_phase(&server.database_url, lo, clients, secs);
        println!(
            "round {round}: API {api_rate:.0} moves/s (p50 {:.2} ms, server CPU {:.3} ms and {switches:.1} thread switches a move), pgbench {tps:.0} tx/s (p50 {:.2} ms): {:.0}%",
            ms(median(&latencies)),
            cpu * 1000.0,
            ms(median(&pg_latencies)),
            100.0 * api_rate / tps
        );
        ratios.push(api_rate / tps);
        cpu_per_move.push(cpu);
        api_all.push((latencies, api_rate));
        pg_all.push((pg_latencies, tps));
    }
    let summarize = |phases: Vec<(Vec<Duration>, f64)>| {
        let mut rates: Vec<f64> = phases.iter().map(|(_, rate)| *rate).collect();
        rates.sort_by(f64::total_cmp);
        let mut latencies: Vec<Duration> = phases.into_iter().flat_map(|(l, _)| l).collect();
        latencies.sort();
        (rates, latencies)
    };
    let (api_rates, api_latencies) = summarize(api_all);
    let (pg_rates, pg_latencies) = summarize(pg_all);
    let peak = peak_memory_kib(server.pid()).unwrap_or(0);
    println!(
        "API, {clients} clients, {rounds} × {secs} s: {:.0} moves/s (median round; {:.0}–{:.0}), p50 {:.2} ms, p99 {:.2} ms, server peak memory {:.1} MiB",
        api_rates[api_rates.len() / 2],
        api_rates[0],
        api_rates[api_rates.len() - 1],
        ms(percentile(&api_latencies, 0.50)),
        ms(percentile(&api_latencies, 0.99)),
        peak as f64 / 1024.0
    );
    println!(
        "pgbench, {clients} clients, {rounds} × {secs} s, the same transaction shape: {:.0} tx/s (median round; {:.0}–{:.0}), p50 {:.2} ms, p99 {:.2} ms",
        pg_rates[pg_rates.len() / 2],
        pg_rates[0],
        pg_rates[pg_rates.len() - 1],
        ms(percentile(&pg_latencies, 0.50)),
        ms(percentile(&pg_latencies, 0.99)),
    );
    let (cpu, cpu_low, cpu_high) = median_round(cpu_per_move, 1000.0);
    println!(
        "server CPU a move (the person's and the computer's reply, through HTTP): {cpu:.3} ms (median round; {cpu_low:.3}–{cpu_high:.3})"
    );
    let (ratio, ratio_low, ratio_high) = median_round(ratios, 100.0);
    println!(
        "ratio: the API delivers {ratio:.0}% of the database's own rate (median round; {ratio_low:.0}–{ratio_high:.0}%)"
    );
    // What stands between: the same clients asking for less and less of a move's work, each
    // for half a phase, the server's CPU a request beside the move's.
    let floors = [
        (
            "GET /healthz (the HTTP exchange alone)",
            "/healthz".to_owned(),
        ),
        (
            "GET /readyz (and a hop to the blocking pool, one round trip)",
            "/readyz".to_owned(),
        ),
        (
            "GET /api/v1/games/{id} (and the token, the game's read, the view)",
            "/api/v1/games/{game}".to_owned(),
        ),
    ];
    for (what, path) in floors {
        let (rate, cpu, switches) =
            floor_phase(&server, server.pid(), &players, secs.div_ceil(2), &path);
        println!(
            "server CPU a request, {what}: {:.3} ms, {switches:.1} thread switches ({rate:.0} requests/s)",
            cpu * 1000.0
        );
    }
}

/// The median round's value and the lowest and highest round's, each times `scale`.
fn median_round(mut values: Vec<f64>, scale: f64) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        scale * values[values.len() / 2],
        scale * values[0],
        scale * values[values.len() - 1],
    )
}

fn median(latencies: &[Duration]) -> Duration {
    let mut sorted = latencies.to_vec();
    sorted.sort();
    percentile(&sorted, 0.5)
}

/// The id of the first game in the database.
fn first_game(url: &str) -> i64 {
    use diesel::{QueryableByName, RunQueryDsl, sql_types::BigInt};
    #[derive(QueryableByName)]
    struct Bounds {
        #[diesel(sql_type = BigInt)]
        lo: i64,
    }
    let pool = cardroom_db::connect(url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let bounds: Bounds = diesel::sql_query("SELECT min(id) AS lo FROM games")
        .get_result(&mut **conn)
        .unwrap();
    bounds.lo
}
