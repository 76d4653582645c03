//! Entering tournaments: who may make one, private ones and their codes, joining and
//! withdrawing in every stage, a join sent twice at once, the live stream of a tournament, too
//! few entrants, and a pairing that dies half done.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Server};
use crate::tournament_checks::{SWEEP, enter, make, start_now};

pub(crate) fn create(server: &Server, token: &str, body: Value) -> crate::support::Reply {
    server.post("/api/v1/tournaments", Some(token), &body)
}

/// Waits until tournament `id` is at `status` (as `token` sees it: none, a stranger); returns
/// it.
pub(crate) fn wait_for(server: &Server, token: Option<&str>, id: i64, status: &str) -> Value {
    for _ in 0..200 {
        let state = server.get(&format!("/api/v1/tournaments/{id}"), token);
        assert_eq!(state.status, 200, "{state:?}");
        if state.body["status"] == status {
            return state.body;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("tournament {id} never became {status}");
}

fn who_makes_what_and_private_tournaments_need_their_code(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let guest = server.guest("wanderer");
    let nadia = server.register("nadia");
    let omar = server.register("omar");
    let basra = json!({"name": "Evening", "format": "swiss", "kind": "basra"});
    create(&server, &guest.token, basra.clone()).assert_problem(403, "registered_only");
    create(&server, &nadia.token, basra.clone()).assert_problem(403, "forbidden");
    // A public one by an admin is listed for everyone, without a code.
    let public = create(&server, &admin, basra.clone());
    assert_eq!(public.status, 201, "{public:?}");
    assert_eq!(public.body["private"], false);
    assert_eq!(public.body["code"], Value::Null);
    assert_eq!(public.body["rounds"], 3);
    assert_eq!(
        public.body["turn"],
        json!({"seconds": 60, "takeover_after": 2})
    );
    // A private one by a registered player: its code for its maker only.
    let mut private = basra.clone();
    private["private"] = json!(true);
    let made = create(&server, &nadia.token, private);
    assert_eq!(made.status, 201, "{made:?}");
    let id = made.body["id"].as_i64().unwrap();
    let code = made.body["code"].as_str().unwrap().to_owned();
    let listed = |token: &str| -> Vec<i64> {
        server.get("/api/v1/tournaments", Some(token)).body["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect()
    };
    assert!(listed(&nadia.token).contains(&id));
    assert!(!listed(&omar.token).contains(&id), "not listed for others");
    // The lobby (anyone's, signed in or not) lists the public one only.
    let lobby = server.get("/api/v1/lobby", None);
    assert_eq!(lobby.status, 200, "{lobby:?}");
    let in_lobby: Vec<&Value> = lobby.body["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(in_lobby.len(), 1, "{lobby:?}");
    assert_eq!(in_lobby[0]["id"], public.body["id"]);
    assert_eq!(in_lobby[0]["joined"], false);
    let tarneeb = server.get("/api/v1/lobby?kind=tarneeb", None);
    assert_eq!(tarneeb.body["tournaments"], json!([]), "of one kind");
    let path = format!("/api/v1/tournaments/{id}");
    // It says that it is private (and there), to anyone without its code, signed in or not.
    server
        .get(&path, Some(&omar.token))
        .assert_problem(403, "private_tournament");
    server
        .get(&path, None)
        .assert_problem(403, "private_tournament");
    server
        .get(&format!("{path}?code=wrong0code"), Some(&omar.token))
        .assert_problem(403, "private_tournament");
    server
        .get(&format!("{path}?code=NOT-SPELLED"), Some(&omar.token))
        .assert_problem(422, "validation_failed");
    let seen = server.get(&format!("{path}?code={code}"), Some(&omar.token));
    assert_eq!(seen.status, 200, "{seen:?}");
    assert_eq!(
        seen.body["code"],
        Value::Null,
        "the code is its maker's to share"
    );
    let join = format!("{path}/join");
    server
        .post(&join, Some(&omar.token), &json!({}))
        .assert_problem(403, "private_tournament");
    let joined = server.post(&join, Some(&omar.token), &json!({"code": code}));
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["entrants"], 1);
    // Entered, Omar sees it without the code, and it is listed for him now.
    assert_eq!(server.get(&path, Some(&omar.token)).status, 200);
    assert!(listed(&omar.token).contains(&id));
    // Withdrawing: once; joining again puts him back.
    let out = format!("{path}/withdraw");
    let withdrawn = server.post(&out, Some(&omar.token), &json!({}));
    assert_eq!(withdrawn.status, 200, "{withdrawn:?}");
    assert_eq!(withdrawn.body["entrants"], 0);
    assert_eq!(withdrawn.body["players"][0]["withdrawn"], true);
    server
        .post(&out, Some(&omar.token), &json!({}))
        .assert_problem(409, "not_entered");
    let back = server.post(&join, Some(&omar.token), &json!({}));
    assert_eq!(back.body["entrants"], 1, "{back:?}");
    assert_eq!(back.body["joined"], true);
}

/// A Swiss tournament takes no entrant once it has started; one short of a table is cancelled;
/// an arena takes entrants while it runs; nothing is entered or left once it is over.
fn joining_in_every_stage(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    // One entrant of a two-seat game: cancelled at the start.
    let made = make(
        &server,
        &admin,
        json!({"name": "Lonely", "format": "swiss", "kind": "basra"}),
    );
    let lonely = made.id;
    let entrants = enter(&server, lonely, 1, 0);
    made.start(&server, &admin);
    let state = wait_for(&server, Some(&admin), lonely, "cancelled");
    assert_eq!(state["round_tables"], json!([]));
    let late = server.guest("latecomer");
    server
        .post(
            &format!("/api/v1/tournaments/{lonely}/join"),
            Some(&late.token),
            &json!({}),
        )
        .assert_problem(409, "tournament_closed");
    server
        .post(
            &format!("/api/v1/tournaments/{lonely}/withdraw"),
            Some(&entrants[0].player.token),
            &json!({}),
        )
        .assert_problem(409, "tournament_closed");
    // A Swiss tournament under way takes nobody new; with a fill level, two entrants of a
    // four-seat game play with two computer players.
    let made = make(
        &server,
        &admin,
        json!({"name": "Filled", "format": "swiss", "kind": "tarneeb", "fill": "easy"}),
    );
    let swiss = made.id;
    enter(&server, swiss, 2, 0);
    made.start(&server, &admin);
    let state = wait_for(&server, Some(&admin), swiss, "running");
    let table = &state["round_tables"][0]["tables"][0];
    assert_eq!(table["seats"].as_array().unwrap().len(), 2, "{state}");
    let game = server.get(&format!("/api/v1/games/{}", table["game_id"]), Some(&admin));
    let computers = game.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["bot"] == "easy")
        .count();
    assert_eq!(computers, 2, "{game:?}");
    // The admin's history finds a tournament's games.
    let history = server.get(
        &format!("/api/v1/admin/games?tournament={swiss}"),
        Some(&admin),
    );
    assert_eq!(history.body["total"], 1, "{history:?}");
    assert_eq!(history.body["games"][0]["id"], table["game_id"]);
    let none = server.get(
        &format!("/api/v1/admin/games?tournament={lonely}"),
        Some(&admin),
    );
    assert_eq!(none.body["total"], 0, "{none:?}");
    server
        .post(
            &format!("/api/v1/tournaments/{swiss}/join"),
            Some(&late.token),
            &json!({}),
        )
        .assert_problem(409, "tournament_closed");
    // An arena under way takes a newcomer, who is seated once someone is free to play them.
    let made = make(
        &server,
        &admin,
        json!({"name": "Open arena", "format": "arena", "kind": "basra", "minutes": 5,
               "fill": "easy"}),
    );
    let arena = made.id;
    enter(&server, arena, 2, 0);
    made.start(&server, &admin);
    wait_for(&server, Some(&admin), arena, "running");
    let joined = server.post(
        &format!("/api/v1/tournaments/{arena}/join"),
        Some(&late.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    // With a fill level, a lone free entrant plays computer players at once.
    for _ in 0..100 {
        let mine = server.get(&format!("/api/v1/tournaments/{arena}"), Some(&late.token));
        if let Some(table) = mine.body["your_table"].as_object() {
            let view = server.view(&late, table["game_id"].as_i64().unwrap());
            assert_eq!(view["your_seat"], table["seat"]);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the newcomer was never seated");
}

/// The same join twice at once enters once; two people joining at once are both in; the same
/// withdrawal twice at once withdraws once.
fn joins_at_once(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let made = create(
        &server,
        &admin,
        json!({"name": "Race", "format": "swiss", "kind": "basra"}),
    );
    let id = made.body["id"].as_i64().unwrap();
    let path = format!("/api/v1/tournaments/{id}/join");
    let amal = server.guest("amal");
    let badr = server.guest("badr");
    let replies: Vec<_> = std::thread::scope(|scope| {
        let calls = [&amal, &amal, &badr, &badr].map(|who| {
            let path = &path;
            let server = &server;
            scope.spawn(move || server.post(path, Some(&who.token), &json!({})))
        });
        calls.map(|c| c.join().unwrap()).into_iter().collect()
    });
    for reply in &replies {
        assert_eq!(reply.status, 200, "{reply:?}");
    }
    let state = server.get(&format!("/api/v1/tournaments/{id}"), Some(&admin));
    assert_eq!(
        state.body["players"].as_array().unwrap().len(),
        2,
        "{state:?}"
    );
    assert_eq!(state.body["entrants"], 2);
    // The same withdrawal twice at once: one takes effect, the other finds nobody to withdraw.
    let out = format!("/api/v1/tournaments/{id}/withdraw");
    let replies: Vec<_> = std::thread::scope(|scope| {
        let calls = [&amal, &amal].map(|who| {
            let (out, server) = (&out, &server);
            scope.spawn(move || server.post(out, Some(&who.token), &json!({})))
        });
        calls.map(|c| c.join().unwrap()).into_iter().collect()
    });
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{replies:?}");
    let refused = replies.iter().find(|r| r.status == 409).unwrap();
    assert_eq!(refused.body["code"], "not_entered", "{refused:?}");
    let state = server.get(&format!("/api/v1/tournaments/{id}"), Some(&admin));
    assert_eq!(state.body["entrants"], 1);
}

/// The stream sends the tournament at once and again when someone enters.
fn the_tournament_stream_follows_entrants(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let made = create(
        &server,
        &admin,
        json!({"name": "Live", "format": "arena", "kind": "basra"}),
    );
    let id = made.body["id"].as_i64().unwrap();
    let stream = server.sse(&format!("/api/v1/tournaments/{id}"), &admin, None);
    let first = stream
        .recv_timeout(Duration::from_secs(5))
        .unwrap()
        .unwrap();
    assert_eq!(first.event, "tournament");
    assert_eq!(first.data["entrants"], 0);
    enter(&server, id, 1, 0);
    let next = stream
        .recv_timeout(Duration::from_secs(5))
        .unwrap()
        .unwrap();
    assert_eq!(next.data["entrants"], 1);
    assert_eq!(next.data["players"].as_array().unwrap().len(), 1);
    // A tournament one may not see is refused before any stream opens.
    let stranger = server.guest("stranger");
    server
        .get_with(
            "/api/v1/tournaments/999",
            &[
                ("Authorization", &format!("Bearer {}", stranger.token)),
                ("Accept", "text/event-stream"),
            ],
        )
        .assert_problem(404, "not_found");
}

/// A replica that dies while pairing (its transaction never commits) leaves nothing: no game,
/// no seat; the next step pairs the round, once, and its tables are dealt once.
fn a_pairing_that_dies_half_done_leaves_nothing(backend: Backend) {
    // This server never sweeps within the test: the steps are the test's.
    let server = Server::start_with(backend, &[ADMIN, ("CARDROOM_SWEEP_MS", "3600000")]);
    let admin = admin_token(&server);
    let made = make(
        &server,
        &admin,
        json!({"name": "Crash", "format": "swiss", "kind": "basra"}),
    );
    let id = made.id;
    enter(&server, id, 4, 0);
    made.start(&server, &admin);
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut pooled = pool.get().unwrap();
    let conn: &mut cardroom_db::AnyConnection = &mut pooled;
    use cardroom_api::play::tournaments::{MINUTE, step_claimed};
    let metrics = cardroom_api::metrics::Metrics::default();
    let now = cardroom_db::now();
    #[derive(Debug)]
    struct Died;
    impl From<cardroom_db::DbError> for Died {
        fn from(_: cardroom_db::DbError) -> Died {
            Died
        }
    }
    let died: Result<(), Died> = cardroom_db::in_transaction(conn, |conn| {
        let swept = step_claimed(conn, id, now, &metrics, MINUTE).map_err(|_| Died)?;
        assert_eq!(swept.games.len(), 2, "the pairing ran");
        Err(Died)
    });
    assert!(died.is_err());
    let state = server.get(&format!("/api/v1/tournaments/{id}"), Some(&admin));
    assert_eq!(state.body["status"], "upcoming");
    assert_eq!(state.body["round_tables"], json!([]));
    use diesel::prelude::*;
    let games: i64 = cardroom_db::schema::games::table
        .count()
        .get_result(conn)
        .unwrap();
    assert_eq!(games, 0);
    let swept = step_claimed(conn, id, now, &metrics, MINUTE).unwrap();
    assert_eq!(swept.games.len(), 2);
    let again = step_claimed(conn, id, now, &metrics, MINUTE).unwrap();
    assert!(again.games.is_empty(), "round 1 is paired once");
    let state = server.get(&format!("/api/v1/tournaments/{id}"), Some(&admin));
    assert_eq!(state.body["status"], "running");
    let tables = state.body["round_tables"][0]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    // Paired, not dealt yet (as if this replica stopped right after its pairing): the tables
    // wait, out of the lobby, until a step deals them — each once.
    let game = tables[0]["game_id"].as_i64().unwrap();
    let status = |server: &Server| {
        server
            .get(&format!("/api/v1/games/{game}"), Some(&admin))
            .body["status"]
            .clone()
    };
    assert_eq!(status(&server), "waiting");
    assert_eq!(server.get("/api/v1/lobby", None).body["tables"], json!([]));
    let dealt = cardroom_api::play::tournaments::deal_tables(conn, id, &metrics).unwrap();
    assert_eq!(dealt, 2);
    assert_eq!(
        cardroom_api::play::tournaments::deal_tables(conn, id, &metrics).unwrap(),
        0
    );
    assert_eq!(status(&server), "active");
}

/// A tournament's game names its tournament and round in every view of it (a move's answer
/// too); a private tournament's name only to those seated, a spectator seeing its number; an
/// ordinary game names none.
fn a_tournament_game_names_its_tournament(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let nadia = server.register("nadia");
    // (Each starts once its entrants are in: see `start_now`.)
    let swiss = json!({"format": "swiss", "kind": "basra", "rounds": 1, "fill": "easy",
                       "starts_in": 3600});
    let mut public_terms = swiss.clone();
    public_terms["name"] = json!("Open Basra");
    let public = create(&server, &admin, public_terms.clone());
    let mut private_terms = swiss.clone();
    private_terms["name"] = json!("Nadia's night");
    private_terms["private"] = json!(true);
    let private = create(&server, &nadia.token, private_terms.clone());
    let watcher = server.guest("watcher");
    // Two entrants each (one alone is no tournament), entered before either starts.
    let mut entered = Vec::new();
    for (made, name, private) in [
        (&public, "Open Basra", false),
        (&private, "Nadia's night", true),
    ] {
        let id = made.body["id"].as_i64().unwrap();
        let code = made.body["code"].as_str().map(str::to_owned);
        let pair = [
            server.guest(&format!("in{id}")),
            server.guest(&format!("also{id}")),
        ];
        for who in &pair {
            let joined = server.post(
                &format!("/api/v1/tournaments/{id}/join"),
                Some(&who.token),
                &json!({"code": code}),
            );
            assert_eq!(joined.status, 200, "{joined:?}");
        }
        entered.push((id, name, private, pair));
    }
    start_now(&server, &admin, entered[0].0, public_terms);
    start_now(&server, &nadia.token, entered[1].0, private_terms);
    for (id, name, private, pair) in &entered {
        let running = wait_for(&server, Some(&pair[0].token), *id, "running");
        let game = running["your_table"]["game_id"].as_i64().unwrap();
        // Whoever of the two is to move, once the table is dealt.
        let (mover, view) = loop {
            let found = pair
                .iter()
                .map(|p| (p, server.view(p, game)))
                .find(|(_, v)| v["status"] == "active" && v["to_act"] == v["your_seat"]);
            if let Some(found) = found {
                break found;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let expected = json!({"id": id, "round": 1, "name": name});
        assert_eq!(view["tournament"], expected, "{view}");
        let moved = server.play(mover, &view, &view["legal_moves"][0]);
        assert_eq!(moved.status, 200, "{moved:?}");
        assert_eq!(moved.body["view"]["tournament"], expected);
        let watched = server.view(&watcher, game);
        let shown = if *private { Value::Null } else { json!(name) };
        assert_eq!(
            watched["tournament"],
            json!({"id": id, "round": 1, "name": shown})
        );
    }
    let (plain, _) = server.create(
        &nadia,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert_eq!(server.view(&nadia, plain)["tournament"], Value::Null);
}

/// A team match starts with two teams: four entrants without a fill level would be one team
/// of four with no one to meet, so it is cancelled; five are a three and a two, one match of
/// two tables; with a fill level two entrants are one team meeting computer players, one
/// person at each of the two tables.
fn a_team_match_starts_with_two_teams_or_computer_players(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    let mut made = Vec::new();
    for (entrants, fill) in [(4, None), (5, None), (2, Some("easy"))] {
        let mut body = json!({"name": "Teams", "format": "duplicate", "kind": "tarneeb",
                              "teams": true, "rounds": 1, "starts_in": 3600});
        if let Some(level) = fill {
            body["fill"] = json!(level);
        }
        let reply = create(&server, &admin, body.clone());
        assert_eq!(reply.status, 201, "{reply:?}");
        let id = reply.body["id"].as_i64().unwrap();
        enter(&server, id, entrants, 0);
        start_now(&server, &admin, id, body);
        made.push(id);
    }
    wait_for(&server, Some(&admin), made[0], "cancelled");
    let team_sizes = |state: &Value| {
        let mut sizes = std::collections::BTreeMap::<i64, usize>::new();
        for player in state["players"].as_array().unwrap() {
            *sizes.entry(player["team"].as_i64().unwrap()).or_default() += 1;
        }
        sizes.into_values().collect::<Vec<_>>()
    };
    let five = wait_for(&server, Some(&admin), made[1], "running");
    assert_eq!(team_sizes(&five), [3, 2], "{five}");
    let tables = five["round_tables"][0]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2, "{five}");
    assert_eq!(
        tables
            .iter()
            .map(|t| t["seats"].as_array().unwrap().len())
            .sum::<usize>(),
        5
    );
    let two = wait_for(&server, Some(&admin), made[2], "running");
    assert_eq!(team_sizes(&two), [2], "{two}");
    let tables = two["round_tables"][0]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2, "{two}");
    for table in tables {
        assert_eq!(table["seats"].as_array().unwrap().len(), 1, "{table}");
    }
}

on_both_backends!(
    a_team_match_starts_with_two_teams_or_computer_players,
    a_tournament_game_names_its_tournament,
    who_makes_what_and_private_tournaments_need_their_code,
    joining_in_every_stage,
    joins_at_once,
    the_tournament_stream_follows_entrants,
    a_pairing_that_dies_half_done_leaves_nothing,
);
