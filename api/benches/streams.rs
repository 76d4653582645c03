//! Many waiting streams on one replica: the server's memory and idle CPU with thousands of
//! Server-Sent Events streams open, and how long one move takes to reach a thousand watchers of
//! its game.
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench streams [-- STREAMS [WATCHERS
//! [ACCOUNTS]]]` (`CARDROOM_RECHECK_MS` in the environment is passed to the server.)
//!
//! Defaults: 10,000 streams, of which 1,000 watch one game (the one that moves), 3,000 are
//! account streams (`/stream/events`, one for each of 3,000 guests, as people with the page
//! open hold), and of the rest half watch 49 other games and half follow the lobby. Everything is on loopback,
//! the clients spread over source addresses 127.0.0.1, .2, … (5,000 streams each, inside the
//! ephemeral port range); the bench raises its own (and so the server's) open-file limit with
//! `prlimit` (the hard limit too, where it may). It prints the time to open the streams, the
//! server's resident memory, its CPU and database reads while only heartbeats flow, and the
//! delay from each of a few moves' responses to its arrival at each watcher (p50, p99, max),
//! with the deliveries never made (starved watchers) and the streams the server closed.
//!
//! `STREAMS_H2C=N` in the environment carries the streams N to a connection over HTTP/2 in
//! cleartext (the server started with `CARDROOM_H2C=on`), as a proxy in front of the replica
//! that multiplexes its clients does; unset, each stream has an HTTP/1.1 connection of its own,
//! as from browsers.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::net::SocketAddr;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[allow(
    dead_code,
    unused_imports,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support/mod.rs"]
mod support;

use support::{Backend, Server};

mod common;
use common::cpu_seconds;

/// What the streams share: the version they wait for, and when each saw it.
struct Board {
    started: Instant,
    /// The version whose arrival is timed (0: none yet).
    target: AtomicI64,
    /// For each stream, nanoseconds after `started` when the target arrived (0: not yet).
    arrived: Vec<AtomicU64>,
    connected: AtomicUsize,
    refused: AtomicUsize,
    closed: AtomicUsize,
}

/// Streams (or HTTP/2 connections' first streams) one loopback source address carries: well
/// inside the ephemeral port range (28,232 ports by default), with room for the ports a run a
/// minute before still holds in `TIME_WAIT`; 50,000 HTTP/1.1 streams come from 127.0.0.1 to 10.
const STREAMS_PER_ADDRESS: usize = 5_000;

/// Connects stream `slot` from its loopback source address.
async fn connect(addr: SocketAddr, slot: usize) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    let host = u8::try_from(1 + slot / STREAMS_PER_ADDRESS).unwrap_or(u8::MAX);
    socket.bind(SocketAddr::from((
        std::net::Ipv4Addr::new(127, 0, 0, host),
        0,
    )))?;
    socket.connect(addr).await
}

/// What a stream has read, kept short (a marker may straddle two reads), and what it saw in it.
struct Reading {
    tail: Vec<u8>,
}

impl Reading {
    fn new() -> Reading {
        Reading { tail: Vec::new() }
    }

    /// Takes in what was read next; marks the stream's arrival when the awaited version is in it.
    fn read(&mut self, bytes: &[u8], board: &Board, slot: usize) {
        self.tail.extend_from_slice(bytes);
        let target = board.target.load(Ordering::SeqCst);
        if target > 0 && board.arrived[slot].load(Ordering::SeqCst) == 0 {
            let marker = format!("\"version\":{target},");
            if self
                .tail
                .windows(marker.len())
                .any(|w| w == marker.as_bytes())
            {
                let at = board.started.elapsed().as_nanos() as u64;
                board.arrived[slot].store(at.max(1), Ordering::SeqCst);
            }
        }
        if self.tail.len() > 256 {
            self.tail.drain(..self.tail.len() - 256);
        }
    }
}

/// Opens one stream on a connection of its own (HTTP/1.1) and reads it until the server closes
/// it or the bench ends.
async fn follow(addr: SocketAddr, stream: Arc<Stream>, board: Arc<Board>, slot: usize) {
    let Ok(mut socket) = connect(addr, slot).await else {
        board.refused.fetch_add(1, Ordering::SeqCst);
        return;
    };
    if socket
        .write_all(stream.http1(addr).as_bytes())
        .await
        .is_err()
    {
        board.refused.fetch_add(1, Ordering::SeqCst);
        return;
    }
    let mut buffer = vec![0u8; 4096];
    let mut head: Vec<u8> = Vec::new();
    loop {
        let n = match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => {
                board.closed.fetch_add(1, Ordering::SeqCst);
                return;
            }
            Ok(n) => n,
        };
        head.extend_from_slice(&buffer[..n]);
        if head.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    if !head.starts_with(b"HTTP/1.1 200") {
        board.refused.fetch_add(1, Ordering::SeqCst);
        return;
    }
    board.connected.fetch_add(1, Ordering::SeqCst);
    let mut reading = Reading::new();
    reading.read(&head, &board, slot);
    loop {
        match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => {
                board.closed.fetch_add(1, Ordering::SeqCst);
                return;
            }
            Ok(n) => reading.read(&buffer[..n], &board, slot),
        }
    }
}

