//! Every game and variant of the catalogue in every format: a small tournament of each — Swiss
//! and duplicate of two tables, an arena of one table for a minute (of 15 seconds), and for
//! Tarneeb's variants a team match of two teams — all at once on one server, played out by
//! guests, and each checked against its stored games.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Server};
use crate::tournament_checks::{
    ARENA_MINUTE, SWEEP, check_arena, check_duplicate, check_swiss, enter, make, play_all,
    seated_once_a_round,
};
use crate::tournament_teams::check_teams;

/// One tournament made: its id, format, game, table size and whether its lowest total wins.
struct Made {
    id: i64,
    format: &'static str,
    game: String,
    table: usize,
    lower_wins: bool,
}

fn every_variant_in_every_format_plays_to_the_end(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP, ARENA_MINUTE]);
    let admin = admin_token(&server);
    let catalogue = server.get("/api/v1/games/kinds", None).body;
    let mut made = Vec::new();
    let mut entrants = Vec::new();
    for kind in catalogue["kinds"].as_array().unwrap() {
        for variant in kind["variants"].as_array().unwrap() {
            let table = variant["seats"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_u64)
                .min()
                .unwrap() as usize;
            // The shortest game the variant allows: every bounded option (a target, a number
            // of rounds, the move cap) at its least.
            let mut options = json!({});
            for option in variant["options"].as_array().unwrap() {
                if let Some(least) = option["min"].as_i64() {
                    options[option["name"].as_str().unwrap()] = json!(least);
                }
            }
            // Partnership games (Tarneeb) are team matches too.
            let teams = kind["kind"] == "tarneeb";
            let formats: &[&'static str] = if teams {
                &["swiss", "duplicate", "arena", "teams"]
            } else {
                &["swiss", "duplicate", "arena"]
            };
            for &format in formats {
                let mut body = json!({"name": format!("{} {}", kind["kind"], variant["name"]),
                    "format": format, "kind": kind["kind"], "variant": variant["name"],
                    "seats": table, "options": options});
                if format == "teams" {
                    body["format"] = json!("duplicate");
                    body["teams"] = json!(true);
                }
                if format == "arena" {
                    body["minutes"] = json!(1);
                } else {
                    body["rounds"] = json!(1);
                }
                let upcoming = make(&server, &admin, body);
                let id = upcoming.id;
                let n = if format == "arena" { table } else { 2 * table };
                entrants.extend(enter(&server, id, n, 0));
                upcoming.start(&server, &admin);
                made.push(Made {
                    id,
                    format,
                    game: format!("{} {}", kind["kind"], variant["name"]),
                    table,
                    lower_wins: kind["kind"] == "rummy" && variant["name"] == "classic",
                });
            }
        }
    }
    assert_eq!(
        made.len(),
        27 + 2,
        "nine variants, three formats; two Tarneeb team matches"
    );
    let ids: Vec<i64> = made.iter().map(|m| m.id).collect();
    let states = play_all(
        &[&server],
        &admin,
        &ids,
        &entrants,
        Duration::from_secs(480),
    );
    for (tournament, state) in made.iter().zip(&states) {
        let what = format!("{} {}", tournament.format, tournament.game);
        assert_eq!(state["status"], "finished", "{what}: {state}");
        seated_once_a_round(state, tournament.table);
        let rounds = state["round_tables"].as_array().unwrap();
        assert!(!rounds.is_empty(), "{what}");
        for line in state["standings"].as_array().unwrap() {
            let games = line["games"].as_i64().unwrap();
            if tournament.format == "arena" {
                assert!(games >= 1, "{what}: {line}");
            } else {
                assert_eq!(games, 1, "{what}: {line}");
            }
        }
        match tournament.format {
            "swiss" => {
                check_swiss(&server, &admin, state, tournament.lower_wins);
            }
            "duplicate" => check_duplicate(&server, &admin, state, tournament.lower_wins),
            "teams" => check_teams(&server, &admin, state, false),
            _ => check_arena(&server, &admin, state, tournament.lower_wins),
        }
    }
    // Every variant's games, results and tournament records hold to `cardroom check`.
    crate::backups::assert_sound(&server.database_url);
}

on_both_backends!(every_variant_in_every_format_plays_to_the_end);
