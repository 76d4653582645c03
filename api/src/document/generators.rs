//! The OpenAPI document, shaped for client generators.
//!
//! The schemas derived from the Rust types are correct but awkward for generators: a tagged
//! union (a game's moves, its events, a score item, an option's kind) is a `oneOf` of unnamed
//! objects, so generated classes get numbers for names and nothing says which field tells them
//! apart; a struct that flattens such a union in is an `allOf` of a union and an object, which
//! several generators cannot take; and a view is one shape for every game, so its table and its
//! legal moves are unions of all four games'. Here, on the document as JSON:
//!
//! - an `allOf` of a tagged union and an object becomes a union of the merged objects (and of
//!   two objects, one object);
//! - every tagged union's variants become named schemas (`BasraMovePlay`,
//!   `ThirtyOneMoveDraw`, …) and the union gets a `discriminator` on its tag;
//! - the game view becomes a union of one view per game (`BasraGameView`, …), told apart by
//!   `kind`, each with that game's table and moves.
//!
//! The JSON the API sends is unchanged: this only describes it more precisely.

use serde_json::{Map, Value, json};

/// The games, with the names of their view and move schemas.
const GAMES: [(&str, &str, &str, &str); 4] = [
    ("basra", "Basra", "BasraView", "BasraMove"),
    ("thirty_one", "ThirtyOne", "ThirtyOneView", "ThirtyOneMove"),
    ("rummy", "Rummy", "RummyView", "RummyMove"),
    ("tarneeb", "Tarneeb", "TarneebView", "TarneebMove"),
];

/// Reshapes the document's schemas (see the module's documentation).
pub fn for_generators(document: &mut Value) {
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    flatten_unions(schemas);
    name_tagged_variants(schemas);
    split_game_view(schemas);
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

/// The tag of a union: the property every variant requires with a single string value.
fn tag_of(variants: &[Value]) -> Option<String> {
    let first = variants.first()?.get("properties")?.as_object()?;
    first
        .keys()
        .find(|name| {
            variants.iter().all(|variant| {
                let single = variant
                    .pointer(&format!("/properties/{name}/enum"))
                    .and_then(Value::as_array)
                    .is_some_and(|values| values.len() == 1 && values[0].is_string());
                let required = variant
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|n| n == name.as_str()));
                let object = variant.get("type") == Some(&json!("object"));
                single && required && object
            })
        })
        .cloned()
}

/// The variants of a schema that is a tagged union of inline objects, and its tag.
fn tagged_union(schema: &Value) -> Option<(Vec<Value>, String)> {
    let variants = schema.get("oneOf")?.as_array()?.clone();
    let tag = tag_of(&variants)?;
    Some((variants, tag))
}

/// `allOf: [union, object]` (serde's flatten) becomes `oneOf` of each variant merged with the
/// object; `allOf: [object, object]` one object.
fn flatten_unions(schemas: &mut Map<String, Value>) {
    let names: Vec<String> = schemas.keys().cloned().collect();
    for name in names {
        let Some(parts) = schemas[&name]
            .get("allOf")
            .and_then(Value::as_array)
            .cloned()
        else {
            continue;
        };
        let [union, object] = parts.as_slice() else {
            continue;
        };
        if object.get("type") != Some(&json!("object")) {
            continue;
        }
        let Some(inner) = referenced(union).and_then(|u| schemas.get(u)).cloned() else {
            continue;
        };
        let description = schemas[&name].get("description").cloned();
        // A plain object flattened in: one object with both's fields.
        if inner.get("type") == Some(&json!("object")) {
            let mut merged = inner;
            merge_into(&mut merged, object);
            match description {
                Some(description) => merged["description"] = description,
                None => {
                    if let Some(merged) = merged.as_object_mut() {
                        merged.remove("description");
                    }
                }
            }
            schemas.insert(name, merged);
            continue;
        }
        let Some((variants, _)) = tagged_union(&inner) else {
            continue;
        };
        let merged: Vec<Value> = variants
            .into_iter()
            .map(|mut variant| {
                merge_into(&mut variant, object);
                variant
            })
            .collect();
        let mut schema = json!({ "oneOf": merged });
        if let Some(description) = description {
            schema["description"] = description;
        }
        schemas.insert(name, schema);
    }
}

/// Adds `object`'s properties and required names to `variant`'s.
fn merge_into(variant: &mut Value, object: &Value) {
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
/// of them.
fn name_tagged_variants(schemas: &mut Map<String, Value>) {
    let names: Vec<String> = schemas.keys().cloned().collect();
    for name in names {
        let Some((variants, tag)) = tagged_union(&schemas[&name]) else {
            continue;
        };
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        for variant in variants {
            let value = variant
                .pointer(&format!("/properties/{tag}/enum/0"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let variant_name = format!("{name}{}", pascal(&value));
            let mut variant = variant;
            variant["title"] = json!(variant_name);
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
}

/// `GameView` becomes one view per game, told apart by `kind`.
fn split_game_view(schemas: &mut Map<String, Value>) {
    let Some(view) = schemas.get("GameView").cloned() else {
        return;
    };
    if view.get("type") != Some(&json!("object")) {
        return;
    }
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    for (kind, prefix, table, moves) in GAMES {
        let name = format!("{prefix}GameView");
        let mut game = view.clone();
        game["title"] = json!(name);
        game["description"] = json!(format!("A view of a game of {kind}."));
        game["properties"]["kind"] = json!({ "type": "string", "enum": [kind] });
        game["properties"]["table"] = json!({
            "oneOf": [reference(table), { "type": "null" }],
            "description": "The table as the caller sees it (none until the first deal).",
        });
        game["properties"]["legal_moves"] = json!({
            "type": "array",
            "items": reference(moves),
            "description": "Exactly the moves the server would accept from the caller now.",
        });
        schemas.insert(name.clone(), game);
        mapping.insert(
            kind.to_owned(),
            json!(format!("#/components/schemas/{name}")),
        );
        refs.push(reference(&name));
    }
    schemas.insert(
        "GameView".to_owned(),
        json!({
            "oneOf": refs,
            "discriminator": { "propertyName": "kind", "mapping": mapping },
            "description": view.get("description").cloned().unwrap_or(Value::Null),
        }),
    );
}

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
