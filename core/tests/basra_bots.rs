//! Basra's computer players: the greedy heuristic of the original design, decisions that depend
//! only on the seat's view, and autoplay.
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::Game;
use cardroom_core::games::basra::{Basra, BasraConfig, BasraMove, BasraPosition};
use cardroom_core::{
    AnyGame, Automatic, BotLevel, Card, CardRng, CardSet, ComputerPlayer, Controller, Options,
    Seat, Seed, Setup, Status, Viewer, autoplay, parse_cards,
};

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

/// Seat 0 to play with `hand` on `floor`; seat 1 holds `other`; the rest is captured by side 1.
fn position(hand: &str, other: &str, floor: &str) -> Basra {
    let config = BasraConfig::new(None, 2, &Options::new()).unwrap();
    let (hand, other, floor) = (set(hand), set(other), set(floor));
    let rest = CardSet::ALL - hand - other - floor;
    let position = BasraPosition {
        dealer: Seat::new(1),
        to_act: Seat::new(0),
        hands: vec![hand, other],
        floor,
        piles: vec![CardSet::EMPTY, rest],
        round: 1,
        totals: vec![0, 0],
        ..BasraPosition::default()
    };
    Basra::from_position(config, position, Seed::from_bytes([3; 32])).unwrap()
}

fn greedy_card(game: &Basra) -> Card {
    let view = game.view(Viewer::Seat(Seat::new(0)));
    let mut rng = CardRng::new(&Seed::from_bytes([0; 32]), 0);
    Basra::bot_move(&view, BotLevel::Greedy, &mut rng)
        .unwrap()
        .card()
}

#[test]
fn greedy_takes_a_basra_when_it_can() {
    // 5♣ clears 2♦ 3♥ (a basra); the jack would take the same cards with no basra.
    assert_eq!(
        greedy_card(&position("5C JS 9H", "8D", "2D 3H")),
        card("5C")
    );
}

#[test]
fn greedy_plays_a_jack_when_the_floor_holds_points() {
    // 10♦ is worth 3: sweep it with the jack rather than take 4♣ with 4♠.
    assert_eq!(
        greedy_card(&position("JS 4S 9H", "8D", "TD 4C KH")),
        card("JS")
    );
}

#[test]
fn greedy_keeps_its_jack_when_the_floor_holds_no_points() {
    // The jack would take all three cards; 9♥ takes 4♣ + 5♥ instead.
    assert_eq!(
        greedy_card(&position("JS 4S 9H", "8D", "4C 5H KH")),
        card("9H")
    );
}

#[test]
fn greedy_takes_the_capture_worth_most() {
    // 3♠ takes 3♦ (no points); 6♠ takes 2♣ + 4♥ (2♣ is worth 2).
    assert_eq!(
        greedy_card(&position("3S 6S", "8D", "3D 2C 4H KH")),
        card("6S")
    );
}

#[test]
fn greedy_throws_the_lowest_card_that_gives_no_basra() {
    // Nothing captures on K♥ and the only unseen card, 8♦, clears no floor: the lowest goes.
    assert_eq!(greedy_card(&position("9S 2S 4S", "8D", "KH")), card("2S"));
    // On an empty floor the unseen 2♦ would answer a thrown 2♠ with a basra: throw 9♠.
    assert_eq!(greedy_card(&position("9S 2S", "2D", "")), card("9S"));
}

#[test]
fn greedy_throws_the_lowest_card_when_every_throw_gives_a_basra() {
    let config = BasraConfig::new(None, 2, &Options::new()).unwrap();
    let hand = set("5S 3S");
    let other = set("8D 5D 3D");
    let rest = CardSet::ALL - hand - other;
    let position = BasraPosition {
        dealer: Seat::new(1),
        to_act: Seat::new(0),
        hands: vec![hand, other],
        floor: CardSet::EMPTY,
        piles: vec![CardSet::EMPTY, rest],
        round: 1,
        totals: vec![0, 0],
        ..BasraPosition::default()
    };
    // The pile of side 1 is public: seat 0 has seen every card but 8♦ 5♦ 3♦, so both throws
    // can be answered with a basra; the lower card goes.
    let game = Basra::from_position(config, position, Seed::from_bytes([3; 32])).unwrap();
    assert_eq!(greedy_card(&game), card("3S"));
}

