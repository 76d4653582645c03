//! A duplicate round deals the same board at every table: until its last table is over,
//! nobody learns the board — not its seeds, not a table's whole record or analysis, not any
//! table's result on it — however they read, the players of a table already over and admins
//! included. Then every reader learns what they may of a finished game.

use std::time::Duration;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, Server};
use crate::tournament_checks::{Entrant, SWEEP, make, tournament_until, until_dealt};

/// The tournament's state, as `token` reads it.
fn state(server: &Server, token: Option<&str>, id: i64) -> Value {
    let reply = server.get(&format!("/api/v1/tournaments/{id}"), token);
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.body
}

/// The players seated at `table` (a `round_tables` table), as entrants.
fn players_at<'a>(table: &Value, entrants: &'a [Entrant], names: &Value) -> Vec<&'a Player> {
    table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| {
            let name = names
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["entrant_id"] == seat["entrant_id"])
                .unwrap()["name"]
                .clone();
            &entrants.iter().find(|e| e.name == name).unwrap().player
        })
        .collect()
}

/// Every result a tournament's answer tells of round `round`: none while its board is sealed.
fn results_of_round(state: &Value, round: usize) -> Vec<Value> {
    let mut told = Vec::new();
    for table in state["round_tables"][round - 1]["tables"]
        .as_array()
        .unwrap()
    {
        for seat in table["seats"].as_array().unwrap() {
            for field in ["place", "result", "matchpoints", "points", "board"] {
                if !seat[field].is_null() {
                    told.push(json!({ field: seat[field].clone() }));
                }
            }
        }
    }
    told
}

