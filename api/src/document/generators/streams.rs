//! The streams' items, described: each stream's body is text, and the schema of what each of
//! its items holds is named.

use serde_json::{Map, Value, json};

use super::unions::reference;

/// The streams, and the schema of each of their items: `(path, media type, item)`.
const STREAMS: [(&str, &str, &str); 5] = [
    ("/api/v1/games/{id}/events", "text/event-stream", "EventOut"),
    (
        "/api/v1/stream/events",
        "text/event-stream",
        "AccountEventOut",
    ),
    (
        "/api/v1/stream/events",
        "application/x-ndjson",
        "AccountEventOut",
    ),
    ("/api/v1/lobby", "text/event-stream", "Lobby"),
    (
        "/api/v1/tournaments/{id}",
        "text/event-stream",
        TOURNAMENT_STREAM_ITEM,
    ),
];

/// A tournament stream's items: the tournament, or the `stream_end` before it closes.
const TOURNAMENT_STREAM_ITEM: &str = "TournamentStreamItem";

/// A stream's body is text; what each of its items holds is a named schema, given as the
/// media type's `x-item-schema` (OpenAPI 3.2's `itemSchema`, which 3.1 does not have yet) and
/// in words.
pub(super) fn describe_streams(document: &mut Value) {
    for (path, media, item) in STREAMS {
        let pointer = format!(
            "/paths/{}/get/responses/200/content/{}",
            path.replace('~', "~0").replace('/', "~1"),
            media.replace('/', "~1")
        );
        let Some(content) = document.pointer_mut(&pointer) else {
            continue;
        };
        let each = if media == "text/event-stream" {
            "each event's `data:`"
        } else {
            "each line"
        };
        content["schema"] = json!({
            "type": "string",
            "description": format!("A stream: {each} is one `{item}` (JSON)."),
        });
        content["x-item-schema"] = reference(item);
    }
}

/// Names the tournament stream's item: the tournament or the `stream_end` event. No tag tells
/// the two apart; each is closed to the other's fields.
pub(super) fn tournament_stream_item(schemas: &mut Map<String, Value>) {
    let description = "An item of a tournament's stream: the tournament (`event: tournament`), \
                       or the `stream_end` event it sends before it closes because its token \
                       expired or was revoked (`event: stream_end`).";
    schemas.insert(
        TOURNAMENT_STREAM_ITEM.to_owned(),
        json!({
            "description": description,
            "oneOf": [reference("Tournament"), reference("StreamEventStreamEnd")],
        }),
    );
}
