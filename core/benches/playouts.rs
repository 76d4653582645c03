//! Random full-game playouts per second, per game and variant, and Basra's capture search.
//!
//! `cargo bench -p cardroom-core --bench playouts`. A playout is a whole game from a fresh seed
//! with uniformly random legal moves (and the next deal whenever a hand is over); the moves per
//! game are printed so that moves per second (state transitions) can be read off too.
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::hint::black_box;

use cardroom_core::game::Game;
use cardroom_core::games::basra::{Basra, BasraConfig, capture};
use cardroom_core::games::rummy::{Rummy, RummyConfig};
use cardroom_core::games::tarneeb::{Tarneeb, TarneebConfig};
use cardroom_core::games::thirty_one::{ThirtyOne, ThirtyOneConfig};
use cardroom_core::{CardRng, CardSet, Options, Seed, Setup, Status};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const BASRA: &[(&str, usize)] = &[
    ("standard", 2),
    ("standard", 4),
    ("classic44", 2),
    ("cse231", 2),
];

const THIRTY_ONE: &[(&str, usize)] = &[("standard", 2), ("standard", 6), ("classic", 2)];

const RUMMY: &[(&str, usize)] = &[("standard", 2), ("standard", 4), ("classic", 2)];

const TARNEEB: &[(&str, usize)] = &[("standard", 4), ("classic", 4)];

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    Seed::from_bytes(bytes)
}

/// Plays one game with random legal moves; returns the number of moves.
fn random_playout<G: Game>(config: &G::Config, n: u64) -> u32 {
    let (mut game, _) = G::start(config.clone(), &Setup::seeded(seed(n))).unwrap();
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

fn bench_playouts<G: Game>(c: &mut Criterion, name: &str, configs: Vec<(&str, usize, G::Config)>) {
    let mut group = c.benchmark_group(format!("{name}_random_playout"));
    for (variant, seats, config) in configs {
        let sample: u32 = (0..200).map(|n| random_playout::<G>(&config, n)).sum();
        eprintln!(
            "{name} {variant} {seats} players: {:.1} moves per random game",
            f64::from(sample) / 200.0
        );
        let mut n = 0u64;
        group.bench_function(BenchmarkId::new(variant, seats), |b| {
            b.iter(|| {
                n += 1;
                black_box(random_playout::<G>(&config, n))
            })
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let basra = BASRA
        .iter()
        .map(|&(v, n)| (v, n, BasraConfig::new(Some(v), n, &Options::new()).unwrap()))
        .collect();
    bench_playouts::<Basra>(c, "basra", basra);
    let thirty_one = THIRTY_ONE
        .iter()
        .map(|&(v, n)| {
            (
                v,
                n,
                ThirtyOneConfig::new(Some(v), n, &Options::new()).unwrap(),
            )
        })
        .collect();
    bench_playouts::<ThirtyOne>(c, "thirty_one", thirty_one);
    let rummy = RUMMY
        .iter()
        .map(|&(v, n)| (v, n, RummyConfig::new(Some(v), n, &Options::new()).unwrap()))
        .collect();
    bench_playouts::<Rummy>(c, "rummy", rummy);
    let tarneeb = TARNEEB
        .iter()
        .map(|&(v, n)| {
            (
                v,
                n,
                TarneebConfig::new(Some(v), n, &Options::new()).unwrap(),
            )
        })
        .collect();
    bench_playouts::<Tarneeb>(c, "tarneeb", tarneeb);
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
