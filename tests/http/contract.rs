//! What a program relies on at the edges of the contract: a resumption point the server never
//! sent is refused rather than waited on for ever, a hand two players are asked to deal is
//! dealt once, the slower one told so as a success, a bot account is limited as a bot, and a
//! move that names another game is refused.

use std::time::Duration;

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::programs::api_token;
use crate::support::{Backend, Player, Server};

/// A game of 31 (classic) between two people, played by both until the first hand is over.
fn hand_over(server: &Server) -> (i64, Player, Player) {
    let ann = server.guest("ann");
    let bob = server.guest("bob");
    let (id, created) = server.create(
        &ann,
        json!({"kind": "thirty_one", "variant": "classic", "seats": [{}, {}]}),
    );
    let code = created["invite_code"].as_str().unwrap().to_owned();
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&bob.token),
        &json!({"invite_code": code}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    for _ in 0..200 {
        let view = server.view(&ann, id);
        if view["status"] == "hand_over" {
            return (id, ann, bob);
        }
        let mover = if view["to_act"] == view["your_seat"] {
            &ann
        } else {
            &bob
        };
        let mine = server.view(mover, id);
        let legal = mine["legal_moves"].as_array().unwrap();
        let mv = legal
            .iter()
            .find(|m| m["type"] == "knock")
            .unwrap_or(&legal[0])
            .clone();
        let played = server.play(mover, &mine, &mv);
        assert_eq!(played.status, 200, "{played:?}");
    }
    panic!("the hand did not end");
}

fn two_players_asked_to_deal_deal_once_and_both_hear_success(backend: Backend) {
    let server = Server::start(backend);
    let (id, ann, bob) = hand_over(&server);
    let version = server.view(&ann, id)["version"].as_i64().unwrap();
    let deal = |player: &Player, body: Value| {
        server.post(
            &format!("/api/v1/games/{id}/deal"),
            Some(&player.token),
            &body,
        )
    };
    let first = deal(&ann, json!({"expected_version": version}));
    assert_eq!(first.status, 200, "{first:?}");
    assert!(!first.body["events"].as_array().unwrap().is_empty());
    let dealt = server.view(&ann, id)["version"].as_i64().unwrap();
    // Bob, asked too, deals the same hand a moment later: a success, with nothing more done.
    let second = deal(&bob, json!({"expected_version": version}));
    assert_eq!(second.status, 200, "{second:?}");
    assert_eq!(second.body["events"], json!([]));
    assert_eq!(second.body["view"]["version"], dealt);
    assert_eq!(server.view(&ann, id)["version"], dealt, "one deal, not two");
    // Without the version, the old answer stands: the hand is not over.
    deal(&bob, json!({})).assert_problem(409, "hand_not_over");
    // A version the game has not reached, or a body that is not a deal's, is refused.
    deal(&bob, json!({"expected_version": dealt + 5})).assert_problem(409, "version_conflict");
    deal(&bob, json!({"expected_version": -1})).assert_problem(422, "validation_failed");
    deal(&bob, json!({"version": 3})).assert_problem(422, "validation_failed");
    deal(&bob, json!([1])).assert_problem(422, "validation_failed");
    assert_eq!(
        server.view(&ann, id)["version"],
        dealt,
        "nothing refused moved the game"
    );
}

