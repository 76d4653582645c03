//! Finding a game with others: public tables in the lobby, sitting down without an invite code,
//! watching a public game (and never seeing a hidden card doing so), and closing the tables
//! nobody joined.

use std::time::{Duration, Instant};

use cardroom_core::Viewer;
use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server, cards_in};

/// Opens a table with `visibility`; returns its id.
fn open(server: &Server, player: &Player, body: Value) -> i64 {
    let reply = server.post("/api/v1/games", Some(&player.token), &body);
    assert_eq!(reply.status, 201, "{reply:?}");
    reply.body["id"].as_i64().unwrap()
}

fn lobby_ids(server: &Server, query: &str) -> Vec<i64> {
    let reply = server.get(&format!("/api/v1/lobby{query}"), None);
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.body["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect()
}

fn strangers_find_a_public_table_in_the_lobby_and_sit_down_without_a_code(backend: Backend) {
    let server = Server::start(backend);
    let host = server.register("host");
    let stranger = server.guest("stranger");
    let public = open(
        &server,
        &host,
        json!({"kind": "tarneeb", "seats": [{}, {}, {"bot": "easy"}, {"bot": "easy"}],
               "visibility": "public", "turn": {"seconds": 60}}),
    );
    let basra = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    let unlisted = open(&server, &host, json!({"kind": "basra", "seats": [{}, {}]}));
    let private = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "private"}),
    );
    // Only the public tables are listed, the longest-waiting first, and filters work.
    assert_eq!(lobby_ids(&server, ""), vec![public, basra]);
    assert_eq!(lobby_ids(&server, "?kind=basra"), vec![basra]);
    assert_eq!(
        lobby_ids(&server, "?kind=basra&variant=standard"),
        vec![basra]
    );
    assert!(lobby_ids(&server, "?kind=basra&variant=cse231").is_empty());
    let listed = server.get("/api/v1/lobby?kind=tarneeb", None).body;
    let table = &listed["tables"][0];
    assert_eq!(table["rated"], true);
    assert_eq!(table["open_seats"], 1);
    assert_eq!(table["turn"]["seconds"], 60);
    assert_eq!(table["seats"][0]["name"], "host");
    assert_eq!(table["seats"][1]["open"], true);
    assert_eq!(table["seats"][2]["bot"], "easy");
    assert!(table["waiting_seconds"].as_i64().unwrap() >= 0);
    assert_eq!(listed["expires_after_seconds"], 1800);
    // A stranger sits down with one call and no code; the table starts and leaves the lobby.
    let joined = server.post(
        &format!("/api/v1/games/{public}/join"),
        Some(&stranger.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["your_seat"], 1);
    assert_eq!(joined.body["visibility"], "public");
    assert_ne!(joined.body["status"], "waiting");
    assert_eq!(lobby_ids(&server, ""), vec![basra]);
    // Now it is among the games anyone may watch (and only it: the others wait, or are not
    // public).
    let playing = server.get("/api/v1/lobby", None).body["playing"].clone();
    assert_eq!(playing.as_array().map(Vec::len), Some(1), "{playing}");
    assert_eq!(playing[0]["id"], public);
    assert_eq!(playing[0]["seats"][1]["name"], "stranger");
    // The other tables still want their code.
    for id in [unlisted, private] {
        server
            .post(
                &format!("/api/v1/games/{id}/join"),
                Some(&stranger.token),
                &json!({}),
            )
            .assert_problem(403, "forbidden");
    }
}

