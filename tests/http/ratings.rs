//! Ratings, profiles and leaderboards: Glicko-2 updates as rated games finish, checked against
//! values computed by hand (an independent implementation of Glickman's steps, tau 0.5), and
//! who is (not) rated.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server};

/// A two-seat Basra game between `winner` (seat 0) and `loser`, who resigns.
fn play_and_resign(server: &Server, winner: &Player, loser: &Player, extra: Value) -> i64 {
    let mut body = json!({"kind": "basra", "seats": [{}, {}]});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let reply = server.post("/api/v1/games", Some(&winner.token), &body);
    assert_eq!(reply.status, 201, "{reply:?}");
    let id = reply.body["id"].as_i64().unwrap();
    let code = reply.body["invite_code"].clone();
    let join = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&loser.token),
        &json!({ "invite_code": code }),
    );
    assert_eq!(join.status, 200, "{join:?}");
    let resign = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&loser.token),
        &json!({}),
    );
    assert_eq!(resign.status, 200, "{resign:?}");
    assert_eq!(server.view(winner, id)["status"], "finished");
    id
}

fn profile(server: &Server, name: &str) -> Value {
    let reply = server.get(&format!("/api/v1/players/{name}"), None);
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.body
}

/// The profile's rating in `pool` of Basra: (rating, deviation, games).
fn rating(profile: &Value, pool: &str) -> Option<(f64, f64, i64)> {
    rating_in(profile, "basra", pool)
}

/// The profile's rating in `pool` of `kind`: (rating, deviation, games).
fn rating_in(profile: &Value, kind: &str, pool: &str) -> Option<(f64, f64, i64)> {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == kind && r["pool"] == pool)
        .map(|r| {
            (
                r["rating"].as_f64().unwrap(),
                r["deviation"].as_f64().unwrap(),
                r["games"].as_i64().unwrap(),
            )
        })
}

fn assert_close(actual: (f64, f64, i64), rating: f64, deviation: f64, games: i64) {
    assert!(
        (actual.0 - rating).abs() < 0.01 && (actual.1 - deviation).abs() < 0.01,
        "{actual:?} is not {rating} ± {deviation}"
    );
    assert_eq!(actual.2, games);
}

fn rated_games_move_glicko2_ratings_and_show_on_profiles_and_boards(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.register("amira");
    let badr = server.register("badr");
    let karim = server.guest("karim");

    // Two new players (1500 ± 350, volatility 0.06): the winner 1662.31 ± 290.32.
    let first = play_and_resign(&server, &amira, &badr, json!({}));
    assert_close(
        rating(&profile(&server, "amira"), "people").unwrap(),
        1662.31,
        290.32,
        1,
    );
    assert_close(
        rating(&profile(&server, "badr"), "people").unwrap(),
        1337.69,
        290.32,
        1,
    );
    // Again: each against the other's rating after the first game.
    play_and_resign(&server, &amira, &badr, json!({}));
    let amira_profile = profile(&server, "amira");
    assert_close(
        rating(&amira_profile, "people").unwrap(),
        1720.32,
        260.49,
        2,
    );
    assert_close(
        rating(&profile(&server, "badr"), "people").unwrap(),
        1279.68,
        260.49,
        2,
    );
    let history = amira_profile["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{amira_profile}");
    assert_eq!(history[0]["game_id"], first);
    assert_eq!(history[0]["before"], 1500.0);
    assert!((history[1]["before"].as_f64().unwrap() - 1662.31).abs() < 0.01);
    assert_eq!(
        amira_profile["records"],
        json!([{"kind": "basra", "games": 2, "wins": 2, "win_rate": 1.0}])
    );
    assert_eq!(amira_profile["recent_games"].as_array().unwrap().len(), 2);
    assert_eq!(amira_profile["recent_games"][0]["won"], true);

    // Neither a guest's game nor a practice game moves a rating.
    play_and_resign(&server, &amira, &karim, json!({}));
    play_and_resign(&server, &amira, &badr, json!({"seed": "00".repeat(32)}));
    let amira_profile = profile(&server, "amira");
    assert_eq!(rating(&amira_profile, "people").unwrap().2, 2);
    assert_eq!(amira_profile["records"][0]["games"], 3, "{amira_profile}");
    let karim_profile = profile(&server, "karim");
    assert_eq!(karim_profile["guest"], true);
    assert_eq!(karim_profile["ratings"], json!([]));

    // Against a computer: its level's anchor (easy, 1200 ± 50). Losing from 1500 ± 350.
    let (id, _) = server.create(
        &badr,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let resign = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&badr.token),
        &json!({}),
    );
    assert_eq!(resign.status, 200, "{resign:?}");
    let badr_profile = profile(&server, "badr");
    assert_close(
        rating(&badr_profile, "computers").unwrap(),
        1110.78,
        284.43,
        1,
    );
    assert_eq!(rating(&badr_profile, "people").unwrap().2, 2);

    // The boards: best first, each pool apart.
    let board = server.get("/api/v1/leaderboards/basra", None);
    assert_eq!(board.status, 200, "{board:?}");
    assert_eq!(board.body["total"], 2);
    assert_eq!(board.body["standings"][0]["name"], "amira");
    assert_eq!(board.body["standings"][0]["rank"], 1);
    assert_eq!(board.body["standings"][0]["provisional"], true);
    assert_eq!(board.body["standings"][1]["name"], "badr");
    let page_two = server.get("/api/v1/leaderboards/basra?per_page=1&page=2", None);
    assert_eq!(page_two.body["standings"][0]["name"], "badr");
    assert_eq!(page_two.body["standings"][0]["rank"], 2);
    let computers = server.get("/api/v1/leaderboards/basra?pool=computers", None);
    assert_eq!(computers.body["total"], 1, "{computers:?}");
    assert_eq!(computers.body["standings"][0]["name"], "badr");
    let more = server.get("/api/v1/leaderboards/basra?min_games=3", None);
    assert_eq!(more.body["total"], 0, "{more:?}");
    let tarneeb = server.get("/api/v1/leaderboards/tarneeb", None);
    assert_eq!(tarneeb.body["standings"], json!([]));

    // `cardroom check` holds every result and rating to the games; then finds each changed.
    crate::backups::assert_sound(&server.database_url);
    crate::backups::assert_damage_named(
        &server.database_url,
        &[
            format!("UPDATE results SET won = NOT won WHERE game_id = {first} AND seat = 1"),
            format!(
                "UPDATE ratings SET rating = rating + 1 WHERE user_id = {} AND pool = 'people'",
                badr.id
            ),
            format!(
                "UPDATE rating_history SET before = before - 1 WHERE user_id = {} AND game_id = {first}",
                amira.id
            ),
        ],
        &[
            format!("game {first}: its stored results are not the replayed game's"),
            format!("user {}'s basra rating (pool people): stored as", badr.id),
            format!(
                "user {}'s basra rating (pool people): 2 of its 2 changes do not follow",
                amira.id
            ),
        ],
    );
}

