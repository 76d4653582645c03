//! The random-simulation test every game must pass (STYLE.md, after OpenSpiel): thousands of
//! random games per variant, checking at every step that
//! - every card is in exactly one place;
//! - legal moves and validation agree, both ways;
//! - a refused move changes nothing;
//! - no view and no event shows a viewer a card it may not know, and redealing the cards a
//!   viewer cannot see leaves its view unchanged;
//! - the state survives a serde round trip;
//! - the game ends within its move cap, totals equal the sum of the scoring events, and the
//!   moves replay to the same state.
//!
//! Each configuration plays its `games` (at least 2000 per variant in all);
//! `CARDROOM_PLAYOUTS=N` plays N per configuration instead. Every game gets the cheap checks at
//! every step, and one game in ten the expensive redaction checks too.
//!
//! Over 600 lines: the one property every game must keep, checked step by step; each check is a few
//! lines, and apart they would be harder to see as one property.
#![allow(clippy::unwrap_used, reason = "tests")]

use std::collections::BTreeMap;

use cardroom_core::games::basra::BasraMove;
use cardroom_core::games::rummy::RummyMove;
use cardroom_core::games::tarneeb::TarneebMove;
use cardroom_core::games::tarneeb::auction::Denomination;
use cardroom_core::games::thirty_one::{Pile, ThirtyOneMove};
use cardroom_core::table::TableEvent;
use cardroom_core::{
    AnyGame, AnyMove, Automatic, BotLevel, Card, CardRng, CardSet, Controller, Event, GameKind,
    Options, Seat, Seed, Setup, Status, Viewer, Zone,
};
use serde_json::Value;

struct Configuration {
    kind: GameKind,
    variant: &'static str,
    seats: usize,
    options: &'static str,
    /// Games to play (at least 2000 per variant over its configurations).
    games: u32,
}

const CONFIGURATIONS: &[Configuration] = &[
    Configuration {
        kind: GameKind::Basra,
        variant: "standard",
        seats: 2,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::Basra,
        variant: "standard",
        seats: 3,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::Basra,
        variant: "standard",
        seats: 4,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::Basra,
        variant: "standard",
        seats: 4,
        games: 2000,
        options: r#"{"partnerships": false, "majority_tie": "void", "double_basra": false, "target": 31}"#,
    },
    Configuration {
        kind: GameKind::Basra,
        variant: "classic44",
        seats: 2,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::Basra,
        variant: "cse231",
        seats: 2,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::ThirtyOne,
        variant: "standard",
        seats: 2,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::ThirtyOne,
        variant: "standard",
        seats: 5,
        games: 1000,
        options: r#"{"three_of_a_kind": true}"#,
    },
    Configuration {
        kind: GameKind::ThirtyOne,
        variant: "standard",
        seats: 8,
        games: 1000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::ThirtyOne,
        variant: "classic",
        seats: 2,
        games: 2000,
        options: "{}",
    },
    Configuration {
        kind: GameKind::Rummy,
        variant: "standard",
        seats: 2,
        games: 1000,
        // Random players rarely go out: a lower cap keeps their endless games short.
        options: r#"{"move_cap": 1000}"#,
    },
    Configuration {
        kind: GameKind::Rummy,
        variant: "standard",
        seats: 5,
        games: 1000,
        options: r#"{"move_cap": 1000}"#,
    },
    Configuration {
        kind: GameKind::Rummy,
        variant: "classic",
        seats: 2,
        games: 1000,
        options: r#"{"move_cap": 1000}"#,
    },
    Configuration {
        kind: GameKind::Rummy,
        variant: "classic",
        seats: 4,
        games: 1000,
        options: r#"{"rounds": 3, "move_cap": 1000}"#,
    },
    Configuration {
        kind: GameKind::Tarneeb,
        variant: "standard",
        seats: 4,
        games: 2000,
        options: r#"{"target": 31}"#,
    },
    Configuration {
        kind: GameKind::Tarneeb,
        variant: "classic",
        seats: 4,
        games: 2000,
        options: "{}",
    },
];

fn games_for(config: &Configuration) -> u32 {
    std::env::var("CARDROOM_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(config.games)
}

fn seed(config: usize, game: u32) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[0] = config as u8;
    bytes[1..5].copy_from_slice(&game.to_le_bytes());
    Seed::from_bytes(bytes)
}

