//! Standings from the recorded seats: the same rows give the same standings on every replica
//! and at every read, so they are never stored, only recomputed.

use std::collections::BTreeMap;

use cardroom_core::tournament::{self, EntrantId, TableResult, arena, duplicate, teams};
use cardroom_db::GameId;
use cardroom_db::tournaments::{EntrantRow, Format, SeatRow, TournamentRow};

use crate::error::ApiError;

/// One entrant's line, before names are added.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Line {
    pub(super) entrant: i64,
    pub(super) rank: u32,
    /// Real points (Swiss and arena) or the average matchpoint percentage (duplicate).
    pub(super) points: f64,
    pub(super) games: u32,
    pub(super) buchholz: Option<f64>,
    pub(super) sonneborn_berger: Option<f64>,
    pub(super) streak: Option<u32>,
    /// Team matches: the entrant's team, and its boards' results added.
    pub(super) team: Option<i32>,
    pub(super) difference: Option<i64>,
}

/// The standings, and what each recorded seat was worth: `(round, entrant)` → points (Swiss:
/// place points; arena: the points the game earned) or matchpoints (duplicate).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Standings {
    pub(super) lines: Vec<Line>,
    pub(super) worth: BTreeMap<(i32, i64), f64>,
    /// Team matches: `(round, entrant)` → the team's result on the round's board.
    pub(super) boards: BTreeMap<(i32, i64), i64>,
}

/// An entrant's number for the pairing and scoring functions.
pub(super) fn entrant_id(id: i64) -> Result<EntrantId, ApiError> {
    EntrantId::try_from(id).map_err(ApiError::because("an entrant id beyond u32"))
}

/// The standings of a tournament from its entrants and every seat of every round (`sides`: how
/// many sides a table of its game has, for a bye's worth, a win); games still being played do
/// not count yet.
pub(super) fn standings(
    row: &TournamentRow,
    sides: usize,
    entrants: &[EntrantRow],
    seats: &[SeatRow],
) -> Result<Standings, ApiError> {
    let recorded: Vec<&SeatRow> = seats
        .iter()
        .filter(|s| s.game_id.is_some() && s.place.is_some())
        .collect();
    let mut games: BTreeMap<i64, u32> = entrants.iter().map(|e| (e.id, 0)).collect();
    for seat in &recorded {
        *games.entry(seat.entrant_id).or_default() += 1;
    }
    let mut out = match row.format {
        Format::Swiss => swiss(sides, entrants, seats, &recorded)?,
        Format::Arena => arena(entrants, &recorded),
        Format::Duplicate if row.teams => team_matches(entrants, seats),
        Format::Duplicate => duplicate(entrants, &recorded),
    };
    for line in &mut out.lines {
        line.games = games.get(&line.entrant).copied().unwrap_or(0);
    }
    Ok(out)
}

