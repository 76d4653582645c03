//! Rummy's computer players: levels 1-10 and greedy.
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::Game;
use cardroom_core::games::rummy::{Rummy, RummyConfig, RummyMove, RummyPosition};
use cardroom_core::{
    BotLevel, Card, CardRng, CardSet, ComputerPlayer, Controller, Deck, Options, Seat, Seed, Setup,
    Status, Viewer, autoplay, parse_cards,
};

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

/// Standard, two players; seat 0 to draw with `hand`; `top` face up.
fn position(hand: &str, top: &str) -> Rummy {
    let config = RummyConfig::new(None, 2, &Options::new()).unwrap();
    let other = set("2C 3D 4S 9H TD JC QD KS 5C 6D");
    let placed = set(hand) | other | set(top);
    let stock: Vec<Card> = Deck::Standard52
        .canonical_order()
        .into_iter()
        .filter(|c| !placed.contains(*c))
        .collect();
    let position = RummyPosition {
        dealer: Seat::new(1),
        to_act: Seat::new(0),
        hands: vec![set(hand), other],
        stock,
        discards: vec![card(top)],
        hand_number: 1,
        ..RummyPosition::default()
    };
    Rummy::from_position(config, position, Seed::from_bytes([2; 32])).unwrap()
}

fn decide(game: &Rummy, level: BotLevel) -> RummyMove {
    let view = game.view(Viewer::Seat(Seat::new(0)));
    let mut rng = CardRng::new(&Seed::from_bytes([1; 32]), 0);
    Rummy::bot_move(&view, level, &mut rng).unwrap()
}

#[test]
fn the_bots_take_the_face_up_card_when_it_joins_a_meld() {
    let game = position("5H 6H 8C 9C KH 2H 3S AS TC JD", "7H");
    for level in [BotLevel::Greedy, BotLevel::Level(10)] {
        assert_eq!(
            decide(&game, level),
            RummyMove::TakeDiscard { drop: None },
            "{level}"
        );
    }
    let game = position("5H 6H 8C 9C KH 2H 3S AS TC JD", "7D");
    assert_eq!(decide(&game, BotLevel::Level(10)), RummyMove::DrawStock {});
}

#[test]
fn the_bots_meld_then_throw_their_costliest_loose_card() {
    let mut game = position("5H 6H 8C 9C KH 2H 3S AS TC JD", "7H");
    game.play(Seat::new(0), &RummyMove::TakeDiscard { drop: None })
        .unwrap();
    // Two runs to meld, 5♥ 6♥ 7♥ and 8♣ 9♣ 10♣, in either order.
    let mut melded = Vec::new();
    for _ in 0..2 {
        let mv = decide(&game, BotLevel::Level(10));
        let RummyMove::Meld { cards } = mv else {
            panic!("expected a meld, got {mv:?}");
        };
        game.play(Seat::new(0), &mv).unwrap();
        melded.push(cards);
    }
    melded.sort_by_key(|m| m.bits());
    assert_eq!(melded, vec![set("8C 9C TC"), set("5H 6H 7H")]);
    assert_eq!(
        decide(&game, BotLevel::Level(10)),
        RummyMove::Discard { card: card("KH") }
    );
}

#[test]
fn the_bots_decide_from_the_view_alone() {
    let game = position("5H 6H 8C 9C KH 2H 3S AS TC JD", "7H");
    let mut other = game.clone();
    let mut rng = CardRng::new(&Seed::from_bytes([3; 32]), 0);
    other.shuffle_hidden(Viewer::Seat(Seat::new(0)), &mut rng);
    assert_ne!(game, other);
    for level in [
        BotLevel::Random,
        BotLevel::Greedy,
        BotLevel::Level(1),
        BotLevel::Level(10),
    ] {
        assert_eq!(decide(&game, level), decide(&other, level), "{level}");
    }
}

/// `first` against `second` over `deals` seeds, seats swapped; `first`'s share of wins.
pub fn share(variant: &str, first: BotLevel, second: BotLevel, deals: u8) -> f64 {
    let mut won = 0.0;
    for b in 0..deals {
        for first_seat in 0..2usize {
            let config = RummyConfig::new(Some(variant), 2, &Options::new()).unwrap();
            let (mut game, _) =
                Rummy::start(config, &Setup::seeded(Seed::from_bytes([b; 32]))).unwrap();
            let mut controllers = [Controller::Computer(second); 2];
            controllers[first_seat] = Controller::Computer(first);
            autoplay(&mut game, &controllers, 1_000_000);
            assert_eq!(game.status(), Status::Finished);
            let winners = &game.table().outcome().unwrap().winners;
            if winners.contains(&(first_seat as u8)) {
                won += 1.0 / winners.len() as f64;
            }
        }
    }
    won / (2.0 * f64::from(deals))
}

#[test]
fn level_10_beats_level_1_clearly_in_both_variants() {
    // Measured over 500 games in docs/bots.md; the bars leave room for the smaller sample.
    assert!(share("standard", BotLevel::Level(10), BotLevel::Level(1), 50) > 0.7);
    assert!(share("classic", BotLevel::Level(10), BotLevel::Level(1), 50) > 0.7);
}

#[test]
fn greedy_beats_random() {
    assert!(share("standard", BotLevel::Greedy, BotLevel::Random, 30) > 0.8);
}

#[test]
fn computer_players_finish_classic_rounds_instead_of_swapping_forever() {
    // Two computers could trade cards through the face-up pile without ever using up the
    // stock; they only take the face-up card for a real gain, so every game ends on its own.
    for b in 0..20u8 {
        let config = RummyConfig::new(Some("classic"), 2, &Options::new()).unwrap();
        let (mut game, _) =
            Rummy::start(config, &Setup::seeded(Seed::from_bytes([b; 32]))).unwrap();
        autoplay(
            &mut game,
            &[Controller::Computer(BotLevel::Greedy); 2],
            1_000_000,
        );
        let outcome = game.table().outcome().unwrap();
        assert_eq!(
            outcome.reason,
            cardroom_core::EndReason::FinalHand,
            "seed {b}"
        );
    }
}
