//! What the route macros cannot say of each operation: the answers every operation can give
//! for what it reads (400, 401, 429, 404), a description on every response, and rules on
//! parameters (an Idempotency-Key's spelling, `mine`'s one value).

use crate::input::IdempotencyKey;

/// Every operation of the document, with its path and whether it writes (POST, PUT, DELETE).
fn operations_mut(
    doc: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = (&String, bool, &mut utoipa::openapi::path::Operation)> {
    doc.paths.paths.iter_mut().flat_map(|(path, item)| {
        [
            (false, &mut item.get),
            (true, &mut item.post),
            (true, &mut item.put),
            (true, &mut item.delete),
        ]
        .into_iter()
        .filter_map(move |(writes, operation)| operation.as_mut().map(|o| (path, writes, o)))
    })
}

/// OpenAPI requires a description on every response: where a route gave none, the status's
/// meaning here (and, for errors, its codes).
pub(super) fn describe_every_response(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    for (_, _, operation) in operations_mut(doc) {
        for (status, response) in operation.responses.responses.iter_mut() {
            if let RefOr::T(response) = response
                && response.description.trim().is_empty()
            {
                response.description = default_description(status).to_owned();
            }
        }
    }
}

pub(super) fn default_description(status: &str) -> &'static str {
    match status {
        "200" => "Success",
        "201" => "Created",
        "400" => "`validation_failed`: the body, query or path could not be read",
        "401" => "`unauthorized`: no token, or an invalid one",
        "403" => "`forbidden`: the caller may not do this",
        "404" => "`not_found`: no such game, player or game kind",
        "409" => "A conflict with the game's state: see the problem's `code`",
        "422" => "`validation_failed`: a value the rules do not allow",
        "429" => "Too many requests: see the problem's `code` and Retry-After",
        "503" => "`unavailable`: try again shortly; see Retry-After",
        _ => "See the problem's `code`",
    }
}

/// Rules on parameters that the route macros cannot state: an Idempotency-Key's spelling, and
/// `mine`'s one value.
pub(super) fn state_header_rules(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{RefOr, Schema};
    for (_, _, operation) in operations_mut(doc) {
        for parameter in operation.parameters.iter_mut().flatten() {
            let RefOr::T(parameter) = parameter else {
                continue;
            };
            if parameter.name == "Idempotency-Key" {
                parameter.schema = Some(RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .pattern(Some(IdempotencyKey::PATTERN))
                        .build(),
                )));
            }
            // `GET /games` lists only the caller's games: `mine` may only be true.
            if parameter.name == "mine" {
                parameter.schema = Some(RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::Boolean)
                        .enum_values(Some([true]))
                        .build(),
                )));
            }
        }
    }
}

/// The answers every operation can give for what it reads, written once instead of on every
/// route: 400 `validation_failed` where a body, a query or a path is parsed (malformed JSON, a
/// query that is no query) and 422 where a value read breaks a rule; 413 and 408 where a body is
/// read;
/// 401 `unauthorized` where a token is required, and 403 `insufficient_scope` (a personal token
/// without the scope) or `forbidden` there; 429 `rate_limited` on every write but signing in;
/// 404 `not_found` where the path names a game, a player or a game kind; and 503
/// `unavailable` wherever the database is read (`scripts/check-statuses` holds the document to
/// every status the HTTP suite sees).
pub(super) fn add_common_responses(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let problem = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/problem+json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Problem")))
                        .build(),
                )
                .build(),
        )
    };
    for (path, item_writes, operation) in operations_mut(doc) {
        let reads_input = operation.request_body.is_some()
            || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
        let needs_token = operation.security.as_ref().is_some_and(|s| !s.is_empty());
        // Everything but the fixed catalogue, the chat's presets, liveness and the metrics
        // (which render without the database) reads the database.
        let fixed = [
            "/api/v1/games/kinds",
            "/api/v1/chat/presets",
            "/healthz",
            "/metrics",
        ]
        .contains(&path.as_str());
        // Every write but signing in counts against the `writes` limit.
        let writes = item_writes && !path.starts_with("/api/v1/auth/");
        let common = [
            (
                reads_input,
                "400",
                "`validation_failed`: the body, query or path could not be read",
            ),
            (
                reads_input,
                "422",
                "`validation_failed`: a value the rules do not allow",
            ),
            (
                operation.request_body.is_some(),
                "413",
                "`payload_too_large`: a body over CARDROOM_MAX_BODY_BYTES",
            ),
            (
                operation.request_body.is_some(),
                "408",
                "`request_timeout`: the body did not arrive within CARDROOM_CLIENT_TIMEOUT_SECS",
            ),
            (
                needs_token,
                "401",
                "`unauthorized`: no token, or an invalid one",
            ),
            (
                needs_token,
                "403",
                "`insufficient_scope`: a personal API token without the scope this needs; \
                 `forbidden`: the caller may not do this",
            ),
            (
                !fixed,
                "503",
                "`unavailable`: the database cannot be reached (see Retry-After); \
                 `sign_in_busy` and `too_many_streams` where they apply",
            ),
            (
                writes,
                "429",
                "`rate_limited` (the `writes` limit, named in the problem's `limit`): see \
                 Retry-After, and RateLimit-Policy and RateLimit on every write",
            ),
            (
                path.contains('{'),
                "404",
                "`not_found`: no such game, player or game kind",
            ),
        ];
        let responses = &mut operation.responses.responses;
        for (applies, status, description) in common {
            if applies && !responses.contains_key(status) {
                responses.insert(status.to_owned(), problem(description));
            }
        }
    }
}

