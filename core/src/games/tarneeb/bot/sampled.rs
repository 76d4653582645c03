//! `strong` (also `medium`): the unseen cards dealt at random, consistently with the play, and
//! every choice played out with `greedy` at all four seats.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::games::tarneeb::Phase;
use crate::games::tarneeb::auction::{Denomination, PlayedCard, strength, trick_winner};
use crate::games::tarneeb::config::Variant;
use crate::games::tarneeb::hidden::deal_respecting_voids;
use crate::games::tarneeb::moves::TarneebMove;
use crate::games::tarneeb::view::TarneebView;
use crate::rng::CardRng;
use crate::seat::Seat;

use super::greedy::greedy_card;
use super::hand::{bid_for, team};

/// One sampled world: every hand known.
#[derive(Clone, Debug)]
pub(super) struct World {
    pub(super) hands: [CardSet; 4],
    pub(super) trick: Vec<PlayedCard>,
    pub(super) trump: Option<Suit>,
    pub(super) next: Seat,
    pub(super) played: CardSet,
    pub(super) tricks: [u8; 2],
}

impl World {
    /// Plays `card` for the seat to act, finishing the trick when it is full.
    pub(super) fn play(&mut self, card: Card) {
        let seat = self.next;
        self.hands[seat.index()].remove(card);
        self.trick.push(PlayedCard { seat, card });
        if self.trick.len() == 4 {
            if let Some(winner) = trick_winner(&self.trick, self.trump) {
                self.tricks[team(winner.seat)] += 1;
                self.next = winner.seat;
            }
            for p in self.trick.drain(..) {
                self.played.insert(p.card);
            }
        } else {
            self.next = seat.next(4);
        }
    }

    /// Plays the hand out with `greedy` at every seat.
    fn play_out(&mut self) {
        self.play_greedily_while(|w| w.hands.iter().any(|h| !h.is_empty()));
    }

    /// Plays `greedy` at every seat for as long as `going` holds (and a seat has a card).
    pub(super) fn play_greedily_while(&mut self, going: impl Fn(&World) -> bool) {
        while going(self) {
            let seat = self.next;
            let Some(card) = greedy_card(
                self.hands[seat.index()],
                &self.trick,
                self.trump,
                seat,
                self.played,
            ) else {
                return;
            };
            self.play(card);
        }
    }
}

/// A world consistent with the view: the unseen cards dealt among the other three seats.
pub(super) fn sample_world(view: &TarneebView, me: Seat, rng: &mut CardRng) -> Option<World> {
    let in_trick: CardSet = view.trick.iter().map(|p| p.card).collect();
    let unseen = CardSet::ALL - view.hand - view.played - in_trick;
    let others: Vec<Seat> = Seat::all(4).filter(|&s| s != me).collect();
    let sizes: Vec<usize> = others
        .iter()
        .map(|s| usize::from(view.hand_sizes.get(s.index()).copied().unwrap_or(0)))
        .collect();
    let mut pool = unseen.to_vec();
    let mut dealt = None;
    for _ in 0..20 {
        rng.shuffle(&mut pool);
        dealt = deal_respecting_voids(&pool, &others, &sizes, &view.shown_out);
        if dealt.is_some() {
            break;
        }
    }
    let dealt = dealt.or_else(|| deal_respecting_voids(&pool, &others, &sizes, &[]))?;
    let mut hands = [CardSet::EMPTY; 4];
    hands[me.index()] = view.hand;
    for (seat, hand) in others.iter().zip(dealt) {
        hands[seat.index()] = hand;
    }
    let next = view.to_act.unwrap_or(me);
    let tricks = [
        view.tricks_won.first().copied().unwrap_or(0),
        view.tricks_won.get(1).copied().unwrap_or(0),
    ];
    Some(World {
        hands,
        trick: view.trick.clone(),
        trump: view.trump,
        next,
        played: view.played,
        tricks,
    })
}

/// A fresh deal's world for bidding: the other 39 cards dealt at random, the bidder's partner
/// to lead (an average of who will).
pub(super) fn sample_deal(
    view: &TarneebView,
    me: Seat,
    trump: Option<Suit>,
    rng: &mut CardRng,
) -> World {
    let mut pool = (CardSet::ALL - view.hand).to_vec();
    rng.shuffle(&mut pool);
    let mut hands = [CardSet::EMPTY; 4];
    hands[me.index()] = view.hand;
    let mut rest = pool.into_iter();
    for seat in Seat::all(4).filter(|&s| s != me) {
        hands[seat.index()] = rest.by_ref().take(13).collect();
    }
    World {
        hands,
        trick: Vec::new(),
        trump,
        next: me,
        played: CardSet::EMPTY,
        tricks: [0, 0],
    }
}

/// The average tricks `me`'s team takes with `trump` over sampled deals.
fn simulated_tricks(
    view: &TarneebView,
    me: Seat,
    trump: Option<Suit>,
    samples: usize,
    rng: &mut CardRng,
) -> f64 {
    let total: u32 = (0..samples)
        .map(|_| {
            let mut world = sample_deal(view, me, trump, rng);
            world.play_out();
            u32::from(world.tricks[team(me)])
        })
        .sum();
    f64::from(total) / samples.max(1) as f64
}

/// Perfect-information Monte Carlo with greedy playouts: `samples` consistent worlds.
pub(super) fn strong(view: &TarneebView, rng: &mut CardRng, samples: usize) -> Option<TarneebMove> {
    let me = view.seat?;
    match view.phase {
        Phase::Bidding => {
            let options: Vec<Denomination> = match view.config.variant {
                Variant::Standard => Suit::ALL.into_iter().map(Denomination::Trump).collect(),
                Variant::Classic => Denomination::ALL.to_vec(),
            };
            let (denomination, tricks) = options
                .into_iter()
                .map(|d| (d, simulated_tricks(view, me, d.trump(), samples, rng)))
                .max_by(|a, b| a.1.total_cmp(&b.1))?;
            // The playouts are greedy and the partner's hand random: shade the estimate.
            Some(bid_for(view, tricks - 0.5, denomination))
        }
        Phase::Trump => Suit::ALL
            .into_iter()
            .map(|s| (s, simulated_tricks(view, me, Some(s), samples, rng)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(suit, _)| TarneebMove::Trump { suit }),
        Phase::Play => {
            let legal: Vec<Card> = view
                .legal_moves
                .iter()
                .filter_map(|m| match m {
                    TarneebMove::Play { card } => Some(*card),
                    _ => None,
                })
                .collect();
            if legal.len() == 1 {
                return legal.first().map(|&card| TarneebMove::Play { card });
            }
            let mut totals = vec![0u32; legal.len()];
            for _ in 0..samples {
                let Some(world) = sample_world(view, me, rng) else {
                    break;
                };
                for (i, &card) in legal.iter().enumerate() {
                    let mut w = world.clone();
                    w.play(card);
                    w.play_out();
                    totals[i] += u32::from(w.tricks[team(me)]);
                }
            }
            legal
                .iter()
                .zip(&totals)
                .max_by_key(|&(c, t)| (*t, std::cmp::Reverse(strength(*c))))
                .map(|(&card, _)| TarneebMove::Play { card })
        }
    }
}
