//! `greedy`, the original design: plays the lowest card that wins the trick, or else the lowest
//! card, and never overtakes its partner's winning card.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::games::tarneeb::Phase;
use crate::games::tarneeb::auction::{PlayedCard, playable, strength, trick_winner};
use crate::games::tarneeb::moves::TarneebMove;
use crate::games::tarneeb::view::TarneebView;
use crate::seat::Seat;

use super::hand::{
    PARTNER_TRICKS, bid_for, greedy_denomination, longest_suit, own_tricks, partner,
};

pub(super) fn greedy(view: &TarneebView) -> Option<TarneebMove> {
    let me = view.seat?;
    match view.phase {
        Phase::Bidding => Some(bid_for(
            view,
            own_tricks(view.hand) + PARTNER_TRICKS,
            greedy_denomination(view.hand),
        )),
        Phase::Trump => Some(TarneebMove::Trump {
            suit: longest_suit(view.hand),
        }),
        Phase::Play => greedy_card(view.hand, &view.trick, view.trump, me, view.played)
            .map(|card| TarneebMove::Play { card }),
    }
}

/// The lowest card by strength, keeping trumps when another card will do.
pub(super) fn lowest(cards: CardSet, trump: Option<Suit>) -> Option<Card> {
    cards
        .iter()
        .min_by_key(|&c| (Some(c.suit()) == trump, strength(c), c.suit() as u8))
}

/// Whether no unplayed card outranks `card` in its suit, outside `hand`.
fn is_master(card: Card, hand: CardSet, played: CardSet) -> bool {
    (CardSet::suit(card.suit()) - hand - played)
        .iter()
        .all(|other| strength(other) < strength(card))
}

/// The original design's card play.
pub(super) fn greedy_card(
    hand: CardSet,
    trick: &[PlayedCard],
    trump: Option<Suit>,
    me: Seat,
    played: CardSet,
) -> Option<Card> {
    let legal = playable(hand, trick);
    if trick.is_empty() {
        // Leading: the lowest card that wins (a master), otherwise the lowest card.
        let masters: CardSet = legal
            .iter()
            .filter(|&c| Some(c.suit()) != trump && is_master(c, hand, played))
            .collect();
        return lowest(masters, trump).or_else(|| lowest(legal, trump));
    }
    let winning = trick_winner(trick, trump)?;
    if winning.seat == partner(me) {
        return lowest(legal, trump);
    }
    let winners: CardSet = legal
        .iter()
        .filter(|&card| {
            let mut with = trick.to_vec();
            with.push(PlayedCard { seat: me, card });
            trick_winner(&with, trump).is_some_and(|w| w.seat == me)
        })
        .collect();
    winners
        .iter()
        .min_by_key(|&c| (Some(c.suit()) == trump, strength(c)))
        .or_else(|| lowest(legal, trump))
}
