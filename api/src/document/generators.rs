//! The OpenAPI document, shaped for client generators.
//!
//! The schemas derived from the Rust types are correct but awkward for generators: a tagged
//! union (a game's moves, its events, a score item, an option's kind) is a `oneOf` of unnamed
//! objects, so generated classes get numbers for names and nothing says which field tells them
//! apart; a struct that flattens such a union in is an `allOf` of a union and an object, which
//! several generators cannot take; and a view is one shape for every game, so its table and its
//! legal moves are unions of all four games'. Here, on the document as JSON:
//!
//! - every `allOf` (serde's flatten) becomes one object with all its parts' fields, or, when
//!   one part is a tagged union, a union of that union's variants each merged with the rest;
//! - every tagged union's variants become named schemas (`BasraMovePlay`,
//!   `ThirtyOneMoveDraw`, …) and the union gets a `discriminator` on its tag (a variant that
//!   is itself a union, such as `game_over` by its `reason`, is named and split in turn);
//! - each game gets one union of every event its streams and log carry (`TarneebGameEvent`:
//!   the service's, the stream's, the chat's, the table's and the game's own), told apart by
//!   `type` (the same `type` means different things in different games, so there is one union
//!   a game);
//! - every body that holds a game's moves or events is split into one schema per game, told
//!   apart by `kind` (`BasraGameView`, `TarneebEventsPage`, `RummyLogResponse`, …), each with
//!   that game's table, moves and events.
//!
//! The JSON the API sends is unchanged: this only describes it more precisely.

use serde_json::{Map, Value, json};

/// The games: kind, schema prefix.
const GAMES: [(&str, &str); 4] = [
    ("basra", "Basra"),
    ("thirty_one", "ThirtyOne"),
    ("rummy", "Rummy"),
    ("tarneeb", "Tarneeb"),
];

/// Reshapes the document's schemas (see the module's documentation).
pub fn for_generators(document: &mut Value) {
    describe_streams(document);
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    merge_all_ofs(schemas);
    name_tagged_variants(schemas);
    let clashes = game_events(schemas);
    debug_assert!(clashes.is_empty(), "event types used twice: {clashes:?}");
    split_by_kind(schemas);
    // (No tag tells a tournament stream's two items apart; each is closed to the other's fields.)
    let item = "An item of a tournament's stream: the tournament (`event: tournament`), or the `stream_end` event it sends before it closes because its token expired or was revoked (`event: stream_end`).";
    schemas.insert(
        TOURNAMENT_STREAM_ITEM.to_owned(),
        json!({"description": item, "oneOf": [reference("Tournament"), reference("StreamEventStreamEnd")]}),
    );
}

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
fn describe_streams(document: &mut Value) {
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

fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The component a `$ref` names.
fn referenced(value: &Value) -> Option<&str> {
    value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
}

/// The single string value a variant gives `name`: an object's required one-value enum, or
/// the value every variant of a nested union gives it.
fn tag_value(variant: &Value, name: &str) -> Option<String> {
    if let Some(inner) = variant.get("oneOf").and_then(Value::as_array) {
        let values: Option<Vec<String>> = inner.iter().map(|v| tag_value(v, name)).collect();
        let values = values?;
        let first = values.first()?.clone();
        return values.iter().all(|v| *v == first).then_some(first);
    }
    let values = variant
        .pointer(&format!("/properties/{name}/enum"))
        .and_then(Value::as_array)?;
    let required = variant
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n == name));
    let object = variant.get("type") == Some(&json!("object"));
    match values.as_slice() {
        [Value::String(value)] if required && object => Some(value.clone()),
        _ => None,
    }
}

/// The properties of a variant's first object (through nested unions).
fn first_properties(variant: &Value) -> Option<&Map<String, Value>> {
    match variant.get("oneOf").and_then(Value::as_array) {
        Some(inner) => first_properties(inner.first()?),
        None => variant.get("properties")?.as_object(),
    }
}

