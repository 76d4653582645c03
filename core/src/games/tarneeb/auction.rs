//! Bids, contracts, tricks and the scoring tables (docs/rules.md#tarneeb).

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::config::Variant;

/// What a `classic` bid names: a trump suit or no-trump. They rank ♣ < ♦ < ♥ < ♠ < NT.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Denomination {
    Trump(Suit),
    NoTrump,
}

impl Denomination {
    /// Every denomination, lowest first.
    pub const ALL: [Denomination; 5] = [
        Denomination::Trump(Suit::Clubs),
        Denomination::Trump(Suit::Diamonds),
        Denomination::Trump(Suit::Hearts),
        Denomination::Trump(Suit::Spades),
        Denomination::NoTrump,
    ];

    fn rank(self) -> u8 {
        match self {
            Denomination::Trump(suit) => suit as u8,
            Denomination::NoTrump => 4,
        }
    }

    /// The trump suit it names (none for no-trump).
    pub fn trump(self) -> Option<Suit> {
        match self {
            Denomination::Trump(suit) => Some(suit),
            Denomination::NoTrump => None,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Denomination::Trump(Suit::Clubs) => "C",
            Denomination::Trump(Suit::Diamonds) => "D",
            Denomination::Trump(Suit::Hearts) => "H",
            Denomination::Trump(Suit::Spades) => "S",
            Denomination::NoTrump => "NT",
        }
    }
}

impl PartialOrd for Denomination {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Denomination {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Denomination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Denomination::Trump(suit) => write!(f, "{}", suit.symbol()),
            Denomination::NoTrump => f.write_str("NT"),
        }
    }
}

impl Serialize for Denomination {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Denomination {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Denomination, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let upper = text.to_ascii_uppercase();
        Denomination::ALL
            .into_iter()
            .find(|d| d.code() == upper)
            .ok_or_else(|| serde::de::Error::custom("a denomination is C, D, H, S or NT"))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Denomination {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::SchemaType::Type(
                utoipa::openapi::schema::Type::String,
            ))
            .enum_values(Some(["C", "D", "H", "S", "NT"]))
            .description(Some("A suit, or NT for no-trump (classic bids)."))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Denomination {}

/// A bid: a number of tricks (7–13) and, in `classic`, a denomination.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Bid {
    pub tricks: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit: Option<Denomination>,
}

impl Bid {
    /// Whether `self` is higher than `other`: more tricks, or (`classic`) as many tricks and a
    /// higher denomination.
    pub fn beats(self, other: Bid) -> bool {
        (self.tricks, self.suit) > (other.tricks, other.suit)
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit {
            Some(denomination) => write!(f, "{} {denomination}", self.tricks),
            None => write!(f, "{}", self.tricks),
        }
    }
}

/// A call in the auction.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    Bid {
        tricks: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Denomination>,
    },
    Pass,
}

/// A call and who made it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CallRecord {
    pub seat: Seat,
    #[serde(flatten)]
    pub call: Call,
}

/// The winning bid of an auction.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Contract {
    pub declarer: Seat,
    pub bid: Bid,
}

/// A card played to a trick.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayedCard {
    pub seat: Seat,
    pub card: Card,
}

/// The cards of `hand` that may be played to `trick`: the suit led while the hand holds one,
/// otherwise any card (docs/rules.md#tarneeb-standard "Play").
pub fn playable(hand: CardSet, trick: &[PlayedCard]) -> CardSet {
    match trick.first() {
        Some(lead) => {
            let follow = hand & CardSet::suit(lead.card.suit());
            if follow.is_empty() { hand } else { follow }
        }
        None => hand,
    }
}

/// Who wins a (complete or partial) trick: the highest trump, otherwise the highest card of the
/// suit led (docs/rules.md#tarneeb-standard "Play").
pub fn trick_winner(trick: &[PlayedCard], trump: Option<Suit>) -> Option<PlayedCard> {
    let led = trick.first()?.card.suit();
    trick.iter().copied().max_by_key(|p| {
        let suit = p.card.suit();
        let class = if Some(suit) == trump {
            2
        } else if suit == led {
            1
        } else {
            0
        };
        (class, strength(p.card))
    })
}

/// A card's strength within its suit: A > K > Q > J > 10 > … > 2.
pub fn strength(card: Card) -> u8 {
    match card.rank().number() {
        1 => 14,
        n => n,
    }
}

