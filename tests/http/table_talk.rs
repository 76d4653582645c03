//! What happens around a table besides the game: the chat's two rooms (and what a hostile
//! client may send it), its limit, admins' and people's mutes, a rematch, and who is connected.
//!
//! Over 600 lines: one table's life besides its game (chat, mutes, rematch, presence), whose
//! scenarios share the helpers at the top.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, RawStream, Reply, Server, SseEvent, eventually};

/// A public two-person Basra table with both people seated; returns its id.
pub(crate) fn public_table(server: &Server, host: &Player, guest: &Player) -> i64 {
    let (id, _) = server.create(
        host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&guest.token),
        &json!({}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    id
}

fn say(server: &Server, player: &Player, id: i64, body: Value) -> Reply {
    server.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&player.token),
        &body,
    )
}

/// The texts of the chat `player` reads now.
fn chat_texts(server: &Server, player: &Player, id: i64) -> Vec<String> {
    let page = server.get(&format!("/api/v1/games/{id}/chat"), Some(&player.token));
    assert_eq!(page.status, 200, "{page:?}");
    page.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn chat_rooms_keep_players_and_spectators_apart_until_the_game_is_over(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let watcher = server.guest("watcher");
    let id = public_table(&server, &host, &guest);
    let version = server.view(&host, id)["version"].clone();

    let said = say(&server, &host, id, json!({"text": "  good luck  "}));
    assert_eq!(said.status, 201, "{said:?}");
    assert_eq!(said.body["type"], "chat");
    assert_eq!(said.body["room"], "players");
    assert_eq!(said.body["name"], "host");
    assert_eq!(said.body["text"], "good luck", "trimmed");
    let preset = say(&server, &guest, id, json!({"preset": "thinking"}));
    assert_eq!(preset.status, 201, "{preset:?}");
    assert_eq!(preset.body["preset"], "thinking");
    assert_eq!(preset.body["text"], "Thinking…");
    let tip = say(
        &server,
        &watcher,
        id,
        json!({"text": "she holds the seven"}),
    );
    assert_eq!(tip.status, 201, "{tip:?}");
    assert_eq!(tip.body["room"], "spectators");
    // Nobody writes in the other room.
    say(
        &server,
        &watcher,
        id,
        json!({"text": "x", "room": "players"}),
    )
    .assert_problem(403, "forbidden");
    say(
        &server,
        &host,
        id,
        json!({"text": "x", "room": "spectators"}),
    )
    .assert_problem(403, "forbidden");

    // During the game each reads only their own room.
    assert_eq!(chat_texts(&server, &guest, id), ["good luck", "Thinking…"]);
    assert_eq!(chat_texts(&server, &watcher, id), ["she holds the seven"]);
    let page = server.get(&format!("/api/v1/games/{id}/chat"), Some(&host.token));
    assert_eq!(page.body["room"], "players");
    assert_eq!(page.body["rooms"], json!(["players"]));
    // The events carry the chat after a cursor, the same way.
    let news = server.get(
        &format!("/api/v1/games/{id}/events?after={version}&chat_after=0&wait=0"),
        Some(&host.token),
    );
    assert_eq!(news.status, 200, "{news:?}");
    let texts: Vec<&str> = news.body["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good luck", "Thinking…"]);
    let cursor = news.body["chat_cursor"].as_i64().unwrap();
    let again = server.get(
        &format!("/api/v1/games/{id}/events?after={version}&chat_after={cursor}&wait=0"),
        Some(&host.token),
    );
    assert_eq!(again.body["chat"], json!([]));
    // A word said never moves the game: the players' moves stay current.
    assert_eq!(server.view(&host, id)["version"], version);

    // An unlisted table's chat is its players' only.
    let (unlisted, _) = server.create(&host, json!({"kind": "basra", "seats": [{}, {}]}));
    say(&server, &watcher, unlisted, json!({"text": "hello"})).assert_problem(403, "forbidden");
    server
        .get(
            &format!("/api/v1/games/{unlisted}/chat"),
            Some(&watcher.token),
        )
        .assert_problem(403, "forbidden");

    // Once the game is over, everyone at the table reads both rooms.
    let resigned = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&guest.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    for reader in [&host, &watcher] {
        assert_eq!(
            chat_texts(&server, reader, id),
            ["good luck", "Thinking…", "she holds the seven"]
        );
    }
    assert_eq!(
        server
            .get(&format!("/api/v1/games/{id}/chat"), Some(&watcher.token))
            .body["rooms"],
        json!(["players", "spectators"])
    );
}

