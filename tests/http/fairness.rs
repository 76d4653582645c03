//! Seed commitments, revealed seeds, and practice games from a seed or a deck.

use cardroom_core::deck::Deck;
use cardroom_core::rng::shuffled_deck;
use cardroom_core::{Card, Seed};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::on_both_backends;
use crate::support::{Backend, Server, play_out};

fn every_deal_is_committed_when_dealt_and_its_seed_revealed_when_its_hand_ends(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "options": {"target": 31}}),
    );
    let log = server
        .get(&format!("/api/v1/games/{id}/log"), Some(&amira.token))
        .body;
    assert_eq!(log["shuffle_version"], 1);
    assert_eq!(log["deals"].as_array().unwrap().len(), 1);
    assert!(log["deals"][0]["seed"].is_null());
    let commitment = log["deals"][0]["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);

    play_out(&server, id, &[&amira], |legal| legal[0].clone());
    let log = server
        .get(&format!("/api/v1/games/{id}/log"), Some(&amira.token))
        .body;
    let deals = log["deals"].as_array().unwrap();
    assert_eq!(deals[0]["commitment"], commitment.as_str());
    for deal in deals {
        let seed = Seed::from_hex(deal["seed"].as_str().expect("revealed")).unwrap();
        let digest: String = Sha256::digest(seed.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(deal["commitment"], digest.as_str());
    }
    // The first deal's revealed seed re-derives the deck the first hand was dealt from: the
    // first cards dealt to the players are those of the shuffled deck (2 players, one at a time
    // from the seat after the dealer).
    let seed = Seed::from_hex(deals[0]["seed"].as_str().unwrap()).unwrap();
    let (order, _) = shuffled_deck(Deck::Standard52, &seed);
    let first_hand_event = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"] == "started")
        .unwrap();
    let dealt = first_hand_event["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "dealt")
        .unwrap();
    let mine: Vec<Card> = serde_json::from_value(dealt["event"]["cards"].clone()).unwrap();
    let dealer = first_hand_event["events"][0]["event"]["dealer"]
        .as_u64()
        .unwrap();
    let my_positions: Vec<usize> = if dealer == 1 {
        vec![0, 2, 4, 6]
    } else {
        vec![1, 3, 5, 7]
    };
    let mut expected: Vec<Card> = my_positions.iter().map(|&i| order[i]).collect();
    expected.sort();
    let mut got = mine.clone();
    got.sort();
    assert_eq!(got, expected);
}

fn practice_games_replay_their_seed_or_deck(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let seed = "00".repeat(31) + "2a";
    let first = server
        .create(
            &amira,
            json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "seed": seed}),
        )
        .1;
    let second = server
        .create(
            &amira,
            json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "seed": seed}),
        )
        .1;
    assert_eq!(first["practice"], true);
    assert_eq!(first["table"]["hand"], second["table"]["hand"]);
    assert_eq!(first["table"]["floor"], second["table"]["floor"]);

    let mut deck: Vec<String> = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC QC KC"
        .split(' ')
        .map(str::to_owned)
        .collect();
    for card in Deck::Standard52.canonical_order() {
        let code = card.to_string();
        if !deck.contains(&code) {
            deck.push(code);
        }
    }
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "deck": deck}),
    );
    assert_eq!(view["practice"], true);
    // The last seat deals, so seat 0 receives first and plays first.
    assert_eq!(view["table"]["hand"], json!(["AC", "3C", "5C", "7C"]));
    assert_eq!(view["table"]["floor"], json!(["9C", "TC", "QC", "KC"]));
    let log = server
        .get(&format!("/api/v1/games/{id}/log"), Some(&amira.token))
        .body;
    let shown: Vec<Value> = log["deals"][0]["practice_deck"].as_array().unwrap().clone();
    assert_eq!(shown.len(), 52);
    assert_eq!(shown[0], "AC");
}

on_both_backends!(
    every_deal_is_committed_when_dealt_and_its_seed_revealed_when_its_hand_ends,
    practice_games_replay_their_seed_or_deck,
);
