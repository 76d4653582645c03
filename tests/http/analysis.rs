//! The analysis of finished games: never while a game is played, made in the background for
//! every kind and variant once it ends, read by the players, by anyone for a public game and
//! by admins, and carried in the export.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, Server};

/// The test servers leave analysis off (support/server.rs); these turn it on.
pub(crate) const ANALYSIS: (&str, &str) = ("CARDROOM_ANALYSIS", "on");

const EVERY_VARIANT: [(&str, &str, usize); 9] = [
    ("basra", "standard", 2),
    ("basra", "classic44", 2),
    ("basra", "cse231", 2),
    ("thirty_one", "standard", 2),
    ("thirty_one", "classic", 2),
    ("rummy", "standard", 2),
    ("rummy", "classic", 2),
    ("tarneeb", "standard", 4),
    ("tarneeb", "classic", 4),
];

/// Waits for the analysis of `id` to be done, and returns it (the whole answer).
fn done_analysis(server: &Server, token: &str, id: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let reply = server.get(&format!("/api/v1/games/{id}/analysis"), Some(token));
        assert_eq!(reply.status, 200, "{reply:?}");
        match reply.body["status"].as_str() {
            Some("done") => return reply.body,
            Some("queued" | "running") => {
                let (done, total) = (&reply.body["done"], &reply.body["total"]);
                assert!(done.as_i64() <= total.as_i64(), "{reply:?}");
                assert!(reply.body["analysis"].is_null(), "{reply:?}");
            }
            _ => panic!("game {id}: {reply:?}"),
        }
        assert!(
            Instant::now() < deadline,
            "game {id}'s analysis never finished"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Makes up to `moves` of the person's moves (the first legal one each time, dealing when a
/// hand is over), then resigns: a game of two sides is then over.
fn play_then_resign(server: &Server, player: &Player, id: i64, moves: usize) {
    let mut made = 0;
    while made < moves {
        let view = server.view(player, id);
        match view["status"].as_str() {
            Some("hand_over") => {
                let reply = server.post(
                    &format!("/api/v1/games/{id}/deal"),
                    Some(&player.token),
                    &json!({}),
                );
                assert_eq!(reply.status, 200, "{reply:?}");
            }
            Some("active") if view["to_act"] == view["your_seat"] => {
                let legal = view["legal_moves"].as_array().expect("legal moves").clone();
                let reply = server.play(player, &view, &legal[0]);
                assert_eq!(reply.status, 200, "{reply:?}");
                made += 1;
            }
            Some("finished") => return,
            other => panic!("game {id} is {other:?}: {view}"),
        }
    }
    if server.view(player, id)["status"] == "finished" {
        return;
    }
    let reply = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&player.token),
        &json!({}),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.view(player, id)["status"], "finished");
}