/// Opens the streams `first..first + streams.len()` on one HTTP/2 connection (h2c, prior
/// knowledge), as a proxy that multiplexes its clients does, and reads each until the server
/// closes it or the bench ends.
async fn follow_h2(addr: SocketAddr, streams: Vec<Arc<Stream>>, board: Arc<Board>, first: usize) {
    let refuse = |n: usize| {
        board.refused.fetch_add(n, Ordering::SeqCst);
    };
    let Ok(socket) = connect(addr, first).await else {
        return refuse(streams.len());
    };
    // Windows as a proxy's (Envoy's and Go's are larger still): a move's events to a hundred
    // watchers overflow the protocol's default 64 KiB for the connection.
    let handshake = h2::client::Builder::new()
        .initial_window_size(1 << 20)
        .initial_connection_window_size(16 << 20)
        .handshake::<_, bytes::Bytes>(socket);
    let Ok((client, connection)) = handshake.await else {
        return refuse(streams.len());
    };
    tokio::spawn(async move {
        let _ = connection.await;
    });
    for (i, stream) in streams.iter().enumerate() {
        let slot = first + i;
        let Ok(mut sender) = client.clone().ready().await else {
            return refuse(streams.len() - i);
        };
        let Ok((response, _)) = sender.send_request(stream.http2(addr), true) else {
            return refuse(streams.len() - i);
        };
        let board = board.clone();
        tokio::spawn(async move {
            let response = match response.await {
                Ok(response) if response.status() == 200 => response,
                _ => return board.refused.fetch_add(1, Ordering::SeqCst),
            };
            board.connected.fetch_add(1, Ordering::SeqCst);
            let mut body = response.into_body();
            let mut reading = Reading::new();
            while let Some(Ok(chunk)) = body.data().await {
                let _ = body.flow_control().release_capacity(chunk.len());
                reading.read(&chunk, &board, slot);
            }
            board.closed.fetch_add(1, Ordering::SeqCst)
        });
    }
}

/// A stream's request: its path and its caller's token.
struct Stream {
    path: String,
    token: Option<String>,
}

impl Stream {
    fn http1(&self, addr: SocketAddr) -> String {
        let auth = self
            .token
            .as_ref()
            .map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        format!(
            "GET {} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{auth}\r\n",
            self.path
        )
    }

    fn http2(&self, addr: SocketAddr) -> http::Request<()> {
        let mut request = http::Request::get(format!("http://{addr}{}", self.path))
            .header("accept", "text/event-stream");
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        request.body(()).unwrap()
    }
}

/// The server's resident memory, in MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib / 1024.0
}

