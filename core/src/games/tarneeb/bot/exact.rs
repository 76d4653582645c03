//! `hard`: samples that also fit the auction, played greedily down to eight cards a hand and
//! solved exactly from there, each choice valued by the contract's expected score.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::double_dummy::{Position, Solver};
use crate::games::tarneeb::Phase;
use crate::games::tarneeb::auction::{Bid, Call, Denomination, score, strength};
use crate::games::tarneeb::config::Variant;
use crate::games::tarneeb::moves::TarneebMove;
use crate::games::tarneeb::view::TarneebView;
use crate::rng::CardRng;
use crate::seat::Seat;

use super::hand::{PARTNER_TRICKS, own_tricks, partner, team};
use super::sampled::{World, sample_deal, sample_world};

/// Samples per decision for `hard`.
const HARD_SAMPLES: usize = 24;
/// Cards a hand holds when `hard` stops playing greedily and solves the rest exactly.
const EXACT_EACH: usize = 8;
/// Deals tried for each of `hard`'s samples to find one the auction fits.
const AUCTION_TRIES: usize = 30;
/// Entries in `hard`'s double-dummy table, made afresh for each decision.
const HARD_TABLE: usize = 1 << 18;

/// What each other seat's calls say about its hand, read from the auction: the least and the
/// most it should be worth by [`own_tricks`] (with a partner's average added), scaled to the
/// cards it still holds.
#[derive(Clone, Copy, Debug)]
struct Reading {
    least: f64,
    most: f64,
}

/// The auction's readings of every seat but `me`'s (`None` for seats it says nothing about).
fn read_auction(view: &TarneebView, me: Seat) -> [Option<Reading>; 4] {
    let mut readings = [None; 4];
    let mut highest: Option<(Seat, u8)> = None;
    for record in &view.auction {
        let seat = record.seat;
        if seat == me || seat.index() > 3 {
            continue;
        }
        let reading = readings[seat.index()].get_or_insert(Reading {
            least: 0.0,
            most: 13.0,
        });
        match record.call {
            Call::Bid { tricks, .. } => {
                // A bidder expects its side to take `tricks`, its partner bringing an average.
                reading.least = reading.least.max(f64::from(tricks) - PARTNER_TRICKS - 1.0);
                highest = Some((seat, tricks));
            }
            Call::Pass => {
                // A pass over an opponent's bid (or into an empty auction) says the hand could
                // not bid one more; a pass over the partner's bid says nothing.
                let over = highest.map_or(6, |(_, t)| t);
                let partners_bid = highest.is_some_and(|(s, _)| s == partner(seat));
                if !partners_bid && over < 13 {
                    reading.most = reading.most.min(f64::from(over + 1) - PARTNER_TRICKS + 1.0);
                }
            }
        }
    }
    readings
}

/// Whether a dealt world agrees with the auction's readings (and the declarer holds four of
/// the trump it named), the hands' strength scaled to the cards still in them.
fn fits_auction(view: &TarneebView, readings: &[Option<Reading>; 4], hands: &[CardSet; 4]) -> bool {
    let declarer_trump = view.contract.zip(view.trump);
    (0..4).all(|i| {
        let hand = hands[i];
        let share = hand.len() as f64 / 13.0;
        let worth = own_tricks(hand);
        let fits = readings[i].is_none_or(|r| {
            worth >= r.least * share - 0.01 && worth <= r.most * share.max(0.5) + 0.01
        });
        let holds_trump = declarer_trump.is_none_or(|(contract, trump)| {
            contract.declarer.index() != i
                || view.seat.is_some_and(|me| me.index() == i)
                || (hand & CardSet::suit(trump)).len() as f64 >= (4.0 * share).floor()
        });
        fits && holds_trump
    })
}

/// A world for `hard`: [`sample_world`] (or, before the play, a fresh deal), redealt up to
/// [`AUCTION_TRIES`] times until the auction fits; the last try if none does.
fn hard_world(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    fresh: Option<Option<Suit>>,
    rng: &mut CardRng,
) -> Option<World> {
    let mut world = None;
    for _ in 0..AUCTION_TRIES {
        let w = match fresh {
            Some(trump) => sample_deal(view, me, trump, rng),
            None => sample_world(view, me, rng)?,
        };
        let fits = fits_auction(view, readings, &w.hands);
        world = Some(w);
        if fits {
            break;
        }
    }
    world
}

impl World {
    /// The solver's view of this world.
    pub(super) fn position(&self) -> Position {
        Position {
            hands: self.hands,
            trick: self.trick.iter().map(|p| (p.seat, p.card)).collect(),
            to_act: self.next,
            trump: self.trump,
        }
    }

    /// The tricks `side` ends the hand with: greedy play until every hand is down to
    /// [`EXACT_EACH`] cards at a trick's start, then exact play.
    fn solved_tricks(&mut self, side: usize, solver: &mut Solver) -> u8 {
        self.play_greedily_while(|w| {
            !w.trick.is_empty() || w.hands.iter().any(|h| h.len() > EXACT_EACH)
        });
        let left = self.hands[self.next.index()].len() as u8;
        let to_act = match solver.tricks(&self.position()) {
            Ok(tricks) if left > 0 => tricks,
            _ => 0,
        };
        let mine = if team(self.next) == side {
            to_act
        } else {
            left - to_act
        };
        self.tricks[side] + mine
    }
}

