//! The card-by-card review of a finished Tarneeb hand (`double_dummy::review`): the time a
//! hand of thirteen cards a seat takes on one core, from a fresh solver, for seeded random
//! deals played out by random legal cards (a hand with many mistakes: every position differs
//! from the best line) and by best play (ties broken at random).
//!
//! `cargo bench -p cardroom-core --bench review [-- HANDS]` (default 40 hands a kind). Prints the
//! mean, median and slowest hand.
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::time::Instant;

use cardroom_core::double_dummy::{Position, Solver, review};
use cardroom_core::rng::{CardRng, Seed};
use cardroom_core::{Card, CardSet, Seat, Suit};

/// A seeded deal and the cards played from it: random legal cards, or only cards that keep
/// the side's count.
fn hand(
    rng: &mut CardRng,
    case: usize,
    best: bool,
) -> ([CardSet; 4], Seat, Option<Suit>, Vec<Card>) {
    let mut deck = CardSet::ALL.to_vec();
    rng.shuffle(&mut deck);
    let mut hands = [CardSet::EMPTY; 4];
    for (seat, hand) in hands.iter_mut().enumerate() {
        *hand = deck[seat * 13..(seat + 1) * 13].iter().copied().collect();
    }
    let trump = Suit::ALL.get(case % 5).copied();
    let leader = Seat::new((case % 4) as u8);
    let mut solver = Solver::new();
    let (mut left, mut trick, mut to_act) = (hands, Vec::new(), leader);
    let mut plays = Vec::new();
    while !left[to_act.index()].is_empty() {
        let position = Position {
            hands: left,
            trick: trick.clone(),
            to_act,
            trump,
        };
        let values = solver.card_tricks(&position).unwrap();
        let top = values.iter().map(|&(_, v)| v).max().unwrap();
        let choices: Vec<Card> = values
            .iter()
            .filter(|&&(_, v)| !best || v == top)
            .map(|&(c, _)| c)
            .collect();
        let card = choices[rng.below(choices.len() as u32) as usize];
        plays.push(card);
        left[to_act.index()].remove(card);
        trick.push((to_act, card));
        if trick.len() == 4 {
            let led = trick[0].1.suit();
            let strength = |c: Card| {
                let class = if Some(c.suit()) == trump {
                    2
                } else {
                    u8::from(c.suit() == led)
                };
                let rank = match c.rank().number() {
                    1 => 14,
                    n => n,
                };
                (class, rank)
            };
            to_act = trick.iter().max_by_key(|(_, c)| strength(*c)).unwrap().0;
            trick.clear();
        } else {
            to_act = to_act.next(4);
        }
    }
    (hands, leader, trump, plays)
}

fn main() {
    let hands: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(40);
    let mut rng = CardRng::new(&Seed::from_bytes([13; 32]), 0);
    for (name, best) in [("random legal play", false), ("best play", true)] {
        let mut times = Vec::new();
        for case in 0..hands {
            let (deal, leader, trump, plays) = hand(&mut rng, case, best);
            let started = Instant::now();
            let mut solver = Solver::new();
            let reviews = review(&mut solver, deal, leader, trump, &plays).unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(reviews.len(), 52);
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "review of a 13-card hand, {name} ({hands} hands): mean {mean:.0} ms, median {:.0} ms, slowest {:.0} ms",
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
}
