//! Every error code, as problem+json, and that a failed request changes nothing.

use serde_json::json;

use crate::on_both_backends;
use crate::support::{Backend, Server};

fn every_error_is_problem_json_with_a_stable_code(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let token = Some(amira.token.as_str());
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let moves = format!("/api/v1/games/{id}/moves");

    // unauthorized
    server
        .get(&format!("/api/v1/games/{id}"), None)
        .assert_problem(401, "unauthorized");
    // forbidden: someone else's game
    server
        .get(&format!("/api/v1/games/{id}"), Some(&karim.token))
        .assert_problem(403, "forbidden");
    server
        .post(
            &moves,
            Some(&karim.token),
            &json!({"expected_version": view["version"], "move": view["legal_moves"][0]}),
        )
        .assert_problem(403, "forbidden");
    for path in ["log", "score", "events"] {
        server
            .get(&format!("/api/v1/games/{id}/{path}"), Some(&karim.token))
            .assert_problem(403, "forbidden");
    }
    // not_found
    server
        .get("/api/v1/games/999999", token)
        .assert_problem(404, "not_found");
    server
        .get("/api/v1/games/not-a-number", token)
        .assert_problem(404, "not_found");
    server
        .get("/api/v1/nothing/here", token)
        .assert_problem(404, "not_found");
    // method_not_allowed, with Allow
    let reply = server.post("/api/v1/games/kinds", token, &json!({}));
    reply.assert_problem(405, "method_not_allowed");
    assert_eq!(reply.header("allow"), Some("GET"));
    // validation_failed: not JSON, wrong shape, unknown card, bad option, bad kind, bad level
    server
        .post_raw(
            &moves,
            token,
            &[],
            "application/json",
            b"{not json".to_vec(),
        )
        .assert_problem(400, "validation_failed");
    server
        .post_raw(&moves, token, &[], "text/plain", b"hello".to_vec())
        .assert_problem(400, "validation_failed");
    server
        .post_raw(&moves, token, &[], "application/json", Vec::new())
        .assert_problem(400, "validation_failed");
    server
        .post(
            &moves,
            token,
            &json!({"move": {"type": "play", "card": "7D"}}),
        )
        .assert_problem(422, "validation_failed");
    server
        .post(
            &moves,
            token,
            &json!({"expected_version": "three", "move": {}}),
        )
        .assert_problem(422, "validation_failed");
    server
        .post(
            &moves,
            token,
            &json!({"expected_version": view["version"], "move": {"type": "play", "card": "1X"}}),
        )
        .assert_problem(422, "validation_failed");
    server
        .post(
            &moves,
            token,
            &json!({"expected_version": view["version"], "move": {"type": "fly"}}),
        )
        .assert_problem(422, "validation_failed");
    server
        .post(&moves, token, &json!({"expected_version": view["version"], "move": {"type": "play", "card": "7D"}, "extra": 1}))
        .assert_problem(422, "validation_failed");
    for bad in [
        json!({"kind": "chess", "seats": [{}, {}]}),
        json!({"kind": "basra", "variant": "turbo", "seats": [{}, {}]}),
        json!({"kind": "basra", "seats": [{}]}),
        json!({"kind": "basra", "seats": []}),
        json!({"kind": "basra", "seats": [{}, {}, {}, {}, {}, {}, {}, {}, {}]}),
        json!({"kind": "basra", "seats": [{}, {"bot": "grandmaster"}]}),
        json!({"kind": "basra", "seats": [{"bot": "greedy"}, {}]}),
        json!({"kind": "basra", "seats": [{}, {}], "seat": 5}),
        json!({"kind": "basra", "seats": [{}, {}], "seat": -1}),
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 5000}}),
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 1.5}}),
        json!({"kind": "basra", "seats": [{}, {}], "options": {"no_such_rule": true}}),
        json!({"kind": "basra", "seats": [{}, {}], "seed": "beef"}),
        json!({"kind": "basra", "seats": [{}, {}], "deck": ["AC", "AC"]}),
        json!({"kind": "basra", "seats": [{}, {}], "deck": ["ZZ"]}),
        json!({"kind": "basra", "seats": [{}, {}], "colour": "blue"}),
    ] {
        server
            .post("/api/v1/games", token, &bad)
            .assert_problem(422, "validation_failed");
    }
    // illegal_move, with the reason and the legal moves; nothing changes
    let not_held = ["2C", "3C", "4C", "5C", "6C"]
        .iter()
        .find(|c| {
            !view["table"]["hand"]
                .as_array()
                .unwrap()
                .contains(&json!(c))
        })
        .unwrap();
    let reply = server.post(
        &moves,
        token,
        &json!({"expected_version": view["version"], "move": {"type": "play", "card": not_held}}),
    );
    reply.assert_problem(422, "illegal_move");
    assert_eq!(reply.body["refusal"], "not_in_hand", "{reply:?}");
    assert!(
        reply.body["detail"]
            .as_str()
            .unwrap()
            .starts_with("you do not hold"),
        "{reply:?}"
    );
    assert_eq!(reply.body["legal_moves"], view["legal_moves"]);
    assert_eq!(server.view(&amira, id)["version"], view["version"]);
    // version_conflict, with the current version
    let reply = server.post(
        &moves,
        token,
        &json!({"expected_version": 1, "move": view["legal_moves"][0]}),
    );
    reply.assert_problem(409, "version_conflict");
    assert_eq!(reply.body["current_version"], view["version"]);
    // payload_too_large
    let big = json!({"expected_version": 1, "move": {"type": "play", "card": "7D", "pad": "x".repeat(100_000)}});
    server
        .post(&moves, token, &big)
        .assert_problem(413, "payload_too_large");
    // game_over
    server.post(&format!("/api/v1/games/{id}/resign"), token, &json!({}));
    let after = server.view(&amira, id);
    server
        .post(
            &moves,
            token,
            &json!({"expected_version": after["version"], "move": view["legal_moves"][0]}),
        )
        .assert_problem(409, "game_over");
    server
        .post(&format!("/api/v1/games/{id}/deal"), token, &json!({}))
        .assert_problem(409, "game_over");
}