fn hostile_chat_is_refused_or_kept_as_plain_text(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let id = public_table(&server, &host, &guest);
    let version = server.view(&host, id)["version"].clone();
    let refused = [
        json!({"text": ""}),
        json!({"text": "    "}),
        json!({"text": "x".repeat(10 * 1024)}),
        json!({"text": "é".repeat(281)}),
        json!({"text": "two\nlines"}),
        json!({"text": "tab\there"}),
        json!({"text": "nul\u{0}"}),
        json!({"text": "bell\u{7}"}),
        json!({"text": "next line\u{85}"}),
        // Text that would show other than it reads: an override reversing what follows, an
        // isolate, a line separator, an invisible space, a joiner hiding at the end.
        json!({"text": "I lost \u{202E}niw I"}),
        json!({"text": "\u{2067}isolated\u{2069}"}),
        json!({"text": "two\u{2028}lines"}),
        json!({"text": "gg\u{200B}"}),
        json!({"text": "gg\u{200D}"}),
        json!({"preset": "insult"}),
        json!({"text": "hi", "preset": "hello"}),
        json!({"text": "hi", "color": "red"}),
        json!({"text": 5}),
        json!({"room": "players"}),
        json!({}),
    ];
    for body in refused {
        let reply = say(&server, &host, id, body.clone());
        assert_eq!(reply.status, 422, "{body}: {reply:?}");
        assert_eq!(reply.body["code"], "validation_failed", "{body}: {reply:?}");
    }
    let garbled = server.post_raw(
        &format!("/api/v1/games/{id}/chat"),
        Some(&host.token),
        &[],
        "application/json",
        b"{\"text\": ".to_vec(),
    );
    garbled.assert_problem(400, "validation_failed");
    // Markup and scripts are words like any others: stored and given back as text.
    let markup = "<script>alert('x')</script><img src=x onerror=alert(1)> & \"quotes\"";
    let kept = say(&server, &host, id, json!({ "text": markup }));
    assert_eq!(kept.status, 201, "{kept:?}");
    let longest = "é".repeat(280);
    assert_eq!(
        say(&server, &host, id, json!({ "text": longest })).status,
        201
    );
    let arabic = say(&server, &guest, id, json!({"text": "بالتوفيق للجميع"}));
    assert_eq!(arabic.status, 201, "{arabic:?}");
    assert_eq!(
        chat_texts(&server, &guest, id),
        [markup, longest.as_str(), "بالتوفيق للجميع"]
    );
    assert_eq!(
        server.view(&host, id)["version"],
        version,
        "the game is unchanged"
    );
    // A game that is not there, and an id that is not one.
    say(&server, &host, 999_999, json!({"text": "hi"})).assert_problem(404, "not_found");
    say(&server, &host, -1, json!({"text": "hi"})).assert_problem(404, "not_found");
}

fn one_person_writes_a_few_messages_at_a_time_on_every_replica(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_CHAT_BURST", "3")]);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let id = public_table(&server, &host, &guest);
    for n in 0..3 {
        let reply = say(
            &server,
            &host,
            id,
            json!({ "text": format!("message {n}") }),
        );
        assert_eq!(reply.status, 201, "{reply:?}");
    }
    let limited = say(&server, &host, id, json!({"text": "one too many"}));
    limited.assert_problem(429, "rate_limited");
    let wait: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=10).contains(&wait), "Retry-After {wait}");
    // Another person is not held back by it.
    assert_eq!(
        say(&server, &guest, id, json!({"text": "me too"})).status,
        201
    );
    // Many messages sent at once are counted one at a time: exactly the limit gets through.
    let crowd = server.guest("crowd");
    let sent: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|n| {
                let (server, crowd) = (&server, &crowd);
                scope
                    .spawn(move || say(server, crowd, id, json!({ "text": format!("{n}") })).status)
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sent.iter().filter(|&&s| s == 201).count(), 3, "{sent:?}");
    assert!(sent.iter().all(|&s| s == 201 || s == 429), "{sent:?}");
}

