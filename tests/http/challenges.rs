//! Challenges and the account's event stream.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Reply, Server};

fn challenge(server: &Server, from: &Player, body: Value) -> Reply {
    server.post("/api/v1/challenges", Some(&from.token), &body)
}

fn answer(server: &Server, who: &Player, id: i64, what: &str, body: Value) -> Reply {
    server.post(
        &format!("/api/v1/challenges/{id}/{what}"),
        Some(&who.token),
        &body,
    )
}

/// The next event of `kind` on a stream within `wait`, skipping others.
fn next_of(events: &Receiver<Option<Value>>, kind: &str, wait: Duration) -> Value {
    let until = Instant::now() + wait;
    loop {
        let left = until
            .checked_duration_since(Instant::now())
            .unwrap_or_else(|| panic!("no `{kind}` in time"));
        match events.recv_timeout(left) {
            Ok(Some(event)) if event["type"] == kind => return event,
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended before a `{kind}`"),
            Err(_) => panic!("no `{kind}` in time"),
        }
    }
}

/// Every event of a stream up to and including the next of `kind`.
fn until(events: &Receiver<Option<Value>>, kind: &str) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        match events.recv_timeout(Duration::from_secs(5)) {
            Ok(Some(event)) => {
                let last = event["type"] == kind;
                out.push(event);
                if last {
                    return out;
                }
            }
            other => panic!("no `{kind}` after {out:?}: {other:?}"),
        }
    }
}

