//! Basra, 31 and Rummy: each decision judged from its seat's view alone, by its own measure.
//!
//! - **Deals.** The cards the seat cannot see are dealt at random consistently with everything
//!   its view shows ([`Determinize`]), from the game seed's analysis stream.
//! - **Every move on the same deals.** Each legal move is played on each deal, and the hand is
//!   then played out by the `greedy` players (every level's plan, without random blunders or
//!   memory)
//!   with the same random numbers for every move (common random numbers): the differences
//!   between moves measure the moves, not the luck of a deal or of a playout.
//! - **Racing.** All legal moves take part in the first batch of deals; after each batch a move
//!   whose deficit to the leader is certain (beyond [`DROP_Z`] standard errors) drops out. The
//!   move played never drops out, so it is always compared with the best on the same deals.
//! - **Enough deals.** Batches are added until the grade is settled (the interval of the loss
//!   excludes zero, or lies wholly under the inaccuracy threshold) and the values are as precise
//!   as [`precision`] asks, or the kind's budget of playout moves is spent, or [`MAX_SAMPLES`]
//!   deals.
//! - **The best by its own measure.** `best` is the move with the highest mean value (and every
//!   move equal to it on every deal), so `loss = best_value − played_value` is never negative. A
//!   loss whose interval reaches zero is within the noise: graded good, and said so.
//! - **Each game's own unit** ([`Unit`]): what the rest of the hand does to the seat's side's
//!   total (points; lives in 31, tokens in its `classic`) less what it does to the best other
//!   side's. A game won or lost in the hand counts for what the hand moved, nothing more.

use crate::any::{AnyGame, AnyMove};
use crate::game::{Game, PlayerView};
use crate::games::rummy::Variant as RummyVariant;
use crate::level::BotLevel;
use crate::rng::CardRng;
use crate::search::{self, Determinize};
use crate::seat::{Seat, Viewer};

use super::Unit;
use super::decision::{AnalysisError, Decision, Grade, GradeScale};

/// The confidence of every interval the analysis reports.
pub const CONFIDENCE: f64 = 0.95;
/// The two-sided normal quantile of [`CONFIDENCE`].
const Z: f64 = 1.96;
/// The standard errors a move must trail the leader by to drop out of the race: stricter than
/// the 1.96 of the reported intervals, since a batch tests every move at once.
pub const DROP_Z: f64 = 3.0;
/// Who plays the rest of the hand out after each move: every level's plan, without random
/// blunders or memory (in Basra and 31 the same as `easy`; in Rummy `easy` throws a random card
/// one move in four, which made the seat's own rest of a turn of melds a lottery, and equal
/// moves look unequal).
const PLAYOUTS_BY: BotLevel = BotLevel::Greedy;
/// Deals a batch adds.
pub const BATCH: usize = 16;
/// The most deals one decision is given.
pub const MAX_SAMPLES: usize = 1024;

/// What a sampled decision counts, and whether a lower total is the better one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Measure {
    pub unit: Unit,
    lower_wins: bool,
    /// 31: a seat already out (a total below zero) is no longer an other side.
    skip_out: bool,
    /// The most moves a decision's playouts may make in all, counted over its batches: a
    /// position late in a hand, whose playouts are short, gets more deals than an early one, and
    /// a game whose moves cost more (a Rummy `classic` player weighs every unseen card at each
    /// exchange) gets fewer.
    pub budget: usize,
}

impl Measure {
    /// The measure of a hidden-card game; `None` for Tarneeb.
    pub fn of(game: &AnyGame) -> Option<Measure> {
        let plain = |unit| Measure {
            unit,
            lower_wins: false,
            skip_out: false,
            budget: 60_000,
        };
        match game {
            AnyGame::Basra(_) => Some(plain(Unit::Points)),
            AnyGame::Rummy(g) => {
                let classic = g.config().variant == RummyVariant::Classic;
                Some(Measure {
                    lower_wins: classic,
                    budget: if classic { 8_000 } else { 15_000 },
                    ..plain(Unit::Points)
                })
            }
            AnyGame::ThirtyOne(g) => Some(Measure {
                unit: if g.config().variant == crate::games::thirty_one::Variant::Classic {
                    Unit::Tokens
                } else {
                    Unit::Lives
                },
                lower_wins: false,
                skip_out: true,
                budget: 60_000,
            }),
            AnyGame::Tarneeb(_) => None,
        }
    }

