//! Each game's one union of every event its streams and log carry.

use serde_json::{Map, Value, json};

use super::by_kind::GAMES;
use super::unions::{mapping_of, reference};

/// The unions whose variants a game's streams and log carry besides the game's own events.
const SHARED_EVENTS: [&str; 3] = ["ServiceEvent", "StreamEvent", "TableEvent"];

/// Each game's events: `{Game}GameEvent`, a union of the service's, the stream's, the chat's,
/// the table's and the game's own events told apart by `type`; `GameEvent`, any game's.
/// Returns the `type`s that two of a game's unions both use (none, or the union would not
/// say which is meant).
pub(super) fn game_events(schemas: &mut Map<String, Value>) -> Vec<String> {
    let mut clashes = Vec::new();
    let mut any = Vec::new();
    for (kind, prefix) in GAMES {
        let own = format!("{prefix}Event");
        let mut mapping = Map::new();
        for union in SHARED_EVENTS.iter().copied().chain([own.as_str()]) {
            for (value, target) in mapping_of(schemas, union).into_iter().flatten() {
                if mapping.insert(value.clone(), target.clone()).is_some() {
                    clashes.push(format!("{kind}: {value}"));
                }
            }
        }
        if schemas.contains_key("ChatMessage") {
            for value in ["chat", "chat_hidden"] {
                let target = json!("#/components/schemas/ChatMessage");
                if mapping.insert(value.to_owned(), target).is_some() {
                    clashes.push(format!("{kind}: {value}"));
                }
            }
        }
        let mut refs: Vec<Value> = Vec::new();
        for target in mapping.values() {
            let target = json!({ "$ref": target });
            if !refs.contains(&target) {
                refs.push(target);
            }
        }
        let name = format!("{prefix}GameEvent");
        schemas.insert(
            name.clone(),
            json!({
                "title": name,
                "description": format!(
                    "Anything a game of {kind}'s stream and log carry, told apart by `type`: \
                     the game's own events, the table's (hands, scores, the end), the \
                     service's (seats, timers, rematches), the stream's (presence, its end) \
                     and the chat."
                ),
                "oneOf": refs,
                "discriminator": { "propertyName": "type", "mapping": mapping },
            }),
        );
        any.push(reference(&name));
    }
    schemas.remove("AnyEvent");
    schemas.insert(
        "GameEvent".to_owned(),
        json!({
            "description": "Any game's event: read it as its game's (`{Game}GameEvent`, by the \
                            game's `kind`), since the same `type` differs between games.",
            "anyOf": any,
        }),
    );
    for holder in ["EventOut", "StoredEvent"] {
        if let Some(event) = schemas
            .get_mut(holder)
            .and_then(|e| e.pointer_mut("/properties/event"))
        {
            *event = json!({
                "$ref": "#/components/schemas/GameEvent",
                "description": "The event: its game's (see `GameEvent`).",
            });
        }
    }
    clashes
}