fn anyone_may_watch_a_public_game_signed_in_or_not_and_no_one_a_private_one(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let watcher = server.guest("watcher");
    let public = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}], "visibility": "public"}),
    );
    let private = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}], "visibility": "private"}),
    );
    let unlisted = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let view = server.view(&watcher, public);
    assert_eq!(view["your_seat"], Value::Null);
    assert_eq!(view["legal_moves"], json!([]));
    assert_eq!(view["invite_code"], Value::Null);
    for suffix in ["/events?after=0&wait=0", "/log", "/score"] {
        let reply = server.get(
            &format!("/api/v1/games/{public}{suffix}"),
            Some(&watcher.token),
        );
        assert_eq!(reply.status, 200, "{suffix}: {reply:?}");
    }
    assert!(
        server
            .stream(
                &format!("/api/v1/games/{public}/events"),
                &watcher.token,
                None
            )
            .is_ok()
    );
    // A spectator cannot play.
    let mv = server.view(&host, public)["legal_moves"][0].clone();
    server
        .play(&watcher, &view, &mv)
        .assert_problem(403, "forbidden");
    // A stranger — no token at all, someone who opened the table's link — watches it too: the
    // spectator's view, its events, its score sheet and the spectators' chat, live.
    let seen = server.get(&format!("/api/v1/games/{public}"), None);
    assert_eq!(seen.status, 200, "{seen:?}");
    assert_eq!(seen.body["your_seat"], Value::Null);
    assert_eq!(seen.body["legal_moves"], json!([]));
    assert_eq!(seen.body["invite_code"], Value::Null);
    assert_eq!(seen.body["table"], server.view(&watcher, public)["table"]);
    for suffix in ["/events?after=0&wait=0", "/score", "/chat"] {
        let reply = server.get(&format!("/api/v1/games/{public}{suffix}"), None);
        assert_eq!(reply.status, 200, "{suffix}: {reply:?}");
    }
    let chat = server
        .get(&format!("/api/v1/games/{public}/chat"), None)
        .body;
    assert_eq!(chat["room"], "spectators", "{chat}");
    assert_eq!(chat["writes"], false, "{chat}");
    let stream = server
        .stranger_stream(&format!("/api/v1/games/{public}/events?after=0"))
        .expect("a stranger's event stream");
    let first = stream
        .recv_timeout(Duration::from_secs(5))
        .expect("an event");
    assert!(first.1["version"].is_i64(), "{first:?}");
    // What needs an account still does: the log, the export, a move, a word in the chat.
    for suffix in ["/log", "/export"] {
        server
            .get(&format!("/api/v1/games/{public}{suffix}"), None)
            .assert_problem(401, "unauthorized");
    }
    server
        .post(
            &format!("/api/v1/games/{public}/chat"),
            None,
            &json!({"text": "hi"}),
        )
        .assert_problem(401, "unauthorized");
    // A credential that is sent is checked: a bad one is refused, not read as a stranger's.
    server
        .get(&format!("/api/v1/games/{public}"), Some("not-a-token"))
        .assert_problem(401, "unauthorized");
    // Other tables: refused — a stranger is told to sign in, anyone else that it is not theirs.
    for id in [private, unlisted] {
        for suffix in [
            "",
            "/events?after=0&wait=0",
            "/log",
            "/score",
            "/chat",
            "/analysis",
        ] {
            server
                .get(&format!("/api/v1/games/{id}{suffix}"), Some(&watcher.token))
                .assert_problem(403, "forbidden");
            server
                .get(&format!("/api/v1/games/{id}{suffix}"), None)
                .assert_problem(401, "unauthorized");
        }
        assert!(
            server
                .stranger_stream(&format!("/api/v1/games/{id}/events"))
                .is_err()
        );
    }
}

