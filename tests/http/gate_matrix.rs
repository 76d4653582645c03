//! The gate, as a matrix: every GET operation of the OpenAPI document that reads one game (and
//! the tournament's), crossed with every reader — a seat's player, someone else signed in, a
//! player at the other table of the same duplicate board, a stranger with no token, an admin —
//! and every state a game can be read in: a public and a private game being played, the same
//! finished, the two tables of a duplicate round (one over, one still played), and a finished
//! table of a Swiss tournament still running. Each answer is held to one table of
//! expectations ([`expected`]), and every answer given is searched for a seed its reader may
//! not know: the game's seed outside its export, a deal's seed before its hand is over, and any
//! seed of a board still being played at another table.

use std::collections::BTreeSet;
use std::time::Duration;

use cardroom_core::rng::{Seed, Stream};
use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, Server};
use crate::tournament_checks::{SWEEP, make, tournament_until, until_dealt};

/// Who reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Seat,
    Other,
    OtherTable,
    Stranger,
    Admin,
}

/// A game in one state, and who is who to it.
struct State {
    name: &'static str,
    game: i64,
    public: bool,
    finished: bool,
    /// A duplicate round's table while another table of the round still plays.
    sealed: bool,
    seat: Player,
    /// A player at another table of the same round (tournament states only).
    other_table: Option<Player>,
    tournament: Option<i64>,
}

/// The game reads the matrix covers: the operation, and the path after `/games/{id}` (admin
/// reads in full). Every GET operation on `/games/{id}…` and `/admin/games/{id}…` must be here.
const OPERATIONS: [(&str, &str); 11] = [
    ("get_game", ""),
    ("game_events", "/events?after=0&wait=0"),
    ("get_chat", "/chat"),
    ("get_score", "/score"),
    ("get_game_log", "/log"),
    ("export_game", "/export"),
    ("export_game", "/export?format=text"),
    ("get_game_analysis", "/analysis"),
    ("get_invitation", "/invitation"),
    ("admin_get_game", "admin"),
    ("admin_get_replay", "admin/replay"),
];

/// The one table of expectations: the status `role` is answered for `operation` on a game in
/// `state`, and the problem code with it.
fn expected(operation: &str, state: &State, role: Role) -> (u16, Option<&'static str>) {
    let not_theirs = || match role {
        Role::Stranger => (401, None),
        _ => (403, None),
    };
    // The table as it is played: its seats, and anyone at all for a public one.
    let reads = || match role {
        Role::Seat => (200, None),
        _ if state.public => (200, None),
        _ => not_theirs(),
    };
    // The whole game (every hand): once it is over and its board no longer played elsewhere.
    let whole = || {
        if !state.finished {
            (409, Some("game_not_finished"))
        } else if state.sealed {
            (409, Some("board_in_play"))
        } else {
            (200, None)
        }
    };
    match operation {
        "get_game" | "game_events" | "get_chat" | "get_score" => reads(),
        "get_game_log" if role == Role::Stranger => (401, None),
        "get_game_log" => reads(),
        "export_game" => match role {
            Role::Seat | Role::Admin => whole(),
            _ => not_theirs(),
        },
        "get_game_analysis" => match role {
            Role::Seat | Role::Admin => whole(),
            _ if state.public => whole(),
            _ => not_theirs(),
        },
        // (Without the table's code: a public table's invitation is anyone's.)
        "get_invitation" if state.public => (200, None),
        "get_invitation" => (403, None),
        "admin_get_game" | "admin_get_replay" => match role {
            Role::Admin => (200, None),
            _ => not_theirs(),
        },
        other => panic!("no expectation for {other}"),
    }
}

fn token<'a>(state: &'a State, role: Role, other: &'a Player, admin: &'a str) -> Option<&'a str> {
    match role {
        Role::Seat => Some(state.seat.token.as_str()),
        Role::Other => Some(other.token.as_str()),
        Role::OtherTable => state.other_table.as_ref().map(|p| p.token.as_str()),
        Role::Stranger => None,
        Role::Admin => Some(admin),
    }
}

