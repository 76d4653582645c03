//! Rummy over HTTP: people and computer players of any level at one table.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server, play_out};

/// Melds and lays off whenever it can, draws from the stock, passes turned-over cards, and
/// throws its first card.
fn plain_player(legal: &[Value]) -> Value {
    for kind in [
        "meld",
        "lay_off",
        "draw_stock",
        "pass_drawn",
        "end_turn",
        "discard",
    ] {
        if let Some(mv) = legal.iter().find(|m| m["type"] == kind) {
            return mv.clone();
        }
    }
    legal[0].clone()
}

fn a_person_plays_standard_rummy_to_the_end_with_computers(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "rummy", "seats": [{}, {"bot": "3"}, {"bot": "greedy"}]}),
    );
    assert_eq!(view["table"]["hand"].as_array().unwrap().len(), 7);
    let end = play_out(&server, id, &[&amira], plain_player);
    assert_eq!(end["status"], "finished");
    crate::export::exports_and_reimports_exactly(&server, &amira, id);
    let score = server
        .get(&format!("/api/v1/games/{id}/score"), Some(&amira.token))
        .body;
    let winner = end["outcome"]["winners"][0].as_i64().unwrap() as usize;
    if end["outcome"]["reason"] == "target" {
        assert!(score["totals"][winner].as_i64().unwrap() >= 100);
    }
}

fn people_and_computers_play_classic_rummy_to_the_end(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "rummy", "variant": "classic", "seats": [{}, {}, {"bot": "10"}], "options": {"rounds": 2}}),
    );
    server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    let view = server.view(&amira, id);
    // A classic turn: melds, then a compulsory exchange, then melds and end.
    if view["to_act"] == 0 {
        let reply = server.play(&amira, &view, &json!({"type": "end_turn"}));
        reply.assert_problem(422, "illegal_move");
        assert_eq!(reply.body["refusal"], "not_now", "{reply:?}");
        let reply = server.play(&amira, &view, &json!({"type": "discard", "card": "2C"}));
        reply.assert_problem(422, "illegal_move");
        assert_eq!(reply.body["refusal"], "not_in_variant", "{reply:?}");
        let reply = server.play(&amira, &view, &json!({"type": "draw_stock"}));
        assert_eq!(reply.status, 200);
        let turned = reply.body["view"]["table"]["turned"].clone();
        assert!(turned.is_string());
        // Karim sees the turned-over card too.
        assert_eq!(server.view(&karim, id)["table"]["turned"], turned);
    }
    let end = play_out(&server, id, &[&amira, &karim], plain_player);
    assert_eq!(end["status"], "finished");
    crate::export::exports_and_reimports_exactly(&server, &amira, id);
    assert_eq!(end["outcome"]["reason"], "final_hand");
    let score = server
        .get(&format!("/api/v1/games/{id}/score"), Some(&amira.token))
        .body;
    assert_eq!(score["hands"].as_array().unwrap().len(), 2);
    // The lowest total wins.
    let totals: Vec<i64> = score["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let lowest = *totals.iter().min().unwrap();
    for winner in end["outcome"]["winners"].as_array().unwrap() {
        assert_eq!(totals[winner.as_u64().unwrap() as usize], lowest);
    }
}

fn rummy_levels_one_to_ten_are_offered_and_checked(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let kinds = server.get("/api/v1/games/kinds", None).body;
    let rummy = kinds["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "rummy")
        .unwrap();
    let levels: Vec<&str> = rummy["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        levels,
        [
            "easy", "medium", "hard", "random", "greedy", "1", "2", "3", "4", "5", "6", "7", "8",
            "9", "10"
        ]
    );
    for bad in ["0", "11", "strong"] {
        server
            .post(
                "/api/v1/games",
                Some(&amira.token),
                &json!({"kind": "rummy", "seats": [{}, {"bot": bad}]}),
            )
            .assert_problem(422, "validation_failed");
    }
    let (id, view) = server.create(
        &amira,
        json!({"kind": "rummy", "seats": [{}, {"bot": "7"}]}),
    );
    let version = view["version"].clone();
    for bad in [
        json!({"type": "meld", "cards": ["AC", "AC", "AD"]}),
        json!({"type": "lay_off", "meld": -1, "cards": ["AC"]}),
        json!({"type": "keep"}),
    ] {
        server
            .post(
                &format!("/api/v1/games/{id}/moves"),
                Some(&amira.token),
                &json!({"expected_version": version, "move": bad}),
            )
            .assert_problem(422, "validation_failed");
    }
}

on_both_backends!(
    a_person_plays_standard_rummy_to_the_end_with_computers,
    people_and_computers_play_classic_rummy_to_the_end,
    rummy_levels_one_to_ten_are_offered_and_checked,
);