fn admins_hide_messages_and_mute_people_and_anyone_mutes_another_for_themselves(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let id = public_table(&server, &host, &guest);
    let rude = say(&server, &guest, id, json!({"text": "something rude"}));
    let rude_id = rude.body["id"].as_i64().unwrap();
    say(&server, &guest, id, json!({"text": "sorry"}));
    let start = server.get(&format!("/api/v1/games/{id}/chat"), Some(&host.token));
    let cursor = start.body["cursor"].as_i64().unwrap();

    // Only admins moderate.
    for path in [
        format!("/api/v1/admin/chat/{rude_id}/hide"),
        "/api/v1/admin/users/guest/mute".to_owned(),
    ] {
        server
            .post(&path, Some(&host.token), &json!({"muted": true}))
            .assert_problem(403, "forbidden");
    }
    server
        .get("/api/v1/admin/chat", Some(&host.token))
        .assert_problem(403, "forbidden");
    let listed = server.get(&format!("/api/v1/admin/chat?game={id}"), Some(&admin));
    assert_eq!(listed.status, 200, "{listed:?}");
    assert_eq!(listed.body["total"], 2);
    assert_eq!(listed.body["messages"][1]["text"], "something rude");
    let by_guest = server.get("/api/v1/admin/chat?player=guest", Some(&admin));
    assert_eq!(by_guest.body["total"], 2);

    // Hidden: gone for everyone, and readers who had it are told to take it down.
    let hidden = server.post(
        &format!("/api/v1/admin/chat/{rude_id}/hide"),
        Some(&admin),
        &json!({}),
    );
    assert_eq!(hidden.status, 200, "{hidden:?}");
    assert_eq!(hidden.body["hidden"], true);
    assert_eq!(chat_texts(&server, &host, id), ["sorry"]);
    let after = server.get(
        &format!("/api/v1/games/{id}/chat?after={cursor}"),
        Some(&host.token),
    );
    assert_eq!(after.body["messages"][0]["type"], "chat_hidden");
    assert_eq!(after.body["messages"][0]["id"], rude_id);
    let listed = server.get(&format!("/api/v1/admin/chat?game={id}"), Some(&admin));
    assert_eq!(
        listed.body["messages"][1]["hidden"], true,
        "admins still see it"
    );
    server
        .post("/api/v1/admin/chat/999999/hide", Some(&admin), &json!({}))
        .assert_problem(404, "not_found");

    // Muted by an admin: refused everywhere until lifted.
    let muted = server.post(
        "/api/v1/admin/users/guest/mute",
        Some(&admin),
        &json!({"muted": true, "minutes": 5}),
    );
    assert_eq!(muted.status, 200, "{muted:?}");
    assert!(muted.body["muted_until"].is_string());
    let refused = say(&server, &guest, id, json!({"text": "let me speak"}));
    refused.assert_problem(403, "muted");
    // Until when, as a time a page can show in its reader's own clock and language.
    let until = refused.body["muted_until"].as_str().expect("muted_until");
    let until = chrono::DateTime::parse_from_rfc3339(until).expect("an RFC 3339 time");
    let left = until.timestamp() - chrono::Utc::now().timestamp();
    assert!(
        (250..=301).contains(&left),
        "muted for about 5 minutes: {left} s"
    );
    say(&server, &guest, id, json!({"preset": "sorry"})).assert_problem(403, "muted");
    // The chat says so before anything is typed; to others it says nothing of it.
    let page = server.get(&format!("/api/v1/games/{id}/chat"), Some(&guest.token));
    assert_eq!(
        page.body["muted_until"], refused.body["muted_until"],
        "{page:?}"
    );
    assert_eq!(page.body["writes"], true);
    let others = server.get(&format!("/api/v1/games/{id}/chat"), Some(&host.token));
    assert_eq!(others.body["muted_until"], Value::Null, "{others:?}");
    server
        .post(
            "/api/v1/admin/users/guest/mute",
            Some(&admin),
            &json!({"muted": true, "minutes": 0}),
        )
        .assert_problem(422, "validation_failed");
    let lifted = server.post(
        "/api/v1/admin/users/guest/mute",
        Some(&admin),
        &json!({"muted": false}),
    );
    assert_eq!(lifted.body["muted_until"], Value::Null);
    let page = server.get(&format!("/api/v1/games/{id}/chat"), Some(&guest.token));
    assert_eq!(page.body["muted_until"], Value::Null, "{page:?}");
    assert_eq!(
        say(&server, &guest, id, json!({"text": "thanks"})).status,
        201
    );

    // One person's mute is theirs alone.
    let muted = server.put("/api/v1/mutes/guest", Some(&host.token));
    assert_eq!(muted.status, 200, "{muted:?}");
    assert_eq!(muted.body["names"], json!(["guest"]));
    assert!(chat_texts(&server, &host, id).is_empty());
    say(&server, &guest, id, json!({"text": "can you hear me"}));
    assert!(chat_texts(&server, &host, id).is_empty());
    assert_eq!(
        chat_texts(&server, &guest, id),
        ["sorry", "thanks", "can you hear me"]
    );
    server
        .put("/api/v1/mutes/host", Some(&host.token))
        .assert_problem(409, "self_mute");
    server
        .put("/api/v1/mutes/nobody-here", Some(&host.token))
        .assert_problem(404, "not_found");
    let unmuted = server.delete("/api/v1/mutes/guest", Some(&host.token));
    assert_eq!(unmuted.status, 200, "{unmuted:?}");
    assert_eq!(unmuted.body["names"], json!([]));
    server
        .delete("/api/v1/mutes/guest", Some(&host.token))
        .assert_problem(404, "not_found");
    assert_eq!(chat_texts(&server, &host, id).len(), 3);
}

