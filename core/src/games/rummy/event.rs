//! What happens at a Rummy table, as events.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::meld::Meld;

/// A hand shown when a hand or round is scored.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", schema(as = RummyShownHand))]
pub struct ShownHand {
    pub seat: Seat,
    pub cards: CardSet,
}

/// A Rummy event. `Dealt` and `DrewCard` go only to their seat; the others are public.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RummyEvent {
    /// Your cards (only you see this).
    Dealt {
        seat: Seat,
        cards: CardSet,
    },
    /// The deal is done: the first face-up card, and the face-down cards left.
    HandDealt {
        face_up: Card,
        stock: u8,
    },
    /// A card was drawn from the stock (`standard`).
    Drew {
        seat: Seat,
    },
    /// The card you drew (only you see this).
    DrewCard {
        seat: Seat,
        card: Card,
    },
    /// The face-up card was taken; in `classic`, `dropped` went onto the pile in exchange.
    TookDiscard {
        seat: Seat,
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dropped: Option<Card>,
    },
    /// The top face-down card was turned over for everyone to see (`classic`).
    TurnedOver {
        seat: Seat,
        card: Card,
    },
    /// The turned-over card was kept and `dropped` put on the face-up pile (`classic`).
    Kept {
        seat: Seat,
        card: Card,
        dropped: Card,
    },
    /// The turned-over card was put straight on the face-up pile (`classic`).
    Passed {
        seat: Seat,
        card: Card,
    },
    Melded {
        seat: Seat,
        meld: Meld,
    },
    LaidOff {
        seat: Seat,
        meld: u16,
        cards: CardSet,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// The seat's hand is empty: the hand (round) ends.
    WentOut {
        seat: Seat,
        /// In one turn without having melded before (`standard`): the score is doubled.
        rummy: bool,
    },
    /// The stock ran out: the face-up pile but its top card became the new stock.
    StockTurnedOver {
        stock: u8,
    },
    /// The stock ran out a second time: `standard` voids the hand (no score, same dealer),
    /// `classic` ends the round and everyone scores their hand.
    StockExhausted,
    /// Every hand still held, shown when the hand is scored.
    HandsShown {
        hands: Vec<ShownHand>,
    },
}
