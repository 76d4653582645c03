//! A Rummy move as a client sends it, and why the rules refuse one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;

use super::meld::MeldError;

/// A Rummy move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RummyMove {
    /// `standard`: draw the top of the stock. `classic`: turn over the top face-down card.
    DrawStock {},
    /// Take the face-up card; in `classic`, `drop` (another card) goes onto the pile in exchange.
    TakeDiscard {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drop: Option<Card>,
    },
    /// `classic`: keep the turned-over card and put `drop` on the face-up pile.
    Keep { drop: Card },
    /// `classic`: put the turned-over card straight on the face-up pile.
    PassDrawn {},
    /// Put a new set or run on the table.
    Meld { cards: CardSet },
    /// Add cards to meld number `meld`.
    LayOff { meld: u16, cards: CardSet },
    /// `standard`: discard a card, ending the turn.
    Discard { card: Card },
    /// `classic`: end the turn.
    EndTurn {},
}

/// Why the rules refuse a Rummy move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RummyRejection {
    WrongStep(&'static str),
    EmptyPile,
    NotInHand(Card),
    /// A move of the other variant.
    NotInVariant(&'static str),
    Meld(MeldError),
    NoSuchMeld(u16),
    JustTaken(Card),
    WouldKeepOnlyTaken(Card),
    DropTheTurnedCard,
}

impl fmt::Display for RummyRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RummyRejection::WrongStep(what) => f.write_str(what),
            RummyRejection::EmptyPile => f.write_str("that pile is empty"),
            RummyRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            RummyRejection::NotInVariant(what) => f.write_str(what),
            RummyRejection::Meld(error) => write!(f, "{error}"),
            RummyRejection::NoSuchMeld(id) => write!(f, "there is no meld {id} on the table"),
            RummyRejection::JustTaken(card) => write!(
                f,
                "you cannot discard {}: you just took it from the discard pile",
                card.pretty()
            ),
            RummyRejection::WouldKeepOnlyTaken(card) => write!(
                f,
                "that would leave you only {}, which you just took and may not discard",
                card.pretty()
            ),
            RummyRejection::DropTheTurnedCard => {
                f.write_str("to give the turned-over card away, pass it (`pass_drawn`)")
            }
        }
    }
}
