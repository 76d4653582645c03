//! The arena: measures one computer player against another with duplicate matches.
//!
//! A *match* is one seed played twice: once with strategy A in the even seats and B in the odd
//! ones, once the other way round. Seat parity is also the partnership in Tarneeb, so the
//! same cards reach each strategy once and the luck of the deal cancels (BOTS.md: 1.4–9×
//! less variance). Each game is played to its end; a match scores 1 for A when A won both
//! games, ½ when the games split (or were drawn), 0 when B won both, with the quarters in
//! between for a drawn game beside a decided one.
//!
//! Strategies see only their seat's view ([`Strategy::choose`] receives `&G::View`), exactly
//! as the service's computer players do, and get the same decision generator (the game seed's
//! stream for that move), so a match is reproducible from its seed. A person's own bot plugs in
//! by implementing [`Strategy`]; see `core/examples/arena_custom.rs`.
//!
//! Matches run in parallel on `threads` worker threads; the report does not depend on how
//! many (results are gathered in match order).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::bots::ComputerPlayer;
use crate::game::{Game, PlayerView};
use crate::level::BotLevel;
use crate::rng::{CardRng, Seed};
use crate::search::drawn_seed;
use crate::seat::{Seat, Viewer};
use crate::table::{Setup, Status};

/// A computer player the arena can seat: a function of one seat's view.
pub trait Strategy<G: Game>: Send + Sync {
    /// The name printed in the report.
    fn name(&self) -> String;

    /// A move for the seat whose view this is; `None` (or an illegal move) is replaced by the
    /// first legal move and counted against the strategy.
    fn choose(&self, view: &G::View, rng: &mut CardRng) -> Option<G::Move>;
}

/// The built-in levels are strategies.
impl<G: ComputerPlayer> Strategy<G> for BotLevel {
    fn name(&self) -> String {
        BotLevel::name(*self).to_owned()
    }

    fn choose(&self, view: &G::View, rng: &mut CardRng) -> Option<G::Move> {
        G::bot_move(view, *self, rng)
    }
}

/// How many matches, on how many threads, from which seed.
#[derive(Clone, Debug)]
pub struct ArenaSpec {
    pub matches: usize,
    pub threads: usize,
    pub seed: Seed,
}

/// A mean with its 95% confidence interval (normal approximation: mean ± 1.96 standard
/// errors, the standard deviation taken with n − 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// The interval of the mean of `samples`; for fewer than two samples the interval is
    /// unbounded (nothing is known about the spread).
    pub fn of(samples: &[f64]) -> Interval {
        let n = samples.len();
        if n == 0 {
            return Interval {
                mean: f64::NAN,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Interval {
                mean,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        }
        let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let half = 1.96 * (variance / n as f64).sqrt();
        Interval {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }
}

impl Interval {
    /// The interval cut to the range the quantity can take (a share cannot pass 0 or 1, which
    /// the normal approximation ignores near the ends).
    pub fn clamped(self, low: f64, high: f64) -> Interval {
        Interval {
            mean: self.mean,
            low: self.low.clamp(low, high),
            high: self.high.clamp(low, high),
        }
    }
}

/// Percentiles of the time a strategy took per decision.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThinkTime {
    pub decisions: usize,
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl ThinkTime {
    /// Nearest-rank percentiles of `times`.
    pub fn of(times: &mut [Duration]) -> ThinkTime {
        times.sort_unstable();
        let at = |p: f64| -> Duration {
            if times.is_empty() {
                return Duration::ZERO;
            }
            let rank = ((p * times.len() as f64).ceil() as usize).clamp(1, times.len());
            times[rank - 1]
        };
        ThinkTime {
            decisions: times.len(),
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: times.last().copied().unwrap_or_default(),
        }
    }
}

/// One game's result, from A's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// 1 won, ½ drawn (or stopped by the move cap), 0 lost.
    pub score: f64,
    /// A's final total less B's (the mean over each strategy's sides).
    pub margin: f64,
}

/// What the arena measured.
#[derive(Clone, Debug)]
pub struct ArenaReport {
    pub a: String,
    pub b: String,
    pub matches: usize,
    /// Matches A won (both games), split, and lost (both games).
    pub won: usize,
    pub split: usize,
    pub lost: usize,
    /// A's match score (1, ½ or 0 and the quarters between), with its interval.
    pub match_score: Interval,
    /// A's game score, with its interval (games of one match are not independent, so this
    /// interval is only indicative; the match interval is the one to quote).
    pub game_score: Interval,
    /// A's mean point margin per game, over matches.
    pub margin: Interval,
    pub games_per_second: f64,
    pub elapsed: Duration,
    pub think_a: ThinkTime,
    pub think_b: ThinkTime,
    /// Decisions where a strategy gave no legal move (replaced by the first legal move).
    pub illegal_a: usize,
    pub illegal_b: usize,
}

/// What went wrong before any match was played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    #[error("the game could not be set up: {0}")]
    Setup(String),
}

