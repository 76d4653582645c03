//! Dealing the cards a viewer cannot see again, keeping what they know: a seat that showed
//! out of a suit holds none of it. The rules use it to redeal hidden cards, the computer
//! players to sample the hands they cannot see.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

/// Deals `pool` to `seats` with these `sizes`, never giving a seat a suit it showed out of;
/// `None` when the random choices ran into a dead end (try another order).
pub fn deal_respecting_voids(
    pool: &[Card],
    seats: &[Seat],
    sizes: &[usize],
    shown_out: &[Vec<Suit>],
) -> Option<Vec<CardSet>> {
    let can_take = |i: usize, card: Card| {
        shown_out
            .get(seats[i].index())
            .is_none_or(|voids| !voids.contains(&card.suit()))
    };
    // The most constrained cards first, in the given (random) order otherwise; each to the
    // eligible seat with the most room, like dealing round the table.
    let mut cards: Vec<Card> = pool.to_vec();
    cards.sort_by_key(|&c| (0..seats.len()).filter(|&i| can_take(i, c)).count());
    let mut hands = vec![CardSet::EMPTY; seats.len()];
    for card in cards {
        let room = |i: usize| sizes[i].saturating_sub(hands[i].len());
        let target = (0..seats.len())
            .filter(|&i| can_take(i, card) && room(i) > 0)
            .max_by_key(|&i| (room(i), std::cmp::Reverse(i)))?;
        hands[target].insert(card);
    }
    Some(hands)
}