/// The next event named `name` on a stream within `wait`, skipping others.
pub(crate) fn next_named(
    events: &std::sync::mpsc::Receiver<Option<SseEvent>>,
    name: &str,
    wait: Duration,
) -> SseEvent {
    let until = Instant::now() + wait;
    loop {
        let left = until
            .checked_duration_since(Instant::now())
            .unwrap_or_else(|| panic!("no `{name}` event in time"));
        match events.recv_timeout(left) {
            Ok(Some(event)) if event.event == name => return event,
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended before a `{name}` event"),
            Err(_) => panic!("no `{name}` event in time"),
        }
    }
}

fn a_stream_carries_its_rooms_chat_and_resumes_after_the_last_message(backend: Backend) {
    let server = Server::start(backend);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let watcher = server.guest("watcher");
    let id = public_table(&server, &host, &guest);
    say(&server, &host, id, json!({"text": "before anyone watched"}));
    let path = format!("/api/v1/games/{id}/events");
    let players = server.sse(&path, &host.token, None);
    let spectators = server.sse(&path, &watcher.token, None);
    // A new stream starts with the latest messages of its room.
    let first = next_named(&players, "chat", Duration::from_secs(5));
    assert_eq!(first.data["event"]["text"], "before anyone watched");
    say(
        &server,
        &watcher,
        id,
        json!({"text": "go on, play the jack"}),
    );
    say(&server, &guest, id, json!({"text": "your turn"}));
    let heard = next_named(&players, "chat", Duration::from_secs(5));
    assert_eq!(
        heard.data["event"]["text"], "your turn",
        "not the spectators' tip"
    );
    let resume = heard.id.clone().expect("a chat event has an id");
    assert!(resume.contains(':'), "{resume}");
    let tip = next_named(&spectators, "chat", Duration::from_secs(5));
    assert_eq!(tip.data["event"]["text"], "go on, play the jack");
    drop(players);
    // Reconnecting with the last id: only what came after.
    say(&server, &host, id, json!({"text": "after the reconnect"}));
    let again = server.sse(&path, &host.token, Some(&resume));
    let next = next_named(&again, "chat", Duration::from_secs(5));
    assert_eq!(next.data["event"]["text"], "after the reconnect");
}

/// Waits for an event on a stream that `wanted` accepts; `what` names it in a failure.
fn until(
    stream: &std::sync::mpsc::Receiver<Option<SseEvent>>,
    what: &str,
    wanted: impl Fn(&SseEvent) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match stream.recv_timeout(left) {
            Ok(Some(event)) if wanted(&event) => return,
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended before {what}"),
            Err(_) => panic!("{what} did not arrive in time"),
        }
    }
}

