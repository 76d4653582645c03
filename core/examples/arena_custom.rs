//! A person-made computer player in the arena: a Basra player that always throws its lowest
//! card unless it can capture, measured against the built-in `easy` level.
//!
//! Run: `cargo run --release -p cardroom-core --example arena_custom [MATCHES]`
//!
//! A strategy implements [`Strategy`]: it is given one seat's view (never the state) and the
//! decision's random generator, and returns a move. The arena plays duplicate matches (every
//! seed twice, seats swapped) and reports the match score with its 95% interval.

use cardroom_core::arena::{self, ArenaSpec, Strategy};
use cardroom_core::games::basra::{Basra, BasraMove, BasraView};
use cardroom_core::{BotLevel, CardRng, Game, Options, Seed};

/// Captures the most cards it can; otherwise throws its lowest card.
struct Grabber;

impl Strategy<Basra> for Grabber {
    fn name(&self) -> String {
        "grabber".to_owned()
    }

    fn choose(&self, view: &BasraView, _rng: &mut CardRng) -> Option<BasraMove> {
        view.legal_moves
            .iter()
            .max_by_key(|mv| {
                let taken = mv.capture().map_or(0, |c| c.len());
                (taken, std::cmp::Reverse(mv.card().rank().number()))
            })
            .cloned()
    }
}

fn main() {
    let matches = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(50);
    let config = Basra::configure(None, 2, &Options::new()).expect("the default Basra table");
    let spec = ArenaSpec {
        matches,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: Seed::from_bytes([7; 32]),
    };
    match arena::run::<Basra>(&config, &Grabber, &BotLevel::Easy, &spec) {
        Ok(report) => println!(
            "{} against {}: match score {:.1}% (95% interval {:.1}% to {:.1}%), {:.1} games/s",
            report.a,
            report.b,
            100.0 * report.match_score.mean,
            100.0 * report.match_score.low,
            100.0 * report.match_score.high,
            report.games_per_second
        ),
        Err(error) => eprintln!("arena: {error}"),
    }
}
