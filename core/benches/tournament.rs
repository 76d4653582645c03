//! Pairing a round of 1,000 entrants, in memory: a Swiss round late in an event (six rounds
//! of meetings to avoid) at tables of 2 and of 4, and an arena pairing of 1,000 free entrants.
//!
//! `cargo bench -p cardroom-core --bench tournament`. The pairing is a function of the
//! standings alone; what the service adds around it (reading the standings, writing the
//! tables) is measured with the service.
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::hint::black_box;

use cardroom_core::tournament::arena::{self, Free};
use cardroom_core::tournament::swiss::{self, Entry};
use cardroom_core::tournament::{Met, place_points};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const ENTRANTS: u32 = 1000;

/// The field after `rounds` Swiss rounds in which the better-rated player always won.
fn field_after(rounds: usize, seats: usize) -> (Vec<Entry>, Met) {
    let mut field: Vec<Entry> = (0..ENTRANTS)
        .map(|i| Entry {
            entrant: i,
            points: 0,
            rating: 1200.0 + f64::from((i * 7919) % 1000),
            byes: 0,
        })
        .collect();
    let mut met = Met::default();
    for _ in 0..rounds {
        let round = swiss::pair(&field, seats, &met);
        for table in &round.tables {
            met.table(table);
            let places: Vec<u8> = table
                .iter()
                .map(|&e| {
                    let r = field[e as usize].rating;
                    table
                        .iter()
                        .filter(|&&o| field[o as usize].rating > r)
                        .count() as u8
                })
                .collect();
            for (&e, p) in table.iter().zip(place_points(&places)) {
                field[e as usize].points += p;
            }
        }
        for &e in &round.byes {
            field[e as usize].byes += 1;
        }
    }
    (field, met)
}

fn pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("pair 1000");
    for seats in [2usize, 4] {
        let (field, met) = field_after(6, seats);
        let round = swiss::pair(&field, seats, &met);
        let seated = round.tables.iter().flatten().count() + round.byes.len();
        assert_eq!(seated, ENTRANTS as usize, "everyone seated once");
        let repeats = round
            .tables
            .iter()
            .filter(|t| (1..t.len()).any(|i| met.repeats(t[i], &t[..i]) > 0))
            .count();
        println!(
            "swiss round 7, tables of {seats}: {} tables, {} byes, {repeats} tables with a repeat",
            round.tables.len(),
            round.byes.len()
        );
        group.bench_function(BenchmarkId::new("swiss round 7", seats), |b| {
            b.iter(|| swiss::pair(black_box(&field), seats, black_box(&met)))
        });
    }
    let free: Vec<Free> = (0..ENTRANTS)
        .map(|i| Free {
            entrant: i,
            points: (i * 31) % 40,
            rating: 1200.0 + f64::from((i * 7919) % 1000),
            since: u64::from(i),
            last: vec![(i + 1) % ENTRANTS],
        })
        .collect();
    for seats in [2usize, 4] {
        group.bench_function(BenchmarkId::new("arena", seats), |b| {
            b.iter(|| arena::pair(black_box(&free), seats))
        });
    }
    group.finish();
}

criterion_group!(benches, pairing);
criterion_main!(benches);
