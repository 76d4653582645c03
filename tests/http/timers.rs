//! Turn timers: a person out of time is played for (with nobody connected), a run of timeouts
//! hands the seat to a computer player until the person reclaims it, and two replicas racing
//! to enforce one deadline apply it once.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server};

/// Every event of the game's log the player may see, with its entry's action.
fn log_events(server: &Server, player: &Player, id: i64) -> Vec<(String, Value)> {
    let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&player.token));
    assert_eq!(log.status, 200, "{log:?}");
    log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|entry| {
            let action = entry["action"].as_str().unwrap().to_owned();
            entry["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |e| (action.clone(), e["event"].clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn of_type<'a>(events: &'a [(String, Value)], kind: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|(_, e)| e["type"] == kind)
        .map(|(_, e)| e)
        .collect()
}

/// Polls `player`'s view of game `id` until `done` holds (at most `within`).
fn wait_for(
    server: &Server,
    player: &Player,
    id: i64,
    within: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let until = Instant::now() + within;
    loop {
        let view = server.view(player, id);
        if done(&view) {
            return view;
        }
        assert!(Instant::now() < until, "waited in vain: {view}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn deadline_of(view: &Value) -> chrono::DateTime<chrono::Utc> {
    view["deadline"]
        .as_str()
        .unwrap_or_else(|| panic!("no deadline: {view}"))
        .parse()
        .unwrap()
}

fn a_timer_runs_out_with_nobody_connected(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_SWEEP_MS", "200")]);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}],
               "turn": {"seconds": 5, "takeover_after": 3}}),
    );
    assert_eq!(view["turn"], json!({"seconds": 5, "takeover_after": 3}));
    assert_eq!(view["to_act"], 0, "{view}");
    let deadline = deadline_of(&view);
    let left = deadline - chrono::Utc::now();
    assert!(
        left > chrono::TimeDelta::seconds(3) && left <= chrono::TimeDelta::seconds(5),
        "{left}"
    );
    let announced = view["recent_events"].as_array().unwrap().last().unwrap();
    assert_eq!(announced["event"]["type"], "deadline");
    assert_eq!(announced["event"]["seat"], 0);

    // Nobody asks anything until well after the deadline.
    std::thread::sleep(Duration::from_secs(7));
    let after = server.view(&amira, id);
    assert!(
        after["version"].as_i64() > view["version"].as_i64(),
        "{after}"
    );
    assert_eq!(after["seats"][0]["timeouts"], 1, "{after}");
    assert_eq!(after["seats"][0]["away"], false);
    assert_eq!(after["to_act"], 0, "the computer answered: {after}");
    assert!(deadline_of(&after) > deadline);
    let events = log_events(&server, &amira, id);
    let timed_out = of_type(&events, "timed_out");
    assert_eq!(timed_out.len(), 1, "{events:?}");
    assert_eq!(timed_out[0]["seat"], 0);
    assert_eq!(timed_out[0]["stand_in"], "easy");
    // The stand-in's move is logged as the seat's move, right after the timeout.
    let position = events
        .iter()
        .position(|(_, e)| e["type"] == "timed_out")
        .unwrap();
    assert_eq!(events[position + 1].0, "move");

    // A move of her own ends the run of timeouts.
    let mv = after["legal_moves"][0].clone();
    let reply = server.play(&amira, &after, &mv);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["view"]["seats"][0]["timeouts"], 0);

    // The game still replays from its log to its snapshot.
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    assert_eq!(
        cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(id)).unwrap(),
        cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id)).unwrap()
    );
}

on_both_backends!(a_timer_runs_out_with_nobody_connected);