fn not_your_turn_and_hand_not_over(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(&amira, json!({"kind": "basra", "seats": [{}, {}]}));
    server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    let a = server.view(&amira, id);
    let k = server.view(&karim, id);
    let (idle, idle_view) = if a["to_act"] == 0 {
        (&karim, &k)
    } else {
        (&amira, &a)
    };
    let card = idle_view["table"]["hand"][0].clone();
    let reply = server.play(idle, idle_view, &json!({"type": "play", "card": card}));
    reply.assert_problem(409, "not_your_turn");
    server
        .post(
            &format!("/api/v1/games/{id}/deal"),
            Some(&amira.token),
            &json!({}),
        )
        .assert_problem(409, "hand_not_over");
    server
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&server.guest("layla").token),
            &json!({"invite_code": view["invite_code"], "seat": 1}),
        )
        .assert_problem(409, "game_full");
}

fn join_errors_name_the_seat(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {}, {"bot": "greedy"}, {}]}),
    );
    let code = view["invite_code"].clone();
    let join = |seat: i64| {
        server.post(
            &format!("/api/v1/games/{id}/join"),
            Some(&karim.token),
            &json!({"invite_code": code, "seat": seat}),
        )
    };
    join(0).assert_problem(409, "seat_taken");
    join(2).assert_problem(409, "seat_taken");
    join(9).assert_problem(422, "validation_failed");
    assert_eq!(join(3).status, 200);
}

fn a_body_is_an_object_never_an_array(backend: Backend) {
    let server = Server::start(backend);
    // serde would read a struct from an array of its fields: the API does not.
    for (path, body) in [
        ("/api/v1/auth/guest", json!([null])),
        ("/api/v1/auth/guest", json!(["amira"])),
        ("/api/v1/auth/login", json!(["amira", "a long passphrase"])),
    ] {
        server
            .post(path, None, &body)
            .assert_problem(422, "validation_failed");
    }
}

on_both_backends!(
    a_body_is_an_object_never_an_array,
    every_error_is_problem_json_with_a_stable_code,
    not_your_turn_and_hand_not_over,
    join_errors_name_the_seat,
);