    /// What happened to `seat`'s side between the totals `start` and the game `end`: its
    /// change less the best change of another side (in `lower_wins` games, the reverse).
    fn value<G: Game>(self, start: &[i32], end: &G, seat: Seat) -> f64 {
        let table = end.table();
        let mine = usize::from(table.side_of(seat));
        let totals = table.totals();
        let change = |i: usize| {
            f64::from(totals.get(i).copied().unwrap_or(0) - start.get(i).copied().unwrap_or(0))
        };
        let others = (0..start.len())
            .filter(|&i| i != mine && !(self.skip_out && start[i] < 0))
            .map(change);
        let own = change(mine);
        if self.lower_wins {
            others
                .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.min(c))))
                .map_or(0.0, |best| best - own)
        } else {
            others
                .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
                .map_or(own, |best| own - best)
        }
    }
}

/// How precise a value must be before the judgement stops: a twentieth of the mistake
/// threshold as a standard error, so that the same position judged from other seeds differs by
/// well under a tenth of it.
pub fn precision(scale: GradeScale) -> f64 {
    scale.mistake / 20.0
}

/// The decision `seat` took by playing `mv` from `before`; `None` when it had no choice.
pub(super) fn judge(
    before: &AnyGame,
    version: i64,
    seat: Seat,
    mv: &AnyMove,
) -> Result<Option<Decision>, AnalysisError> {
    let scale = GradeScale::of(before.kind());
    let Some(measure) = Measure::of(before) else {
        return Err(AnalysisError::WrongGame);
    };
    let judge = Judge {
        version,
        seat,
        scale,
        measure,
    };
    Ok(match (before, mv) {
        (AnyGame::Basra(g), AnyMove::Basra(m)) => judge.run(g, m, AnyMove::Basra),
        (AnyGame::ThirtyOne(g), AnyMove::ThirtyOne(m)) => judge.run(g, m, AnyMove::ThirtyOne),
        (AnyGame::Rummy(g), AnyMove::Rummy(m)) => judge.run(g, m, AnyMove::Rummy),
        _ => return Err(AnalysisError::WrongGame),
    })
}

/// One decision's judgement.
struct Judge {
    version: i64,
    seat: Seat,
    scale: GradeScale,
    measure: Measure,
}

/// The values of the moves still racing on the deals so far: `rows[deal][move]` (`NaN` for a
/// move dropped before that deal).
struct Race {
    rows: Vec<Vec<f64>>,
    racing: Vec<bool>,
}

impl Race {
    fn mean(&self, i: usize) -> f64 {
        mean(self.rows.iter().map(|row| row[i]))
    }

    /// The mean and standard error of `a − b` over the deals both were played on.
    fn difference(&self, a: usize, b: usize) -> (f64, f64) {
        let diffs: Vec<f64> = self.rows.iter().map(|row| row[a] - row[b]).collect();
        mean_and_error(&diffs)
    }

    fn error(&self, i: usize) -> f64 {
        let values: Vec<f64> = self.rows.iter().map(|row| row[i]).collect();
        mean_and_error(&values).1
    }

    /// The racing move with the highest mean: the first in the rules' order among equals.
    fn leader(&self) -> usize {
        let mut best: Option<usize> = None;
        for i in (0..self.racing.len()).filter(|&i| self.racing[i]) {
            if best.is_none_or(|b| self.mean(i) > self.mean(b)) {
                best = Some(i);
            }
        }
        best.unwrap_or(0)
    }

    /// Drops every move (but `keep`) that trails the leader beyond doubt.
    fn drop_trailing(&mut self, leader: usize, keep: usize) {
        for i in 0..self.racing.len() {
            if i == leader || i == keep || !self.racing[i] {
                continue;
            }
            let (d, se) = self.difference(leader, i);
            if d - DROP_Z * se > 0.0 {
                self.racing[i] = false;
            }
        }
    }
}