/// The points of a hand: (bidders, defenders), from the contract and the bidders' tricks
/// (docs/rules.md#tarneeb-standard and #tarneeb-classic "Scoring").
pub fn score(variant: Variant, bid: Bid, taken: u8) -> (i32, i32) {
    let b = i32::from(bid.tricks);
    let t = i32::from(taken);
    let d = 13 - t;
    let made = taken >= bid.tricks;
    match (variant, bid.tricks == 13, made) {
        (_, true, true) => (26, 0),
        (Variant::Standard, true, false) => (-16, 2 * d),
        (Variant::Classic, true, false) => (-16, 26),
        (_, false, true) if taken == 13 => (16, 0),
        (_, false, true) => (t, 0),
        (Variant::Standard, false, false) => (-b, d),
        (Variant::Classic, false, false) => (-b, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(tricks: u8) -> Bid {
        Bid { tricks, suit: None }
    }

    #[test]
    fn every_row_of_the_standard_table() {
        assert_eq!(score(Variant::Standard, bid(8), 10), (10, 0));
        assert_eq!(score(Variant::Standard, bid(9), 7), (-9, 6));
        assert_eq!(score(Variant::Standard, bid(7), 13), (16, 0));
        assert_eq!(score(Variant::Standard, bid(13), 13), (26, 0));
        assert_eq!(score(Variant::Standard, bid(13), 12), (-16, 2));
        assert_eq!(score(Variant::Standard, bid(12), 12), (12, 0));
    }

    #[test]
    fn every_row_of_the_classic_table() {
        assert_eq!(score(Variant::Classic, bid(8), 10), (10, 0));
        assert_eq!(score(Variant::Classic, bid(9), 7), (-9, 9));
        assert_eq!(score(Variant::Classic, bid(7), 13), (16, 0));
        assert_eq!(score(Variant::Classic, bid(13), 13), (26, 0));
        assert_eq!(score(Variant::Classic, bid(13), 12), (-16, 26));
    }

    #[test]
    fn denominations_rank_clubs_diamonds_hearts_spades_no_trump() {
        let d = Denomination::ALL;
        for pair in d.windows(2) {
            assert!(pair[0] < pair[1]);
        }
        let one = |t, s| Bid {
            tricks: t,
            suit: Some(s),
        };
        assert!(one(8, Denomination::Trump(Suit::Clubs)).beats(one(7, Denomination::NoTrump)));
        assert!(one(7, Denomination::NoTrump).beats(one(7, Denomination::Trump(Suit::Spades))));
        assert!(
            !one(7, Denomination::Trump(Suit::Hearts))
                .beats(one(7, Denomination::Trump(Suit::Hearts)))
        );
        assert_eq!(
            serde_json::to_string(&Denomination::NoTrump).unwrap(),
            "\"NT\""
        );
        assert_eq!(
            serde_json::from_str::<Denomination>("\"nt\"").unwrap(),
            Denomination::NoTrump
        );
        assert!(serde_json::from_str::<Denomination>("\"X\"").is_err());
    }

    #[test]
    fn the_highest_trump_wins_else_the_highest_card_of_the_suit_led() {
        let trick = |codes: &str| -> Vec<PlayedCard> {
            codes
                .split(' ')
                .enumerate()
                .map(|(i, c)| PlayedCard {
                    seat: Seat::new(i as u8),
                    card: c.parse().unwrap(),
                })
                .collect()
        };
        let winner = |codes: &str, trump| trick_winner(&trick(codes), trump).unwrap().seat.number();
        assert_eq!(winner("5H KH 2C AH", None), 3);
        assert_eq!(winner("5H KH 2C AS", None), 1, "off-suit cards never win");
        assert_eq!(winner("5H KH 2C AH", Some(Suit::Clubs)), 2);
        assert_eq!(winner("5H 3C 2C AH", Some(Suit::Clubs)), 1);
        assert_eq!(winner("TH JH QH KH", Some(Suit::Hearts)), 3);
    }
}

/// Where a hand stands.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TarneebPhase))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Bidding,
    /// The declarer names the trump (`standard`).
    Trump,
    Play,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Bidding => "bidding",
            Phase::Trump => "trump",
            Phase::Play => "play",
        })
    }
}