/// Plays a public game of `kind` between a person and computer players, with a spectator
/// reading every endpoint after every step: nothing the spectator gets ever names a card that
/// was not shown to everyone (the stored state's public zones, and the cards public events
/// named).
fn a_spectator_never_sees_a_hidden_card(backend: Backend, game: Value, steps: usize) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let watcher = server.guest("watcher");
    let mut body = game;
    body["visibility"] = json!("public");
    let id = open(&server, &host, body);
    // The spectator's event stream from the start, and all it has sent so far.
    let stream = server
        .stream(
            &format!("/api/v1/games/{id}/events?after=0"),
            &watcher.token,
            None,
        )
        .unwrap();
    let mut streamed = Vec::new();
    for step in 0..=steps {
        let (_, public) = crate::visibility::known_to(&server, id, Viewer::Spectator);
        let over = step == steps || server.view(&host, id)["status"] == "finished";
        let wait = if over {
            Duration::from_secs(1)
        } else {
            Duration::ZERO
        };
        while let Ok((_, event)) = stream.recv_timeout(wait) {
            streamed.push(event);
        }
        let hidden = cards_in(&Value::from(streamed.clone())) - public;
        assert!(
            hidden.is_empty(),
            "step {step}: the event stream showed the spectator {hidden:?}"
        );
        if over {
            assert!(!streamed.is_empty(), "the stream sent nothing");
            break;
        }
        let readers: [(Option<&str>, &[&str]); 2] = [
            (
                Some(&watcher.token),
                &["", "/events?after=0&wait=0", "/log", "/score"],
            ),
            // A stranger, with no token at all (the log needs an account).
            (None, &["", "/events?after=0&wait=0", "/score", "/chat"]),
        ];
        for (token, suffix) in readers
            .iter()
            .flat_map(|(token, suffixes)| suffixes.iter().map(move |suffix| (*token, *suffix)))
        {
            let reply = server.get(&format!("/api/v1/games/{id}{suffix}"), token);
            assert_eq!(reply.status, 200, "{suffix} ({token:?}): {reply:?}");
            let mut seen = cards_in(&reply.body);
            if suffix == "/log" {
                // Revealed seeds and practice decks are not cards on the table.
                seen = cards_in(&reply.body["entries"]);
            }
            let hidden = seen - public;
            assert!(
                hidden.is_empty(),
                "step {step}: {suffix} showed the spectator {hidden:?}"
            );
        }
        let view = server.view(&host, id);
        match view["status"].as_str() {
            Some("finished") => break,
            Some("hand_over") => {
                let dealt = server.post(
                    &format!("/api/v1/games/{id}/deal"),
                    Some(&host.token),
                    &json!({}),
                );
                assert_eq!(dealt.status, 200, "{dealt:?}");
            }
            _ => {
                let legal = view["legal_moves"].as_array().unwrap().clone();
                assert!(!legal.is_empty(), "{view}");
                let reply = server.play(&host, &view, &crate::visibility::steady(&legal));
                assert_eq!(reply.status, 200, "{reply:?}");
            }
        }
    }
}

fn a_basra_spectator_never_sees_a_hidden_card(backend: Backend) {
    a_spectator_never_sees_a_hidden_card(
        backend,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}]}),
        40,
    );
}

fn a_31_spectator_never_sees_a_hidden_card(backend: Backend) {
    a_spectator_never_sees_a_hidden_card(
        backend,
        json!({"kind": "thirty_one", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}]}),
        40,
    );
}

fn a_rummy_spectator_never_sees_a_hidden_card(backend: Backend) {
    a_spectator_never_sees_a_hidden_card(
        backend,
        json!({"kind": "rummy", "seats": [{}, {"bot": "easy"}]}),
        40,
    );
}

fn a_tarneeb_spectator_never_sees_a_hidden_card(backend: Backend) {
    a_spectator_never_sees_a_hidden_card(
        backend,
        json!({"kind": "tarneeb", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]}),
        40,
    );
}

fn a_public_table_nobody_joins_is_closed_after_its_time(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_OPEN_TABLE_SECS", "1"),
            ("CARDROOM_SWEEP_MS", "200"),
        ],
    );
    let host = server.guest("lonely");
    let id = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    // Unlisted tables wait for their friends as long as it takes.
    let unlisted = open(&server, &host, json!({"kind": "basra", "seats": [{}, {}]}));
    let started = Instant::now();
    loop {
        let view = server.view(&host, id);
        if view["status"] == "abandoned" {
            assert!(
                view["recent_events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["event"]["type"] == "expired"),
                "{view}"
            );
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the table was not closed: {view}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(lobby_ids(&server, "").is_empty());
    assert_eq!(server.view(&host, unlisted)["status"], "waiting");
    let stranger = server.guest("late");
    let late = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&stranger.token),
        &json!({}),
    );
    assert_eq!(late.status, 409, "{late:?}");
}

on_both_backends!(
    strangers_find_a_public_table_in_the_lobby_and_sit_down_without_a_code,
    anyone_may_watch_a_public_game_signed_in_or_not_and_no_one_a_private_one,
    a_basra_spectator_never_sees_a_hidden_card,
    a_31_spectator_never_sees_a_hidden_card,
    a_rummy_spectator_never_sees_a_hidden_card,
    a_tarneeb_spectator_never_sees_a_hidden_card,
    a_public_table_nobody_joins_is_closed_after_its_time,
);

