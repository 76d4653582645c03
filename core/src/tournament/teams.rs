//! Team matches: duplicate for partnership games (Tarneeb's two pairs a table).
//!
//! Entrants are drawn into teams of four, two pairs each, fixed for the event. Each round two
//! teams meet over two tables that play the same board: team A's first pair sits North–South
//! at one table and its second pair East–West at the other, team B the reverse. So every hand
//! team A holds at one table, team B holds at the other, and the luck of the deal cancels.
//!
//! - A board's result for a team is its margin at the first table plus its margin at the second
//!   ([`duplicate::team_board`](super::duplicate::team_board)), in game points, raw: Tarneeb's
//!   margins are a few dozen points at most, so bridge's IMP scale (built for hundreds and
//!   thousands) would flatten nothing worth flattening.
//! - A match won is worth a win (1 point), a tied one half; a bye a win. Teams stand by points,
//!   then by the sum of their boards' results.
//! - A short team (the entrants did not divide by four) has computer players in its empty
//!   positions; teams are formed so that each pair holds at least one person.

use std::collections::BTreeMap;

use super::EntrantId;

/// A team's four positions: 0 and 1 are its first pair, 2 and 3 its second; `None` is a
/// computer player.
pub type Team = [Option<EntrantId>; 4];

/// The order a short team fills its positions: one person in each pair first.
const FILL_ORDER: [usize; 4] = [0, 2, 1, 3];

/// Forms teams from entrants in the order drawn: fours, and the rest in one short team of two
/// or three — or, when one would be left alone, a three and a two (so every pair of every team
/// has a person). Fewer than two entrants form no team.
pub fn form(order: &[EntrantId]) -> Vec<Team> {
    let n = order.len();
    if n < 2 {
        return Vec::new();
    }
    let mut sizes = vec![4; n / 4];
    match n % 4 {
        0 => {}
        1 => {
            // (n ≥ 5 here: one four becomes a three and a two.)
            sizes.pop();
            sizes.extend([3, 2]);
        }
        rest => sizes.push(rest),
    }
    let mut teams = Vec::with_capacity(sizes.len());
    let mut next = order.iter().copied();
    for size in sizes {
        let mut team: Team = [None; 4];
        for &position in FILL_ORDER.iter().take(size) {
            team[position] = next.next();
        }
        teams.push(team);
    }
    teams
}

/// The two tables of a match between `a` and `b` at a partnership table whose seats 0 and 2 are
/// one side (North–South) and 1 and 3 the other: at the first, a's first pair sits
/// North–South against b's first pair; at the second, b's second pair sits North–South against
/// a's second pair.
pub fn match_tables(a: &Team, b: &Team) -> [[Option<EntrantId>; 4]; 2] {
    [[a[0], b[0], a[1], b[1]], [b[2], a[2], b[3], a[3]]]
}

/// How a team did in one round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// A match, with the team's result on the board (positive: it won).
    Played(i64),
    /// No opponent this round: worth a win.
    Bye,
}

impl Outcome {
    /// What the round is worth, in half points: 2 a win (or a bye), 1 a tie, 0 a loss.
    pub fn halves(self) -> u32 {
        match self {
            Outcome::Played(difference) if difference > 0 => 2,
            Outcome::Played(0) => 1,
            Outcome::Played(_) => 0,
            Outcome::Bye => 2,
        }
    }
}

/// A team's place in the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamStanding {
    /// The team's number (as the caller gave it).
    pub team: u32,
    /// Points, doubled.
    pub points: u32,
    /// The sum of its boards' results.
    pub difference: i64,
    /// 1 for the first; teams equal on points and difference share a rank.
    pub rank: u32,
}

/// Team standings from each team's outcomes so far (every team listed stands, with nothing if
/// it has played nothing).
pub fn standings(outcomes: &BTreeMap<u32, Vec<Outcome>>) -> Vec<TeamStanding> {
    let mut out: Vec<TeamStanding> = outcomes
        .iter()
        .map(|(&team, rounds)| TeamStanding {
            team,
            points: rounds.iter().map(|o| o.halves()).sum(),
            difference: rounds
                .iter()
                .map(|o| match o {
                    Outcome::Played(d) => *d,
                    Outcome::Bye => 0,
                })
                .sum(),
            rank: 0,
        })
        .collect();
    let key = |s: &TeamStanding| (s.points, s.difference);
    out.sort_by(|a, b| key(b).cmp(&key(a)).then(a.team.cmp(&b.team)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key(&out[i]) == key(&out[i - 1]) {
            out[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    out
}
