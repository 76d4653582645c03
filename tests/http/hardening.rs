//! The second hardening pass: what an independent probe of the release build found, each pinned
//! by a test that failed before the fix.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, RawStream, SECRET, Server};

/// Every event a stream delivers within `wait`, until it ends (a `null` marks the end).
pub(crate) fn drain(events: &Receiver<(Instant, Value)>, wait: Duration) -> Vec<Value> {
    let until = Instant::now() + wait;
    let mut out = Vec::new();
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match events.recv_timeout(left) {
            Ok((_, Value::Null)) => {
                out.push(Value::Null);
                break;
            }
            Ok((_, event)) => out.push(event),
            Err(_) => break,
        }
    }
    out
}

/// A table for each game where the creator's resignation hands the seat to a computer (three
/// or more sides), or, in Tarneeb, loses the game for the partnership.
fn tables() -> Vec<(&'static str, Value)> {
    let bots = |n: usize| {
        let mut seats = vec![json!({})];
        seats.extend((1..n).map(|_| json!({"bot": "easy"})));
        Value::Array(seats)
    };
    vec![
        ("basra", json!({"kind": "basra", "seats": bots(3)})),
        (
            "thirty_one",
            json!({"kind": "thirty_one", "seats": bots(4)}),
        ),
        ("rummy", json!({"kind": "rummy", "seats": bots(3)})),
        ("tarneeb", json!({"kind": "tarneeb", "seats": bots(4)})),
    ]
}

fn a_stream_ends_when_its_seat_is_handed_to_a_computer(backend: Backend) {
    let server = Server::start(backend);
    for (kind, body) in tables() {
        let player = server.guest(&format!("leaver-{kind}"));
        let (id, view) = server.create(&player, body);
        let before = view["version"].as_i64().unwrap();
        let events = server
            .stream(
                &format!("/api/v1/games/{id}/events?after={before}"),
                &player.token,
                None,
            )
            .unwrap();
        let reply = server.post(
            &format!("/api/v1/games/{id}/resign"),
            Some(&player.token),
            &json!({}),
        );
        assert_eq!(reply.status, 200, "{kind}: {reply:?}");
        let resignation = before + 1;
        let hands_over = reply.body["view"]["status"] != "finished";
        let got = drain(&events, Duration::from_secs(4));
        // Nothing written after the resignation reaches the stream: from then on the seat's
        // cards are the computer's.
        for event in &got {
            if event.is_null() || event["event"]["type"] == "stream_end" {
                continue;
            }
            let version = event["version"].as_i64().unwrap();
            assert!(
                version <= resignation,
                "{kind}: the stream delivered version {version} after the resignation \
                 ({resignation}): {event}"
            );
        }
        if hands_over {
            // The game went on with a computer in the seat: the stream says why it ends, then
            // closes.
            let end = got
                .iter()
                .find(|e| e["event"]["type"] == "stream_end")
                .unwrap_or_else(|| panic!("{kind}: no stream_end in {got:?}"));
            assert_eq!(end["event"]["reason"], "seat_lost", "{kind}");
            assert_eq!(
                got.last(),
                Some(&Value::Null),
                "{kind}: the stream stays open"
            );
            // And a new stream is refused.
            let again = server
                .stream(&format!("/api/v1/games/{id}/events"), &player.token, None)
                .err()
                .unwrap_or_else(|| panic!("{kind}: a stream for a lost seat was opened"));
            again.assert_problem(403, "forbidden");
        }
    }
}

/// A token for `player` signed with the test secret, expiring at `exp`.
pub(crate) fn token_expiring(player: &Player, name: &str, exp: i64) -> String {
    let now = chrono::Utc::now().timestamp();
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &json!({"sub": player.id.to_string(), "name": name, "role": "player", "aud": "cardroom",
                "iss": "cardroom", "iat": now, "exp": exp}),
        &jsonwebtoken::EncodingKey::from_secret(SECRET.as_bytes()),
    )
    .unwrap()
}

