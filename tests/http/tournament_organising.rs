//! Running a tournament as its organiser: every field of a new one checked, its terms changed
//! before the start, called off with a reason (before the start and while it runs), who may do
//! either, and what every reader — a stranger with no token included — then reads of it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Server};
use crate::tournament_checks::{SWEEP, enter, make};
use crate::tournament_entry::{create, wait_for};

fn path(id: i64) -> String {
    format!("/api/v1/tournaments/{id}")
}

/// Every field of a new tournament is checked, and a refusal makes nothing.
fn every_field_is_checked(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let base = json!({"name": "Checked", "format": "swiss", "kind": "basra"});
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    for body in [
        with("name", json!("")),
        with("name", json!("   ")),
        with("name", json!("x".repeat(61))),
        with("name", json!("tab\there")),
        with("name", json!("gg \u{202E}won")),
        with("variant", json!("classic")),
        with("seats", json!(5)),
        with("seats", json!(-2)),
        with("seats", json!(1_000_000_000_000i64)),
        with("rounds", json!(0)),
        with("rounds", json!(21)),
        with("minutes", json!(30)),
        with("starts_in", json!(-1)),
        with("starts_in", json!(2_592_001)),
        with("starts_at", json!("2099-01-01T00:00:00Z")),
        // (A start that has passed is refused: beyond a minute ago, and the year 0.)
        with("starts_at", json!("0000-01-01T00:00:00Z")),
        with("starts_at", json!("2026-01-01T00:00:00Z")),
        with(
            "starts_at",
            json!((chrono::Utc::now() - chrono::Duration::seconds(90)).to_rfc3339()),
        ),
        with("fill", json!("grandmaster")),
        with("turn", json!({"seconds": 2})),
        with("turn", json!({"seconds": 60, "takeover_after": 11})),
        with("options", json!({"target": 5})),
        with("options", json!({"no_such_rule": true})),
        json!({"name": "Each alone", "format": "duplicate", "kind": "basra", "seats": 4,
               "options": {"partnerships": false}, "teams": true}),
        json!({"name": "Arena", "format": "arena", "kind": "basra", "rounds": 3}),
        json!({"name": "Arena", "format": "arena", "kind": "basra", "minutes": 0}),
        json!({"name": "Both", "format": "swiss", "kind": "basra", "starts_in": 5,
               "starts_at": "2026-01-01T00:00:00Z"}),
    ] {
        create(&server, &admin, body.clone()).assert_problem(422, "validation_failed");
    }
    for body in [
        with("format", json!("knockout")),
        with("kind", json!("chess")),
        with("surprise", json!(1)),
        with("rated", json!("yes")),
    ] {
        let reply = create(&server, &admin, body.clone());
        assert!(
            reply.status == 400 || reply.status == 422,
            "{body}: {reply:?}"
        );
        assert!(reply.body["code"].is_string(), "{reply:?}");
    }
    // Nothing was made by any of them.
    let listed = server.get("/api/v1/tournaments", Some(&admin));
    assert_eq!(listed.body["tournaments"], json!([]));
    // A start sent a few seconds late (a slow form, a clock behind) is now.
    let late = with(
        "starts_at",
        json!((chrono::Utc::now() - chrono::Duration::seconds(20)).to_rfc3339()),
    );
    let made = create(&server, &admin, late);
    assert_eq!(made.status, 201, "{made:?}");
    let cancelled = server.post(
        &format!("/api/v1/tournaments/{}/cancel", made.body["id"]),
        Some(&admin),
        &json!({"reason": "only a check of the start"}),
    );
    assert_eq!(cancelled.status, 200, "{cancelled:?}");
    server
        .get("/api/v1/tournaments?status=open", Some(&admin))
        .assert_problem(422, "validation_failed");
    server
        .get("/api/v1/tournaments/x1", Some(&admin))
        .assert_problem(404, "not_found");
    server
        .post("/api/v1/tournaments/99/join", Some(&admin), &json!({}))
        .assert_problem(404, "not_found");
    // Every kind, variant and table size of the catalogue, in each format, is accepted.
    let catalogue = server.get("/api/v1/games/kinds", None);
    assert_eq!(catalogue.status, 200, "{catalogue:?}");
    let mut made = 0;
    for kind in catalogue.body["kinds"].as_array().unwrap() {
        for variant in kind["variants"].as_array().unwrap() {
            for seats in variant["seats"].as_array().unwrap() {
                for format in ["swiss", "duplicate", "arena"] {
                    let body = json!({"name": "Every", "format": format, "kind": kind["kind"],
                                      "variant": variant["name"], "seats": seats});
                    let reply = create(&server, &admin, body.clone());
                    assert_eq!(reply.status, 201, "{body}: {reply:?}");
                    assert_eq!(reply.body["seats"], *seats);
                    assert_eq!(reply.body["teams"], false);
                    made += 1;
                    // Team matches: duplicate only, of two partnerships at a table of four
                    // (Tarneeb; Basra's four, partners by default).
                    let mut teams = body.clone();
                    teams["teams"] = json!(true);
                    let partnerships = kind["kind"] == "tarneeb"
                        || (kind["kind"] == "basra" && variant["name"] == "standard" && seats == 4);
                    let reply = create(&server, &admin, teams.clone());
                    if format == "duplicate" && partnerships {
                        assert_eq!(reply.status, 201, "{teams}: {reply:?}");
                        assert_eq!(reply.body["teams"], true);
                    } else {
                        reply.assert_problem(422, "validation_failed");
                    }
                }
            }
        }
    }
    assert!(made >= 3 * 9, "{made}");
}

