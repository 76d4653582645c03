//! The admin endpoints: who may call them, the history's filters, whole games and replays, and
//! statistics that equal what the test computes from the games it played.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server, play_out};

pub(crate) const ADMIN: (&str, &str) = ("CARDROOM_ADMIN", "root:the admin passphrase");

/// Signs in as the configured admin.
pub(crate) fn admin_token(server: &Server) -> String {
    let login = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "root", "password": "the admin passphrase"}),
    );
    assert_eq!(login.status, 200, "{login:?}");
    login.body["token"].as_str().unwrap().to_owned()
}

fn first(legal: &[Value]) -> Value {
    legal[0].clone()
}

/// Every admin endpoint: 401 without a token, 403 for a player, 200 for an admin.
fn only_admins_may_call_the_admin_endpoints(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let gets = [
        "/api/v1/admin/games".to_owned(),
        format!("/api/v1/admin/games/{id}"),
        format!("/api/v1/admin/games/{id}/replay"),
        "/api/v1/admin/stats".to_owned(),
    ];
    for path in &gets {
        server.get(path, None).assert_problem(401, "unauthorized");
        server
            .get(path, Some(&amira.token))
            .assert_problem(403, "forbidden");
        let reply = server.get(path, Some(&admin));
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
    }
    let promote = "/api/v1/admin/users/amira/role";
    let body = json!({"role": "admin"});
    server
        .post(promote, None, &body)
        .assert_problem(401, "unauthorized");
    server
        .post(promote, Some(&amira.token), &body)
        .assert_problem(403, "forbidden");
    // A player cannot see another game whole through a guessed id either.
    server
        .get("/api/v1/admin/games/999999", Some(&admin))
        .assert_problem(404, "not_found");
    server
        .get("/api/v1/admin/stats?from=yesterday", Some(&admin))
        .assert_problem(422, "validation_failed");
    server
        .get("/api/v1/admin/games?status=lost", Some(&admin))
        .assert_problem(422, "validation_failed");
    server
        .get(
            "/api/v1/admin/stats?from=2026-02-01&to=2026-01-01",
            Some(&admin),
        )
        .assert_problem(422, "validation_failed");
}

/// An admin promotes a registered user, who is an admin at once (and a player again at once
/// when demoted); an admin cannot demote themselves.
fn admins_promote_users(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let reply = server.post(
        "/api/v1/auth/register",
        None,
        &json!({"name": "layla", "password": "correct horse battery"}),
    );
    assert_eq!(reply.status, 201, "{reply:?}");
    let layla = reply.body["token"].as_str().unwrap().to_owned();
    server
        .get("/api/v1/admin/games", Some(&layla))
        .assert_problem(403, "forbidden");
    let promoted = server.post(
        "/api/v1/admin/users/layla/role",
        Some(&admin),
        &json!({"role": "admin"}),
    );
    assert_eq!(promoted.status, 200, "{promoted:?}");
    assert_eq!(promoted.body["role"], "admin");
    // The stored role counts, not the token's: her old token works at once.
    assert_eq!(server.get("/api/v1/admin/games", Some(&layla)).status, 200);
    let login = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "layla", "password": "correct horse battery"}),
    );
    let layla = login.body["token"].as_str().unwrap().to_owned();
    assert_eq!(server.get("/api/v1/admin/games", Some(&layla)).status, 200);
    server
        .post(
            "/api/v1/admin/users/root/role",
            Some(&admin),
            &json!({"role": "player"}),
        )
        .assert_problem(409, "last_admin_guard");
    // Demoted, she loses access at once, token or not.
    let demoted = server.post(
        "/api/v1/admin/users/layla/role",
        Some(&admin),
        &json!({"role": "player"}),
    );
    assert_eq!(demoted.status, 200, "{demoted:?}");
    server
        .get("/api/v1/admin/games", Some(&layla))
        .assert_problem(403, "forbidden");
    server
        .post(
            "/api/v1/admin/users/nobody/role",
            Some(&admin),
            &json!({"role": "admin"}),
        )
        .assert_problem(404, "not_found");
    server
        .post(
            "/api/v1/admin/users/layla/role",
            Some(&admin),
            &json!({"role": "king"}),
        )
        .assert_problem(422, "validation_failed");
}

struct Played {
    id: i64,
    kind: String,
    practice: bool,
    human_won: bool,
    basras: i64,
    knocks: i64,
    thirty_ones: i64,
    made: i64,
    set: i64,
    moves: i64,
}