fn a_stream_ends_when_its_token_expires(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("shortlived");
    let friend = server.guest("friend");
    let created = server.post(
        "/api/v1/games",
        Some(&player.token),
        &json!({"kind": "basra", "seats": [{}, {}]}),
    );
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    let code = created.body["invite_code"].as_str().unwrap().to_owned();
    // The token is good for two seconds more (and the five seconds' leeway every check allows).
    let token = token_expiring(&player, "shortlived", chrono::Utc::now().timestamp() + 2);
    let events = server
        .stream(&format!("/api/v1/games/{id}/events"), &token, None)
        .unwrap();
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&friend.token),
        &json!({"invite_code": code}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    // The join's events arrive while the token is valid.
    let early = drain(&events, Duration::from_secs(1));
    assert!(
        !early.is_empty() && !early.contains(&Value::Null),
        "{early:?}"
    );
    // Past the expiry, a move by the friend wakes the stream, which now ends instead.
    std::thread::sleep(Duration::from_secs(8));
    let view = server.view(&friend, id);
    if view["to_act"] == view["your_seat"] {
        let mv = view["legal_moves"][0].clone();
        assert_eq!(server.play(&friend, &view, &mv).status, 200);
    }
    let late = drain(&events, Duration::from_secs(4));
    let end = late
        .iter()
        .position(|e| e["event"]["type"] == "stream_end")
        .unwrap_or_else(|| panic!("no stream_end after expiry: {late:?}"));
    assert_eq!(late[end]["event"]["reason"], "token_expired");
    assert!(late[..end].is_empty(), "events after the expiry: {late:?}");
    assert_eq!(late.last(), Some(&Value::Null));
}

