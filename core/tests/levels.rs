//! The named levels every game offers (`easy`, `medium`, `hard`): listed in the catalogue,
//! always legal, and decided from the seat's view alone — a redeal of every card the seat
//! cannot see never changes a decision, at any level, in any game.
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::{
    AnyGame, Automatic, BotLevel, CardRng, Controller, GameKind, Options, Seed, Setup, Status,
    Viewer,
};

const NAMED: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Medium, BotLevel::Hard];

#[test]
fn every_game_lists_easy_medium_and_hard() {
    for kind in GameKind::ALL {
        let names: Vec<&str> = kind.describe().levels.iter().map(|l| l.name).collect();
        for level in NAMED {
            assert!(names.contains(&level.name()), "{kind}: {names:?}");
        }
    }
}

/// Plays the first hand of `games` games of `kind` with `level` in the even seats and `easy`
/// in the odd ones. At every computer decision: the move is legal, and the same move comes out
/// of a state whose hidden cards (from that seat) were dealt again. Returns the decisions
/// checked at `level`.
fn check_level(kind: GameKind, seats: usize, level: BotLevel, games: u8) -> usize {
    let controllers: Vec<Controller> = (0..seats)
        .map(|s| Controller::Computer(if s % 2 == 0 { level } else { BotLevel::Easy }))
        .collect();
    let mut checked = 0;
    for g in 0..games {
        let setup = Setup::seeded(Seed::from_bytes([g.wrapping_mul(37).wrapping_add(11); 32]));
        let (mut game, _) = AnyGame::create(kind, None, seats, &Options::new(), &setup).unwrap();
        let mut rng = CardRng::new(&Seed::from_bytes([g; 32]), 9);
        while game.status() == Status::Active {
            let Some(Automatic::Move(seat, mv)) = game.next_automatic(&controllers) else {
                panic!("{kind}: a computer seat to act gave no move");
            };
            assert!(
                game.legal_moves(seat).contains(&mv),
                "{kind} {level}: {mv:?} is not legal"
            );
            if seat.index() % 2 == 0 {
                for _ in 0..2 {
                    let mut other = game.clone();
                    other.shuffle_hidden(Viewer::Seat(seat), &mut rng);
                    match other.next_automatic(&controllers) {
                        Some(Automatic::Move(s, m)) => assert_eq!(
                            (s, &m),
                            (seat, &mv),
                            "{kind} {level}: the decision changed with cards {seat:?} cannot see"
                        ),
                        other => panic!("{kind}: expected a move, got {other:?}"),
                    }
                }
                checked += 1;
            }
            game.play(seat, &mv).unwrap();
        }
    }
    checked
}

fn check_all_levels(kind: GameKind, seats: usize, games: u8) {
    for level in NAMED {
        let checked = check_level(kind, seats, level, games);
        assert!(checked >= 10, "{kind} {level}: only {checked} decisions");
    }
}

#[test]
fn basra_levels_are_legal_and_see_only_their_view() {
    check_all_levels(GameKind::Basra, 2, 3);
}

#[test]
fn thirty_one_levels_are_legal_and_see_only_their_view() {
    check_all_levels(GameKind::ThirtyOne, 2, 6);
    check_level(GameKind::ThirtyOne, 4, BotLevel::Hard, 2);
}

#[test]
fn rummy_levels_are_legal_and_see_only_their_view() {
    check_all_levels(GameKind::Rummy, 2, 3);
}

#[test]
fn tarneeb_levels_are_legal_and_see_only_their_view() {
    check_all_levels(GameKind::Tarneeb, 4, 2);
}
