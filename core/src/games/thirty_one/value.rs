//! Hand values (docs/rules.md#thirty-one-standard): ace 11, king, queen and jack 10, the others their pip value; a
//! hand is worth the largest total of the cards of one suit in it, at most 31 (ace and two
//! ten-point cards of one suit). As a house rule, three of a kind counts 30½.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// A hand's value in half points, so that 30½ is exact.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HandValue(u8);

impl HandValue {
    /// 31: the best hand, which ends the hand at once.
    pub const THIRTY_ONE: HandValue = HandValue(62);
    /// 30½: three of a kind, when the house rule is on.
    pub const THIRTY_AND_A_HALF: HandValue = HandValue(61);

    /// A whole number of points.
    pub const fn points(points: u8) -> HandValue {
        HandValue(points * 2)
    }

    /// The value in half points (30½ is 61).
    pub const fn half_points(self) -> u8 {
        self.0
    }
}

impl fmt::Display for HandValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}½", self.0 / 2)
        }
    }
}

/// A card's points in 31.
pub const fn card_points(card: Card) -> u8 {
    match card.rank() {
        Rank::Ace => 11,
        Rank::King | Rank::Queen | Rank::Jack => 10,
        other => other.number(),
    }
}

/// The value of a hand of any size (three cards, or four between a draw and a discard).
pub fn hand_value(hand: CardSet, three_of_a_kind: bool) -> HandValue {
    let best_suit = Suit::ALL
        .iter()
        .map(|&suit| {
            (hand & CardSet::suit(suit))
                .iter()
                .map(|c| u16::from(card_points(c)))
                .sum::<u16>()
        })
        .max()
        .unwrap_or(0);
    let plain = HandValue((best_suit.min(127) * 2) as u8);
    if three_of_a_kind && is_three_of_a_kind(hand) {
        plain.max(HandValue::THIRTY_AND_A_HALF)
    } else {
        plain
    }
}

fn is_three_of_a_kind(hand: CardSet) -> bool {
    hand.len() == 3
        && hand
            .first()
            .is_some_and(|c| hand.is_subset(CardSet::rank(c.rank())))
}

/// The best value after discarding one card of a four-card hand, never `keep`; and that card.
pub fn best_discard(
    hand: CardSet,
    keep: Option<Card>,
    three_of_a_kind: bool,
) -> Option<(Card, HandValue)> {
    hand.iter()
        .filter(|&c| Some(c) != keep)
        .map(|c| (c, hand_value(hand - CardSet::single(c), three_of_a_kind)))
        .max_by_key(|&(c, value)| {
            (
                value,
                std::cmp::Reverse(card_points(c)),
                std::cmp::Reverse(c),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn value(text: &str, three: bool) -> HandValue {
        hand_value(parse_cards(text).unwrap().into_iter().collect(), three)
    }

    #[test]
    fn the_rules_examples() {
        assert_eq!(value("AH KH QH", false), HandValue::points(31));
        assert_eq!(value("AS KS QH", false), HandValue::points(21));
        assert_eq!(value("7C 7D 7H", false), HandValue::points(7));
        assert_eq!(value("7C 7D 7H", true), HandValue::THIRTY_AND_A_HALF);
        assert_eq!(value("7C 7D 7H", true).to_string(), "30½");
    }

    #[test]
    fn three_suits_count_the_highest_single_card() {
        assert_eq!(value("2C 9D AH", false), HandValue::points(11));
        assert_eq!(value("2C 9D 5H", false), HandValue::points(9));
        assert_eq!(value("KC QD JH", false), HandValue::points(10));
    }

    #[test]
    fn aces_count_eleven_and_faces_ten() {
        assert_eq!(value("AC TC 2D", false), HandValue::points(21));
        assert_eq!(value("JS QS KS", false), HandValue::points(30));
        // Three aces are 11 without the house rule, 30½ with it.
        assert_eq!(value("AC AD AH", false), HandValue::points(11));
        assert_eq!(value("AC AD AH", true), HandValue::THIRTY_AND_A_HALF);
    }

    #[test]
    fn the_best_discard_keeps_the_strongest_suit() {
        let hand: CardSet = parse_cards("AH KH 2C QH").unwrap().into_iter().collect();
        let (card, v) = best_discard(hand, None, false).unwrap();
        assert_eq!(
            (card.to_string(), v),
            ("2C".to_owned(), HandValue::points(31))
        );
        let keep = Some("2C".parse().unwrap());
        let (card, _) = best_discard(hand, keep, false).unwrap();
        assert_ne!(card.to_string(), "2C");
    }
}