fn an_account_holds_a_limited_number_of_streams_and_a_closed_one_frees_its_slot_at_once(
    backend: Backend,
) {
    let server = Server::start_with(backend, &[("CARDROOM_MAX_STREAMS_PER_ACCOUNT", "2")]);
    let player = server.guest("hoarder");
    let other = server.guest("neighbour");
    let (id, _) = server.create(
        &player,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let (theirs, _) = server.create(
        &other,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let path = format!("/api/v1/games/{id}/events");
    let first = RawStream::open(&server, &path, &player.token);
    let second = RawStream::open(&server, &path, &player.token);
    let refused = server.stream(&path, &player.token, None).err().unwrap();
    refused.assert_problem(429, "too_many_streams");
    assert!(refused.header("retry-after").is_some(), "{refused:?}");
    // Another account is not held back by this one's streams.
    let _theirs = server
        .stream(
            &format!("/api/v1/games/{theirs}/events"),
            &other.token,
            None,
        )
        .unwrap();
    // A client that goes away frees its slot at once, not at the next heartbeat (15 s).
    drop(first);
    drop(second);
    let started = Instant::now();
    loop {
        match server.stream(&path, &player.token, None) {
            Ok(_) => break,
            Err(reply) => {
                reply.assert_problem(429, "too_many_streams");
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "the slots stayed taken after their clients left"
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

on_both_backends!(
    a_stream_ends_when_its_seat_is_handed_to_a_computer,
    a_stream_ends_when_its_token_expires,
    an_account_holds_a_limited_number_of_streams_and_a_closed_one_frees_its_slot_at_once,
);

/// A value that fills an operation's path parameter in the normal case.
fn path_value(name: &str, game: i64) -> String {
    match name {
        "id" => game.to_string(),
        "kind" => "basra".to_owned(),
        _ => "amira".to_owned(),
    }
}

/// A body each operation accepts, to which one string field at a time is given a NUL.
fn base_body(path: &str) -> Value {
    match path {
        "/api/v1/auth/guest" => json!({"name": "nul-guest"}),
        "/api/v1/auth/login" | "/api/v1/auth/register" => {
            json!({"name": "someone", "password": "a long passphrase"})
        }
        "/api/v1/admin/users/{name}/role" => json!({"role": "player"}),
        "/api/v1/games" => json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
        "/api/v1/games/{id}/join" => json!({"invite_code": "abcdef"}),
        "/api/v1/games/{id}/moves" => json!({"expected_version": 1, "move": {"type": "play"}}),
        _ => json!({}),
    }
}

/// The string-typed properties of a schema (following one `$ref`).
fn string_properties(document: &Value, schema: &Value) -> Vec<String> {
    let schema = match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &document["components"]["schemas"][name]
        }
        None => schema,
    };
    let is_string = |property: &Value| {
        property["type"] == "string"
            || property["type"]
                .as_array()
                .is_some_and(|types| types.contains(&json!("string")))
    };
    schema["properties"]
        .as_object()
        .map(|properties| {
            properties
                .iter()
                .filter(|(_, property)| is_string(property))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// One request of the property walk: what it changed, and the answer.
fn checked(what: &str, reply: &crate::support::Reply) {
    assert!(
        (400..500).contains(&reply.status) || reply.status == 200 || reply.status == 201,
        "{what}: {reply:?}"
    );
    if reply.status >= 400 {
        assert_eq!(
            reply.content_type, "application/problem+json",
            "{what}: {reply:?}"
        );
    }
}

fn every_text_with_a_nul_and_every_date_at_the_extremes_is_refused_cleanly(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_ADMIN", "root:the admin passphrase")]);
    let login = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "root", "password": "the admin passphrase"}),
    );
    let token = login.body["token"].as_str().unwrap().to_owned();
    let amira = server.register("amira");
    let (game, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let document = server.get("/openapi.json", None).body;
    let nul = "a%00b";
    let extremes = [
        "-99999-01-01",
        "-4714-01-01",
        "-0001-01-01",
        "+275760-09-13",
        "275760-09-13",
        "99999-12-31",
    ];
    let (mut texts, mut dates, mut fields) = (0, 0, 0);
    for (template, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let parameters = operation["parameters"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let url = |changed: Option<(&str, &str)>| {
                let mut path = template.clone();
                let mut query = Vec::new();
                for parameter in &parameters {
                    let name = parameter["name"].as_str().unwrap();
                    let value = match changed {
                        Some((which, value)) if which == name => value.to_owned(),
                        _ if parameter["in"] == "path" => path_value(name, game),
                        _ => continue,
                    };
                    match parameter["in"].as_str() {
                        Some("path") => path = path.replace(&format!("{{{name}}}"), &value),
                        Some("query") => query.push(format!("{name}={value}")),
                        _ => {}
                    }
                }
                if query.is_empty() {
                    path
                } else {
                    format!("{path}?{}", query.join("&"))
                }
            };
            let send = |target: &str, body: &Value| match method.as_str() {
                "get" => server.get(target, Some(&token)),
                _ => server.post(target, Some(&token), body),
            };
            let body = base_body(template);
            for parameter in &parameters {
                let name = parameter["name"].as_str().unwrap();
                let schema = &parameter["schema"];
                if parameter["in"] == "header" || name.ends_with("events") {
                    continue;
                }
                if schema["format"] == "date" {
                    dates += 1;
                    for extreme in extremes {
                        let target = url(Some((name, extreme)));
                        let reply = send(&target, &body);
                        reply.assert_problem(422, "validation_failed");
                    }
                } else if schema["type"] == "string" || schema.get("$ref").is_some() {
                    texts += 1;
                    let target = url(Some((name, nul)));
                    checked(&format!("{method} {target}"), &send(&target, &body));
                }
            }
            if let Some(schema) =
                operation["requestBody"]["content"]["application/json"]["schema"].as_object()
            {
                for field in string_properties(&document, &Value::Object(schema.clone())) {
                    fields += 1;
                    let mut changed = body.clone();
                    changed[&field] = json!("a\u{0}b");
                    let target = url(None);
                    checked(
                        &format!("{method} {target} with {field} holding a NUL"),
                        &send(&target, &changed),
                    );
                }
            }
        }
    }
    // The walk reached what it is about: the public name lookups, the admin filters, the dates.
    assert!(
        texts >= 8 && dates >= 4 && fields >= 6,
        "{texts} {dates} {fields}"
    );
    // The two public ones the probe found, exactly.
    server
        .get("/api/v1/players/%00", None)
        .assert_problem(422, "validation_failed");
    server
        .post(
            "/api/v1/auth/login",
            None,
            &json!({"name": "abc\u{0}def", "password": "a long passphrase"}),
        )
        .assert_problem(422, "validation_failed");
}

fn a_token_whose_account_is_gone_is_unauthorized(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let created = server.post(
        "/api/v1/games",
        Some(&host.token),
        &json!({"kind": "basra", "seats": [{}, {}]}),
    );
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    let invite = created.body["invite_code"].as_str().unwrap();
    // Correctly signed, for an account this database never had (or no longer has).
    let nobody = Player {
        token: String::new(),
        id: 987_654,
    };
    let ghost = token_expiring(&nobody, "ghost", chrono::Utc::now().timestamp() + 600);
    server
        .post(
            "/api/v1/games",
            Some(&ghost),
            &json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
        )
        .assert_problem(401, "unauthorized");
    server
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&ghost),
            &json!({"invite_code": invite}),
        )
        .assert_problem(401, "unauthorized");
    // Nothing changed: the seat is still open, and the host's list holds the one game.
    let view = server.view(&host, id);
    assert_eq!(view["status"], "waiting", "{view}");
    let mine = server.get("/api/v1/games", Some(&host.token));
    assert_eq!(mine.body["total"], 1, "{mine:?}");
}

on_both_backends!(
    every_text_with_a_nul_and_every_date_at_the_extremes_is_refused_cleanly,
    a_token_whose_account_is_gone_is_unauthorized,
);

#[test]
fn three_replicas_starting_together_on_a_fresh_postgres_database_all_come_up() {
    for trial in 0..3 {
        let database_url = crate::support::fresh_postgres_database();
        let starting: Vec<_> = (0..3)
            .map(|_| {
                let url = database_url.clone();
                std::thread::spawn(move || {
                    Server::start_on(
                        &url,
                        tempfile::tempdir().unwrap(),
                        &[("CARDROOM_ADMIN", "root:the admin passphrase")],
                    )
                })
            })
            .collect();
        let servers: Vec<Server> = starting
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|_| panic!("trial {trial}: a replica failed to start"))
            })
            .collect();
        for server in &servers {
            assert_eq!(server.get("/readyz", None).status, 200, "trial {trial}");
            let login = server.post(
                "/api/v1/auth/login",
                None,
                &json!({"name": "root", "password": "the admin passphrase"}),
            );
            assert_eq!(login.status, 200, "trial {trial}: {login:?}");
            assert_eq!(login.body["user"]["role"], "admin");
        }
    }
}

