//! Rummy: seat 0 to act; what is not named is in the face-up pile, under its top, so few cards
//! are hidden: the other hands and a short stock. In `standard` every seat melded in an earlier
//! turn (the melds on the table account for the cards gone from the hands), so going out is
//! never a doubled "rummy", and the hidden cards are all worth 10: going out scores exactly what
//! the other hands hold.

use super::{Case, list, set};
use crate::any::{AnyGame, AnyMove};
use crate::cardset::CardSet;
use crate::game::Game;
use crate::games::rummy::{Rummy, RummyMove, RummyPosition};
use crate::options::Options;
use crate::rng::Seed;
use crate::seat::Seat;

struct Hand {
    variant: &'static str,
    hands: Vec<&'static str>,
    stock: &'static str,
    top: &'static str,
    melds: Vec<&'static str>,
    /// Seat 0 draws from the stock first (`standard`), and the decision is what follows.
    draw_first: bool,
}

fn rummy(hand: &Hand, seed: u8) -> AnyGame {
    let seats = hand.hands.len();
    let config = Rummy::configure(Some(hand.variant), seats, &Options::new()).expect("config");
    let classic = hand.variant == "classic";
    let hands: Vec<CardSet> = hand.hands.iter().map(|h| set(h)).collect();
    let stock = list(hand.stock);
    let top = list(hand.top);
    let melds: Vec<CardSet> = hand.melds.iter().map(|m| set(m)).collect();
    let named = hands
        .iter()
        .chain(&melds)
        .fold(CardSet::EMPTY, |a, h| a | *h)
        | stock.iter().chain(&top).copied().collect::<CardSet>();
    let mut discards = (CardSet::ALL - named).to_vec();
    discards.extend(top);
    let position = RummyPosition {
        dealer: Seat::new(seats as u8 - 1),
        to_act: Seat::new(0),
        hands,
        stock,
        discards,
        melds,
        totals: Vec::new(),
        melded_before: if classic {
            Vec::new()
        } else {
            vec![true; seats]
        },
        // (`classic`: round 2, which seat 0 begins.)
        hand_number: if classic { 2 } else { 1 },
        turned_over: true,
    };
    let mut game =
        Rummy::from_position(config, position, Seed::from_bytes([seed; 32])).expect("position");
    if hand.draw_first {
        game.play(Seat::new(0), &RummyMove::DrawStock {})
            .expect("draw");
    }
    AnyGame::Rummy(game)
}

fn meld(cards: &str) -> AnyMove {
    AnyMove::Rummy(RummyMove::Meld { cards: set(cards) })
}

fn rummy_discard(card: &str) -> AnyMove {
    AnyMove::Rummy(RummyMove::Discard {
        card: list(card)[0],
    })
}

/// The lay-off of `card` onto the table's only meld.
fn lay_off(card: &str) -> AnyMove {
    AnyMove::Rummy(RummyMove::LayOff {
        meld: 0,
        cards: set(card),
    })
}

