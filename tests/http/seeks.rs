//! Quick match: compatible seekers seated together, seeks that wait apart, cancelling,
//! computer players filling a table, seeks whose clients left, and two replicas pairing at once
//! without ever seating one seeker twice.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Client, Player, Server};

fn seek(client: &Client, player: &Player, body: Value) -> Value {
    let reply = client.post("/api/v1/seeks", Some(&player.token), &body);
    assert_eq!(reply.status, 201, "{reply:?}");
    reply.body
}

/// Asks after a seek until it is no longer open (or `limit` passes); returns it.
fn settled(client: &Client, player: &Player, id: i64, limit: Duration) -> Value {
    let started = Instant::now();
    loop {
        let reply = client.get(&format!("/api/v1/seeks/{id}?wait=2"), Some(&player.token));
        assert_eq!(reply.status, 200, "{reply:?}");
        if reply.body["status"] != "open" || started.elapsed() > limit {
            return reply.body;
        }
    }
}

fn two_seekers_of_the_same_game_are_seated_together(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let body = json!({"kind": "basra", "players": 2, "options": {"target": 31}});
    let first = seek(&server, &amira, body.clone());
    assert_eq!(first["status"], "open", "{first}");
    let second = seek(&server, &karim, body);
    assert_eq!(second["status"], "matched", "{second}");
    let game = second["game_id"].as_i64().unwrap();
    let first = settled(
        &server,
        &amira,
        first["id"].as_i64().unwrap(),
        Duration::from_secs(5),
    );
    assert_eq!(first["status"], "matched");
    assert_eq!(first["game_id"], game);
    // The one who waited longer has seat 0; the game is under way for both.
    let view = server.view(&amira, game);
    assert_eq!(view["your_seat"], 0);
    assert_eq!(view["status"], "active");
    assert_eq!(view["options"]["target"], 31);
    assert_eq!(server.view(&karim, game)["your_seat"], 1);
    // A new seek is allowed once the last one is done.
    assert_eq!(
        seek(&server, &amira, json!({"kind": "rummy", "players": 2}))["status"],
        "open"
    );
}

fn seeks_for_other_games_wait_apart_and_can_be_cancelled(backend: Backend) {
    let server = Server::start(backend);
    let seekers: Vec<Player> = (0..5)
        .map(|n| server.guest(&format!("seeker{n}")))
        .collect();
    let bodies = [
        json!({"kind": "basra", "players": 2}),
        json!({"kind": "basra", "variant": "cse231", "players": 2}),
        json!({"kind": "basra", "players": 3}),
        json!({"kind": "basra", "players": 2, "options": {"target": 51}}),
        json!({"kind": "basra", "players": 2, "rated": false}),
    ];
    let ids: Vec<i64> = seekers
        .iter()
        .zip(bodies)
        .map(|(player, body)| {
            let made = seek(&server, player, body);
            assert_eq!(made["status"], "open", "{made}");
            made["id"].as_i64().unwrap()
        })
        .collect();
    // One open seek an account.
    server
        .post(
            "/api/v1/seeks",
            Some(&seekers[0].token),
            &json!({"kind": "rummy", "players": 2}),
        )
        .assert_problem(409, "already_seeking");
    // Another account's seek is none of yours; a bad seek is refused.
    server
        .get(
            &format!("/api/v1/seeks/{}", ids[1]),
            Some(&seekers[0].token),
        )
        .assert_problem(404, "not_found");
    for bad in [
        json!({"kind": "basra", "players": 9}),
        json!({"kind": "tarneeb", "players": 2}),
        json!({"kind": "basra", "players": 2, "options": {"target": 5}}),
        json!({"kind": "basra", "players": 2, "fill_after": 0}),
    ] {
        server
            .post("/api/v1/seeks", Some(&seekers[1].token), &bad)
            .assert_problem(422, "validation_failed");
    }
    let cancel = |n: usize| {
        server.post(
            &format!("/api/v1/seeks/{}/cancel", ids[n]),
            Some(&seekers[n].token),
            &json!({}),
        )
    };
    let cancelled = cancel(0);
    assert_eq!(cancelled.status, 200, "{cancelled:?}");
    assert_eq!(cancelled.body["status"], "cancelled");
    cancel(0).assert_problem(409, "seek_closed");
    for (n, id) in ids.iter().enumerate().skip(1) {
        let still = server.get(&format!("/api/v1/seeks/{id}"), Some(&seekers[n].token));
        assert_eq!(still.body["status"], "open", "{still:?}");
    }
}

