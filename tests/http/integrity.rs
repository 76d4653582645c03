//! Versioned writes, idempotent retries, concurrent clients, and the log replaying to the
//! snapshot.

use std::time::Duration;

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server};

fn log_replays_to_snapshot(server: &Server, id: i64) {
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let replayed = cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(id)).unwrap();
    let stored = cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id)).unwrap();
    assert!(stored.is_some());
    assert_eq!(replayed, stored, "the log does not replay to the snapshot");
}

fn a_stale_expected_version_is_refused_and_nothing_is_applied(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let mv = view["legal_moves"][0].clone();
    let moved = server.play(&amira, &view, &mv);
    assert_eq!(moved.status, 200);
    let now = server.view(&amira, id);
    // The same (now stale) request again.
    let stale = server.play(&amira, &view, &now["legal_moves"][0]);
    stale.assert_problem(409, "version_conflict");
    assert_eq!(stale.body["current_version"], now["version"]);
    let after = server.view(&amira, id);
    assert_eq!(after["version"], now["version"]);
    assert_eq!(after["table"], now["table"]);
    log_replays_to_snapshot(&server, id);
}

fn the_same_idempotency_key_twice_makes_one_move(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let body = json!({"expected_version": view["version"], "move": view["legal_moves"][0]});
    let path = format!("/api/v1/games/{id}/moves");
    let first = server.post_with(
        &path,
        Some(&amira.token),
        &[("Idempotency-Key", "move-1")],
        &body,
    );
    assert_eq!(first.status, 200, "{first:?}");
    let again = server.post_with(
        &path,
        Some(&amira.token),
        &[("Idempotency-Key", "move-1")],
        &body,
    );
    assert_eq!(again.status, 200, "{again:?}");
    assert_eq!(again.body, first.body);
    assert_eq!(
        server.view(&amira, id)["version"],
        first.body["view"]["version"]
    );
    // The key with a different request is refused, and so is the plain retry (stale version).
    let other = json!({"expected_version": first.body["view"]["version"], "move": first.body["view"]["legal_moves"][0]});
    server
        .post_with(
            &path,
            Some(&amira.token),
            &[("Idempotency-Key", "move-1")],
            &other,
        )
        .assert_problem(409, "idempotency_key_reused");
    server
        .post(&path, Some(&amira.token), &body)
        .assert_problem(409, "version_conflict");
    // A key belongs to its user: another player's same key is theirs alone.
    let karim = server.guest("karim");
    let (kid, kview) = server.create(
        &karim,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let kbody = json!({"expected_version": kview["version"], "move": kview["legal_moves"][0]});
    let theirs = server.post_with(
        &format!("/api/v1/games/{kid}/moves"),
        Some(&karim.token),
        &[("Idempotency-Key", "move-1")],
        &kbody,
    );
    assert_eq!(theirs.status, 200);
    log_replays_to_snapshot(&server, id);
}

fn concurrent_idempotent_retries_apply_once(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let body = json!({"expected_version": view["version"], "move": view["legal_moves"][0]});
    let path = format!("/api/v1/games/{id}/moves");
    let replies: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    server.post_with(
                        &path,
                        Some(&amira.token),
                        &[("Idempotency-Key", "same")],
                        &body,
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Every retry gets the one answer.
    for reply in &replies {
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body, replies[0].body);
    }
    let expected_version = replies[0].body["view"]["version"].clone();
    assert_eq!(server.view(&amira, id)["version"], expected_version);
    log_replays_to_snapshot(&server, id);
}

/// How many games `player` sits in.
fn games_of(server: &Server, player: &Player) -> i64 {
    let list = server.get("/api/v1/games", Some(&player.token));
    assert_eq!(list.status, 200, "{list:?}");
    list.body["total"].as_i64().expect("a total")
}

fn the_same_idempotency_key_twice_makes_one_game(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let create = |body: &Value, key: &str| {
        server.post_with(
            "/api/v1/games",
            Some(&amira.token),
            &[("Idempotency-Key", key)],
            body,
        )
    };
    // A table waiting for a friend, and one of computer players dealt at once: each made once,
    // however often the request comes, and answered with the same game.
    let waiting = json!({"kind": "tarneeb", "seats": [{}, {}, {"bot": "greedy"}, {}]});
    let dealt = json!({"kind": "rummy", "variant": "classic", "seats": [{}, {"bot": "greedy"}]});
    for (body, key) in [(&waiting, "table-1"), (&dealt, "table-2")] {
        let first = create(body, key);
        assert_eq!(first.status, 201, "{first:?}");
        let again = create(body, key);
        assert_eq!(again.status, 201, "{again:?}");
        assert_eq!(
            again.body, first.body,
            "the retry is answered as the first was"
        );
        assert_eq!(
            again.header("Location"),
            first.header("Location"),
            "{again:?}"
        );
    }
    assert_eq!(games_of(&server, &amira), 2);
    // The key with another request, or a move's key, is refused and makes nothing.
    create(
        &json!({"kind": "tarneeb", "seats": [{}, {}, {}, {}]}),
        "table-1",
    )
    .assert_problem(409, "idempotency_key_reused");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let moved = server.post_with(
        &format!("/api/v1/games/{id}/moves"),
        Some(&amira.token),
        &[("Idempotency-Key", "move-1")],
        &json!({"expected_version": view["version"], "move": view["legal_moves"][0]}),
    );
    assert_eq!(moved.status, 200, "{moved:?}");
    create(&waiting, "move-1").assert_problem(409, "idempotency_key_reused");
    assert_eq!(games_of(&server, &amira), 3);
    // A key of the wrong form is refused before anything is made.
    create(&waiting, "has space").assert_problem(400, "validation_failed");
    assert_eq!(games_of(&server, &amira), 3);
    // Two at once with one key: one game, and both answered with it.
    let replies: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| create(&waiting, "table-3")))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for reply in &replies {
        assert_eq!(reply.status, 201, "{reply:?}");
        assert_eq!(reply.body["id"], replies[0].body["id"], "{replies:?}");
        assert_eq!(reply.body["invite_code"], replies[0].body["invite_code"]);
    }
    assert_eq!(games_of(&server, &amira), 4);
    // A key is its user's: another player's same key makes their own game.
    let karim = server.guest("karim");
    let theirs = server.post_with(
        "/api/v1/games",
        Some(&karim.token),
        &[("Idempotency-Key", "table-1")],
        &waiting,
    );
    assert_eq!(theirs.status, 201, "{theirs:?}");
    assert_ne!(theirs.body["id"], replies[0].body["id"]);
    assert_eq!(games_of(&server, &karim), 1);

    // A game made whose first deal was lost with the database's connection (its every seat
    // taken, not dealt: here a seat filled by hand): the retry deals it, and answers with it.
    let lost = json!({"kind": "basra", "seats": [{}, {}]});
    let made = create(&lost, "table-4");
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(made.body["view"]["status"], "waiting");
    let game = made.body["id"].as_i64().unwrap();
    let mut conn = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5))
        .unwrap()
        .get()
        .unwrap();
    let filled = diesel::RunQueryDsl::execute(
        diesel::sql_query(format!(
            "UPDATE seats SET user_id = {} WHERE game_id = {game} AND seat = 1",
            karim.id
        )),
        &mut **conn,
    )
    .unwrap();
    assert_eq!(filled, 1);
    let again = create(&lost, "table-4");
    assert_eq!(again.status, 201, "{again:?}");
    assert_eq!(again.body["id"], game);
    assert_eq!(again.body["view"]["status"], "active", "{again:?}");
    assert_eq!(server.view(&karim, game)["status"], "active");
    let twice = create(&lost, "table-4");
    assert_eq!(
        twice.body["view"]["version"], again.body["view"]["version"],
        "dealt once"
    );
    log_replays_to_snapshot(&server, game);
}