/// The seeds of game `id` nobody may read (`true`: in the export either) as `state` stands:
/// the game's seed, and every deal's seed the admin console does not show revealed (a board
/// still played elsewhere: every one).
fn secrets(server: &Server, admin: &str, state: &State) -> Vec<(String, bool)> {
    let whole = server.get(&format!("/api/v1/admin/games/{}", state.game), Some(admin));
    assert_eq!(whole.status, 200, "{whole:?}");
    let game_seed = whole.body["seed"].as_str().unwrap().to_owned();
    let revealed: BTreeSet<String> = whole.body["deals"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["seed"].as_str().map(str::to_owned))
        .collect();
    let seed = Seed::from_hex(&game_seed).unwrap();
    let mut secret = vec![(game_seed, !state.finished || state.sealed)];
    for i in 0..30 {
        let deal = seed.derive(Stream::Deal(i)).to_hex();
        if state.sealed || !revealed.contains(&deal) {
            secret.push((deal, true));
        }
    }
    secret
}

/// A tournament of four registered players at Basra (two tables), its first round paired:
/// the tournament, the two tables, and a player at each.
fn two_tables(server: &Server, admin: &str, format: &str, tag: &str) -> (i64, [(i64, Player); 2]) {
    let made = make(
        server,
        admin,
        json!({"name": format!("Gate {tag}"), "format": format, "kind": "basra",
               "options": {"target": 31}, "rounds": 2}),
    );
    let id = made.id;
    let mut players = Vec::new();
    for i in 0..4 {
        let name = format!("{tag}{i}");
        let player = server.register(&name);
        let joined = server.post(
            &format!("/api/v1/tournaments/{id}/join"),
            Some(&player.token),
            &json!({}),
        );
        assert_eq!(joined.status, 200, "{joined:?}");
        players.push((name, player));
    }
    made.start(server, admin);
    let state = tournament_until(server, admin, id, |s| {
        s["round_tables"][0]["tables"]
            .as_array()
            .is_some_and(|t| t.len() == 2)
    });
    let table = |t: usize| {
        let table = &state["round_tables"][0]["tables"][t];
        let entrant = &table["seats"][0]["entrant_id"];
        let name = state["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| &p["entrant_id"] == entrant)
            .unwrap()["name"]
            .clone();
        let player = players
            .iter()
            .find(|(n, _)| json!(n) == name)
            .unwrap()
            .1
            .clone();
        (table["game_id"].as_i64().unwrap(), player)
    };
    let tables = [table(0), table(1)];
    // (A table is dealt after it is paired: resigning before would abandon it.)
    for (game, player) in &tables {
        until_dealt(server, *game, &player.token);
    }
    (id, tables)
}

fn every_read_of_a_game_answers_each_reader_as_the_gate_says(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let other = server.register("bystander");

    // Every game read in the document is in the matrix.
    let document: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../openapi/openapi.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let covered: BTreeSet<&str> = OPERATIONS.iter().map(|(op, _)| *op).collect();
    for (path, item) in document["paths"].as_object().unwrap() {
        if let Some(get) = item.get("get")
            && (path.starts_with("/api/v1/games/{id}")
                || path.starts_with("/api/v1/admin/games/{id}"))
        {
            let op = get["operationId"].as_str().unwrap();
            assert!(
                covered.contains(op),
                "{op} ({path}) is not in the gate's matrix"
            );
        }
    }

    // The states.
    let mut states = Vec::new();
    for (public, finished, name) in [
        (true, false, "a public game being played"),
        (false, false, "a private game being played"),
        (true, true, "a public game over"),
        (false, true, "a private game over"),
    ] {
        let seat = server.register(&format!("seat{}{}", u8::from(public), u8::from(finished)));
        let (game, _) = server.create(
            &seat,
            json!({"kind": "basra", "options": {"target": 31},
                   "seats": [{}, {"bot": "easy"}],
                   "visibility": if public { "public" } else { "private" }}),
        );
        if finished {
            let resigned = server.post(
                &format!("/api/v1/games/{game}/resign"),
                Some(&seat.token),
                &json!({}),
            );
            assert_eq!(resigned.status, 200, "{resigned:?}");
        }
        states.push(State {
            name,
            game,
            public,
            finished,
            sealed: false,
            seat,
            other_table: None,
            tournament: None,
        });
    }
    // A duplicate round: table A over, table B still played.
    let (duplicate, [(a, at_a), (b, at_b)]) = two_tables(&server, &admin, "duplicate", "dup");
    let resigned = server.post(
        &format!("/api/v1/games/{a}/resign"),
        Some(&at_a.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    states.push(State {
        name: "a duplicate table over, its board still played",
        game: a,
        public: false,
        finished: true,
        sealed: true,
        seat: at_a.clone(),
        other_table: Some(at_b.clone()),
        tournament: Some(duplicate),
    });
    states.push(State {
        name: "a duplicate table still played",
        game: b,
        public: false,
        finished: false,
        sealed: true,
        seat: at_b,
        other_table: Some(at_a),
        tournament: Some(duplicate),
    });
    // A Swiss round: one table over while the tournament runs.
    let (swiss, [(c, at_c), (_, at_d)]) = two_tables(&server, &admin, "swiss", "swiss");
    let resigned = server.post(
        &format!("/api/v1/games/{c}/resign"),
        Some(&at_c.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    states.push(State {
        name: "a Swiss table over while the tournament runs",
        game: c,
        public: true,
        finished: true,
        sealed: false,
        seat: at_c,
        other_table: Some(at_d),
        tournament: Some(swiss),
    });
    // (The sweep records what it may of the tables over.)
    std::thread::sleep(Duration::from_millis(600));

    let mut cells = 0;
    for state in &states {
        let secret = secrets(&server, &admin, state);
        for role in [
            Role::Seat,
            Role::Other,
            Role::OtherTable,
            Role::Stranger,
            Role::Admin,
        ] {
            if role == Role::OtherTable && state.other_table.is_none() {
                continue;
            }
            let token = token(state, role, &other, &admin);
            for (operation, tail) in OPERATIONS {
                let path = match tail.strip_prefix("admin") {
                    Some(rest) => format!("/api/v1/admin/games/{}{rest}", state.game),
                    None => format!("/api/v1/games/{}{tail}", state.game),
                };
                let reply = server.get(&path, token);
                let (status, code) = expected(operation, state, role);
                let cell = format!("{} · {role:?} · GET {path}", state.name);
                assert_eq!(reply.status, status, "{cell}: {reply:?}");
                if let Some(code) = code {
                    assert_eq!(reply.body["code"], code, "{cell}: {reply:?}");
                }
                // No seed its reader may not know, in any answer (the admin console shows
                // every game whole, as the docs say).
                if reply.status == 200 && !operation.starts_with("admin_") {
                    let text = reply.body.to_string();
                    for (seed, even_in_export) in &secret {
                        let allowed = operation == "export_game" && !even_in_export;
                        assert!(
                            allowed || !text.contains(seed.as_str()),
                            "{cell} gives the seed {seed}"
                        );
                    }
                }
                cells += 1;
            }
            // The tournament, as each reads it: no result on a board still being played.
            if let Some(id) = state.tournament {
                let reply = server.get(&format!("/api/v1/tournaments/{id}"), token);
                assert_eq!(reply.status, 200, "{} · {role:?}: {reply:?}", state.name);
                let told: Vec<&Value> = reply.body["round_tables"][0]["tables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|t| t["seats"].as_array().unwrap())
                    .filter(|s| !s["place"].is_null() || !s["matchpoints"].is_null())
                    .collect();
                if state.sealed {
                    assert!(
                        told.is_empty(),
                        "{} · {role:?}: results told: {told:?}",
                        state.name
                    );
                } else {
                    assert_eq!(
                        told.len(),
                        2,
                        "{} · {role:?}: the table over is told",
                        state.name
                    );
                }
                cells += 1;
            }
        }
    }
    println!("the gate's matrix: {cells} cells");
}

on_both_backends!(every_read_of_a_game_answers_each_reader_as_the_gate_says);