/// Moves timed on their way to the watchers.
const MOVES: usize = 20;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let numbers: Vec<usize> = std::env::args().filter_map(|a| a.parse().ok()).collect();
    let streams = numbers.first().copied().unwrap_or(10_000);
    let watchers = numbers.get(1).copied().unwrap_or(1_000).min(streams);
    let accounts = numbers
        .get(2)
        .copied()
        .unwrap_or(3_000)
        .min(streams - watchers);
    // `STREAMS_H2C=N`: the streams go N to an HTTP/2 connection (h2c), as from a proxy that
    // multiplexes its clients; unset or 0: one HTTP/1.1 connection a stream, as from browsers.
    let per_connection: usize = std::env::var("STREAMS_H2C")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let connections = if per_connection > 0 {
        streams.div_ceil(per_connection)
    } else {
        streams
    };
    // Each side (this process and the server it starts, which inherits the limit) holds one
    // descriptor a connection. The soft limit is raised; the hard one too where this may
    // (root), else it must allow it already.
    let files = connections + 1024;
    let raise = |limit: &str| {
        Command::new("prlimit")
            .args(["--pid", &std::process::id().to_string(), limit])
            .status()
            .is_ok_and(|s| s.success())
    };
    let raised =
        raise(&format!("--nofile={files}:")) || raise(&format!("--nofile={files}:{files}"));
    assert!(
        raised,
        "could not raise the open-file limit to {files} (see `ulimit -Hn`)"
    );
    let backend = if std::env::var("CARDROOM_TEST_POSTGRES_URL").is_ok() {
        Backend::Postgres
    } else {
        Backend::Sqlite
    };
    let limit = (streams + 100).to_string();
    // The server's recheck as the bench's environment sets it (the idle CPU depends on it).
    let recheck = std::env::var("CARDROOM_RECHECK_MS").unwrap_or_default();
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_WORKERS", "2"),
            ("CARDROOM_DB_POOL", "16"),
            ("CARDROOM_MAX_STREAMS", &limit),
            ("CARDROOM_MAX_STREAMS_PER_ACCOUNT", &limit),
            ("CARDROOM_RECHECK_MS", &recheck),
            (
                "CARDROOM_H2C",
                if per_connection > 0 { "on" } else { "off" },
            ),
            // (The bench signs in thousands of guests from one address.)
            ("CARDROOM_AUTH_PER_MINUTE", "0"),
        ],
    );
    let pid = server.pid();
    let addr: SocketAddr = server
        .url("")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let readers: Vec<String> = (0..accounts)
        .map(|i| server.guest(&format!("reader{i}")).token)
        .collect();
    // Each game has a host of its own, as tables do: a person back after the idle minute is
    // news (presence) at their own table, not at all fifty.
    let hosts: Vec<_> = (0..50).map(|i| server.guest(&format!("host{i}"))).collect();
    let host = &hosts[0];
    let watcher = server.guest("watcher");
    let games: Vec<(i64, i64)> = hosts
        .iter()
        .map(|host| {
            let (id, view) = server.create(
                host,
                json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "visibility": "public"}),
            );
            (id, view["version"].as_i64().unwrap())
        })
        .collect();
    let request = |path: &str, token: Option<&str>| {
        Arc::new(Stream {
            path: path.to_owned(),
            token: token.map(str::to_owned),
        })
    };
    let board = Arc::new(Board {
        started: Instant::now(),
        target: AtomicI64::new(0),
        arrived: (0..streams).map(|_| AtomicU64::new(0)).collect(),
        connected: AtomicUsize::new(0),
        refused: AtomicUsize::new(0),
        closed: AtomicUsize::new(0),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let rss_before = rss_mib(pid);
    let opening = Instant::now();
    // HTTP/2: the streams waiting for their connection.
    let mut batch: Vec<Arc<Stream>> = Vec::new();
    for slot in 0..streams {
        let others = streams - watchers - accounts;
        let request = if slot < watchers {
            let (id, version) = games[0];
            request(
                &format!("/api/v1/games/{id}/events?after={version}"),
                Some(&watcher.token),
            )
        } else if slot < watchers + accounts {
            request(
                "/api/v1/stream/events",
                Some(readers[slot - watchers].as_str()),
            )
        } else if (slot - watchers - accounts) < others / 2 {
            let (id, version) = games[1 + slot % 49];
            request(
                &format!("/api/v1/games/{id}/events?after={version}"),
                Some(&watcher.token),
            )
        } else {
            request("/api/v1/lobby", None)
        };
        if per_connection == 0 {
            runtime.spawn(follow(addr, request, board.clone(), slot));
        } else {
            batch.push(request);
            if batch.len() == per_connection || slot + 1 == streams {
                let first = slot + 1 - batch.len();
                let streams = std::mem::take(&mut batch);
                runtime.spawn(follow_h2(addr, streams, board.clone(), first));
            }
        }
        // Open in steps, so the listen queue never overflows.
        if slot % 500 == 499 {
            let deadline = Instant::now() + Duration::from_secs(60);
            while board.connected.load(Ordering::SeqCst) + board.refused.load(Ordering::SeqCst)
                < slot + 1 - batch.len()
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while board.connected.load(Ordering::SeqCst) + board.refused.load(Ordering::SeqCst) < streams
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let opened = opening.elapsed();
    let carried = if per_connection > 0 {
        format!("HTTP/2, {per_connection} streams a connection, {connections} connections")
    } else {
        "HTTP/1.1, a connection each".to_owned()
    };
    println!(
        "{backend:?}: {} of {streams} streams open in {:.1} s ({carried}; {} refused; {watchers} \
         watch the game that moves, {accounts} are account streams); server RSS {:.0} MiB \
         before, {:.0} MiB with them",
        board.connected.load(Ordering::SeqCst),
        opened.as_secs_f64(),
        board.refused.load(Ordering::SeqCst),
        rss_before,
        rss_mib(pid),
    );
    // Idle: only heartbeats (and the streams' own safety-net reads) flow.
    std::thread::sleep(Duration::from_secs(3));
    let reads0 = server.metric("cardroom_stream_reads_total");
    let (cpu0, wall0) = (cpu_seconds(pid), Instant::now());
    std::thread::sleep(Duration::from_secs(20));
    let idle_secs = wall0.elapsed().as_secs_f64();
    let idle = (cpu_seconds(pid) - cpu0) / idle_secs;
    println!(
        "idle: server CPU {:.0}% of one core over 20 s; {:.0} database reads a second for the \
         streams; RSS {:.0} MiB",
        idle * 100.0,
        (server.metric("cardroom_stream_reads_total") - reads0) / idle_secs,
        rss_mib(pid)
    );
    // Moves in the watched game, each timed from its response to each watcher's reading it.
    let (id, _) = games[0];
    let mut delays: Vec<Duration> = Vec::new();
    let mut starved = 0;
    // Each move's slowest delivery.
    let mut slowest: Vec<Duration> = Vec::new();
    let reads0 = server.metric("cardroom_stream_reads_total");
    for _ in 0..MOVES {
        // The computer answers each move: wait for the turn to come back.
        let deadline = Instant::now() + Duration::from_secs(30);
        let view = loop {
            let view = server.view(host, id);
            if view["to_act"] == view["your_seat"] || Instant::now() > deadline {
                break view;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        for arrived in &board.arrived[..watchers] {
            arrived.store(0, Ordering::SeqCst);
        }
        board
            .target
            .store(view["version"].as_i64().unwrap() + 1, Ordering::SeqCst);
        let reply = server.play(host, &view, &view["legal_moves"][0]);
        assert_eq!(reply.status, 200, "{reply:?}");
        // A watcher may hear of the move before its maker has the answer: no delay, then.
        let answered = board.started.elapsed().as_nanos() as u64;
        let deadline = Instant::now() + Duration::from_secs(30);
        let reached = || {
            board.arrived[..watchers]
                .iter()
                .filter(|a| a.load(Ordering::SeqCst) > 0)
                .count()
        };
        while reached() < watchers && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let round: Vec<Duration> = board.arrived[..watchers]
            .iter()
            .map(|a| a.load(Ordering::SeqCst))
            .filter(|&at| at > 0)
            .map(|at| Duration::from_nanos(at.saturating_sub(answered)))
            .collect();
        slowest.push(round.iter().max().copied().unwrap_or_default());
        starved += watchers - round.len();
        delays.extend(round);
    }
    delays.sort();
    println!(
        "{MOVES} moves to {watchers} watchers each: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} \
         deliveries never made; {:.0} database reads for the streams meanwhile; {} streams \
         closed by the server; RSS {:.0} MiB",
        percentile(&delays, 0.50).as_secs_f64() * 1000.0,
        percentile(&delays, 0.99).as_secs_f64() * 1000.0,
        delays.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
        starved,
        server.metric("cardroom_stream_reads_total") - reads0,
        board.closed.load(Ordering::SeqCst),
        rss_mib(pid),
    );
    let slowest: Vec<String> = slowest
        .iter()
        .map(|d| format!("{:.0}", d.as_secs_f64() * 1000.0))
        .collect();
    println!("each move's slowest delivery, ms: {}", slowest.join(" "));
    runtime.shutdown_background();
}