fn swiss(
    sides: usize,
    entrants: &[EntrantRow],
    seats: &[SeatRow],
    recorded: &[&SeatRow],
) -> Result<Standings, ApiError> {
    let ids = entrants
        .iter()
        .map(|e| entrant_id(e.id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut tables: BTreeMap<GameId, TableResult> = BTreeMap::new();
    let mut worth = BTreeMap::new();
    for seat in recorded {
        let (Some(game), Some(points)) = (seat.game_id, seat.points) else {
            continue;
        };
        let points = u32::try_from(points).unwrap_or(0);
        tables
            .entry(game)
            .or_insert_with(|| TableResult { seats: Vec::new() })
            .seats
            .push((entrant_id(seat.entrant_id)?, points));
        worth.insert((seat.round, seat.entrant_id), f64::from(points) / 2.0);
    }
    let byes = seats
        .iter()
        .filter(|s| s.game_id.is_none())
        .map(|s| entrant_id(s.entrant_id))
        .collect::<Result<Vec<_>, _>>()?;
    let bye_points = 2 * u32::try_from(sides.saturating_sub(1)).unwrap_or(1);
    let games: Vec<TableResult> = tables.into_values().collect();
    let lines = tournament::standings(&ids, &games, &byes, bye_points)
        .into_iter()
        .map(|s| Line {
            entrant: i64::from(s.entrant),
            rank: s.rank,
            points: f64::from(s.points) / 2.0,
            games: 0,
            buchholz: Some(f64::from(s.buchholz) / 2.0),
            sonneborn_berger: Some(f64::from(s.sonneborn_berger) / 4.0),
            streak: None,
            team: None,
            difference: None,
        })
        .collect();
    Ok(Standings {
        lines,
        worth,
        boards: BTreeMap::new(),
    })
}

/// Arena points, game by game in the order they were paired: 2 a win, 4 on fire.
fn arena(entrants: &[EntrantRow], recorded: &[&SeatRow]) -> Standings {
    let mut scores: BTreeMap<i64, arena::Score> = entrants
        .iter()
        .map(|e| (e.id, arena::Score::default()))
        .collect();
    let mut worth = BTreeMap::new();
    // (The seats come in round order.)
    for seat in recorded {
        let finish = match seat.first {
            Some(2) => arena::Finish::Won,
            Some(1) => arena::Finish::Tied,
            _ => arena::Finish::Lost,
        };
        let gained = scores.entry(seat.entrant_id).or_default().record(finish);
        worth.insert((seat.round, seat.entrant_id), f64::from(gained));
    }
    let mut lines: Vec<Line> = scores
        .into_iter()
        .map(|(entrant, score)| Line {
            entrant,
            rank: 0,
            points: f64::from(score.points),
            games: 0,
            buchholz: None,
            sonneborn_berger: None,
            streak: Some(score.streak),
            team: None,
            difference: None,
        })
        .collect();
    rank(&mut lines);
    Standings {
        lines,
        worth,
        boards: BTreeMap::new(),
    }
}

/// Duplicate: each result against every result of the same round (board) and seat; an
/// entrant's score is the average over the boards they played.
fn duplicate(entrants: &[EntrantRow], recorded: &[&SeatRow]) -> Standings {
    let mut boards: BTreeMap<(i32, i32), Vec<&SeatRow>> = BTreeMap::new();
    for seat in recorded {
        if let Some(at) = seat.seat {
            boards.entry((seat.round, at)).or_default().push(seat);
        }
    }
    let mut worth = BTreeMap::new();
    let mut percentages: BTreeMap<i64, Vec<f64>> =
        entrants.iter().map(|e| (e.id, Vec::new())).collect();
    for results in boards.values() {
        let values: Vec<i64> = results.iter().map(|s| s.result.unwrap_or(0)).collect();
        for (seat, mp) in results.iter().zip(duplicate::matchpoints(&values)) {
            worth.insert((seat.round, seat.entrant_id), mp);
            percentages.entry(seat.entrant_id).or_default().push(mp);
        }
    }
    let mut lines: Vec<Line> = percentages
        .into_iter()
        .map(|(entrant, boards)| Line {
            entrant,
            rank: 0,
            points: duplicate::session(&boards),
            games: 0,
            buchholz: None,
            sonneborn_berger: None,
            streak: None,
            team: None,
            difference: None,
        })
        .collect();
    rank(&mut lines);
    Standings {
        lines,
        worth,
        boards: BTreeMap::new(),
    }
}

/// Team matches: each team's outcome in each round — a bye, or once both of its tables are over
/// its margins at them added — and the team standings, a line for each member. Entrants
/// without a team (withdrawn before the draw, or before it is made) stand last, with nothing.
fn team_matches(entrants: &[EntrantRow], seats: &[SeatRow]) -> Standings {
    let team_of: BTreeMap<i64, i32> = entrants
        .iter()
        .filter_map(|e| Some((e.id, e.team?)))
        .collect();
    // (round, team) → its seats that round.
    let mut rounds: BTreeMap<(i32, i32), Vec<&SeatRow>> = BTreeMap::new();
    for seat in seats {
        if let Some(&team) = team_of.get(&seat.entrant_id) {
            rounds.entry((seat.round, team)).or_default().push(seat);
        }
    }
    let mut outcomes: BTreeMap<u32, Vec<teams::Outcome>> = team_of
        .values()
        .map(|&t| (u32::try_from(t).unwrap_or(0), Vec::new()))
        .collect();
    let mut worth = BTreeMap::new();
    let mut boards = BTreeMap::new();
    for (&(round, team), at) in &rounds {
        let outcome = if at.iter().any(|s| s.game_id.is_none()) {
            teams::Outcome::Bye
        } else if at.iter().all(|s| s.place.is_some()) {
            // One margin a table: the team's members at a table are one side.
            let mut margins: BTreeMap<GameId, i64> = BTreeMap::new();
            for seat in at {
                if let Some(game) = seat.game_id {
                    margins.insert(game, seat.result.unwrap_or(0));
                }
            }
            teams::Outcome::Played(margins.values().sum())
        } else {
            continue;
        };
        outcomes
            .entry(u32::try_from(team).unwrap_or(0))
            .or_default()
            .push(outcome);
        for seat in at {
            worth.insert((round, seat.entrant_id), f64::from(outcome.halves()) / 2.0);
            if let teams::Outcome::Played(board) = outcome {
                boards.insert((round, seat.entrant_id), board);
            }
        }
    }
    let table: BTreeMap<i32, teams::TeamStanding> = teams::standings(&outcomes)
        .into_iter()
        .map(|s| (i32::try_from(s.team).unwrap_or(0), s))
        .collect();
    let last = table.values().map(|s| s.rank).max().unwrap_or(0) + 1;
    let mut lines: Vec<Line> = entrants
        .iter()
        .map(|e| {
            let standing = e.team.and_then(|t| table.get(&t));
            Line {
                entrant: e.id,
                rank: standing.map_or(last, |s| s.rank),
                points: standing.map_or(0.0, |s| f64::from(s.points) / 2.0),
                games: 0,
                buchholz: None,
                sonneborn_berger: None,
                streak: None,
                team: e.team,
                difference: standing.map(|s| s.difference),
            }
        })
        .collect();
    lines.sort_by_key(|l| (l.rank, l.team, l.entrant));
    Standings {
        lines,
        worth,
        boards,
    }
}

/// Best points first; equal points share a rank.
fn rank(lines: &mut [Line]) {
    lines.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(a.entrant.cmp(&b.entrant))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && lines[i].points == lines[i - 1].points {
            lines[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
}
