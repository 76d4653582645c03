//! Determinized search for the `hard` computer players: perfect-information Monte Carlo.
//!
//! A search bot, like every computer player, is handed only its seat's view. From it,
//! [`Determinize::determinize`] builds a whole game — the cards the seat cannot see dealt at
//! random, consistently with everything public — with a fresh seed of its own, so later
//! deals are invented too and nothing hidden leaks in. Every legal move is tried in every
//! such world and the hand is played out by the `easy` players at all seats; the move with the
//! best average outcome wins. BOTS.md reports this method (with greedy playouts, not random
//! ones) as the one that works in card games.
//!
//! Decisions are deterministic: all randomness comes from the generator the caller passes
//! (the game seed's decision stream), and the budget is a number of samples, not a clock, so a
//! replay reaches the same move on any machine. The sample counts are chosen so that `hard`
//! answers within 250 ms at the 99th percentile on one core (docs/bots.md).

use crate::bots::ComputerPlayer;
use crate::game::{Game, PlayerView};
use crate::level::BotLevel;
use crate::rng::{CardRng, Seed};
use crate::seat::{Seat, Viewer};
use crate::table::Status;

/// A game whose hidden cards a search can deal out from one seat's view.
pub trait Determinize: ComputerPlayer {
    /// A whole game consistent with what `view` shows, the hidden cards dealt at random by
    /// `rng` (respecting what is public: who showed out of a suit, cards known to be in a
    /// hand) and later deals driven by `seed`. `None` when the view belongs to no seat or is
    /// not at a point where a decision is taken.
    fn determinize(view: &Self::View, seed: Seed, rng: &mut CardRng) -> Option<Self>;

    /// How good the position is for `seat` when a playout stops (the hand is over, or the
    /// game): larger is better. Only differences between moves matter.
    fn value(&self, seat: Seat) -> f64;
}

/// The most moves one playout makes before it is scored where it stands.
const PLAYOUT_CAP: usize = 2_000;

/// A fresh seed drawn from `rng`.
pub fn drawn_seed(rng: &mut CardRng) -> Seed {
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(4) {
        chunk.copy_from_slice(&rng.next_u32().to_le_bytes());
    }
    Seed::from_bytes(bytes)
}

/// Plays the current hand out with `easy` at every seat: until the hand or the game is over,
/// or the cap. Returns the moves made.
pub fn play_out<G: Determinize>(world: &mut G, rng: &mut CardRng) -> usize {
    play_out_by(world, BotLevel::Easy, rng)
}

/// [`play_out`] with `level` at every seat.
pub fn play_out_by<G: Determinize>(world: &mut G, level: BotLevel, rng: &mut CardRng) -> usize {
    for made in 0..PLAYOUT_CAP {
        if world.status() != Status::Active {
            return made;
        }
        let Some(seat) = world.to_act() else {
            return made;
        };
        let view = world.view(Viewer::Seat(seat));
        let Some(mv) =
            G::bot_move(&view, level, rng).or_else(|| view.legal_moves().first().cloned())
        else {
            return made;
        };
        if world.play(seat, &mv).is_err() {
            return made;
        }
    }
    PLAYOUT_CAP
}

/// The move of `view`'s legal moves with the best average value over `samples` determinized
/// worlds. Every move of one sample is played out with the same random numbers (common random
/// numbers), so the comparison measures the moves, not the luck of their playouts.
pub fn best_move<G: Determinize>(
    view: &G::View,
    samples: usize,
    rng: &mut CardRng,
) -> Option<G::Move> {
    guided_move::<G>(view, samples, None, rng)
}

