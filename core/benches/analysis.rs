//! A finished game's analysis (`analysis::Analyst`), kind by kind: games of every variant played
//! by computer players (`medium` against `easy`), then analysed move by move on one core as the
//! service's background job does. Prints a game's time, a decision's median and mean time, and
//! how many deals of the unseen cards a sampled decision took (Tarneeb's are exact: none).
//!
//! `cargo bench -p cardroom-core --bench analysis [-- GAMES] [NAME…]` (default 3 games a
//! variant, each cut at 2,000 moves; a NAME such as `rummy` or `basra classic44` keeps the
//! variants it names).
#![allow(clippy::unwrap_used, reason = "benchmark")]

use std::time::Instant;

use cardroom_core::analysis::{Analyst, GradeScale};
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
    while game.status() != Status::Finished && steps.len() < 2_000 {
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
        "| kind | variant | games | hands | decisions judged | mean a game | slowest game | mean a hand | median decision | mean decision | mean deals a decision | values within a twentieth of a mistake |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    // Any other argument keeps the variants whose "kind variant" contains it.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<u8>().is_err() && !a.starts_with('-'))
        .collect();
    for (kind, variant, seats) in VARIANTS {
        let name = format!("{kind} {variant}");
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let (mut hands, mut total, mut slowest) = (0usize, 0f64, 0f64);
        let mut times: Vec<f64> = Vec::new();
        let (mut deals, mut capped, mut sampled) = (0u64, 0usize, 0usize);
        for g in 0..games {
            let steps = played(kind, variant, seats, g);
            let mut analyst = Analyst::new(&steps[0].0);
            let precision = GradeScale::of(kind).mistake / 20.0;
            let started = Instant::now();
            let mut judged = 0;
            for (version, (before, step)) in steps.iter().enumerate() {
                if let Automatic::Move(seat, mv) = step {
                    let t = Instant::now();
                    analyst.observe(before, version as i64, *seat, mv).unwrap();
                    let now = analyst.decisions();
                    if now > judged {
                        let each = t.elapsed().as_secs_f64() / (now - judged) as f64;
                        times.extend(std::iter::repeat_n(each, now - judged));
                        judged = now;
                    }
                }
            }
            let t = Instant::now();
            let analysis = analyst.finish().unwrap();
            let tail = analysis.decisions.len() - judged;
            if tail > 0 {
                let each = t.elapsed().as_secs_f64() / tail as f64;
                times.extend(std::iter::repeat_n(each, tail));
            }
            let took = started.elapsed().as_secs_f64();
            total += took;
            slowest = slowest.max(took);
            hands += steps
                .last()
                .map_or(1, |(g, _)| g.table().hand_number() as usize);
            for d in &analysis.decisions {
                if std::env::var("SIGMA").is_ok() && d.samples > 0 {
                    let n = f64::from(d.samples).sqrt();
                    eprintln!(
                        "{kind} {variant} n={} sigma_best={:.2} sigma_played={:.2} loss={} [{}, {}] noise={}",
                        d.samples,
                        d.best_error * n,
                        d.played_error * n,
                        d.loss,
                        d.loss_low,
                        d.loss_high,
                        d.within_noise
                    );
                }
                deals += u64::from(d.samples);
                sampled += usize::from(d.samples > 0);
                capped +=
                    usize::from(d.samples > 0 && d.best_error.max(d.played_error) <= precision);
            }
        }
        times.sort_by(f64::total_cmp);
        let n = times.len().max(1);
        println!(
            "| {kind} | {variant} | {games} | {hands} | {} | {:.2} s | {:.2} s | {:.0} ms | {:.2} ms | {:.2} ms | {:.0} | {:.1}% |",
            times.len(),
            total / f64::from(games),
            slowest,
            1000.0 * total / hands.max(1) as f64,
            1000.0 * times.get(times.len() / 2).copied().unwrap_or(0.0),
            1000.0 * times.iter().sum::<f64>() / n as f64,
            deals as f64 / sampled.max(1) as f64,
            100.0 * capped as f64 / sampled.max(1) as f64,
        );
    }
}
