//! What the analysis says of one decision, and why a game cannot be analysed: shared by the
//! two methods.

use serde::{Deserialize, Serialize};

use crate::any::AnyMove;
use crate::kind::GameKind;
use crate::seat::Seat;

/// How good a decision was, by what it lost.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// The best, or no measurably worse.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// One decision of the game: a move made where the seat had a choice.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisDecision))]
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Decision {
    /// The version the move made (the move's entry in the game's log).
    pub version: i64,
    /// The hand (in Rummy `classic`, the round) the decision was taken in, from 1.
    pub hand: u32,
    /// The seat that took it.
    pub seat: Seat,
    /// The move it made.
    pub played: AnyMove,
    /// The moves judged best: in Tarneeb every card that keeps the most tricks; elsewhere the
    /// move with the highest estimated value, with every move equal to it on every sampled deal.
    pub best: Vec<AnyMove>,
    /// The value of the best move, in the analysis's `unit`: in Tarneeb the side's tricks in the
    /// whole hand with best play after it; elsewhere the mean over the sampled deals of what the
    /// rest of the hand brings the seat's side, less what it brings the best other side.
    pub best_value: f64,
    /// The value of the move played, counted the same way.
    pub played_value: f64,
    /// What the move played lost against the best (`best_value − played_value`): never
    /// negative.
    pub loss: f64,
    pub grade: Grade,
    /// The deals of the unseen cards the values were estimated on (0 in Tarneeb: exact).
    pub samples: u32,
    /// The standard error of `best_value` (0 in Tarneeb).
    pub best_error: f64,
    /// The standard error of `played_value` (0 in Tarneeb).
    pub played_error: f64,
    /// The lower end of the loss's interval at the analysis's `confidence`, from the paired
    /// differences of the two moves on the same deals (so not from the two standard errors);
    /// never below 0. Both ends are 0 when the move played is among `best`, and both are the loss
    /// in Tarneeb.
    pub loss_low: f64,
    /// The upper end of the loss's interval.
    pub loss_high: f64,
    /// The move played is not among `best`, but its loss's interval reaches zero (`loss_low` is
    /// 0): the sampling cannot tell it from the best. Such a decision is graded good whatever its
    /// estimated loss, `best` then names no better move (only the highest estimate), and the
    /// player's summary leaves its loss out.
    pub within_noise: bool,
}

/// Why a game cannot be analysed. Each is a defect of the log, not of the caller.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("a move of another game")]
    WrongGame,
    #[error("hand {hand} of the game does not review: {reason}")]
    Review { hand: u32, reason: String },
}

/// The losses from which a decision is an inaccuracy, a mistake and a blunder, in the
/// analysis's unit.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct GradeScale {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

impl GradeScale {
    /// The scale of a game: about a tenth, a quarter and a half of what a hand is worth.
    pub fn of(kind: GameKind) -> GradeScale {
        let (inaccuracy, mistake, blunder) = match kind {
            // A trick is the unit: one lost is a mistake, two a blunder.
            GameKind::Tarneeb => (1.0, 1.0, 2.0),
            // A hand is worth some 30 points (the 11 counted, and basras at 10).
            GameKind::Basra => (3.0, 8.0, 15.0),
            // A hand costs one player a life (a token in `classic`): the unit is the life.
            GameKind::ThirtyOne => (0.1, 0.25, 0.5),
            // A hand is worth some 30 points to the player who goes out.
            GameKind::Rummy => (3.0, 8.0, 15.0),
        };
        GradeScale {
            inaccuracy,
            mistake,
            blunder,
        }
    }

    /// The grade of a loss.
    pub fn grade(self, loss: f64) -> Grade {
        if loss >= self.blunder {
            Grade::Blunder
        } else if loss >= self.mistake {
            Grade::Mistake
        } else if loss >= self.inaccuracy {
            Grade::Inaccuracy
        } else {
            Grade::Good
        }
    }
}

/// What a decision's values count: `tricks` (Tarneeb: the side's tricks in the whole hand,
/// those taken and those to come); `points` (Basra and Rummy: the points the rest of the hand
/// brings the seat's side less those it brings the best other side; in Rummy `classic`, where
/// the lowest total wins, the points the best other side adds less those the seat adds);
/// `lives` (31 `standard`: the lives the rest of the hand costs the best other player still in,
/// less those it costs the seat); `tokens` (31 `classic`: the same in tokens). Larger is better
/// in every unit.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisUnit))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Tricks of the seat's side in the whole hand (those already taken with those to come).
    Tricks,
    /// Basra and Rummy: the points the rest of the hand brings the seat's side, less what it
    /// brings the best other side (in Rummy `classic`, where the lowest total wins, the reverse).
    Points,
    /// 31 `standard`: the lives the rest of the hand costs the best other player still in, less
    /// what it costs the seat.
    Lives,
    /// 31 `classic`: as `lives`, counted in tokens.
    Tokens,
}
