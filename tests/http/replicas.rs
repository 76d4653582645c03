//! Several replicas on one PostgreSQL: live events across replicas, no lost or doubled move,
//! recovery after a crash, graceful shutdown, and the stream limit.
//!
//! Over 600 lines: every scenario with several replicas; they share the helpers that start them
//! and a load balancer in front.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Backend, Client, Player, Server};

pub(crate) fn two_people(server: &Client, game: Value) -> (Player, Player, i64) {
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(&amira, game);
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    (amira, karim, id)
}

/// Whoever is to act plays their first legal move through `server`; returns the new version.
pub(crate) fn move_once(server: &Client, players: [&Player; 2], id: i64) -> Option<i64> {
    for player in players {
        let view = server.view(player, id);
        if view["status"] == "active" && view["to_act"] == view["your_seat"] {
            let reply = server.play(player, &view, &view["legal_moves"][0]);
            assert_eq!(reply.status, 200, "{reply:?}");
            return reply.body["view"]["version"].as_i64();
        }
    }
    None
}

pub(crate) fn log_replays_to_snapshot(server: &Server, id: i64) {
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let replayed = cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(id)).unwrap();
    assert_eq!(
        replayed,
        cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id)).unwrap()
    );
}

#[test]
fn a_client_streaming_from_one_replica_sees_moves_made_through_another_within_a_second() {
    let a = Server::start(Backend::Postgres);
    // B's safety net reads once a minute: only A's notices can bring the moves in time (and
    // B must not take them for the echo of its own).
    let b = a.replica(&[("CARDROOM_RECHECK_MS", "60000")]);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let start = a.view(&amira, id)["version"].as_i64().unwrap();
    let stream = b
        .stream(
            &format!("/api/v1/games/{id}/events?after={start}"),
            &karim.token,
            None,
        )
        .unwrap();
    let mut delays = Vec::new();
    for _ in 0..24 {
        let Some(version) = move_once(&a, [&amira, &karim], id) else {
            break;
        };
        let posted = Instant::now();
        loop {
            let (at, event) = stream
                .recv_timeout(Duration::from_secs(5))
                .expect("the stream delivered");
            assert!(!event.is_null(), "the stream ended");
            if event["version"] == version {
                delays.push(at.saturating_duration_since(posted));
                break;
            }
        }
    }
    delays.sort();
    assert!(delays.len() >= 20);
    let p50 = delays[delays.len() / 2];
    let p99 = delays[delays.len() - 1];
    eprintln!(
        "cross-replica event delay: p50 {p50:?}, p99 (max) {p99:?} over {} moves",
        delays.len()
    );
    assert!(p99 < Duration::from_secs(1), "{delays:?}");
}

#[test]
fn a_stream_resumes_after_the_last_event_id() {
    let a = Server::start(Backend::Postgres);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let before = a.view(&amira, id)["version"].as_i64().unwrap();
    let first = move_once(&a, [&amira, &karim], id).unwrap();
    let second = move_once(&a, [&amira, &karim], id).unwrap();
    assert!(first > before && second > first);
    let (stream, headers) = a
        .stream_with_headers(
            &format!("/api/v1/games/{id}/events"),
            &amira.token,
            Some(first),
        )
        .unwrap();
    // Proxies (nginx in docker-compose.yml) must pass events on at once.
    assert!(
        headers.contains(&("x-accel-buffering".to_owned(), "no".to_owned())),
        "{headers:?}"
    );
    let (_, event) = stream.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(event["version"], second, "resumed after {first}");
}

#[test]
fn conflicting_moves_through_both_replicas_lose_none_and_double_none() {
    let a = Server::start(Backend::Postgres);
    let b = a.replica(&[]);
    let (amira, karim, id) = two_people(
        &a,
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 31}}),
    );
    let players = [&amira, &karim];
    for _ in 0..10 {
        let views: Vec<Value> = players.iter().map(|p| a.view(p, id)).collect();
        let mover = if views[0]["to_act"] == views[0]["your_seat"] {
            0
        } else {
            1
        };
        let view = &views[mover];
        let legal = view["legal_moves"].as_array().unwrap().clone();
        let replies: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..12)
                .map(|i| {
                    let server = if i % 2 == 0 { &a } else { &b };
                    let mv = legal[i % legal.len()].clone();
                    let player = players[mover];
                    scope.spawn(move || server.play(player, view, &mv))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            replies.iter().filter(|r| r.status == 200).count(),
            1,
            "{replies:?}"
        );
        for reply in replies.iter().filter(|r| r.status != 200) {
            reply.assert_problem(409, "version_conflict");
        }
        assert_eq!(
            b.view(&amira, id)["version"].as_i64().unwrap(),
            view["version"].as_i64().unwrap() + 1
        );
    }
    log_replays_to_snapshot(&a, id);
}

