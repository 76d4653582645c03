//! Tarneeb's computer players: greedy (the original design), strong (sampling and playouts) and
//! hard (sampling consistent with the auction, solved exactly).
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::Game;
use cardroom_core::games::tarneeb::auction::{Bid, Contract};
use cardroom_core::games::tarneeb::{Tarneeb, TarneebConfig, TarneebMove, TarneebPosition};
use cardroom_core::{
    BotLevel, CardRng, CardSet, ComputerPlayer, Controller, Options, Seat, Seed, Setup, Status,
    Suit, Viewer, autoplay, parse_cards,
};

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

/// Seat 0 declares 7 with `trump`; the hands are given.
fn playing(hands: [&str; 4], trump: Suit) -> Tarneeb {
    let position = TarneebPosition {
        dealer: Seat::new(3),
        hands: hands.iter().map(|h| set(h)).collect(),
        contract: Some(Contract {
            declarer: Seat::new(0),
            bid: Bid {
                tricks: 7,
                suit: None,
            },
        }),
        trump: Some(trump),
        totals: Vec::new(),
    };
    let config = TarneebConfig::new(None, 4, &Options::new()).unwrap();
    Tarneeb::from_position(config, position, Seed::from_bytes([4; 32])).unwrap()
}

fn decide(game: &Tarneeb, level: BotLevel) -> TarneebMove {
    let seat = game.to_act().unwrap();
    let view = game.view(Viewer::Seat(seat));
    let mut rng = CardRng::new(&Seed::from_bytes([1; 32]), 0);
    Tarneeb::bot_move(&view, level, &mut rng).unwrap()
}

fn card(code: &str) -> TarneebMove {
    TarneebMove::Play {
        card: code.parse().unwrap(),
    }
}

const HANDS: [&str; 4] = [
    "AH 5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KH 9H 3H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "QH 4H 2H AD KD QD KC AC 2S 3S 4S 5S 6S",
    "JH TH 8H 7H 6H 7S 8S 9S TS JS QS KS AS",
];

#[test]
fn greedy_plays_the_lowest_card_that_wins_the_trick() {
    let mut game = playing(HANDS, Suit::Spades);
    game.play(Seat::new(0), &card("5H")).unwrap();
    // Seat 1 can win with 9♥ or K♥: the lowest that wins.
    assert_eq!(decide(&game, BotLevel::Greedy), card("9H"));
}

#[test]
fn greedy_plays_its_lowest_card_when_it_cannot_win() {
    let mut game = playing(HANDS, Suit::Spades);
    game.play(Seat::new(0), &card("AH")).unwrap();
    assert_eq!(decide(&game, BotLevel::Greedy), card("3H"));
}

#[test]
fn greedy_never_overtakes_its_partners_winning_card() {
    let mut game = playing(HANDS, Suit::Spades);
    game.play(Seat::new(0), &card("5H")).unwrap();
    game.play(Seat::new(1), &card("3H")).unwrap();
    // Seat 2's partner (seat 0) is winning with 5♥; Q♥ would win too, but it plays 2♥.
    assert_eq!(decide(&game, BotLevel::Greedy), card("2H"));
}

#[test]
fn greedy_follows_with_its_lowest_card_when_it_cannot_win() {
    let mut game = playing(
        [
            "AH 5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
            "KH 9H 3H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
            "QH 4H 2H AD KD QD KC AC 2S 3S 4S 5S 6S",
            "JH TH 8H 7H 6H 7S 8S 9S TS JS QS KS AS",
        ],
        Suit::Clubs,
    );
    game.play(Seat::new(0), &card("AH")).unwrap();
    game.play(Seat::new(1), &card("3H")).unwrap();
    game.play(Seat::new(2), &card("2H")).unwrap();
    // Seat 3 follows hearts with its lowest.
    assert_eq!(decide(&game, BotLevel::Greedy), card("6H"));
}

#[test]
fn the_bots_decide_from_the_view_alone() {
    let mut game = playing(HANDS, Suit::Spades);
    game.play(Seat::new(0), &card("5H")).unwrap();
    let mut other = game.clone();
    let mut rng = CardRng::new(&Seed::from_bytes([3; 32]), 0);
    other.shuffle_hidden(Viewer::Seat(Seat::new(1)), &mut rng);
    assert_ne!(game, other);
    for level in [BotLevel::Random, BotLevel::Greedy, BotLevel::Strong] {
        assert_eq!(decide(&game, level), decide(&other, level), "{level}");
    }
}

