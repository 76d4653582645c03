//! A 31 move as a client sends it, and why the rules refuse one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::game::{Refusal, Refused};
use crate::seat::Seat;

use super::event::Pile;

/// A 31 move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ThirtyOneMove {
    /// End the hand after everyone else's one more turn (at the start of a turn, once a hand).
    /// (A struct variant, so that unknown fields are refused as for the other moves.)
    Knock {},
    /// Take the top card of the stock or of the discard pile.
    Draw { from: Pile },
    /// Put a card on the discard pile (never the one just taken from it).
    Discard { card: Card },
}

/// Why the rules refuse a 31 move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ThirtyOneRejection {
    AlreadyKnocked(Seat),
    KnockAfterDrawing,
    AlreadyDrew,
    DrawFirst,
    EmptyPile(Pile),
    NotInHand(Card),
    JustTaken(Card),
}

impl fmt::Display for ThirtyOneRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThirtyOneRejection::AlreadyKnocked(seat) => {
                write!(f, "seat {} has already knocked this hand", seat.number())
            }
            ThirtyOneRejection::KnockAfterDrawing => {
                f.write_str("you can knock only at the start of your turn, before drawing")
            }
            ThirtyOneRejection::AlreadyDrew => f.write_str("you have drawn: now discard a card"),
            ThirtyOneRejection::DrawFirst => f.write_str("draw a card (or knock) first"),
            ThirtyOneRejection::EmptyPile(Pile::Stock) => f.write_str("the stock is empty"),
            ThirtyOneRejection::EmptyPile(Pile::Discard) => {
                f.write_str("the discard pile is empty")
            }
            ThirtyOneRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            ThirtyOneRejection::JustTaken(card) => write!(
                f,
                "you cannot discard {}: you just took it from the discard pile",
                card.pretty()
            ),
        }
    }
}

impl Refused for ThirtyOneRejection {
    fn refusal(&self) -> Refusal {
        match self {
            ThirtyOneRejection::AlreadyKnocked(_) => Refusal::AlreadyKnocked,
            ThirtyOneRejection::KnockAfterDrawing => Refusal::KnockAfterDrawing,
            ThirtyOneRejection::AlreadyDrew => Refusal::AlreadyDrew,
            ThirtyOneRejection::DrawFirst => Refusal::DrawFirst,
            ThirtyOneRejection::EmptyPile(_) => Refusal::EmptyPile,
            ThirtyOneRejection::NotInHand(_) => Refusal::NotInHand,
            ThirtyOneRejection::JustTaken(_) => Refusal::JustTaken,
        }
    }
}
