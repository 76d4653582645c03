//! What the analysis says of one decision, and why a game cannot be analysed: shared by the
//! two methods.

use serde::{Deserialize, Serialize};

use crate::any::AnyMove;
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
    pub hand: u32,
    pub seat: Seat,
    pub played: AnyMove,
    /// The moves judged best: in Tarneeb every card that keeps the most tricks, elsewhere the
    /// `hard` computer player's choice.
    pub best: Vec<AnyMove>,
    /// The value (see the analysis's `unit`) of the best move and of the move played.
    pub best_value: f64,
    pub played_value: f64,
    /// What the move played lost against the best: never negative.
    pub loss: f64,
    pub grade: Grade,
}

/// Why a game cannot be analysed. Each is a defect of the log, not of the caller.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("a move of another game")]
    WrongGame,
    #[error("hand {hand} of the game does not review: {reason}")]
    Review { hand: u32, reason: String },
}
