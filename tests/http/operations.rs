//! Health, readiness, metrics, the catalogue, the docs, the page and the OpenAPI contract.

use diesel::{Connection, RunQueryDsl};
use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server};

fn health_readiness_metrics_and_docs_are_served(backend: Backend) {
    let server = Server::start(backend);
    assert_eq!(server.get("/healthz", None).body["status"], "ok");
    assert_eq!(server.get("/readyz", None).body["status"], "ok");
    let metrics = server.get("/metrics", None);
    assert!(metrics.content_type.starts_with("text/plain"));
    let text = metrics.body.as_str().unwrap();
    assert!(
        text.contains("# TYPE cardroom_moves_total counter"),
        "{text}"
    );
    assert!(
        text.contains("cardroom_http_responses_total{class=\"2xx\"}"),
        "{text}"
    );
    // Requests by route template and status, latency histograms, computer think time and
    // games by status, after a game against the computer got going.
    let amira = server.guest("amira");
    let (id, view) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "hard"}]}),
    );
    let mut view = view;
    if view["to_act"] == view["your_seat"] {
        let mv = view["legal_moves"][0].clone();
        assert_eq!(server.play(&amira, &view, &mv).status, 200);
        view = server.view(&amira, id);
    }
    assert_eq!(
        view["to_act"], view["your_seat"],
        "the computer has answered"
    );
    server.get(&format!("/api/v1/games/{id}"), Some(&amira.token));
    server.get("/no/such/page", None);
    let text = server
        .get("/metrics", None)
        .body
        .as_str()
        .unwrap()
        .to_owned();
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series))
            .and_then(|rest| rest.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
    };
    let game = r#"method="GET",route="/api/v1/games/{id}""#;
    assert!(
        value(&format!(
            "cardroom_http_requests_total{{{game},status=\"200\"}}"
        )) >= 1.0
    );
    assert_eq!(
        value(&format!(
            "cardroom_http_request_duration_seconds_bucket{{{game},le=\"+Inf\"}}"
        )),
        value(&format!(
            "cardroom_http_request_duration_seconds_count{{{game}}}"
        ))
    );
    assert!(
        value(r#"cardroom_http_requests_total{method="GET",route="unmatched",status="404"}"#)
            >= 1.0
    );
    assert!(
        !text.contains(&format!("/api/v1/games/{id}\"")),
        "a raw path became a label"
    );
    assert!(value(r#"cardroom_bot_think_seconds_count{kind="basra",level="hard"}"#) >= 1.0);
    assert!(value(r#"cardroom_games{status="active"}"#) >= 1.0);

    let docs = server.get("/docs/", None);
    assert_eq!(docs.status, 200);
    assert!(docs.body.as_str().unwrap().contains("swagger"), "{docs:?}");
    let page = server.get("/", None);
    assert!(page.body.as_str().unwrap().contains("Cardroom"));
}

/// JSON logs: one object a line; every request's access line carries the request id the
/// client got in `X-Request-Id`, its route and status; no token ever reaches the log.
#[test]
fn logs_are_json_lines_with_the_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cardroom.log");
    let log = std::fs::File::create(&path).unwrap();
    let mut server = Server::start_logging_to(
        &[("CARDROOM_LOG_FORMAT", "json"), ("RUST_LOG", "info")],
        log,
    );
    let amira = server.guest("amira");
    let reply = server.get("/api/v1/games?mine=true", Some(&amira.token));
    assert_eq!(reply.status, 200);
    let id = reply
        .header("x-request-id")
        .expect("an X-Request-Id header")
        .to_owned();
    let missing = server.get("/api/v1/games/999999", Some(&amira.token));
    assert_eq!(missing.status, 404);
    let missing_id = missing
        .header("x-request-id")
        .expect("an X-Request-Id header")
        .to_owned();
    assert_ne!(id, missing_id);
    assert!(server.terminate());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let access = |id: &str| {
        lines
            .iter()
            .find(|l| l["span"]["request_id"] == id && l["message"] == "close")
            .unwrap_or_else(|| panic!("no access line for {id} in\n{text}"))
            .clone()
    };
    let line = access(&id);
    assert_eq!(line["span"]["http.route"], "/api/v1/games");
    assert_eq!(line["span"]["http.status_code"], 200);
    assert_eq!(access(&missing_id)["span"]["http.status_code"], 404);
    assert!(!text.contains(&amira.token), "a token was logged");
    assert!(
        !text.contains("Bearer"),
        "an Authorization header was logged"
    );
}

fn the_catalogue_lists_basra_with_variants_options_and_levels(backend: Backend) {
    let server = Server::start(backend);
    let reply = server.get("/api/v1/games/kinds", None);
    assert_eq!(reply.status, 200);
    let basra = &reply.body["kinds"][0];
    assert_eq!(basra["kind"], "basra");
    let variants: Vec<&str> = basra["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(variants, ["standard", "classic44", "cse231"]);
    let standard = &basra["variants"][0];
    assert_eq!(standard["seats"], serde_json::json!([2, 3, 4]));
    let target = standard["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "target")
        .unwrap();
    assert_eq!(
        (
            target["min"].as_i64(),
            target["max"].as_i64(),
            target["default"].as_i64()
        ),
        (Some(31), Some(501), Some(101))
    );
    let levels: Vec<&str> = basra["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["easy", "medium", "hard", "random", "greedy"]);
}

fn the_served_openapi_document_is_the_committed_one(backend: Backend) {
    let server = Server::start(backend);
    let served = server.get("/openapi.json", None).body;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(
        served == committed,
        "the served OpenAPI document differs from openapi/openapi.json: \
         run `cargo run -p cardroom-api -- openapi > openapi/openapi.json` and review the diff"
    );
    assert_eq!(served["openapi"], "3.1.0");
    for path in [
        "/api/v1/games",
        "/api/v1/games/{id}/moves",
        "/api/v1/auth/guest",
        "/readyz",
    ] {
        assert!(
            served["paths"][path].is_object(),
            "{path} is not documented"
        );
    }
}

on_both_backends!(
    health_readiness_metrics_and_docs_are_served,
    the_catalogue_lists_basra_with_variants_options_and_levels,
    the_served_openapi_document_is_the_committed_one,
);

/// With its database gone, the service answers 503 `unavailable` — not a hang, not a 500.
#[test]
fn a_lost_database_makes_requests_unavailable_not_errors() {
    let server = Server::start_with(Backend::Postgres, &[("CARDROOM_DB_TIMEOUT_MS", "1000")]);
    let amira = server.guest("amira");
    let (id, _) = server.create(
        &amira,
        serde_json::json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let admin = std::env::var("CARDROOM_TEST_POSTGRES_URL").unwrap();
    let name = server.database_url.rsplit('/').next().unwrap().to_owned();
    let mut conn = diesel::PgConnection::establish(&admin).unwrap();
    diesel::sql_query(format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut conn)
        .unwrap();
    server
        .get("/readyz", None)
        .assert_problem(503, "unavailable");
    let reply = server.get(&format!("/api/v1/games/{id}"), Some(&amira.token));
    reply.assert_problem(503, "unavailable");
    assert_eq!(reply.header("retry-after"), Some("2"));
    assert_eq!(server.get("/healthz", None).status, 200);
}

/// The play page and its files: embedded, typed, revalidated by ETag, locked to this origin.
#[test]
fn the_page_and_its_files_are_served_under_a_strict_policy() {
    let server = Server::start(Backend::Sqlite);
    let page = server.get("/", None);
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"), "{page:?}");
    let policy = page.header("content-security-policy").expect("a CSP");
    for rule in [
        "default-src 'self'",
        "script-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(policy.contains(rule), "{policy}");
    }
    assert!(
        page.body
            .as_str()
            .unwrap()
            .contains("src=\"/assets/main.js\"")
    );
    for (file, kind) in [
        ("main.js", "text/javascript"),
        ("games/tarneeb.js", "text/javascript"),
        ("app.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ] {
        let reply = server.get(&format!("/assets/{file}"), None);
        assert_eq!(reply.status, 200, "{file}");
        assert!(reply.content_type.starts_with(kind), "{file}: {reply:?}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    }
    let script = server.get("/assets/table.js", None);
    let etag = script.header("etag").expect("an ETag").to_owned();
    assert_eq!(script.header("cache-control"), Some("no-cache"));
    let again = server.get_with("/assets/table.js", &[("If-None-Match", &etag)]);
    assert_eq!(again.status, 304);
    let other = server.get_with("/assets/table.js", &[("If-None-Match", "\"stale\"")]);
    assert_eq!(other.status, 200);
    for path in ["/assets/nothing.js", "/assets/..%2FCargo.toml", "/assets/"] {
        server.get(path, None).assert_problem(404, "not_found");
    }
}
