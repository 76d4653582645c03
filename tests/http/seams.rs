//! The seams the page showed: who is at a table as people come and go (at once, not when a
//! window runs out), ratings that guests cannot have, the words a rematch and an admin's lists
//! need, and the chat's pace said up front.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, RawStream, Server, eventually};

/// A presence window far longer than any wait below: whatever is seen within it was told,
/// not aged out.
const LONG_WINDOW: (&str, &str) = ("CARDROOM_PRESENCE_SECS", "120");

/// A two-person Basra table, public, both seated.
fn table(server: &Server, host: &Player, guest: &Player) -> i64 {
    let (id, created) = server.create(
        host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    let code = created["invite_code"].as_str().unwrap().to_owned();
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&guest.token),
        &json!({"invite_code": code}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    // Who just sat down is connected in their own view, whatever the rows say yet.
    assert_eq!(joined.body["seats"][1]["connected"], true, "{joined:?}");
    id
}

fn connected(server: &Server, viewer: &Player, id: i64, seat: usize) -> bool {
    server.view(viewer, id)["seats"][seat]["connected"] == true
}

fn spectators(server: &Server, viewer: &Player, id: i64) -> i64 {
    server.view(viewer, id)["spectators"].as_i64().unwrap()
}

fn leaving_and_coming_back_show_at_once_not_when_the_window_runs_out(backend: Backend) {
    let server = Server::start_with(backend, &[LONG_WINDOW]);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let watcher = server.guest("watcher");
    let id = table(&server, &host, &guest);
    let events = format!("/api/v1/games/{id}/events");

    // The guest follows the table (a stream, as the page does) and is connected.
    let following = RawStream::open(&server, &events, &guest.token);
    eventually(Duration::from_secs(10), "the guest connected", || {
        connected(&server, &host, id, 1)
    });
    // The guest closes the page: the stream ends. They made requests moments ago, well within
    // the window, yet they are gone: a closed stream says so.
    drop(following);
    eventually(Duration::from_secs(10), "the guest gone", || {
        !connected(&server, &host, id, 1)
    });
    // Back again.
    let again = RawStream::open(&server, &events, &guest.token);
    eventually(Duration::from_secs(10), "the guest back", || {
        connected(&server, &host, id, 1)
    });
    drop(again);

    // A spectator is counted when they open the table, and no longer once they close it.
    let watching = RawStream::open(&server, &events, &watcher.token);
    eventually(Duration::from_secs(10), "one spectator", || {
        spectators(&server, &host, id) == 1
    });
    drop(watching);
    eventually(Duration::from_secs(10), "no spectator", || {
        spectators(&server, &host, id) == 0
    });

    // A client that polls without a stream keeps the window: the host, who only made
    // requests, is connected as the guest sees it.
    assert!(connected(&server, &guest, id, 0));
}

fn a_long_poll_that_says_what_it_shows_answers_when_who_is_there_changes(backend: Backend) {
    let server = Server::start_with(backend, &[LONG_WINDOW]);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let watcher = server.guest("watcher");
    let id = table(&server, &host, &guest);
    let version = server.view(&host, id)["version"].as_i64().unwrap();
    // What the host shows: both seated people, nobody watching. (The guest's requests count.)
    let base = format!("/api/v1/games/{id}/events?after={version}&wait=30");
    eventually(Duration::from_secs(10), "the guest connected", || {
        connected(&server, &host, id, 1)
    });
    // Nothing changes: it waits (here the one second asked).
    let short = format!("/api/v1/games/{id}/events?after={version}&wait=1");
    let waited = Instant::now();
    let quiet = server.get(
        &format!("{short}&known_connected=0,1&known_spectators=0"),
        Some(&host.token),
    );
    assert_eq!(quiet.body["events"], json!([]), "{quiet:?}");
    assert!(
        waited.elapsed() >= Duration::from_millis(900),
        "it answered without news"
    );
    // A spectator arrives while the host's poll waits: it answers with them, long before the
    // thirty seconds it could have waited.
    let poll = {
        let server_url = server.url(&format!("{base}&known_connected=0,1&known_spectators=0"));
        let token = host.token.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let body: Value = ureq::get(&server_url)
                .header("Authorization", format!("Bearer {token}"))
                .call()
                .unwrap()
                .into_body()
                .read_json()
                .unwrap();
            (body, started.elapsed())
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let watching = RawStream::open(
        &server,
        &format!("/api/v1/games/{id}/events"),
        &watcher.token,
    );
    let (answer, took) = poll.join().unwrap();
    assert_eq!(answer["presence"]["spectators"], 1, "{answer}");
    assert!(
        took < Duration::from_secs(25),
        "the poll waited its whole time: {took:?}"
    );
    drop(watching);
    // The caller's own seat is always among the connected.
    let mine = server.get(
        &format!("{short}&known_connected=&known_spectators=0"),
        Some(&guest.token),
    );
    let seats: Vec<i64> = mine.body["presence"]["connected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert!(seats.contains(&1), "{mine:?}");
    // What it shows must be seats and a count.
    for bad in [
        "known_connected=9",
        "known_connected=a",
        "known_spectators=-1",
        "known_connected=0,,x",
    ] {
        let refused = server.get(&format!("{short}&{bad}"), Some(&host.token));
        assert_eq!(refused.status, 422, "{bad}: {refused:?}");
        assert_eq!(refused.body["code"], "validation_failed");
    }
}

fn guests_are_never_offered_as_rated(backend: Backend) {
    let server = Server::start(backend);
    let guest = server.guest("guesty");
    let member = server.register("member");
    let other = server.register("othermember");
    let public = json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"});
    let (by_guest, _) = server.create(&guest, public.clone());
    let (by_member, _) = server.create(&member, public);
    let lobby = server.get("/api/v1/lobby", None).body;
    let rated = |id: i64| {
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .map(|t| t["rated"].clone())
            .unwrap()
    };
    assert_eq!(rated(by_guest), false, "a guest's table cannot be rated");
    assert_eq!(rated(by_member), true);
    // Challenges: rated only between two registered people, whatever was asked.
    let challenge = |from: &Player, to: &str, rated: Option<bool>| {
        let mut body = json!({"to": to, "kind": "basra"});
        if let Some(rated) = rated {
            body["rated"] = json!(rated);
        }
        let made = server.post("/api/v1/challenges", Some(&from.token), &body);
        assert_eq!(made.status, 201, "{made:?}");
        made.body["rated"].clone()
    };
    assert_eq!(challenge(&member, "othermember", None), true);
    assert_eq!(
        challenge(&member, "guesty", Some(true)),
        false,
        "to a guest"
    );
    assert_eq!(
        challenge(&guest, "member", Some(true)),
        false,
        "from a guest"
    );
    // The one challenged sees the same.
    let theirs = server.get("/api/v1/challenges", Some(&other.token)).body;
    assert_eq!(theirs["incoming"][0]["rated"], true, "{theirs}");
    let guests = server.get("/api/v1/challenges", Some(&guest.token)).body;
    assert_eq!(guests["incoming"][0]["rated"], false, "{guests}");
}

fn a_rematch_says_which_game_it_follows(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let (id, created) = server.create(&host, json!({"kind": "basra", "seats": [{}, {}]}));
    let first = &created["recent_events"][0]["event"];
    assert_eq!(first["type"], "created", "{created}");
    assert!(first.get("rematch_of").is_none(), "{first}");
    let code = created["invite_code"].as_str().unwrap().to_owned();
    let join = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&guest.token),
        &json!({"invite_code": code}),
    );
    assert_eq!(join.status, 200);
    let resigned = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&guest.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    for player in [&host, &guest] {
        let answer = server.post(
            &format!("/api/v1/games/{id}/rematch"),
            Some(&player.token),
            &json!({"accept": true}),
        );
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    let next = server.view(&host, id)["rematch"]["game_id"]
        .as_i64()
        .unwrap();
    let first = &server.view(&host, next)["recent_events"][0]["event"];
    assert_eq!(first["type"], "created");
    assert_eq!(first["rematch_of"], id, "{first}");
}

fn admins_see_who_is_muted_and_every_side_by_its_seats(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let talker = server.guest("talker");
    let (id, _) = server.create(
        &talker,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let said = server.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&talker.token),
        &json!({"text": "hi"}),
    );
    assert_eq!(said.status, 201);
    let list = |server: &Server| {
        server.get("/api/v1/admin/chat", Some(&admin)).body["messages"][0].clone()
    };
    assert!(list(&server)["author_muted_until"].is_null());
    let muted = server.post(
        "/api/v1/admin/users/talker/mute",
        Some(&admin),
        &json!({"muted": true, "minutes": 60}),
    );
    assert_eq!(muted.status, 200, "{muted:?}");
    assert!(
        list(&server)["author_muted_until"].is_string(),
        "{}",
        list(&server)
    );
    let lifted = server.post(
        "/api/v1/admin/users/talker/mute",
        Some(&admin),
        &json!({"muted": false}),
    );
    assert_eq!(lifted.status, 200);
    assert!(list(&server)["author_muted_until"].is_null());

    // The history names each side's seats: partners together, one seat a side otherwise.
    server.create(&talker, json!({"kind": "tarneeb", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]}));
    server.create(
        &talker,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]}),
    );
    server.create(&talker, json!({"kind": "basra", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}], "options": {"partnerships": false}}));
    server.create(
        &talker,
        json!({"kind": "thirty_one", "seats": [{}, {"bot": "easy"}, {"bot": "easy"}]}),
    );
    let games = server.get("/api/v1/admin/games", Some(&admin)).body;
    let sides: Vec<Value> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| json!([g["kind"], g["sides"]]))
        .collect();
    assert_eq!(
        sides,
        vec![
            json!(["thirty_one", [[0], [1], [2]]]),
            json!(["basra", [[0], [1], [2], [3]]]),
            json!(["basra", [[0, 2], [1, 3]]]),
            json!(["tarneeb", [[0, 2], [1, 3]]]),
            json!(["basra", [[0], [1]]]),
        ]
    );
}