#[test]
fn a_computer_players_move_depends_only_on_its_view() {
    let controllers = [
        Controller::Computer(BotLevel::Greedy),
        Controller::Computer(BotLevel::Random),
    ];
    let mut checked = 0;
    for b in 0..40u8 {
        let setup = Setup::seeded(Seed::from_bytes([b; 32]));
        let (mut game, _) = AnyGame::create(
            cardroom_core::GameKind::Basra,
            None,
            2,
            &Options::new(),
            &setup,
        )
        .unwrap();
        let mut rng = CardRng::new(&Seed::from_bytes([b; 32]), 5);
        while game.status() == Status::Active {
            let Some(Automatic::Move(seat, mv)) = game.next_automatic(&controllers) else {
                break;
            };
            let mut other = game.clone();
            other.shuffle_hidden(Viewer::Seat(seat), &mut rng);
            match other.next_automatic(&controllers) {
                Some(Automatic::Move(s, m)) => {
                    assert_eq!((s, &m), (seat, &mv));
                    checked += 1;
                }
                other => panic!("expected a move, got {other:?}"),
            }
            game.play(seat, &mv).unwrap();
        }
    }
    assert!(checked > 1000);
}

#[test]
fn autoplay_stops_where_a_person_must_act() {
    let setup = Setup::seeded(Seed::from_bytes([8; 32]));
    let config = BasraConfig::new(None, 2, &Options::new()).unwrap();
    let (mut game, _) = Basra::start(config, &setup).unwrap();
    let controllers = [Controller::Person, Controller::Computer(BotLevel::Greedy)];
    if game.to_act() == Some(Seat::new(1)) {
        let steps = autoplay(&mut game, &controllers, 100);
        assert_eq!(steps.len(), 1);
    }
    assert_eq!(game.to_act(), Some(Seat::new(0)));
    assert!(autoplay(&mut game, &controllers, 100).is_empty());
    let mv = game.legal_moves(Seat::new(0))[0].clone();
    game.play(Seat::new(0), &mv).unwrap();
    assert_eq!(autoplay(&mut game, &controllers, 100).len(), 1);
    assert_eq!(game.to_act(), Some(Seat::new(0)));
}

#[test]
fn a_table_of_computer_players_deals_on_and_finishes() {
    let setup = Setup::seeded(Seed::from_bytes([6; 32]));
    let config = BasraConfig::new(None, 4, &Options::new()).unwrap();
    let (mut game, _) = Basra::start(config, &setup).unwrap();
    let controllers = [Controller::Computer(BotLevel::Greedy); 4];
    autoplay(&mut game, &controllers, 100_000);
    assert_eq!(game.status(), Status::Finished);
    assert!(game.table().hand_number() > 1);
}

/// Greedy against random over `games` games of `variant`, each seed played twice with the seats
/// swapped; returns greedy's share of wins (a shared win counts half).
fn greedy_share(variant: &str, games: u8) -> f64 {
    let mut points = 0.0;
    for b in 0..games {
        for greedy_seat in 0..2 {
            let setup = Setup::seeded(Seed::from_bytes([b; 32]));
            let config = BasraConfig::new(Some(variant), 2, &Options::new()).unwrap();
            let (mut game, _) = Basra::start(config, &setup).unwrap();
            let mut controllers = [Controller::Computer(BotLevel::Random); 2];
            controllers[greedy_seat] = Controller::Computer(BotLevel::Greedy);
            autoplay(&mut game, &controllers, 100_000);
            let winners = &game.table().outcome().unwrap().winners;
            if winners.contains(&(greedy_seat as u8)) {
                points += 1.0 / winners.len() as f64;
            }
        }
    }
    points / (2.0 * f64::from(games))
}

#[test]
fn greedy_beats_random_clearly_in_every_variant() {
    // BOTS.md: greedy wins about 93% of matches to 101 against random. 200 games give a 95%
    // margin of about ±4 points; the bars are far below the measured rates.
    assert!(greedy_share("standard", 100) > 0.8);
    assert!(greedy_share("classic44", 100) > 0.8);
    assert!(greedy_share("cse231", 100) > 0.65);
}

#[test]
fn random_plays_every_legal_move_sometimes() {
    let game = position("5C JS 9H", "8D", "2D 3H");
    let view = game.view(Viewer::Seat(Seat::new(0)));
    let mut rng = CardRng::new(&Seed::from_bytes([0; 32]), 0);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let mv: BasraMove = Basra::bot_move(&view, BotLevel::Random, &mut rng).unwrap();
        assert!(view.legal_moves.contains(&mv));
        seen.insert(mv.card());
    }
    assert_eq!(seen.len(), 3);
}
