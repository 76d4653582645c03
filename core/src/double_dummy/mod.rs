//! An exact double-dummy solver for four-hand trick games with a trump suit or none (Tarneeb's
//! play, and bridge's): with every hand open, how many tricks can each side take if both play
//! perfectly?
//!
//! The method is the one strong solvers share:
//! - **zero-window alpha-beta, fail-soft, driven by MTD(f)**: each search asks "can seats 0
//!   and 2 take at least `t` tricks?" and answers with a bound (at least so many when yes, at
//!   most so many when no) that moves the next question past every count it rules out;
//! - **a transposition table with partition search** at the start of each trick: a result is
//!   stored not for one position but for every position with the same leader and suit lengths
//!   in which the cards that decided a trick by their rank (and every card above them) are held
//!   by the same hands, in *relative* ranks. A search returns, with its answer, the ranks it
//!   rested on, so one entry answers for the many positions that differ only in small cards.
//!   Entries hold lower and upper bounds on the tricks still to come; they may be kept across
//!   searches, positions and deals as long as the trump is the same. A bucket (one leader, one set of suit lengths) keeps its
//!   entries together, the most useful first, so a lookup is one sweep through memory;
//! - **equivalent cards**: cards of one hand with no other card still out (or on the table)
//!   between them are one move; and once a card's result rested on no rank below some card
//!   of its suit, the hand's lower cards of that suit are not tried;
//! - **bounds at each trick's start**: the winners the side on lead can cash at once, its own
//!   or through an entry to partner's; the trumps that win whatever happens (higher than
//!   every trump of the other side) for either side; and without trumps in play, a trick for
//!   the side not on lead when the other cannot keep the lead (DDS's later-tricks bound);
//!   and for the second hand to a trick, the trick its side wins by a safe ruff or the
//!   suit's top card, and without trumps what the winning hand then cashes;
//! - **move ordering**: the move that last cut off a similar position (a table of cut-off
//!   moves by what the seat to act sees) is tried before the others are even listed; then
//!   leads into the suits the opponents hold fewest cards of (the fewest replies: the smallest
//!   search), toward partner's top cards and one's own; when following, the cheapest card
//!   that beats the card winning and every card of the opponent still to play, and low cards
//!   when partner wins the trick anyway.
//!
//! The solver is pure and deterministic; it knows nothing of any game's scoring. Seats 0 and 2
//! are one side, 1 and 3 the other; play passes 0 → 1 → 2 → 3.

mod bits;
mod bounds;
mod moves;
mod position;
mod review;
mod search;
mod state;
mod table;
#[cfg(test)]
mod tests;

use crate::card::Card;

pub use position::{Position, PositionError};
pub use review::{PlayReview, ReviewError, review};

use bits::{NO_TRUMP, card_of};
use moves::Candidates;
use state::State;
use table::Table;

