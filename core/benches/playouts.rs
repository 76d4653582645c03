//! Random full-game playouts per second and the capture search, per Basra variant.
//!
//! `cargo bench -p cardroom-core --bench playouts`. A playout is a whole game from a fresh seed
//! with uniformly random legal moves (and the next deal whenever a hand is over); the moves per
//! game are printed so that moves per second (state transitions) can be read off too.
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::hint::black_box;

use cardroom_core::game::Game;
use cardroom_core::games::basra::{Basra, BasraConfig, capture};
use cardroom_core::{CardRng, CardSet, Options, Seed, Setup, Status};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const VARIANTS: &[(&str, usize)] = &[
    ("standard", 2),
    ("standard", 4),
    ("classic44", 2),
    ("cse231", 2),
];

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    Seed::from_bytes(bytes)
}

/// Plays one game with random legal moves; returns the number of moves.
fn random_playout(config: &BasraConfig, n: u64) -> u32 {
    let (mut game, _) = Basra::start(config.clone(), &Setup::seeded(seed(n))).unwrap();
    let mut rng = CardRng::new(&seed(n), 1);
    loop {
        match game.status() {
            Status::Finished => return game.table().moves(),
            Status::HandOver => {
                game.deal_next().unwrap();
            }
            Status::Active => {
                let seat = game.to_act().unwrap();
                let moves = game.legal_moves(seat);
                let mv = &moves[rng.index(moves.len())];
                game.play(seat, mv).unwrap();
            }
        }
    }
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("basra_random_playout");
    for &(variant, seats) in VARIANTS {
        let config = BasraConfig::new(Some(variant), seats, &Options::new()).unwrap();
        let sample: u32 = (0..200).map(|n| random_playout(&config, n)).sum();
        eprintln!(
            "basra {variant} {seats} players: {:.1} moves per random game",
            f64::from(sample) / 200.0
        );
        let mut n = 0u64;
        group.bench_function(BenchmarkId::new(variant, seats), |b| {
            b.iter(|| {
                n += 1;
                black_box(random_playout(&config, n))
            })
        });
    }
    group.finish();
}

/// Floors of `size` random cards of the 52, with a numeral to play that is not among them.
fn floors(size: usize, count: u64) -> Vec<(cardroom_core::Card, CardSet)> {
    (0..count)
        .map(|n| {
            let mut rng = CardRng::new(&seed(n), 2);
            let mut deck = CardSet::ALL.to_vec();
            rng.shuffle(&mut deck);
            let card = *deck
                .iter()
                .find(|c| c.rank().is_numeral() && c.rank().number() >= 5)
                .unwrap();
            let floor = deck.iter().filter(|c| **c != card).take(size).collect();
            (card, floor)
        })
        .collect()
}

fn capture_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("basra_capture_search");
    for size in [4usize, 8, 12] {
        let cases = floors(size, 256);
        group.bench_function(BenchmarkId::new("preferred", size), |b| {
            b.iter(|| {
                for (card, floor) in &cases {
                    black_box(capture::preferred(*card, *floor, capture::Groups::AnySize));
                }
            })
        });
        group.bench_function(BenchmarkId::new("choices", size), |b| {
            b.iter(|| {
                for (card, floor) in &cases {
                    black_box(capture::choices(*card, *floor, capture::Groups::AnySize));
                }
            })
        });
        group.bench_function(BenchmarkId::new("pairs", size), |b| {
            b.iter(|| {
                for (card, floor) in &cases {
                    black_box(capture::preferred(*card, *floor, capture::Groups::Pairs));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, capture_search);
criterion_main!(benches);
