//! Swiss pairing: each round, entrants in standing order are seated at tables of the game's
//! size from the top, each table filled with the best-placed entrants who have met no one at it
//! yet; the odd ones out get a bye.
//!
//! Chosen where the federations' rules (written for two-player chess) leave room:
//! - **Byes** go to the lowest-placed entrants among those with the fewest byes so far, as
//!   many as the entrants left over when the rest fill whole tables; a bye is worth a win.
//! - **Repeats**: a table takes the best-placed entrant who has met no one seated there; only
//!   when every remaining entrant has, the one with the fewest such meetings (then the best
//!   placed). The last tables of a round can repeat when nobody else is left — as in a small
//!   chess Swiss's last rounds.
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

/// A round: its tables (best-placed first, each in standing order) and its byes.
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
    Round { tables, byes }
}
