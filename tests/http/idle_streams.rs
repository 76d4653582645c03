//! Streams with nothing to tell: what still wakes or ends them without a change notice to
//! them — the token's expiry, a revocation on any replica, news from a process that sends no
//! notice (SQLite shared by several processes), a replica that died without a word — for game,
//! account and tournament streams. A stream waits for news only; these are what each process's
//! safety net and each stream's own check of its caller must still catch — for tournament
//! streams too, whose followers share the net's one read of their tournament.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::hardening::{drain, token_expiring};
use crate::on_both_backends;
use crate::programs::{a_stream_whose_token_is_revoked, api_token};
use crate::replicas::{delivered, log_replays_to_snapshot, move_once, two_people};
use crate::support::{Backend, Server};
use crate::table_talk::{next_named, public_table};
use crate::tournament_checks::enter;

fn an_idle_stream_ends_when_its_token_expires_with_nothing_else_happening(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("idle");
    let created = server.post(
        "/api/v1/games",
        Some(&player.token),
        &json!({"kind": "basra", "seats": [{}, {}]}),
    );
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    // Nobody joins, moves or speaks: only the token's expiry (two seconds, and the leeway)
    // can end the stream.
    let expires = chrono::Utc::now().timestamp() + 2;
    let token = token_expiring(&player, "idle", expires);
    let events = server
        .stream(&format!("/api/v1/games/{id}/events"), &token, None)
        .unwrap();
    let seen = drain(&events, Duration::from_secs(15));
    let end = seen
        .iter()
        .position(|e| e["event"]["type"] == "stream_end")
        .unwrap_or_else(|| panic!("no stream_end after expiry: {seen:?}"));
    assert_eq!(seen[end]["event"]["reason"], "token_expired");
    assert_eq!(seen.last(), Some(&Value::Null), "{seen:?}");
    // Not before the token (with its leeway) had expired.
    assert!(
        chrono::Utc::now().timestamp() > expires + 5,
        "the stream ended before its token expired"
    );
}

fn an_idle_stream_opened_with_a_token_ends_within_a_recheck_of_its_revocation(backend: Backend) {
    let server = Server::start(backend);
    let (_, _, events) = a_stream_whose_token_is_revoked(&server);
    // Nothing happens at the table: the stream's next check of its token (a recheck, one
    // second by default) ends it.
    let (_, end) = events
        .recv_timeout(Duration::from_secs(5))
        .expect("an end without any move");
    assert_eq!(end["event"]["type"], "stream_end", "{end}");
    assert_eq!(end["event"]["reason"], "token_expired");
}