/// Every kind and variant: `game_not_finished` while the game is played (to its player and to
/// an admin alike), then, once it is over, an analysis whose every decision is a move of the
/// log, made by the seat the log says, judged by the kind's method; strangers are refused a
/// game that is not public; the export carries the analysis.
fn every_kind_and_variant_is_analysed_once_over(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, ANALYSIS]);
    let admin = admin_token(&server);
    let amira = server.guest("amira");
    let stranger = server.guest("sami");
    for (kind, variant, seats) in EVERY_VARIANT {
        let mut seat_list = vec![json!({})];
        seat_list.resize(seats, json!({"bot": "greedy"}));
        let (id, _) = server.create(
            &amira,
            json!({"kind": kind, "variant": variant, "seats": seat_list}),
        );
        let path = format!("/api/v1/games/{id}/analysis");
        for token in [&amira.token, &admin] {
            server
                .get(&path, Some(token))
                .assert_problem(409, "game_not_finished");
        }
        server
            .get(&path, Some(&stranger.token))
            .assert_problem(403, "forbidden");
        // Tarneeb: enough calls and cards for the play to begin.
        play_then_resign(&server, &amira, id, if kind == "tarneeb" { 10 } else { 4 });

        let answer = done_analysis(&server, &amira.token, id);
        let analysis = &answer["analysis"];
        assert_eq!(
            (analysis["kind"].as_str(), analysis["variant"].as_str()),
            (Some(kind), Some(variant))
        );
        let method = if kind == "tarneeb" {
            "double_dummy"
        } else {
            "sampled"
        };
        assert_eq!(analysis["method"], method, "{kind} {variant}");
        assert_eq!(analysis["players"].as_array().map(Vec::len), Some(seats));
        let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&amira.token));
        assert_eq!(log.status, 200);
        let entries = log.body["entries"].as_array().expect("entries");
        let moves = entries.iter().filter(|e| e["action"] == "move").count() as i64;
        assert_eq!(
            (answer["done"].as_i64(), answer["total"].as_i64()),
            (Some(moves), Some(moves))
        );
        let decisions = analysis["decisions"].as_array().expect("decisions");
        assert!(
            !decisions.is_empty(),
            "{kind} {variant}: no decision judged"
        );
        for decision in decisions {
            let entry = entries
                .iter()
                .find(|e| e["version"] == decision["version"])
                .unwrap_or_else(|| panic!("{kind}: no log entry for {decision}"));
            assert_eq!(entry["action"], "move");
            assert_eq!(entry["seat"], decision["seat"], "{decision}");
            assert_eq!(entry["move"], decision["played"], "{decision}");
            assert!(decision["loss"].as_f64() >= Some(0.0));
        }
        let judged: u64 = analysis["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["decisions"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(judged as usize, decisions.len());
        if kind == "tarneeb" {
            let hands = analysis["hands"].as_array().expect("hands");
            assert!(!hands.is_empty(), "{variant}: no hand reviewed");
            assert!(hands[0]["par"].is_object() || hands[0]["par"].is_null());
        }

        let as_admin = server.get(&path, Some(&admin));
        assert_eq!(as_admin.status, 200);
        assert_eq!(as_admin.body["analysis"], *analysis);
        server
            .get(&path, Some(&stranger.token))
            .assert_problem(403, "forbidden");
        let export = server.get(&format!("/api/v1/games/{id}/export"), Some(&amira.token));
        assert_eq!(export.status, 200);
        assert_eq!(export.body["analysis"], *analysis);
    }
}

/// A public game's analysis is anyone's to read, with a token or without; a game that does not
/// exist is 404.
fn a_public_games_analysis_is_anyones(backend: Backend) {
    let server = Server::start_with(backend, &[ANALYSIS]);
    let amira = server.guest("amira");
    let stranger = server.guest("sami");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "hard"}], "visibility": "public"}),
    );
    play_then_resign(&server, &amira, id, 3);
    let answer = done_analysis(&server, &stranger.token, id);
    // Judged by its own numbers, in points, with the deals and the interval it rests on.
    assert_eq!(answer["analysis"]["unit"], "points", "{answer}");
    assert_eq!(answer["analysis"]["confidence"], 0.95, "{answer}");
    for d in answer["analysis"]["decisions"]
        .as_array()
        .expect("decisions")
    {
        let value = |field: &str| d[field].as_f64().expect("a number");
        assert!(value("best_value") >= value("played_value"), "{d}");
        assert!(
            value("loss") >= 0.0 && value("loss_low") <= value("loss_high"),
            "{d}"
        );
        assert!(d["samples"].as_u64().is_some_and(|n| n >= 16), "{d}");
        assert!(d["within_noise"].is_boolean(), "{d}");
    }
    server
        .get("/api/v1/games/999999/analysis", Some(&stranger.token))
        .assert_problem(404, "not_found");
    // Anyone: a stranger with no token reads the same analysis.
    let unsigned = server.get(&format!("/api/v1/games/{id}/analysis"), None);
    assert_eq!(unsigned.status, 200, "{unsigned:?}");
    assert_eq!(unsigned.body["analysis"], answer["analysis"]);
}

