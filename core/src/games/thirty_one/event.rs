//! What happens at a 31 table, as events.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::value::HandValue;

/// Which pile a card is drawn from.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pile {
    Stock,
    Discard,
}

/// A hand shown at the end of a hand.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", schema(as = ThirtyOneShownHand))]
pub struct ShownHand {
    pub seat: Seat,
    pub cards: CardSet,
    pub value: HandValue,
}

/// A 31 event. `Dealt` and `DrewCard` go only to their seat; the others are public.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ThirtyOneEvent {
    /// Your three cards (only you see this).
    Dealt {
        seat: Seat,
        cards: CardSet,
    },
    /// The deal is done: the first card of the discard pile, and the stock left.
    HandDealt {
        discard: Card,
        stock: u8,
    },
    Knocked {
        seat: Seat,
    },
    /// A card was drawn; from the discard pile everyone sees which.
    Drew {
        seat: Seat,
        from: Pile,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// The card you drew from the stock (only you see this).
    DrewCard {
        seat: Seat,
        card: Card,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// The stock ran out: the discard pile but its top card became the new stock.
    Reshuffled {
        stock: u8,
    },
    /// The stock ran out a second time: the hand is a draw.
    StockExhausted,
    /// Every hand is shown: after the final turns of a knock, or when someone holds 31.
    Showdown {
        hands: Vec<ShownHand>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        knocker: Option<Seat>,
        /// The seats holding 31, if the hand ended on a 31.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thirty_one: Vec<Seat>,
    },
    /// A seat lost a life with none left: it is out of the game.
    PlayerOut {
        seat: Seat,
    },
}