on_both_backends!(rated_games_move_glicko2_ratings_and_show_on_profiles_and_boards);

fn boards_and_profiles_refuse_what_is_not_there(backend: Backend) {
    let server = Server::start(backend);
    server
        .get("/api/v1/players/nobody", None)
        .assert_problem(404, "not_found");
    server
        .get("/api/v1/leaderboards/chess", None)
        .assert_problem(404, "not_found");
    for query in ["pool=robots", "min_games=-1", "page=0", "per_page=1000"] {
        server
            .get(&format!("/api/v1/leaderboards/basra?{query}"), None)
            .assert_problem(422, "validation_failed");
    }
    server
        .get("/api/v1/leaderboards/basra?colour=red", None)
        .assert_problem(400, "validation_failed");
}

on_both_backends!(boards_and_profiles_refuse_what_is_not_there);

fn leaving_a_game_of_several_sides_is_rated_as_losing_to_everyone_left(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.register("amira");
    let badr = server.register("badr");
    let chadi = server.register("chadi");
    let reply = server.post(
        "/api/v1/games",
        Some(&amira.token),
        &json!({"kind": "thirty_one", "seats": [{}, {}, {}, {"bot": "easy"}]}),
    );
    assert_eq!(reply.status, 201, "{reply:?}");
    let id = reply.body["id"].as_i64().unwrap();
    for player in [&badr, &chadi] {
        let join = server.post(
            &format!("/api/v1/games/{id}/join"),
            Some(&player.token),
            &json!({"invite_code": reply.body["invite_code"]}),
        );
        assert_eq!(join.status, 200, "{join:?}");
    }
    let resign = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&chadi.token),
        &json!({}),
    );
    assert_eq!(resign.status, 200, "{resign:?}");
    // The others play on (the computers' replies may have ended the hand, not the game).
    assert_ne!(resign.body["view"]["status"], "finished");

    // Chadi: two losses against people (1500 ± 350 each), one against `easy`.
    let chadi_profile = profile(&server, "chadi");
    assert_close(
        rating_in(&chadi_profile, "thirty_one", "people").unwrap(),
        1252.68,
        253.40,
        1,
    );
    assert_close(
        rating_in(&chadi_profile, "thirty_one", "computers").unwrap(),
        1110.78,
        284.43,
        1,
    );
    // The others are rated when the game ends, and Chadi not again.
    assert_eq!(profile(&server, "amira")["ratings"], json!([]));
    let end = crate::support::play_out(&server, id, &[&amira, &badr], |legal| legal[0].clone());
    assert_eq!(end["status"], "finished");
    // Each side is its own in 31, and two seats that both lost are not ranked against each
    // other: Amira and Badr are ranked against each other only if one of them won, and
    // against the two computer seats (Chadi's stand-in and `easy`) only if they or a computer
    // won.
    let winners = end["outcome"]["winners"].as_array().unwrap().clone();
    let won = |seat: i64| winners.contains(&json!(seat));
    let a_person_won = won(0) || won(1);
    for (name, seat) in [("amira", 0), ("badr", 1)] {
        let profile = profile(&server, name);
        assert_eq!(
            rating_in(&profile, "thirty_one", "people").map(|r| r.2),
            a_person_won.then_some(1),
            "{name}: {profile}"
        );
        assert_eq!(
            rating_in(&profile, "thirty_one", "computers").map(|r| r.2),
            (won(seat) || won(2) || won(3)).then_some(1),
            "{name}: {profile}"
        );
    }
    let chadi_profile = profile(&server, "chadi");
    assert_eq!(
        rating_in(&chadi_profile, "thirty_one", "people").map(|r| r.2),
        Some(1),
        "rated once, when leaving"
    );
    assert_eq!(chadi_profile["history"].as_array().unwrap().len(), 2);
    crate::backups::assert_sound(&server.database_url);
}

on_both_backends!(leaving_a_game_of_several_sides_is_rated_as_losing_to_everyone_left);
