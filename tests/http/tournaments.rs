//! Whole tournaments over HTTP — Swiss, duplicate and arena, of sixteen (or a few) entrants,
//! guests and bot accounts, computer players completing a short table — on SQLite and on
//! PostgreSQL with two replicas pairing at once; each checked by recomputing its standings
//! from the stored games, not from the tournament's own answer.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::programs::{api_token, through};
use crate::support::{Backend, Client, Player, Server};

/// Pairing looks every 150 ms in these tests (2 s by default).
pub(crate) const SWEEP: (&str, &str) = ("CARDROOM_SWEEP_MS", "150");

/// An entrant: their name and how they act (a guest's session, or a bot account's API token).
pub(crate) struct Entrant {
    pub(crate) name: String,
    pub(crate) player: Player,
}

/// `guests` guests and `bots` bot accounts (playing through API tokens), all entered in `id`.
pub(crate) fn enter(server: &Server, id: i64, guests: usize, bots: usize) -> Vec<Entrant> {
    let mut entrants = Vec::new();
    for i in 0..guests + bots {
        let name = format!("entrant{id}n{i}");
        let player = if i < guests {
            server.guest(&name)
        } else {
            let account = server.register(&name);
            let became = server.post("/api/v1/account/bot", Some(&account.token), &json!({}));
            assert_eq!(became.status, 200, "{became:?}");
            let token = api_token(server, &account, &["play", "read"]);
            through(&account, &token)
        };
        let joined = server.post(
            &format!("/api/v1/tournaments/{id}/join"),
            Some(&player.token),
            &json!({}),
        );
        assert_eq!(joined.status, 200, "{joined:?}");
        assert_eq!(joined.body["joined"], true);
        entrants.push(Entrant { name, player });
    }
    entrants
}

/// Makes a tournament as the admin, starting in a second.
pub(crate) fn make(server: &Client, admin: &str, body: Value) -> i64 {
    let mut body = body;
    body["starts_in"] = json!(1);
    let made = server.post("/api/v1/tournaments", Some(admin), &body);
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(made.body["status"], "upcoming");
    made.body["id"].as_i64().unwrap()
}

