//! A finished game's analysis (`analysis::Analyst`), kind by kind: games of every variant played
//! by computer players (`medium` against `easy`), then analysed move by move on one core as the
//! service's background job does. Prints the time a hand and a judged decision take.
//!
//! `cargo bench -p cardroom-core --bench analysis [-- GAMES]` (default 3 games a variant, each
//! cut at 400 moves).
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::time::Instant;

use cardroom_core::analysis::Analyst;
use cardroom_core::table::{Setup, Status};
use cardroom_core::{AnyGame, Automatic, BotLevel, Controller, GameKind, Options, Seed};

const VARIANTS: [(GameKind, &str, usize); 9] = [
    (GameKind::Basra, "standard", 2),
    (GameKind::Basra, "classic44", 2),
    (GameKind::Basra, "cse231", 2),
    (GameKind::ThirtyOne, "standard", 4),
    (GameKind::ThirtyOne, "classic", 2),
    (GameKind::Rummy, "standard", 2),
    (GameKind::Rummy, "classic", 2),
    (GameKind::Tarneeb, "standard", 4),
    (GameKind::Tarneeb, "classic", 4),
];

/// The moves of a game played by computer players, with the state before each.
fn played(
    kind: GameKind,
    variant: &str,
    seats: usize,
    g: u8,
) -> Vec<(AnyGame, Automatic<cardroom_core::AnyMove>)> {
    let setup = Setup::seeded(Seed::from_bytes([g.wrapping_mul(29).wrapping_add(1); 32]));
    let (mut game, _) =
        AnyGame::create(kind, Some(variant), seats, &Options::new(), &setup).unwrap();
    let controllers: Vec<Controller> = (0..seats)
        .map(|s| {
            Controller::Computer(if s % 2 == 0 {
                BotLevel::Medium
            } else {
                BotLevel::Easy
            })
        })
        .collect();
    let mut steps = Vec::new();
    while game.status() != Status::Finished && steps.len() < 400 {
        let Some(next) = game.next_automatic(&controllers) else {
            break;
        };
        let before = game.clone();
        match &next {
            Automatic::Move(seat, mv) => {
                game.play(*seat, mv).unwrap();
            }
            Automatic::Deal => {
                game.deal_next().unwrap();
            }
        }
        steps.push((before, next));
    }
    steps
}

fn main() {
    let games: u8 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3);
    println!(
        "| kind | variant | hands | decisions judged | mean a hand | mean a decision | slowest hand |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (kind, variant, seats) in VARIANTS {
        let (mut hands, mut decisions, mut total, mut slowest) = (0usize, 0usize, 0f64, 0f64);
        for g in 0..games {
            let steps = played(kind, variant, seats, g);
            let mut analyst = Analyst::new(&steps[0].0);
            let mut hand_started = Instant::now();
            let mut hand = steps[0].0.table().hand_number();
            let started = Instant::now();
            for (version, (before, step)) in steps.iter().enumerate() {
                if before.table().hand_number() != hand {
                    slowest = slowest.max(hand_started.elapsed().as_secs_f64());
                    hand_started = Instant::now();
                    hand = before.table().hand_number();
                    hands += 1;
                }
                if let Automatic::Move(seat, mv) = step {
                    analyst.observe(before, version as i64, *seat, mv).unwrap();
                }
            }
            let analysis = analyst.finish().unwrap();
            slowest = slowest.max(hand_started.elapsed().as_secs_f64());
            hands += 1;
            decisions += analysis.decisions.len();
            total += started.elapsed().as_secs_f64();
        }
        println!(
            "| {kind} | {variant} | {hands} | {decisions} | {:.0} ms | {:.1} ms | {:.0} ms |",
            1000.0 * total / hands.max(1) as f64,
            1000.0 * total / decisions.max(1) as f64,
            1000.0 * slowest,
        );
    }
}
