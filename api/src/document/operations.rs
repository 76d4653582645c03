//! What the route macros cannot say of each operation: the answers every operation can give
//! for what it reads (400, 401, 429, 404), a description on every response, and rules on
//! parameters (an Idempotency-Key's spelling, `mine`'s one value).

use crate::routes::actions::IDEMPOTENCY_KEY_PATTERN;

/// OpenAPI requires a description on every response: where a route gave none, the status's
/// meaning here (and, for errors, its codes).
pub(super) fn describe_every_response(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    for item in doc.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            for (status, response) in operation.responses.responses.iter_mut() {
                if let RefOr::T(response) = response
                    && response.description.trim().is_empty()
                {
                    response.description = default_description(status).to_owned();
                }
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
    for item in doc.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            for parameter in operation.parameters.iter_mut().flatten() {
                let RefOr::T(parameter) = parameter else {
                    continue;
                };
                if parameter.name == "Idempotency-Key" {
                    parameter.schema = Some(RefOr::T(Schema::Object(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .pattern(Some(IDEMPOTENCY_KEY_PATTERN))
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
}

/// The answers every operation can give for what it reads, written once instead of on every
/// route: 400 `validation_failed` where a body, a query or a path is parsed (malformed JSON, a
/// query that is no query), 401 `unauthorized` where a token is required, 429 `rate_limited`
/// on every write but signing in, and 404 `not_found` where the path names a game, a player or
/// a game kind.
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
    for (path, item) in doc.paths.paths.iter_mut() {
        let names_something = path.contains('{');
        for (item_writes, operation) in [
            (false, &mut item.get),
            (true, &mut item.post),
            (true, &mut item.put),
            (true, &mut item.delete),
        ] {
            let Some(operation) = operation else {
                continue;
            };
            let reads_input = operation.request_body.is_some()
                || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
            let responses = &mut operation.responses.responses;
            if reads_input && !responses.contains_key("400") {
                responses.insert(
                    "400".to_owned(),
                    problem("`validation_failed`: the body, query or path could not be read"),
                );
            }
            let needs_token = operation.security.as_ref().is_some_and(|s| !s.is_empty());
            if needs_token && !responses.contains_key("401") {
                responses.insert(
                    "401".to_owned(),
                    problem("`unauthorized`: no token, or an invalid one"),
                );
            }
            // Every write but signing in counts against the `writes` limit.
            let writes = item_writes && !path.starts_with("/api/v1/auth/");
            if writes && !responses.contains_key("429") {
                responses.insert(
                    "429".to_owned(),
                    problem(
                        "`rate_limited` (the `writes` limit, named in the problem's `limit`): see \
                         Retry-After, and RateLimit-Policy and RateLimit on every write",
                    ),
                );
            }
            if names_something && !responses.contains_key("404") {
                responses.insert(
                    "404".to_owned(),
                    problem("`not_found`: no such game, player or game kind"),
                );
            }
        }
    }
}