#[test]
fn processes_sharing_one_sqlite_file_see_each_others_moves_within_a_recheck() {
    // SQLite sends no notice from one process to another: each process's safety net (one
    // read a recheck for all the games its streams follow) is how the news arrives.
    let a = Server::start_with(Backend::Sqlite, &[("CARDROOM_RECHECK_MS", "200")]);
    let b = a.replica(&[("CARDROOM_RECHECK_MS", "200")]);
    let (amira, karim, id) = two_people(&a, json!({"kind": "basra", "seats": [{}, {}]}));
    let start = a.view(&amira, id)["version"].as_i64().unwrap();
    let path = format!("/api/v1/games/{id}/events?after={start}");
    let from_a = a.stream(&path, &amira.token, None).unwrap();
    let from_b = b.stream(&path, &karim.token, None).unwrap();
    let chat = a.sse(&path, &amira.token, None);
    // A wait long enough that the safety net has seen the game before the first move.
    std::thread::sleep(Duration::from_millis(600));
    for via in [&b, &a, &b, &a] {
        let version = move_once(via, [&amira, &karim], id).unwrap();
        for stream in [&from_a, &from_b] {
            assert!(
                delivered(stream, version, Duration::from_secs(3)),
                "version {version} was not delivered"
            );
        }
    }
    // A word said through one process reaches the other's stream too (chat changes no
    // version: the safety net reads the newest chat row as well).
    let said = b.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&karim.token),
        &json!({"text": "from b"}),
    );
    assert!(said.status < 300, "{said:?}");
    let mut heard = false;
    let deadline = Instant::now() + Duration::from_secs(3);
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match chat.recv_timeout(left) {
            Ok(Some(event)) if event.event == "chat" => {
                heard = event.data["event"]["text"] == "from b";
                break;
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    assert!(heard, "the word said through b did not reach a's stream");
    log_replays_to_snapshot(&a, id);
}

#[test]
fn when_a_replica_dies_the_others_streams_stop_counting_its_watchers() {
    // Nobody announces a death: its presence rows stop being refreshed and age out after the
    // window, and the other replica's safety net sees it.
    let env = [
        ("CARDROOM_PRESENCE_SECS", "2"),
        ("CARDROOM_RECHECK_MS", "200"),
    ];
    let a = Server::start_with(Backend::Postgres, &env);
    let b = a.replica(&env);
    let host = a.guest("host");
    let guest = a.guest("guest");
    let watcher = a.guest("watcher");
    let id = public_table(&a, &host, &guest);
    let path = format!("/api/v1/games/{id}/events");
    let seen = a.sse(&path, &host.token, None);
    let _watching = b.sse(&path, &watcher.token, None);
    let spectators = |want: i64, wait: Duration| {
        let until = Instant::now() + wait;
        loop {
            let left = until
                .checked_duration_since(Instant::now())
                .unwrap_or_else(|| panic!("no presence with {want} spectators in time"));
            let event = next_named(&seen, "presence", left);
            if event.data["event"]["spectators"] == want {
                return;
            }
        }
    };
    spectators(1, Duration::from_secs(5));
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &b.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The window (2 s), then a quarter of it and a recheck at most.
    spectators(0, Duration::from_secs(6));
}

/// The types of the events an account stream delivers within `wait` (stopping at its end).
fn account_events(
    events: &std::sync::mpsc::Receiver<Option<Value>>,
    wait: Duration,
    enough: impl Fn(&[String]) -> bool,
) -> Vec<String> {
    let until = Instant::now() + wait;
    let mut seen = Vec::new();
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match events.recv_timeout(left) {
            Ok(Some(event)) => {
                seen.push(event["type"].as_str().unwrap_or("?").to_owned());
                if enough(&seen) {
                    break;
                }
            }
            Ok(None) => {
                seen.push("(end)".to_owned());
                break;
            }
            Err(_) => break,
        }
    }
    seen
}

fn received(seen: &[String]) -> usize {
    seen.iter()
        .filter(|kind| kind.as_str() == "challenge_received")
        .count()
}

#[test]
fn an_account_stream_sees_events_made_through_another_process_on_the_same_sqlite_file() {
    let env = [("CARDROOM_RECHECK_MS", "200")];
    let a = Server::start_with(Backend::Sqlite, &env);
    let b = a.replica(&env);
    let alice = a.register("alice");
    let bob = a.register("bob");
    let stream = a.ndjson("/api/v1/stream/events", &bob.token);
    std::thread::sleep(Duration::from_millis(600));
    for _ in 0..3 {
        let made = b.post(
            "/api/v1/challenges",
            Some(&alice.token),
            &json!({"to": "bob", "kind": "basra"}),
        );
        assert_eq!(made.status, 201, "{made:?}");
    }
    let seen = account_events(&stream, Duration::from_secs(3), |seen| received(seen) >= 3);
    assert_eq!(received(&seen), 3, "{seen:?}");
}

fn an_account_stream_resuming_far_behind_takes_every_page_at_once(backend: Backend) {
    // The safety net reads once a minute: nothing but the stream's own paging can bring the
    // events beyond the first page (200) in time.
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_RECHECK_MS", "60000"),
            ("CARDROOM_WRITES_PER_MINUTE", "0"),
        ],
    );
    let alice = server.register("alice");
    let bob = server.register("bob");
    const CHALLENGES: usize = 205;
    for _ in 0..CHALLENGES {
        let made = server.post(
            "/api/v1/challenges",
            Some(&alice.token),
            &json!({"to": "bob", "kind": "basra"}),
        );
        assert_eq!(made.status, 201, "{made:?}");
    }
    let stream = server.ndjson("/api/v1/stream/events?after=0", &bob.token);
    let seen = account_events(&stream, Duration::from_secs(5), |seen| {
        received(seen) >= CHALLENGES
    });
    assert_eq!(received(&seen), CHALLENGES, "{seen:?}");
}

