//! What happens at a Tarneeb table, as events.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::auction::{Call, Contract, PlayedCard};

/// A Tarneeb event. `Dealt` goes only to its seat; the others are public.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TarneebEvent {
    /// Your thirteen cards (only you see this).
    Dealt {
        seat: Seat,
        cards: CardSet,
    },
    /// A call in the auction.
    Called {
        seat: Seat,
        #[serde(flatten)]
        call: Call,
    },
    /// Everyone passed: the same dealer deals again.
    AllPassed,
    /// The auction is over.
    Contracted {
        contract: Contract,
    },
    /// The declarer named the trump (`standard`).
    TrumpNamed {
        seat: Seat,
        suit: Suit,
    },
    Played {
        seat: Seat,
        card: Card,
    },
    /// A trick is complete.
    TrickWon {
        winner: Seat,
        cards: Vec<PlayedCard>,
    },
}