impl Judge {
    fn run<G: Determinize>(
        &self,
        game: &G,
        played: &G::Move,
        wrap: fn(G::Move) -> AnyMove,
    ) -> Option<Decision> {
        let seat = self.seat;
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_moves().to_vec();
        // The move as the rules write it (a log holds it so already; a client may not have).
        let played = game.validate(seat, played).ok()?;
        let p = legal.iter().position(|m| *m == played)?;
        if legal.len() < 2 {
            return None;
        }
        let table = game.table();
        let mut rng = table.analysis_rng();
        let mut race = Race {
            rows: Vec::new(),
            racing: vec![true; legal.len()],
        };
        let precision = precision(self.scale);
        let mut work = 0;
        loop {
            for _ in 0..BATCH {
                let (row, moves) = self.deal::<G>(&view, &legal, &race.racing, &mut rng)?;
                race.rows.push(row);
                work += moves;
            }
            let leader = race.leader();
            race.drop_trailing(leader, p);
            let (d, se) = race.difference(leader, p);
            let settled = leader == p
                || d - Z * se > 0.0
                || d + Z * se < self.scale.inaccuracy
                || (d == 0.0 && se == 0.0);
            let precise = race.error(leader) <= precision && race.error(p) <= precision;
            let spent = work >= self.measure.budget || race.rows.len() >= MAX_SAMPLES;
            if (settled && precise) || spent {
                return Some(self.decision(&race, &legal, p, wrap, table.hand_number()));
            }
        }
    }

    /// One deal of the unseen cards, the value on it of every move still racing (`NaN` for the
    /// others), and the moves its playouts made. `None` when the view cannot be dealt, or the
    /// dealt world refuses a legal move (a defect of the dealing: the judgement is not made).
    fn deal<G: Determinize>(
        &self,
        view: &G::View,
        legal: &[G::Move],
        racing: &[bool],
        rng: &mut CardRng,
    ) -> Option<(Vec<f64>, usize)> {
        let seed = search::drawn_seed(rng);
        let world = G::determinize(view, seed, rng)?;
        let playout_seed = search::drawn_seed(rng);
        let start = world.table().totals().to_vec();
        let mut moves = 0;
        let mut row = Vec::with_capacity(legal.len());
        for (mv, &racing) in legal.iter().zip(racing) {
            if !racing {
                row.push(f64::NAN);
                continue;
            }
            let mut w = world.clone();
            w.play(self.seat, mv).ok()?;
            moves +=
                1 + search::play_out_by(&mut w, PLAYOUTS_BY, &mut CardRng::new(&playout_seed, 0));
            row.push(self.measure.value(&start, &w, self.seat));
        }
        Some((row, moves))
    }

    fn decision<M: Clone + PartialEq>(
        &self,
        race: &Race,
        legal: &[M],
        p: usize,
        wrap: fn(M) -> AnyMove,
        hand: u32,
    ) -> Decision {
        let leader = race.leader();
        // Every racing move equal to the leader on every deal is as good as it.
        let best: Vec<usize> = (0..legal.len())
            .filter(|&i| race.racing[i] && race.rows.iter().all(|row| row[i] == row[leader]))
            .collect();
        let best_value = round2(race.mean(leader));
        let played_value = round2(race.mean(p));
        let (d, se) = race.difference(leader, p);
        let exact = best.contains(&p);
        let loss = if exact {
            0.0
        } else {
            round2(best_value - played_value).max(0.0)
        };
        let (low, high) = if exact {
            (0.0, 0.0)
        } else {
            (round2((d - Z * se).max(0.0)), round2(d + Z * se))
        };
        // Read from the interval as reported, so that the answer agrees with itself.
        let within_noise = !exact && low <= 0.0;
        let grade = if exact || within_noise {
            Grade::Good
        } else {
            self.scale.grade(loss)
        };
        Decision {
            version: self.version,
            hand,
            seat: self.seat,
            played: wrap(legal[p].clone()),
            best: best.iter().map(|&i| wrap(legal[i].clone())).collect(),
            best_value,
            played_value,
            loss,
            grade,
            samples: race.rows.len() as u32,
            best_error: round2(race.error(leader)),
            played_error: round2(race.error(p)),
            loss_low: low,
            loss_high: high.max(low),
            within_noise,
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The mean of `values` and its standard error.
fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let m = mean(values.iter().copied());
    if values.len() < 2 {
        return (m, 0.0);
    }
    let variance = values.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (variance / n).sqrt())
}

/// Two decimals: the estimates are not finer than that, and the stored form stays short.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