/// Plays a game to the end as `player` and counts from its log what the dashboard should.
fn play(server: &Server, player: &Player, body: Value) -> Played {
    let kind = body["kind"].as_str().unwrap().to_owned();
    let practice = body.get("seed").is_some();
    let (id, _) = server.create(player, body);
    let end = play_out(server, id, &[player], first);
    let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&player.token));
    assert_eq!(log.status, 200);
    let events: Vec<&Value> = log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap().iter())
        .map(|e| &e["event"])
        .collect();
    let count = |f: &dyn Fn(&Value) -> bool| events.iter().filter(|e| f(e)).count() as i64;
    let contract = |made: bool| {
        count(&|e: &Value| {
            e["type"] == "hand_scored"
                && e["lines"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|l| l["item"] == "contract")
                    .is_some_and(|l| l["made"] == made)
        })
    };
    // The player sits at seat 0, which is side 0 in every game here.
    let my_side = 0;
    Played {
        id,
        kind,
        practice,
        human_won: end["outcome"]["winners"]
            .as_array()
            .unwrap()
            .contains(&json!(my_side)),
        basras: count(&|e: &Value| e["type"] == "played" && e.get("basra").is_some()),
        knocks: count(&|e: &Value| e["type"] == "knocked"),
        thirty_ones: count(&|e: &Value| {
            e["type"] == "showdown"
                && e.get("thirty_one")
                    .and_then(Value::as_array)
                    .is_some_and(|s| !s.is_empty())
        }),
        made: contract(true),
        set: contract(false),
        moves: 0,
    }
}