fn a_game_id_is_digits_only(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("precise");
    let (id, _) = server.create(
        &player,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert_eq!(
        server
            .get(&format!("/api/v1/games/{id}"), Some(&player.token))
            .status,
        200
    );
    for spelled in [
        format!("+{id}"),
        format!("0{id}x"),
        format!("{id}.0"),
        "-1".to_owned(),
    ] {
        server
            .get(&format!("/api/v1/games/{spelled}"), Some(&player.token))
            .assert_problem(404, "not_found");
    }
}

on_both_backends!(a_game_id_is_digits_only);

/// The process's resident memory, in MiB (Linux).
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib / 1024.0
}

#[test]
fn two_hundred_sign_ins_at_once_stay_within_a_fixed_memory_budget() {
    let server = Server::start(Backend::Sqlite);
    server.register("crowded");
    let idle = rss_mib(server.pid());
    let peak = std::sync::Arc::new(std::sync::Mutex::new(idle));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (peak, done, pid) = (peak.clone(), done.clone(), server.pid());
        std::thread::spawn(move || {
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let now = rss_mib(pid);
                let mut peak = peak.lock().unwrap();
                *peak = peak.max(now);
                drop(peak);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let base = server.base.clone();
    let logins: Vec<_> = (0..200)
        .map(|n| {
            let base = base.clone();
            std::thread::spawn(move || {
                let client = crate::support::Client {
                    base,
                    persistent: None,
                };
                // Half with the right password, half wrong: a failed login hashes too.
                let password = if n % 2 == 0 {
                    "a long passphrase"
                } else {
                    "not the one"
                };
                client.post(
                    "/api/v1/auth/login",
                    None,
                    &json!({"name": "crowded", "password": password}),
                )
            })
        })
        .collect();
    let mut answers = std::collections::BTreeMap::new();
    for login in logins {
        let reply = login.join().unwrap();
        match reply.status {
            200 | 401 => {}
            503 => {
                reply.assert_problem(503, "sign_in_busy");
                assert!(reply.header("retry-after").is_some(), "{reply:?}");
            }
            _ => panic!("{reply:?}"),
        }
        *answers.entry(reply.status).or_insert(0) += 1;
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    watcher.join().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let after = rss_mib(server.pid());
    let peak = *peak.lock().unwrap();
    eprintln!(
        "sign-ins: {answers:?}; RSS idle {idle:.1} MiB, peak {peak:.1} MiB, after {after:.1} MiB"
    );
    assert!(answers.get(&200).copied().unwrap_or(0) > 0, "{answers:?}");
    assert!(peak < 200.0, "peak {peak:.1} MiB");
    assert!(
        after < idle + 50.0,
        "idle {idle:.1} MiB, after {after:.1} MiB"
    );
}
