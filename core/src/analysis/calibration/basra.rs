//! Basra: seat 0 to act, seat 1 dealt; the cards not named are in seat 0's capture pile, so the
//! majority is settled and only the named cards decide.

use super::{Case, list, set};
use crate::any::{AnyGame, AnyMove};
use crate::cardset::CardSet;
use crate::game::Game;
use crate::games::basra::{Basra, BasraMove, BasraPosition};
use crate::options::Options;
use crate::rng::Seed;
use crate::seat::Seat;

fn basra(
    variant: &str,
    hands: [&str; 2],
    floor: &str,
    stock: &str,
    round: u8,
    seed: u8,
) -> AnyGame {
    let config = Basra::configure(Some(variant), 2, &Options::new()).expect("config");
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let floor = set(floor);
    let stock = list(stock);
    let named = hands[0] | hands[1] | floor | stock.iter().copied().collect::<CardSet>();
    let position = BasraPosition {
        dealer: Seat::new(1),
        to_act: Seat::new(0),
        hands,
        floor,
        stock,
        piles: vec![config.deck().cards() - named, CardSet::EMPTY],
        round,
        last_capture: Some(Seat::new(1)),
        carried: 0,
        totals: Vec::new(),
    };
    AnyGame::Basra(
        Basra::from_position(config, position, Seed::from_bytes([seed; 32])).expect("position"),
    )
}

fn play(card: &str) -> AnyMove {
    AnyMove::Basra(BasraMove::Play {
        card: list(card)[0],
        capture: None,
    })
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "basra: the 5 that takes the whole floor, not a king thrown",
            game: |s| {
                basra(
                    "standard",
                    ["KC QD 5H 8S", "4C 6D 9H TC"],
                    "5C 5D 2H 3S",
                    "",
                    6,
                    s,
                )
            },
            best: play("5H"),
            worst: play("KC"),
        },
        Case {
            name: "basra: a 9 on 4 and 5",
            game: |s| basra("standard", ["9H KD", "3C 8D"], "4S 5C", "", 6, s),
            best: play("9H"),
            worst: play("KD"),
        },
        Case {
            name: "basra: a queen on the lone queen",
            game: |s| basra("standard", ["QS 7C", "3H 8C"], "QH", "", 6, s),
            best: play("QS"),
            worst: play("7C"),
        },
        Case {
            name: "basra: the 7♦ sweeping numerals worth 9",
            game: |s| basra("standard", ["7D KS", "6H 8C"], "3C 4H 2S", "", 6, s),
            best: play("7D"),
            worst: play("KS"),
        },
        Case {
            name: "basra: a ten on the lone 10♦",
            game: |s| basra("standard", ["TC 2H", "5S 9C"], "TD", "", 6, s),
            best: play("TC"),
            worst: play("2H"),
        },
        Case {
            name: "basra: the double basra of a jack on a lone jack",
            game: |s| basra("standard", ["JD 4C", "6S 9D"], "JH", "", 6, s),
            best: play("JD"),
            worst: play("4C"),
        },
        Case {
            name: "basra: a basra with a round still to deal",
            game: |s| {
                basra(
                    "standard",
                    ["6C KH 3D 9S", "8D 5H QC 4S"],
                    "2S 4H",
                    "AH 7C 8S 9H TS 5D 3C 6S",
                    5,
                    s,
                )
            },
            best: play("6C"),
            worst: play("KH"),
        },
        Case {
            name: "classic44: a ten's basra worth 20",
            game: |s| basra("classic44", ["TH 3C", "5D 8H"], "4S 6D", "", 4, s),
            best: play("TH"),
            worst: play("3C"),
        },
        Case {
            name: "classic44: a nine's basra worth 18",
            game: |s| basra("classic44", ["9C 2D", "7H 6S"], "4H 5S", "", 4, s),
            best: play("9C"),
            worst: play("2D"),
        },
        Case {
            name: "cse231: a pair summing to 8",
            game: |s| basra("cse231", ["8C KH", "4D 9S"], "3D 5H", "", 6, s),
            best: play("8C"),
            worst: play("KH"),
        },
        Case {
            name: "cse231: a queen's basra worth 20",
            game: |s| basra("cse231", ["QC 4D", "7S 2H"], "QS", "", 6, s),
            best: play("QC"),
            worst: play("4D"),
        },
    ]
}