/// The process that finishes a game starts its analysis at once, on notice: with the sweep an
/// hour apart, the analysis of a game finished after the worker went to sleep is made all the
/// same.
fn a_finished_game_is_analysed_without_waiting_for_the_sweep(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_SWEEP_MS", "3600000"), ANALYSIS]);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "thirty_one", "variant": "classic", "seats": [{}, {"bot": "easy"}]}),
    );
    play_then_resign(&server, &amira, id, 4);
    let answer = done_analysis(&server, &amira.token, id);
    assert_eq!(answer["analysis"]["unit"], "tokens", "{answer}");
}

on_both_backends!(
    every_kind_and_variant_is_analysed_once_over,
    a_public_games_analysis_is_anyones,
    a_finished_game_is_analysed_without_waiting_for_the_sweep
);

/// Two replicas looking for work at the same moment: of two claims of one game exactly one
/// wins, both when nobody holds it yet and when a stale claim is taken over; the loser's
/// progress and result are refused, so one analysis is stored.
fn two_replicas_claiming_at_once_one_wins(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_ANALYSIS", "off")]);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    play_then_resign(&server, &amira, id, 2);
    let game = cardroom_db::GameId::new(id);
    let pools: Vec<cardroom_db::Pool> = (0..2)
        .map(|_| cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap())
        .collect();
    let due = {
        let mut conn = pools[0].get().unwrap();
        let stale = cardroom_db::now() - chrono::Duration::minutes(5);
        cardroom_db::analyses::next_due(&mut conn, stale).unwrap()
    };
    assert_eq!(
        due,
        Some(game),
        "the game, queued as it finished (with analysis off), is due"
    );
    for round in 0..6 {
        // Round 0 claims a game nobody holds; each later round, a claim whose replica went
        // quiet an hour ago.
        let stale = cardroom_db::now() - chrono::Duration::minutes(5);
        if round > 0 {
            use cardroom_db::schema::game_analyses::dsl;
            use diesel::prelude::*;
            let mut conn = pools[0].get().unwrap();
            let quiet = cardroom_db::now() - chrono::Duration::hours(1);
            diesel::update(dsl::game_analyses.find(id))
                .set(dsl::updated_at.eq(quiet))
                .execute(&mut **conn)
                .unwrap();
        }
        let barrier = std::sync::Barrier::new(2);
        let claims: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = pools
                .iter()
                .map(|pool| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        let mut conn = pool.get().unwrap();
                        barrier.wait();
                        cardroom_db::analyses::claim(&mut conn, game, 1, stale).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let won: Vec<_> = claims.iter().flatten().copied().collect();
        assert_eq!(won.len(), 1, "round {round}: {claims:?}");
        let mut conn = pools[0].get().unwrap();
        let row = cardroom_db::analyses::get(&mut conn, game)
            .unwrap()
            .unwrap();
        assert_eq!((row.status.as_str(), row.started_at), ("running", won[0]));
        // A claim that lost (an older one) may write nothing.
        let older = won[0] - chrono::Duration::seconds(1);
        assert!(!cardroom_db::analyses::progress(&mut conn, game, older, 3, 10).unwrap());
        assert!(!cardroom_db::analyses::finish(&mut conn, game, older, Ok("{}".into())).unwrap());
        assert!(cardroom_db::analyses::progress(&mut conn, game, won[0], 3, 10).unwrap());
    }
    let mut conn = pools[0].get().unwrap();
    let row = cardroom_db::analyses::get(&mut conn, game)
        .unwrap()
        .unwrap();
    assert!(
        cardroom_db::analyses::finish(&mut conn, game, row.started_at, Ok("{}".into())).unwrap()
    );
    let stale = cardroom_db::now() + chrono::Duration::hours(1);
    assert_eq!(
        cardroom_db::analyses::next_due(&mut conn, stale).unwrap(),
        None
    );
    // At a process's start: nothing is missing for this format; a newer one queues it again.
    assert_eq!(
        cardroom_db::analyses::queue_missing(&mut conn, 1).unwrap(),
        0
    );
    assert_eq!(
        cardroom_db::analyses::queue_missing(&mut conn, 2).unwrap(),
        1
    );
    assert_eq!(
        cardroom_db::analyses::next_due(&mut conn, stale).unwrap(),
        Some(game)
    );
    // A finished game without a row (finished before analyses existed) is queued too.
    {
        use cardroom_db::schema::game_analyses::dsl;
        use diesel::prelude::*;
        diesel::delete(dsl::game_analyses.find(id))
            .execute(&mut **conn)
            .unwrap();
    }
    assert_eq!(
        cardroom_db::analyses::next_due(&mut conn, stale).unwrap(),
        None
    );
    assert_eq!(
        cardroom_db::analyses::queue_missing(&mut conn, 2).unwrap(),
        1
    );
    assert_eq!(
        cardroom_db::analyses::next_due(&mut conn, stale).unwrap(),
        Some(game)
    );
}

on_both_backends!(two_replicas_claiming_at_once_one_wins);

/// Accounts take turns at the analysis worker: one that finishes five games at once, and
/// another that finishes one after them, have their analyses made first of each, then the
/// flood's rest — the other's waits behind one of the flood's, not five.
fn accounts_take_turns_for_the_analysis(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_ANALYSIS", "off")]);
    let flood = server.guest("flood");
    let other = server.guest("patient");
    let finished = |player: &crate::support::Player| {
        let (id, _) = server.create(
            player,
            json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
        );
        let resigned = server.post(
            &format!("/api/v1/games/{id}/resign"),
            Some(&player.token),
            &json!({}),
        );
        assert_eq!(resigned.status, 200, "{resigned:?}");
        // (Each finishes on its own clock tick: the queue's order is by when they waited.)
        std::thread::sleep(Duration::from_millis(5));
        cardroom_db::GameId::new(id)
    };
    let floods: Vec<_> = (0..5).map(|_| finished(&flood)).collect();
    let patient = finished(&other);
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let stale = cardroom_db::now() - chrono::Duration::minutes(5);
    let mut order = Vec::new();
    while let Some(game) = cardroom_db::analyses::next_due(&mut conn, stale).unwrap() {
        let claimed = cardroom_db::analyses::claim(&mut conn, game, 1, stale).unwrap();
        assert!(claimed.is_some(), "{game:?} is claimable");
        order.push(game);
        assert!(order.len() <= 6, "{order:?}");
    }
    assert_eq!(
        order,
        [
            floods[0], patient, floods[1], floods[2], floods[3], floods[4]
        ]
    );
}

on_both_backends!(accounts_take_turns_for_the_analysis);

/// A process told to stop while it analyses a game gives the game back to the queue and exits
/// within the documented grace (10 s), rather than finish the analysis first; another
/// replica (here, the next process) makes it from the start.
fn a_stopping_process_gives_a_running_analysis_back(backend: Backend) {
    let mut server = Server::start_with(backend, &[ANALYSIS]);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "rummy", "variant": "classic", "seats": [{}, {"bot": "hard"}]}),
    );
    play_then_resign(&server, &amira, id, 40);
    // Once it is being made, the process is told to stop.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = server.get(&format!("/api/v1/games/{id}/analysis"), Some(&amira.token));
        assert_eq!(answer.status, 200, "{answer:?}");
        match answer.body["status"].as_str() {
            Some("running") => break,
            Some("queued") => {}
            other => panic!("the analysis was {other:?} before the stop: {answer:?}"),
        }
        assert!(Instant::now() < deadline, "never running");
        std::thread::sleep(Duration::from_millis(20));
    }
    let asked = Instant::now();
    assert!(server.terminate(), "a clean exit");
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(10), "the stop took {took:?}");
    // The game is queued again, to be made by whoever looks next.
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let row = cardroom_db::analyses::get(&mut conn, cardroom_db::GameId::new(id))
        .unwrap()
        .unwrap();
    assert_eq!(row.status.as_str(), "queued", "{row:?}");
    println!("stopped in {took:?} with an analysis running; it is queued again");
}

on_both_backends!(a_stopping_process_gives_a_running_analysis_back);
