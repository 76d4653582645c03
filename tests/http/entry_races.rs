//! Entries racing a tournament's start, through two replicas on one PostgreSQL.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::support::{Backend, Server};
use crate::tournament_checks::SWEEP;
use crate::tournament_entry::create;

/// Joins racing the start, through two replicas on one PostgreSQL that both sweep: a hundred
/// tournaments (Swiss and duplicate, in turn) are made to start at once, with two entrants in
/// and two more joining — one through each replica, the second a moment later — while the
/// sweeps start them. Every join is either in before the start (200, and then seated or given a
/// bye in the first round) or refused after it (409 `tournament_closed`, and not an entrant):
/// never answered 200 and left out.
#[test]
fn joins_racing_the_start_through_two_replicas_are_seated_or_refused() {
    let a = Server::start_with(Backend::Postgres, &[ADMIN, SWEEP]);
    let b = a.replica(&[ADMIN, SWEEP]);
    let admin = admin_token(&a);
    let (mut in_time, mut too_late) = (0, 0);
    for round in 0..100 {
        let format = if round % 2 == 0 { "swiss" } else { "duplicate" };
        let made = create(
            &a,
            &admin,
            json!({"name": format!("Race {round}"), "format": format, "kind": "basra",
                   "options": {"target": 31}, "rounds": 1, "starts_in": 0}),
        );
        assert_eq!(made.status, 201, "{made:?}");
        let id = made.body["id"].as_i64().unwrap();
        // (Two in already, so that it starts; guests made before the race.)
        let first = [
            a.guest(&format!("r{round}a")),
            a.guest(&format!("r{round}b")),
        ];
        let racers = [
            a.guest(&format!("r{round}c")),
            a.guest(&format!("r{round}d")),
        ];
        for player in &first {
            let joined = a.post(
                &format!("/api/v1/tournaments/{id}/join"),
                Some(&player.token),
                &json!({}),
            );
            // (The sweep may start it already: then this round races nothing.)
            assert!(joined.status == 200 || joined.status == 409, "{joined:?}");
        }
        let answers: Vec<(String, u16)> = std::thread::scope(|scope| {
            let handles: Vec<_> = racers
                .iter()
                .zip([&a, &b])
                .enumerate()
                .map(|(i, (player, server))| {
                    scope.spawn(move || {
                        std::thread::sleep(Duration::from_millis(
                            (round * 37 % 160) as u64 * i as u64,
                        ));
                        let joined = server.post(
                            &format!("/api/v1/tournaments/{id}/join"),
                            Some(&player.token),
                            &json!({}),
                        );
                        assert!(joined.status == 200 || joined.status == 409, "{joined:?}");
                        if joined.status == 409 {
                            assert_eq!(joined.body["code"], "tournament_closed", "{joined:?}");
                        }
                        (format!("r{round}{}", ['c', 'd'][i]), joined.status)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        // Once it has started (or been called off, too few in), every answer holds.
        let state = loop {
            let state = a
                .get(&format!("/api/v1/tournaments/{id}"), Some(&admin))
                .body;
            if state["status"] != "upcoming" {
                break state;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let entrant_of = |name: &str| {
            state["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .map(|p| p["entrant_id"].clone())
        };
        let round_one = &state["round_tables"][0];
        let seated: Vec<Value> = round_one["tables"]
            .as_array()
            .map(|tables| {
                tables
                    .iter()
                    .flat_map(|t| t["seats"].as_array().unwrap().iter())
                    .map(|s| s["entrant_id"].clone())
                    .chain(round_one["byes"].as_array().unwrap().iter().cloned())
                    .collect()
            })
            .unwrap_or_default();
        for (name, status) in answers {
            match (status, entrant_of(&name)) {
                (200, Some(entrant)) => {
                    in_time += 1;
                    if state["status"] == "running" {
                        assert!(
                            seated.contains(&entrant),
                            "{name} joined, not seated: {state}"
                        );
                    }
                }
                (409, None) => too_late += 1,
                (status, entrant) => panic!("{name}: {status}, entrant {entrant:?}: {state}"),
            }
        }
    }
    // (Both sides of the race were met: some in before the start, some refused after it.)
    assert!(
        in_time > 0 && too_late > 0,
        "in time {in_time}, too late {too_late}"
    );
}
