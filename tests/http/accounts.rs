//! Accounts and tokens.

use serde_json::json;

use crate::on_both_backends;
use crate::support::{Backend, SECRET, Server};

fn guests_register_and_log_in(backend: Backend) {
    let server = Server::start(backend);
    let named = server.post("/api/v1/auth/guest", None, &json!({"name": "amira"}));
    assert_eq!(named.status, 201);
    assert_eq!(named.body["user"]["name"], "amira");
    assert_eq!(named.body["user"]["guest"], true);
    let anonymous = server.post("/api/v1/auth/guest", None, &json!({}));
    assert_eq!(anonymous.status, 201);
    assert!(
        anonymous.body["user"]["name"]
            .as_str()
            .unwrap()
            .starts_with("guest-")
    );

    server
        .post("/api/v1/auth/guest", None, &json!({"name": "AMIRA"}))
        .assert_problem(409, "name_taken");

    let registered = server.post(
        "/api/v1/auth/register",
        None,
        &json!({"name": "karim", "password": "a long passphrase"}),
    );
    assert_eq!(registered.status, 201, "{registered:?}");
    assert_eq!(registered.body["user"]["role"], "player");
    let login = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "karim", "password": "a long passphrase"}),
    );
    assert_eq!(login.status, 200);
    let token = login.body["token"].as_str().unwrap();
    assert_eq!(server.get("/api/v1/games", Some(token)).status, 200);

    server
        .post(
            "/api/v1/auth/login",
            None,
            &json!({"name": "karim", "password": "wrong passphrase"}),
        )
        .assert_problem(401, "unauthorized");
    server
        .post(
            "/api/v1/auth/login",
            None,
            &json!({"name": "nobody", "password": "a long passphrase"}),
        )
        .assert_problem(401, "unauthorized");
    // A guest has no password to log in with.
    server
        .post(
            "/api/v1/auth/login",
            None,
            &json!({"name": "amira", "password": "anything at all"}),
        )
        .assert_problem(401, "unauthorized");
    server
        .post(
            "/api/v1/auth/register",
            None,
            &json!({"name": "karim", "password": "another passphrase"}),
        )
        .assert_problem(409, "name_taken");
    for bad in [
        json!({"name": "ab", "password": "long enough"}),
        json!({"name": "has space", "password": "long enough"}),
        json!({"name": "x".repeat(33), "password": "long enough"}),
        json!({"name": "layla", "password": "short"}),
        // One script a name: Latin and Arabic letters never mixed, no look-alike of another.
        json!({"name": "laylaليلى", "password": "long enough"}),
        json!({"name": "\u{0430}mira", "password": "long enough"}),
        json!({"name": "ليـلى", "password": "long enough"}),
    ] {
        server
            .post("/api/v1/auth/register", None, &bad)
            .assert_problem(422, "validation_failed");
    }
    // An Arabic name, as the page's Arabic suggests one; a guest's too.
    let arabic = server.post(
        "/api/v1/auth/register",
        None,
        &json!({"name": "ليلى", "password": "long enough"}),
    );
    assert_eq!(arabic.status, 201, "{arabic:?}");
    assert_eq!(arabic.body["user"]["name"], "ليلى");
    let guest = server.post("/api/v1/auth/guest", None, &json!({"name": "سارة_2"}));
    assert_eq!(guest.status, 201, "{guest:?}");
    server
        .post("/api/v1/auth/guest", None, &json!({"name": "ليلى"}))
        .assert_problem(409, "name_taken");
}

fn the_first_admin_comes_from_the_environment(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_ADMIN", "root:the admin passphrase")]);
    let login = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "root", "password": "the admin passphrase"}),
    );
    assert_eq!(login.status, 200, "{login:?}");
    assert_eq!(login.body["user"]["role"], "admin");
}

fn tampered_expired_and_foreign_tokens_are_refused(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("amira");
    let mut tampered = player.token.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    let now = chrono::Utc::now().timestamp();
    let forge = |secret: &str, exp: i64, aud: &str| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
            &json!({"sub": player.id.to_string(), "name": "amira", "role": "admin", "aud": aud, "iss": "cardroom", "iat": now - 7200, "exp": exp}),
            &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap()
    };
    let expired = forge(SECRET, now - 3600, "cardroom");
    let foreign = forge("some other secret entirely", now + 3600, "cardroom");
    let wrong_audience = forge(SECRET, now + 3600, "elsewhere");
    let payload = player.token.split('.').nth(1).unwrap();
    let unsigned = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.");
    for token in [
        tampered,
        expired,
        foreign,
        wrong_audience,
        unsigned,
        "garbage".to_owned(),
    ] {
        server
            .get("/api/v1/games", Some(&token))
            .assert_problem(401, "unauthorized");
    }
    server
        .get("/api/v1/games", None)
        .assert_problem(401, "unauthorized");
    let reply = server.get("/api/v1/games", None);
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    // The genuine token still works.
    assert_eq!(server.get("/api/v1/games", Some(&player.token)).status, 200);
}

on_both_backends!(
    guests_register_and_log_in,
    the_first_admin_comes_from_the_environment,
    tampered_expired_and_foreign_tokens_are_refused,
);

/// Sign-ins are limited per address: a burst, then 429 `rate_limited` with Retry-After; other
/// addresses (as the load balancer reports them) are counted apart.
#[test]
fn sign_ins_are_rate_limited_per_address() {
    let server = Server::start_with(
        Backend::Sqlite,
        &[
            ("CARDROOM_AUTH_PER_MINUTE", "2"),
            ("CARDROOM_AUTH_BURST", "3"),
            ("CARDROOM_CLIENT_IP_HEADER", "X-Real-IP"),
        ],
    );
    let from = |ip: &str, path: &str, body: serde_json::Value| {
        server.post_with(path, None, &[("X-Real-IP", ip)], &body)
    };
    let right = json!({"name": "amira", "password": "a long passphrase"});
    let wrong = json!({"name": "amira", "password": "not the passphrase"});
    let ip = "203.0.113.7";
    assert_eq!(from(ip, "/api/v1/auth/register", right.clone()).status, 201);
    assert_eq!(from(ip, "/api/v1/auth/login", wrong.clone()).status, 401);
    assert_eq!(from(ip, "/api/v1/auth/login", wrong.clone()).status, 401);
    let limited = from(ip, "/api/v1/auth/login", wrong);
    limited.assert_problem(429, "rate_limited");
    let wait: u64 = limited
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    // Guest accounts count too, from the same address.
    from(ip, "/api/v1/auth/guest", json!({})).assert_problem(429, "rate_limited");
    // Another address is not held up.
    assert_eq!(
        from("198.51.100.2", "/api/v1/auth/login", right).status,
        200
    );
}
