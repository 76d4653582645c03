//! `cardroom verify-deal` on logs of real games: sound logs pass, tampered ones do not.

use std::process::Command;

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server, play_out};

/// What `cardroom verify-deal` said about a log: its exit code and its standard output.
struct Verdict {
    code: i32,
    output: String,
}

fn verify_deal(log: &Value) -> Verdict {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("log.json");
    std::fs::write(&file, log.to_string()).unwrap();
    verify_file(file.to_str().unwrap())
}

fn verify_file(path: &str) -> Verdict {
    let output = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["verify-deal", path])
        .output()
        .unwrap();
    Verdict {
        code: output.status.code().unwrap_or(-1),
        output: String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    }
}

fn log_of(server: &Server, player: &Player, id: i64) -> Value {
    let reply = server.get(&format!("/api/v1/games/{id}/log"), Some(&player.token));
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.body
}

/// A player who makes progress in every game: melds and lays off, draws from the stock, passes
/// in auctions, and otherwise takes the first legal move.
fn steady(legal: &[Value]) -> Value {
    for kind in ["meld", "lay_off", "pass"] {
        if let Some(mv) = legal.iter().find(|m| m["type"] == kind) {
            return mv.clone();
        }
    }
    legal
        .iter()
        .find(|m| m["type"] == "draw_stock" || (m["type"] == "draw" && m["from"] == "stock"))
        .unwrap_or(&legal[0])
        .clone()
}

/// Asserts that the log verifies, and returns how many deals were checked.
fn assert_verifies(log: &Value) -> usize {
    let verdict = verify_deal(log);
    assert_eq!(verdict.code, 0, "{}", verdict.output);
    let deals = log["deals"].as_array().unwrap();
    let revealed = deals.iter().filter(|d| d["seed"].is_string()).count();
    assert!(
        verdict.output.contains(&format!("OK: {revealed} deals, ")),
        "{}",
        verdict.output
    );
    for deal in deals.iter().filter(|d| d["seed"].is_string()) {
        assert!(
            verdict.output.contains(&format!(
                "deal {} (hand {}): commitment ok; deck ",
                deal["deal"], deal["hand"]
            )),
            "{}",
            verdict.output
        );
    }
    revealed
}

fn whole_games_of_every_kind_verify_from_every_seat(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let games = [
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 31}}),
        json!({"kind": "basra", "variant": "cse231", "seats": [{}, {"bot": "greedy"}]}),
        json!({"kind": "thirty_one", "seats": [{}, {}, {"bot": "strong"}]}),
        json!({"kind": "rummy", "variant": "classic", "seats": [{}, {}, {"bot": "5"}], "options": {"rounds": 2}}),
        json!({"kind": "tarneeb", "seats": [{}, {"bot": "greedy"}, {}, {"bot": "greedy"}], "options": {"target": 31}}),
    ];
    for body in games {
        let (id, view) = server.create(&amira, body.clone());
        let mut players = vec![&amira];
        if let Some(code) = view["invite_code"].as_str() {
            let joined = server.post(
                &format!("/api/v1/games/{id}/join"),
                Some(&karim.token),
                &json!({"invite_code": code}),
            );
            assert_eq!(joined.status, 200, "{joined:?}");
            players.push(&karim);
        }
        let end = play_out(&server, id, &players, steady);
        assert_eq!(end["status"], "finished", "{body}");
        for player in players {
            let log = log_of(&server, player, id);
            let deals = assert_verifies(&log);
            assert!(deals >= 1, "{body}");
            assert_eq!(deals, log["deals"].as_array().unwrap().len(), "{body}");
        }
    }
}

