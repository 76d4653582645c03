//! Team matches, the pairing step's part: the draw into teams at the start, and each round's
//! matches — two teams over two tables dealt the same board, each team's pairs sitting
//! opposite ways (see [`cardroom_core::tournament::teams`]).

use std::collections::{BTreeMap, BTreeSet};

use cardroom_core::tournament::{Met, swiss, teams};
use cardroom_db::tournaments::{EntrantRow, SeatRow, TournamentRow};
use cardroom_db::{AnyConnection, GameId};
use sha2::{Digest, Sha256};

use super::standings::{entrant_id, standings};
use super::tables::{board_seed, fill_level, seat_tables};
use crate::error::ApiError;
use crate::metrics::Metrics;

/// Team matches: draws the entrants who have not withdrawn into teams (see
/// [`teams::form`]), in an order that comes from the tournament's secret seed — a hash of it
/// and each entrant's number — so nobody can choose a partner by when they join. Returns each
/// member's `(entrant, team, position)`, teams numbered from 1.
pub(super) fn draw(
    row: &TournamentRow,
    entrants: &[EntrantRow],
) -> Result<Vec<(i64, i32, i32)>, ApiError> {
    let mut order: Vec<([u8; 32], i64)> = entrants
        .iter()
        .filter(|e| e.withdrawn_at.is_none())
        .map(|e| {
            let mut hash = Sha256::new();
            hash.update(b"cardroom teams");
            hash.update(row.seed.as_bytes());
            hash.update(e.id.to_be_bytes());
            (hash.finalize().into(), e.id)
        })
        .collect();
    order.sort_unstable();
    let ids = order
        .iter()
        .map(|&(_, id)| entrant_id(id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut drawn = Vec::with_capacity(ids.len());
    for (number, team) in (1..).zip(teams::form(&ids)) {
        for (position, member) in (0..).zip(team) {
            if let Some(member) = member {
                drawn.push((i64::from(member), number, position));
            }
        }
    }
    Ok(drawn)
}

/// Team matches: each team's positions, with the members who have withdrawn taken out (a
/// computer player sits for them), from the draw; only the teams still playing — each of their
/// pairs keeps a person.
fn playing_teams(entrants: &[EntrantRow]) -> BTreeMap<i32, [Option<i64>; 4]> {
    let mut drawn: BTreeMap<i32, [Option<i64>; 4]> = BTreeMap::new();
    for entrant in entrants.iter().filter(|e| e.withdrawn_at.is_none()) {
        if let (Some(team), Some(position)) = (entrant.team, entrant.team_position)
            && let Some(slot) = drawn
                .entry(team)
                .or_default()
                .get_mut(usize::try_from(position).unwrap_or(usize::MAX))
        {
            *slot = Some(entrant.id);
        }
    }
    drawn.retain(|_, t| (t[0].is_some() || t[1].is_some()) && (t[2].is_some() || t[3].is_some()));
    drawn
}

/// Team matches: pairs round `round`'s teams by their standings so far, avoiding teams that met
/// already, and seats each match at two tables dealt the round's board (see
/// [`teams::match_tables`]). The odd team out gets a bye, or with a fill level a team of
/// computer players to meet.
pub(super) fn pair(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    entrants: &[EntrantRow],
    seats: &[SeatRow],
    round: i32,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    let playing = playing_teams(entrants);
    let team_of: BTreeMap<i64, i32> = entrants
        .iter()
        .filter_map(|e| Some((e.id, e.team?)))
        .collect();
    let so_far = standings(row, 2, entrants, seats)?;
    let points: BTreeMap<i32, f64> = so_far
        .lines
        .iter()
        .filter_map(|l| Some((l.team?, l.points)))
        .collect();
    // Byes: the rounds in which each team sat out. Meetings: the teams at each game.
    let mut byes: BTreeSet<(i32, i32)> = BTreeSet::new();
    let mut at_game: BTreeMap<GameId, BTreeSet<u32>> = BTreeMap::new();
    for seat in seats {
        let Some(&team) = team_of.get(&seat.entrant_id) else {
            continue;
        };
        match seat.game_id {
            None => {
                byes.insert((team, seat.round));
            }
            Some(game) => {
                at_game
                    .entry(game)
                    .or_default()
                    .insert(u32::try_from(team).unwrap_or(0));
            }
        }
    }
    let mut met = Met::default();
    for teams in at_game.values() {
        met.table(&teams.iter().copied().collect::<Vec<_>>());
    }
    let field: Vec<swiss::Entry> = playing
        .keys()
        .map(|&team| swiss::Entry {
            entrant: u32::try_from(team).unwrap_or(0),
            points: (points.get(&team).copied().unwrap_or(0.0) * 2.0).round() as u32,
            rating: 0.0,
            byes: byes.iter().filter(|(t, _)| *t == team).count() as u32,
        })
        .collect();
    let paired = swiss::pair(&field, 2, &met);
    let team = |number: u32| -> Result<teams::Team, ApiError> {
        let members = playing
            .get(&i32::try_from(number).unwrap_or(0))
            .ok_or_else(|| ApiError::internal("a paired team that is not playing"))?;
        members
            .iter()
            .map(|m| m.map(entrant_id).transpose())
            .collect::<Result<Vec<_>, _>>()
            .map(|m| [m[0], m[1], m[2], m[3]])
    };
    let mut matches = Vec::new();
    for pair in &paired.tables {
        if let [a, b] = pair[..] {
            matches.push((team(a)?, team(b)?));
        }
    }
    let mut bye_list = Vec::new();
    for &alone in &paired.byes {
        if fill_level(row).is_some() {
            matches.push((team(alone)?, [None; 4]));
        } else {
            bye_list.extend(team(alone)?.iter().flatten().map(|&e| i64::from(e)));
        }
    }
    let tables: Vec<Vec<Option<i64>>> = matches
        .iter()
        .flat_map(|(a, b)| teams::match_tables(a, b))
        .map(|table| table.iter().map(|e| e.map(i64::from)).collect())
        .collect();
    seat_tables(
        conn,
        row,
        entrants,
        &tables,
        &bye_list,
        round,
        Some(board_seed(row, round)?),
        metrics,
    )
}
