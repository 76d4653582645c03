//! Programs as users: personal API tokens and their scopes, and bot accounts.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Player, Reply, Server};

/// A personal API token of `owner` (a session) with these scopes; returns the token.
pub(crate) fn api_token(server: &Server, owner: &Player, scopes: &[&str]) -> String {
    let made = server.post(
        "/api/v1/account/tokens",
        Some(&owner.token),
        &json!({"description": "a test program", "scopes": scopes}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    made.body["token"].as_str().unwrap().to_owned()
}

/// `owner` acting through `token`.
pub(crate) fn through(owner: &Player, token: &str) -> Player {
    Player {
        token: token.to_owned(),
        id: owner.id,
    }
}

fn tokens_are_shown_once_listed_without_their_secret_and_revoked_at_once(backend: Backend) {
    let server = Server::start(backend);
    let alice = server.register("alice");
    let made = server.post(
        "/api/v1/account/tokens",
        Some(&alice.token),
        &json!({"description": "  my Basra bot ", "scopes": ["play", "read"]}),
    );
    assert_eq!(made.status, 201, "{made:?}");
    let token = made.body["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("cdr_"), "{token}");
    assert_eq!(made.body["info"]["description"], "my Basra bot");
    assert_eq!(made.body["info"]["scopes"], json!(["play", "read"]));
    let prefix = made.body["info"]["prefix"].as_str().unwrap().to_owned();
    assert!(token.starts_with(&prefix) && prefix.len() < token.len());
    // Listed, but never with its secret again.
    let listed = server.get("/api/v1/account/tokens", Some(&alice.token));
    assert_eq!(listed.status, 200, "{listed:?}");
    assert_eq!(listed.body["tokens"][0]["prefix"], prefix);
    assert!(!listed.body.to_string().contains(&token[prefix.len()..]));
    // It works like a session token, within its scopes.
    let program = through(&alice, &token);
    let (id, _) = server.create(
        &program,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert_eq!(server.view(&program, id)["your_seat"], 0);
    let listed = server.get("/api/v1/account/tokens", Some(&alice.token));
    assert!(
        listed.body["tokens"][0]["last_used_at"].is_string(),
        "{listed:?}"
    );
    // A token cannot manage tokens: a leaked one cannot mint others.
    server
        .post(
            "/api/v1/account/tokens",
            Some(&token),
            &json!({"description": "another", "scopes": ["read"]}),
        )
        .assert_problem(403, "session_required");
    // Revoked: refused at once.
    let token_id = made.body["info"]["id"].as_i64().unwrap();
    let revoked = server.delete(
        &format!("/api/v1/account/tokens/{token_id}"),
        Some(&alice.token),
    );
    assert_eq!(revoked.status, 204, "{revoked:?}");
    server
        .get(&format!("/api/v1/games/{id}"), Some(&token))
        .assert_problem(401, "unauthorized");
    server
        .delete(
            &format!("/api/v1/account/tokens/{token_id}"),
            Some(&alice.token),
        )
        .assert_problem(404, "not_found");
    assert_eq!(
        server
            .get("/api/v1/account/tokens", Some(&alice.token))
            .body["tokens"],
        json!([])
    );
    // Another account cannot revoke someone else's token.
    let theirs = server.post(
        "/api/v1/account/tokens",
        Some(&alice.token),
        &json!({"description": "kept", "scopes": ["read"]}),
    );
    let bob = server.register("bob");
    server
        .delete(
            &format!("/api/v1/account/tokens/{}", theirs.body["info"]["id"]),
            Some(&bob.token),
        )
        .assert_problem(404, "not_found");
}

fn tokens_are_for_registered_accounts_with_sound_descriptions_and_scopes(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let guest = server.guest("visitor");
    let alice = server.register("alice");
    let ask = |who: &str, body: Value| server.post("/api/v1/account/tokens", Some(who), &body);
    ask(
        &guest.token,
        json!({"description": "x", "scopes": ["read"]}),
    )
    .assert_problem(403, "registered_only");
    ask(
        &alice.token,
        json!({"description": "x", "scopes": ["admin"]}),
    )
    .assert_problem(403, "forbidden");
    for body in [
        json!({"description": "", "scopes": ["read"]}),
        json!({"description": "   ", "scopes": ["read"]}),
        json!({"description": "a\nb", "scopes": ["read"]}),
        json!({"description": "my bot \u{202E}tob ym", "scopes": ["read"]}),
        json!({"description": "x".repeat(101), "scopes": ["read"]}),
        json!({"description": "x", "scopes": []}),
        json!({"description": "x", "scopes": ["everything"]}),
        json!({"description": "x"}),
        json!({"description": "x", "scopes": ["read"], "expires": 5}),
    ] {
        let reply = ask(&alice.token, body.clone());
        assert_eq!(reply.status, 422, "{body}: {reply:?}");
    }
    let admin = admin_token(&server);
    let root = ask(
        &admin,
        json!({"description": "ops", "scopes": ["admin", "read"]}),
    );
    assert_eq!(root.status, 201, "{root:?}");
    let ops = root.body["token"].as_str().unwrap();
    assert_eq!(server.get("/api/v1/admin/stats", Some(ops)).status, 200);
    // A garbled token, or a real one's id with another secret: unauthorized.
    let real = api_token(&server, &alice, &["read"]);
    let forged = format!("{}{}", &real[..real.len() - 4], "abcd");
    for bad in [forged.as_str(), "cdr_", "cdr_0123456789_short", &real[..20]] {
        server
            .get("/api/v1/games?mine=true", Some(bad))
            .assert_problem(401, "unauthorized");
    }
}

/// Every operation of the document that needs a token, with the scope it needs: `None` for
/// the account's own endpoints (a session only).
fn scope_of(method: &str, path: &str) -> Option<&'static str> {
    let reading = [
        "/api/v1/games",
        "/api/v1/games/{id}",
        "/api/v1/games/{id}/score",
        "/api/v1/games/{id}/log",
        "/api/v1/games/{id}/export",
        "/api/v1/games/{id}/analysis",
        "/api/v1/games/{id}/events",
        "/api/v1/games/{id}/chat",
        "/api/v1/games/{id}/invitation",
        "/api/v1/mutes",
    ];
    if path.starts_with("/api/v1/account/") {
        return None;
    }
    if path.starts_with("/api/v1/admin/") {
        return Some("admin");
    }
    if path.starts_with("/api/v1/challenges") {
        return Some(if method == "GET" { "read" } else { "challenge" });
    }
    // Making a tournament asks others to play, as a challenge does (and so do changing one and
    // calling it off); entering one is playing.
    if path.starts_with("/api/v1/tournaments") {
        return Some(match (method, path) {
            ("GET", _) => "read",
            ("POST", "/api/v1/tournaments")
            | ("PUT", "/api/v1/tournaments/{id}")
            | ("POST", "/api/v1/tournaments/{id}/cancel") => "challenge",
            _ => "play",
        });
    }
    if path == "/api/v1/stream/events" || (method == "GET" && reading.contains(&path)) {
        return Some("read");
    }
    Some("play")
}

fn every_endpoint_checks_the_scope_it_needs(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let admin = admin_token(&server);
    let alice = server.register("alice");
    // Alice is an admin too, so that the admin scope is hers to give.
    let promoted = server.post(
        "/api/v1/admin/users/alice/role",
        Some(&admin),
        &json!({"role": "admin"}),
    );
    assert_eq!(promoted.status, 200, "{promoted:?}");
    let (game, _) = server.create(
        &alice,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let tokens: Vec<(&str, String)> = ["play", "challenge", "read", "admin"]
        .into_iter()
        .map(|scope| (scope, api_token(&server, &alice, &[scope])))
        .collect();
    let document = server.get("/openapi.json", None).body;
    let mut checked = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if operation.get("security").is_none() {
                continue;
            }
            let method = method.to_uppercase();
            let url = path
                .replace("{id}", &game.to_string())
                .replace("{name}", "alice");
            for (scope, token) in &tokens {
                let reply = match method.as_str() {
                    "GET" => {
                        let wait = if path.ends_with("/events") {
                            "?wait=0"
                        } else {
                            ""
                        };
                        server.get(&format!("{url}{wait}"), Some(token))
                    }
                    "POST" => server.post(&url, Some(token), &json!({})),
                    "PUT" => server.put(&url, Some(token)),
                    "DELETE" => server.delete(&url, Some(token)),
                    other => panic!("a method this test does not send: {other}"),
                };
                let what = format!("{method} {path} with a `{scope}` token");
                match scope_of(&method, path) {
                    None => reply.assert_problem(403, "session_required"),
                    Some(needed) if needed == *scope => assert!(
                        !matches!(
                            reply.body["code"].as_str(),
                            Some("insufficient_scope" | "session_required" | "unauthorized")
                        ),
                        "{what}: {reply:?}"
                    ),
                    Some(_) => {
                        assert_eq!(reply.status, 403, "{what}: {reply:?}");
                        assert_eq!(
                            reply.body["code"], "insufficient_scope",
                            "{what}: {reply:?}"
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} calls");
}

/// A game of alice's against the computer, a stream of it opened with a personal token of
/// hers that has then been revoked (the stream has delivered what it had and is waiting).
pub(crate) fn a_stream_whose_token_is_revoked(
    server: &Server,
) -> (
    Player,
    i64,
    std::sync::mpsc::Receiver<(std::time::Instant, Value)>,
) {
    let alice = server.register("alice");
    let made = server.post(
        "/api/v1/account/tokens",
        Some(&alice.token),
        &json!({"description": "watcher", "scopes": ["read", "play"]}),
    );
    let token = made.body["token"].as_str().unwrap().to_owned();
    let (id, _) = server.create(
        &through(&alice, &token),
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    let events = server
        .stream(&format!("/api/v1/games/{id}/events"), &token, None)
        .unwrap();
    assert!(
        events.recv_timeout(Duration::from_secs(5)).is_ok(),
        "the stream began"
    );
    while events.recv_timeout(Duration::from_millis(300)).is_ok() {}
    let revoked = server.delete(
        &format!("/api/v1/account/tokens/{}", made.body["info"]["id"]),
        Some(&alice.token),
    );
    assert_eq!(revoked.status, 204);
    (alice, id, events)
}

fn a_stream_opened_with_a_token_ends_when_the_token_is_revoked(backend: Backend) {
    let server = Server::start(backend);
    let (alice, id, events) = a_stream_whose_token_is_revoked(&server);
    // A move by the session wakes the stream, which ends instead of telling it.
    let view = server.view(&alice, id);
    let mv = view["legal_moves"][0].clone();
    assert_eq!(server.play(&alice, &view, &mv).status, 200);
    let (_, end) = events.recv_timeout(Duration::from_secs(5)).expect("an end");
    assert_eq!(end["event"]["type"], "stream_end", "{end}");
    assert_eq!(end["event"]["reason"], "token_expired");
}

fn a_bot_account_plays_only_through_its_tokens_and_is_marked_everywhere(backend: Backend) {
    let server = Server::start(backend);
    let bot = server.register("basrabot");
    let became = server.post("/api/v1/account/bot", Some(&bot.token), &json!({}));
    assert_eq!(became.status, 200, "{became:?}");
    assert_eq!(became.body["bot"], true);
    // Its session may not seat it, nor move for it.
    server
        .post(
            "/api/v1/games",
            Some(&bot.token),
            &json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
        )
        .assert_problem(403, "bot_needs_token");
    let token = api_token(&server, &bot, &["play", "read"]);
    let program = through(&bot, &token);
    let (id, view) = server.create(
        &program,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert_eq!(view["seats"][0]["bot_account"], true);
    assert_eq!(view["seats"][1]["bot_account"], false);
    let mv = view["legal_moves"][0].clone();
    server
        .play(&bot, &view, &mv)
        .assert_problem(403, "bot_needs_token");
    assert_eq!(server.play(&program, &view, &mv).status, 200);
    assert_eq!(
        server.get("/api/v1/players/basrabot", None).body["bot"],
        true
    );
    // Irreversible, and only for a registered account that never sat at a game.
    let person = server.register("person");
    let (_, _) = server.create(
        &person,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    server
        .post("/api/v1/account/bot", Some(&person.token), &json!({}))
        .assert_problem(409, "has_games");
    let guest = server.guest("visitor");
    server
        .post("/api/v1/account/bot", Some(&guest.token), &json!({}))
        .assert_problem(403, "registered_only");
    server
        .post("/api/v1/account/bot", Some(&token), &json!({}))
        .assert_problem(403, "session_required");
    let _ = id;
}

fn seek(server: &Server, player: &Player, body: Value) -> Reply {
    server.post("/api/v1/seeks", Some(&player.token), &body)
}

fn quick_match_pairs_a_bot_account_only_with_people_who_ask_for_bots(backend: Backend) {
    let server = Server::start(backend);
    let bot = server.register("seekbot");
    assert_eq!(
        server
            .post("/api/v1/account/bot", Some(&bot.token), &json!({}))
            .status,
        200
    );
    let program = through(&bot, &api_token(&server, &bot, &["play", "read"]));
    let body = json!({"kind": "basra", "players": 2, "rated": false});
    let waiting = seek(&server, &program, body.clone());
    assert_eq!(waiting.body["status"], "open", "{waiting:?}");
    // A person who does not ask for bots waits on; one who does is seated with the bot.
    let shy = server.guest("shy");
    assert_eq!(seek(&server, &shy, body.clone()).body["status"], "open");
    let keen = server.guest("keen");
    let mut with_bots = body.clone();
    with_bots["bots"] = json!(true);
    let matched = seek(&server, &keen, with_bots);
    assert_eq!(matched.body["status"], "matched", "{matched:?}");
    let game = matched.body["game_id"].as_i64().unwrap();
    let seats = server.view(&keen, game)["seats"].clone();
    let names: Vec<&str> = seats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"seekbot") && names.contains(&"keen"),
        "{names:?}"
    );
}

fn games_against_bot_accounts_are_rated_in_the_bots_pool(backend: Backend) {
    let server = Server::start(backend);
    let bot = server.register("ratedbot");
    assert_eq!(
        server
            .post("/api/v1/account/bot", Some(&bot.token), &json!({}))
            .status,
        200
    );
    let program = through(&bot, &api_token(&server, &bot, &["play", "read"]));
    let person = server.register("person");
    let (id, view) = server.create(&person, json!({"kind": "basra", "seats": [{}, {}]}));
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&program.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    let resigned = server.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&person.token),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    for name in ["ratedbot", "person"] {
        let profile = server.get(&format!("/api/v1/players/{name}"), None).body;
        let pools: Vec<&str> = profile["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["pool"].as_str().unwrap())
            .collect();
        assert_eq!(pools, ["bots"], "{name}: {profile}");
    }
    let board = server.get("/api/v1/leaderboards/basra?pool=bots", None);
    assert_eq!(board.status, 200, "{board:?}");
    assert_eq!(board.body["standings"][0]["name"], "ratedbot", "{board:?}");
}

on_both_backends!(
    tokens_are_shown_once_listed_without_their_secret_and_revoked_at_once,
    tokens_are_for_registered_accounts_with_sound_descriptions_and_scopes,
    every_endpoint_checks_the_scope_it_needs,
    a_stream_opened_with_a_token_ends_when_the_token_is_revoked,
    a_bot_account_plays_only_through_its_tokens_and_is_marked_everywhere,
    quick_match_pairs_a_bot_account_only_with_people_who_ask_for_bots,
    games_against_bot_accounts_are_rated_in_the_bots_pool,
);

fn pages_of_the_configured_origins_may_call_the_api(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[(
            "CARDROOM_CORS_ORIGINS",
            "https://bots.example, http://localhost:5173",
        )],
    );
    let alice = server.guest("alice");
    let preflight = server.options(
        "/api/v1/games",
        &[
            ("Origin", "https://bots.example"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization, content-type, idempotency-key",
            ),
        ],
    );
    assert_eq!(preflight.status, 200, "{preflight:?}");
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("https://bots.example")
    );
    let allowed = preflight
        .header("access-control-allow-headers")
        .unwrap()
        .to_lowercase();
    for name in ["authorization", "content-type", "idempotency-key"] {
        assert!(allowed.contains(name), "{allowed}");
    }
    let read = server.get_with(
        "/api/v1/games?mine=true",
        &[
            ("Origin", "http://localhost:5173"),
            ("Authorization", &format!("Bearer {}", alice.token)),
        ],
    );
    assert_eq!(read.status, 200, "{read:?}");
    assert_eq!(
        read.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(
        read.header("access-control-expose-headers")
            .unwrap_or_default()
            .to_lowercase()
            .contains("ratelimit")
    );
    // Another origin's page gets no permission (a refused preflight is a problem, as every
    // refusal is).
    let other = server.get_with("/api/v1/games/kinds", &[("Origin", "https://evil.example")]);
    assert_eq!(
        other.header("access-control-allow-origin"),
        None,
        "{other:?}"
    );
    let refused = server.options(
        "/api/v1/games",
        &[
            ("Origin", "https://evil.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
    );
    refused.assert_problem(403, "cors_refused");
    assert_eq!(refused.header("access-control-allow-origin"), None);
    // Without the setting, no cross-origin permission at all.
    let plain = Server::start(backend);
    let read = plain.get_with("/api/v1/games/kinds", &[("Origin", "https://bots.example")]);
    assert_eq!(read.status, 200);
    assert_eq!(read.header("access-control-allow-origin"), None);
    // And a preflight there is refused as documented (it reached no route: it was a 405).
    let refused = plain.options(
        "/api/v1/games",
        &[
            ("Origin", "https://bots.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
    );
    refused.assert_problem(403, "cors_refused");
}

on_both_backends!(pages_of_the_configured_origins_may_call_the_api);
