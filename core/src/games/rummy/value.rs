//! What the cards left in a hand count at the end of a hand, in each variant.

use crate::card::Card;
use crate::cardset::CardSet;

use super::config::{RummyConfig, Variant};

/// `standard`'s count of cards left: ace 1, two to ten their pip, faces 10.
pub fn standard_value(card: Card) -> i32 {
    i32::from(card.rank().number().min(10))
}

/// `classic`'s count of cards left: ace 1, two to ten their pip, jack 11, queen 12, king 13.
pub fn classic_value(card: Card) -> i32 {
    i32::from(card.rank().number())
}

/// Cards that count in a hand at the end (used by the computer players too).
pub fn hand_value(config: &RummyConfig, cards: CardSet) -> i32 {
    cards
        .iter()
        .map(|c| match config.variant {
            Variant::Standard => standard_value(c),
            Variant::Classic => classic_value(c),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_counts_per_variant() {
        let king: Card = "KH".parse().unwrap();
        let ace: Card = "AH".parse().unwrap();
        assert_eq!(standard_value(king), 10);
        assert_eq!(classic_value(king), 13);
        assert_eq!(standard_value(ace), 1);
        assert_eq!(classic_value(ace), 1);
        assert_eq!(classic_value("JC".parse().unwrap()), 11);
    }
}