#[test]
fn killing_a_replica_during_computer_turns_leaves_no_game_stuck() {
    let a = Server::start(Backend::Postgres);
    let b = a.replica(&[("CARDROOM_SWEEP_MS", "200")]);
    let a_pid = a.pid();
    let player = a.guest("amira");
    let ids: Vec<i64> = (0..6)
        .map(|_| {
            a.create(
                &player,
                json!({"kind": "thirty_one", "seats": [{}, {"bot": "strong"}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "random"}]}),
            )
            .0
        })
        .collect();
    // And one game left on a computer's turn, as a replica that died at the worst moment would.
    let (stuck, _) = a.create(
        &player,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let view = a.view(&player, stuck);
    let (_pool, left_at) =
        crate::recovery::leave_on_a_computer_turn(&a, stuck, view["version"].as_i64().unwrap());
    // Moves keep replica A busy with computer replies while it is killed.
    std::thread::scope(|scope| {
        for &id in &ids {
            let (server, player) = (&a, &player);
            scope.spawn(move || {
                for _ in 0..40 {
                    let reply = server.get(&format!("/api/v1/games/{id}"), Some(&player.token));
                    if reply.status != 200 {
                        return;
                    }
                    let view = reply.body;
                    if view["status"] != "active" || view["to_act"] != view["your_seat"] {
                        if view["status"] == "hand_over" {
                            server.post(
                                &format!("/api/v1/games/{id}/deal"),
                                Some(&player.token),
                                &json!({}),
                            );
                            continue;
                        }
                        return;
                    }
                    let mv = view["legal_moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|m| m["type"] != "knock")
                        .cloned()
                        .unwrap_or(json!(null));
                    server.play(player, &view, &mv);
                }
            });
        }
        std::thread::sleep(Duration::from_millis(300));
        // SIGKILL: no chance to finish anything.
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &a_pid.to_string()])
            .status();
    });
    // Within five seconds every game waits for the person (or is decided), seen through B.
    let deadline = Instant::now() + Duration::from_secs(5);
    for &id in ids.iter().chain([&stuck]) {
        loop {
            let view = b.view(&player, id);
            let waiting_for_person =
                view["status"] != "active" || view["to_act"] == view["your_seat"];
            if waiting_for_person {
                break;
            }
            assert!(Instant::now() < deadline, "game {id} is stuck: {view}");
            std::thread::sleep(Duration::from_millis(100));
        }
        log_replays_to_snapshot(&b, id);
    }
    assert!(b.view(&player, stuck)["version"].as_i64().unwrap() > left_at);
}