/// One game's measurements.
struct Played {
    result: GameResult,
    think: [Vec<Duration>; 2],
    illegal: [usize; 2],
}

/// Both games of a match, or why they could not be played.
type MatchResult = Result<[Played; 2], ArenaError>;

/// The seed of match `i`.
fn match_seed(base: &Seed, i: usize) -> Seed {
    drawn_seed(&mut CardRng::new(base, i as u64))
}

/// Plays one game from `seed` with `strategies[0]` in the even seats and `[1]` in the odd
/// ones when `a_even`, and the other way round when not.
fn play_game<G: Game>(
    config: &G::Config,
    seed: Seed,
    strategies: [&dyn Strategy<G>; 2],
    a_even: bool,
) -> Result<Played, ArenaError> {
    let (mut game, _) = G::start(config.clone(), &Setup::seeded(seed))
        .map_err(|e| ArenaError::Setup(e.to_string()))?;
    // Which strategy (0 = A, 1 = B) plays a seat.
    let who = |seat: Seat| usize::from(seat.index().is_multiple_of(2) != a_even);
    let mut think: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut illegal = [0usize; 2];
    loop {
        match game.status() {
            Status::Finished => break,
            Status::HandOver => {
                if game.deal_next().is_err() {
                    break;
                }
            }
            Status::Active => {
                let Some(seat) = game.to_act() else { break };
                let view = game.view(Viewer::Seat(seat));
                let mut rng = game.table().decision_rng();
                let player = who(seat);
                let started = Instant::now();
                let chosen = strategies[player].choose(&view, &mut rng);
                think[player].push(started.elapsed());
                let mv = match chosen {
                    Some(mv) if view.legal_moves().contains(&mv) => mv,
                    _ => {
                        illegal[player] += 1;
                        match view.legal_moves().first() {
                            Some(mv) => mv.clone(),
                            None => break,
                        }
                    }
                };
                if game.play(seat, &mv).is_err() {
                    break;
                }
            }
        }
    }
    let table = game.table();
    let side_player = |side: u8| {
        Seat::all(table.seats())
            .find(|&s| table.side_of(s) == side)
            .map(who)
    };
    let sides = table.sides().count();
    let mut totals = [0.0f64; 2];
    let mut counts = [0usize; 2];
    for (side, &total) in table.totals().iter().enumerate().take(sides) {
        if let Some(player) = side_player(side as u8) {
            totals[player] += f64::from(total);
            counts[player] += 1;
        }
    }
    let mean = |p: usize| totals[p] / counts[p].max(1) as f64;
    let winners: Vec<usize> = table
        .outcome()
        .map(|o| o.winners.iter().filter_map(|&s| side_player(s)).collect())
        .unwrap_or_default();
    let score = match (winners.contains(&0), winners.contains(&1)) {
        (true, false) => 1.0,
        (false, true) => 0.0,
        _ => 0.5,
    };
    Ok(Played {
        result: GameResult {
            score,
            margin: mean(0) - mean(1),
        },
        think,
        illegal,
    })
}

