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

/// Seats the free entrants at tables of `seats`; returns the tables (each in standing order).
/// Entrants not seated wait.
pub fn pair(free: &[Free], seats: usize) -> Vec<Vec<EntrantId>> {
    let seats = seats.max(2);
    let mut order: Vec<&Free> = free.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.since.cmp(&b.since))
            .then(a.entrant.cmp(&b.entrant))
    });
    let just_played =
        |a: &Free, b: &Free| a.last.contains(&b.entrant) || b.last.contains(&a.entrant);
    let mut tables = Vec::with_capacity(order.len() / seats);
    let mut rest = order;
    while rest.len() >= seats {
        let mut table = vec![rest.remove(0)];
        while table.len() < seats {
            // The next free entrant who did not just play anyone here, within the next few
            // places (so that scores stay close); else the next one.
            let window = rest.len().min(seats * 2);
            let pick = (0..window)
                .find(|&i| table.iter().all(|t| !just_played(t, rest[i])))
                .unwrap_or(0);
            table.push(rest.remove(pick));
        }
        tables.push(table.iter().map(|f| f.entrant).collect());
    }
    tables
}