/// A mix of computer players that varies from game to game. Tarneeb's `strong` player, whose
/// sampling makes it a thousand times slower than the engine, has its own tests.
fn controllers(kind: GameKind, seats: usize, game: u32) -> Vec<Controller> {
    const LEVELS: [BotLevel; 5] = [
        BotLevel::Random,
        BotLevel::Greedy,
        BotLevel::Level(1),
        BotLevel::Level(8),
        BotLevel::Strong,
    ];
    let kinds: usize = if kind == GameKind::Tarneeb { 4 } else { 5 };
    (0..seats)
        .map(|s| Controller::Computer(LEVELS[(game as usize / kinds.pow(s as u32 % 4)) % kinds]))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The checks.

fn check_conservation(game: &AnyGame) {
    let deck = game.table().deck().cards();
    let mut seen = CardSet::EMPTY;
    let mut count = 0;
    for zone in game.zones() {
        for card in &zone.cards {
            assert!(
                seen.insert(*card),
                "{card} is in two places (second: {})",
                zone.name
            );
            count += 1;
        }
    }
    assert_eq!(seen, deck, "cards missing: {}", deck - seen);
    assert_eq!(count, deck.len());
}

/// Moves a client might send: the cards held and a sample of the others, with no capture, with random parts of the
/// floor, with the whole floor, and the legal moves themselves.
fn candidate_moves(game: &AnyGame, seat: Seat, rng: &mut CardRng) -> Vec<AnyMove> {
    match game {
        AnyGame::Basra(g) => {
            let floor = g.floor().to_vec();
            let mut moves = Vec::new();
            for card in CardSet::ALL {
                // Cards the seat does not hold are refused alike: sample them.
                if g.hand(seat).contains(card) || rng.below(8) == 0 {
                    moves.push(BasraMove::Play {
                        card,
                        capture: None,
                    });
                    let subset: CardSet = floor.iter().filter(|_| rng.below(2) == 0).collect();
                    moves.push(BasraMove::Play {
                        card,
                        capture: Some(subset),
                    });
                    moves.push(BasraMove::Play {
                        card,
                        capture: Some(g.floor()),
                    });
                    moves.push(BasraMove::Play {
                        card,
                        capture: Some(CardSet::EMPTY),
                    });
                }
            }
            moves.into_iter().map(AnyMove::Basra).collect()
        }
        AnyGame::ThirtyOne(g) => {
            let mut moves = vec![
                ThirtyOneMove::Knock {},
                ThirtyOneMove::Draw { from: Pile::Stock },
                ThirtyOneMove::Draw {
                    from: Pile::Discard,
                },
            ];
            for card in CardSet::ALL {
                if g.hand(seat).contains(card) || rng.below(8) == 0 {
                    moves.push(ThirtyOneMove::Discard { card });
                }
            }
            moves.into_iter().map(AnyMove::ThirtyOne).collect()
        }
        AnyGame::Rummy(g) => {
            let hand = g.hand(seat);
            let random_cards = |rng: &mut CardRng, n: u32| -> CardSet {
                let cards = hand.to_vec();
                (0..n).filter_map(|_| rng.choose(&cards).copied()).collect()
            };
            let mut moves = vec![
                RummyMove::DrawStock {},
                RummyMove::TakeDiscard { drop: None },
                RummyMove::PassDrawn {},
                RummyMove::EndTurn {},
            ];
            for card in CardSet::ALL {
                if hand.contains(card) || rng.below(8) == 0 {
                    moves.push(RummyMove::TakeDiscard { drop: Some(card) });
                    moves.push(RummyMove::Keep { drop: card });
                    moves.push(RummyMove::Discard { card });
                }
            }
            for _ in 0..12 {
                let size = 1 + rng.below(5);
                moves.push(RummyMove::Meld {
                    cards: random_cards(rng, size),
                });
                let meld = rng.below(g.melds().len() as u32 + 2) as u16;
                let size = 1 + rng.below(3);
                moves.push(RummyMove::LayOff {
                    meld,
                    cards: random_cards(rng, size),
                });
            }
            moves.into_iter().map(AnyMove::Rummy).collect()
        }
        AnyGame::Tarneeb(g) => {
            let mut moves = vec![TarneebMove::Pass {}];
            for tricks in [0, 6, 7, 8, 10, 13, 14, 255] {
                moves.push(TarneebMove::Bid { tricks, suit: None });
                for d in Denomination::ALL {
                    moves.push(TarneebMove::Bid {
                        tricks,
                        suit: Some(d),
                    });
                }
            }
            for suit in cardroom_core::Suit::ALL {
                moves.push(TarneebMove::Trump { suit });
            }
            for card in CardSet::ALL {
                if g.hand(seat).contains(card) || rng.below(8) == 0 {
                    moves.push(TarneebMove::Play { card });
                }
            }
            moves.into_iter().map(AnyMove::Tarneeb).collect()
        }
    }
}

fn check_legality(game: &AnyGame, rng: &mut CardRng) {
    for s in 0..game.table().seats() {
        let seat = Seat::new(s);
        let legal = game.legal_moves(seat);
        if game.to_act() != Some(seat) {
            assert!(legal.is_empty(), "{seat} has moves out of turn");
        } else {
            assert!(!legal.is_empty(), "{seat} must act but has no legal move");
        }
        for mv in &legal {
            assert_eq!(
                game.validate(seat, mv).as_ref(),
                Ok(mv),
                "legal move refused"
            );
        }
        for mv in candidate_moves(game, seat, rng) {
            if let Ok(canonical) = game.validate(seat, &mv) {
                assert!(
                    legal.contains(&canonical),
                    "{mv:?} was accepted as {canonical:?}, which is not listed as legal"
                );
            }
        }
    }
}

fn check_refusals_change_nothing(game: &AnyGame, rng: &mut CardRng) {
    let seats = game.table().seats();
    let seat = Seat::new(rng.below(u32::from(seats)) as u8);
    for mv in candidate_moves(game, seat, rng).into_iter().take(20) {
        let mut copy = game.clone();
        if copy.play(seat, &mv).is_err() {
            assert_eq!(&copy, game, "a refused move changed the game");
        }
    }
    let mut copy = game.clone();
    if copy.deal_next().is_err() {
        assert_eq!(&copy, game, "a refused deal changed the game");
    }
}

fn known_to(zones: &[Zone], viewer: Viewer) -> CardSet {
    zones
        .iter()
        .filter(|z| z.seen_by.includes(viewer))
        .flat_map(|z| z.cards.iter().copied())
        .collect()
}

/// Every card code anywhere in a JSON document.
fn cards_in(value: &Value) -> CardSet {
    match value {
        Value::String(s) if s.len() == 2 => {
            s.parse::<Card>().map(CardSet::single).unwrap_or_default()
        }
        Value::Array(items) => items
            .iter()
            .map(cards_in)
            .fold(CardSet::EMPTY, |a, b| a | b),
        Value::Object(map) => map
            .values()
            .map(cards_in)
            .fold(CardSet::EMPTY, |a, b| a | b),
        _ => CardSet::EMPTY,
    }
}

fn viewers(game: &AnyGame) -> Vec<Viewer> {
    let mut viewers: Vec<Viewer> = Seat::all(game.table().seats()).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    viewers
}

/// Returns how many hidden redeals actually moved a card (to show the check is not vacuous).
fn check_views(game: &AnyGame, rng: &mut CardRng) -> u32 {
    let zones = game.zones();
    let mut redeals_that_changed_something = 0;
    for viewer in viewers(game) {
        let view = game.view(viewer);
        let json = serde_json::to_value(&view).unwrap();
        let shown = cards_in(&json);
        let known = known_to(&zones, viewer);
        assert!(
            shown.is_subset(known),
            "{viewer:?} is shown {} which it may not know",
            shown - known
        );
        let mut other = game.clone();
        other.shuffle_hidden(viewer, rng);
        check_conservation(&other);
        if other != *game {
            redeals_that_changed_something += 1;
        }
        assert_eq!(
            other.view(viewer),
            view,
            "{viewer:?}'s view depends on hidden cards"
        );
    }
    redeals_that_changed_something
}

fn check_events(
    before: &[Zone],
    after: &AnyGame,
    events: &cardroom_core::Events<cardroom_core::AnyEvent>,
) {
    let after_zones = after.zones();
    for viewer in viewers(after) {
        let known = known_to(before, viewer) | known_to(&after_zones, viewer);
        for event in events.iter().filter(|e| e.to.includes(viewer)) {
            let shown = cards_in(&serde_json::to_value(event).unwrap());
            assert!(
                shown.is_subset(known),
                "{viewer:?} is told {} in {event:?}",
                shown - known
            );
        }
    }
}

fn check_round_trip(game: &AnyGame) {
    let json = serde_json::to_string(game).unwrap();
    let back: AnyGame = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, game, "the state changed through serde");
}