fn many_clients_racing_have_exactly_one_winner_per_version(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 31}}),
    );
    server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    let players: [&Player; 2] = [&amira, &karim];
    let mut rounds = 0;
    while rounds < 12 {
        let views: Vec<Value> = players.iter().map(|p| server.view(p, id)).collect();
        if views[0]["status"] != "active" {
            break;
        }
        let mover = if views[0]["to_act"] == views[0]["your_seat"] {
            0
        } else {
            1
        };
        let view = &views[mover];
        let legal = view["legal_moves"].as_array().unwrap().clone();
        // Sixteen clients send conflicting moves (different cards) for the same version, and
        // the other player's clients try to move out of turn at the same time.
        let server = &server;
        let replies: Vec<_> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for i in 0..16 {
                let mv = legal[i % legal.len()].clone();
                let player = players[mover];
                handles.push(scope.spawn(move || server.play(player, view, &mv)));
            }
            let other = &views[1 - mover];
            let others_cards = other["table"]["hand"].as_array().unwrap().len();
            for _ in 0..4.min(others_cards) {
                let player = players[1 - mover];
                let card = other["table"]["hand"][0].clone();
                handles.push(scope.spawn(move || {
                    server.play(player, other, &json!({"type": "play", "card": card}))
                }));
            }
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let winners = replies.iter().filter(|r| r.status == 200).count();
        assert_eq!(winners, 1, "{replies:?}");
        for reply in replies.iter().filter(|r| r.status != 200) {
            assert_eq!(reply.status, 409, "{reply:?}");
            let code = reply.body["code"].as_str().unwrap();
            assert!(
                code == "version_conflict" || code == "not_your_turn",
                "{reply:?}"
            );
        }
        let now = server.view(&amira, id);
        assert_eq!(
            now["version"].as_i64().unwrap(),
            view["version"].as_i64().unwrap() + 1
        );
        rounds += 1;
    }
    assert_eq!(rounds, 12);
    log_replays_to_snapshot(&server, id);
}

on_both_backends!(
    a_stale_expected_version_is_refused_and_nothing_is_applied,
    the_same_idempotency_key_twice_makes_one_move,
    concurrent_idempotent_retries_apply_once,
    the_same_idempotency_key_twice_makes_one_game,
    many_clients_racing_have_exactly_one_winner_per_version,
);
