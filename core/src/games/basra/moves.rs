//! A Basra move as a client sends it, and why the rules refuse one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, pretty_cards};
use crate::cardset::CardSet;
use crate::game::{Refusal, Refused};

/// A Basra move: play a card, optionally naming the floor cards it captures.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BasraMove {
    Play {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<CardSet>,
    },
}

impl BasraMove {
    /// The card played.
    pub fn card(&self) -> Card {
        match self {
            BasraMove::Play { card, .. } => *card,
        }
    }

    /// The capture named, if any.
    pub fn capture(&self) -> Option<CardSet> {
        match self {
            BasraMove::Play { capture, .. } => *capture,
        }
    }
}

/// Why the rules refuse a Basra move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BasraRejection {
    NotInHand(Card),
    NotOnFloor(Card),
    /// The capture is not a choice here: the card takes exactly `takes`.
    Automatic {
        card: Card,
        takes: CardSet,
    },
    /// A `classic44` choice must hold every same-rank floor card.
    MissingSameRank {
        card: Card,
        missing: CardSet,
    },
    /// A `classic44` choice whose other cards do not split into groups adding up to the card.
    NotSums {
        card: Card,
        cards: CardSet,
    },
    /// A `classic44` choice that another group of the floor would extend.
    Extendable {
        card: Card,
        group: CardSet,
    },
}

impl fmt::Display for BasraRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BasraRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            BasraRejection::NotOnFloor(card) => {
                write!(f, "{} is not on the floor", card.pretty())
            }
            BasraRejection::Automatic { card, takes } if takes.is_empty() => write!(
                f,
                "{} captures nothing here: leave out `capture` or send an empty list",
                card.pretty()
            ),
            BasraRejection::Automatic { card, takes } => write!(
                f,
                "{} captures exactly {} here: leave out `capture` or name those cards",
                card.pretty(),
                pretty_cards(*takes)
            ),
            BasraRejection::MissingSameRank { card, missing } => write!(
                f,
                "a capture with {} must take every {} on the floor; missing {}",
                card.pretty(),
                card.rank().label(),
                pretty_cards(*missing)
            ),
            BasraRejection::NotSums { card, cards } => write!(
                f,
                "{} do not split into groups of two or more numerals that each add up to {}",
                pretty_cards(*cards),
                card.rank().number()
            ),
            BasraRejection::Extendable { card, group } => write!(
                f,
                "the capture must take as much as it can: {} also add up to {}",
                pretty_cards(*group),
                card.rank().number()
            ),
        }
    }
}

impl Refused for BasraRejection {
    fn refusal(&self) -> Refusal {
        match self {
            BasraRejection::NotInHand(_) => Refusal::NotInHand,
            BasraRejection::NotOnFloor(_) => Refusal::NotOnFloor,
            BasraRejection::Automatic { .. } => Refusal::CaptureIsAutomatic,
            BasraRejection::MissingSameRank { .. } => Refusal::MustTakeSameRank,
            BasraRejection::NotSums { .. } => Refusal::CaptureDoesNotAddUp,
            BasraRejection::Extendable { .. } => Refusal::CaptureIncomplete,
        }
    }
}