/// The dashboard's numbers equal what the test counts from the games it played; practice
/// games and unfinished games do not count as finished.
fn the_statistics_are_what_was_played(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let amira = server.guest("amira");
    let mut played = vec![
        play(
            &server,
            &amira,
            json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "options": {"target": 31}}),
        ),
        play(
            &server,
            &amira,
            json!({"kind": "basra", "seats": [{}, {"bot": "random"}], "options": {"target": 31}}),
        ),
        play(
            &server,
            &amira,
            json!({"kind": "thirty_one", "seats": [{}, {"bot": "greedy"}, {"bot": "random"}]}),
        ),
        play(
            &server,
            &amira,
            json!({"kind": "tarneeb", "seats": [{}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "greedy"}], "options": {"target": 31}}),
        ),
        play(
            &server,
            &amira,
            json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "options": {"target": 31},
            "seed": "00000000000000000000000000000000000000000000000000000000000000aa"}),
        ),
    ];
    // One game left unfinished: started, not finished.
    server.create(
        &amira,
        json!({"kind": "rummy", "seats": [{}, {"bot": "greedy"}]}),
    );
    for p in &mut played {
        let whole = server.get(&format!("/api/v1/admin/games/{}", p.id), Some(&admin));
        p.moves = whole.body["game"]["moves"].as_i64().unwrap();
    }
    let stats = server.get("/api/v1/admin/stats", Some(&admin));
    assert_eq!(stats.status, 200, "{stats:?}");
    let body = &stats.body;
    let today = chrono::Utc::now().date_naive().to_string();
    let real: Vec<&Played> = played.iter().filter(|p| !p.practice).collect();
    let day_count = |list: &Value, kind: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|d| d["day"] == today.as_str() && d["kind"] == kind)
            .map(|d| d["games"].as_i64().unwrap())
            .sum::<i64>()
    };
    assert_eq!(day_count(&body["started"], "basra"), 2);
    assert_eq!(day_count(&body["started"], "rummy"), 1);
    assert_eq!(day_count(&body["finished"], "basra"), 2);
    assert_eq!(day_count(&body["finished"], "rummy"), 0);
    assert_eq!(day_count(&body["finished"], "tarneeb"), 1);
    for kind in ["basra", "thirty_one", "tarneeb"] {
        let mine: Vec<&&Played> = real.iter().filter(|p| p.kind == kind).collect();
        let totals = body["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["kind"] == kind)
            .unwrap_or_else(|| panic!("{kind} in {body}"));
        let sum = |f: fn(&Played) -> i64| mine.iter().map(|p| f(p)).sum::<i64>();
        assert_eq!(totals["games"], json!(mine.len()), "{kind}");
        assert_eq!(totals["basras"], json!(sum(|p| p.basras)), "{kind}");
        assert_eq!(totals["knocks"], json!(sum(|p| p.knocks)), "{kind}");
        assert_eq!(
            totals["thirty_ones"],
            json!(sum(|p| p.thirty_ones)),
            "{kind}"
        );
        assert_eq!(totals["contracts_made"], json!(sum(|p| p.made)), "{kind}");
        assert_eq!(totals["contracts_set"], json!(sum(|p| p.set)), "{kind}");
        let average = sum(|p| p.moves) as f64 / mine.len() as f64;
        assert!(
            (totals["average_moves"].as_f64().unwrap() - average).abs() < 1e-6,
            "{kind}"
        );
    }
    // People against computer levels: one entry per kind and level met.
    let levels = body["levels"].as_array().unwrap();
    let basra_greedy = levels
        .iter()
        .find(|l| l["kind"] == "basra" && l["level"] == "greedy")
        .expect("basra against greedy");
    // The practice game against greedy does not count: one game.
    assert_eq!(basra_greedy["games"], 1);
    assert_eq!(
        basra_greedy["human_wins"].as_i64().unwrap()
            + basra_greedy["computer_wins"].as_i64().unwrap(),
        1
    );
    assert_eq!(
        basra_greedy["human_wins"],
        json!(i64::from(played[0].human_won))
    );
    let tarneeb: Vec<&Value> = levels.iter().filter(|l| l["kind"] == "tarneeb").collect();
    assert_eq!(
        tarneeb.len(),
        1,
        "the partner is greedy too, but only opponents count"
    );
    assert_eq!(tarneeb[0]["games"], 1);
    assert_eq!(
        tarneeb[0]["human_wins"],
        json!(i64::from(played[3].human_won))
    );
    let active = body["active_players"].as_array().unwrap();
    assert_eq!(active.len(), 1, "{active:?}");
    assert_eq!(active[0]["players"], 1);
    // A kind filter narrows everything; a range before today holds nothing.
    let tarneeb_only = server.get("/api/v1/admin/stats?kind=tarneeb", Some(&admin));
    assert!(
        tarneeb_only.body["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|k| k["kind"] == "tarneeb")
    );
    let past = server.get(
        "/api/v1/admin/stats?from=2020-01-01&to=2020-01-31",
        Some(&admin),
    );
    assert_eq!(past.body["kinds"], json!([]));
    assert_eq!(past.body["started"], json!([]));
}

/// The history's filters and pages; a whole game shows every hand and seed; a replay shows
/// every hand at every step and ends where the game ended.
fn the_history_filters_and_replays_games(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let amira = server.guest("amira");
    let omar = server.guest("omar");
    let tarneeb = play(
        &server,
        &amira,
        json!({"kind": "tarneeb", "seats": [{}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "greedy"}], "options": {"target": 31}}),
    );
    play(
        &server,
        &omar,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "options": {"target": 31}}),
    );
    server.create(&omar, json!({"kind": "thirty_one", "seats": [{}, {"bot": "greedy"}], "seed": "00000000000000000000000000000000000000000000000000000000000000bb"}));
    let list = |query: &str| {
        let reply = server.get(&format!("/api/v1/admin/games{query}"), Some(&admin));
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body
    };
    assert_eq!(list("")["total"], 3);
    assert_eq!(list("?player=Omar")["total"], 2);
    assert_eq!(list("?player=nobody")["total"], 0);
    assert_eq!(list("?kind=tarneeb")["games"][0]["id"], tarneeb.id);
    assert_eq!(list("?status=finished")["total"], 2);
    assert_eq!(list("?practice=true")["total"], 1);
    let today = chrono::Utc::now().date_naive();
    assert_eq!(list(&format!("?from={today}&to={today}"))["total"], 3);
    assert_eq!(list("?to=2020-01-01")["total"], 0);
    let page = list("?per_page=2&page=2");
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["total"], 3);

    let whole = server.get(&format!("/api/v1/admin/games/{}", tarneeb.id), Some(&admin));
    assert_eq!(whole.status, 200);
    assert_eq!(whole.body["seed"].as_str().unwrap().len(), 64);
    let deals = whole.body["deals"].as_array().unwrap();
    assert!(!deals.is_empty());
    assert!(
        deals.iter().all(|d| d["seed"].is_string()),
        "a finished game's seeds are all revealed"
    );
    assert!(whole.body["state"].is_object());
    // The log has the events every seat got, with their audiences.
    let dealt_to_others = whole.body["log"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap())
        .filter(|e| e["event"]["type"] == "dealt" && e["event"]["seat"] != 0)
        .count();
    assert!(dealt_to_others >= 3);

    let replay = server.get(
        &format!("/api/v1/admin/games/{}/replay", tarneeb.id),
        Some(&admin),
    );
    assert_eq!(replay.status, 200);
    let steps = replay.body["steps"].as_array().unwrap();
    assert_eq!(steps.len(), whole.body["log"].as_array().unwrap().len());
    let started = steps.iter().find(|s| s["action"] == "started").unwrap();
    let hands = started["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 4);
    assert!(hands.iter().all(|h| h.as_array().unwrap().len() == 13));
    // Seat 0's hand in the replay is the hand amira was dealt.
    let amira_log = server.get(
        &format!("/api/v1/games/{}/log", tarneeb.id),
        Some(&amira.token),
    );
    let dealt = amira_log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap())
        .find(|e| e["event"]["type"] == "dealt")
        .unwrap();
    let mut mine: Vec<&str> = dealt["event"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let mut replayed: Vec<&str> = hands[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    mine.sort_unstable();
    replayed.sort_unstable();
    assert_eq!(mine, replayed);
    assert_eq!(steps.last().unwrap()["status"], "finished");
}

on_both_backends!(
    only_admins_may_call_the_admin_endpoints,
    admins_promote_users,
    the_statistics_are_what_was_played,
    the_history_filters_and_replays_games,
);
