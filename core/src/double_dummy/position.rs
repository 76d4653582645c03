//! A position to solve, as the solver's callers give it.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

/// A position to solve.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    /// The cards each seat still holds.
    pub hands: [CardSet; 4],
    /// The cards already played to the trick in progress, in order (the first by its leader).
    pub trick: Vec<(Seat, Card)>,
    /// Whose turn it is: the leader when no trick is in progress.
    pub to_act: Seat,
    /// The trump suit, if any.
    pub trump: Option<Suit>,
}

/// Why a position cannot be solved.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("a card is in two places")]
    CardTwice,
    #[error("the hands do not have the sizes the trick in progress implies")]
    HandSizes,
    #[error("the trick in progress does not lead to the seat to act")]
    TrickOrder,
}
