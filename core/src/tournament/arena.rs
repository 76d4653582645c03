//! Arena: for a fixed time, whoever is free is seated at once with players of close score, and
//! every game scores at once.
//!
//! Chosen where lichess's arena (two players) leaves room for tables of 2 to 8 and for
//! partnerships:
//! - **Points**: winning a game (the winning side, or first place at a table of more) is worth
//!   2, a tie for the win 1, anything else 0. After two wins in a row an entrant is *on fire*:
//!   each further win is worth 4, until a game that is not a win.
//! - **Pairing**: the free entrants, by points (then rating, then who waited longest), are seated
//!   in consecutive groups of the table's size; an entrant is not seated with the one they just
//!   played if the next free entrant down can take the seat instead. Fewer left over than a
//!   table wait for the next pairing.

use super::EntrantId;

/// What a game was for an entrant, for the arena's points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Finish {
    /// First place (or the winning side) alone.
    Won,
    /// First place shared.
    Tied,
    /// Anything else.
    Lost,
}

/// An entrant's arena score: points and the current run of wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Score {
    pub points: u32,
    /// Wins in a row, up to now.
    pub streak: u32,
}

impl Score {
    /// Whether the next win is worth double.
    pub fn on_fire(self) -> bool {
        self.streak >= 2
    }

    /// Records a game; returns the points it was worth.
    pub fn record(&mut self, finish: Finish) -> u32 {
        let gained = match finish {
            Finish::Won if self.on_fire() => 4,
            Finish::Won => 2,
            Finish::Tied => 1,
            Finish::Lost => 0,
        };
        self.streak = if finish == Finish::Won {
            self.streak + 1
        } else {
            0
        };
        self.points += gained;
        gained
    }
}

/// An entrant waiting for a table.
#[derive(Clone, PartialEq, Debug)]
pub struct Free {
    pub entrant: EntrantId,
    pub points: u32,
    pub rating: f64,
    /// When they became free (any increasing clock): the longest wait first among equals.
    pub since: u64,
    /// Whom they just played (their last table), not to be seated with again at once.
    pub last: Vec<EntrantId>,
}

/// Whether `a` and `b` sat at the same table last (either's last table names the other).
pub fn just_played(a: &Free, b: &Free) -> bool {
    a.last.contains(&b.entrant) || b.last.contains(&a.entrant)
}

/// Seats the free entrants at tables of `seats`; returns the tables (each in standing order).
/// Nobody is seated with anyone from the table they just left: each seat goes to the next free
/// entrant who did not just play anyone at the table, within the next few places (so that
/// scores stay close), else further down. An entrant no table can take waits for the next
/// pairing, as do the last few when fewer than a table are left.
pub fn pair(free: &[Free], seats: usize) -> Vec<Vec<EntrantId>> {
    let seats = seats.max(2);
    let standing = |a: &&Free, b: &&Free| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.since.cmp(&b.since))
            .then(a.entrant.cmp(&b.entrant))
    };
    let mut rest: Vec<&Free> = free.iter().collect();
    rest.sort_by(standing);
    let mut tables = Vec::with_capacity(rest.len() / seats);
    let mut waiting = 0;
    while rest.len() - waiting >= seats {
        let mut table = vec![rest.remove(waiting)];
        while table.len() < seats {
            let fits = |i: &usize| table.iter().all(|t| !just_played(t, rest[*i]));
            let window = (rest.len()).min(waiting + seats * 2);
            let pick = (waiting..window)
                .find(fits)
                .or_else(|| (window..rest.len()).find(fits));
            match pick {
                Some(i) => table.push(rest.remove(i)),
                None => break,
            }
        }
        if table.len() == seats {
            tables.push(table.iter().map(|f| f.entrant).collect());
        } else {
            // No table for the first of them now: they wait; the others go back in order.
            let first = table.remove(0);
            rest.extend(table);
            rest[waiting..].sort_by(standing);
            rest.insert(waiting, first);
            waiting += 1;
        }
    }
    tables
}
