//! A Rummy move as a client sends it, and why the rules refuse one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Refusal, Refused};

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
    NotNow(NotNow),
    EmptyPile,
    NotInHand(Card),
    /// A move of the other variant.
    NotInVariant(OtherVariant),
    Meld(MeldError),
    NoSuchMeld(u16),
    JustTaken(Card),
    WouldKeepOnlyTaken(Card),
    DropTheTurnedCard,
}

impl fmt::Display for RummyRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RummyRejection::NotNow(when) => write!(f, "{when}"),
            RummyRejection::EmptyPile => f.write_str("that pile is empty"),
            RummyRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            RummyRejection::NotInVariant(what) => write!(f, "{what}"),
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

/// Which step of the turn a Rummy move came at the wrong time for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NotNow {
    /// A draw from the stock after drawing.
    Draw,
    /// Taking the face-up card after drawing.
    TakeDiscard,
    /// `keep` or `pass_drawn` with no card turned over.
    NothingTurned,
    /// A meld, lay-off or discard before drawing.
    DrawFirst,
    /// Anything else while a turned-over card waits to be kept or passed.
    KeepOrPassFirst,
    /// `end_turn` before the compulsory exchange.
    ExchangeFirst,
}

impl fmt::Display for NotNow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotNow::Draw => "you cannot draw now",
            NotNow::TakeDiscard => "you cannot take the face-up card now",
            NotNow::NothingTurned => "keep or pass a card only after turning one over",
            NotNow::DrawFirst => "draw first: from the stock or the discard pile",
            NotNow::KeepOrPassFirst => "keep or pass the turned-over card first",
            NotNow::ExchangeFirst => {
                "exchange a card first: take the face-up card or turn over the face-down one"
            }
        })
    }
}

/// A move that belongs to the other Rummy variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OtherVariant {
    /// `standard`: taking the discard names no card to drop.
    DropInStandard,
    /// `classic`: taking the face-up card names the card dropped in exchange.
    DropMissing,
    /// `classic`: there is no discard; a card is exchanged.
    DiscardInClassic,
    /// `standard`: a turn ends with a discard, not `end_turn`.
    EndTurnInStandard,
}

impl fmt::Display for OtherVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OtherVariant::DropInStandard => {
                "in standard Rummy you take the discard without dropping a card; you discard at \
                 the end of your turn"
            }
            OtherVariant::DropMissing => {
                "name the card you put on the face-up pile in exchange (`drop`)"
            }
            OtherVariant::DiscardInClassic => {
                "in classic Rummy you exchange a card instead of discarding"
            }
            OtherVariant::EndTurnInStandard => "in standard Rummy a turn ends with a discard",
        })
    }
}

impl Refused for RummyRejection {
    fn refusal(&self) -> Refusal {
        match self {
            RummyRejection::NotNow(_) => Refusal::NotNow,
            RummyRejection::EmptyPile => Refusal::EmptyPile,
            RummyRejection::NotInHand(_) => Refusal::NotInHand,
            RummyRejection::NotInVariant(_) => Refusal::NotInVariant,
            RummyRejection::Meld(_) => Refusal::InvalidMeld,
            RummyRejection::NoSuchMeld(_) => Refusal::NoSuchMeld,
            RummyRejection::JustTaken(_) => Refusal::JustTaken,
            RummyRejection::WouldKeepOnlyTaken(_) => Refusal::WouldKeepOnlyTaken,
            RummyRejection::DropTheTurnedCard => Refusal::PassTheTurnedCard,
        }
    }
}
