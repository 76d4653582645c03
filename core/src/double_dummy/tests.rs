//! The solver against brute force, against its own exact (partition-free) mode, and on
//! positions whose answers are known.

use super::*;
use crate::card::Suit;
use crate::cardset::CardSet;
use crate::rng::{CardRng, Seed};
use crate::seat::Seat;

/// The seat that wins a full trick: the highest trump, else the highest card of the suit led.
fn winner(trick: &[(Seat, Card)], trump: Option<Suit>) -> Seat {
    let led = trick[0].1.suit();
    let strength = |c: Card| match c.rank().number() {
        1 => 14,
        n => n,
    };
    trick
        .iter()
        .max_by_key(|(_, c)| {
            let class = if Some(c.suit()) == trump {
                2
            } else {
                u8::from(c.suit() == led)
            };
            (class, strength(*c))
        })
        .unwrap()
        .0
}

fn cards(text: &str) -> CardSet {
    crate::card::parse_cards(text)
        .unwrap()
        .into_iter()
        .collect()
}

/// The cards of `hand` that follow suit to `trick`, or all of them.
fn playable(hand: CardSet, trick: &[(Seat, Card)]) -> CardSet {
    match trick.first() {
        Some(&(_, lead)) => {
            let follow = hand & CardSet::suit(lead.suit());
            if follow.is_empty() { hand } else { follow }
        }
        None => hand,
    }
}

/// Plain minimax over every card: no table, no pruning, no equivalences, no quick tricks.
fn minimax(
    hands: &mut [CardSet; 4],
    trick: &mut Vec<(Seat, Card)>,
    to_act: Seat,
    trump: Option<Suit>,
) -> u8 {
    // Tricks for seats 0 and 2 from here.
    let hand = hands[to_act.index()];
    if hand.is_empty() {
        return 0;
    }
    let playable = playable(hand, trick);
    let maximizing = to_act.index().is_multiple_of(2);
    let mut best: Option<u8> = None;
    for card in playable {
        hands[to_act.index()].remove(card);
        trick.push((to_act, card));
        let value = if trick.len() == 4 {
            let done = std::mem::take(trick);
            let winner = winner(&done, trump);
            let v =
                u8::from(winner.index().is_multiple_of(2)) + minimax(hands, trick, winner, trump);
            *trick = done;
            v
        } else {
            minimax(hands, trick, to_act.next(4), trump)
        };
        trick.pop();
        hands[to_act.index()].insert(card);
        best = Some(match best {
            None => value,
            Some(b) if maximizing => b.max(value),
            Some(b) => b.min(value),
        });
    }
    best.unwrap_or(0)
}

fn random_position(rng: &mut CardRng, each: usize, in_trick: usize, case: usize) -> Position {
    let mut deck = CardSet::ALL.to_vec();
    rng.shuffle(&mut deck);
    let mut deck = deck.into_iter();
    let leader = Seat::new((case % 4) as u8);
    let mut hands = [CardSet::EMPTY; 4];
    for hand in &mut hands {
        *hand = deck.by_ref().take(each).collect();
    }
    // Play `in_trick` legal cards (the first of each hand's playable cards).
    let mut trick = Vec::new();
    let mut seat = leader;
    for _ in 0..in_trick {
        let hand = hands[seat.index()];
        let playable = match trick.first() {
            Some(&(_, lead)) => {
                let follow = hand & CardSet::suit(Card::suit(lead));
                if follow.is_empty() { hand } else { follow }
            }
            None => hand,
        };
        let card = playable.to_vec()[case % playable.len()];
        hands[seat.index()].remove(card);
        trick.push((seat, card));
        seat = seat.next(4);
    }
    let trump = match case % 5 {
        4 => None,
        s => Some(Suit::ALL[s]),
    };
    Position {
        hands,
        trick,
        to_act: seat,
        trump,
    }
}

