//! A game left on a computer player's turn — a replica died between a person's move and the
//! computer's reply — is picked up by the recovery sweep.

use std::time::{Duration, Instant};

use cardroom_core::{Seat, Status};
use cardroom_db::games::{Commit, LogEntry, Summary};
use serde_json::json;

use crate::on_both_backends;
use crate::support::{Backend, Server};

/// Leaves game `id` (a person at seat 0 against computers, at `version`, the person to act) as
/// a replica that died after committing the person's move would: the move applied and logged,
/// the computer's reply not yet made. Returns a pool on the game's database and the new version.
pub fn leave_on_a_computer_turn(
    server: &Server,
    id: i64,
    version: i64,
) -> (cardroom_db::Pool, i64) {
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let mut game = cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id))
        .unwrap()
        .unwrap();
    let mv = game.legal_moves(Seat::new(0))[0].clone();
    let events = game.play(Seat::new(0), &mv).unwrap();
    assert_eq!(game.status(), Status::Active);
    assert_ne!(game.to_act(), Some(Seat::new(0)));
    let change = Commit {
        game_id: cardroom_db::GameId::new(id),
        expected_version: version,
        state: Some(serde_json::to_string(&game).unwrap()),
        summary: Summary {
            status: cardroom_db::GameStatus::Active,
            hands: 1,
            moves: game.table().moves() as i32,
            winners: None,
            end_reason: None,
            finished: false,
            to_act: game.to_act().map(|s| i32::from(s.number())),
            bot_pending: true,
            deadline: None,
            results: Vec::new(),
        },
        entries: vec![LogEntry {
            seat: Some(0),
            action: "move".to_owned(),
            payload: Some(serde_json::to_string(&mv).unwrap()),
            events: serde_json::to_string(&events).unwrap(),
        }],
        seats: Vec::new(),
        deals: Vec::new(),
        reveals: Vec::new(),
        idempotency: None,
        tally: Default::default(),
        leaving: None,
        notices: Vec::new(),
    };
    let new_version = cardroom_db::games::commit(&mut conn, &change).unwrap();
    drop(conn);
    (pool, new_version)
}

fn a_game_left_on_a_computer_players_turn_is_picked_up(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_SWEEP_MS", "200")]);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let version = view["version"].as_i64().unwrap();

    let (pool, version) = leave_on_a_computer_turn(&server, id, version);
    let mut conn = pool.get().unwrap();

    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let now = server.view(&amira, id);
        if now["version"].as_i64().unwrap() > version && now["to_act"] == 0 {
            assert_eq!(
                now["recent_events"].as_array().unwrap().last().unwrap()["event"]["seat"],
                1
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer never answered: {now}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let replayed = cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(id)).unwrap();
    assert_eq!(
        replayed,
        cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id)).unwrap()
    );
    let metrics = server.get("/metrics", None);
    assert!(
        metrics
            .body
            .as_str()
            .unwrap()
            .contains("cardroom_recovered_games_total 1"),
        "{metrics:?}"
    );
}

on_both_backends!(a_game_left_on_a_computer_players_turn_is_picked_up);