/// Waits for the event that completes version `version` on a stream (it carries the id).
fn until_version(stream: &std::sync::mpsc::Receiver<Option<SseEvent>>, version: i64) {
    until(stream, &format!("version {version}"), |event| {
        event.id.as_deref().and_then(|id| id.split(':').next())
            == Some(version.to_string().as_str())
    });
}

fn watchers_of_one_table_share_the_reads_of_its_news(backend: Backend) {
    const WATCHERS: usize = 24;
    // Nothing but the move makes the streams look while the reads are counted: no look on a
    // timer (the safety net, who is at the table) falls in the few seconds the test takes.
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_RECHECK_MS", "60000"),
            ("CARDROOM_PRESENCE_SECS", "3600"),
        ],
    );
    let host = server.guest("host");
    let guest = server.guest("guest");
    let id = public_table(&server, &host, &guest);
    let path = format!("/api/v1/games/{id}/events");
    let view = server.view(&host, id);
    let version = view["version"].as_i64().expect("a version");
    let watchers: Vec<_> = (0..WATCHERS)
        .map(|i| {
            let watcher = server.guest(&format!("watcher{i}"));
            server.sse(&path, &watcher.token, None)
        })
        .collect();
    // Every watcher has seen the others arrive: the arrivals' notices (and their reads) are over.
    for stream in &watchers {
        until_version(stream, version);
        until(stream, &format!("{WATCHERS} spectators"), |event| {
            event.event == "presence" && event.data["event"]["spectators"] == WATCHERS
        });
    }
    let before = server.metric("cardroom_stream_reads_total");
    let mover = if view["to_act"] == view["your_seat"] {
        &host
    } else {
        &guest
    };
    let view = server.view(mover, id);
    let legal = view["legal_moves"].as_array().expect("legal moves").clone();
    let moved = server.play(mover, &view, &legal[0]);
    assert_eq!(moved.status, 200, "{moved:?}");
    for stream in &watchers {
        until_version(stream, version + 1);
    }
    let reads = server.metric("cardroom_stream_reads_total") - before;
    // One shared read of the change and one shared look at who is at the table (perhaps not yet
    // made when the counter is read) — not one a watcher.
    assert!(
        (1.0..=2.0).contains(&reads),
        "{WATCHERS} watchers made {reads} reads for one move"
    );
}

/// Plays a two-sided game to its end by resignation; a game of `kind` with these seats.
fn finished_game(server: &Server, people: &[&Player], body: Value) -> i64 {
    let (id, view) = server.create(people[0], body);
    for person in &people[1..] {
        let joined = server.post(
            &format!("/api/v1/games/{id}/join"),
            Some(&person.token),
            &json!({"invite_code": view["invite_code"]}),
        );
        assert_eq!(joined.status, 200, "{joined:?}");
    }
    let rematch = rematch(server, people[0], id, true);
    rematch.assert_problem(409, "game_not_finished");
    let resigned = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&people[0].token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    // The answer that ends the game already offers the rematch, as the view will.
    assert_eq!(
        resigned.body["view"]["rematch"]["accepted"],
        json!([]),
        "{resigned:?}"
    );
    assert_eq!(server.view(people[0], id)["status"], "finished");
    id
}

fn rematch(server: &Server, player: &Player, id: i64, accept: bool) -> Reply {
    server.post(
        &format!("/api/v1/games/{id}/rematch"),
        Some(&player.token),
        &json!({ "accept": accept }),
    )
}

