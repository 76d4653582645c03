//! The write budget: every write but signing in counts against its account's bucket, which
//! its sessions and all its personal tokens share, and every write says where it stands.

use std::time::Duration;

use serde_json::json;

use crate::on_both_backends;
use crate::programs::api_token;
use crate::support::{Backend, Server};

fn writes_are_limited_per_account_and_every_write_says_where_it_stands(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_WRITES_PER_MINUTE", "60"),
            ("CARDROOM_WRITES_BURST", "3"),
        ],
    );
    let alice = server.register("alice");
    // (Making a token is a write too: the bucket fills again at one a second.)
    let token = api_token(&server, &alice, &["play"]);
    std::thread::sleep(Duration::from_millis(1100));
    let basra = json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]});
    let mut ids = Vec::new();
    for left in [2, 1, 0] {
        let made = server.post("/api/v1/games", Some(&alice.token), &basra);
        assert_eq!(made.status, 201, "{made:?}");
        assert_eq!(
            made.header("ratelimit-policy"),
            Some("\"writes\";q=60;w=60")
        );
        let state = made.header("ratelimit").unwrap().to_owned();
        assert!(
            state.starts_with(&format!("\"writes\";r={left};t=")),
            "{state}"
        );
        ids.push(made.body["id"].as_i64().unwrap());
    }
    let refused = server.post("/api/v1/games", Some(&alice.token), &basra);
    refused.assert_problem(429, "rate_limited");
    assert_eq!(refused.body["limit"], "writes");
    assert!(refused.header("retry-after").is_some(), "{refused:?}");
    assert!(
        refused.header("ratelimit").unwrap().contains("r=0"),
        "{refused:?}"
    );
    // Reading is not a write. The account's other credentials share its budget: its personal
    // token, and a second session of it. Another account has its own.
    assert_eq!(server.view(&alice, ids[0])["id"], ids[0]);
    server
        .post("/api/v1/games", Some(&token), &basra)
        .assert_problem(429, "rate_limited");
    let again = server.post(
        "/api/v1/auth/login",
        None,
        &json!({"name": "alice", "password": "a long passphrase"}),
    );
    assert_eq!(again.status, 200, "{again:?}");
    let second = again.body["token"].as_str().unwrap();
    server
        .post("/api/v1/games", Some(second), &basra)
        .assert_problem(429, "rate_limited");
    let bob = server.register("bob");
    assert_eq!(
        server
            .post("/api/v1/games", Some(&bob.token), &basra)
            .status,
        201
    );
    // A second later, one more.
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        server
            .post("/api/v1/games", Some(&alice.token), &basra)
            .status,
        201
    );
}

on_both_backends!(writes_are_limited_per_account_and_every_write_says_where_it_stands);
