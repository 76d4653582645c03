//! A set of distinct cards as a 64-bit mask: one 16-bit lane per suit, bit `rank` within the lane.
//!
//! This is the representation used on every hot path (hands, floors, piles, capture search).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// A set of distinct cards. Iterates in ascending bit order: clubs A→K, then diamonds, hearts,
/// spades. Serialises as a list of card codes; deserialising rejects a card listed twice.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

/// Every bit that is a card: ranks 1–13 in each of the four lanes.
const ALL_CARDS: u64 = 0x3FFE_3FFE_3FFE_3FFE;
const LANE: u64 = 0x3FFE;

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52 cards of a standard deck.
    pub const ALL: CardSet = CardSet(ALL_CARDS);

    /// The set with exactly these mask bits; bits that are not cards are dropped.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & ALL_CARDS)
    }

    /// The raw mask.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// A set of one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    /// All thirteen cards of a suit.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE << (16 * suit as u64))
    }

    /// The four cards of a rank.
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(0x0001_0001_0001_0001 << rank as u64)
    }

    /// Whether the set holds the card.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds a card; returns whether it was new.
    pub fn insert(&mut self, card: Card) -> bool {
        let was_new = !self.contains(card);
        self.0 |= 1 << card.index();
        was_new
    }

    /// Removes a card; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let was_there = self.contains(card);
        self.0 &= !(1 << card.index());
        was_there
    }

    /// How many cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether there are no cards.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every card of `self` is in `other`.
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share no card.
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The card with the lowest bit (clubs first, ace first within a suit).
    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The cards of this set with a higher bit than `card`.
    pub const fn above(self, card: Card) -> CardSet {
        CardSet(self.0 & !((2u64 << card.index()) - 1))
    }

    /// The cards in ascending bit order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards as a vector, in ascending bit order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }

    /// The cards of one suit in this set, as a 13-bit mask of ranks (bit `rank - 1`).
    pub const fn ranks_in(self, suit: Suit) -> u16 {
        ((self.0 >> (16 * suit as u64 + 1)) & 0x1FFF) as u16
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

/// Iterator over a [`CardSet`].
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl<'a> FromIterator<&'a Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = &'a Card>>(iter: I) -> CardSet {
        iter.into_iter().copied().collect()
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        CardSet::single(card)
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for CardSet {
            type Output = CardSet;
            fn $method(self, other: CardSet) -> CardSet {
                CardSet(self.0 $op other.0)
            }
        }
        impl $assign_trait for CardSet {
            fn $assign_method(&mut self, other: CardSet) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}

set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl BitXor for CardSet {
    type Output = CardSet;
    fn bitxor(self, other: CardSet) -> CardSet {
        CardSet(self.0 ^ other.0)
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, other: CardSet) {
        self.0 &= !other.0;
    }
}

/// The complement within the 52-card deck.
impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & ALL_CARDS)
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CardSet, D::Error> {
        struct SetVisitor;
        impl<'de> Visitor<'de> for SetVisitor {
            type Value = CardSet;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of distinct card codes such as [\"7D\", \"10C\"]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CardSet, A::Error> {
                let mut set = CardSet::EMPTY;
                while let Some(card) = seq.next_element::<Card>()? {
                    if !set.insert(card) {
                        return Err(serde::de::Error::custom(format_args!(
                            "card {card} is listed twice"
                        )));
                    }
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(SetVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn set(text: &str) -> CardSet {
        parse_cards(text).unwrap().into_iter().collect()
    }

    #[test]
    fn the_full_deck_has_52_cards_and_every_rank_and_suit_has_its_share() {
        assert_eq!(CardSet::ALL.len(), 52);
        for suit in Suit::ALL {
            assert_eq!(CardSet::suit(suit).len(), 13);
        }
        for rank in Rank::ALL {
            let four = CardSet::rank(rank);
            assert_eq!(four.len(), 4);
            assert!(four.iter().all(|card| card.rank() == rank));
        }
    }

    #[test]
    fn set_algebra_works_on_cards() {
        let a = set("5C 2D KH");
        let b = set("2D AS");
        assert_eq!(a | b, set("5C 2D KH AS"));
        assert_eq!(a & b, set("2D"));
        assert_eq!(a - b, set("5C KH"));
        assert_eq!((!a).len(), 49);
        assert!(set("2D").is_subset(a));
        assert!(a.is_disjoint(set("AS")));
        assert_eq!(a.first(), Some("5C".parse().unwrap()));
        assert_eq!(set("TC 7C").ranks_in(Suit::Clubs), (1 << 6) | (1 << 9));
    }

    #[test]
    fn iteration_is_clubs_first_ace_first() {
        assert_eq!(set("AS KC 2D AC").to_string(), "AC KC 2D AS");
    }

    #[test]
    fn serde_is_a_list_of_codes_and_rejects_duplicates() {
        let s = set("TC 7D");
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"["TC","7D"]"#);
        assert_eq!(
            serde_json::from_str::<CardSet>(r#"["7d","10C"]"#).unwrap(),
            s
        );
        let err = serde_json::from_str::<CardSet>(r#"["7D","7d"]"#).unwrap_err();
        assert!(err.to_string().contains("7D is listed twice"), "{err}");
        assert!(serde_json::from_str::<CardSet>(r#""7D""#).is_err());
    }
}