macro_rules! rummy_case {
    ($name:expr, $hand:expr, $best:expr, $worst:expr) => {
        Case {
            name: $name,
            game: |s| rummy(&$hand, s),
            best: $best,
            worst: $worst,
        }
    };
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        rummy_case!(
            "rummy: melding to go out, not breaking the run",
            Hand {
                variant: "standard",
                hands: vec!["7H 8H 9H", "TS JC"],
                stock: "KC QS TD JS",
                top: "AS",
                melds: vec!["2D 3D 4D", "6C 6S 6D"],
                draw_first: true,
            },
            meld("7H 8H 9H"),
            rummy_discard("8H")
        ),
        rummy_case!(
            "rummy: laying off the 8 to go out, not holding it",
            Hand {
                variant: "standard",
                hands: vec!["8S", "TC JH"],
                stock: "KD QC TH JD",
                top: "AH",
                melds: vec!["5S 6S 7S", "2C 3C 4C", "9D 9H 9C"],
                draw_first: true,
            },
            lay_off("8S"),
            rummy_discard("8S")
        ),
        rummy_case!(
            "rummy: a set of fives to go out, not a five thrown away",
            Hand {
                variant: "standard",
                hands: vec!["5C 5D 5H", "TD JC"],
                stock: "JS QH KC TS",
                top: "4H",
                melds: vec!["6D 7D 8D", "2S 2H 2C"],
                draw_first: true,
            },
            meld("5C 5D 5H"),
            rummy_discard("5D")
        ),
        rummy_case!(
            "rummy: a set of three kings to go out, at three players",
            Hand {
                variant: "standard",
                hands: vec!["KC KD KH", "TS JD", "TC JS"],
                stock: "QC TH JH QS",
                top: "5S",
                melds: vec!["2D 3D 4D", "6H 7H 8H", "9C 9S 9D"],
                draw_first: true,
            },
            meld("KC KD KH"),
            rummy_discard("KC")
        ),
        rummy_case!(
            "rummy: laying off a queen on a run of hearts",
            Hand {
                variant: "standard",
                hands: vec!["QH", "TC JS"],
                stock: "KD QS TD JC",
                top: "2S",
                melds: vec!["9H TH JH", "3C 4C 5C", "6D 6S 6C"],
                draw_first: true,
            },
            lay_off("QH"),
            rummy_discard("QH")
        ),
        rummy_case!(
            "classic: melding the whole hand ends the round",
            Hand {
                variant: "classic",
                hands: vec!["7H 8H 9H", "KC QD"],
                stock: "2C 3D 4S 5C",
                top: "JS",
                melds: vec![],
                draw_first: false,
            },
            meld("7H 8H 9H"),
            AnyMove::Rummy(RummyMove::TakeDiscard {
                drop: Some(list("8H")[0]),
            })
        ),
        rummy_case!(
            "classic: laying off the last card ends the round",
            Hand {
                variant: "classic",
                hands: vec!["4S", "KH QC"],
                stock: "2D 3C AH 5D",
                top: "JD",
                melds: vec!["5S 6S 7S"],
                draw_first: false,
            },
            lay_off("4S"),
            AnyMove::Rummy(RummyMove::TakeDiscard {
                drop: Some(list("4S")[0]),
            })
        ),
        rummy_case!(
            "classic: a set of aces to go out rather than swap one away",
            Hand {
                variant: "classic",
                hands: vec!["AC AD AH", "KS QH"],
                stock: "2S 3H 4C 5H",
                top: "JC",
                melds: vec![],
                draw_first: false,
            },
            meld("AC AD AH"),
            AnyMove::Rummy(RummyMove::TakeDiscard {
                drop: Some(list("AC")[0]),
            })
        ),
        rummy_case!(
            "classic: a run with the ace high to go out",
            Hand {
                variant: "classic",
                hands: vec!["QD KD AD", "JH TC"],
                stock: "2H 3S 4D 5S",
                top: "9C",
                melds: vec![],
                draw_first: false,
            },
            meld("QD KD AD"),
            AnyMove::Rummy(RummyMove::TakeDiscard {
                drop: Some(list("KD")[0]),
            })
        ),
    ]
}

/// A hand of three sets and a card to throw: melding any set first goes out the same turn, so
/// none of those melds loses anything, whichever the others would have chosen and whatever the
/// playouts do next. (A game's analysis once called melding the tens first a blunder against
/// melding the queens first: the seat's own rest of the turn was played by the `easy` player,
/// which throws a random card one move in four, and the best of eighteen noisy estimates is
/// chosen on the very deals that measure its lead.)
#[test]
fn every_meld_that_goes_out_as_well_as_another_is_good() {
    let hand = Hand {
        variant: "standard",
        hands: vec![
            "KS KH KD QS QH QD TS TH TD TC",
            "JS JH JD JC 9S 9H 9D 7S 7H 7D",
        ],
        stock: "2C 3H 4S 5D",
        top: "5C",
        melds: vec![],
        draw_first: true,
    };
    for seed in [1, 2, 3] {
        let game = rummy(&hand, seed);
        let AnyGame::Rummy(rummy_game) = &game else {
            unreachable!("a Rummy position")
        };
        let melds: Vec<RummyMove> = rummy_game
            .legal_moves(Seat::new(0))
            .into_iter()
            .filter(|m| matches!(m, RummyMove::Meld { .. }))
            .collect();
        assert!(melds.len() >= 5, "{melds:?}");
        for mv in melds {
            let decision =
                super::super::sampled::judge(&game, 1, Seat::new(0), &AnyMove::Rummy(mv.clone()))
                    .expect("a judgement")
                    .expect("a decision");
            assert_eq!(
                decision.grade,
                super::super::Grade::Good,
                "seed {seed}: {mv:?}: {decision:?}"
            );
        }
    }
}