/// Adds the scoring events to `sums` and checks each announced total against them.
fn add_scores(
    events: &cardroom_core::Events<cardroom_core::AnyEvent>,
    sums: &mut BTreeMap<u8, i32>,
) {
    for event in events {
        if let Event::Table(TableEvent::HandScored { lines, totals, .. }) = &event.event {
            for line in lines {
                *sums.entry(line.side).or_default() += line.points;
            }
            for (side, total) in totals.iter().enumerate() {
                assert_eq!(
                    sums.get(&(side as u8)).copied().unwrap_or(0),
                    *total,
                    "side {side}'s total is not the sum of its scoring lines"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The playout.

enum Step {
    Move(Seat, AnyMove),
    Deal,
}

fn playout(index: usize, config: &Configuration, game_number: u32, thorough: bool) -> u32 {
    let options: Options = serde_json::from_str(config.options).unwrap();
    let setup = Setup::seeded(seed(index, game_number));
    let (mut game, first_events) = AnyGame::create(
        config.kind,
        Some(config.variant),
        config.seats,
        &options,
        &setup,
    )
    .unwrap();
    let start = game.clone();
    let controllers = controllers(config.kind, config.seats, game_number);
    let mut rng = CardRng::new(&seed(index, game_number), 99);
    let initial = game.table().initial_total();
    let mut sums: BTreeMap<u8, i32> = (0..game.table().sides().count() as u8)
        .map(|side| (side, initial))
        .collect();
    add_scores(&first_events, &mut sums);
    let mut steps = Vec::new();
    let mut nontrivial_redeals = 0;
    check_events(&[], &game, &first_events);

    let cap = game.table().move_cap() as usize;
    for step in 0.. {
        assert!(step <= 2 * cap + 10, "the game did not end within its cap");
        check_conservation(&game);
        if game.status() == Status::Finished {
            break;
        }
        check_legality(&game, &mut rng);
        if thorough {
            check_refusals_change_nothing(&game, &mut rng);
            nontrivial_redeals += check_views(&game, &mut rng);
            check_round_trip(&game);
        } else if step % 16 == 0 {
            check_round_trip(&game);
        }
        let before = game.zones();
        let events = match game.next_automatic(&controllers).unwrap() {
            Automatic::Move(seat, mv) => {
                steps.push(Step::Move(seat, mv.clone()));
                game.play(seat, &mv).unwrap()
            }
            Automatic::Deal => {
                steps.push(Step::Deal);
                game.deal_next().unwrap()
            }
        };
        if thorough {
            check_events(&before, &game, &events);
        }
        add_scores(&events, &mut sums);
    }

    let table = game.table();
    assert!(table.moves() <= table.move_cap());
    for (side, total) in table.totals().iter().enumerate() {
        assert_eq!(sums.get(&(side as u8)).copied().unwrap_or(0), *total);
    }
    assert!(table.outcome().is_some());

    let mut replay = start;
    for step in &steps {
        match step {
            Step::Move(seat, mv) => replay.play(*seat, mv).unwrap(),
            Step::Deal => replay.deal_next().unwrap(),
        };
    }
    assert_eq!(replay, game, "the moves did not replay to the same state");
    nontrivial_redeals
}

fn run_configuration(index: usize) {
    let config = &CONFIGURATIONS[index];
    let games = games_for(config);
    let mut nontrivial_redeals = 0;
    for game_number in 0..games {
        nontrivial_redeals += playout(index, config, game_number, game_number % 10 == 0);
    }
    assert!(
        games < 10 || nontrivial_redeals > 0,
        "{} {}: the hidden-card redeal never changed anything",
        config.kind,
        config.variant
    );
}

#[test]
fn basra_standard_two_players_keeps_every_invariant() {
    run_configuration(0);
}

#[test]
fn basra_standard_three_players_keeps_every_invariant() {
    run_configuration(1);
}

#[test]
fn basra_standard_partnerships_keep_every_invariant() {
    run_configuration(2);
}

#[test]
fn basra_standard_house_rules_keep_every_invariant() {
    run_configuration(3);
}

#[test]
fn basra_classic44_keeps_every_invariant() {
    run_configuration(4);
}

#[test]
fn basra_cse231_keeps_every_invariant() {
    run_configuration(5);
}

#[test]
fn thirty_one_two_players_keeps_every_invariant() {
    run_configuration(6);
}

#[test]
fn thirty_one_five_players_with_thirty_and_a_half_keeps_every_invariant() {
    run_configuration(7);
}

#[test]
fn thirty_one_eight_players_keeps_every_invariant() {
    run_configuration(8);
}

#[test]
fn thirty_one_classic_keeps_every_invariant() {
    run_configuration(9);
}

#[test]
fn rummy_two_players_keeps_every_invariant() {
    run_configuration(10);
}

#[test]
fn rummy_five_players_keeps_every_invariant() {
    run_configuration(11);
}

#[test]
fn rummy_classic_keeps_every_invariant() {
    run_configuration(12);
}

#[test]
fn rummy_classic_four_players_keeps_every_invariant() {
    run_configuration(13);
}

#[test]
fn tarneeb_standard_keeps_every_invariant() {
    run_configuration(14);
}

#[test]
fn tarneeb_classic_keeps_every_invariant() {
    run_configuration(15);
}

#[test]
fn every_configuration_has_its_test() {
    assert_eq!(CONFIGURATIONS.len(), 16);
}
