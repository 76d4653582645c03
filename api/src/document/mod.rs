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
        (name = "tournaments", description = "Arena, Swiss and duplicate tournaments: making, entering, standings"),
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
    served_json(openapi_document())
}

/// `document` as served: its schemas reshaped for client generators (`generators.rs`).
pub fn served_json(document: utoipa::openapi::OpenApi) -> serde_json::Value {
    let mut value = serde_json::to_value(document).unwrap_or_default();
    generators::for_generators(&mut value);
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

    /// Where in `value` an object schema says nothing of its shape (no properties, no
    /// additional properties, no union): what a generator can only call `Record<string, never>`.
    fn shapeless(value: &Value, at: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(schema) => {
                let object = match schema.get("type") {
                    Some(Value::String(t)) => t == "object",
                    Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
                    _ => false,
                };
                let shaped = [
                    "properties",
                    "additionalProperties",
                    "oneOf",
                    "anyOf",
                    "$ref",
                ]
                .iter()
                .any(|key| schema.contains_key(*key));
                if object && !shaped {
                    out.push(at.to_owned());
                }
                for (key, value) in schema {
                    shapeless(value, &format!("{at}/{key}"), out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    shapeless(item, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_object_has_a_shape_and_every_event_a_schema_in_its_games_union() {
        let document = crate::document::openapi_json();
        let mut found = Vec::new();
        shapeless(&document, "", &mut found);
        assert!(found.is_empty(), "shapeless objects at {found:?}");
        let schemas = &document["components"]["schemas"];
        for game in ["Basra", "ThirtyOne", "Rummy", "Tarneeb"] {
            let union = &schemas[format!("{game}GameEvent")];
            assert_eq!(union["discriminator"]["propertyName"], "type", "{game}");
            let mapping = union["discriminator"]["mapping"].as_object().unwrap();
            for word in [
                "created",
                "joined",
                "deadline",
                "timed_out",
                "seat_to_computer",
                "rematch_started",
                "presence",
                "stream_end",
                "chat",
                "chat_hidden",
                "hand_started",
                "hand_scored",
                "resigned",
                "game_over",
                "dealt",
            ] {
                assert!(mapping.contains_key(word), "{game}GameEvent lacks {word}");
            }
            // Each body that carries a game's events or moves, one a game.
            for body in [
                "GameView",
                "EventsPage",
                "ActionResponse",
                "LogResponse",
                "MoveRequest",
            ] {
                assert_eq!(
                    schemas[body]["discriminator"]["mapping"][game_kind(game)],
                    format!("#/components/schemas/{game}{body}")
                );
            }
        }
        let account = schemas["AccountEventOut"]["discriminator"]["mapping"]
            .as_object()
            .unwrap();
        assert!(account.contains_key("your_turn") && account.contains_key("seek_matched"));
    }

    fn game_kind(prefix: &str) -> &'static str {
        match prefix {
            "Basra" => "basra",
            "ThirtyOne" => "thirty_one",
            "Rummy" => "rummy",
            _ => "tarneeb",
        }
    }
}