fn a_practice_deck_verifies_as_dealt(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let mut deck: Vec<String> = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC QC KC"
        .split(' ')
        .map(str::to_owned)
        .collect();
    for card in cardroom_core::deck::Deck::Standard52.canonical_order() {
        let code = card.to_string();
        if !deck.contains(&code) {
            deck.push(code);
        }
    }
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "deck": deck, "options": {"target": 31}}),
    );
    play_out(&server, id, &[&amira], |legal| legal[0].clone());
    let log = log_of(&server, &amira, id);
    let verdict = verify_deal(&log);
    assert_eq!(verdict.code, 0, "{}", verdict.output);
    assert!(
        verdict
            .output
            .contains("deal 0 (hand 1): commitment ok; deck AC 2C 3C"),
        "{}",
        verdict.output
    );
    assert!(verdict.output.contains("(practice deck, not shuffled)"));
}

fn the_hand_in_play_stays_secret_and_tampering_is_caught(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    // Nothing is revealed while the first hand is played.
    let verdict = verify_deal(&log_of(&server, &amira, id));
    assert_eq!(verdict.code, 0, "{}", verdict.output);
    assert!(
        verdict
            .output
            .contains("deal 0 (hand 1): seed not revealed yet")
    );
    assert!(verdict.output.contains("nothing to replay"));

    // Play into the second hand: the first is checked, the second is not.
    loop {
        let view = server.view(&amira, id);
        if view["status"] == "hand_over" {
            let dealt = server.post(
                &format!("/api/v1/games/{id}/deal"),
                Some(&amira.token),
                &json!({}),
            );
            assert_eq!(dealt.status, 200, "{dealt:?}");
            break;
        }
        assert_eq!(view["status"], "active", "{view}");
        let legal = view["legal_moves"].as_array().unwrap().clone();
        assert_eq!(server.play(&amira, &view, &legal[0]).status, 200);
    }
    let log = log_of(&server, &amira, id);
    assert_eq!(assert_verifies(&log), 1);
    let verdict = verify_deal(&log);
    assert!(
        verdict
            .output
            .contains("deal 1 begins, its seed not revealed yet: stopping here"),
        "{}",
        verdict.output
    );

    // A card dealt to amira that the seed did not deal.
    let mut forged = log.clone();
    let dealt = forged["entries"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|e| e["events"].as_array_mut().unwrap().iter_mut())
        .find(|e| e["event"]["type"] == "dealt" && e["event"]["cards"].is_array())
        .expect("amira was dealt cards");
    let cards = dealt["event"]["cards"].as_array_mut().unwrap();
    let held: Vec<Value> = cards.clone();
    let other = ["AS", "AH", "2D"]
        .into_iter()
        .find(|c| !held.contains(&json!(c)))
        .unwrap();
    cards[0] = json!(other);
    let verdict = verify_deal(&forged);
    assert_eq!(verdict.code, 1, "{}", verdict.output);
    assert!(
        verdict.output.contains("MISMATCH: version") && verdict.output.contains("FAILED"),
        "{}",
        verdict.output
    );

    // A seed that is not the one committed to.
    let mut forged = log.clone();
    forged["deals"][0]["seed"] = json!("00".repeat(32));
    let verdict = verify_deal(&forged);
    assert_eq!(verdict.code, 1, "{}", verdict.output);
    assert!(
        verdict
            .output
            .contains("MISMATCH: deal 0: sha256 of its seed is"),
        "{}",
        verdict.output
    );

    // A move taken out of the log.
    let mut forged = log.clone();
    let entries = forged["entries"].as_array_mut().unwrap();
    let first_move = entries.iter().position(|e| e["action"] == "move").unwrap();
    entries.remove(first_move);
    let verdict = verify_deal(&forged);
    assert_eq!(verdict.code, 1, "{}", verdict.output);

    // Not a log at all, or no file.
    let verdict = verify_deal(&json!({"entries": "no"}));
    assert_eq!(verdict.code, 2, "{}", verdict.output);
    assert!(
        verdict.output.contains("not a game log"),
        "{}",
        verdict.output
    );
    let verdict = verify_file("/nonexistent/log.json");
    assert_eq!(verdict.code, 2, "{}", verdict.output);
}

on_both_backends!(
    whole_games_of_every_kind_verify_from_every_seat,
    a_practice_deck_verifies_as_dealt,
    the_hand_in_play_stays_secret_and_tampering_is_caught,
);