fn an_idle_account_stream_ends_when_its_token_expires(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("idle");
    let expires = chrono::Utc::now().timestamp() + 2;
    let token = token_expiring(&player, "idle", expires);
    let stream = server.ndjson("/api/v1/stream/events", &token);
    let seen = account_events(&stream, Duration::from_secs(15), |seen| {
        seen.iter().any(|kind| kind == "stream_end")
    });
    assert!(seen.iter().any(|kind| kind == "stream_end"), "{seen:?}");
    assert!(
        chrono::Utc::now().timestamp() > expires + 5,
        "the stream ended before its token expired"
    );
}

/// A public arena made by the admin on `server`; its id.
fn arena(server: &Server, admin: &str) -> i64 {
    let made = server.post(
        "/api/v1/tournaments",
        Some(admin),
        &json!({"name": "Followed", "format": "arena", "kind": "basra"}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    made.body["id"].as_i64().unwrap()
}

/// The entrants each `tournament` event of `stream` counted, for at most `wait` or until `done`.
fn entrant_counts(
    stream: &std::sync::mpsc::Receiver<Option<crate::support::SseEvent>>,
    wait: Duration,
    done: impl Fn(&[i64]) -> bool,
) -> Vec<i64> {
    let mut counts = Vec::new();
    let deadline = Instant::now() + wait;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match stream.recv_timeout(left) {
            Ok(Some(event)) if event.event == "tournament" => {
                counts.push(event.data["entrants"].as_i64().unwrap_or(-1));
                if done(&counts) {
                    break;
                }
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    counts
}

#[test]
fn a_tournament_stream_sees_entrants_who_joined_through_another_process_on_the_same_sqlite_file() {
    let a = Server::start_with(Backend::Sqlite, &[ADMIN, ("CARDROOM_RECHECK_MS", "200")]);
    let b = a.replica(&[ADMIN, ("CARDROOM_RECHECK_MS", "200")]);
    let admin = admin_token(&a);
    let id = arena(&a, &admin);
    // A session's stream waits for news until its token expires, hours away: only b's
    // safety net (no notice crosses from a) can tell it of the joins made through a.
    let stream = b.sse(&format!("/api/v1/tournaments/{id}"), &admin, None);
    assert_eq!(
        entrant_counts(&stream, Duration::from_secs(5), |c| !c.is_empty()),
        vec![0]
    );
    enter(&a, id, 2, 0);
    let counts = entrant_counts(&stream, Duration::from_secs(3), |c| c.contains(&2));
    assert!(counts.contains(&2), "b's stream saw {counts:?}");
}

fn followers_of_one_tournament_share_one_read_a_recheck(backend: Backend) {
    const RECHECK: Duration = Duration::from_millis(100);
    let server = Server::start_with(backend, &[ADMIN, ("CARDROOM_RECHECK_MS", "100")]);
    let admin = admin_token(&server);
    let id = arena(&server, &admin);
    let streams: Vec<_> = (0..6)
        .map(|_| server.sse(&format!("/api/v1/tournaments/{id}"), &admin, None))
        .collect();
    for stream in &streams {
        assert_eq!(
            entrant_counts(stream, Duration::from_secs(5), |c| !c.is_empty()),
            vec![0]
        );
    }
    let reads = || server.metric("cardroom_stream_reads_total");
    // (The net's first sight of the tournament wakes its followers once, as news: let it pass.)
    std::thread::sleep(5 * RECHECK);
    let (before, since) = (reads(), Instant::now());
    std::thread::sleep(Duration::from_secs(2));
    let read = reads() - before;
    // Nothing changes: the net reads the tournament once a round for all six followers
    // (each reading it for itself would be six a round).
    let rounds = (since.elapsed().as_secs_f64() / RECHECK.as_secs_f64()).ceil() + 1.0;
    assert!(
        read <= rounds + 2.0,
        "{read} reads in {rounds} rechecks for six followers of one quiet tournament"
    );
    // And news still reaches every one of them.
    enter(&server, id, 1, 0);
    for stream in &streams {
        let counts = entrant_counts(stream, Duration::from_secs(3), |c| c.contains(&1));
        assert!(counts.contains(&1), "{counts:?}");
    }
}

/// The events of `stream` until the server closes it (true), or until `wait` passes with
/// nothing (false).
fn until_closed(
    stream: &std::sync::mpsc::Receiver<Option<crate::support::SseEvent>>,
    wait: Duration,
) -> (bool, Vec<String>) {
    let mut events = Vec::new();
    loop {
        match stream.recv_timeout(wait) {
            Ok(Some(event)) => events.push(event.event),
            Ok(None) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return (true, events);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return (false, events),
        }
    }
}

fn an_idle_tournament_stream_ends_when_its_token_expires(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let id = arena(&server, &admin);
    let player = server.guest("idle");
    let expires = chrono::Utc::now().timestamp() + 2;
    let token = token_expiring(&player, "idle", expires);
    let stream = server.sse(&format!("/api/v1/tournaments/{id}"), &token, None);
    // The tournament once; then nothing happens until the token's expiry ends the stream.
    let (ended, events) = until_closed(&stream, Duration::from_secs(15));
    assert!(ended, "the stream outlived its token: {events:?}");
    assert_eq!(
        events.iter().filter(|e| *e == "tournament").count(),
        1,
        "{events:?}"
    );
    // It says why it ends, last, as the game and account streams do.
    assert_eq!(
        events.last().map(String::as_str),
        Some("stream_end"),
        "{events:?}"
    );
    assert!(
        chrono::Utc::now().timestamp() > expires + 5,
        "the stream ended before its token expired"
    );
}

fn an_idle_tournament_stream_opened_with_a_token_ends_within_a_recheck_of_its_revocation(
    backend: Backend,
) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let id = arena(&server, &admin);
    let alice = server.register("alice");
    let token = api_token(&server, &alice, &["read"]);
    let stream = server.sse(&format!("/api/v1/tournaments/{id}"), &token, None);
    assert_eq!(
        entrant_counts(&stream, Duration::from_secs(5), |c| !c.is_empty()),
        vec![0]
    );
    let listed = server.get("/api/v1/account/tokens", Some(&alice.token));
    let revoked = server.delete(
        &format!("/api/v1/account/tokens/{}", listed.body["tokens"][0]["id"]),
        Some(&alice.token),
    );
    assert_eq!(revoked.status, 204, "{revoked:?}");
    // Nothing happens in the tournament: the stream's next check of its token (a recheck, one
    // second by default) closes it, and nothing more is sent…
    // …after one last event that says why.
    let end = stream
        .recv_timeout(Duration::from_secs(5))
        .expect("an event within a recheck of the revocation")
        .expect("a stream_end event before the stream closes");
    assert_eq!(end.event, "stream_end", "{end:?}");
    assert_eq!(
        end.data,
        serde_json::json!({"type": "stream_end", "reason": "token_expired"})
    );
    let (ended, events) = until_closed(&stream, Duration::from_secs(5));
    assert!(ended, "the stream outlived its revoked token: {events:?}");
    assert!(events.is_empty(), "{events:?}");
}

on_both_backends!(
    an_account_stream_resuming_far_behind_takes_every_page_at_once,
    an_idle_tournament_stream_opened_with_a_token_ends_within_a_recheck_of_its_revocation,
    an_idle_tournament_stream_ends_when_its_token_expires,
    followers_of_one_tournament_share_one_read_a_recheck,
    an_idle_account_stream_ends_when_its_token_expires,
    an_idle_stream_ends_when_its_token_expires_with_nothing_else_happening,
    an_idle_stream_opened_with_a_token_ends_within_a_recheck_of_its_revocation,
);