fn a_resumption_point_never_sent_is_refused_not_waited_on(backend: Backend) {
    let server = Server::start(backend);
    let ann = server.guest("ann");
    let (id, view) = server.create(
        &ann,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let version = view["version"].as_i64().unwrap();
    let events = format!("/api/v1/games/{id}/events");
    let bearer = format!("Bearer {}", ann.token);
    // Beyond the newest version: as a query, and as a stream's Last-Event-ID.
    server
        .get(
            &format!("{events}?after={}&wait=1", version + 1),
            Some(&ann.token),
        )
        .assert_problem(409, "cursor_ahead");
    for id_header in [format!("{}", version + 7), format!("{}:3", version + 7)] {
        server
            .get_with(
                &events,
                &[
                    ("Authorization", &bearer),
                    ("Accept", "text/event-stream"),
                    ("Last-Event-ID", &id_header),
                ],
            )
            .assert_problem(409, "cursor_ahead");
    }
    // A Last-Event-ID that is no id at all.
    for bad in ["abc", "3:x", "-1", "1.5", ""] {
        server
            .get_with(
                &events,
                &[
                    ("Authorization", &bearer),
                    ("Accept", "text/event-stream"),
                    ("Last-Event-ID", bad),
                ],
            )
            .assert_problem(400, "invalid_cursor");
    }
    // The newest version itself is a fine place to resume.
    let now = server.get(
        &format!("{events}?after={version}&wait=0"),
        Some(&ann.token),
    );
    assert_eq!(now.status, 200, "{now:?}");

    // The account's stream likewise.
    let stream = "/api/v1/stream/events";
    server
        .get_with(
            &format!("{stream}?after=999999"),
            &[("Authorization", &bearer)],
        )
        .assert_problem(409, "cursor_ahead");
    server
        .get_with(
            stream,
            &[("Authorization", &bearer), ("Last-Event-ID", "999999")],
        )
        .assert_problem(409, "cursor_ahead");
    for bad in ["abc", "-4", "2:1"] {
        server
            .get_with(
                stream,
                &[("Authorization", &bearer), ("Last-Event-ID", bad)],
            )
            .assert_problem(400, "invalid_cursor");
    }
}

/// A bot account's personal tokens count against a limit of their own: a program plays at
/// machine speed, against another, and the people's limit would throttle it out of its games.
fn a_bot_accounts_writes_have_a_tier_of_their_own(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_WRITES_PER_MINUTE", "60"),
            ("CARDROOM_WRITES_BURST", "3"),
            ("CARDROOM_BOT_WRITES_PER_MINUTE", "600"),
            ("CARDROOM_BOT_WRITES_BURST", "20"),
        ],
    );
    let robot = server.register("robot");
    let became = server.post("/api/v1/account/bot", Some(&robot.token), &json!({}));
    assert_eq!(became.status, 200, "{became:?}");
    let token = api_token(&server, &robot, &["play", "read"]);
    // (A token is known for a bot's once it has been looked up: its first request does that,
    // as a bot's stream does.)
    let first = server.get("/api/v1/games?mine=true", Some(&token));
    assert_eq!(first.status, 200, "{first:?}");
    let basra = json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]});
    for n in 0..10 {
        let made = server.post("/api/v1/games", Some(&token), &basra);
        assert_eq!(made.status, 201, "write {n}: {made:?}");
        assert_eq!(
            made.header("ratelimit-policy"),
            Some("\"bot_writes\";q=600;w=60"),
            "{made:?}"
        );
    }
    // A person's token, past the people's burst, is refused as before.
    let person = server.register("person");
    let mine = api_token(&server, &person, &["play"]);
    std::thread::sleep(Duration::from_millis(1100));
    let statuses: Vec<u16> = (0..4)
        .map(|_| server.post("/api/v1/games", Some(&mine), &basra).status)
        .collect();
    assert_eq!(statuses, vec![201, 201, 201, 429]);
}

/// A move may say which game it is for: the server takes it when it is the game's, refuses it
/// (the game unchanged, the caller's moves typed by game) when it is another's, and still takes
/// a move that does not say, as older clients send them. Every answer says the game's kind.
fn a_move_says_its_game_and_one_for_another_game_is_refused(backend: Backend) {
    let server = Server::start(backend);
    let kinds = [
        ("basra", 2),
        ("thirty_one", 2),
        ("rummy", 2),
        ("tarneeb", 4),
    ];
    for (n, (kind, seats)) in kinds.iter().enumerate() {
        let player = server.guest(&format!("typed{n}"));
        let mut body = json!({"kind": kind, "seats": [{}]});
        for _ in 1..*seats {
            body["seats"]
                .as_array_mut()
                .unwrap()
                .push(json!({"bot": "easy"}));
        }
        // (A deal may end its hand at once — a 31 dealt to the computer player, a showdown —
        // then another table, so the move is the creator's to make.)
        let (id, view) = (0..10)
            .map(|_| server.create(&player, body.clone()))
            .find(|(_, view)| view["status"] == "active" && view["to_act"] == view["your_seat"])
            .unwrap_or_else(|| panic!("{kind}: no table of ten began on the creator's turn"));
        let other = kinds[(n + 1) % kinds.len()].0;
        let mv = view["legal_moves"][0].clone();
        let path = format!("/api/v1/games/{id}/moves");
        let wrong = server.post(
            &path,
            Some(&player.token),
            &json!({"kind": other, "expected_version": view["version"], "move": mv}),
        );
        wrong.assert_problem(422, "illegal_move");
        assert_eq!(wrong.body["refusal"], "wrong_game", "{wrong:?}");
        assert_eq!(wrong.body["legal"]["kind"], *kind, "{wrong:?}");
        assert_eq!(
            wrong.body["legal"]["moves"], view["legal_moves"],
            "{wrong:?}"
        );
        assert_eq!(
            server.view(&player, id)["version"],
            view["version"],
            "{kind}"
        );
        let right = server.post(
            &path,
            Some(&player.token),
            &json!({"kind": kind, "expected_version": view["version"], "move": mv}),
        );
        assert_eq!(right.status, 200, "{kind}: {right:?}");
        assert_eq!(right.body["kind"], *kind);
        assert_eq!(right.body["view"]["kind"], *kind);
        let page = server.get(
            &format!("/api/v1/games/{id}/events?after=0&wait=0"),
            Some(&player.token),
        );
        assert_eq!(page.body["kind"], *kind, "{page:?}");
        // A move that does not say its game, as clients before `kind` send them.
        let view = server.view(&player, id);
        if view["to_act"] == view["your_seat"] && view["status"] == "active" {
            let untagged = server.play(&player, &view, &view["legal_moves"][0]);
            assert_eq!(untagged.status, 200, "{kind}: {untagged:?}");
        }
    }
}

on_both_backends!(
    a_move_says_its_game_and_one_for_another_game_is_refused,
    a_bot_accounts_writes_have_a_tier_of_their_own,
    two_players_asked_to_deal_deal_once_and_both_hear_success,
    a_resumption_point_never_sent_is_refused_not_waited_on,
);
