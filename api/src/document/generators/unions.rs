//! Tagged unions, made plain for generators: `allOf`s merged into one object (or into each
//! variant of a union they flatten in), and every variant of a union named and told apart by
//! a `discriminator` on its tag.

use serde_json::{Map, Value, json};

pub(super) fn reference(name: &str) -> Value {
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
pub(super) fn merge_all_ofs(schemas: &mut Map<String, Value>) {
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
pub(super) fn pascal(name: &str) -> String {
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
pub(super) fn name_tagged_variants(schemas: &mut Map<String, Value>) {
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
pub(super) fn mapping_of<'a>(
    schemas: &'a Map<String, Value>,
    union: &str,
) -> Option<&'a Map<String, Value>> {
    schemas
        .get(union)?
        .pointer("/discriminator/mapping")?
        .as_object()
}