fn a_person_who_walks_away_is_replaced_and_may_reclaim_the_seat(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_SWEEP_MS", "200")]);
    let amira = server.guest("amira");
    let badr = server.guest("badr");
    let reply = server.post(
        "/api/v1/games",
        Some(&amira.token),
        &json!({"kind": "basra", "seats": [{}, {}], "turn": {"seconds": 5, "takeover_after": 1}}),
    );
    assert_eq!(reply.status, 201, "{reply:?}");
    let id = reply.body["id"].as_i64().unwrap();
    let join = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&badr.token),
        &json!({"invite_code": reply.body["invite_code"]}),
    );
    assert_eq!(join.status, 200, "{join:?}");
    let reclaim = format!("/api/v1/games/{id}/reclaim");
    server
        .post(&reclaim, Some(&badr.token), &json!({}))
        .assert_problem(409, "not_away");

    // Amira plays her turns; Badr has walked away.
    let away = |view: &Value| view["seats"][1]["away"] == true;
    let walk_away = || {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let view = server.view(&amira, id);
            if away(&view) {
                return view;
            }
            if view["to_act"] == 0 && view["status"] == "active" {
                let reply = server.play(&amira, &view, &view["legal_moves"][0]);
                assert!(
                    reply.status == 200 || reply.body["code"] == "version_conflict",
                    "{reply:?}"
                );
            }
            assert!(
                Instant::now() < until,
                "the seat was never taken over: {view}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let view = walk_away();
    assert_eq!(view["seats"][1]["name"], "badr");
    assert_eq!(
        view["seats"][1]["bot"], "greedy",
        "the kind's default level"
    );
    let events = log_events(&server, &amira, id);
    let takeover = of_type(&events, "seat_to_computer");
    assert_eq!(takeover.len(), 1, "{events:?}");
    assert_eq!(takeover[0]["reason"], "timeouts");
    // While Badr is away his seat never waits: there is no deadline on a computer's turn.
    let view = wait_for(&server, &amira, id, Duration::from_secs(10), |v| {
        v["to_act"] == 0 || v["status"] != "active"
    });
    if view["status"] == "active" {
        assert!(view["deadline"].is_string(), "{view}");
    }

    // Badr comes back: his seat is his again, and he is on the clock.
    let back = server.post(&reclaim, Some(&badr.token), &json!({}));
    assert_eq!(back.status, 200, "{back:?}");
    assert_eq!(back.body["view"]["seats"][1]["away"], false);
    assert_eq!(back.body["view"]["seats"][1]["bot"], Value::Null);
    assert_eq!(back.body["view"]["seats"][1]["timeouts"], 0);
    let events = log_events(&server, &badr, id);
    assert_eq!(of_type(&events, "seat_reclaimed").len(), 1);

    // He walks away again; Amira finishes the game against his stand-in.
    walk_away();
    let finished = crate::support::play_out(&server, id, &[&amira], |legal| legal[0].clone());
    assert_eq!(finished["status"], "finished");
    server
        .post(&reclaim, Some(&badr.token), &json!({}))
        .assert_problem(409, "game_over");
    assert_eq!(finished["deadline"], Value::Null);

    // A stale deadline (nobody left to time out) is cleared by the next sweep, not chased on
    // every one.
    use diesel::RunQueryDsl;
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    diesel::sql_query(format!(
        "UPDATE games SET deadline = '2000-01-01 00:00:00' WHERE id = {id}"
    ))
    .execute(&mut **conn)
    .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while cardroom_db::games::load(&mut conn, cardroom_db::GameId::new(id))
        .unwrap()
        .unwrap()
        .game
        .deadline
        .is_some()
    {
        assert!(Instant::now() < until, "the stale deadline stayed");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(server.view(&amira, id)["version"], finished["version"]);
}

on_both_backends!(a_person_who_walks_away_is_replaced_and_may_reclaim_the_seat);

/// Two replicas sweep one PostgreSQL database every 50 ms: each deadline is acted on once.
#[test]
fn two_replicas_racing_for_one_deadline_apply_it_once() {
    let fast = [("CARDROOM_SWEEP_MS", "50")];
    let first = Server::start_with(Backend::Postgres, &fast);
    let second = first.replica(&fast);
    let amira = first.guest("amira");
    let (id, view) = first.create(
        &amira,
        json!({"kind": "tarneeb", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}],
               "turn": {"seconds": 5, "takeover_after": 10}}),
    );
    assert_eq!(view["to_act"], 0, "{view}");
    let after = wait_for(&second, &amira, id, Duration::from_secs(15), |v| {
        v["seats"][0]["timeouts"] == 1
    });
    assert!(after["version"].as_i64() > view["version"].as_i64());
    let events = log_events(&first, &amira, id);
    assert_eq!(of_type(&events, "timed_out").len(), 1, "{events:?}");
    let applied: f64 = [&first, &second]
        .iter()
        .map(|server| server.metric("cardroom_turn_timeouts_total"))
        .sum();
    assert_eq!(applied, 1.0);
}

fn a_turn_timer_out_of_bounds_is_refused(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    for (turn, status) in [
        (json!({"seconds": 4}), 422),
        (json!({"seconds": 86_401}), 422),
        (json!({"seconds": 60, "takeover_after": 0}), 422),
        (json!({"seconds": 60, "takeover_after": 11}), 422),
        (json!({"seconds": "sixty"}), 422),
        (json!({"seconds": 60, "grace": 5}), 422),
        (json!({}), 422),
    ] {
        let reply = server.post(
            "/api/v1/games",
            Some(&amira.token),
            &json!({"kind": "basra", "seats": [{}, {"bot": "easy"}], "turn": turn}),
        );
        reply.assert_problem(status, "validation_failed");
    }
    let mine = server.get("/api/v1/games?mine=true", Some(&amira.token));
    assert_eq!(mine.body["total"], 0, "nothing was created");
    let catalogue = server.get("/api/v1/games/kinds", None);
    assert_eq!(
        catalogue.body["turn"],
        json!({"min_seconds": 5, "max_seconds": 86400, "min_takeover_after": 1,
               "max_takeover_after": 10, "default_takeover_after": 3, "stand_in": "easy"})
    );
}

on_both_backends!(a_turn_timer_out_of_bounds_is_refused);
