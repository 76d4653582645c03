//! Export and import: a finished game exports as JSON and as the text notation, and
//! `cardroom import` replays either into another database to the identical final state; a
//! tampered export is refused.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server, play_out};

/// Runs `cardroom import ARGS…` on `database_url`: exit code, standard output and error.
fn import(database_url: &str, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .arg("import")
        .args(args)
        .env_clear()
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "error")
        .output()
        .expect("run cardroom import");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn pool(url: &str) -> cardroom_db::Pool {
    cardroom_db::connect(url, 1, Duration::from_secs(5)).unwrap()
}

/// The export without where it came from (an imported game is a practice game here).
fn without_source(mut export: Value) -> Value {
    export["source"] = Value::Null;
    export["practice"] = Value::Null;
    // (Each database makes its own analysis, in its own time.)
    export["analysis"] = Value::Null;
    export
}

/// The top-level fields where two exports differ.
fn differences(a: &Value, b: &Value) -> Vec<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec!["not objects".to_owned()];
    };
    a.keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

/// Exports finished game `id` both ways, imports each into a fresh SQLite database, and checks
/// that the imported game is the same game: the same final state, replaying from its own log,
/// exporting again to the same document.
pub fn exports_and_reimports_exactly(server: &Server, player: &Player, id: i64) {
    let path = format!("/api/v1/games/{id}/export");
    let json_export = server.get(&path, Some(&player.token));
    assert_eq!(json_export.status, 200, "{json_export:?}");
    assert_eq!(json_export.body["format"], "cardroom-game");
    let text_export = server.get(&format!("{path}?format=text"), Some(&player.token));
    assert_eq!(text_export.status, 200, "{text_export:?}");
    assert!(text_export.content_type.starts_with("text/plain"));
    let text = text_export.body.as_str().unwrap().to_owned();
    assert!(text.starts_with("# cardroom-game 3\n"), "{text}");

    let original = {
        let pool = pool(&server.database_url);
        let mut conn = pool.get().unwrap();
        cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id))
            .unwrap()
            .unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let json_file = dir.path().join("game.json");
    let text_file = dir.path().join("game.txt");
    std::fs::write(&json_file, json_export.body.to_string()).unwrap();
    std::fs::write(&text_file, &text).unwrap();
    for (file, is_json) in [(&json_file, true), (&text_file, false)] {
        let url = format!(
            "sqlite://{}",
            dir.path()
                .join(if is_json { "json.db" } else { "text.db" })
                .display()
        );
        let (code, out, err) = import(&url, &[file.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        let imported: i64 = out
            .strip_prefix("imported game ")
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        let pool = pool(&url);
        let mut conn = pool.get().unwrap();
        let stored = cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(imported))
            .unwrap()
            .unwrap();
        assert_eq!(stored, original, "the imported game's final state");
        assert_eq!(
            cardroom_api::play::replay(&mut conn, cardroom_db::GameId::new(imported)).unwrap(),
            Some(stored)
        );
        let again =
            cardroom_api::play::export::build(&mut conn, cardroom_db::GameId::new(imported))
                .unwrap();
        if is_json {
            let again = without_source(serde_json::to_value(&again).unwrap());
            let first = without_source(json_export.body.clone());
            assert!(again == first, "{:?}", differences(&again, &first));
        } else {
            // (An imported game is a practice game: its `Practice` header, digest and all, is
            // the one line that differs.)
            let practice = |text: &str| {
                text.lines()
                    .map(|l| {
                        if l.starts_with("Practice: ") {
                            "Practice"
                        } else {
                            l
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let again = cardroom_api::play::export::to_text(&again);
            assert_eq!(practice(&again), practice(&text));
        }
    }
}

fn exports_are_for_finished_games_and_players_and_tampering_is_refused(backend: Backend) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "options": {"target": 31},
               "turn": {"seconds": 600}}),
    );
    let path = format!("/api/v1/games/{id}/export");
    server
        .get(&path, Some(&amira.token))
        .assert_problem(409, "game_not_finished");
    play_out(&server, id, &[&amira], |legal| legal[0].clone());
    server
        .get(&path, Some(&karim.token))
        .assert_problem(403, "forbidden");
    server
        .get(&format!("{path}?format=xml"), Some(&amira.token))
        .assert_problem(400, "validation_failed");
    exports_and_reimports_exactly(&server, &amira, id);
    // The deadlines announced along the way do not upset `cardroom verify-deal`.
    let log = server.get(&format!("/api/v1/games/{id}/log"), Some(&amira.token));
    let report = cardroom_api::verify::verify_text(&log.body.to_string()).unwrap();
    assert!(report.ok(), "{:?}", report.lines);
    assert!(log.body.to_string().contains("\"deadline\""));

    let export = server.get(&path, Some(&amira.token)).body;
    assert_eq!(export["turn"], json!({"seconds": 600, "takeover_after": 3}));
    assert!(!export["hands"].as_array().unwrap().is_empty());
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let write = |name: &str, value: &Value| {
        let file = dir.path().join(name);
        std::fs::write(&file, value.to_string()).unwrap();
        file
    };
    let run = |file: &Path| import(&url, &["--dry-run", file.to_str().unwrap()]);

    let (code, out, _) = run(&write("good.json", &export));
    assert_eq!(code, 0);
    assert!(out.starts_with("checked basra standard"), "{out}");

    // A different move where a card was played.
    let mut moved = export.clone();
    let entries = moved["entries"].as_array_mut().unwrap();
    let (i, _) = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e["action"] == "move")
        .nth(2)
        .unwrap();
    let first_move = entries.iter().find(|e| e["action"] == "move").unwrap()["move"].clone();
    entries[i]["move"] = first_move;
    let (code, _, err) = run(&write("moved.json", &moved));
    assert_eq!(code, 1, "{err}");

    // Another outcome, another final state, another seed.
    let mut digest = export.clone();
    digest["result"]["state_sha256"] = json!("00".repeat(32));
    let (code, _, err) = run(&write("digest.json", &digest));
    assert_eq!(code, 1);
    assert!(err.contains("final state"), "{err}");
    let mut seed = export.clone();
    seed["deals"][0]["seed"] = json!("11".repeat(32));
    let (code, _, err) = run(&write("seed.json", &seed));
    assert_eq!(code, 1);
    assert!(err.contains("deal 0"), "{err}");

    // A table that could not have been: seats out of order, a name no one could have, a
    // level the game lacks, an entry at a seat that is not there, a timer out of bounds.
    let mutations: [(&str, Value); 5] = [
        ("/seats/1/seat", json!(7)),
        ("/seats/0/name", json!("line\nbreak")),
        ("/seats/1/bot", json!("grandmaster")),
        ("/entries/0/seat", json!(9)),
        ("/turn/seconds", json!(1)),
    ];
    for (pointer, value) in mutations {
        let mut bad = export.clone();
        *bad.pointer_mut(pointer).unwrap() = value;
        let (code, _, err) = run(&write("bad.json", &bad));
        assert_eq!(code, 1, "{pointer}: {err}");
    }

    assert!(
        !dir.path().join("t.db").exists(),
        "a dry run touches no database"
    );

    // Not an export at all.
    let (code, _, _) = run(&write("nothing.json", &json!({"hello": "world"})));
    assert_eq!(code, 2);
    let garbage = dir.path().join("garbage.txt");
    std::fs::write(
        &garbage,
        "# cardroom-game 3\nKind: chess #0000000000000000\n",
    )
    .unwrap();
    assert_eq!(run(&garbage).0, 2);
}

on_both_backends!(exports_are_for_finished_games_and_players_and_tampering_is_refused);
