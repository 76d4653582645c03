//! What a hand is worth: its tricks counted from honours and lengths, the bid that follows,
//! and the suit to name.

use crate::card::Suit;
use crate::cardset::CardSet;
use crate::seat::Seat;

use crate::games::tarneeb::auction::{Bid, Denomination, strength};
use crate::games::tarneeb::config::Variant;
use crate::games::tarneeb::moves::TarneebMove;
use crate::games::tarneeb::view::TarneebView;

pub(super) fn partner(seat: Seat) -> Seat {
    Seat::new((seat.number() + 2) % 4)
}

pub(super) fn team(seat: Seat) -> usize {
    seat.index() % 2
}

/// The tricks a hand should take by itself: honours by suit (an ace 1, a guarded king ¾, a
/// guarded queen ½, a jack ¼), plus one for every card beyond four in its longest suit.
pub(super) fn own_tricks(hand: CardSet) -> f64 {
    let mut tricks = 0.0;
    let mut longest = 0;
    for suit in Suit::ALL {
        let cards = hand & CardSet::suit(suit);
        let length = cards.len();
        longest = longest.max(length);
        for card in cards {
            tricks += match strength(card) {
                14 => 1.0,
                13 if length >= 2 => 0.75,
                12 if length >= 3 => 0.5,
                11 if length >= 4 => 0.25,
                _ => 0.0,
            };
        }
    }
    tricks + longest.saturating_sub(4) as f64
}

/// What a partner's hand brings on average.
pub(super) const PARTNER_TRICKS: f64 = 2.5;

/// The suit with the most cards, ties broken by the stronger honours.
pub(super) fn longest_suit(hand: CardSet) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| {
            let cards = hand & CardSet::suit(s);
            let honours: u32 = cards
                .iter()
                .map(|c| u32::from(strength(c).saturating_sub(10)))
                .sum();
            (cards.len(), honours, s as u8)
        })
        .unwrap_or(Suit::Spades)
}

/// A balanced hand with honours in at least three suits plays best without a trump.
fn suits_no_trump(hand: CardSet) -> bool {
    let lengths: Vec<usize> = Suit::ALL
        .iter()
        .map(|&s| (hand & CardSet::suit(s)).len())
        .collect();
    let stopped = Suit::ALL
        .iter()
        .filter(|&&s| (hand & CardSet::suit(s)).iter().any(|c| strength(c) >= 13))
        .count();
    lengths.iter().all(|&l| (2..=4).contains(&l)) && stopped >= 3
}

/// The lowest bid beating the auction's highest that the team's expected tricks support,
/// unless the partner holds the highest bid.
pub(super) fn bid_for(
    view: &TarneebView,
    team_tricks: f64,
    denomination: Denomination,
) -> TarneebMove {
    let me = view.seat;
    if let (Some(me), Some(contract)) = (me, view.contract)
        && contract.declarer == partner(me)
    {
        return TarneebMove::Pass {};
    }
    let most = team_tricks.floor().clamp(0.0, 13.0) as u8;
    let suit = match view.config.variant {
        Variant::Standard => None,
        Variant::Classic => Some(denomination),
    };
    (7..=most)
        .map(|tricks| Bid { tricks, suit })
        .find(|bid| view.contract.is_none_or(|c| bid.beats(c.bid)))
        .map(|bid| TarneebMove::Bid {
            tricks: bid.tricks,
            suit: bid.suit,
        })
        .unwrap_or(TarneebMove::Pass {})
}

pub(super) fn greedy_denomination(hand: CardSet) -> Denomination {
    if suits_no_trump(hand) {
        Denomination::NoTrump
    } else {
        Denomination::Trump(longest_suit(hand))
    }
}