/// Plays `spec.matches` duplicate matches of `a` against `b` at tables set up by `config`.
pub fn run<G: Game>(
    config: &G::Config,
    a: &dyn Strategy<G>,
    b: &dyn Strategy<G>,
    spec: &ArenaSpec,
) -> Result<ArenaReport, ArenaError> {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MatchResult>>> =
        Mutex::new((0..spec.matches).map(|_| None).collect());
    let strategies = [a, b];
    std::thread::scope(|scope| {
        for _ in 0..spec.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= spec.matches {
                        break;
                    }
                    let seed = match_seed(&spec.seed, i);
                    let pair = play_game(config, seed, strategies, true).and_then(|first| {
                        play_game(config, seed, strategies, false).map(|second| [first, second])
                    });
                    if let Ok(mut slots) = results.lock() {
                        slots[i] = Some(pair);
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed();
    let slots = results
        .into_inner()
        .map_err(|_| ArenaError::Setup("a worker thread panicked".to_owned()))?;

    let mut match_scores = Vec::with_capacity(spec.matches);
    let mut game_scores = Vec::with_capacity(2 * spec.matches);
    let mut margins = Vec::with_capacity(spec.matches);
    let mut think: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut illegal = [0usize; 2];
    let (mut won, mut split, mut lost) = (0, 0, 0);
    for slot in slots {
        let pair = slot.ok_or_else(|| ArenaError::Setup("a match was not played".to_owned()))??;
        let score = (pair[0].result.score + pair[1].result.score) / 2.0;
        match score {
            s if s > 0.5 => won += 1,
            s if s < 0.5 => lost += 1,
            _ => split += 1,
        }
        match_scores.push(score);
        margins.push((pair[0].result.margin + pair[1].result.margin) / 2.0);
        for played in pair {
            game_scores.push(played.result.score);
            for p in 0..2 {
                think[p].extend_from_slice(&played.think[p]);
                illegal[p] += played.illegal[p];
            }
        }
    }
    let [mut think_a, mut think_b] = think;
    Ok(ArenaReport {
        a: a.name(),
        b: b.name(),
        matches: spec.matches,
        won,
        split,
        lost,
        match_score: Interval::of(&match_scores).clamped(0.0, 1.0),
        game_score: Interval::of(&game_scores).clamped(0.0, 1.0),
        margin: Interval::of(&margins),
        games_per_second: game_scores.len() as f64 / elapsed.as_secs_f64().max(1e-9),
        elapsed,
        think_a: ThinkTime::of(&mut think_a),
        think_b: ThinkTime::of(&mut think_b),
        illegal_a: illegal[0],
        illegal_b: illegal[1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9
    }

    #[test]
    fn intervals_match_values_worked_by_hand() {
        // Mean ½, sample variance 1/3 (n − 1), standard error √(1/12).
        let i = Interval::of(&[1.0, 1.0, 0.0, 0.0]);
        assert!(close(i.mean, 0.5));
        let half = 1.96 * (1.0f64 / 12.0).sqrt();
        assert!(
            close(i.low, 0.5 - half) && close(i.high, 0.5 + half),
            "{i:?}"
        );
        // 60 wins in 100: 0.6 ± 1.96·√(0.6·0.4·100/99/100) = 0.6 ± 0.09650.
        let mut samples = vec![1.0; 60];
        samples.extend(vec![0.0; 40]);
        let i = Interval::of(&samples);
        assert!(close(i.mean, 0.6));
        assert!((i.high - i.mean - 0.096_50).abs() < 1e-5, "{i:?}");
        // No spread: a point.
        let i = Interval::of(&[0.75; 10]);
        assert!(close(i.low, 0.75) && close(i.high, 0.75));
        // 19 wins in 20 reach past 100% before the cut.
        let mut samples = vec![1.0; 19];
        samples.push(0.0);
        let i = Interval::of(&samples);
        assert!(i.high > 1.0);
        let cut = i.clamped(0.0, 1.0);
        assert!(close(cut.high, 1.0) && close(cut.low, i.low) && close(cut.mean, 0.95));
        // Too few samples to say anything.
        let i = Interval::of(&[1.0]);
        assert!(close(i.mean, 1.0) && i.low.is_infinite() && i.high.is_infinite());
        assert!(Interval::of(&[]).mean.is_nan());
    }

    /// A strategy that never gives a move.
    struct Silent;

    impl Strategy<crate::games::basra::Basra> for Silent {
        fn name(&self) -> String {
            "silent".to_owned()
        }
        fn choose(
            &self,
            _: &crate::games::basra::BasraView,
            _: &mut CardRng,
        ) -> Option<crate::games::basra::BasraMove> {
            None
        }
    }

    #[test]
    fn missing_moves_are_replaced_counted_and_the_report_is_the_same_on_any_thread_count() {
        use crate::games::basra::Basra;
        let config = Basra::configure(None, 2, &crate::Options::new()).unwrap();
        let spec = |threads| ArenaSpec {
            matches: 3,
            threads,
            seed: Seed::from_bytes([4; 32]),
        };
        let report = run::<Basra>(&config, &Silent, &BotLevel::Easy, &spec(2)).unwrap();
        assert_eq!(report.matches, 3);
        assert_eq!(report.won + report.split + report.lost, 3);
        // Every one of A's decisions was replaced by its first legal move; none of B's.
        assert_eq!(report.illegal_a, report.think_a.decisions);
        assert!(report.illegal_a > 0);
        assert_eq!(report.illegal_b, 0);
        let again = run::<Basra>(&config, &Silent, &BotLevel::Easy, &spec(1)).unwrap();
        assert_eq!(again.match_score, report.match_score);
        assert_eq!(again.margin, report.margin);
        assert_eq!(again.illegal_a, report.illegal_a);
    }

    #[test]
    fn think_time_percentiles_are_nearest_rank() {
        let mut times: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let t = ThinkTime::of(&mut times);
        assert_eq!(t.decisions, 100);
        assert_eq!(t.p50, Duration::from_millis(50));
        assert_eq!(t.p90, Duration::from_millis(90));
        assert_eq!(t.p99, Duration::from_millis(99));
        assert_eq!(t.max, Duration::from_millis(100));
        assert_eq!(ThinkTime::of(&mut []), ThinkTime::default());
    }
}
