//! Tarneeb's computer players. They see only a [`TarneebView`].
//!
//! - `greedy` (the original design): bids from a count of honours and suit lengths, names its
//!   longest suit, plays the lowest card that wins the trick or else the lowest card, and never
//!   overtakes its partner's winning card.
//! - `strong`: deals the unseen cards at random among the other hands — consistently with what
//!   is public: the cards played and the suits each seat showed out of — plays every sample out
//!   with `greedy` at all four seats, and picks the card (or the trump, or the bid) that does
//!   best on average. This is perfect-information Monte Carlo with greedy playouts, the method
//!   BOTS.md reports working for trick-taking games. It is also `medium`.
//! - `hard`: perfect-information Monte Carlo with exact solutions. Each of its 24 samples deals
//!   the unseen cards consistently with the play (the suits a seat showed out of) *and* with
//!   the auction (a seat that bid holds the strength its bid suggests, one that passed does not,
//!   the declarer holds length in the trump it named); the hand is then played greedily only
//!   until eight cards a hand are left and solved from there with every hand open, exactly, by
//!   [`crate::double_dummy`] (from eight cards a hand on, from the current position). A card,
//!   a trump or a bid is valued by the contract's expected score for its team (made or set,
//!   and by how much), not by tricks alone. Bids come from the same simulation over sampled
//!   partner and opponent hands: the bid with the best expected score, if it is positive.
//!   The budget is a count of samples, never a clock, so a replay makes the same choices.

mod exact;
mod greedy;
mod hand;
mod sampled;

use crate::bots::ComputerPlayer;
use crate::level::BotLevel;
use crate::rng::CardRng;

use super::moves::TarneebMove;
use super::state::Tarneeb;
use super::view::TarneebView;

use exact::hard;
use greedy::greedy;
use sampled::strong;

/// Samples per decision for `strong` and `medium`.
const SAMPLES: usize = 20;

impl ComputerPlayer for Tarneeb {
    fn bot_move(view: &TarneebView, level: BotLevel, rng: &mut CardRng) -> Option<TarneebMove> {
        choose(view, level, rng)
    }
}

/// A computer player's move.
pub fn choose(view: &TarneebView, level: BotLevel, rng: &mut CardRng) -> Option<TarneebMove> {
    let mv = match level {
        BotLevel::Random => return rng.choose(&view.legal_moves).copied(),
        BotLevel::Strong | BotLevel::Medium => strong(view, rng, SAMPLES),
        BotLevel::Hard => hard(view, rng),
        // No numbered scale in Tarneeb: the numbers play the original heuristic, as `easy`.
        BotLevel::Easy | BotLevel::Greedy | BotLevel::Level(_) => greedy(view),
    };
    mv.filter(|m| view.legal_moves.contains(m))
        .or_else(|| view.legal_moves.first().copied())
}
