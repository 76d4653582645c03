//! 31 over HTTP: the generic API with no game-specific endpoint.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server, play_out};

/// Never knocks (the computers do), draws from the stock, discards the first legal card.
fn patient(legal: &[Value]) -> Value {
    legal
        .iter()
        .find(|m| m["type"] == "draw" && m["from"] == "stock")
        .or_else(|| legal.iter().find(|m| m["type"] == "discard"))
        .unwrap_or(&legal[0])
        .clone()
}

fn person_against_computers(backend: Backend, variant: &str, computers: usize) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let mut seats = vec![json!({})];
    let levels = ["hard", "strong", "random", "easy", "medium"];
    seats.extend((0..computers).map(|i| json!({ "bot": levels[i % levels.len()] })));
    let (id, view) = server.create(
        &amira,
        json!({"kind": "thirty_one", "variant": variant, "seats": seats}),
    );
    assert_eq!(view["kind"], "thirty_one");
    assert_eq!(
        view["table"]["players"].as_array().unwrap().len(),
        computers + 1
    );
    // Three lives, less any a hand the computers finished before the person's first turn
    // cost (a dealt 31 ends a hand at once): the view agrees with the score sheet.
    let sheet = server
        .get(&format!("/api/v1/games/{id}/score"), Some(&amira.token))
        .body;
    assert_eq!(sheet["initial"], 3);
    assert_eq!(view["table"]["players"][0]["lives"], sheet["totals"][0]);
    let end = play_out(&server, id, &[&amira], patient);
    assert_eq!(end["status"], "finished");
    crate::export::exports_and_reimports_exactly(&server, &amira, id);
    assert_eq!(end["outcome"]["reason"], "last_standing");
    let score = server
        .get(&format!("/api/v1/games/{id}/score"), Some(&amira.token))
        .body;
    assert_eq!(score["initial"], 3);
    // Every total is the start plus the lives lost; exactly one player has lives left.
    let totals: Vec<i64> = score["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    assert_eq!(totals.iter().filter(|&&t| t >= 0).count(), 1, "{totals:?}");
    for (side, total) in totals.iter().enumerate() {
        let lost: i64 = score["hands"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|h| h["lines"].as_array().unwrap().clone())
            .filter(|l| l["side"] == side)
            .map(|l| l["points"].as_i64().unwrap())
            .sum();
        assert_eq!(3 + lost, *total);
    }
}

fn a_person_plays_31_to_the_end_against_two_computers(backend: Backend) {
    person_against_computers(backend, "standard", 2);
}

fn a_person_plays_31_to_the_end_against_five_computers(backend: Backend) {
    person_against_computers(backend, "standard", 5);
}

fn a_person_plays_classic_31_to_the_end_against_the_computer(backend: Backend) {
    person_against_computers(backend, "classic", 1);
}

fn two_people_play_classic_31_and_rules_are_enforced(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(&amira, json!({"kind": "thirty_one", "variant": "classic", "seats": [{}, {}], "options": {"three_of_a_kind": true}}));
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    assert_eq!(joined.status, 200);
    let view = server.view(&amira, id);
    if view["status"] == "active" {
        // Seat 0 always starts in classic.
        assert_eq!(view["to_act"], 0);
        let reply = server.play(
            &amira,
            &view,
            &json!({"type": "discard", "card": view["table"]["hand"][0]}),
        );
        reply.assert_problem(422, "illegal_move");
        assert_eq!(reply.body["detail"], "draw a card (or knock) first");
        assert_eq!(reply.body["refusal"], "draw_first");
        let took = server.play(&amira, &view, &json!({"type": "draw", "from": "discard"}));
        assert_eq!(took.status, 200);
        let now = &took.body["view"];
        let taken = now["table"]["taken"].clone();
        let reply = server.play(&amira, now, &json!({"type": "discard", "card": taken}));
        reply.assert_problem(422, "illegal_move");
        assert_eq!(reply.body["refusal"], "just_taken");
        assert!(
            reply.body["detail"]
                .as_str()
                .unwrap()
                .contains("you just took it")
        );
        // Karim sees the card Amira took, not the rest of her hand.
        let seen = server.view(&karim, id);
        assert_eq!(seen["table"]["players"][0]["known"], json!([taken]));
    }
    let version = server.view(&amira, id)["version"].clone();
    for bad in [
        json!({"type": "knock", "extra": 1}),
        json!({"type": "draw", "from": "sky"}),
        json!({"type": "discard"}),
    ] {
        server
            .post(
                &format!("/api/v1/games/{id}/moves"),
                Some(&amira.token),
                &json!({"expected_version": version, "move": bad}),
            )
            .assert_problem(422, "validation_failed");
    }
    let end = play_out(&server, id, &[&amira, &karim], |legal| legal[0].clone());
    assert_eq!(end["status"], "finished");
    crate::export::exports_and_reimports_exactly(&server, &amira, id);
}

on_both_backends!(
    a_person_plays_31_to_the_end_against_two_computers,
    a_person_plays_31_to_the_end_against_five_computers,
    a_person_plays_classic_31_to_the_end_against_the_computer,
    two_people_play_classic_31_and_rules_are_enforced,
);