/// Plays every entrant's turns (the first legal move; dealing when a hand is over) through the
/// `servers` in turn, until the tournament is over. Returns its final state.
pub(crate) fn play_through(
    servers: &[&Client],
    admin: &str,
    id: i64,
    entrants: &[Entrant],
    limit: Duration,
) -> Value {
    let by_name: BTreeMap<&str, &Player> = entrants
        .iter()
        .map(|e| (e.name.as_str(), &e.player))
        .collect();
    let until = Instant::now() + limit;
    let mut turn = 0;
    loop {
        assert!(
            Instant::now() < until,
            "tournament {id} did not finish in time"
        );
        let server = servers[turn % servers.len()];
        turn += 1;
        let state = server.get(&format!("/api/v1/tournaments/{id}"), Some(admin));
        assert_eq!(state.status, 200, "{state:?}");
        let state = state.body;
        if state["status"] == "finished" || state["status"] == "cancelled" {
            return state;
        }
        let mut progressed = false;
        for round in state["round_tables"].as_array().unwrap() {
            for table in round["tables"].as_array().unwrap() {
                if table["over"] == true {
                    continue;
                }
                let game = table["game_id"].as_i64().unwrap();
                for seat in table["seats"].as_array().unwrap() {
                    let player = by_name[seat["name"].as_str().unwrap()];
                    progressed |= act_once(server, player, game);
                }
            }
        }
        if !progressed {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// One action of `player` at `game` if it is theirs to take; whether there was one.
fn act_once(server: &Client, player: &Player, game: i64) -> bool {
    let view = server.view(player, game);
    match view["status"].as_str() {
        Some("hand_over") => {
            let reply = server.post(
                &format!("/api/v1/games/{game}/deal"),
                Some(&player.token),
                &json!({}),
            );
            assert!(
                reply.status == 200 || reply.status == 409,
                "deal: {reply:?}"
            );
            true
        }
        Some("active") if view["to_act"] == view["your_seat"] => {
            let reply = server.play(player, &view, &view["legal_moves"][0]);
            assert!(
                reply.status == 200 || reply.body["code"] == "version_conflict",
                "move: {reply:?}"
            );
            true
        }
        _ => false,
    }
}

/// A finished game's sides, totals and winners, from the stored game (`/games/{id}/score`):
/// each seat's side place (winners first, then by total — lower first where `lower_wins`),
/// the points that place is worth (first of n sides n − 1, a shared place the average) and its
/// result (the side's total, negated where lower wins).
pub(crate) fn seat_results(
    server: &Client,
    token: &str,
    game: i64,
    lower_wins: bool,
) -> Vec<(usize, f64, i64, bool)> {
    let score = server.get(&format!("/api/v1/games/{game}/score"), Some(token));
    assert_eq!(score.status, 200, "{score:?}");
    let sides: Vec<Vec<i64>> = serde_json::from_value(score.body["sides"].clone()).unwrap();
    let totals: Vec<i64> = serde_json::from_value(score.body["totals"].clone()).unwrap();
    let winners: Vec<usize> =
        serde_json::from_value(score.body["outcome"]["winners"].clone()).unwrap();
    let sign = if lower_wins { -1 } else { 1 };
    let key = |side: usize| (winners.contains(&side), sign * totals[side]);
    let n = sides.len();
    let place = |side: usize| (0..n).filter(|&o| key(o) > key(side)).count();
    let points = |side: usize| {
        let below = (0..n).filter(|&o| place(o) > place(side)).count();
        let tied = (0..n).filter(|&o| place(o) == place(side)).count() - 1;
        below as f64 + tied as f64 / 2.0
    };
    let alone_first = (0..n).filter(|&o| place(o) == 0).count() == 1;
    let mut out = vec![(0, 0.0, 0, false); sides.iter().map(Vec::len).sum()];
    for (side, seats) in sides.iter().enumerate() {
        for &seat in seats {
            out[seat as usize] = (
                place(side),
                points(side),
                sign * totals[side],
                place(side) == 0 && alone_first,
            );
        }
    }
    out
}

/// Every round seats each entrant at most once, at tables of the tournament's size.
fn seated_once_a_round(state: &Value, seats: usize) {
    for round in state["round_tables"].as_array().unwrap() {
        let mut seen = BTreeSet::new();
        for table in round["tables"].as_array().unwrap() {
            let at = table["seats"].as_array().unwrap();
            assert!(!at.is_empty() && at.len() <= seats, "{table}");
            for seat in at {
                assert!(seen.insert(seat["entrant_id"].as_i64().unwrap()), "{round}");
            }
        }
        for bye in round["byes"].as_array().unwrap() {
            assert!(seen.insert(bye.as_i64().unwrap()), "{round}");
        }
    }
}

/// The standings' points, by name.
fn points_of(state: &Value) -> BTreeMap<String, f64> {
    state["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["points"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The ranks follow the points (Swiss: then Buchholz, then Sonneborn–Berger).
fn ranked(state: &Value) {
    let lines = state["standings"].as_array().unwrap();
    let key = |s: &Value| {
        [
            s["points"].as_f64().unwrap(),
            s["buchholz"].as_f64().unwrap_or(0.0),
            s["sonneborn_berger"].as_f64().unwrap_or(0.0),
        ]
    };
    for pair in lines.windows(2) {
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a >= b, "{pair:?}");
        let (ra, rb) = (pair[0]["rank"].as_i64(), pair[1]["rank"].as_i64());
        assert_eq!(a == b, ra == rb, "{pair:?}");
    }
}

/// A Swiss tournament of 16 (12 guests, 4 bot accounts) at Basra, three rounds, played through
/// `servers`; checked against the stored games.
pub(crate) fn whole_swiss(primary: &Server, servers: &[&Client]) {
    let admin = admin_token(primary);
    let id = make(
        primary,
        &admin,
        json!({"name": "Friday Basra", "format": "swiss", "kind": "basra",
               "options": {"target": 31}, "rounds": 3}),
    );
    let entrants = enter(primary, id, 12, 4);
    // A bot account hears of its tables on its account stream.
    let bot_events = primary.ndjson("/api/v1/stream/events", &entrants[15].player.token);
    let state = play_through(servers, &admin, id, &entrants, Duration::from_secs(240));
    assert_eq!(state["status"], "finished");
    assert_eq!(state["round"], 3);
    seated_once_a_round(&state, 2);
    let rounds = state["round_tables"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    // No two entrants meet twice: sixteen can avoid it for three rounds.
    let mut met = BTreeSet::new();
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    let mut opponents: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for round in rounds {
        assert_eq!(round["tables"].as_array().unwrap().len(), 8, "{round}");
        for table in round["tables"].as_array().unwrap() {
            let game = table["game_id"].as_i64().unwrap();
            let seats = table["seats"].as_array().unwrap();
            let names: Vec<String> = seats
                .iter()
                .map(|s| s["name"].as_str().unwrap().to_owned())
                .collect();
            assert!(
                met.insert((names[0].clone(), names[1].clone())),
                "{names:?} met again"
            );
            met.insert((names[1].clone(), names[0].clone()));
            let results = seat_results(primary, &admin, game, false);
            for seat in seats {
                let at = seat["seat"].as_u64().unwrap() as usize;
                let name = seat["name"].as_str().unwrap().to_owned();
                assert_eq!(seat["place"], results[at].0, "{table}");
                assert_eq!(seat["result"], results[at].2, "{table}");
                *points.entry(name.clone()).or_default() += results[at].1;
                let other = names.iter().find(|n| **n != name).unwrap().clone();
                opponents.entry(name).or_default().push(other);
            }
        }
    }
    assert_eq!(
        points_of(&state),
        points,
        "standings = the stored games' points"
    );
    for line in state["standings"].as_array().unwrap() {
        let name = line["name"].as_str().unwrap();
        let buchholz: f64 = opponents[name].iter().map(|o| points[o]).sum();
        assert_eq!(line["buchholz"].as_f64(), Some(buchholz), "{line}");
        assert_eq!(line["games"], 3);
    }
    ranked(&state);
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
}

/// A duplicate tournament of 16 at 31 (tables of three): five tables and one entrant completed
/// by two computer players each round; every table of a round deals the same cards; nobody
/// watches a round's tables until it is over; matchpoints as recomputed.
fn a_whole_duplicate_tournament_of_sixteen_every_table_dealt_alike(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let id = make(
        &server,
        &admin,
        json!({"name": "Duplicate 31", "format": "duplicate", "kind": "thirty_one",
               "seats": 3, "rounds": 2, "fill": "easy"}),
    );
    let entrants = enter(&server, id, 14, 2);
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
    let state = play_through(&[&server], &admin, id, &entrants, Duration::from_secs(240));
    assert_eq!(state["status"], "finished");
    seated_once_a_round(&state, 3);
    let mut percentages: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for round in state["round_tables"].as_array().unwrap() {
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 6, "{round}");
        let short = tables
            .iter()
            .filter(|t| t["seats"].as_array().unwrap().len() == 1)
            .count();
        assert_eq!(short, 1, "one entrant with two computer players: {round}");
        // The same first deal at every table (the commitment to its seed).
        let commitments: BTreeSet<String> = tables
            .iter()
            .map(|t| {
                let log = server.get(&format!("/api/v1/games/{}/log", t["game_id"]), Some(&admin));
                log.body["deals"][0]["commitment"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(commitments.len(), 1, "{commitments:?}");
        // Matchpoints: each seat's result against the same seat at every other table.
        let mut by_seat: BTreeMap<usize, Vec<(String, i64, f64)>> = BTreeMap::new();
        for table in tables {
            let game = table["game_id"].as_i64().unwrap();
            // The round is over: anyone may watch now.
            let watched = server.get(&format!("/api/v1/games/{game}"), Some(&outsider.token));
            assert_eq!(watched.status, 200, "{watched:?}");
            let results = seat_results(&server, &admin, game, false);
            for seat in table["seats"].as_array().unwrap() {
                let at = seat["seat"].as_u64().unwrap() as usize;
                let name = seat["name"].as_str().unwrap().to_owned();
                let shown = seat["matchpoints"].as_f64().unwrap();
                by_seat
                    .entry(at)
                    .or_default()
                    .push((name, results[at].2, shown));
            }
        }
        for results in by_seat.values() {
            for (name, mine, shown) in results {
                let others = results.len() - 1;
                let earned: f64 = results
                    .iter()
                    .filter(|(n, _, _)| n != name)
                    .map(|(_, theirs, _)| match mine.cmp(theirs) {
                        std::cmp::Ordering::Greater => 2.0,
                        std::cmp::Ordering::Equal => 1.0,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum();
                let expected = if others == 0 {
                    50.0
                } else {
                    100.0 * earned / (2.0 * others as f64)
                };
                assert!(
                    (expected - shown).abs() < 1e-9,
                    "{name}: {expected} vs {shown}"
                );
                percentages.entry(name.clone()).or_default().push(expected);
            }
        }
    }
    let expected: BTreeMap<String, f64> = percentages
        .iter()
        .map(|(name, boards)| {
            (
                name.clone(),
                boards.iter().sum::<f64>() / boards.len() as f64,
            )
        })
        .collect();
    let shown = points_of(&state);
    for (name, value) in &expected {
        assert!(
            (shown[name] - value).abs() < 1e-9,
            "{name}: {value} vs {}",
            shown[name]
        );
    }
    ranked(&state);
}

/// A one-minute arena at Basra of five: whoever is free is seated at once; the points follow
/// the games in the order they were paired (2 a win, 4 after two wins in a row).
fn an_arena_pairs_whoever_is_free_and_scores_streaks(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let id = make(
        &server,
        &admin,
        json!({"name": "Quick arena", "format": "arena", "kind": "basra",
               "options": {"target": 31}, "minutes": 1}),
    );
    let entrants = enter(&server, id, 4, 1);
    let state = play_through(&[&server], &admin, id, &entrants, Duration::from_secs(150));
    assert_eq!(state["status"], "finished");
    let rounds = state["round_tables"].as_array().unwrap();
    assert!(
        rounds.len() >= 3,
        "several pairings in a minute: {}",
        rounds.len()
    );
    seated_once_a_round(&state, 2);
    let mut streak: BTreeMap<String, u32> = BTreeMap::new();
    let mut points: BTreeMap<String, f64> =
        entrants.iter().map(|e| (e.name.clone(), 0.0)).collect();
    for round in rounds {
        for table in round["tables"].as_array().unwrap() {
            let results = seat_results(&server, &admin, table["game_id"].as_i64().unwrap(), false);
            let shared_first = results.iter().filter(|r| r.0 == 0).count() > 1;
            for seat in table["seats"].as_array().unwrap() {
                let name = seat["name"].as_str().unwrap().to_owned();
                let (place, _, _, alone) = results[seat["seat"].as_u64().unwrap() as usize];
                let run = streak.entry(name.clone()).or_default();
                let gained = if alone {
                    let worth = if *run >= 2 { 4.0 } else { 2.0 };
                    *run += 1;
                    worth
                } else {
                    *run = 0;
                    if place == 0 && shared_first { 1.0 } else { 0.0 }
                };
                assert_eq!(seat["points"].as_f64(), Some(gained), "{table}");
                *points.get_mut(&name).unwrap() += gained;
            }
        }
    }
    assert_eq!(points_of(&state), points);
    ranked(&state);
}

on_both_backends!(
    a_whole_swiss_tournament_of_sixteen_standings_as_recomputed,
    a_whole_duplicate_tournament_of_sixteen_every_table_dealt_alike,
    an_arena_pairs_whoever_is_free_and_scores_streaks,
);

/// Two replicas on one PostgreSQL both pair (each sweeping every 150 ms) and the moves go
/// through both: each round is paired exactly once — no game beyond the rounds' tables is
/// ever made (a losing pairing's games are undone with it) — and the standings are as
/// recomputed.
#[test]
fn two_replicas_pair_each_round_exactly_once() {
    let a = Server::start_with(Backend::Postgres, &[ADMIN, SWEEP]);
    let b = a.replica(&[ADMIN, SWEEP]);
    whole_swiss(&a, &[&a, &b]);
    let pool = cardroom_db::connect(&a.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut pooled = pool.get().unwrap();
    let conn: &mut cardroom_db::AnyConnection = &mut pooled;
    use diesel::prelude::*;
    let games: i64 = cardroom_db::schema::games::table
        .count()
        .get_result(conn)
        .unwrap();
    assert_eq!(games, 24, "three rounds of eight tables, and nothing else");
}
