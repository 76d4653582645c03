//! The second hardening pass: what an independent probe of the release build found, each pinned
//! by a test that failed before the fix.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, SECRET, Server};

/// Every event a stream delivers within `wait`, until it ends (a `null` marks the end).
fn drain(events: &Receiver<(Instant, Value)>, wait: Duration) -> Vec<Value> {
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
fn token_expiring(player: &Player, name: &str, exp: i64) -> String {
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

/// An event stream on a plain socket, so that the test can hang up as a client that goes away
/// does.
struct RawStream {
    _socket: std::net::TcpStream,
}

impl RawStream {
    fn open(server: &Server, path: &str, token: &str) -> RawStream {
        use std::io::{Read, Write};
        let address = server.base.trim_start_matches("http://");
        let mut socket = std::net::TcpStream::connect(address).unwrap();
        write!(
            socket,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
             Accept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut head = [0u8; 12];
        socket.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 200", "the stream was not opened");
        RawStream { _socket: socket }
    }
}

on_both_backends!(
    a_stream_ends_when_its_seat_is_handed_to_a_computer,
    a_stream_ends_when_its_token_expires,
    an_account_holds_a_limited_number_of_streams_and_a_closed_one_frees_its_slot_at_once,
);
