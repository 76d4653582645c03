//! Tournaments, the pure part: who plays whom in a round, and what a result is worth.
//!
//! Three formats, for tables of any size (2 to 8 seats, or partnerships entered as one):
//! - [`swiss`]: a fixed number of rounds; each round seats players of equal score together,
//!   avoiding repeat opponents where the ranking allows, and gives the odd ones out a bye worth
//!   a win. Standings by points, then Buchholz, then Sonneborn–Berger ([`standings`]).
//! - [`arena`]: a fixed duration; whoever is free is seated at once with players of close
//!   score, not the table they just left; a win is worth 2, or 4 after two wins in a row.
//! - [`duplicate`]: every table plays the same boards; each result is scored against every
//!   other result of the same board and seat (matchpoints).
//! - [`teams`]: duplicate for partnership games — teams of two pairs meet over two tables that
//!   play the same board, each pair sitting the other way round.
//!
//! Entrants are numbered by the caller (`EntrantId`); nothing here knows accounts, games or
//! storage, so pairing a round of a thousand is a function of the standings alone, the same on
//! every replica.

pub mod arena;
pub mod duplicate;
pub mod swiss;
pub mod teams;

use std::collections::{BTreeMap, BTreeSet};

/// An entrant, numbered by the tournament (a person, a bot account, or a partnership).
pub type EntrantId = u32;

/// The points a finishing place is worth at a table of `seats`: the last gets 0, each place
/// above one more, so first of four gets 3 and a two-player win 1. Places tied share the
/// average, in half points (the values are doubled: 2 × points).
///
/// `places[i]` is the place (0 = first) of the table's `i`-th entrant; equal places are a tie.
pub fn place_points(places: &[u8]) -> Vec<u32> {
    let n = places.len() as u32;
    places
        .iter()
        .map(|&place| {
            // Seats strictly below, plus half of those tied (other than oneself): doubled.
            let below = places.iter().filter(|&&p| p > place).count() as u32;
            let tied = places.iter().filter(|&&p| p == place).count() as u32 - 1;
            (2 * below + tied).min(2 * n.saturating_sub(1))
        })
        .collect()
}

/// The finishing place of each side of a finished game (0 = first; equal places tie): the
/// winning sides share first place, then the others by total — the higher total first, or the
/// lower where the game's lowest total wins (`lower_wins`). A game that ended without winners
/// (the move cap) is placed by totals alone.
pub fn side_places(totals: &[i32], winners: &[u8], lower_wins: bool) -> Vec<u8> {
    // A side's key, larger is better: winning first, then its total in the game's direction.
    let key = |side: usize| {
        let won = winners.iter().any(|&w| usize::from(w) == side);
        let total = i64::from(totals[side]);
        (won, if lower_wins { -total } else { total })
    };
    (0..totals.len())
        .map(|side| {
            let better = (0..totals.len())
                .filter(|&other| key(other) > key(side))
                .count();
            u8::try_from(better).unwrap_or(u8::MAX)
        })
        .collect()
}

/// One finished game of a round: each entrant at the table with the points it scored (doubled,
/// as [`place_points`] gives them).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableResult {
    pub seats: Vec<(EntrantId, u32)>,
}

/// An entrant's place in the standings.
#[derive(Clone, PartialEq, Debug)]
pub struct Standing {
    pub entrant: EntrantId,
    /// Points, doubled (a bye counts as a win at a table of the event's size).
    pub points: u32,
    /// The sum of the final points of everyone the entrant sat with.
    pub buchholz: u32,
    /// The sum, over games, of each opponent's final points weighted by how the entrant did
    /// against that opponent (1 for finishing above, ½ for a tie), doubled.
    pub sonneborn_berger: u32,
    /// 1 for the first; entrants equal on every tie-break share a rank.
    pub rank: u32,
}

/// Standings from every game played and every bye given (a bye is worth `bye_points`).
/// Entrants who played nothing still stand, with nothing.
pub fn standings(
    entrants: &[EntrantId],
    games: &[TableResult],
    byes: &[EntrantId],
    bye_points: u32,
) -> Vec<Standing> {
    let mut points: BTreeMap<EntrantId, u32> = entrants.iter().map(|&e| (e, 0)).collect();
    for game in games {
        for &(entrant, scored) in &game.seats {
            *points.entry(entrant).or_default() += scored;
        }
    }
    for &entrant in byes {
        *points.entry(entrant).or_default() += bye_points;
    }
    let mut buchholz: BTreeMap<EntrantId, u32> = points.keys().map(|&e| (e, 0)).collect();
    let mut sonneborn: BTreeMap<EntrantId, u32> = buchholz.clone();
    for game in games {
        for &(me, mine) in &game.seats {
            for &(other, theirs) in &game.seats {
                if other == me {
                    continue;
                }
                let final_points = points.get(&other).copied().unwrap_or(0);
                *buchholz.entry(me).or_default() += final_points;
                let weight = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                };
                *sonneborn.entry(me).or_default() += weight * final_points;
            }
        }
    }
    let mut out: Vec<Standing> = points
        .iter()
        .map(|(&entrant, &points)| Standing {
            entrant,
            points,
            buchholz: buchholz.get(&entrant).copied().unwrap_or(0),
            sonneborn_berger: sonneborn.get(&entrant).copied().unwrap_or(0),
            rank: 0,
        })
        .collect();
    let key = |s: &Standing| (s.points, s.buchholz, s.sonneborn_berger);
    out.sort_by(|a, b| key(b).cmp(&key(a)).then(a.entrant.cmp(&b.entrant)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key(&out[i]) == key(&out[i - 1]) {
            out[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    out
}

/// Who has sat with whom: the pairs of entrants that met at a table, in any earlier round.
#[derive(Clone, Debug, Default)]
pub struct Met {
    pairs: BTreeSet<(EntrantId, EntrantId)>,
}

impl Met {
    /// Records that everyone at a table met everyone else there.
    pub fn table(&mut self, table: &[EntrantId]) {
        for (i, &a) in table.iter().enumerate() {
            for &b in &table[i + 1..] {
                self.pairs.insert((a.min(b), a.max(b)));
            }
        }
    }

    /// Whether `a` and `b` have met.
    pub fn have_met(&self, a: EntrantId, b: EntrantId) -> bool {
        self.pairs.contains(&(a.min(b), a.max(b)))
    }

    /// How many of `table` `candidate` has met.
    pub fn repeats(&self, candidate: EntrantId, table: &[EntrantId]) -> usize {
        table
            .iter()
            .filter(|&&other| self.have_met(candidate, other))
            .count()
    }
}

#[cfg(test)]
mod tests;
