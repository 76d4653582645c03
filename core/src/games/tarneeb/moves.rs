//! A Tarneeb move as a client sends it, and why the rules refuse one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Suit};
use crate::game::{Refusal, Refused};

use super::auction::{Bid, Denomination};

/// A Tarneeb move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TarneebMove {
    /// Bid a number of tricks (7–13); in `classic` with a denomination.
    Bid {
        tricks: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Denomination>,
    },
    Pass {},
    /// The declarer names the trump (`standard`).
    Trump {
        suit: Suit,
    },
    Play {
        card: Card,
    },
}

/// Why the rules refuse a Tarneeb move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TarneebRejection {
    NotNow(NotNow),
    BidRange(u8),
    BidTooLow { bid: Bid, highest: Bid },
    NeedsDenomination,
    NoDenomination,
    NotInHand(Card),
    MustFollow(Suit),
}

impl fmt::Display for TarneebRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TarneebRejection::NotNow(when) => write!(f, "{when}"),
            TarneebRejection::BidRange(n) => write!(f, "a bid is 7 to 13 tricks, not {n}"),
            TarneebRejection::BidTooLow { bid, highest } => {
                write!(f, "a bid of {bid} does not beat the bid of {highest}")
            }
            TarneebRejection::NeedsDenomination => {
                f.write_str("a classic bid names a suit (C, D, H, S) or NT")
            }
            TarneebRejection::NoDenomination => f.write_str(
                "a standard bid is a number of tricks; the trump is named after the auction",
            ),
            TarneebRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            TarneebRejection::MustFollow(suit) => {
                write!(f, "you must follow {} while you hold one", suit.name())
            }
        }
    }
}

/// Which step of the hand a Tarneeb move came at the wrong time for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NotNow {
    /// A bid or pass after the auction.
    AuctionOver,
    /// Naming the trump outside a `standard` hand's trump step.
    TrumpNotAsked,
    /// A card while the auction is on.
    AuctionOn,
    /// A card before the declarer named the trump.
    TrumpFirst,
}

impl fmt::Display for NotNow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotNow::AuctionOver => "the auction is over",
            NotNow::TrumpNotAsked => "the trump is named by the declarer after a standard auction",
            NotNow::AuctionOn => "the auction is still on: bid or pass",
            NotNow::TrumpFirst => "the declarer names the trump first",
        })
    }
}

impl Refused for TarneebRejection {
    fn refusal(&self) -> Refusal {
        match self {
            TarneebRejection::NotNow(_) => Refusal::NotNow,
            TarneebRejection::BidRange(_) => Refusal::BidOutOfRange,
            TarneebRejection::BidTooLow { .. } => Refusal::BidTooLow,
            TarneebRejection::NeedsDenomination => Refusal::BidNeedsDenomination,
            TarneebRejection::NoDenomination => Refusal::BidHasDenomination,
            TarneebRejection::NotInHand(_) => Refusal::NotInHand,
            TarneebRejection::MustFollow(_) => Refusal::MustFollowSuit,
        }
    }
}