fn an_admin_changes_a_public_tournament_before_its_start_and_calls_it_off(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let nadia = server.register("nadia");
    let guest = server.guest("wanderer");
    let terms = json!({"name": "Friday", "format": "swiss", "kind": "basra", "starts_in": 600});
    let made = server.post("/api/v1/tournaments", Some(&admin), &terms);
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(made.body["manageable"], true, "{made:?}");
    assert_eq!(made.body["joinable"], true);
    assert_eq!(made.body["cancelled"], Value::Null);
    let id = made.body["id"].as_i64().unwrap();
    let joined = server.post(
        &format!("{}/join", path(id)),
        Some(&guest.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(
        joined.body["manageable"], false,
        "an entrant manages nothing"
    );

    // New terms: another game, rounds and start; the entrant stays entered.
    let changed_terms = json!({
        "name": "Friday Tarneeb", "format": "duplicate", "kind": "tarneeb", "rounds": 2,
        "options": {"target": 31}, "fill": "easy", "starts_in": 1200,
        "turn": {"seconds": 30, "takeover_after": 1}, "rated": false,
    });
    let changed = server.put_json(&path(id), Some(&admin), &changed_terms);
    assert_eq!(changed.status, 200, "{changed:?}");
    for (field, value) in [
        ("name", json!("Friday Tarneeb")),
        ("format", json!("duplicate")),
        ("kind", json!("tarneeb")),
        ("rounds", json!(2)),
        ("fill", json!("easy")),
        ("rated", json!(false)),
        ("entrants", json!(1)),
        ("turn", json!({"seconds": 30, "takeover_after": 1})),
        ("options", json!({"target": 31})),
    ] {
        assert_eq!(changed.body[field], value, "{field}: {changed:?}");
    }
    let read = server.get(&path(id), None).body;
    assert_eq!(read["name"], "Friday Tarneeb");
    assert_eq!(read["players"].as_array().unwrap().len(), 1, "{read}");

    // Nobody else changes it, nothing the rules refuse is taken, and a refusal changes nothing.
    for token in [&nadia.token, &guest.token] {
        server
            .put_json(&path(id), Some(token), &terms)
            .assert_problem(403, "forbidden");
        server
            .post(&format!("{}/cancel", path(id)), Some(token), &json!({}))
            .assert_problem(403, "forbidden");
    }
    server
        .put_json(&path(id), None, &terms)
        .assert_problem(401, "unauthorized");
    let mut bad = changed_terms.clone();
    bad["rounds"] = json!(99);
    server
        .put_json(&path(id), Some(&admin), &bad)
        .assert_problem(422, "validation_failed");
    let mut private = changed_terms.clone();
    private["private"] = json!(true);
    server
        .put_json(&path(id), Some(&admin), &private)
        .assert_problem(422, "validation_failed");
    assert_eq!(server.get(&path(id), None).body["rounds"], 2);
    server
        .put_json(&path(9_999_999), Some(&admin), &terms)
        .assert_problem(404, "not_found");
    server
        .post(
            &format!("{}/cancel", path(id)),
            Some(&admin),
            &json!({"reason": "x".repeat(201)}),
        )
        .assert_problem(422, "validation_failed");
    server
        .post(
            &format!("{}/cancel", path(id)),
            Some(&admin),
            &json!({"because": "typo"}),
        )
        .assert_problem(422, "validation_failed");

    // Called off, with a reason everyone reads; then nothing more changes it.
    let cancelled = server.post(
        &format!("{}/cancel", path(id)),
        Some(&admin),
        &json!({"reason": "  The club is closed tonight  "}),
    );
    assert_eq!(cancelled.status, 200, "{cancelled:?}");
    assert_eq!(cancelled.body["status"], "cancelled");
    assert_eq!(cancelled.body["joinable"], false);
    assert_eq!(
        cancelled.body["cancelled"],
        json!({"cause": "by_admin", "note": "The club is closed tonight"})
    );
    let seen = server.get(&path(id), None).body;
    assert_eq!(seen["cancelled"], cancelled.body["cancelled"], "{seen}");
    server
        .post(&format!("{}/cancel", path(id)), Some(&admin), &json!({}))
        .assert_problem(409, "tournament_closed");
    server
        .put_json(&path(id), Some(&admin), &terms)
        .assert_problem(409, "tournament_closed");
    server
        .post(
            &format!("{}/join", path(id)),
            Some(&nadia.token),
            &json!({}),
        )
        .assert_problem(409, "tournament_closed");
}

fn a_maker_runs_their_private_tournament_and_an_admin_may_call_it_off(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let nadia = server.register("nadia");
    let omar = server.register("omar");
    let terms = json!({"name": "Nadia's", "format": "arena", "kind": "rummy", "private": true});
    let made = server.post("/api/v1/tournaments", Some(&nadia.token), &terms);
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(made.body["manageable"], true);
    let id = made.body["id"].as_i64().unwrap();
    let code = made.body["code"].as_str().unwrap().to_owned();
    let mut longer = terms.clone();
    longer["minutes"] = json!(45);
    let changed = server.put_json(&path(id), Some(&nadia.token), &longer);
    assert_eq!(changed.status, 200, "{changed:?}");
    assert_eq!(changed.body["minutes"], 45);
    assert_eq!(changed.body["code"], code, "the code stays as it was");
    // Someone who has only its link reads it, and may not change it.
    let by_link = server.get(&format!("{}?code={code}", path(id)), Some(&omar.token));
    assert_eq!(by_link.body["manageable"], false, "{by_link:?}");
    server
        .put_json(&path(id), Some(&omar.token), &terms)
        .assert_problem(403, "forbidden");
    let cancelled = server.post(
        &format!("{}/cancel", path(id)),
        Some(&nadia.token),
        &json!({}),
    );
    assert_eq!(cancelled.status, 200, "{cancelled:?}");
    assert_eq!(
        cancelled.body["cancelled"],
        json!({"cause": "by_maker", "note": null})
    );
    // An admin calls off someone else's: said as theirs.
    let another = server.post("/api/v1/tournaments", Some(&nadia.token), &terms);
    let another = another.body["id"].as_i64().unwrap();
    let called = server.post(
        &format!("{}/cancel", path(another)),
        Some(&admin),
        &json!({"reason": "spam"}),
    );
    assert_eq!(
        called.body["cancelled"],
        json!({"cause": "by_admin", "note": "spam"}),
        "{called:?}"
    );
}

fn too_few_entrants_is_said_and_a_running_one_called_off_pairs_no_more(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let made = make(
        &server,
        &admin,
        json!({"name": "Lonely", "format": "swiss", "kind": "basra"}),
    );
    let lonely = made.id;
    enter(&server, lonely, 1, 0);
    made.start(&server, &admin);
    let state = wait_for(&server, None, lonely, "cancelled");
    assert_eq!(
        state["cancelled"],
        json!({"cause": "too_few_entrants", "note": null})
    );

    // A Swiss of two rounds under way, called off in its first: its game goes on as a game,
    // nothing more is paired, and its entrants are told why.
    let made = make(
        &server,
        &admin,
        json!({"name": "Short", "format": "swiss", "kind": "basra", "rounds": 2, "options": {"target": 31}}),
    );
    let swiss = made.id;
    let entrants = enter(&server, swiss, 2, 0);
    made.start(&server, &admin);
    let running = wait_for(&server, None, swiss, "running");
    assert_eq!(
        running["joinable"], false,
        "a Swiss takes no one once it runs"
    );
    let game = running["round_tables"][0]["tables"][0]["game_id"]
        .as_i64()
        .unwrap();
    let called = server.post(
        &format!("{}/cancel", path(swiss)),
        Some(&admin),
        &json!({"reason": "the room closes"}),
    );
    assert_eq!(called.status, 200, "{called:?}");
    let view = server.view(&entrants[0].player, game);
    assert!(
        ["active", "hand_over"].contains(&view["status"].as_str().unwrap()),
        "{view}"
    );
    let during = server
        .get(&path(swiss), Some(&entrants[0].player.token))
        .body;
    assert_eq!(
        during["your_table"]["game_id"], game,
        "still theirs to finish: {during}"
    );
    // Played to its end, the game adds no round.
    crate::support::play_out(
        &server,
        game,
        &[&entrants[0].player, &entrants[1].player],
        |legal| legal[0].clone(),
    );
    std::thread::sleep(Duration::from_millis(600));
    let after = server
        .get(&path(swiss), Some(&entrants[0].player.token))
        .body;
    assert_eq!(after["status"], "cancelled", "{after}");
    assert_eq!(
        after["round_tables"].as_array().unwrap().len(),
        1,
        "{after}"
    );
    assert_eq!(
        after["round_tables"][0]["tables"][0]["over"], true,
        "{after}"
    );
    assert_eq!(after["your_table"], Value::Null, "{after}");
}

fn a_stranger_reads_public_tournaments_and_follows_one_live(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let nadia = server.register("nadia");
    let public = server.post(
        "/api/v1/tournaments",
        Some(&admin),
        &json!({"name": "Open night", "format": "arena", "kind": "basra", "starts_in": 600}),
    );
    let public = public.body["id"].as_i64().unwrap();
    let private = server.post(
        "/api/v1/tournaments",
        Some(&nadia.token),
        &json!({"name": "Nadia's", "format": "swiss", "kind": "basra", "private": true}),
    );
    let private = private.body["id"].as_i64().unwrap();
    let listed = server.get("/api/v1/tournaments", None);
    assert_eq!(listed.status, 200, "{listed:?}");
    let ids: Vec<i64> = listed.body["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [public], "only the public one");
    let read = server.get(&path(public), None);
    assert_eq!(read.status, 200, "{read:?}");
    assert_eq!(read.body["joined"], false);
    assert_eq!(read.body["manageable"], false);
    assert_eq!(read.body["your_table"], Value::Null);
    server
        .get(&path(private), None)
        .assert_problem(403, "private_tournament");
    // With its code (its link) a stranger reads it too, and sees no code in it.
    let code = server.get(&path(private), Some(&nadia.token)).body["code"].clone();
    let by_link = server.get(
        &format!("{}?code={}", path(private), code.as_str().unwrap()),
        None,
    );
    assert_eq!(by_link.status, 200, "{by_link:?}");
    assert_eq!(by_link.body["code"], Value::Null);
    assert_eq!(by_link.body["joined"], false);
    server
        .get(&path(9_999_999), None)
        .assert_problem(404, "not_found");
    // Live, with no token: an entrant arrives and the stream says so.
    let stream = server
        .stranger_stream(&path(public))
        .expect("a stranger's tournament stream");
    let first = stream
        .recv_timeout(Duration::from_secs(5))
        .expect("the tournament");
    assert_eq!(first.1["entrants"], 0, "{first:?}");
    let guest = server.guest("arrival");
    let joined = server.post(
        &format!("{}/join", path(public)),
        Some(&guest.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    let next = stream.recv_timeout(Duration::from_secs(5)).expect("news");
    assert_eq!(next.1["entrants"], 1, "{next:?}");
    assert!(server.stranger_stream(&path(private)).is_err());
}

/// A player may have five tournaments not yet over: the sixth waits until one ends or is called
/// off. An admin has no such cap.
fn a_player_makes_at_most_five_tournaments_not_yet_over(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let nadia = server.register("nadia");
    let terms = json!({"name": "Nadia's", "format": "swiss", "kind": "basra", "private": true,
                       "starts_in": 600});
    let mut made = Vec::new();
    for _ in 0..5 {
        let reply = server.post("/api/v1/tournaments", Some(&nadia.token), &terms);
        assert_eq!(reply.status, 201, "{reply:?}");
        made.push(reply.body["id"].as_i64().unwrap());
    }
    let refused = server.post("/api/v1/tournaments", Some(&nadia.token), &terms);
    refused.assert_problem(409, "too_many_tournaments");
    let listed = server.get("/api/v1/tournaments", Some(&nadia.token));
    assert_eq!(
        listed.body["tournaments"].as_array().unwrap().len(),
        5,
        "the sixth made nothing"
    );
    let cancelled = server.post(
        &format!("{}/cancel", path(made[0])),
        Some(&nadia.token),
        &json!({"reason": "moved to Friday"}),
    );
    assert_eq!(cancelled.status, 200, "{cancelled:?}");
    let again = server.post("/api/v1/tournaments", Some(&nadia.token), &terms);
    assert_eq!(again.status, 201, "{again:?}");
    // Eight sent at once by another player: five are made, whatever the order.
    let omar = server.register("omar");
    let answers: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (server, omar, terms) = (&server, &omar, &terms);
                scope.spawn(move || {
                    server
                        .post("/api/v1/tournaments", Some(&omar.token), terms)
                        .status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        answers.iter().filter(|&&s| s == 201).count(),
        5,
        "{answers:?}"
    );
    assert_eq!(
        answers.iter().filter(|&&s| s == 409).count(),
        3,
        "{answers:?}"
    );
    for _ in 0..6 {
        let public = json!({"name": "Open", "format": "swiss", "kind": "basra", "starts_in": 600});
        let reply = server.post("/api/v1/tournaments", Some(&admin), &public);
        assert_eq!(reply.status, 201, "{reply:?}");
    }
}

on_both_backends!(
    a_player_makes_at_most_five_tournaments_not_yet_over,
    every_field_is_checked,
    an_admin_changes_a_public_tournament_before_its_start_and_calls_it_off,
    a_maker_runs_their_private_tournament_and_an_admin_may_call_it_off,
    too_few_entrants_is_said_and_a_running_one_called_off_pairs_no_more,
    a_stranger_reads_public_tournaments_and_follows_one_live,
);
