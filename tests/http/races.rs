//! Races two requests wide: one person asking twice at the same moment — two quick-match seeks,
//! two joins, two acceptances of one challenge — through two servers, a hundred rounds each.
//! One open seek an account and one seat a person hold whatever the timing: the database keeps
//! them, not a look taken before the write.

use std::sync::Barrier;

use serde_json::{Value, json};

use crate::support::{Backend, Player, Reply, Server};

const ROUNDS: usize = 100;

/// Sends `a` through `first` and `b` through `second` at the same moment.
fn at_once(
    first: &Server,
    second: &Server,
    a: impl FnOnce(&Server) -> Reply + Send,
    b: impl FnOnce(&Server) -> Reply + Send,
) -> (Reply, Reply) {
    let start = Barrier::new(2);
    std::thread::scope(|scope| {
        let one = scope.spawn(|| {
            start.wait();
            a(first)
        });
        let two = scope.spawn(|| {
            start.wait();
            b(second)
        });
        (one.join().unwrap(), two.join().unwrap())
    })
}

/// The people seated at game `id`: each at most once.
fn assert_seated_once(server: &Server, viewer: &Player, id: i64) {
    let view = server.view(viewer, id);
    let mut names: Vec<String> = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str().map(str::to_owned))
        .collect();
    let all = names.len();
    names.sort();
    names.dedup();
    assert_eq!(
        names.len(),
        all,
        "someone seated twice at game {id}: {}",
        view["seats"]
    );
}

fn statuses(replies: &[&Reply]) -> Vec<u16> {
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    statuses
}

fn one_person_asking_twice_at_once_is_seated_once(first: &Server, second: &Server) {
    let seek = json!({"kind": "thirty_one", "players": 3, "variant": "standard"});
    for round in 0..ROUNDS {
        // Two seeks from one guest at the same moment: one is open, the other refused.
        let ann = first.guest(&format!("ann{round}"));
        let (a, b) = at_once(
            first,
            second,
            |s| s.post("/api/v1/seeks", Some(&ann.token), &seek),
            |s| s.post("/api/v1/seeks", Some(&ann.token), &seek),
        );
        assert_eq!(
            statuses(&[&a, &b]),
            vec![201, 409],
            "round {round}: {a:?} {b:?}"
        );
        let refused = if a.status == 409 { &a } else { &b };
        assert_eq!(refused.body["code"], "already_seeking", "{refused:?}");
        // Two more seekers: the table is made, Ann at one seat of it.
        let bob = first.guest(&format!("bob{round}"));
        let cal = second.guest(&format!("cal{round}"));
        first.post("/api/v1/seeks", Some(&bob.token), &seek);
        let mut made = second.post("/api/v1/seeks", Some(&cal.token), &seek);
        if made.body["status"] == "open" {
            // A pairing elsewhere (the sweep's, trying Ann's and Bob's seeks) held a seeker at
            // that moment, and a pairing passes over a held seek rather than wait for it: the
            // seek's long-poll tries again, as a client does.
            let id = made.body["id"].as_i64().unwrap();
            made = second.get(&format!("/api/v1/seeks/{id}?wait=5"), Some(&cal.token));
        }
        assert_eq!(made.body["status"], "matched", "round {round}: {made:?}");
        let game = made.body["game_id"].as_i64().unwrap();
        assert_seated_once(first, &cal, game);

        // Two joins of one table from one guest at the same moment: one seat.
        let (table, created) =
            first.create(&bob, json!({"kind": "thirty_one", "seats": [{}, {}, {}]}));
        let code = created["invite_code"].as_str().unwrap().to_owned();
        let dan = first.guest(&format!("dan{round}"));
        let join = json!({"invite_code": code});
        let path = format!("/api/v1/games/{table}/join");
        let (a, b) = at_once(
            first,
            second,
            |s| s.post(&path, Some(&dan.token), &join),
            |s| s.post(&path, Some(&dan.token), &join),
        );
        assert_eq!(
            statuses(&[&a, &b]),
            vec![200, 409],
            "round {round}: {a:?} {b:?}"
        );
        assert_seated_once(first, &bob, table);
        let open = first.view(&bob, table)["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["open"] == true)
            .count();
        assert_eq!(open, 1, "round {round}: one seat taken, one still open");

        // Two acceptances of one open challenge from one guest at the same moment: one game.
        let challenge = first.post(
            "/api/v1/challenges",
            Some(&bob.token),
            &json!({"kind": "basra", "rated": false}),
        );
        assert_eq!(challenge.status, 201, "{challenge:?}");
        let id = challenge.body["id"].as_i64().unwrap();
        let code = json!({"code": challenge.body["code"]});
        let path = format!("/api/v1/challenges/{id}/accept");
        let eve = second.guest(&format!("eve{round}"));
        let (a, b) = at_once(
            first,
            second,
            |s| s.post(&path, Some(&eve.token), &code),
            |s| s.post(&path, Some(&eve.token), &code),
        );
        let games: Vec<Value> = [&a, &b]
            .iter()
            .filter(|r| r.status == 200)
            .map(|r| r.body["game_id"].clone())
            .collect();
        assert!(!games.is_empty(), "round {round}: {a:?} {b:?}");
        assert!(games.iter().all(|g| *g == games[0]), "two games: {games:?}");
        assert!(
            [&a, &b].iter().all(|r| r.status == 200 || r.status == 409),
            "round {round}: {a:?} {b:?}"
        );
        let game = games[0].as_i64().unwrap();
        assert_seated_once(first, &eve, game);
        let mine = first.get("/api/v1/games?mine=true", Some(&eve.token)).body;
        assert_eq!(mine["total"], 1, "round {round}: one game for Eve: {mine}");
    }
}

#[test]
fn one_person_asking_twice_at_once_through_two_replicas_is_seated_once() {
    let first = Server::start(Backend::Postgres);
    let second = first.replica(&[]);
    one_person_asking_twice_at_once_is_seated_once(&first, &second);
}

#[test]
fn one_person_asking_twice_at_once_on_sqlite_is_seated_once() {
    let server = Server::start(Backend::Sqlite);
    one_person_asking_twice_at_once_is_seated_once(&server, &server);
}