fn the_chat_says_its_pace_up_front(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_CHAT_BURST", "3")]);
    let presets = server.get("/api/v1/chat/presets", None).body;
    assert_eq!(presets["burst"], 3);
    assert_eq!(presets["burst_seconds"], 10);
    // And keeps to it.
    let talker = server.guest("talker");
    let (id, _) = server.create(
        &talker,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let statuses: Vec<u16> = (0..4)
        .map(|n| {
            server
                .post(
                    &format!("/api/v1/games/{id}/chat"),
                    Some(&talker.token),
                    &json!({"text": format!("m{n}")}),
                )
                .status
        })
        .collect();
    assert_eq!(statuses, vec![201, 201, 201, 429]);
}

on_both_backends!(
    leaving_and_coming_back_show_at_once_not_when_the_window_runs_out,
    a_long_poll_that_says_what_it_shows_answers_when_who_is_there_changes,
    guests_are_never_offered_as_rated,
    a_rematch_says_which_game_it_follows,
    admins_see_who_is_muted_and_every_side_by_its_seats,
    the_chat_says_its_pace_up_front,
);

/// Across replicas on PostgreSQL: a person who closes the table on one replica is gone as the
/// other replica shows it, and a spectator on one is counted on the other, each long before the
/// window would have said so.
#[test]
fn leaving_shows_across_replicas() {
    let a = Server::start_with(Backend::Postgres, &[LONG_WINDOW]);
    let b = a.replica(&[LONG_WINDOW]);
    let host = a.guest("host");
    let guest = a.guest("guest");
    let watcher = a.guest("watcher");
    let id = table(&a, &host, &guest);
    let events = format!("/api/v1/games/{id}/events");
    let following = RawStream::open(&b, &events, &guest.token);
    eventually(
        Duration::from_secs(10),
        "the guest on B connected on A",
        || connected(&a, &host, id, 1),
    );
    drop(following);
    eventually(
        Duration::from_secs(10),
        "the guest gone from B, as A shows",
        || !connected(&a, &host, id, 1),
    );
    let watching = RawStream::open(&b, &events, &watcher.token);
    eventually(
        Duration::from_secs(10),
        "the spectator on B counted on A",
        || spectators(&a, &host, id) == 1,
    );
    drop(watching);
    eventually(Duration::from_secs(10), "the spectator gone", || {
        spectators(&a, &host, id) == 0
    });
}
