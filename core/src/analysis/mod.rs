//! Every finished game explained, decision by decision.
//!
//! - **Tarneeb** is reviewed with all hands open: for every card, the tricks its side could
//!   still take with best play by everyone, before the card and after it (the double-dummy
//!   solver), and for every hand the par contract, the best one the auction could have reached.
//! - **Basra, 31 and Rummy** hide cards, so a decision is judged only from what its seat saw:
//!   every legal move is valued on the same sampled deals of the unseen cards, as many deals as
//!   the judgement needs (`sampled`), and the best is the move valued highest. Nothing the seat
//!   did not see is read.
//!
//! An [`Analyst`] is shown the game just before each move, in order, then asked to
//! [`finish`](Analyst::finish). Everything is deterministic: the samples come from the game
//! seed's analysis stream, so a game's analysis is the same on any machine.

#[cfg(test)]
mod calibration;
mod decision;
mod sampled;
mod tarneeb;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::any::{AnyGame, AnyMove};
use crate::double_dummy::Solver;
use crate::kind::GameKind;
use crate::seat::Seat;

pub use decision::{AnalysisError, Decision, Grade, GradeScale, Unit};
pub use sampled::{BATCH, CONFIDENCE, DROP_Z, MAX_SAMPLES};
pub use tarneeb::{HandReview, Par};

/// The version of the analysis's format and method: a stored analysis of another version is
/// computed again.
pub const FORMAT: u32 = 3;

/// How a decision is judged.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisMethod))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Tarneeb: against perfect play with every hand open.
    DoubleDummy,
    /// Basra, 31, Rummy: every legal move valued on the same sampled deals of the cards the seat
    /// could not see.
    Sampled,
}

/// One seat's play over the game.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisPlayer))]
#[derive(Clone, PartialEq, Debug, Default, Serialize)]
pub struct PlayerSummary {
    pub seat: Seat,
    /// Moves made with a choice.
    pub decisions: u32,
    pub good: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The losses of its decisions added up, those within the noise left out (tricks lost by
    /// play, in Tarneeb).
    pub loss: f64,
    /// The share of decisions graded good, in percent (100 with no decisions).
    pub accuracy: f64,
}

/// A finished game's analysis.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Analysis {
    /// The version of the analysis's format and method (now 3): an analysis stored under an
    /// older one is made again.
    pub format: u32,
    pub kind: GameKind,
    pub variant: String,
    pub method: Method,
    /// What every value of the analysis counts (`AnalysisUnit`).
    pub unit: Unit,
    /// The confidence of each decision's loss interval (1 in Tarneeb, whose values are exact).
    pub confidence: f64,
    /// The losses from which a decision is an inaccuracy, a mistake and a blunder.
    pub scale: GradeScale,
    /// Every decision, in the order played.
    pub decisions: Vec<Decision>,
    /// One a seat.
    pub players: Vec<PlayerSummary>,
    /// Tarneeb: every hand played, with its par (empty in the other games).
    pub hands: Vec<HandReview>,
}

/// Builds a game's analysis from its moves, in order.
#[derive(Debug)]
pub struct Analyst {
    analysis: Analysis,
    /// Tarneeb: the hand whose play is being collected.
    play: Option<tarneeb::PlayRecord>,
    solver: Option<Solver>,
}

impl Analyst {
    /// An analyst for `game` (any state of it: only its kind, variant and seats are read).
    pub fn new(game: &AnyGame) -> Analyst {
        let (method, unit, confidence) = match sampled::Measure::of(game) {
            None => (Method::DoubleDummy, Unit::Tricks, 1.0),
            Some(measure) => (Method::Sampled, measure.unit, CONFIDENCE),
        };
        let seats = game.table().seats();
        Analyst {
            analysis: Analysis {
                format: FORMAT,
                kind: game.kind(),
                variant: game.variant().to_owned(),
                method,
                unit,
                confidence,
                scale: GradeScale::of(game.kind()),
                decisions: Vec::new(),
                players: Seat::all(seats)
                    .map(|seat| PlayerSummary {
                        seat,
                        accuracy: 100.0,
                        ..PlayerSummary::default()
                    })
                    .collect(),
                hands: Vec::new(),
            },
            play: None,
            solver: None,
        }
    }

    /// Takes in the move `mv` that `seat` made from `before`, as the log's entry `version`.
    /// Decisions without a choice are passed over. Tarneeb's hands are reviewed when their
    /// play is complete (at the next hand's first card, or at [`Analyst::finish`]).
    pub fn observe(
        &mut self,
        before: &AnyGame,
        version: i64,
        seat: Seat,
        mv: &AnyMove,
    ) -> Result<(), AnalysisError> {
        match (before, mv) {
            (AnyGame::Tarneeb(game), AnyMove::Tarneeb(mv)) => {
                if let Some(done) = tarneeb::observe(&mut self.play, game, version, seat, mv) {
                    self.review(done)?;
                }
                Ok(())
            }
            (AnyGame::Tarneeb(_), _) => Err(AnalysisError::WrongGame),
            _ => {
                if let Some(decision) = sampled::judge(before, version, seat, mv)? {
                    self.record(decision);
                }
                Ok(())
            }
        }
    }

    /// The decisions judged so far (Tarneeb's hands are judged once complete).
    pub fn decisions(&self) -> usize {
        self.analysis.decisions.len()
    }

    /// The analysis, the last Tarneeb hand reviewed.
    pub fn finish(mut self) -> Result<Analysis, AnalysisError> {
        if let Some(done) = self.play.take() {
            self.review(done)?;
        }
        for player in &mut self.analysis.players {
            if player.decisions > 0 {
                let share = f64::from(player.good) / f64::from(player.decisions);
                player.accuracy = (share * 1000.0).round() / 10.0;
            }
        }
        Ok(self.analysis)
    }

    fn review(&mut self, play: tarneeb::PlayRecord) -> Result<(), AnalysisError> {
        let solver = self.solver.get_or_insert_with(Solver::new);
        let (hand, decisions) = tarneeb::review(solver, play)?;
        self.analysis.hands.push(hand);
        for decision in decisions {
            self.record(decision);
        }
        Ok(())
    }

    fn record(&mut self, decision: Decision) {
        if let Some(player) = self.analysis.players.get_mut(decision.seat.index()) {
            player.decisions += 1;
            // A loss the sampling could not tell from chance is not counted against the player.
            if !decision.within_noise {
                player.loss += decision.loss;
            }
            match decision.grade {
                Grade::Good => player.good += 1,
                Grade::Inaccuracy => player.inaccuracies += 1,
                Grade::Mistake => player.mistakes += 1,
                Grade::Blunder => player.blunders += 1,
            }
        }
        self.analysis.decisions.push(decision);
    }
}
