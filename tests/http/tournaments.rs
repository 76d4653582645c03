//! Whole tournaments over HTTP — Swiss, duplicate and arena, of sixteen (or a few) entrants,
//! guests and bot accounts, computer players completing a short table — on SQLite and on
//! PostgreSQL with two replicas pairing at once; each checked by recomputing its standings
//! from the stored games, not from the tournament's own answer.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::json;

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Client, Server};
use crate::tournament_checks::{
    ARENA_MINUTE, SWEEP, check_arena, check_duplicate, check_swiss, enter, make, play_through,
    seated_once_a_round, tournament_until, until_dealt,
};

/// A Swiss tournament of 16 (12 guests, 4 bot accounts) at Basra, three rounds, played through
/// `servers`; checked against the stored games.
pub(crate) fn whole_swiss(primary: &Server, servers: &[&Client]) {
    let admin = admin_token(primary);
    let made = make(
        primary,
        &admin,
        json!({"name": "Friday Basra", "format": "swiss", "kind": "basra",
               "options": {"target": 31}, "rounds": 3}),
    );
    let id = made.id;
    let entrants = enter(primary, id, 12, 4);
    // A bot account hears of its tables on its account stream (opened before the start: the
    // first round may be paired at once, and a stream tells what comes after it opened).
    let bot_events = primary.ndjson("/api/v1/stream/events", &entrants[15].player.token);
    made.start(primary, &admin);
    let state = play_through(servers, &admin, id, &entrants, Duration::from_secs(240));
    assert_eq!(state["status"], "finished");
    assert_eq!(state["round"], 3);
    seated_once_a_round(&state, 2);
    let rounds = state["round_tables"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    for round in rounds {
        assert_eq!(round["tables"].as_array().unwrap().len(), 8, "{round}");
    }
    let tables = check_swiss(primary, &admin, &state, false);
    // No two entrants meet twice: sixteen can avoid it for three rounds.
    let met: BTreeSet<Vec<String>> = tables
        .iter()
        .map(|t| {
            let mut pair = t.clone();
            pair.sort();
            pair
        })
        .collect();
    assert_eq!(met.len(), tables.len(), "a pair met twice");
    for line in state["standings"].as_array().unwrap() {
        assert_eq!(line["games"], 3);
    }
    // Three tables, one event each, in order.
    let mut told = Vec::new();
    while told.len() < 3 {
        match bot_events.recv_timeout(Duration::from_secs(5)) {
            Ok(Some(event)) if event["type"] == "tournament_game" => told.push(event),
            Ok(Some(_)) => {}
            other => panic!("the bot's stream: {other:?} after {told:?}"),
        }
    }
    let rounds_told: Vec<i64> = told.iter().map(|e| e["round"].as_i64().unwrap()).collect();
    assert_eq!(rounds_told, [1, 2, 3]);
    assert!(told.iter().all(|e| e["tournament_id"] == id));
}

fn a_whole_swiss_tournament_of_sixteen_standings_as_recomputed(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    whole_swiss(&server, &[&server]);
    // `cardroom check` holds what the tournament recorded to its games; then finds a change.
    crate::backups::assert_sound(&server.database_url);
    let first = "(SELECT min(game_id) FROM tournament_seats)";
    crate::backups::assert_damage_named(
        &server.database_url,
        &[format!(
            "UPDATE tournament_seats SET points = points + 2 WHERE game_id = {first} AND seat = 0"
        )],
        &["recorded seat 0 as place".to_owned()],
    );
}

fn a_whole_duplicate_tournament_of_sixteen_every_table_dealt_alike(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    whole_duplicate(&server, &[&server]);
    crate::backups::assert_sound(&server.database_url);
}

/// A duplicate tournament of 16 at 31 (tables of three), two rounds, played through `servers`:
/// five tables and one entrant completed by two computer players each round; every table of a
/// round deals the same cards; nobody watches a round's tables until it is over; matchpoints
/// as recomputed.
fn whole_duplicate(server: &Server, servers: &[&Client]) {
    let admin = admin_token(server);
    let made = make(
        server,
        &admin,
        json!({"name": "Duplicate 31", "format": "duplicate", "kind": "thirty_one",
               "seats": 3, "rounds": 2, "fill": "easy"}),
    );
    let id = made.id;
    let entrants = enter(server, id, 14, 2);
    made.start(server, &admin);
    let outsider = server.guest("outsider");
    // While round 1 is played, its tables are private: an outsider cannot watch one.
    let first_game = loop {
        let state = server
            .get(&format!("/api/v1/tournaments/{id}"), Some(&admin))
            .body;
        if let Some(game) = state["round_tables"][0]["tables"][0]["game_id"].as_i64() {
            break game;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let watched = server.get(
        &format!("/api/v1/games/{first_game}"),
        Some(&outsider.token),
    );
    assert!(
        watched.status == 403 || watched.status == 404,
        "{watched:?}"
    );
    let state = play_through(servers, &admin, id, &entrants, Duration::from_secs(240));
    assert_eq!(state["status"], "finished");
    seated_once_a_round(&state, 3);
    for round in state["round_tables"].as_array().unwrap() {
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 6, "{round}");
        let short = tables
            .iter()
            .filter(|t| t["seats"].as_array().unwrap().len() == 1)
            .count();
        assert_eq!(short, 1, "one entrant with two computer players: {round}");
        for table in tables {
            // The round is over: anyone may watch now.
            let game = table["game_id"].as_i64().unwrap();
            let watched = server.get(&format!("/api/v1/games/{game}"), Some(&outsider.token));
            assert_eq!(watched.status, 200, "{watched:?}");
        }
    }
    check_duplicate(server, &admin, &state, false);
}

/// A one-minute arena at Basra of five (on 15-second minutes): whoever is free is seated at
/// once; the points follow the games in the order they were paired (2 a win, 4 after two wins in
/// a row).
fn an_arena_pairs_whoever_is_free_and_scores_streaks(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP, ARENA_MINUTE]);
    let admin = admin_token(&server);
    let made = make(
        &server,
        &admin,
        json!({"name": "Quick arena", "format": "arena", "kind": "basra",
               "options": {"target": 31}, "minutes": 1}),
    );
    let id = made.id;
    let entrants = enter(&server, id, 4, 1);
    made.start(&server, &admin);
    let state = play_through(&[&server], &admin, id, &entrants, Duration::from_secs(150));
    assert_eq!(state["status"], "finished");
    let rounds = state["round_tables"].as_array().unwrap();
    assert!(
        rounds.len() >= 3,
        "several pairings in the arena's minute: {}",
        rounds.len()
    );
    seated_once_a_round(&state, 2);
    check_arena(&server, &admin, &state, false);
    crate::backups::assert_sound(&server.database_url);
}

