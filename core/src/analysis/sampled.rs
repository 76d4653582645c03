//! Basra, 31 and Rummy: each decision judged from its seat's view alone.
//!
//! The judge is the `hard` computer player: its choice from the same view, with the same
//! random numbers it would have had at the table (so where `hard` sat, it agrees with itself).
//! The two moves are then compared by the sampling `hard` searches with: the unseen cards dealt
//! at random consistently with the view, each move played out to the end of the hand by the
//! `easy` players, both moves on the same deals. The difference is a loss only when it exceeds
//! twice its standard error: a smaller one is the estimate's noise, and the move is graded good.

use crate::any::{AnyGame, AnyMove};
use crate::game::PlayerView;
use crate::level::BotLevel;
use crate::search::{self, Determinize};
use crate::seat::{Seat, Viewer};

use super::decision::{AnalysisError, Decision, Grade, GradeScale};

/// Deals sampled to compare two moves.
pub const SAMPLES: usize = 32;

/// The decision `seat` took by playing `mv` from `before`; `None` when it had no choice.
pub(super) fn judge(
    before: &AnyGame,
    version: i64,
    seat: Seat,
    mv: &AnyMove,
) -> Result<Option<Decision>, AnalysisError> {
    let scale = GradeScale::of(before.kind());
    Ok(match (before, mv) {
        (AnyGame::Basra(g), AnyMove::Basra(m)) => {
            judge_in(g, version, seat, m, AnyMove::Basra, scale)
        }
        (AnyGame::ThirtyOne(g), AnyMove::ThirtyOne(m)) => {
            judge_in(g, version, seat, m, AnyMove::ThirtyOne, scale)
        }
        (AnyGame::Rummy(g), AnyMove::Rummy(m)) => {
            judge_in(g, version, seat, m, AnyMove::Rummy, scale)
        }
        _ => return Err(AnalysisError::WrongGame),
    })
}

fn judge_in<G: Determinize>(
    game: &G,
    version: i64,
    seat: Seat,
    played: &G::Move,
    wrap: fn(G::Move) -> AnyMove,
    scale: GradeScale,
) -> Option<Decision> {
    let view = game.view(Viewer::Seat(seat));
    let legal = view.legal_moves();
    // The move as the rules write it (a log holds it so already; a client may not have).
    let played = &game.validate(seat, played).ok()?;
    if legal.len() < 2 || !legal.contains(played) {
        return None;
    }
    let table = game.table();
    let hard = G::bot_move(&view, BotLevel::Hard, &mut table.decision_rng())
        .unwrap_or_else(|| legal[0].clone());
    let same = &hard == played;
    let moves = if same {
        vec![hard.clone()]
    } else {
        vec![hard.clone(), played.clone()]
    };
    let rows = search::sampled_values::<G>(&view, &moves, SAMPLES, &mut table.analysis_rng());
    let n = rows.len().max(1) as f64;
    let mean = |i: usize| rows.iter().map(|row| row[i]).sum::<f64>() / n;
    let best_value = mean(0);
    let played_value = if same { best_value } else { mean(1) };
    let diffs: Vec<f64> = rows
        .iter()
        .map(|row| row[0] - row[if same { 0 } else { 1 }])
        .collect();
    let d = best_value - played_value;
    let variance = if diffs.len() > 1 {
        diffs.iter().map(|x| (x - d).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let noise = 2.0 * (variance / n).sqrt();
    let loss = d.max(0.0);
    let grade = if same || d <= noise {
        Grade::Good
    } else {
        scale.grade(loss)
    };
    Some(Decision {
        version,
        hand: table.hand_number(),
        seat,
        played: wrap(played.clone()),
        best: vec![wrap(hard)],
        best_value: round2(best_value),
        played_value: round2(played_value),
        loss: round2(loss),
        grade,
    })
}

/// Two decimals: the estimates are not finer than that, and the stored form stays short.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