fn a_rematch_starts_when_every_person_accepts_with_every_seat_moved_on(backend: Backend) {
    let server = Server::start(backend);
    let ann = server.guest("ann");
    let bob = server.guest("bob");
    let cat = server.guest("cat");
    let watcher = server.guest("watcher");
    let body = json!({
        "kind": "tarneeb", "variant": "classic",
        "seats": [{}, {}, {}, {"bot": "medium"}],
        "options": {"move_cap": 3000}, "visibility": "public", "turn": {"seconds": 120}
    });
    let id = finished_game(&server, &[&ann, &bob, &cat], body);
    rematch(&server, &cat, id, false).assert_problem(409, "no_rematch_offered");
    rematch(&server, &watcher, id, true).assert_problem(403, "forbidden");

    let offered = rematch(&server, &bob, id, true);
    assert_eq!(offered.status, 200, "{offered:?}");
    assert_eq!(offered.body["accepted"], json!([1]));
    assert_eq!(offered.body["waiting_for"], json!([0, 2]));
    let declined = rematch(&server, &ann, id, false);
    assert_eq!(declined.body["declined_by"], 0);
    assert_eq!(declined.body["accepted"], json!([]));
    assert_eq!(
        server.view(&cat, id)["rematch"]["declined_by"],
        0,
        "the view says so"
    );
    assert_eq!(
        rematch(&server, &ann, id, true).body["accepted"],
        json!([0])
    );
    assert_eq!(
        rematch(&server, &ann, id, true).body["accepted"],
        json!([0]),
        "twice is once"
    );
    assert_eq!(
        rematch(&server, &bob, id, true).body["waiting_for"],
        json!([2])
    );
    let started = rematch(&server, &cat, id, true);
    assert_eq!(started.status, 200, "{started:?}");
    let next = started.body["game_id"].as_i64().expect("the new game");
    assert_eq!(started.body["waiting_for"], json!([]));

    // Everyone is told where, in the finished game's events and view.
    let old = server.view(&watcher, id);
    assert_eq!(old["rematch"]["game_id"], next);
    assert!(
        old["recent_events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"]["type"] == "rematch_started" && e["event"]["game_id"] == next),
        "{old}"
    );
    // The same game, every seat one place on: the computer from seat 3 now deals from seat 0.
    let new = server.view(&ann, next);
    assert_eq!(new["kind"], "tarneeb");
    assert_eq!(new["variant"], "classic");
    assert_eq!(new["options"]["move_cap"], 3000);
    assert_eq!(new["visibility"], "public");
    assert_eq!(new["turn"]["seconds"], 120);
    assert_eq!(new["your_seat"], 1);
    assert_eq!(server.view(&bob, next)["your_seat"], 2);
    assert_eq!(server.view(&cat, next)["your_seat"], 3);
    assert_eq!(new["seats"][0]["bot"], "medium");
    assert_ne!(new["status"], "waiting");
    // Accepting again names the same game; declining now is too late.
    assert_eq!(rematch(&server, &bob, id, true).body["game_id"], next);
    rematch(&server, &bob, id, false).assert_problem(409, "rematch_started");

    // The finished game still exports, and the export still replays.
    let export = server.get(&format!("/api/v1/games/{id}/export"), Some(&ann.token));
    assert_eq!(export.status, 200, "{export:?}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    std::fs::write(&file, export.body.to_string()).unwrap();
    let replayed = std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["import", "--dry-run"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
}

fn two_people_accepting_at_once_make_one_rematch(backend: Backend) {
    let server = Server::start(backend);
    let replica = server.replica(&[]);
    for round in 0..3 {
        let ann = server.guest(&format!("ann{round}"));
        let bob = server.guest(&format!("bob{round}"));
        let id = finished_game(
            &server,
            &[&ann, &bob],
            json!({"kind": "basra", "seats": [{}, {}]}),
        );
        let answers: Vec<Reply> = std::thread::scope(|scope| {
            let a = scope.spawn(|| rematch(&server, &ann, id, true));
            let b = scope.spawn(|| rematch(&replica, &bob, id, true));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        for answer in &answers {
            assert_eq!(answer.status, 200, "{answer:?}");
        }
        let games: Vec<Option<i64>> = answers.iter().map(|a| a.body["game_id"].as_i64()).collect();
        let made = server.view(&ann, id)["rematch"]["game_id"].as_i64();
        assert!(made.is_some(), "both accepted, so the rematch started");
        assert!(
            games.iter().all(|g| g.is_none() || *g == made),
            "{games:?} against {made:?}"
        );
        let mine = server.get("/api/v1/games?mine=true", Some(&ann.token)).body;
        assert_eq!(mine["total"], 2, "one new game, not two: {mine}");
    }
}

fn the_view_says_who_is_connected_and_how_many_watch(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_PRESENCE_SECS", "2")]);
    let host = server.guest("host");
    let guest = server.guest("guest");
    let watcher = server.guest("watcher");
    let id = public_table(&server, &host, &guest);
    // Both just made requests: both connected.
    eventually(Duration::from_secs(5), "both connected", || {
        let view = server.view(&host, id);
        server.view(&guest, id);
        view["seats"][0]["connected"] == true && view["seats"][1]["connected"] == true
    });
    // The guest goes quiet: after the window the host sees the seat empty of its person.
    let started = Instant::now();
    eventually(Duration::from_secs(8), "the quiet guest is gone", || {
        server.view(&host, id)["seats"][1]["connected"] == false
    });
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "gone too soon"
    );
    // A spectator's open stream keeps them counted (and the player's stream hears of it).
    let host_stream = server.sse(&format!("/api/v1/games/{id}/events"), &host.token, None);
    let first = next_named(&host_stream, "presence", Duration::from_secs(5));
    assert_eq!(first.data["event"]["spectators"], 0);
    let watching = RawStream::open(
        &server,
        &format!("/api/v1/games/{id}/events"),
        &watcher.token,
    );
    eventually(Duration::from_secs(5), "one spectator", || {
        server.view(&host, id)["spectators"] == 1
    });
    let told = next_named(&host_stream, "presence", Duration::from_secs(5));
    assert_eq!(told.data["event"]["spectators"], 1);
    assert_eq!(
        told.data["event"]["connected"],
        json!([0]),
        "the host, streaming"
    );
    // An open stream keeps a person connected without any other request.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(server.view(&host, id)["spectators"], 1);
    // The spectator leaves: no longer counted once the window passes.
    drop(watching);
    eventually(Duration::from_secs(8), "the spectator left", || {
        server.view(&host, id)["spectators"] == 0
    });
    // A long-poll's answer says who is there too.
    let poll = server.get(
        &format!("/api/v1/games/{id}/events?after=0&wait=0"),
        Some(&host.token),
    );
    assert_eq!(poll.body["presence"]["connected"], json!([0]));
    assert_eq!(poll.body["presence"]["spectators"], 0);
}

on_both_backends!(
    chat_rooms_keep_players_and_spectators_apart_until_the_game_is_over,
    hostile_chat_is_refused_or_kept_as_plain_text,
    one_person_writes_a_few_messages_at_a_time_on_every_replica,
    admins_hide_messages_and_mute_people_and_anyone_mutes_another_for_themselves,
    a_stream_carries_its_rooms_chat_and_resumes_after_the_last_message,
    a_rematch_starts_when_every_person_accepts_with_every_seat_moved_on,
    the_view_says_who_is_connected_and_how_many_watch,
    watchers_of_one_table_share_the_reads_of_its_news,
);

#[test]
fn two_people_accepting_at_once_on_two_replicas_make_one_rematch() {
    two_people_accepting_at_once_make_one_rematch(Backend::Postgres);
}

#[test]
fn two_people_accepting_at_once_on_one_sqlite_file_make_one_rematch() {
    two_people_accepting_at_once_make_one_rematch(Backend::Sqlite);
}

#[test]
fn presence_and_chat_cross_replicas() {
    let a = Server::start_with(Backend::Postgres, &[("CARDROOM_PRESENCE_SECS", "2")]);
    // (B's safety net reads once a minute: what reaches B in time came by notice.)
    let b = a.replica(&[
        ("CARDROOM_PRESENCE_SECS", "2"),
        ("CARDROOM_RECHECK_MS", "60000"),
    ]);
    let host = a.guest("host");
    let guest = a.guest("guest");
    let watcher = a.guest("watcher");
    let id = public_table(&a, &host, &guest);
    // A spectator streaming from replica B is counted on replica A.
    let watching = b.sse(&format!("/api/v1/games/{id}/events"), &watcher.token, None);
    eventually(
        Duration::from_secs(5),
        "the spectator on B counted on A",
        || a.view(&host, id)["spectators"] == 1,
    );
    // A word said through A reaches the stream on B at once, through the notification.
    let sent = Instant::now();
    say(&a, &watcher, id, json!({"text": "hello from A"}));
    let heard = next_named(&watching, "chat", Duration::from_secs(5));
    assert_eq!(heard.data["event"]["text"], "hello from A");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    // A person making requests only on B is connected as A sees it.
    eventually(
        Duration::from_secs(5),
        "the guest on B connected on A",
        || {
            b.view(&guest, id);
            a.view(&host, id)["seats"][1]["connected"] == true
        },
    );
}
