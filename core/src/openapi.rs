//! OpenAPI schemas for the types with hand-written serde (feature `openapi`).

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Ref, Schema, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

use crate::any::{AnyEvent, AnyMove, AnyView};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::games::basra::{BasraEvent, BasraMove, BasraView};
use crate::games::rummy::{RummyEvent, RummyMove, RummyView};
use crate::games::tarneeb::{TarneebEvent, TarneebMove, TarneebView};
use crate::games::thirty_one::{ThirtyOneEvent, ThirtyOneMove, ThirtyOneView};
use crate::level::BotLevel;
use crate::options::OptionValue;
use crate::seat::Seat;

fn string(description: &str, pattern: Option<&str>, example: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .description(Some(description))
        .pattern(pattern)
        .examples([serde_json::Value::String(example.to_owned())])
}

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        string(
            "A card: rank (A 2-9 T J Q K; input also 10) then suit (C D H S). Output is always \
             canonical, e.g. TC; input also accepts 10C and lower case.",
            Some("^([2-9TtJjQqKkAa]|10)[CcDdHhSs]$"),
            "7D",
        )
        .into()
    }
}
impl ToSchema for Card {}

impl PartialSchema for CardSet {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(Card::schema())
            .unique_items(true)
            .description(Some("Distinct cards."))
            .into()
    }
}
impl ToSchema for CardSet {}

impl PartialSchema for Seat {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Integer))
            .minimum(Some(0))
            .maximum(Some(7))
            .description(Some("A seat number, 0..n-1 in the order play passes."))
            .into()
    }
}
impl ToSchema for Seat {}

impl PartialSchema for BotLevel {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some([
                "random", "greedy", "strong", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
            ]))
            .description(Some("A computer player's level."))
            .into()
    }
}
impl ToSchema for BotLevel {}

impl PartialSchema for OptionValue {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(SchemaType::Type(Type::Integer)))
            .item(ObjectBuilder::new().schema_type(SchemaType::Type(Type::Boolean)))
            .item(ObjectBuilder::new().schema_type(SchemaType::Type(Type::String)))
            .description(Some(
                "A whole number, a flag, or one of the option's words.",
            ))
            .into()
    }
}
impl ToSchema for OptionValue {}

/// `anyOf` the four games' schemas, and those schemas as components. Not `oneOf`: a Basra play
/// `{"type": "play", "card": "QC"}` is also a Tarneeb play, so a value may match several.
macro_rules! any_of_games {
    ($any:ty, $description:literal, $($game:ty),+) => {
        impl PartialSchema for $any {
            fn schema() -> RefOr<Schema> {
                AnyOfBuilder::new()
                    $(.item(Ref::from_schema_name(<$game as ToSchema>::name())))+
                    .description(Some($description))
                    .into()
            }
        }
        impl ToSchema for $any {
            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                $(
                    schemas.push((<$game as ToSchema>::name().into_owned(), <$game as PartialSchema>::schema()));
                    <$game as ToSchema>::schemas(schemas);
                )+
            }
        }
    };
}

any_of_games!(
    AnyMove,
    "Any game's move.",
    BasraMove,
    ThirtyOneMove,
    RummyMove,
    TarneebMove
);
any_of_games!(
    AnyView,
    "Any game's view.",
    BasraView,
    ThirtyOneView,
    RummyView,
    TarneebView
);
any_of_games!(
    AnyEvent,
    "Any game's own event.",
    BasraEvent,
    ThirtyOneEvent,
    RummyEvent,
    TarneebEvent
);