/// The tag of a union: a property every variant gives one string value, a different one each.
fn tag_of(variants: &[Value]) -> Option<String> {
    let candidates = first_properties(variants.first()?)?;
    candidates
        .keys()
        .find(|name| {
            let values: Option<Vec<String>> = variants.iter().map(|v| tag_value(v, name)).collect();
            values.is_some_and(|values| {
                let distinct: std::collections::BTreeSet<&String> = values.iter().collect();
                distinct.len() == values.len()
            })
        })
        .cloned()
}

/// The variants of a schema that is a tagged union of inline schemas, and its tag.
fn tagged_union(schema: &Value) -> Option<(Vec<Value>, String)> {
    let variants = schema.get("oneOf")?.as_array()?.clone();
    if variants.iter().any(|v| referenced(v).is_some()) {
        return None;
    }
    let tag = tag_of(&variants)?;
    Some((variants, tag))
}

/// How deep `allOf`s and references are followed (the document has no recursive schema).
const DEPTH: usize = 16;

/// `schema` with every `allOf` merged away, at its top and in its union's variants.
fn normalized(schemas: &Map<String, Value>, schema: &Value, depth: usize) -> Value {
    if depth == 0 {
        return schema.clone();
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        return match merged(schemas, parts, depth - 1) {
            Some(mut merged) => {
                if let Some(description) = schema.get("description") {
                    merged["description"] = description.clone();
                }
                merged
            }
            None => schema.clone(),
        };
    }
    let mut schema = schema.clone();
    if let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) {
        for variant in variants.iter_mut() {
            if variant.get("allOf").is_some() {
                *variant = normalized(schemas, variant, depth - 1);
            }
        }
    }
    schema
}

/// The parts of an `allOf`, merged: one object, or a union of one part's variants each with
/// the other parts' fields. None when it cannot be (two unions, or a part that is no object).
fn merged(schemas: &Map<String, Value>, parts: &[Value], depth: usize) -> Option<Value> {
    let mut union: Option<Vec<Value>> = None;
    let mut object = json!({"type": "object", "properties": {}, "required": []});
    for part in parts {
        let part = match referenced(part) {
            Some(name) => normalized(schemas, schemas.get(name)?, depth),
            None => normalized(schemas, part, depth),
        };
        if let Some(variants) = part.get("oneOf").and_then(Value::as_array) {
            if union.is_some() {
                return None;
            }
            union = Some(variants.clone());
        } else if part.get("type") == Some(&json!("object")) {
            merge_into(&mut object, &part);
        } else {
            return None;
        }
    }
    Some(match union {
        None => object,
        Some(variants) => {
            let variants: Vec<Value> = variants
                .into_iter()
                .map(|variant| {
                    let mut variant = match referenced(&variant) {
                        Some(name) => normalized(schemas, schemas.get(name)?, depth),
                        None => variant,
                    };
                    merge_into(&mut variant, &object);
                    Some(variant)
                })
                .collect::<Option<_>>()?;
            json!({ "oneOf": variants })
        }
    })
}

/// Every schema without an `allOf` (see [`normalized`]).
fn merge_all_ofs(schemas: &mut Map<String, Value>) {
    let names: Vec<String> = schemas.keys().cloned().collect();
    for name in names {
        let schema = normalized(schemas, &schemas[&name], DEPTH);
        schemas.insert(name, schema);
    }
}

/// Adds `object`'s properties and required names to `variant`'s.
fn merge_into(variant: &mut Value, object: &Value) {
    if variant.get("properties").is_none() {
        variant["properties"] = json!({});
    }
    if let (Some(into), Some(from)) = (
        variant.get_mut("properties").and_then(Value::as_object_mut),
        object.get("properties").and_then(Value::as_object),
    ) {
        for (key, value) in from {
            into.insert(key.clone(), value.clone());
        }
    }
    let mut required: Vec<Value> = variant
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for name in object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !required.contains(name) {
            required.push(name.clone());
        }
    }
    variant["required"] = Value::Array(required);
}

