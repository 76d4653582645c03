//! Whole games over HTTP.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server, play_out};

fn first(legal: &[Value]) -> Value {
    legal[0].clone()
}

/// A person against the computer to the end, in `variant`.
/// A person against the computer at `level` (the named levels are played over HTTP too).
fn person_against_computer(backend: Backend, variant: &str, level: &str) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "variant": variant, "seats": [{}, {"bot": level}]}),
    );
    assert_eq!(view["status"], "active");
    assert_eq!(view["your_seat"], 0);
    let end = play_out(&server, id, &[&amira], first);
    assert_eq!(end["status"], "finished");
    crate::export::exports_and_reimports_exactly(&server, &amira, id);
    let outcome = &end["outcome"];
    assert!(outcome["winners"].is_array(), "{end}");
    assert!(end["legal_moves"].as_array().unwrap().is_empty());

    let score = server.get(&format!("/api/v1/games/{id}/score"), Some(&amira.token));
    assert_eq!(score.status, 200);
    assert!(!score.body["hands"].as_array().unwrap().is_empty());
    assert_eq!(score.body["outcome"], *outcome);
    // Totals are the sums of the scoring lines.
    let mut sums = vec![0i64; score.body["totals"].as_array().unwrap().len()];
    for hand in score.body["hands"].as_array().unwrap() {
        for line in hand["lines"].as_array().unwrap() {
            sums[line["side"].as_u64().unwrap() as usize] += line["points"].as_i64().unwrap();
        }
    }
    let totals: Vec<i64> = score.body["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    assert_eq!(sums, totals);

    // Moves after the end are refused.
    server
        .post(
            &format!("/api/v1/games/{id}/moves"),
            Some(&amira.token),
            &json!({"expected_version": end["version"], "move": {"type": "play", "card": "2C"}}),
        )
        .assert_problem(409, "game_over");

    let mine = server.get(
        "/api/v1/games?mine=true&status=finished",
        Some(&amira.token),
    );
    assert_eq!(mine.body["games"][0]["id"], id);
    assert_eq!(mine.body["games"][0]["status"], "finished");
}

fn a_person_plays_standard_basra_to_the_end_against_the_computer(backend: Backend) {
    person_against_computer(backend, "standard", "hard");
}

fn a_person_plays_classic44_to_the_end_against_the_computer(backend: Backend) {
    person_against_computer(backend, "classic44", "medium");
}

fn a_person_plays_cse231_to_the_end_against_the_computer(backend: Backend) {
    person_against_computer(backend, "cse231", "greedy");
}

fn two_people_play_basra_to_the_end_with_the_invite_code(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let created = server.post(
        "/api/v1/games",
        Some(&amira.token),
        &json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 31}}),
    );
    assert_eq!(created.status, 201);
    let id = created.body["id"].as_i64().unwrap();
    let code = created.body["invite_code"].as_str().unwrap().to_owned();
    assert_eq!(created.body["view"]["status"], "waiting");
    assert_eq!(created.body["view"]["invite_code"], code.as_str());
    assert!(created.body["view"]["table"].is_null());
    server
        .post(
            &format!("/api/v1/games/{id}/moves"),
            Some(&amira.token),
            &json!({"expected_version": 1, "move": {"type": "play", "card": "2C"}}),
        )
        .assert_problem(409, "waiting_for_players");

    server
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&karim.token),
            &json!({"invite_code": "wrong"}),
        )
        .assert_problem(403, "forbidden");
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": code}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["your_seat"], 1);
    assert_eq!(joined.body["status"], "active");
    server
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&karim.token),
            &json!({"invite_code": code}),
        )
        .assert_problem(409, "already_seated");
    let third = server.guest("layla");
    server
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&third.token),
            &json!({"invite_code": code}),
        )
        .assert_problem(409, "game_full");

    let end = play_out(&server, id, &[&amira, &karim], |legal| {
        legal[legal.len() - 1].clone()
    });
    assert_eq!(end["status"], "finished");
    let winners = end["outcome"]["winners"].as_array().unwrap();
    assert_eq!(winners.len(), 1);
}

/// Reads a stream until the event that completes version `last`; returns its events' data.
fn stream_until(path: &str, server: &Server, token: &str, last: i64) -> Vec<Value> {
    let stream = server.sse(path, token, None);
    let mut events = Vec::new();
    loop {
        let event = stream
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the stream went on")
            .expect("the stream did not end");
        if ["presence", "chat", "chat_hidden"].contains(&event.event.as_str()) {
            continue;
        }
        events.push(event.data.clone());
        if event.id.as_deref() == Some(last.to_string().as_str()) {
            return events;
        }
    }
}

