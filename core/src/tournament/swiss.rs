//! Swiss pairing: each round, entrants in standing order are seated at tables of the game's
//! size from the top, each table filled with the best-placed entrants who have met no one at it
//! yet; the odd ones out get a bye.
//!
//! Chosen where the federations' rules (written for two-player chess) leave room:
//! - **Byes** go to the lowest-placed entrants among those with the fewest byes so far, as
//!   many as the entrants left over when the rest fill whole tables; a bye is worth a win.
//! - **Repeats**: a table takes the best-placed entrant who has met no one seated there; only
//!   when every remaining entrant has, the one with the fewest such meetings (then the best
//!   placed). A repeat left at the bottom is then swapped with an entrant of the nearest table
//!   above where neither table keeps one; failing that it stays — as in a small chess Swiss's
//!   last rounds.
//! - **Order** inside a score group is by rating, then by entrant number: the same standings
//!   always give the same round, on any replica.

use super::{EntrantId, Met};

/// An entrant as the pairing sees it.
#[derive(Clone, PartialEq, Debug)]
pub struct Entry {
    pub entrant: EntrantId,
    /// Points so far (doubled, as the standings hold them).
    pub points: u32,
    /// The entrant's rating in the game, for the order inside a score group.
    pub rating: f64,
    /// Byes already had.
    pub byes: u32,
}

/// A round: its tables, from the top (each in standing order), and its byes.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Round {
    pub tables: Vec<Vec<EntrantId>>,
    pub byes: Vec<EntrantId>,
}

/// Pairs a round of `entries` at tables of `seats` (2 or more).
pub fn pair(entries: &[Entry], seats: usize, met: &Met) -> Round {
    let seats = seats.max(2);
    let mut order: Vec<&Entry> = entries.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    // Byes: from the bottom, the fewest byes first.
    let spare = order.len() % seats;
    let mut byes: Vec<EntrantId> = Vec::with_capacity(spare);
    if spare > 0 {
        let mut candidates: Vec<(usize, &Entry)> = order.iter().copied().enumerate().collect();
        // Fewest byes, then lowest placed.
        candidates.sort_by(|(i, a), (j, b)| a.byes.cmp(&b.byes).then(j.cmp(i)));
        byes = candidates
            .iter()
            .take(spare)
            .map(|(_, e)| e.entrant)
            .collect();
    }
    let mut free: Vec<EntrantId> = order
        .iter()
        .map(|e| e.entrant)
        .filter(|e| !byes.contains(e))
        .collect();
    let mut tables = Vec::with_capacity(free.len() / seats);
    while free.len() >= seats {
        let mut table = vec![free.remove(0)];
        while table.len() < seats {
            let pick = free
                .iter()
                .position(|&c| met.repeats(c, &table) == 0)
                .unwrap_or_else(|| {
                    // Everyone left has met someone here: the fewest meetings, best placed.
                    (0..free.len())
                        .min_by_key(|&i| (met.repeats(free[i], &table), i))
                        .unwrap_or(0)
                });
            table.push(free.remove(pick));
        }
        tables.push(table);
    }
    mend_repeats(&mut tables, met);
    let place: std::collections::HashMap<EntrantId, usize> = order
        .iter()
        .enumerate()
        .map(|(i, e)| (e.entrant, i))
        .collect();
    for table in &mut tables {
        table.sort_by_key(|e| place.get(e).copied().unwrap_or(usize::MAX));
    }
    Round { tables, byes }
}

/// The last tables filled from whoever was left can hold a repeat meeting: swaps it away where
/// an entrant of the nearest table above can change places with it leaving neither table with
/// a repeat (so scores stay close).
fn mend_repeats(tables: &mut [Vec<EntrantId>], met: &Met) {
    let has_repeat =
        |table: &[EntrantId]| (1..table.len()).any(|i| met.repeats(table[i], &table[..i]) > 0);
    for t in (1..tables.len()).rev() {
        if !has_repeat(&tables[t]) {
            continue;
        }
        'mend: for u in (0..t).rev() {
            for i in 0..tables[t].len() {
                for j in 0..tables[u].len() {
                    let (mut low, mut high) = (tables[t].clone(), tables[u].clone());
                    std::mem::swap(&mut low[i], &mut high[j]);
                    if !has_repeat(&low) && !has_repeat(&high) {
                        tables[t] = low;
                        tables[u] = high;
                        break 'mend;
                    }
                }
            }
        }
    }
}