/// Like [`best_move`], but the search must earn its deviation from a heuristic's choice: the
/// `baseline` move is kept unless the best move of half the samples beats it in the other half
/// (paired) by more than two standard errors. Where playouts carry little signal (a 31 discard
/// is mostly washed out by the rest of the hand), this keeps the search from trading a sound
/// heuristic for noise.
pub fn guided_move<G: Determinize>(
    view: &G::View,
    samples: usize,
    baseline: Option<&G::Move>,
    rng: &mut CardRng,
) -> Option<G::Move> {
    let legal = view.legal_moves();
    if legal.len() <= 1 {
        return legal.first().cloned();
    }
    let values = sampled_values::<G>(view, legal, samples, rng);
    if values.is_empty() {
        return None;
    }
    let mean_over = |rows: &[Vec<f64>], i: usize| {
        rows.iter().map(|row| row[i]).sum::<f64>() / rows.len().max(1) as f64
    };
    // The first of the best: legal moves come in a fixed order, so ties break the same way.
    let best_in = |rows: &[Vec<f64>]| {
        let mut best = 0;
        for i in 1..legal.len() {
            if mean_over(rows, i) > mean_over(rows, best) {
                best = i;
            }
        }
        best
    };
    let Some(base) = baseline.and_then(|b| legal.iter().position(|m| m == b)) else {
        return legal.get(best_in(&values)).cloned();
    };
    // Choosing the best of several moves and testing it on the same samples would favour
    // luck (the winner's curse): the first half of the samples chooses, the second half tests.
    let (choose, test) = values.split_at(values.len() / 2);
    let best = best_in(choose);
    if best == base || test.len() < 2 {
        return legal.get(base).cloned();
    }
    let diffs: Vec<f64> = test.iter().map(|row| row[best] - row[base]).collect();
    let n = diffs.len() as f64;
    let d = diffs.iter().sum::<f64>() / n;
    let variance = diffs.iter().map(|x| (x - d).powi(2)).sum::<f64>() / (n - 1.0);
    if d > 2.0 * (variance / n).sqrt() {
        legal.get(best).cloned()
    } else {
        legal.get(base).cloned()
    }
}

/// The value for the seat of `view` of each of `moves` in each of `samples` determinized
/// worlds (`values[sample][move]`): every move of one sample is played out with the same
/// random numbers (common random numbers), so differences between moves measure the moves. A
/// move the rules refuse is worth −∞. Fewer rows when the view cannot be determinized (none
/// when it belongs to no seat or is not at a decision).
pub fn sampled_values<G: Determinize>(
    view: &G::View,
    moves: &[G::Move],
    samples: usize,
    rng: &mut CardRng,
) -> Vec<Vec<f64>> {
    let Some(me) = view.seat() else {
        return Vec::new();
    };
    let mut values: Vec<Vec<f64>> = Vec::with_capacity(samples);
    for _ in 0..samples {
        let seed = drawn_seed(rng);
        let Some(world) = G::determinize(view, seed, rng) else {
            break;
        };
        let playout_seed = drawn_seed(rng);
        let row = moves
            .iter()
            .map(|mv| {
                let mut w = world.clone();
                if w.play(me, mv).is_err() {
                    return f64::NEG_INFINITY;
                }
                play_out(&mut w, &mut CardRng::new(&playout_seed, 0));
                w.value(me)
            })
            .collect();
        values.push(row);
    }
    values
}

/// A side's lead at the end of a playout: its total less the best other side's, plus a large
/// bonus or penalty once the game is won or lost. For games where a higher total is better.
pub fn lead_of<G: Game>(world: &G, seat: Seat) -> f64 {
    let table = world.table();
    let mine = usize::from(table.side_of(seat));
    let totals = table.totals();
    let own = totals.get(mine).copied().unwrap_or(0);
    let best_other = totals
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != mine)
        .map(|(_, &t)| t)
        .max()
        .unwrap_or(0);
    f64::from(own - best_other) + outcome_bonus(world, seat)
}

/// ±1000 once the game is over: won (or shared) by `seat`'s side, or lost.
pub fn outcome_bonus<G: Game>(world: &G, seat: Seat) -> f64 {
    let table = world.table();
    match table.outcome() {
        Some(outcome) if outcome.winners.contains(&table.side_of(seat)) => 1000.0,
        Some(_) => -1000.0,
        None => 0.0,
    }
}