/// The next `lobby` event's table ids within `wait` (skipping listings that `skip` says are not
/// the one awaited).
fn next_listing(
    events: &std::sync::mpsc::Receiver<(Instant, Value)>,
    wait: Duration,
    done: impl Fn(&[i64]) -> bool,
) -> Vec<i64> {
    let until = Instant::now() + wait;
    loop {
        let left = until
            .checked_duration_since(Instant::now())
            .expect("the lobby stream said nothing new in time");
        let (_, listing) = events.recv_timeout(left).expect("a lobby event");
        let ids: Vec<i64> = listing["tables"]
            .as_array()
            .unwrap_or_else(|| panic!("not a listing: {listing}"))
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect();
        if done(&ids) {
            return ids;
        }
    }
}

fn the_lobby_stream_tells_of_tables_opening_filling_and_closing(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let stranger = server.guest("stranger");
    let events = server.stream("/api/v1/lobby", "", None).unwrap();
    assert!(next_listing(&events, Duration::from_secs(5), |_| true).is_empty());
    let id = open(
        &server,
        &host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    assert_eq!(
        next_listing(&events, Duration::from_secs(5), |ids| !ids.is_empty()),
        vec![id]
    );
    // A table of another game in a filtered stream is no news there.
    let rummy_only = server.stream("/api/v1/lobby?kind=rummy", "", None).unwrap();
    assert!(next_listing(&rummy_only, Duration::from_secs(5), |_| true).is_empty());
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&stranger.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert!(next_listing(&events, Duration::from_secs(5), |ids| ids.is_empty()).is_empty());
    assert!(
        rummy_only
            .recv_timeout(Duration::from_millis(1500))
            .is_err(),
        "a filtered stream repeated an unchanged listing"
    );
}

#[test]
fn a_lobby_stream_on_one_replica_tells_of_a_table_opened_through_another() {
    let a = Server::start(Backend::Postgres);
    // (B's safety net reads once a minute: the notice brings the table.)
    let b = a.replica(&[("CARDROOM_RECHECK_MS", "60000")]);
    let host = a.guest("host");
    let events = b.stream("/api/v1/lobby", "", None).unwrap();
    assert!(next_listing(&events, Duration::from_secs(5), |_| true).is_empty());
    let id = open(
        &a,
        &host,
        json!({"kind": "thirty_one", "seats": [{}, {}, {"bot": "easy"}], "visibility": "public"}),
    );
    assert_eq!(
        next_listing(&events, Duration::from_secs(5), |ids| !ids.is_empty()),
        vec![id]
    );
}

fn lobby_streams_sleep_through_moves_and_wake_when_their_listing_changes(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let (id, _) = server.create(
        &host,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "visibility": "public"}),
    );
    let followers: Vec<_> = (0..20)
        .map(|_| server.stream("/api/v1/lobby", "", None).unwrap())
        .collect();
    for events in &followers {
        let (_, listing) = events.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(listing["playing"][0]["id"], id, "{listing}");
    }
    // Moves change no listing: the followers are not woken for them (the listing's one
    // reader is), and hear nothing.
    std::thread::sleep(Duration::from_millis(500));
    let wakes = server.metric("cardroom_stream_wakes_total");
    for _ in 0..6 {
        let deadline = Instant::now() + Duration::from_secs(10);
        let view = loop {
            let view = server.view(&host, id);
            if view["to_act"] == view["your_seat"] {
                break view;
            }
            assert!(Instant::now() < deadline, "the computer never answered");
            std::thread::sleep(Duration::from_millis(20));
        };
        let reply = server.play(&host, &view, &view["legal_moves"][0]);
        assert_eq!(reply.status, 200, "{reply:?}");
    }
    std::thread::sleep(Duration::from_millis(500));
    let woken = server.metric("cardroom_stream_wakes_total") - wakes;
    assert!(
        woken < followers.len() as f64,
        "12 moves woke the 20 lobby streams {woken} times"
    );
    for events in &followers {
        assert!(events.try_recv().is_err(), "a move was news to the lobby");
    }
    // A table opened is news to every follower.
    let table = open(
        &server,
        &host,
        json!({"kind": "rummy", "seats": [{}, {}], "visibility": "public"}),
    );
    for events in &followers {
        assert_eq!(
            next_listing(events, Duration::from_secs(5), |ids| !ids.is_empty()),
            vec![table]
        );
    }
}

on_both_backends!(
    the_lobby_stream_tells_of_tables_opening_filling_and_closing,
    lobby_streams_sleep_through_moves_and_wake_when_their_listing_changes,
);
