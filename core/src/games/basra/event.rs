//! What happens at a Basra table, as events.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

/// A Basra event. `Dealt` goes only to its seat; every other event is public.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BasraEvent {
    /// Your cards for this round (only you see this).
    Dealt { seat: Seat, cards: CardSet },
    /// A round was dealt: `cards_each` to every player; `stock` cards remain.
    RoundDealt {
        round: u8,
        cards_each: u8,
        stock: u8,
    },
    /// The floor was dealt face up.
    FloorDealt { cards: CardSet },
    /// A card was played; it took `captured` (nothing: it stays on the floor).
    Played {
        seat: Seat,
        card: Card,
        captured: CardSet,
        /// The basra's points, when the play was a basra.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        basra: Option<i32>,
    },
    /// After the last card, the cards left on the floor went to `seat`'s side.
    FloorCollected {
        seat: Seat,
        side: u8,
        cards: CardSet,
    },
}
