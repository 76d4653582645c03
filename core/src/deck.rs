//! The decks the games use, in canonical order.
//!
//! The canonical order (the order a shuffle starts from, see [`crate::rng`]) is clubs, diamonds,
//! hearts, spades, and within each suit ace, 2, …, 10, jack, queen, king.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// Which cards a game is played with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deck {
    /// The 52-card French deck.
    Standard52,
    /// 44 cards: the standard deck without queens and kings (Basra `classic44`).
    NoCourts44,
}

impl Deck {
    /// The cards in canonical order.
    pub fn canonical_order(self) -> Vec<Card> {
        Suit::ALL
            .iter()
            .flat_map(|&suit| Rank::ALL.iter().map(move |&rank| Card::new(rank, suit)))
            .filter(|card| self.cards().contains(*card))
            .collect()
    }

    /// The cards as a set.
    pub fn cards(self) -> CardSet {
        match self {
            Deck::Standard52 => CardSet::ALL,
            Deck::NoCourts44 => {
                CardSet::ALL - CardSet::rank(Rank::Queen) - CardSet::rank(Rank::King)
            }
        }
    }

    /// How many cards.
    pub fn size(self) -> usize {
        self.cards().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_order_starts_with_the_ace_of_clubs_and_ends_with_the_highest_spade() {
        let standard = Deck::Standard52.canonical_order();
        assert_eq!(standard.len(), 52);
        assert_eq!(standard[0].to_string(), "AC");
        assert_eq!(standard[12].to_string(), "KC");
        assert_eq!(standard[13].to_string(), "AD");
        assert_eq!(standard[51].to_string(), "KS");

        let short = Deck::NoCourts44.canonical_order();
        assert_eq!(short.len(), 44);
        assert_eq!(short[10].to_string(), "JC");
        assert_eq!(short[11].to_string(), "AD");
        assert_eq!(short[43].to_string(), "JS");
    }
}
