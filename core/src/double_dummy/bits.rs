//! Cards as the solver keeps them: each suit a mask of rank bits.

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// A rank as the solver keeps it: bit 0 is the two, bit 12 the ace.
pub(super) type Ranks = u16;

/// No trump, as a suit index.
pub(super) const NO_TRUMP: usize = 4;

/// A rank bit's card.
pub(super) fn card_of(suit: usize, bit: usize) -> Option<Card> {
    let number = if bit == 12 { 1 } else { bit as u8 + 2 };
    Some(Card::new(Rank::from_number(number)?, *Suit::ALL.get(suit)?))
}

/// A card's suit index and rank bit.
pub(super) fn bits_of(card: Card) -> (usize, Ranks) {
    let number = card.rank().number();
    let bit = if number == 1 { 12 } else { number - 2 };
    (card.suit() as usize, 1 << bit)
}

/// A hand's cards of every suit as rank masks.
pub(super) fn lanes(hand: CardSet) -> [Ranks; 4] {
    Suit::ALL.map(|suit| {
        let m = hand.ranks_in(suit);
        (m >> 1) | ((m & 1) << 12)
    })
}

/// The highest rank bit of a non-empty mask.
pub(super) fn top(mask: Ranks) -> Ranks {
    1 << (15 - mask.leading_zeros())
}

pub(super) fn same_side(a: usize, b: usize) -> bool {
    a % 2 == b % 2
}