fn a_long_game_streams_from_the_start_in_pages_each_version_once(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "variant": "classic44", "seats": [{}, {}], "seed": "00000000000000000000000000000000000000000000000000000000000000a7", "options": {"target": 400}}),
    );
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    let end = play_out(&server, id, &[&amira, &karim], |legal| legal[0].clone());
    let last = end["version"].as_i64().unwrap();
    // Longer than one page of events (500 versions): the stream reads on without waiting.
    assert!(last > 500, "only {last} versions");
    let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&karim.token));
    assert_eq!(log.status, 200, "{log:?}");
    let expected: Vec<Value> = log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|entry| entry["events"].as_array().unwrap().clone())
        .collect();
    let path = format!("/api/v1/games/{id}/events");
    // Two streams from the start (the second served from what the first read), and one
    // resuming part-way: each gets every event of its seat once, in order.
    for _ in 0..2 {
        assert_eq!(stream_until(&path, &server, &karim.token, last), expected);
    }
    let resumed = stream_until(&format!("{path}?after=400"), &server, &karim.token, last);
    let tail: Vec<Value> = expected
        .iter()
        .filter(|e| e["version"].as_i64() > Some(400))
        .cloned()
        .collect();
    assert_eq!(resumed, tail);
    // The long-poll answers a long gap a page (500 versions) at a time.
    let mut after = 0;
    let mut polled = Vec::new();
    while after < last {
        let page = server.get(&format!("{path}?after={after}"), Some(&karim.token));
        assert_eq!(page.status, 200, "{page:?}");
        let version = page.body["version"].as_i64().unwrap();
        assert_eq!(version, (after + 500).min(last));
        polled.extend(page.body["events"].as_array().unwrap().clone());
        after = version;
    }
    assert_eq!(polled, expected);
}

fn four_partners_play_with_computer_players(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}, {}, {"bot": "random"}], "options": {"target": 31}}),
    );
    let code = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": "x"}),
    );
    code.assert_problem(403, "forbidden");
    let invite = view["invite_code"].as_str().unwrap();
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": invite, "seat": 2}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["your_seat"], 2);
    assert_eq!(joined.body["table"]["sides"][0]["seats"], json!([0, 2]));
    let end = play_out(&server, id, &[&amira, &karim], first);
    assert_eq!(end["status"], "finished");
}

fn resigning_a_two_sided_game_loses_it(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "random"}]}),
    );
    let reply = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&amira.token),
        &json!({}),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["view"]["status"], "finished");
    assert_eq!(reply.body["view"]["outcome"]["winners"], json!([1]));
    assert_eq!(reply.body["view"]["outcome"]["reason"], "resignation");
    server
        .post(
            &format!("/api/v1/games/{id}/resign"),
            Some(&amira.token),
            &json!({}),
        )
        .assert_problem(409, "game_over");
}

fn resigning_a_three_player_game_hands_the_seat_to_the_computer(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "random"}, {"bot": "random"}]}),
    );
    let reply = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&amira.token),
        &json!({}),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    let view = &reply.body["view"];
    // The game went on without her: a computer player took seat 0 and everyone is a computer
    // now, so it played to the end.
    assert_eq!(view["seats"][0]["bot"], "greedy");
    assert_eq!(view["status"], "finished");
    // She left: she sees the table as a spectator, never the computer's cards.
    assert!(view["your_seat"].is_null());
    assert_eq!(view["table"]["hand"], serde_json::json!([]));
    assert!(
        reply.body["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["event"]["type"] != "dealt")
    );
    server
        .get(&format!("/api/v1/games/{id}"), Some(&amira.token))
        .assert_problem(403, "forbidden");
}

fn resigning_before_the_start_abandons_the_game(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(&amira, json!({"kind": "basra", "seats": [{}, {}]}));
    let reply = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&amira.token),
        &json!({}),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["view"]["status"], "abandoned");
    let listed = server.get("/api/v1/games?status=abandoned", Some(&amira.token));
    assert_eq!(listed.body["total"], 1);
}

