//! An operator's tools on a database in use: `cardroom backup` copies an SQLite database while
//! people play, and the copy holds every move acknowledged before the backup began;
//! `cardroom check` finds a database sound, and names every game a hand has changed.

use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use diesel::RunQueryDsl;
use serde_json::json;

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, SECRET, Server};

/// Runs `cardroom ARGS` on the database at `database_url`.
fn cardroom(args: &[&str], database_url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("CARDROOM_JWT_SECRET", SECRET)
        .output()
        .expect("run cardroom")
}

/// `cardroom check` finds the database at `database_url` sound. The tests that build rich
/// databases (tournaments of every format, ratings, a player who leaves) end with it, so
/// that the check is held to every kind of game and record, not only the ones below.
pub(crate) fn assert_sound(database_url: &str) {
    let check = cardroom(&["check"], database_url);
    let out = text(&check.stdout);
    assert!(
        check.status.success() && out.contains("all consistent"),
        "{out}{}",
        text(&check.stderr)
    );
}

/// Runs each SQL statement on the database at `database_url` (damage, by hand), then
/// `cardroom check`: it exits 1 and names each of `expected` (a line containing it for each),
/// and nothing else.
pub(crate) fn assert_damage_named(database_url: &str, statements: &[String], expected: &[String]) {
    let mut conn = cardroom_db::connect(database_url, 1, Duration::from_secs(5))
        .expect("the database")
        .get()
        .expect("a connection");
    for statement in statements {
        let changed = diesel::sql_query(statement.as_str())
            .execute(&mut **conn)
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        assert!(changed > 0, "{statement} changed nothing");
    }
    let damaged = cardroom(&["check"], database_url);
    let out = text(&damaged.stdout);
    assert_eq!(
        damaged.status.code(),
        Some(1),
        "{out}{}",
        text(&damaged.stderr)
    );
    let problems: Vec<&str> = out
        .lines()
        .filter(|line| !line.starts_with("checked "))
        .collect();
    for wanted in expected {
        assert!(
            problems.iter().any(|line| line.contains(wanted.as_str())),
            "{wanted:?} is not named: {out}"
        );
    }
    assert!(
        problems
            .iter()
            .all(|line| expected.iter().any(|wanted| line.contains(wanted.as_str()))),
        "something else is named: {out}"
    );
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Plays games against a computer player until `stop`: every move answered 200 is recorded as
/// (game, version, when it was answered).
fn keep_playing(
    server: &Server,
    name: &str,
    stop: &AtomicBool,
    acked: &Mutex<Vec<(i64, i64, Instant)>>,
) {
    let player = server.guest(name);
    let mut id = None;
    while !stop.load(Ordering::SeqCst) {
        let game = match id {
            Some(game) => game,
            None => {
                let (game, _) = server.create(
                    &player,
                    json!({"kind": "basra", "seats": [{}, {"bot": "random"}]}),
                );
                id = Some(game);
                game
            }
        };
        let view = server.view(&player, game);
        match view["status"].as_str() {
            Some("active") if view["to_act"] == view["your_seat"] => {
                let legal = view["legal_moves"].as_array().expect("legal moves");
                let reply = server.play(&player, &view, &legal[0]);
                assert_eq!(reply.status, 200, "{reply:?}");
                let version = reply.body["view"]["version"].as_i64().expect("a version");
                acked.lock().unwrap().push((game, version, Instant::now()));
            }
            Some("hand_over") => {
                let reply = server.post(
                    &format!("/api/v1/games/{game}/deal"),
                    Some(&player.token),
                    &json!({}),
                );
                assert_eq!(reply.status, 200, "{reply:?}");
            }
            Some("finished") => id = None,
            other => panic!("game {game} is {other:?}"),
        }
    }
}

/// A backup taken while three people play holds every move answered before it began; the
/// players go on meanwhile; the copy serves, and checks sound.
#[test]
fn a_backup_taken_while_people_play_holds_every_acknowledged_move() {
    let server = Server::start(Backend::Sqlite);
    let dir = tempfile::tempdir().expect("a directory");
    let dest = dir.path().join("copy.db");
    let stop = AtomicBool::new(false);
    let acked = Mutex::new(Vec::new());
    let began = std::thread::scope(|scope| {
        for name in ["amira", "boulos", "chadi"] {
            let (server, stop, acked) = (&server, &stop, &acked);
            scope.spawn(move || keep_playing(server, name, stop, acked));
        }
        let count = || acked.lock().unwrap().len();
        while count() < 30 {
            std::thread::sleep(Duration::from_millis(20));
        }
        let began = Instant::now();
        let out = cardroom(
            &["backup", dest.to_str().expect("a path")],
            &server.database_url,
        );
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("backed up"),
            "{}",
            text(&out.stdout)
        );
        // The players were not held up: moves go on being answered after the backup.
        let after = count();
        while count() < after + 10 {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::SeqCst);
        began
    });
    let acked = acked.into_inner().unwrap();
    let copy_url = format!("sqlite://{}", dest.display());
    let check = cardroom(&["check"], &copy_url);
    assert!(
        check.status.success(),
        "{}{}",
        text(&check.stdout),
        text(&check.stderr)
    );
    assert!(
        text(&check.stdout).contains("all consistent"),
        "{}",
        text(&check.stdout)
    );
    // Every game's version in the copy is at least the last one acknowledged before the backup.
    let copy = Server::start_on(
        &copy_url,
        tempfile::tempdir().expect("a directory"),
        &[ADMIN],
    );
    let admin = admin_token(&copy);
    let mut games = std::collections::BTreeMap::new();
    for &(game, version, at) in &acked {
        if at < began {
            let best = games.entry(game).or_insert(0);
            *best = version.max(*best);
        }
    }
    assert!(!games.is_empty());
    for (game, version) in games {
        let reply = copy.get(&format!("/api/v1/admin/games/{game}"), Some(&admin));
        assert_eq!(reply.status, 200, "{reply:?}");
        let kept: Vec<i64> = reply.body["log"]
            .as_array()
            .expect("a log")
            .iter()
            .filter_map(|entry| entry["seq"].as_i64())
            .collect();
        assert!(
            kept.contains(&version),
            "game {game}: version {version} was acknowledged; the copy's log reaches {:?}",
            kept.last()
        );
    }
    // A file already there is never overwritten.
    let again = cardroom(
        &["backup", dest.to_str().expect("a path")],
        &server.database_url,
    );
    assert_eq!(again.status.code(), Some(2), "{}", text(&again.stderr));
}