fn computers_fill_the_seats_of_a_seek_that_asked_for_them(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_SWEEP_MS", "200")]);
    let player = server.guest("impatient");
    let made = seek(
        &server,
        &player,
        json!({"kind": "tarneeb", "players": 4, "fill_after": 1}),
    );
    let done = settled(
        &server,
        &player,
        made["id"].as_i64().unwrap(),
        Duration::from_secs(10),
    );
    assert_eq!(done["status"], "matched", "{done}");
    let view = server.view(&player, done["game_id"].as_i64().unwrap());
    let bots = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["bot"].is_string())
        .count();
    assert_eq!(bots, 3, "{view}");
}

fn a_seek_whose_client_stops_asking_expires(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_SWEEP_MS", "200"),
            ("CARDROOM_SEEK_TIMEOUT_SECS", "1"),
        ],
    );
    let gone = server.guest("gone");
    let made = seek(&server, &gone, json!({"kind": "basra", "players": 2}));
    std::thread::sleep(Duration::from_secs(3));
    let now = server.get(&format!("/api/v1/seeks/{}", made["id"]), Some(&gone.token));
    assert_eq!(now.body["status"], "expired", "{now:?}");
    // Nobody is seated with a seeker who left.
    let late = server.guest("late");
    assert_eq!(
        seek(&server, &late, json!({"kind": "basra", "players": 2}))["status"],
        "open"
    );
}

on_both_backends!(
    two_seekers_of_the_same_game_are_seated_together,
    seeks_for_other_games_wait_apart_and_can_be_cancelled,
    computers_fill_the_seats_of_a_seek_that_asked_for_them,
    a_seek_whose_client_stops_asking_expires,
);

#[test]
fn two_replicas_pairing_at_once_never_seat_a_seeker_twice() {
    let a = Server::start_with(Backend::Postgres, &[("CARDROOM_SWEEP_MS", "200")]);
    let b = a.replica(&[("CARDROOM_SWEEP_MS", "200")]);
    let seekers: Vec<Player> = (0..24).map(|n| a.guest(&format!("racer{n}"))).collect();
    let bases = [a.base.clone(), b.base.clone()];
    // Everyone asks at once, half through each replica, and waits for their game.
    let threads: Vec<_> = seekers
        .iter()
        .enumerate()
        .map(|(n, player)| {
            let client = Client {
                base: bases[n % 2].clone(),
                persistent: None,
            };
            let player = player.clone();
            std::thread::spawn(move || {
                let made = seek(&client, &player, json!({"kind": "basra", "players": 2}));
                let id = made["id"].as_i64().unwrap();
                (
                    player.id,
                    settled(&client, &player, id, Duration::from_secs(30)),
                )
            })
        })
        .collect();
    let mut games: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for thread in threads {
        let (user, seek) = thread.join().unwrap();
        assert_eq!(seek["status"], "matched", "{seek}");
        let game = seek["game_id"].as_i64().unwrap();
        assert!(games.entry(game).or_default().insert(user));
    }
    // Twelve games of two, everyone in exactly one, and each game seats exactly its two.
    assert_eq!(games.len(), 12, "{games:?}");
    let mut everyone = BTreeSet::new();
    for (game, users) in &games {
        assert_eq!(users.len(), 2, "game {game}: {users:?}");
        for user in users {
            assert!(everyone.insert(*user), "user {user} sits in two games");
        }
        let seated: BTreeSet<i64> = users
            .iter()
            .map(|user| {
                let player = seekers.iter().find(|p| p.id == *user).unwrap();
                let view = a.view(player, *game);
                view["your_seat"].as_i64().unwrap()
            })
            .collect();
        assert_eq!(seated, BTreeSet::from([0, 1]), "game {game}");
    }
    assert_eq!(everyone.len(), 24);
}