#[test]
fn the_hidden_redeal_respects_the_suits_a_seat_showed_out_of() {
    let mut game = playing(HANDS, Suit::Clubs);
    for (s, c) in [(0, "AH"), (1, "3H"), (2, "2H"), (3, "6H")] {
        game.play(Seat::new(s), &card(c)).unwrap();
    }
    // Seat 0 leads clubs; seat 1 has none and shows out.
    game.play(Seat::new(0), &card("2C")).unwrap();
    game.play(Seat::new(1), &card("2D")).unwrap();
    for b in 0..20u8 {
        let mut other = game.clone();
        let mut rng = CardRng::new(&Seed::from_bytes([b; 32]), 0);
        other.shuffle_hidden(Viewer::Seat(Seat::new(2)), &mut rng);
        assert!((other.hand(Seat::new(1)) & CardSet::suit(Suit::Clubs)).is_empty());
    }
}

/// A team of `first` (seats 0 and 2, then 1 and 3) against `second` over `deals` seeds; the
/// share of games `first` won.
fn share(variant: &str, first: BotLevel, second: BotLevel, deals: u8) -> f64 {
    let mut won = 0.0;
    for b in 0..deals {
        for first_team in 0..2usize {
            let config = TarneebConfig::new(Some(variant), 4, &Options::new()).unwrap();
            let (mut game, _) =
                Tarneeb::start(config, &Setup::seeded(Seed::from_bytes([b; 32]))).unwrap();
            let controllers: Vec<Controller> = (0..4)
                .map(|s| Controller::Computer(if s % 2 == first_team { first } else { second }))
                .collect();
            autoplay(&mut game, &controllers, 1_000_000);
            assert_eq!(game.status(), Status::Finished);
            let winners = &game.table().outcome().unwrap().winners;
            if winners.contains(&(first_team as u8)) {
                won += 1.0 / winners.len() as f64;
            }
        }
    }
    won / (2.0 * f64::from(deals))
}

#[test]
fn greedy_beats_random_and_strong_beats_greedy() {
    assert!(share("standard", BotLevel::Greedy, BotLevel::Random, 10) > 0.8);
    assert!(share("standard", BotLevel::Strong, BotLevel::Greedy, 4) >= 0.5);
}

/// The auction about to start, seat 0 to call first.
fn bidding(hands: [&str; 4]) -> Tarneeb {
    let position = TarneebPosition {
        dealer: Seat::new(3),
        hands: hands.iter().map(|h| set(h)).collect(),
        contract: None,
        trump: None,
        totals: Vec::new(),
    };
    let config = TarneebConfig::new(None, 4, &Options::new()).unwrap();
    Tarneeb::from_position(config, position, Seed::from_bytes([4; 32])).unwrap()
}

#[test]
fn hard_bids_high_on_a_powerhouse_and_passes_a_worthless_hand() {
    let strong = [
        "AS KS QS JS TS 9S 8S AH KH QH AD KD AC",
        "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
        "7S 6S 5S 4S 3S 2S 9H TH JH 8D 9D TD JD",
        "QD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    ];
    match decide(&bidding(strong), BotLevel::Hard) {
        TarneebMove::Bid { tricks, .. } => assert!(tricks >= 11, "bid only {tricks}"),
        other => panic!("passed a powerhouse: {other:?}"),
    }
    // Seat 0 holds nothing but small cards, spread over every suit.
    let weak = [
        "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C",
        "5S 6S 7S 8S 9S TS JS QS KS AS 6H 7H 8H",
        "9H TH JH QH KH AH 5D 6D 7D 8D 9D TD JD",
        "QD KD AD 5C 6C 7C 8C 9C TC JC QC KC AC",
    ];
    assert_eq!(decide(&bidding(weak), BotLevel::Hard), TarneebMove::Pass {});
}

#[test]
fn hard_names_its_long_strong_suit_as_trump() {
    let hands = [
        "AH KH QH JH TH 9H 2S 3S 4D 5D 6C 7C 8C",
        "AS KS QS JS 8H 7H 5S 6S 2D 3D 2C 3C 4C",
        "TS 9S 8S 7S 6H 5H AD KD QD JD 5C TC 9C",
        "4S 4H 3H 2H TD 9D 8D 7D 6D AC KC QC JC",
    ];
    // Seat 0 bids eight and everyone else passes: seat 0 names the trump.
    let mut game = bidding(hands);
    game.play(
        Seat::new(0),
        &TarneebMove::Bid {
            tricks: 8,
            suit: None,
        },
    )
    .unwrap();
    for seat in 1..4 {
        game.play(Seat::new(seat), &TarneebMove::Pass {}).unwrap();
    }
    assert_eq!(
        decide(&game, BotLevel::Hard),
        TarneebMove::Trump { suit: Suit::Hearts }
    );
}
