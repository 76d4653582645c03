//! The bodies that hold a game's moves or events, one schema a game, told apart by `kind`.

use serde_json::{Map, Value, json};

use super::unions::reference;

/// The games: kind, schema prefix.
pub(super) const GAMES: [(&str, &str); 4] = [
    ("basra", "Basra"),
    ("thirty_one", "ThirtyOne"),
    ("rummy", "Rummy"),
    ("tarneeb", "Tarneeb"),
];

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
pub(super) fn split_by_kind(schemas: &mut Map<String, Value>) {
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