#[test]
fn a_stopping_replica_closes_its_streams_and_exits_cleanly() {
    let a = Server::start(Backend::Postgres);
    let mut b = a.replica(&[]);
    let (amira, _karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let now = a.view(&amira, id)["version"].as_i64().unwrap();
    let stream = b
        .stream(
            &format!("/api/v1/games/{id}/events?after={now}"),
            &amira.token,
            None,
        )
        .unwrap();
    let started = Instant::now();
    assert!(b.terminate(), "the replica did not exit cleanly");
    // The stream ends: normally (null), or cut off while the process exits (the reader's
    // error). Either way a client's EventSource reconnects elsewhere; what must not happen is
    // an event, or a stream left open.
    let (_, end) = stream
        .recv_timeout(Duration::from_secs(5))
        .expect("the stream ended within five seconds");
    assert!(
        end.is_null() || end.as_str().is_some_and(|e| e.starts_with("stream error")),
        "expected the end of the stream, got {end}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // The other replica serves on.
    assert_eq!(a.get("/readyz", None).status, 200);
}

#[test]
fn beyond_its_stream_limit_a_replica_answers_503() {
    let a = Server::start_with(Backend::Postgres, &[("CARDROOM_MAX_STREAMS", "1")]);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let _open = a
        .stream(&format!("/api/v1/games/{id}/events"), &amira.token, None)
        .unwrap();
    let refused = a
        .stream(&format!("/api/v1/games/{id}/events"), &karim.token, None)
        .unwrap_err();
    refused.assert_problem(503, "too_many_streams");
    // The JSON long-poll still answers.
    let poll = a.get(
        &format!("/api/v1/games/{id}/events?wait=0"),
        Some(&karim.token),
    );
    assert_eq!(poll.status, 200);
}

/// nginx with `deploy/nginx.conf` (the compose file's load balancer) in front of `replicas`.
/// The config is used as written except what only Docker provides: the replicas' addresses
/// (Docker's DNS and `resolve`), the port, and where nginx keeps its files.
struct Balancer {
    child: std::process::Child,
    client: Client,
    dir: tempfile::TempDir,
}

impl Balancer {
    fn start(replicas: &[&Server]) -> Balancer {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().display().to_string();
        // Workers may run as `nobody` (when the tests run as root): let them use the folder.
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o777),
        )
        .unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut config =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/nginx.conf"))
                .unwrap();
        let servers: String = replicas
            .iter()
            .map(|r| {
                let address = r.base.trim_start_matches("http://");
                format!("server {address} max_fails=2 fail_timeout=5s;\n        ")
            })
            .collect();
        for (docker, here) in [
            ("resolver 127.0.0.11 valid=5s ipv6=off;", String::new()),
            (
                "server cardroom:8080 resolve max_fails=2 fail_timeout=5s;",
                servers,
            ),
            ("listen 8080;", format!("listen 127.0.0.1:{port};")),
            (
                "http {",
                format!(
                    "http {{\n    client_body_temp_path {path}/body;\n    proxy_temp_path {path}/proxy;\n    \
                     fastcgi_temp_path {path}/fastcgi;\n    uwsgi_temp_path {path}/uwsgi;\n    \
                     scgi_temp_path {path}/scgi;"
                ),
            ),
        ] {
            assert!(
                config.contains(docker),
                "deploy/nginx.conf no longer has `{docker}`"
            );
            config = config.replacen(docker, &here, 1);
        }
        config = format!("pid {path}/nginx.pid;\nerror_log {path}/error.log warn;\n{config}");
        std::fs::write(dir.path().join("nginx.conf"), config).unwrap();
        let nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("nginx");
        let child = std::process::Command::new(nginx)
            .args([
                "-p",
                &path,
                "-c",
                &format!("{path}/nginx.conf"),
                "-g",
                "daemon off;",
            ])
            .spawn()
            .unwrap_or_else(|e| {
                panic!("start nginx ({e}); scripts/test installs it (apt-get install nginx-light)")
            });
        let balancer = Balancer {
            child,
            client: Client {
                base: format!("http://127.0.0.1:{port}"),
                persistent: None,
            },
            dir,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while balancer.client.get("/lb-health", None).status != 200 {
            assert!(
                Instant::now() < deadline,
                "nginx did not start: {}",
                balancer.errors()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        balancer
    }

    fn errors(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        // SIGTERM, so the master stops its workers too (SIGKILL would orphan them).
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// Whoever is to act plays their first legal move, as a careful client does: with an
/// Idempotency-Key, retried on a gateway error. Returns the new version.
fn move_with_retries(lb: &Client, players: [&Player; 2], id: i64, n: usize) -> i64 {
    for player in players {
        let view = lb.view(player, id);
        if view["status"] != "active" || view["to_act"] != view["your_seat"] {
            continue;
        }
        let key = format!("lb-move-{id}-{n}");
        let body = json!({"expected_version": view["version"], "move": view["legal_moves"][0]});
        for _ in 0..3 {
            let reply = lb.post_with(
                &format!("/api/v1/games/{id}/moves"),
                Some(&player.token),
                &[("Idempotency-Key", &key)],
                &body,
            );
            match reply.status {
                200 => return reply.body["view"]["version"].as_i64().unwrap(),
                0 | 502 | 503 => continue,
                _ => panic!("{reply:?}"),
            }
        }
        panic!("the move failed three times");
    }
    panic!("nobody is to act");
}

/// Reads a stream until it delivers an event of `version`; false if it ended first.
pub(crate) fn delivered(
    stream: &std::sync::mpsc::Receiver<(Instant, Value)>,
    version: i64,
    within: Duration,
) -> bool {
    let deadline = Instant::now() + within;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match stream.recv_timeout(left) {
            Ok((_, event)) if event.is_null() => return false,
            Ok((_, event)) if event["version"].as_i64() >= Some(version) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
}

#[test]
fn behind_the_load_balancer_events_arrive_at_once_and_a_dead_replica_is_routed_around() {
    let a = Server::start(Backend::Postgres);
    let b = a.replica(&[]);
    let lb = Balancer::start(&[&a, &b]);
    let (amira, karim, id) = two_people(&lb.client, json!({"kind": "basra", "seats": [{}, {}]}));
    let start = lb.client.view(&amira, id)["version"].as_i64().unwrap();
    let stream = lb
        .client
        .stream(
            &format!("/api/v1/games/{id}/events?after={start}"),
            &karim.token,
            None,
        )
        .unwrap();
    // nginx passes every event on at once (no buffering), whichever replica took the move.
    let mut last = start;
    for _ in 0..10 {
        last = move_once(&lb.client, [&amira, &karim], id).unwrap();
        assert!(
            delivered(&stream, last, Duration::from_secs(1)),
            "version {last} did not come through nginx within a second"
        );
    }

    // One replica dies. Reads are retried on the other by nginx; a POST that nginx had already
    // sent to the dead replica answers 502, and the client retries it with its
    // Idempotency-Key, which is always safe: every move still lands exactly once.
    let a_pid = a.pid();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &a_pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut versions = Vec::new();
    for n in 0..10 {
        versions.push(move_with_retries(&lb.client, [&amira, &karim], id, n));
    }
    // A client whose stream ended with its replica reconnects with the last id it saw and
    // misses nothing.
    let resumed = lb
        .client
        .stream(
            &format!("/api/v1/games/{id}/events"),
            &karim.token,
            Some(last),
        )
        .unwrap();
    let mut seen = Vec::new();
    while seen.last() != versions.last() {
        let (_, event) = resumed
            .recv_timeout(Duration::from_secs(5))
            .expect("the resumed stream delivered");
        assert!(!event.is_null(), "the resumed stream ended");
        let version = event["version"].as_i64().unwrap();
        assert!(version > last, "resumed after {last}, got {version}");
        if seen.last() != Some(&version) {
            seen.push(version);
        }
    }
    assert_eq!(seen, versions, "every version after {last}, once, in order");
    log_replays_to_snapshot(&b, id);
    assert!(!lb.errors().contains("[emerg]"), "nginx: {}", lb.errors());
}

/// A login role on `server`'s database that may do everything the service does except
/// `pg_notify`, as on a PostgreSQL-compatible database without `LISTEN/NOTIFY`; returns its URL.
fn role_without_notify(server: &Server) -> String {
    use diesel::{Connection, RunQueryDsl};
    let name = format!("cardroom_quiet_{}", std::process::id());
    let mut conn = diesel::PgConnection::establish(&server.database_url).unwrap();
    for statement in [
        format!("CREATE ROLE {name} LOGIN PASSWORD 'quiet'"),
        format!("GRANT ALL ON SCHEMA public TO {name}"),
        format!("GRANT ALL ON ALL TABLES IN SCHEMA public TO {name}"),
        format!("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {name}"),
        "REVOKE EXECUTE ON FUNCTION pg_notify(text, text) FROM PUBLIC".to_owned(),
    ] {
        diesel::sql_query(statement).execute(&mut conn).unwrap();
    }
    let (scheme, rest) = server.database_url.split_once("://").unwrap();
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    format!("{scheme}://{name}:quiet@{host}")
}

#[test]
fn without_notify_replicas_fall_back_to_reading_the_log() {
    let a = Server::start(Backend::Postgres);
    let url = role_without_notify(&a);
    let b = Server::start_on(&url, tempfile::tempdir().unwrap(), &[]);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let start = a.view(&amira, id)["version"].as_i64().unwrap();
    let from_a = a
        .stream(
            &format!("/api/v1/games/{id}/events?after={start}"),
            &amira.token,
            None,
        )
        .unwrap();
    let from_b = b
        .stream(
            &format!("/api/v1/games/{id}/events?after={start}"),
            &karim.token,
            None,
        )
        .unwrap();
    // Moves through either replica commit (b sends no notice and does not fail for it), and
    // reach streams on both within the one-second fallback.
    for via in [&b, &a, &b, &a] {
        let version = move_once(via, [&amira, &karim], id).unwrap();
        for stream in [&from_a, &from_b] {
            assert!(
                delivered(stream, version, Duration::from_millis(2500)),
                "version {version} was not delivered"
            );
        }
    }
    log_replays_to_snapshot(&a, id);
}

/// Sends `request` as raw bytes and reads the whole answer (the connection closed, or two
/// seconds of quiet).
fn raw_exchange(client: &Client, request: &[u8]) -> String {
    use std::io::{Read, Write};
    let address = client.base.trim_start_matches("http://");
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    // A server may refuse before the request is all sent: then the rest does not matter.
    let _ = socket.write_all(request);
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// The status line, the content type and the problem's `code` of a raw answer.
fn problem_of(answer: &str) -> (String, String, String) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let status = head.lines().next().unwrap_or_default().to_owned();
    let content_type = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-type")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    let code = serde_json::from_str::<Value>(body.trim())
        .ok()
        .and_then(|problem| problem["code"].as_str().map(str::to_owned))
        .unwrap_or_default();
    (status, content_type, code)
}

#[test]
fn the_load_balancers_own_refusals_are_problem_json() {
    let mut a = Server::start(Backend::Sqlite);
    let lb = Balancer::start(&[&a]);
    let host = "Host: cardroom\r\n";
    let cases: [(&str, Vec<u8>, &str, &str); 3] = [
        (
            "a Content-Length that is no number",
            format!("POST /api/v1/auth/guest HTTP/1.1\r\n{host}Content-Length: abc\r\n\r\n")
                .into_bytes(),
            "400",
            "validation_failed",
        ),
        (
            "64 KiB of headers",
            format!(
                "GET /api/v1/games/kinds HTTP/1.1\r\n{host}X-Filler: {}\r\n\r\n",
                "x".repeat(64 * 1024)
            )
            .into_bytes(),
            "431",
            "headers_too_large",
        ),
        (
            "a 2 MiB body",
            format!(
                "POST /api/v1/auth/guest HTTP/1.1\r\n{host}Content-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n",
                2 * 1024 * 1024
            )
            .into_bytes(),
            "413",
            "payload_too_large",
        ),
    ];
    for (what, request, status, code) in cases {
        let answer = raw_exchange(&lb.client, &request);
        let (line, content_type, found) = problem_of(&answer);
        assert!(line.contains(status), "{what}: {answer}");
        assert_eq!(content_type, "application/problem+json", "{what}: {answer}");
        assert_eq!(found, code, "{what}: {answer}");
    }
    // No replica answering: a problem too, with a hint to retry.
    assert!(a.terminate());
    let reply = lb.client.get("/api/v1/games/kinds", None);
    reply.assert_problem(502, "unavailable");
    assert_eq!(reply.header("retry-after"), Some("2"), "{reply:?}");
}

/// The process ids of the replicas' listening connections to `server`'s database.
fn listeners(server: &Server) -> Vec<i32> {
    use diesel::{Connection, QueryableByName, RunQueryDsl};
    #[derive(QueryableByName)]
    struct Pid {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pid: i32,
    }
    let mut conn = diesel::PgConnection::establish(&server.database_url).unwrap();
    let pids: Vec<Pid> = diesel::sql_query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
         AND application_name = $1 ORDER BY pid",
    )
    .bind::<diesel::sql_types::Text, _>(cardroom_db::notify::LISTENER_NAME)
    .load(&mut conn)
    .unwrap();
    pids.into_iter().map(|p| p.pid).collect()
}

/// Waits until `server`'s database has `count` listening connections, none of them in `gone`.
fn await_listeners(server: &Server, count: usize, gone: &[i32]) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let now = listeners(server);
        if now.len() == count && now.iter().all(|pid| !gone.contains(pid)) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "listeners: {now:?}, gone: {gone:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_replica_whose_listening_connection_is_killed_listens_again() {
    use diesel::{Connection, RunQueryDsl};
    let a = Server::start(Backend::Postgres);
    let b = a.replica(&[]);
    // One listening connection a replica, each on its own (asynchronous) connection.
    let before = await_listeners(&a, 2, &[]);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let start = a.view(&amira, id)["version"].as_i64().unwrap();
    let stream = b
        .stream(
            &format!("/api/v1/games/{id}/events?after={start}"),
            &karim.token,
            None,
        )
        .unwrap();
    let mut conn = diesel::PgConnection::establish(&a.database_url).unwrap();
    for pid in &before {
        diesel::sql_query("SELECT pg_terminate_backend($1)")
            .bind::<diesel::sql_types::Integer, _>(pid)
            .execute(&mut conn)
            .unwrap();
    }
    await_listeners(&a, 2, &before);
    // The stream on B goes on: moves through A reach it.
    for _ in 0..3 {
        let version = move_once(&a, [&amira, &karim], id).unwrap();
        assert!(
            delivered(&stream, version, Duration::from_secs(5)),
            "version {version} was not delivered"
        );
    }
}