/// `snake_case` to `PascalCase`.
fn pascal(name: &str) -> String {
    name.split(['_', '-'])
        .filter(|p| !p.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// Every tagged union's variants become named schemas, and the union a discriminated `oneOf`
/// of them; again for the variants that are unions themselves, until none is left.
fn name_tagged_variants(schemas: &mut Map<String, Value>) {
    loop {
        let mut named = false;
        let names: Vec<String> = schemas.keys().cloned().collect();
        for name in names {
            let Some((variants, tag)) = tagged_union(&schemas[&name]) else {
                continue;
            };
            named = true;
            let mut refs = Vec::new();
            let mut mapping = Map::new();
            for mut variant in variants {
                let value = tag_value(&variant, &tag).unwrap_or_default();
                let variant_name = format!("{name}{}", pascal(&value));
                variant["title"] = json!(variant_name);
                // A variant that is a union itself (`game_over`, by its `reason`) is still an
                // object: generators that map a discriminator only to objects take it so.
                if variant.get("oneOf").is_some() {
                    variant["type"] = json!("object");
                }
                schemas.insert(variant_name.clone(), variant);
                mapping.insert(value, json!(format!("#/components/schemas/{variant_name}")));
                refs.push(reference(&variant_name));
            }
            let union = schemas.get_mut(&name).and_then(Value::as_object_mut);
            if let Some(union) = union {
                union.insert("oneOf".to_owned(), Value::Array(refs));
                union.insert(
                    "discriminator".to_owned(),
                    json!({ "propertyName": tag, "mapping": mapping }),
                );
            }
        }
        if !named {
            return;
        }
    }
}

/// A union's discriminator mapping.
fn mapping_of<'a>(schemas: &'a Map<String, Value>, union: &str) -> Option<&'a Map<String, Value>> {
    schemas
        .get(union)?
        .pointer("/discriminator/mapping")?
        .as_object()
}

/// The unions whose variants a game's streams and log carry besides the game's own events.
const SHARED_EVENTS: [&str; 3] = ["ServiceEvent", "StreamEvent", "TableEvent"];