on_both_backends!(
    a_whole_swiss_tournament_of_sixteen_standings_as_recomputed,
    a_whole_duplicate_tournament_of_sixteen_every_table_dealt_alike,
    an_arena_pairs_whoever_is_free_and_scores_streaks,
);

/// Two replicas on one PostgreSQL both pair (each sweeping every 150 ms) and the moves go
/// through both, for a whole Swiss and a whole duplicate tournament: each round is paired
/// exactly once — no game beyond the rounds' tables is ever made (a losing pairing's games are
/// undone with it) — and the standings are as recomputed.
#[test]
fn two_replicas_pair_each_round_exactly_once() {
    let a = Server::start_with(Backend::Postgres, &[ADMIN, SWEEP]);
    let b = a.replica(&[ADMIN, SWEEP]);
    whole_swiss(&a, &[&a, &b]);
    whole_duplicate(&a, &[&b, &a]);
    let pool = cardroom_db::connect(&a.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut pooled = pool.get().unwrap();
    let conn: &mut cardroom_db::AnyConnection = &mut pooled;
    use diesel::prelude::*;
    let games: i64 = cardroom_db::schema::games::table
        .count()
        .get_result(conn)
        .unwrap();
    assert_eq!(
        games,
        24 + 12,
        "Swiss: three rounds of eight tables; duplicate: two of six; nothing else"
    );
}

/// An arena of four at Basra: the table that ends first finds only its own two free, and they
/// wait for the other table rather than play each other again at once; over eight games nobody
/// meets the one they just played.
fn an_arena_never_seats_players_again_with_the_table_they_just_left(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let made = make(
        &server,
        &admin,
        json!({"name": "No rematch", "format": "arena", "kind": "basra", "minutes": 10}),
    );
    let id = made.id;
    let entrants = enter(&server, id, 4, 0);
    made.start(&server, &admin);
    let token_of = |entrant: i64, state: &serde_json::Value| {
        let name = state["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["entrant_id"] == entrant)
            .unwrap()["name"]
            .clone();
        entrants
            .iter()
            .find(|e| e.name == name)
            .unwrap()
            .player
            .token
            .clone()
    };
    let tables = |state: &serde_json::Value| -> Vec<(i64, Vec<i64>, bool)> {
        state["round_tables"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["tables"].as_array().unwrap().clone())
            .map(|t| {
                let seats = t["seats"].as_array().unwrap();
                (
                    t["game_id"].as_i64().unwrap(),
                    seats
                        .iter()
                        .map(|s| s["entrant_id"].as_i64().unwrap())
                        .collect(),
                    t["over"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    let read = || {
        server
            .get(&format!("/api/v1/tournaments/{id}"), Some(&admin))
            .body
    };
    let mut ended = 0;
    while ended < 8 {
        // Once two tables play, the one made first ends (its first seat resigns).
        let state = tournament_until(&server, &admin, id, |s| {
            tables(s).iter().filter(|t| !t.2).count() == 2
        });
        let playing: Vec<_> = tables(&state).into_iter().filter(|t| !t.2).collect();
        let (game, seats, _) = &playing[0];
        let token = token_of(seats[0], &state);
        until_dealt(&server, *game, &token);
        let resigned = server.post(
            &format!("/api/v1/games/{game}/resign"),
            Some(&token),
            &json!({}),
        );
        assert_eq!(resigned.status, 200, "{resigned:?}");
        ended += 1;
        // Its two are free with nobody else: several sweeps later, they are still not seated.
        std::thread::sleep(Duration::from_millis(700));
        let state = read();
        let now: Vec<_> = tables(&state).into_iter().filter(|t| !t.2).collect();
        assert_eq!(now.len(), 1, "only the other table plays: {now:?}");
        // The other table ends too: all four are free, and two new tables are made.
        let (game, seats, _) = &now[0];
        let token = token_of(seats[1], &state);
        until_dealt(&server, *game, &token);
        let resigned = server.post(
            &format!("/api/v1/games/{game}/resign"),
            Some(&token),
            &json!({}),
        );
        assert_eq!(resigned.status, 200, "{resigned:?}");
        ended += 1;
    }
    // Nobody's two games in a row were against the same opponent.
    let state = read();
    let all = tables(&state);
    for entrant in all
        .iter()
        .flat_map(|t| t.1.clone())
        .collect::<BTreeSet<_>>()
    {
        let opponents: Vec<i64> = all
            .iter()
            .filter(|t| t.1.contains(&entrant))
            .map(|t| *t.1.iter().find(|&&e| e != entrant).unwrap())
            .collect();
        assert!(opponents.len() >= 4, "{entrant}: {opponents:?}");
        for pair in opponents.windows(2) {
            assert_ne!(
                pair[0], pair[1],
                "{entrant} met {} twice in a row: {opponents:?}",
                pair[0]
            );
        }
    }
}

on_both_backends!(an_arena_never_seats_players_again_with_the_table_they_just_left);