/// `cardroom check` on a database of finished and unfinished games: sound. Then a snapshot
/// put in another game's place, and a commitment changed by hand: both named, exit 1. A
/// PostgreSQL database is backed up with its own tools: `cardroom backup` says so.
fn a_check_names_every_game_changed_by_hand(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let mut ids = Vec::new();
    for kind in ["basra", "thirty_one", "rummy", "tarneeb"] {
        let seats = if kind == "tarneeb" { 4 } else { 2 };
        let mut body = json!({"kind": kind, "seats": [{}]});
        for _ in 1..seats {
            body["seats"]
                .as_array_mut()
                .unwrap()
                .push(json!({"bot": "random"}));
        }
        let (id, _) = server.create(&amira, body);
        for _ in 0..6 {
            let view = server.view(&amira, id);
            if view["status"] != "active" || view["to_act"] != view["your_seat"] {
                break;
            }
            let legal = view["legal_moves"].as_array().expect("legal moves");
            assert_eq!(server.play(&amira, &view, &legal[0]).status, 200);
        }
        ids.push(id);
    }
    let resigned = server.post(
        &format!("/api/v1/games/{}/resign", ids[0]),
        Some(&amira.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let sound = cardroom(&["check"], &server.database_url);
    assert!(
        sound.status.success(),
        "{}{}",
        text(&sound.stdout),
        text(&sound.stderr)
    );
    assert!(
        text(&sound.stdout).contains("checked 4 games"),
        "{}",
        text(&sound.stdout)
    );

    let mut conn = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5))
        .expect("the database")
        .get()
        .expect("a connection");
    diesel::sql_query(format!(
        "UPDATE games SET state = (SELECT state FROM games WHERE id = {}) WHERE id = {}",
        ids[1], ids[2]
    ))
    .execute(&mut **conn)
    .expect("swap a snapshot");
    diesel::sql_query(format!(
        "UPDATE deals SET commitment = '{}' WHERE game_id = {} AND deal = 0",
        "0".repeat(64),
        ids[3]
    ))
    .execute(&mut **conn)
    .expect("change a commitment");
    let damaged = cardroom(&["check"], &server.database_url);
    let out = text(&damaged.stdout);
    assert_eq!(
        damaged.status.code(),
        Some(1),
        "{out}{}",
        text(&damaged.stderr)
    );
    assert!(
        out.contains(&format!(
            "game {}: the stored snapshot is not its log replayed",
            ids[2]
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("game {}: deal 0's commitment", ids[3])),
        "{out}"
    );
    // Nothing else is named: every line but the summary is about the two games changed.
    let named: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("game "))
        .collect();
    assert!(
        named
            .iter()
            .all(|line| line.starts_with(&format!("game {}:", ids[2]))
                || line.starts_with(&format!("game {}:", ids[3]))),
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.ends_with(&format!("{} differences", named.len()))),
        "{out}"
    );

    if backend == Backend::Postgres {
        let refused = cardroom(&["backup", "/tmp/never-written.db"], &server.database_url);
        assert_eq!(refused.status.code(), Some(2));
        assert!(
            text(&refused.stderr).contains("pgBackRest"),
            "{}",
            text(&refused.stderr)
        );
    }
}

on_both_backends!(a_check_names_every_game_changed_by_hand);

/// A database restored to a moment before an account was made gives that account's id to the
/// next one made: a session token signed (with the same secret) for the first names that
/// account, not the id, and is refused rather than act as the second.
fn a_token_names_its_account_not_an_id_a_restore_gave_another(backend: Backend) {
    let restored = Server::start(backend);
    let beta = restored.guest("beta");
    let before_the_restore = Server::start(backend);
    let alpha = before_the_restore.guest("alpha");
    assert_eq!(
        alpha.id, beta.id,
        "two fresh databases give the same first id"
    );
    let body = json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]});
    let refused = restored.post("/api/v1/games", Some(&alpha.token), &body);
    refused.assert_problem(401, "unauthorized");
    assert!(
        refused.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("sign in again")),
        "{refused:?}"
    );
    // The account's own token goes on working, on this replica and a fresh one.
    let (id, view) = restored.create(&beta, body);
    assert_eq!(view["seats"][0]["name"], "beta", "{view}");
    assert_eq!(restored.view(&beta, id)["id"], id);
}

on_both_backends!(a_token_names_its_account_not_an_id_a_restore_gave_another);