fn my_games_are_listed_newest_first_by_page(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(
            server
                .create(
                    &amira,
                    json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
                )
                .0,
        );
    }
    server.create(
        &karim,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let page1 = server.get("/api/v1/games?mine=true&per_page=2", Some(&amira.token));
    assert_eq!(page1.status, 200);
    assert_eq!(page1.body["total"], 5);
    let listed: Vec<i64> = page1.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, vec![ids[4], ids[3]]);
    let page3 = server.get("/api/v1/games?page=3&per_page=2", Some(&amira.token));
    assert_eq!(page3.body["games"].as_array().unwrap().len(), 1);
    let waiting = server.get("/api/v1/games?status=waiting,finished", Some(&amira.token));
    assert_eq!(waiting.body["total"], 0);
    server
        .get("/api/v1/games?status=sleeping", Some(&amira.token))
        .assert_problem(422, "validation_failed");
    server
        .get("/api/v1/games?per_page=0", Some(&amira.token))
        .assert_problem(422, "validation_failed");
    server
        .get("/api/v1/games?page=abc", Some(&amira.token))
        .assert_problem(400, "validation_failed");
    server
        .get("/api/v1/games?mine=false", Some(&amira.token))
        .assert_problem(422, "validation_failed");
}

fn events_long_poll_brings_the_other_players_move(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(&amira, json!({"kind": "basra", "seats": [{}, {}]}));
    let invite = view["invite_code"].as_str().unwrap();
    server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": invite}),
    );
    let karim_view = server.view(&karim, id);
    let version = karim_view["version"].as_i64().unwrap();
    let (mover, waiter) = if karim_view["to_act"] == 1 {
        (&karim, &amira)
    } else {
        (&amira, &karim)
    };
    let waiting_server = &server;
    std::thread::scope(|scope| {
        let poll = scope.spawn(move || {
            waiting_server.get(
                &format!("/api/v1/games/{id}/events?after={version}&wait=5"),
                Some(&waiter.token),
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(500));
        let view = server.view(mover, id);
        let mv = view["legal_moves"][0].clone();
        assert_eq!(server.play(mover, &view, &mv).status, 200);
        let reply = poll.join().unwrap();
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body["version"], version + 1);
        let event = &reply.body["events"][0];
        assert_eq!(event["version"], version + 1);
        assert_eq!(event["event"]["type"], "played");
        assert_eq!(event["event"]["card"], mv["card"]);
    });
    // With nothing new, the poll waits and answers empty.
    let now = server.view(&amira, id)["version"].as_i64().unwrap();
    let idle = server.get(
        &format!("/api/v1/games/{id}/events?after={now}&wait=1"),
        Some(&amira.token),
    );
    assert_eq!(idle.status, 200);
    assert_eq!(idle.body["events"], json!([]));
}

/// The view's recent events are the seat's own events of the game's last twelve versions (the
/// same the event feed gives from there), in a view and in a move's answer, as the game goes.
fn recent_events_are_the_last_versions_of_the_feed(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let feed_from = |version: i64| {
        let after = (version - 12).max(0);
        let reply = server.get(
            &format!("/api/v1/games/{id}/events?after={after}&wait=0"),
            Some(&amira.token),
        );
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body["events"].clone()
    };
    let mut checked = 0;
    for _ in 0..30 {
        let view = server.view(&amira, id);
        if view["status"] != "active" {
            break;
        }
        let version = view["version"].as_i64().unwrap();
        assert_eq!(
            view["recent_events"],
            feed_from(version),
            "version {version}"
        );
        let reply = server.play(&amira, &view, &view["legal_moves"][0]);
        assert_eq!(reply.status, 200, "{reply:?}");
        let answered = &reply.body["view"];
        let version = answered["version"].as_i64().unwrap();
        assert_eq!(
            answered["recent_events"],
            feed_from(version),
            "version {version}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} moves were checked");
}

on_both_backends!(
    recent_events_are_the_last_versions_of_the_feed,
    a_person_plays_standard_basra_to_the_end_against_the_computer,
    a_person_plays_classic44_to_the_end_against_the_computer,
    a_person_plays_cse231_to_the_end_against_the_computer,
    two_people_play_basra_to_the_end_with_the_invite_code,
    four_partners_play_with_computer_players,
    resigning_a_two_sided_game_loses_it,
    resigning_a_three_player_game_hands_the_seat_to_the_computer,
    resigning_before_the_start_abandons_the_game,
    my_games_are_listed_newest_first_by_page,
    events_long_poll_brings_the_other_players_move,
    a_long_game_streams_from_the_start_in_pages_each_version_once,
);