/// Plain alpha-beta over every card (no table, no equivalences, no quick tricks): the same
/// value as [`minimax`], fast enough for endings of five and six cards a hand.
fn alpha_beta(
    hands: &mut [CardSet; 4],
    trick: &mut Vec<(Seat, Card)>,
    to_act: Seat,
    trump: Option<Suit>,
    (mut alpha, mut beta): (u8, u8),
) -> u8 {
    let hand = hands[to_act.index()];
    if hand.is_empty() {
        return 0;
    }
    let playable = playable(hand, trick);
    let maximizing = to_act.index().is_multiple_of(2);
    let mut best = if maximizing { 0 } else { u8::MAX };
    for card in playable {
        hands[to_act.index()].remove(card);
        trick.push((to_act, card));
        let value = if trick.len() == 4 {
            let done = std::mem::take(trick);
            let w = winner(&done, trump);
            let won = u8::from(w.index().is_multiple_of(2));
            let window = (alpha.saturating_sub(won), beta.saturating_sub(won));
            let v = won + alpha_beta(hands, trick, w, trump, window);
            *trick = done;
            v
        } else {
            alpha_beta(hands, trick, to_act.next(4), trump, (alpha, beta))
        };
        trick.pop();
        hands[to_act.index()].insert(card);
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(value);
        } else {
            best = best.min(value);
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Endings of five and six cards a hand, mostly with trumps: long enough for the bounds at a
/// trick's start (cashing, crossing to partner by a high card or a ruff, sure trumps) to
/// decide searches, each checked against plain alpha-beta.
#[test]
fn agrees_with_plain_alpha_beta_on_longer_endings() {
    let mut rng = CardRng::new(&Seed::from_bytes([5; 32]), 0);
    let mut solver = Solver::with_capacity(100_000);
    for case in 0..4000 {
        let each = 5 + usize::from(case % 8 == 0);
        let position = random_position(&mut rng, each, 0, case);
        let mut hands = position.hands;
        let ns = alpha_beta(
            &mut hands,
            &mut Vec::new(),
            position.to_act,
            position.trump,
            (0, each as u8 + 1),
        );
        let expected = if position.to_act.index().is_multiple_of(2) {
            ns
        } else {
            each as u8 - ns
        };
        assert_eq!(
            solver.tricks(&position),
            Ok(expected),
            "case {case}: {position:?}"
        );
    }
}

#[test]
fn agrees_with_plain_minimax_on_random_endings_mid_trick_too() {
    let mut rng = CardRng::new(&Seed::from_bytes([31; 32]), 0);
    let mut solver = Solver::with_capacity(10_000);
    for case in 0..600 {
        let each = 1 + case % 4;
        let in_trick = (case / 4) % 4;
        let position = random_position(&mut rng, each, in_trick, case);
        let mut hands = position.hands;
        let mut trick = position.trick.clone();
        let ns = minimax(&mut hands, &mut trick, position.to_act, position.trump);
        let left = position.hands[position.to_act.index()].len() as u8;
        let expected = if position.to_act.index().is_multiple_of(2) {
            ns
        } else {
            left - ns
        };
        assert_eq!(
            solver.tricks(&position),
            Ok(expected),
            "case {case}: {position:?}"
        );
        // Every card's value, and the best of them is the position's.
        let values = solver.card_tricks(&position).unwrap();
        let best = values.iter().map(|&(_, t)| t).max();
        assert_eq!(best, Some(expected), "case {case}");
        for &(card, tricks) in &values {
            let mut after = position.hands;
            after[position.to_act.index()].remove(card);
            let mut trick = position.trick.clone();
            trick.push((position.to_act, card));
            let (next, won) = if trick.len() == 4 {
                let w = winner(&trick, position.trump);
                trick.clear();
                (w, u8::from(w.index().is_multiple_of(2)))
            } else {
                (position.to_act.next(4), 0)
            };
            let ns_after = won + minimax(&mut after, &mut trick, next, position.trump);
            let mine = if position.to_act.index().is_multiple_of(2) {
                ns_after
            } else {
                left - ns_after
            };
            assert_eq!(tricks, mine, "case {case}: {card}");
        }
    }
}

#[test]
fn partitions_agree_with_exact_positions() {
    let mut rng = CardRng::new(&Seed::from_bytes([7; 32]), 0);
    let mut partitioned = Solver::new();
    let mut exact = Solver::new();
    exact.exact = true;
    for case in 0..3000 {
        let each = 5 + case % 3;
        let position = random_position(&mut rng, each, 0, case);
        let a = partitioned.tricks(&position);
        let b = exact.tricks(&position);
        assert_eq!(a, b, "case {case}: {position:?}");
    }
}

#[test]
fn a_group_of_equivalent_cards_is_kept_whole_in_what_it_proves() {
    // In the first position West's JC and 9C touch, so they are one move; playing either
    // under the ace, North-South cannot take three tricks, and the result rests on the
    // AC and JC being where they are. In the second, North's TC lies between them: West
    // can unblock the jack, and North-South take three. A table entry from the first must
    // not answer for the second.
    let first = Position {
        hands: [
            cards("2C 4C JD 9S"),
            cards("AC 7C 6C 8D"),
            cards("JC 9C KD 7D"),
            cards("QD TD TS 8S"),
        ],
        trick: Vec::new(),
        to_act: Seat::new(1),
        trump: None,
    };
    let second = Position {
        hands: [
            cards("4C TC 3D QS"),
            cards("AC 6C 7C 8D"),
            cards("9C JC 7D KD"),
            cards("TD QD 8S TS"),
        ],
        ..first.clone()
    };
    let mut solver = Solver::new();
    assert_eq!(solver.tricks(&first), Ok(2));
    assert_eq!(solver.tricks(&second), Ok(1));
}

#[test]
fn a_known_deal() {
    // Each side holds two solid suits; whoever leads cashes theirs, and the other side
    // takes the rest.
    let position = Position {
        hands: [
            cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
            cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"),
            cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
            cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
        ],
        trick: Vec::new(),
        to_act: Seat::new(0),
        trump: None,
    };
    let mut solver = Solver::new();
    assert_eq!(solver.tricks(&position), Ok(13));
    let spades = Position {
        trump: Some(Suit::Hearts),
        ..position.clone()
    };
    // Hearts are trumps: seat 1 ruffs the first spade and runs the hearts.
    assert_eq!(solver.tricks(&spades), Ok(0));
}

#[test]
fn inconsistent_positions_are_refused() {
    let mut solver = Solver::new();
    let twice = Position {
        hands: [cards("AS"), cards("AS"), cards("KS"), cards("QS")],
        trick: Vec::new(),
        to_act: Seat::new(0),
        trump: None,
    };
    assert_eq!(solver.tricks(&twice), Err(PositionError::CardTwice));
    let sizes = Position {
        hands: [cards("AS 2S"), cards("3S"), cards("KS"), cards("QS")],
        ..twice.clone()
    };
    assert_eq!(solver.tricks(&sizes), Err(PositionError::HandSizes));
    let order = Position {
        hands: [cards("AS"), cards("3S"), cards("KS"), cards("QS")],
        trick: vec![(Seat::new(2), cards("JS").first().unwrap())],
        to_act: Seat::new(0),
        trump: None,
    };
    assert_eq!(solver.tricks(&order), Err(PositionError::TrickOrder));
    let empty = Position {
        hands: [CardSet::EMPTY; 4],
        ..twice
    };
    assert_eq!(solver.tricks(&empty), Err(PositionError::HandSizes));
}

/// A hand's moves are its runs of cards with no other card still out (or on the table) in
/// between, as a walk over every card of the suit from the highest finds them; the move of any
/// card it may play is the run holding it, and a card it may not play has none.
#[test]
fn moves_are_the_runs_a_walk_over_every_card_finds() {
    use super::bits::{Ranks, top};
    use super::moves::Candidates;
    use super::state::State;
    let mut rng = CardRng::new(&Seed::from_bytes([7; 32]), 0);
    for case in 0..2_000 {
        let each = 1 + case % 13;
        let in_trick = (case / 13) % 4;
        let position = random_position(&mut rng, each, in_trick, case);
        let state = State::of(&position).expect("a consistent position");
        let seat = position.to_act.index();
        let hand = state.hands[seat];
        let following = state.count > 0 && hand[state.lead_suit] != 0;
        let mut walked: Vec<(usize, Ranks)> = Vec::new();
        for (suit, &mine) in hand.iter().enumerate() {
            if mine == 0 || (following && suit != state.lead_suit) {
                continue;
            }
            let mut cards = state.rest[suit] | state.on_table[suit];
            let mut group: Ranks = 0;
            while cards != 0 {
                let card = top(cards);
                cards &= !card;
                if mine & card != 0 {
                    group |= card;
                } else if group != 0 {
                    walked.push((suit, group));
                    group = 0;
                }
            }
            if group != 0 {
                walked.push((suit, group));
            }
        }
        let mut listed = Candidates::default();
        state.candidates(seat, &mut listed);
        let mut found: Vec<(usize, Ranks)> =
            listed.list().iter().map(|c| (c.suit, c.group)).collect();
        for candidate in listed.list() {
            assert_eq!(
                candidate.low,
                candidate.group & candidate.group.wrapping_neg()
            );
        }
        found.sort_unstable();
        walked.sort_unstable();
        assert_eq!(found, walked, "case {case}");
        for (suit, &mine) in hand.iter().enumerate() {
            for bit in 0..13 {
                let rank: Ranks = 1 << bit;
                if mine & rank == 0 {
                    continue;
                }
                let run = walked.iter().find(|&&(s, g)| s == suit && g & rank != 0);
                let of = state
                    .candidate_of(seat, suit, rank)
                    .map(|c| (c.suit, c.group));
                assert_eq!(of, run.copied(), "case {case}, suit {suit}, bit {bit}");
            }
        }
    }
}