fn a_board_is_sealed_until_its_last_table_is_over(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP, crate::analysis::ANALYSIS]);
    let admin = admin_token(&server);
    let made = make(
        &server,
        &admin,
        json!({"name": "Sealed board", "format": "duplicate", "kind": "basra",
               "options": {"target": 31}, "rounds": 2}),
    );
    let id = made.id;
    // Registered players: their games are rated, and their profiles are anyone's to read.
    let entrants: Vec<Entrant> = (0..4)
        .map(|i| {
            let name = format!("sealed{i}");
            let player = server.register(&name);
            let joined = server.post(
                &format!("/api/v1/tournaments/{id}/join"),
                Some(&player.token),
                &json!({}),
            );
            assert_eq!(joined.status, 200, "{joined:?}");
            Entrant { name, player }
        })
        .collect();
    made.start(&server, &admin);
    let paired = tournament_until(&server, &admin, id, |s| {
        s["round_tables"][0]["tables"]
            .as_array()
            .is_some_and(|t| t.len() == 2)
    });
    let tables = paired["round_tables"][0]["tables"].as_array().unwrap();
    let (a, b) = (
        tables[0]["game_id"].as_i64().unwrap(),
        tables[1]["game_id"].as_i64().unwrap(),
    );
    let at_a = players_at(&tables[0], &entrants, &paired["players"]);
    let at_b = players_at(&tables[1], &entrants, &paired["players"]);
    let outsider = server.guest("outsider");

    // Table A is over at once: one of its players resigns (once it is dealt). B plays on.
    until_dealt(&server, a, &at_a[0].token);
    let resigned = server.post(
        &format!("/api/v1/games/{a}/resign"),
        Some(&at_a[0].token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let view = server.get(&format!("/api/v1/games/{a}"), Some(&at_a[1].token));
    assert_eq!(view.body["status"], "finished", "{view:?}");
    // (The sweep has had time to record A's result, which stays untold.)
    std::thread::sleep(Duration::from_millis(600));

    // Nobody reads A whole: its players (winner and loser), admins; the others are not let in.
    let whole = |path: &str, token: Option<&str>| server.get(path, token);
    for path in [
        format!("/api/v1/games/{a}/export"),
        format!("/api/v1/games/{a}/export?format=text"),
        format!("/api/v1/games/{a}/analysis"),
    ] {
        for (who, token) in [
            ("A's loser", Some(at_a[0].token.as_str())),
            ("A's winner", Some(at_a[1].token.as_str())),
            ("an admin", Some(admin.as_str())),
        ] {
            let reply = whole(&path, token);
            assert_eq!(reply.status, 409, "{who} {path}: {reply:?}");
            assert_eq!(
                reply.body["code"], "board_in_play",
                "{who} {path}: {reply:?}"
            );
        }
        for (who, token, status) in [
            ("B's player", Some(at_b[0].token.as_str()), 403),
            ("an outsider", Some(outsider.token.as_str()), 403),
            ("a stranger", None, 401),
        ] {
            let reply = whole(&path, token);
            assert_eq!(reply.status, status, "{who} {path}: {reply:?}");
        }
    }
    // A's log gives every deal's commitment but no seed; B's commitments are the same board.
    let log_a = server.get(&format!("/api/v1/games/{a}/log"), Some(&at_a[1].token));
    assert_eq!(log_a.status, 200, "{log_a:?}");
    let deals_a = log_a.body["deals"].as_array().unwrap().clone();
    assert!(!deals_a.is_empty());
    assert!(
        deals_a
            .iter()
            .all(|d| d["seed"].is_null() && d["practice_deck"].is_null()),
        "a seed of a board still played: {deals_a:?}"
    );
    let log_b = server.get(&format!("/api/v1/games/{b}/log"), Some(&at_b[0].token));
    assert_eq!(log_b.status, 200, "{log_b:?}");
    assert_eq!(
        log_b.body["deals"][0]["commitment"], deals_a[0]["commitment"],
        "the two tables play one board"
    );
    for (who, token) in [
        ("B's player", &at_b[0].token),
        ("an outsider", &outsider.token),
    ] {
        let reply = server.get(&format!("/api/v1/games/{a}/log"), Some(token));
        assert_eq!(reply.status, 403, "{who}: {reply:?}");
    }
    // No result on the board is told, to anyone who reads the tournament.
    for (who, token) in [
        ("an admin", Some(admin.as_str())),
        ("A's winner", Some(at_a[1].token.as_str())),
        ("B's player", Some(at_b[0].token.as_str())),
        ("a stranger", None),
    ] {
        let now = state(&server, token, id);
        assert_eq!(
            results_of_round(&now, 1),
            Vec::<Value>::new(),
            "{who}: {now}"
        );
        for line in now["standings"].as_array().unwrap() {
            assert_eq!(line["games"], 0, "{who}: {line}");
            assert_eq!(line["points"], 0.0, "{who}: {line}");
        }
    }

    // No profile tells A's result either: not its record, its recent games, or a rating.
    let profile = |name: &str| {
        let reply = server.get(&format!("/api/v1/players/{name}"), None);
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body
    };
    for entrant in &entrants {
        let seen = profile(&entrant.name);
        for field in ["records", "ratings", "history", "recent_games"] {
            assert_eq!(seen[field], json!([]), "{}'s {field}: {seen}", entrant.name);
        }
    }

    // B ends too: the round is over, and the board is everyone's to read.
    let resigned = server.post(
        &format!("/api/v1/games/{b}/resign"),
        Some(&at_b[0].token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let after = tournament_until(&server, &admin, id, |s| !results_of_round(s, 1).is_empty());
    assert_eq!(
        results_of_round(&after, 1).len(),
        12,
        "each seat's place, result and matchpoints, all at once: {after}"
    );
    let export = server.get(&format!("/api/v1/games/{a}/export"), Some(&at_a[0].token));
    assert_eq!(export.status, 200, "{export:?}");
    let seed = export.body["deals"][0]["seed"]
        .as_str()
        .expect("a seed, told now");
    let seed = (0..seed.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&seed[i..i + 2], 16).unwrap())
        .collect::<Vec<u8>>();
    let commitment: String = Sha256::digest(&seed)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(json!(commitment), log_b.body["deals"][0]["commitment"]);
    let log_a = server.get(&format!("/api/v1/games/{a}/log"), Some(&at_a[1].token));
    assert!(log_a.body["deals"][0]["seed"].is_string(), "{log_a:?}");
    let analysis = server.get(&format!("/api/v1/games/{a}/analysis"), Some(&at_a[1].token));
    assert_eq!(analysis.status, 200, "{analysis:?}");
    // And anyone may watch it now; the four are rated, and their profiles say so.
    let watched = server.get(&format!("/api/v1/games/{a}"), None);
    assert_eq!(watched.status, 200, "{watched:?}");
    for entrant in &entrants {
        let seen = profile(&entrant.name);
        assert_eq!(seen["recent_games"].as_array().unwrap().len(), 1, "{seen}");
        assert_eq!(seen["ratings"][0]["games"], 1, "{seen}");
    }
}

on_both_backends!(a_board_is_sealed_until_its_last_table_is_over);
