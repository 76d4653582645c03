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

use serde_json::Value;

mod by_kind;
mod events;
mod streams;
mod unions;

use by_kind::split_by_kind;
use events::game_events;
use streams::{describe_streams, tournament_stream_item};
use unions::{merge_all_ofs, name_tagged_variants};

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
    tournament_stream_item(schemas);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::unions::pascal;
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