fn a_challenge_by_name_is_accepted_and_its_game_starts_at_once(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let bob = server.register("bob");
    let made = challenge(
        &server,
        &alice,
        json!({"to": "bob", "kind": "tarneeb", "variant": "classic", "rated": false,
               "turn": {"seconds": 60}}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    let id = made.body["id"].as_i64().unwrap();
    assert_eq!(made.body["status"], "open");
    assert_eq!(made.body["to"], "bob");
    // Without seats: the two people in seats 0 and 1, the kind's default computers elsewhere.
    let level = made.body["seats"][2].clone();
    assert!(level.is_string(), "{made:?}");
    assert_eq!(
        made.body["seats"],
        json!([null, null, level, level]),
        "{made:?}"
    );
    assert_eq!(
        made.body["code"],
        Value::Null,
        "a named challenge has no link"
    );
    let incoming = server.get("/api/v1/challenges", Some(&bob.token)).body;
    assert_eq!(incoming["incoming"][0]["id"], id);
    assert_eq!(incoming["outgoing"], json!([]));
    assert_eq!(
        server.get("/api/v1/challenges", Some(&alice.token)).body["outgoing"][0]["id"],
        id
    );
    // A stranger cannot see it, let alone accept it.
    let carol = server.register("carol");
    server
        .get(&format!("/api/v1/challenges/{id}"), Some(&carol.token))
        .assert_problem(404, "not_found");
    answer(&server, &carol, id, "accept", json!({})).assert_problem(404, "not_found");
    answer(&server, &alice, id, "accept", json!({})).assert_problem(403, "forbidden");
    let accepted = answer(&server, &bob, id, "accept", json!({}));
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert_eq!(accepted.body["status"], "accepted");
    let game = accepted.body["game_id"].as_i64().unwrap();
    let view = server.view(&bob, game);
    assert_eq!(view["your_seat"], 1);
    assert_eq!(view["seats"][0]["name"], "alice");
    assert_eq!(view["seats"][2]["bot"], level);
    assert_eq!(
        view["practice"], true,
        "an unrated challenge is a practice game"
    );
    assert_eq!(view["turn"]["seconds"], 60);
    assert_ne!(view["status"], "waiting");
    answer(&server, &bob, id, "accept", json!({})).assert_problem(409, "challenge_closed");
    assert_eq!(
        server.get("/api/v1/challenges", Some(&bob.token)).body["incoming"],
        json!([])
    );
}

fn challenges_are_declined_cancelled_or_expire_and_close_once(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_CHALLENGE_SECS", "2"),
            ("CARDROOM_SWEEP_MS", "200"),
        ],
    );
    let alice = server.register("alice");
    let bob = server.guest("bob");
    let basra = json!({"to": "bob", "kind": "basra"});
    // Declined, with a reason; only by the account challenged.
    let id = challenge(&server, &alice, basra.clone()).body["id"]
        .as_i64()
        .unwrap();
    answer(&server, &alice, id, "decline", json!({})).assert_problem(403, "forbidden");
    let declined = answer(&server, &bob, id, "decline", json!({"reason": "later"}));
    assert_eq!(declined.body["status"], "declined", "{declined:?}");
    assert_eq!(declined.body["reason"], "later");
    answer(&server, &bob, id, "accept", json!({})).assert_problem(409, "challenge_closed");
    // Cancelled: only by its challenger.
    let id = challenge(&server, &alice, basra.clone()).body["id"]
        .as_i64()
        .unwrap();
    answer(&server, &bob, id, "cancel", json!({})).assert_problem(403, "forbidden");
    assert_eq!(
        answer(&server, &alice, id, "cancel", json!({})).body["status"],
        "cancelled"
    );
    // Expired: unanswered for its time.
    let id = challenge(&server, &alice, basra.clone()).body["id"]
        .as_i64()
        .unwrap();
    let started = Instant::now();
    loop {
        let seen = server.get(&format!("/api/v1/challenges/{id}"), Some(&alice.token));
        if seen.body["status"] == "expired" {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{seen:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    answer(&server, &bob, id, "accept", json!({})).assert_problem(409, "challenge_closed");
    // What a challenge may not be.
    challenge(&server, &alice, json!({"to": "alice", "kind": "basra"}))
        .assert_problem(409, "self_challenge");
    challenge(
        &server,
        &alice,
        json!({"to": "nobody-here", "kind": "basra"}),
    )
    .assert_problem(404, "not_found");
    for body in [
        json!({"to": "bob", "kind": "basra", "seats": [{}, {}, {}]}),
        json!({"to": "bob", "kind": "basra", "seats": [{}, {"bot": "easy"}]}),
        json!({"to": "bob", "kind": "basra", "seats": [{}, {}], "seat": 5}),
        json!({"to": "bob", "kind": "basra", "variant": "nope"}),
        json!({"to": "bob", "kind": "basra", "options": {"target": 3}}),
        json!({"to": "bob", "kind": "basra", "turn": {"seconds": 1}}),
        json!({"to": "bob", "kind": "basra", "color": "red"}),
    ] {
        let reply = challenge(&server, &alice, body.clone());
        assert_eq!(reply.status, 422, "{body}: {reply:?}");
    }
}

fn an_open_challenge_is_accepted_by_anyone_with_its_link(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let carol = server.guest("carol");
    let made = challenge(
        &server,
        &alice,
        json!({"kind": "thirty_one", "rated": false}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    let id = made.body["id"].as_i64().unwrap();
    let code = made.body["code"]
        .as_str()
        .expect("the link's code")
        .to_owned();
    server
        .get(&format!("/api/v1/challenges/{id}"), Some(&carol.token))
        .assert_problem(404, "not_found");
    let seen = server.get(
        &format!("/api/v1/challenges/{id}?code={code}"),
        Some(&carol.token),
    );
    assert_eq!(seen.status, 200, "{seen:?}");
    assert_eq!(
        seen.body["code"],
        Value::Null,
        "only the challenger sees the code"
    );
    answer(&server, &carol, id, "accept", json!({"code": "wrong"}))
        .assert_problem(404, "not_found");
    let accepted = answer(&server, &carol, id, "accept", json!({ "code": code }));
    assert_eq!(accepted.status, 200, "{accepted:?}");
    let game = accepted.body["game_id"].as_i64().unwrap();
    assert_eq!(server.view(&carol, game)["your_seat"], 1);
}

fn an_acceptance_and_a_cancellation_at_once_are_never_both_taken(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let bob = server.register("bob");
    let mut outcomes = (0, 0);
    for _ in 0..8 {
        let id = challenge(
            &server,
            &alice,
            json!({"to": "bob", "kind": "basra", "rated": false}),
        )
        .body["id"]
            .as_i64()
            .unwrap();
        let (accepted, cancelled) = std::thread::scope(|scope| {
            let a = scope.spawn(|| answer(&server, &bob, id, "accept", json!({})));
            let c = scope.spawn(|| answer(&server, &alice, id, "cancel", json!({})));
            (a.join().unwrap(), c.join().unwrap())
        });
        let final_state = server
            .get(&format!("/api/v1/challenges/{id}"), Some(&alice.token))
            .body;
        match (accepted.status, cancelled.status) {
            (200, 409) => {
                assert_eq!(final_state["status"], "accepted");
                assert!(final_state["game_id"].is_i64());
                outcomes.0 += 1;
            }
            (409, 200) => {
                assert_eq!(final_state["status"], "cancelled");
                assert_eq!(final_state["game_id"], Value::Null);
                outcomes.1 += 1;
            }
            other => panic!("{other:?}: {accepted:?} {cancelled:?}"),
        }
    }
    let games = server.get("/api/v1/games?mine=true", Some(&bob.token)).body;
    assert_eq!(
        games["total"], outcomes.0,
        "one game for each acceptance, none for the rest"
    );
}

fn the_account_stream_tells_of_challenges_games_and_turns(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let bob = server.register("bob");
    let alices = server.ndjson("/api/v1/stream/events", &alice.token);
    let bobs = server.ndjson("/api/v1/stream/events", &bob.token);
    let id = challenge(
        &server,
        &alice,
        json!({"to": "bob", "kind": "basra", "rated": false}),
    )
    .body["id"]
        .as_i64()
        .unwrap();
    let received = next_of(&bobs, "challenge_received", Duration::from_secs(5));
    assert_eq!(received["challenge"]["id"], id);
    assert!(received["id"].is_i64(), "a logged event has its id");
    let game = answer(&server, &bob, id, "accept", json!({})).body["game_id"]
        .as_i64()
        .unwrap();
    // In one commit: the game starts, whoever is to play hears it is their turn (with the
    // version to move at), and the challenge says where.
    let view = server.view(&alice, game);
    let mover_is_alice = view["to_act"] == 0;
    let mut told = Vec::new();
    for (stream, me) in [(&alices, 0), (&bobs, 1)] {
        let events = until(stream, "challenge_accepted");
        let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        let to_move = (me == 0) == mover_is_alice;
        let expected: &[&str] = if to_move {
            &["game_started", "your_turn", "challenge_accepted"]
        } else {
            &["game_started", "challenge_accepted"]
        };
        assert_eq!(kinds, expected, "seat {me}: {events:?}");
        assert_eq!(events[0]["game_id"], game);
        assert_eq!(events[0]["seat"], me);
        assert_eq!(events.last().unwrap()["challenge"]["game_id"], game);
        told.push(events);
    }
    let (mover, other) = if mover_is_alice {
        (&alice, &bobs)
    } else {
        (&bob, &alices)
    };
    let turn = &told[usize::from(!mover_is_alice)][1];
    assert_eq!(turn["action"], "move");
    let view = server.view(mover, game);
    assert_eq!(turn["version"], view["version"]);
    let mv = view["legal_moves"][0].clone();
    assert_eq!(server.play(mover, &view, &mv).status, 200);
    let theirs = next_of(other, "your_turn", Duration::from_secs(5));
    assert_eq!(theirs["game_id"], game);
    // A resignation ends the game: both hear it.
    let resigned = server.post(
        &format!("/api/v1/games/{game}/resign"),
        Some(&bob.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200);
    for stream in [&alices, &bobs] {
        let over = next_of(stream, "game_over", Duration::from_secs(5));
        assert_eq!(over["game_id"], game);
        assert_eq!(over["status"], "finished");
    }
    // A fresh stream begins with what waits: a challenge made before it opened.
    let later = challenge(&server, &alice, json!({"to": "bob", "kind": "rummy"})).body["id"]
        .as_i64()
        .unwrap();
    let fresh = server.ndjson("/api/v1/stream/events", &bob.token);
    let waiting = next_of(&fresh, "challenge_received", Duration::from_secs(5));
    assert_eq!(waiting["challenge"]["id"], later);
    assert_eq!(
        waiting["id"],
        Value::Null,
        "told from the start, not from the log"
    );
}

fn a_fresh_stream_begins_with_the_games_waiting_for_the_account(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let (id, view) = server.create(
        &alice,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert_eq!(view["to_act"], 0);
    let events = server.sse("/api/v1/stream/events", &alice.token, None);
    let first = events
        .recv_timeout(Duration::from_secs(5))
        .expect("an event")
        .expect("not the end");
    assert_eq!(first.event, "your_turn");
    assert_eq!(first.data["game_id"], id);
    assert_eq!(first.data["version"], view["version"]);
    assert_eq!(first.id, None, "told from the start, not from the log");
}

on_both_backends!(
    a_challenge_by_name_is_accepted_and_its_game_starts_at_once,
    challenges_are_declined_cancelled_or_expire_and_close_once,
    an_open_challenge_is_accepted_by_anyone_with_its_link,
    an_acceptance_and_a_cancellation_at_once_are_never_both_taken,
    the_account_stream_tells_of_challenges_games_and_turns,
    a_fresh_stream_begins_with_the_games_waiting_for_the_account,
);

/// The ids of `user`'s logged account events, straight from the database.
fn logged_ids(server: &Server, user: i64) -> Vec<i64> {
    use diesel::{Connection, QueryableByName, RunQueryDsl};
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        id: i64,
    }
    let mut conn = diesel::PgConnection::establish(&server.database_url).unwrap();
    diesel::sql_query(format!(
        "SELECT id FROM account_events WHERE user_id = {user} ORDER BY id"
    ))
    .load::<Row>(&mut conn)
    .unwrap()
    .into_iter()
    .map(|r| r.id)
    .collect()
}

#[test]
fn the_account_stream_resumes_on_another_replica_missing_and_repeating_nothing() {
    let a = Server::start(Backend::Postgres);
    let mut b = a.replica(&[]);
    let alice = a.register("alice");
    let bob = a.register("bob");
    // Bob follows his account on replica B while alice challenges him through replica A.
    let stream = b.sse("/api/v1/stream/events", &bob.token, None);
    let mut seen: Vec<i64> = Vec::new();
    let take = |events: &Receiver<Option<crate::support::SseEvent>>, seen: &mut Vec<i64>, n| {
        while seen.len() < n {
            match events.recv_timeout(Duration::from_secs(5)) {
                Ok(Some(event)) => {
                    if let Some(id) = event.id {
                        seen.push(id.parse().unwrap());
                    }
                }
                other => panic!("the stream stopped: {other:?}"),
            }
        }
    };
    for _ in 0..3 {
        assert_eq!(
            challenge(&a, &alice, json!({"to": "bob", "kind": "basra"})).status,
            201
        );
    }
    take(&stream, &mut seen, 3);
    // Replica B stops; more happens meanwhile; Bob reconnects to A with the last id he saw.
    assert!(b.terminate());
    let last = seen.last().map(i64::to_string);
    for _ in 0..3 {
        assert_eq!(
            challenge(&a, &alice, json!({"to": "bob", "kind": "rummy"})).status,
            201
        );
    }
    let resumed = a.sse("/api/v1/stream/events", &bob.token, last.as_deref());
    for _ in 0..2 {
        assert_eq!(
            challenge(&a, &alice, json!({"to": "bob", "kind": "tarneeb"})).status,
            201
        );
    }
    take(&resumed, &mut seen, 8);
    assert_eq!(seen, logged_ids(&a, bob.id), "every event once, in order");
}