/// What a hand in which `side` takes `tricks` is worth to `side` under `contract`: its score
/// less the other side's.
fn contract_value(variant: Variant, contract: (Seat, Bid), side: usize, tricks: u8) -> i32 {
    let (declarer, bid) = contract;
    let declaring = team(declarer) == side;
    let taken = if declaring {
        tricks
    } else {
        13 - tricks.min(13)
    };
    let (made, set) = score(variant, bid, taken);
    if declaring { made - set } else { set - made }
}

pub(super) fn hard(view: &TarneebView, rng: &mut CardRng) -> Option<TarneebMove> {
    let me = view.seat?;
    let readings = read_auction(view, me);
    let mut solver = Solver::with_capacity(HARD_TABLE);
    match view.phase {
        Phase::Bidding => hard_bid(view, me, &readings, &mut solver, rng),
        Phase::Trump => {
            let contract = view.contract?;
            let values = Suit::ALL.map(|suit| {
                (0..HARD_SAMPLES)
                    .filter_map(|_| hard_world(view, me, &readings, Some(Some(suit)), rng))
                    .map(|mut world| {
                        let tricks = world.solved_tricks(team(me), &mut solver);
                        contract_value(
                            view.config.variant,
                            (contract.declarer, contract.bid),
                            team(me),
                            tricks,
                        )
                    })
                    .sum::<i32>()
            });
            Suit::ALL
                .into_iter()
                .zip(values)
                .max_by_key(|&(suit, value)| (value, suit as u8))
                .map(|(suit, _)| TarneebMove::Trump { suit })
        }
        Phase::Play => hard_play(view, me, &readings, &mut solver, rng),
    }
}

/// `hard`'s bid: for every denomination it could play in, the tricks its side takes over
/// sampled deals; then the legal bid with the best expected score, if that is positive.
fn hard_bid(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    solver: &mut Solver,
    rng: &mut CardRng,
) -> Option<TarneebMove> {
    if view.contract.is_some_and(|c| c.declarer == partner(me)) {
        return Some(TarneebMove::Pass {});
    }
    let options: Vec<Denomination> = match view.config.variant {
        Variant::Standard => Suit::ALL.into_iter().map(Denomination::Trump).collect(),
        Variant::Classic => Denomination::ALL.to_vec(),
    };
    let mut best: Option<(i32, TarneebMove)> = None;
    for denomination in options {
        let tricks: Vec<u8> = (0..HARD_SAMPLES)
            .filter_map(|_| hard_world(view, me, readings, Some(denomination.trump()), rng))
            .map(|mut world| world.solved_tricks(team(me), solver))
            .collect();
        let suit = match view.config.variant {
            Variant::Standard => None,
            Variant::Classic => Some(denomination),
        };
        for level in 7..=13 {
            let bid = Bid {
                tricks: level,
                suit,
            };
            if view.contract.is_some_and(|c| !bid.beats(c.bid)) {
                continue;
            }
            let value: i32 = tricks
                .iter()
                .map(|&t| contract_value(view.config.variant, (me, bid), team(me), t))
                .sum();
            if value > 0 && best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((
                    value,
                    TarneebMove::Bid {
                        tricks: level,
                        suit,
                    },
                ));
            }
        }
    }
    Some(best.map_or(TarneebMove::Pass {}, |(_, mv)| mv))
}

/// `hard`'s card: over sampled worlds, the card whose exact outcome scores best on average.
fn hard_play(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    solver: &mut Solver,
    rng: &mut CardRng,
) -> Option<TarneebMove> {
    let contract = view.contract?;
    let contract = (contract.declarer, contract.bid);
    let side = team(me);
    let legal: Vec<Card> = view
        .legal_moves
        .iter()
        .filter_map(|m| match m {
            TarneebMove::Play { card } => Some(*card),
            _ => None,
        })
        .collect();
    if legal.len() <= 1 {
        return legal.first().map(|&card| TarneebMove::Play { card });
    }
    let mut totals = vec![0i64; legal.len()];
    for _ in 0..HARD_SAMPLES {
        let Some(world) = hard_world(view, me, readings, None, rng) else {
            break;
        };
        if view.hand.len() <= EXACT_EACH {
            // Small enough to solve every card exactly from here.
            let Ok(values) = solver.card_tricks(&world.position()) else {
                continue;
            };
            for (i, &card) in legal.iter().enumerate() {
                if let Some(&(_, tricks)) = values.iter().find(|(c, _)| *c == card) {
                    let total = world.tricks[side] + tricks;
                    totals[i] +=
                        i64::from(contract_value(view.config.variant, contract, side, total));
                }
            }
        } else {
            for (i, &card) in legal.iter().enumerate() {
                let mut w = world.clone();
                w.play(card);
                let total = w.solved_tricks(side, solver);
                totals[i] += i64::from(contract_value(view.config.variant, contract, side, total));
            }
        }
    }
    legal
        .iter()
        .zip(&totals)
        .max_by_key(|&(c, t)| (*t, std::cmp::Reverse(strength(*c))))
        .map(|(&card, _)| TarneebMove::Play { card })
}