/// Each game's events: `{Game}GameEvent`, a union of the service's, the stream's, the chat's,
/// the table's and the game's own events told apart by `type`; `GameEvent`, any game's.
/// Returns the `type`s that two of a game's unions both use (none, or the union would not
/// say which is meant).
fn game_events(schemas: &mut Map<String, Value>) -> Vec<String> {
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

/// Sets `schema`'s property at `path` (`a/b`), keeping its description.
fn set(schema: &mut Value, path: &str, value: Value) {
    let Some(slot) = schema.pointer_mut(&format!("/properties/{path}")) else {
        return;
    };
    let description = slot.get("description").cloned();
    *slot = value;
    if let Some(description) = description {
        slot["description"] = description;
    }
}

fn array_of(name: &str) -> Value {
    json!({ "type": "array", "items": reference(name) })
}

fn nullable(name: &str) -> Value {
    json!({ "oneOf": [reference(name), { "type": "null" }] })
}

/// The bodies that hold a game's moves or events, and how each game's copy of one reads them:
/// `(schema, tells the kind itself, set the game's parts)`.
type Split = (&'static str, bool, fn(&str, &mut Value));

const SPLITS: [Split; 10] = [
    ("EventOut", false, |p, s| {
        set(s, "event", reference(&format!("{p}GameEvent")))
    }),
    ("StoredEvent", false, |p, s| {
        set(s, "event", reference(&format!("{p}GameEvent")))
    }),
    ("GameView", true, |p, s| {
        set(s, "table", nullable(&format!("{p}View")));
        set(s, "legal_moves", array_of(&format!("{p}Move")));
        set(s, "recent_events", array_of(&format!("{p}EventOut")));
    }),
    ("EventsPage", true, |p, s| {
        set(s, "events", array_of(&format!("{p}EventOut")))
    }),
    ("ActionResponse", true, |p, s| {
        set(s, "events", array_of(&format!("{p}EventOut")));
        set(s, "view", reference(&format!("{p}GameView")));
    }),
    ("LogEntryOut", false, |p, s| {
        set(s, "move", nullable(&format!("{p}Move")));
        set(s, "events", array_of(&format!("{p}EventOut")));
    }),
    ("LogResponse", true, |p, s| {
        set(s, "entries", array_of(&format!("{p}LogEntryOut")))
    }),
    ("ExportEntry", false, |p, s| {
        set(s, "move", nullable(&format!("{p}Move")));
        set(
            s,
            "events",
            json!({ "oneOf": [array_of(&format!("{p}StoredEvent")), { "type": "null" }] }),
        );
    }),
    ("Export", true, |p, s| {
        set(s, "entries", array_of(&format!("{p}ExportEntry")))
    }),
    ("LegalMoves", true, |p, s| {
        set(s, "moves", array_of(&format!("{p}Move")))
    }),
];

/// Each body of [`SPLITS`] gets one copy a game (`{Game}{Body}`). A body that says its `kind`
/// becomes a union of its copies told apart by it; one that does not (a part of such a body)
/// stays as it is for the places that do not know the game.
fn split_by_kind(schemas: &mut Map<String, Value>) {
    for (name, tells_kind, parts) in SPLITS.into_iter().chain([MOVE_REQUEST]) {
        let Some(body) = schemas.get(name).cloned() else {
            continue;
        };
        if body.get("type") != Some(&json!("object")) {
            continue;
        }
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        for (kind, prefix) in GAMES {
            let game_name = format!("{prefix}{name}");
            let mut game = body.clone();
            game["title"] = json!(game_name);
            // (An example is one game's: it stays with the union.)
            if let Some(game) = game.as_object_mut() {
                game.remove("example");
            }
            if tells_kind {
                set(
                    &mut game,
                    "kind",
                    json!({ "type": "string", "enum": [kind] }),
                );
                let mut required: Vec<Value> = game
                    .get("required")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if !required.contains(&json!("kind")) {
                    required.push(json!("kind"));
                }
                game["required"] = Value::Array(required);
            }
            parts(prefix, &mut game);
            schemas.insert(game_name.clone(), game);
            mapping.insert(
                kind.to_owned(),
                json!(format!("#/components/schemas/{game_name}")),
            );
            refs.push(reference(&game_name));
        }
        if tells_kind {
            schemas.insert(name.to_owned(), {
                let mut union = json!({
                    "oneOf": refs,
                    "discriminator": { "propertyName": "kind", "mapping": mapping },
                    "description": body.get("description").cloned().unwrap_or(Value::Null),
                });
                if let Some(example) = body.get("example") {
                    union["example"] = example.clone();
                }
                union
            });
        }
    }
}

/// A move request names its game (`kind`): each game's request carries that game's move.
const MOVE_REQUEST: Split = ("MoveRequest", true, |p, s| {
    set(s, "move", reference(&format!("{p}Move")))
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flattened_tagged_union_becomes_named_discriminated_variants() {
        let mut document = json!({"components": {"schemas": {
            "Item": {"oneOf": [
                {"type": "object", "required": ["item"], "properties": {"item": {"type": "string", "enum": ["basra"]}}},
                {"type": "object", "required": ["item", "cards"], "properties": {"item": {"type": "string", "enum": ["card_points"]}, "cards": {"type": "integer"}}}
            ]},
            "Line": {"allOf": [{"$ref": "#/components/schemas/Item"},
                {"type": "object", "required": ["points"], "properties": {"points": {"type": "integer"}}}],
                "description": "a line"}
        }}});
        for_generators(&mut document);
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["Line"]["discriminator"]["propertyName"], "item");
        assert_eq!(
            schemas["Line"]["oneOf"],
            json!([{"$ref": "#/components/schemas/LineBasra"}, {"$ref": "#/components/schemas/LineCardPoints"}])
        );
        assert_eq!(
            schemas["LineCardPoints"]["required"],
            json!(["item", "cards", "points"])
        );
        assert_eq!(
            schemas["LineBasra"]["properties"]["points"]["type"],
            "integer"
        );
        assert_eq!(
            schemas["Item"]["discriminator"]["mapping"]["card_points"],
            "#/components/schemas/ItemCardPoints"
        );
        assert_eq!(schemas["Line"]["description"], "a line");
    }

    #[test]
    fn names_are_pascal_case() {
        assert_eq!(pascal("take_discard"), "TakeDiscard");
        assert_eq!(pascal("play"), "Play");
    }
}