/// The headers every answer carries, and those of writes, refusals and creations: written once
/// here rather than on every route (`X-Request-Id` on every answer; `RateLimit-Policy` and
/// `RateLimit` on every counted write's; `Retry-After` on 429 and 503; `WWW-Authenticate` on
/// 401; `Location` on a 201 that made something with an address of its own).
pub(super) fn document_headers(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::header::HeaderBuilder;
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let header = |kind: Type, description: &str| {
        RefOr::T(
            HeaderBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(kind)))
                .description(Some(description))
                .build(),
        )
    };
    let located = ["/api/v1/games", "/api/v1/seeks", "/api/v1/challenges"];
    for (path, writes, operation) in operations_mut(doc) {
        let limited = writes && path.starts_with("/api/v1/") && !path.starts_with("/api/v1/auth/");
        for (status, response) in operation.responses.responses.iter_mut() {
            let RefOr::T(response) = response else {
                continue;
            };
            let headers = &mut response.headers;
            headers.insert(
                "X-Request-Id".to_owned(),
                header(
                    Type::String,
                    "This request's id, as the server's log names it (quote it when \
                         reporting a problem)",
                ),
            );
            if limited {
                headers.insert(
                        "RateLimit-Policy".to_owned(),
                        header(
                            Type::String,
                            "The writes limit (IETF HTTPAPI RateLimit fields): `\"writes\";q=600;w=60` \
                             — its name, quota and window in seconds. Absent when the limit is off.",
                        ),
                    );
                headers.insert(
                    "RateLimit".to_owned(),
                    header(
                        Type::String,
                        "Where this credential stands: `\"writes\";r=117;t=3` — writes left \
                             now (`r`), and seconds until the quota is whole again (`t`), on every \
                             answer alike. Absent when the limit is off.",
                    ),
                );
            }
            if status == "429" || status == "503" {
                headers.insert(
                    "Retry-After".to_owned(),
                    header(Type::Integer, "Seconds to wait before trying again"),
                );
            }
            if status == "401" {
                headers.insert(
                    "WWW-Authenticate".to_owned(),
                    header(Type::String, "`Bearer`: send a token"),
                );
            }
            if status == "201" && writes && located.contains(&path.as_str()) {
                headers.insert(
                    "Location".to_owned(),
                    header(Type::String, "The address of what was made"),
                );
            }
        }
    }
}

/// Links from what a write makes to what may be done with it next (OpenAPI links): from a
/// created game to every operation on it, from a seek and a challenge to theirs, from a token
/// to its revocation. Generated clients and the fuzzer's stateful phase follow them.
pub(super) fn add_links(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::link::LinkBuilder;
    // (The things made, the path of each one's own operations, and where its id is.)
    let made = [
        ("/api/v1/games", "/api/v1/games/{id}", "$response.body#/id"),
        ("/api/v1/seeks", "/api/v1/seeks/{id}", "$response.body#/id"),
        (
            "/api/v1/challenges",
            "/api/v1/challenges/{id}",
            "$response.body#/id",
        ),
        (
            "/api/v1/account/tokens",
            "/api/v1/account/tokens/{id}",
            "$response.body#/info/id",
        ),
    ];
    for (create, own, id) in made {
        let targets: Vec<String> = doc
            .paths
            .paths
            .iter()
            .filter(|(path, _)| *path == own || path.starts_with(&format!("{own}/")))
            .flat_map(|(_, item)| {
                [&item.get, &item.post, &item.put, &item.delete]
                    .into_iter()
                    .flatten()
                    .filter_map(|operation| operation.operation_id.clone())
                    .collect::<Vec<_>>()
            })
            .collect();
        let Some(RefOr::T(created)) = doc
            .paths
            .paths
            .get_mut(create)
            .and_then(|item| item.post.as_mut())
            .and_then(|operation| operation.responses.responses.get_mut("201"))
        else {
            continue;
        };
        for target in targets {
            created.links.insert(
                target.clone(),
                RefOr::T(
                    LinkBuilder::new()
                        .operation_id(target)
                        .parameter("id", id)
                        .build(),
                ),
            );
        }
    }
}
