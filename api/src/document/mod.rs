//! The OpenAPI document: its fixed parts, the paths the routes declare, what every operation
//! answers besides (`operations.rs`), and the schemas reshaped for client generators
//! (`generators.rs`). Served at `/openapi.json` and committed as `openapi/openapi.json`.

mod generators;
mod operations;

use actix_web::App;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use cardroom_core::AnyEvent;
use cardroom_core::table::TableEvent;

use crate::error::Problem;
use crate::model::{AccountEventOut, ChatMessage, ServiceEvent, StreamEvent};
use crate::routes;

/// The OpenAPI document's fixed parts; the paths are collected from the routes.
#[derive(OpenApi, Debug)]
#[openapi(
    info(
        title = "Cardroom",
        description = "Basra, 31, Rummy and Tarneeb for people and programs. Errors are \
                       `application/problem+json` with a stable `code`. Send the token from \
                       `/auth/*` as `Authorization: Bearer <token>`.",
        license(name = "MIT OR Apache-2.0"),
    ),
    modifiers(&BearerAuth),
    components(schemas(
        Problem,
        ServiceEvent,
        StreamEvent,
        TableEvent,
        AnyEvent,
        ChatMessage,
        AccountEventOut,
    )),
    tags(
        (name = "auth", description = "Accounts and tokens"),
        (name = "catalogue", description = "The games on offer"),
        (name = "games", description = "Playing"),
        (name = "chat", description = "Table chat and mutes"),
        (name = "account", description = "Personal API tokens, bot accounts, and the account's event stream"),
        (name = "challenges", description = "Challenging a person or a bot to a game"),
        (name = "players", description = "Profiles and leaderboards: public"),
        (name = "operations", description = "Health, readiness, metrics"),
        (name = "admin", description = "History, replays, statistics and roles: admins only"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT session token, or personal API token cdr_…")
                    .description(Some(
                        "A session token from /auth/* (a JWT, every scope), or a personal API \
                         token (cdr_…, the scopes it was made with). Each operation names the \
                         scope it needs: play, read, challenge or admin; session means a session \
                         token only (managing tokens and the account itself). A token without \
                         the scope is refused with 403 insufficient_scope.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document of the routes, as utoipa derives it (see [`openapi_json`] for the one
/// served).
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::configure)
        .split_for_parts();
    doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
    operations::add_common_responses(&mut doc);
    operations::describe_every_response(&mut doc);
    operations::state_header_rules(&mut doc);
    operations::document_headers(&mut doc);
    operations::add_links(&mut doc);
    doc
}

/// The document as the service serves it at `/openapi.json` (committed as
/// `openapi/openapi.json`): [`openapi_document`], its schemas reshaped for client generators
/// (`generators.rs`).
pub fn openapi_json() -> serde_json::Value {
    let mut value = serde_json::to_value(openapi_document()).unwrap_or_default();
    generators::for_generators(&mut value);
    // Every problem code, listed: a client can match on them all.
    if let Some(code) = value.pointer_mut("/components/schemas/Problem/properties/code") {
        code["enum"] = serde_json::json!(crate::error::CODES);
    }
    value
}

#[cfg(test)]
mod served {
    use serde_json::Value;

    #[test]
    fn the_served_document_has_typed_views_and_moves_and_no_flattened_unions() {
        let document = crate::document::openapi_json();
        let schemas = document["components"]["schemas"].as_object().unwrap();
        assert_eq!(schemas["GameView"]["discriminator"]["propertyName"], "kind");
        assert_eq!(
            schemas["BasraGameView"]["properties"]["legal_moves"]["items"]["$ref"],
            "#/components/schemas/BasraMove"
        );
        for union in [
            "BasraMove",
            "ThirtyOneMove",
            "RummyMove",
            "TarneebMove",
            "Outcome",
            "ScoreLine",
        ] {
            let mapping = schemas[union]["discriminator"]["mapping"].as_object();
            assert!(mapping.is_some_and(|m| !m.is_empty()), "{union}");
        }
        assert_eq!(
            schemas["TarneebMove"]["discriminator"]["mapping"]["bid"],
            "#/components/schemas/TarneebMoveBid"
        );
        let flattened: Vec<&String> = schemas
            .iter()
            .filter(|(_, schema)| schema.get("allOf").is_some())
            .map(|(name, _)| name)
            .collect();
        assert!(flattened.is_empty(), "allOf left in {flattened:?}");
        assert!(schemas.values().all(Value::is_object));
    }
}
