//! 31: seat 0 to act (the last seat dealt); what is not named is in the discard pile, under
//! its top.

use super::{Case, list, set};
use crate::any::{AnyGame, AnyMove};
use crate::cardset::CardSet;
use crate::game::Game;
use crate::games::thirty_one::{Pile, ThirtyOne, ThirtyOneMove, ThirtyOnePosition};
use crate::options::Options;
use crate::rng::Seed;
use crate::seat::Seat;

struct Scat {
    variant: &'static str,
    hands: Vec<&'static str>,
    /// What each seat took from the discard pile and still holds (seen by everyone).
    known: Vec<&'static str>,
    stock: &'static str,
    top: &'static str,
    lives: Vec<i32>,
    knocker: Option<u8>,
    /// Seat 0 draws from the stock first, and the decision is its discard.
    draw_first: bool,
}

fn thirty_one(scat: &Scat, seed: u8) -> AnyGame {
    let seats = scat.hands.len();
    let config = ThirtyOne::configure(Some(scat.variant), seats, &Options::new()).expect("config");
    let hands: Vec<CardSet> = scat.hands.iter().map(|h| set(h)).collect();
    let stock = list(scat.stock);
    let top = list(scat.top);
    let named = hands.iter().fold(CardSet::EMPTY, |a, h| a | *h)
        | stock.iter().chain(&top).copied().collect::<CardSet>();
    let mut discards = (CardSet::ALL - named).to_vec();
    discards.extend(top);
    let position = ThirtyOnePosition {
        dealer: Seat::new(seats as u8 - 1),
        to_act: Seat::new(0),
        hands,
        known: (0..seats)
            .map(|i| scat.known.get(i).map_or(CardSet::EMPTY, |k| set(k)))
            .collect(),
        stock,
        discards,
        lives: scat.lives.clone(),
        knocker: scat.knocker.map(Seat::new),
        final_turns: u8::from(scat.knocker.is_some()),
        reshuffled: true,
    };
    let mut game =
        ThirtyOne::from_position(config, position, Seed::from_bytes([seed; 32])).expect("position");
    if scat.draw_first {
        game.play(Seat::new(0), &ThirtyOneMove::Draw { from: Pile::Stock })
            .expect("draw");
    }
    AnyGame::ThirtyOne(game)
}

fn discard(card: &str) -> AnyMove {
    AnyMove::ThirtyOne(ThirtyOneMove::Discard {
        card: list(card)[0],
    })
}

fn draw(from: Pile) -> AnyMove {
    AnyMove::ThirtyOne(ThirtyOneMove::Draw { from })
}

macro_rules! scat_case {
    ($name:expr, $scat:expr, $best:expr, $worst:expr) => {
        Case {
            name: $name,
            game: |s| thirty_one(&$scat, s),
            best: $best,
            worst: $worst,
        }
    };
}

fn scat(
    variant: &'static str,
    hands: Vec<&'static str>,
    stock: &'static str,
    top: &'static str,
) -> Scat {
    Scat {
        variant,
        lives: Vec::new(),
        known: Vec::new(),
        knocker: None,
        draw_first: false,
        hands,
        stock,
        top,
    }
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        scat_case!(
            "31: keeping the 31 just drawn, not breaking it against a known 25",
            Scat {
                draw_first: true,
                known: vec!["", "JC TC 5C"],
                ..scat(
                    "standard",
                    vec!["AS KS 2H", "JC TC 5C"],
                    "QS 3D 4D 6H",
                    "6C"
                )
            },
            discard("2H"),
            discard("AS")
        ),
        scat_case!(
            "31: a 31 in hearts from the stock, against a known 26",
            Scat {
                draw_first: true,
                known: vec!["", "KD QD 6D"],
                ..scat(
                    "standard",
                    vec!["AH TH 5C", "KD QD 6D"],
                    "JH 3S 4C 7C",
                    "9S"
                )
            },
            discard("5C"),
            discard("AH")
        ),
        scat_case!(
            "31: taking the discard that makes 31, not knocking on 21",
            scat(
                "standard",
                vec!["AD QD 3S", "KH QH 5C"],
                "JH TH 9H 8H",
                "KD"
            ),
            draw(Pile::Discard),
            AnyMove::ThirtyOne(ThirtyOneMove::Knock {})
        ),
        scat_case!(
            "31: the final turn after a knock on a known 25, the jack that makes 30",
            Scat {
                knocker: Some(1),
                known: vec!["", "KC QC 5C"],
                ..scat(
                    "standard",
                    vec!["KH QH 4S", "KC QC 5C"],
                    "2D 3S 6D 7S",
                    "JH"
                )
            },
            draw(Pile::Discard),
            draw(Pile::Stock)
        ),
        scat_case!(
            "31: the final turn after a knock, the ace that makes 31",
            Scat {
                knocker: Some(1),
                ..scat(
                    "standard",
                    vec!["KH QH 5C", "KS QS 9S"],
                    "JS TS 8S 7C",
                    "AH"
                )
            },
            draw(Pile::Discard),
            draw(Pile::Stock)
        ),
        scat_case!(
            "31: a 31 at four players costs all three others a life",
            Scat {
                draw_first: true,
                ..scat(
                    "standard",
                    vec!["AC KC 3D", "4S 5H 6D", "7S 8H 9D", "2S 3H 4D"],
                    "QC 5S 6H 7D",
                    "8S"
                )
            },
            discard("3D"),
            discard("AC")
        ),
        scat_case!(
            "31: on the bus, keeping the 31 against a known 25",
            Scat {
                draw_first: true,
                lives: vec![0, 2],
                known: vec!["", "KC QC 5C"],
                ..scat(
                    "standard",
                    vec!["AD KD 4S", "KC QC 5C"],
                    "JD 2H 6S 8H",
                    "3S"
                )
            },
            discard("4S"),
            discard("KD")
        ),
        scat_case!(
            "classic: keeping the 31 just drawn against a known 25, in tokens",
            Scat {
                draw_first: true,
                known: vec!["", "JC TC 5C"],
                ..scat("classic", vec!["AS KS 2H", "JC TC 5C"], "QS 3D 4D 6H", "6C")
            },
            discard("2H"),
            discard("KS")
        ),
        scat_case!(
            "classic: taking the discard that makes 31",
            scat("classic", vec!["AC JC 6H", "KH QH 5D"], "JH TH 9H 8H", "QC"),
            draw(Pile::Discard),
            AnyMove::ThirtyOne(ThirtyOneMove::Knock {})
        ),
        scat_case!(
            "classic: the final turn after a knock on a known 25, the jack that makes 30",
            Scat {
                knocker: Some(1),
                known: vec!["", "KD QD 5D"],
                ..scat("classic", vec!["KS QS 4H", "KD QD 5D"], "2C 3H 6C 7H", "JS")
            },
            draw(Pile::Discard),
            draw(Pile::Stock)
        ),
    ]
}