/// A double-dummy solver with its transposition table. Keep one and reuse it: what it learned
/// about one position speeds up the next with the same trump.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    /// The trump the table's entries are for.
    trump: usize,
    capacity: usize,
    /// Entries in the table.
    stored: usize,
    nodes: u64,
    /// Store every result for its exact position only (no partitions): for checking.
    exact: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver whose table holds up to about a million results (at most some 38 MB, taken as
    /// results are stored) before it starts again empty.
    pub fn new() -> Solver {
        Solver::with_capacity(1 << 20)
    }

    /// A solver whose table holds up to `entries` results before it starts again empty.
    pub fn with_capacity(entries: usize) -> Solver {
        Solver {
            table: Table::default(),
            trump: NO_TRUMP,
            capacity: entries.max(1),
            stored: 0,
            nodes: 0,
            exact: false,
        }
    }

    /// Positions visited since the solver was made: a measure of work.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The tricks still to be won (the one in progress included) that the side of the seat to
    /// act takes with best play by everyone.
    pub fn tricks(&mut self, position: &Position) -> Result<u8, PositionError> {
        let mut state = self.prepare(position)?;
        let guess = state.ns + state.left.div_ceil(2);
        let ns = self.value(&mut state, guess);
        Ok(state.side_tricks(position.to_act.index(), ns))
    }

    /// [`Solver::tricks`], searching first around `guess` (tricks for the side of the seat to
    /// act): a guess close to the answer, such as the answer for a similar position, saves work.
    pub fn tricks_near(&mut self, position: &Position, guess: u8) -> Result<u8, PositionError> {
        let mut state = self.prepare(position)?;
        let ns_guess = state.side_tricks(position.to_act.index(), guess.min(state.left));
        let ns = self.value(&mut state, ns_guess);
        Ok(state.side_tricks(position.to_act.index(), ns))
    }

    /// Whether the side of the seat to act takes at least `target` of the tricks still to be
    /// won (the one in progress included) with best play by everyone: one zero-window search,
    /// cheaper than [`Solver::tricks`] when only a threshold matters.
    pub fn reaches(&mut self, position: &Position, target: u8) -> Result<bool, PositionError> {
        let mut state = self.prepare(position)?;
        if target == 0 {
            return Ok(true);
        }
        if target > state.left {
            return Ok(false);
        }
        // North-south take at least `ns_target` exactly when the side to act reaches `target`
        // (north-south to act) or does not (east-west to act).
        let ns_side = position.to_act.index().is_multiple_of(2);
        let ns_target = state.ns
            + if ns_side {
                target
            } else {
                state.left - target + 1
            };
        let value = state.search(&mut self.table, ns_target).0;
        self.nodes += std::mem::take(&mut state.nodes);
        self.stored += std::mem::take(&mut state.stored);
        Ok((value >= ns_target) == ns_side)
    }

    /// For every card the seat to act may play, the tricks still to be won (the one in progress
    /// included) that its side takes after playing it, with best play by everyone after.
    /// Cards come in the order of [`CardSet::iter`](crate::cardset::CardSet::iter).
    pub fn card_tricks(&mut self, position: &Position) -> Result<Vec<(Card, u8)>, PositionError> {
        let mut state = self.prepare(position)?;
        let seat = position.to_act.index();
        let mut values = Vec::new();
        let mut candidates = Candidates::default();
        state.candidates(seat, &mut candidates);
        // Cards' values are close to each other: each search starts from the last answer.
        let mut guess = state.ns + state.left.div_ceil(2);
        for candidate in candidates.list() {
            let undo = state.play(seat, candidate.suit, candidate.low);
            let ns = self.value(&mut state, guess);
            guess = ns;
            state.undo(seat, candidate.suit, candidate.low, undo);
            let tricks = state.side_tricks(seat, ns);
            let mut group = candidate.group;
            while group != 0 {
                let bit = 15 - group.leading_zeros() as usize;
                group &= !(1 << bit);
                if let Some(card) = card_of(candidate.suit, bit) {
                    values.push((card, tricks));
                }
            }
        }
        values.sort_by_key(|&(card, _)| card.index());
        Ok(values)
    }

    /// The search state of a position, the table emptied if the trump changed or it is full.
    fn prepare(&mut self, position: &Position) -> Result<State, PositionError> {
        let mut state = State::of(position)?;
        state.exact = self.exact;
        if state.trump != self.trump || self.stored >= self.capacity {
            self.table.clear();
            self.stored = 0;
            self.trump = state.trump;
        }
        Ok(state)
    }

    /// The exact number of tricks seats 0 and 2 take from the search's root with best play from
    /// `state` on: zero-window searches stepping from `guess` (counted from the root) towards
    /// the answer, which is cheap when the guess is close, since searches far from the answer
    /// end fast.
    fn value(&mut self, state: &mut State, guess: u8) -> u8 {
        let (mut lo, mut hi) = (state.ns, state.ns + state.left);
        let mut value = guess.clamp(lo, hi);
        while lo < hi {
            // Test whether the value reaches `target`: each answer is a bound that moves lo or
            // hi (MTD(f)).
            let target = if value <= lo { lo + 1 } else { value.min(hi) };
            value = state.search(&mut self.table, target).0;
            if value >= target {
                lo = value;
            } else {
                hi = value;
            }
        }
        self.nodes += std::mem::take(&mut state.nodes);
        self.stored += std::mem::take(&mut state.stored);
        lo
    }
}
