//! The pairing step: every sweep, on every replica, each tournament that is due is claimed
//! (one replica at a time, see [`tournaments::with_claimed_tournament`]) and moved on in one
//! transaction — started, its finished games' results recorded, its next round (or an arena's
//! free entrants) seated, or finished. A replica that dies in the middle leaves nothing, and the
//! next sweep does the step again. The tables a step seated are dealt after it commits, each in
//! its own versioned write ([`deal_tables`]).

use std::collections::{BTreeMap, BTreeSet};

use cardroom_core::tournament::{Met, arena, place_points, swiss};
use cardroom_core::{AnyGame, Options, Setup};
use cardroom_db::tournaments::{
    self, Advance, CancelCause, EntrantRow, Format, Recorded, SeatRow, TournamentRow,
    TournamentStatus,
};
use cardroom_db::{AnyConnection, GameId};
use chrono::NaiveDateTime;

use super::super::setup::{deal_seated, random_seed};
use super::standings::{entrant_id, standings};
use super::tables::{board_seed, fill_level, seat_tables};
use super::teams;
use crate::error::ApiError;
use crate::metrics::Metrics;

/// How many due tournaments one sweep steps.
const PER_SWEEP: i64 = 100;

/// What a sweep did to the tournaments.
#[derive(Debug, Default)]
pub struct Swept {
    /// The games it made.
    pub games: Vec<GameId>,
    /// The tournaments that changed (started, a result recorded, a round paired, finished).
    pub changed: Vec<i64>,
}

/// A real minute: an arena's minute unless `CARDROOM_ARENA_MINUTE_SECS` shortens it (in tests).
pub const MINUTE: chrono::Duration = chrono::Duration::minutes(1);

/// The sweep's part: steps every tournament that is due (an arena's `minutes` each
/// `arena_minute` long).
pub fn sweep(
    conn: &mut AnyConnection,
    metrics: &Metrics,
    arena_minute: chrono::Duration,
) -> Result<Swept, ApiError> {
    let now = cardroom_db::now();
    let mut swept = Swept::default();
    for id in tournaments::due(conn, now, PER_SWEEP)? {
        let stepped = step_claimed(conn, id, now, metrics, arena_minute)
            .and_then(|stepped| deal_tables(conn, id, metrics).map(|_| stepped));
        match stepped {
            Ok(stepped) => {
                swept.changed.extend(stepped.changed);
                swept.games.extend(stepped.games);
            }
            Err(ApiError::Unavailable) => return Err(ApiError::Unavailable),
            // (Another replica got there first: nothing to do.)
            Err(ApiError::VersionConflict { .. }) => {}
            Err(error) => tracing::warn!(tournament = id, %error, "tournament step failed"),
        }
    }
    Ok(swept)
}

/// Deals the tables of tournament `id` paired and not dealt yet (just now, or by a replica that
/// stopped between its pairing and its dealing); returns how many this call dealt. Each is its
/// own versioned write: replicas dealing at once deal each table once.
pub fn deal_tables(
    conn: &mut AnyConnection,
    id: i64,
    metrics: &Metrics,
) -> Result<usize, ApiError> {
    let mut dealt = 0;
    for game in tournaments::undealt(conn, id)? {
        dealt += usize::from(deal_seated(conn, game, metrics)?);
    }
    Ok(dealt)
}

/// Claims tournament `id` and steps it (nothing when another replica holds it).
pub fn step_claimed(
    conn: &mut AnyConnection,
    id: i64,
    now: NaiveDateTime,
    metrics: &Metrics,
    arena_minute: chrono::Duration,
) -> Result<Swept, ApiError> {
    let stepped = tournaments::with_claimed_tournament(conn, id, |conn, row| {
        step(conn, &row, now, metrics, arena_minute)
    })?;
    Ok(stepped.unwrap_or_default())
}

/// What a tournament needs now.
fn step(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    now: NaiveDateTime,
    metrics: &Metrics,
    arena_minute: chrono::Duration,
) -> Result<Swept, ApiError> {
    let version = row.version;
    let (games, recorded) = match row.status {
        TournamentStatus::Upcoming if row.starts_at <= now => {
            (start(conn, row, now, metrics, arena_minute)?, false)
        }
        TournamentStatus::Running => {
            let recorded = record_results(conn, row)?;
            let games = match row.format {
                Format::Arena => arena_step(conn, row, now, metrics)?,
                Format::Swiss | Format::Duplicate => round_step(conn, row, metrics)?,
            };
            (games, recorded)
        }
        _ => (Vec::new(), false),
    };
    let advanced = tournaments::get(conn, row.id)?.is_some_and(|now| now.version != version);
    Ok(Swept {
        changed: if recorded || advanced || !games.is_empty() {
            vec![row.id]
        } else {
            Vec::new()
        },
        games,
    })
}

/// Starts a tournament (or cancels it, short of entrants) and pairs its first round.
fn start(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    now: NaiveDateTime,
    metrics: &Metrics,
    arena_minute: chrono::Duration,
) -> Result<Vec<GameId>, ApiError> {
    let mut entrants = tournaments::entrants(conn, row.id)?;
    let active = entrants.iter().filter(|e| e.withdrawn_at.is_none()).count();
    let table = usize::try_from(row.table_seats).unwrap_or(2);
    // Two at least; a full table's worth unless computer players fill the tables (team
    // matches: two teams — five entrants, a three and a two, since four would draw one team of
    // four with no one to meet — or with computer players one team to meet them).
    let needed = match (row.teams, fill_level(row).is_some()) {
        (_, true) => 2,
        (true, false) => 5,
        (false, false) => table,
    };
    if active < needed {
        tournaments::cancel(conn, row, CancelCause::TooFewEntrants, None)?;
        return Ok(Vec::new());
    }
    if row.teams {
        tournaments::draw_teams(conn, &teams::draw(row, &entrants)?)?;
        entrants = tournaments::entrants(conn, row.id)?;
    }
    let ends_at = match (row.format, row.minutes) {
        (Format::Arena, Some(minutes)) => Some(now + arena_minute * minutes),
        _ => None,
    };
    let made = match row.format {
        Format::Arena => seat_free(conn, row, &entrants, &[], 1, metrics)?,
        Format::Swiss | Format::Duplicate => pair_round(conn, row, &entrants, &[], 1, metrics)?,
    };
    tournaments::advance(conn, row, Advance::Start { ends_at })?;
    Ok(made)
}

/// Swiss and duplicate: once every game of the round is over, the next round (or the end).
fn round_step(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    if tournaments::playing(conn, row.id)? > 0 {
        return Ok(Vec::new());
    }
    // The round is over: a duplicate round's tables may now be watched and replayed by all,
    // and are rated, all at once.
    tournaments::publish_round(conn, row.id, row.round)?;
    if row.format == Format::Duplicate {
        cardroom_db::ratings::rate_round(conn, row.id, row.round, cardroom_db::now())?;
    }
    if row.round >= row.rounds.unwrap_or(1) {
        tournaments::advance(conn, row, Advance::Finish)?;
        return Ok(Vec::new());
    }
    let entrants = tournaments::entrants(conn, row.id)?;
    let seats = tournaments::seats(conn, row.id)?;
    let next = row.round + 1;
    let made = pair_round(conn, row, &entrants, &seats, next, metrics)?;
    tournaments::advance(conn, row, Advance::NextRound)?;
    Ok(made)
}

/// Arena: seats whoever is free until the time is up; then finishes once the last games end.
fn arena_step(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    now: NaiveDateTime,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    if row.ends_at.is_none_or(|end| now >= end) {
        if tournaments::playing(conn, row.id)? == 0 {
            tournaments::advance(conn, row, Advance::Finish)?;
        }
        return Ok(Vec::new());
    }
    let entrants = tournaments::entrants(conn, row.id)?;
    let seats = tournaments::seats(conn, row.id)?;
    let next = row.round + 1;
    let made = seat_free(conn, row, &entrants, &seats, next, metrics)?;
    if !made.is_empty() {
        tournaments::advance(conn, row, Advance::NextRound)?;
    }
    Ok(made)
}

/// Records the places, points and results of every game of the tournament that is over;
/// whether there was any.
fn record_results(conn: &mut AnyConnection, row: &TournamentRow) -> Result<bool, ApiError> {
    let over = tournaments::unrecorded(conn, row.id)?;
    for &id in &over {
        let record = cardroom_db::games::load(conn, id)?
            .ok_or_else(|| ApiError::internal(format!("tournament game {id} is gone")))?;
        let game: Option<AnyGame> = match record.game.state.as_deref() {
            Some(state) => Some(
                serde_json::from_str(state)
                    .map_err(|e| ApiError::defect(format!("game {id} snapshot"), e))?,
            ),
            None => None,
        };
        let results = recorded_for(game.as_ref(), record.game.seat_count, row.teams);
        tournaments::record(conn, row.id, id, &results)?;
    }
    Ok(!over.is_empty())
}

/// What a tournament records of a game that is over (`None`: closed before its deal, which
/// nothing but closing a tournament table does; nobody played, everyone ties).
pub(crate) fn recorded_for(game: Option<&AnyGame>, seat_count: i32, teams: bool) -> Vec<Recorded> {
    match game {
        Some(game) => results_of(game, teams),
        None => (0..seat_count)
            .map(|seat| Recorded {
                seat,
                place: 0,
                points: 0,
                result: 0,
                first: 1,
            })
            .collect(),
    }
}

/// How each seat of a game that is over did: its side's place, the place's points (doubled),
/// the side's total (higher better; with `margins`, a team match's, its total minus the best
/// other side's) and whether it won.
pub(super) fn results_of(game: &AnyGame, margins: bool) -> Vec<Recorded> {
    let table = game.table();
    let sides = table.sides().count();
    // (An abandoned game has no outcome: every side ties.)
    let places = game.side_places().unwrap_or_else(|| vec![0; sides]);
    let points = place_points(&places);
    let firsts = places.iter().filter(|&&p| p == 0).count();
    let sign = if game.lower_total_wins() { -1 } else { 1 };
    let totals: Vec<i64> = table
        .totals()
        .iter()
        .map(|&t| sign * i64::from(t))
        .collect();
    let result = |side: usize| {
        let mine = totals.get(side).copied().unwrap_or(0);
        if !margins {
            return mine;
        }
        let best_other = totals
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != side)
            .map(|(_, &t)| t)
            .max()
            .unwrap_or(mine);
        mine - best_other
    };
    (0..table.seats())
        .map(|seat| {
            let side = usize::from(table.side_of(cardroom_core::Seat::new(seat)));
            let place = places.get(side).copied().unwrap_or(0);
            Recorded {
                seat: i32::from(seat),
                place: i32::from(place),
                points: i32::try_from(points.get(side).copied().unwrap_or(0)).unwrap_or(0),
                result: result(side),
                first: match (place, firsts) {
                    (0, 1) => 2,
                    (0, _) => 1,
                    _ => 0,
                },
            }
        })
        .collect()
}

/// Swiss and duplicate: pairs round `round` by the standings so far, avoiding repeat meetings;
/// the odd ones out get a bye, or with a fill level a table completed by computer players.
fn pair_round(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    entrants: &[EntrantRow],
    seats: &[SeatRow],
    round: i32,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    if row.teams {
        return teams::pair(conn, row, entrants, seats, round, metrics);
    }
    let sides = sides_of(row)?;
    let so_far = standings(row, sides, entrants, seats)?;
    let points: BTreeMap<i64, f64> = so_far.lines.iter().map(|l| (l.entrant, l.points)).collect();
    let mut byes: BTreeMap<i64, u32> = BTreeMap::new();
    for seat in seats.iter().filter(|s| s.game_id.is_none()) {
        *byes.entry(seat.entrant_id).or_default() += 1;
    }
    let mut field = Vec::new();
    for entrant in entrants.iter().filter(|e| e.withdrawn_at.is_none()) {
        let score = points.get(&entrant.id).copied().unwrap_or(0.0);
        field.push(swiss::Entry {
            entrant: entrant_id(entrant.id)?,
            // (Swiss points are halves; a duplicate percentage is kept to a tenth.)
            points: (score
                * if row.format == Format::Duplicate {
                    10.0
                } else {
                    2.0
                })
            .round() as u32,
            rating: 0.0,
            byes: byes.get(&entrant.id).copied().unwrap_or(0),
        });
    }
    let met = meetings(seats);
    let table = usize::try_from(row.table_seats).unwrap_or(2);
    let paired = swiss::pair(&field, table, &met);
    let mut tables: Vec<Vec<Option<i64>>> = paired
        .tables
        .iter()
        .map(|t| t.iter().map(|&e| Some(i64::from(e))).collect())
        .collect();
    let mut bye_list: Vec<i64> = paired.byes.iter().map(|&e| i64::from(e)).collect();
    if fill_level(row).is_some() && !bye_list.is_empty() {
        tables.push(
            std::mem::take(&mut bye_list)
                .into_iter()
                .map(Some)
                .collect(),
        );
    }
    let board = (row.format == Format::Duplicate)
        .then(|| board_seed(row, round))
        .transpose()?;
    seat_tables(
        conn, row, entrants, &tables, &bye_list, round, board, metrics,
    )
}

/// Arena: seats the free entrants (everyone not in a game being played) by score, not with
/// the table they just left.
fn seat_free(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    entrants: &[EntrantRow],
    seats: &[SeatRow],
    round: i32,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    let busy: BTreeSet<i64> = seats
        .iter()
        .filter(|s| s.game_id.is_some() && s.place.is_none())
        .map(|s| s.entrant_id)
        .collect();
    let table = usize::try_from(row.table_seats).unwrap_or(2);
    let waiting = entrants
        .iter()
        .filter(|e| e.withdrawn_at.is_none() && !busy.contains(&e.id))
        .count();
    // (Most sweeps of a running arena find too few free to seat: nothing more to read.)
    if waiting == 0 || (waiting < table && fill_level(row).is_none()) {
        return Ok(Vec::new());
    }
    let so_far = standings(row, sides_of(row)?, entrants, seats)?;
    let points: BTreeMap<i64, f64> = so_far.lines.iter().map(|l| (l.entrant, l.points)).collect();
    // Each entrant's last table and when they left it.
    let mut last: BTreeMap<i64, (i32, Vec<i64>)> = BTreeMap::new();
    let mut tables_of: BTreeMap<GameId, Vec<i64>> = BTreeMap::new();
    for seat in seats {
        if let Some(game) = seat.game_id {
            tables_of.entry(game).or_default().push(seat.entrant_id);
        }
    }
    for seat in seats {
        if let Some(game) = seat.game_id {
            let others = tables_of.get(&game).cloned().unwrap_or_default();
            last.insert(seat.entrant_id, (seat.round, others));
        }
    }
    let mut free = Vec::new();
    for entrant in entrants.iter().filter(|e| e.withdrawn_at.is_none()) {
        if busy.contains(&entrant.id) {
            continue;
        }
        let (since, table) = last.get(&entrant.id).cloned().unwrap_or_default();
        free.push(arena::Free {
            entrant: entrant_id(entrant.id)?,
            points: points.get(&entrant.id).copied().unwrap_or(0.0) as u32,
            rating: 0.0,
            since: u64::try_from(since).unwrap_or(0),
            last: table
                .iter()
                .filter(|&&e| e != entrant.id)
                .map(|&e| entrant_id(e))
                .collect::<Result<_, _>>()?,
        });
    }
    let mut tables: Vec<Vec<Option<i64>>> = arena::pair(&free, table)
        .iter()
        .map(|t| t.iter().map(|&e| Some(i64::from(e))).collect())
        .collect();
    if fill_level(row).is_some() {
        // Whoever waits plays now with computer players completing the table — never with
        // someone from the table they just left.
        let seated: BTreeSet<i64> = tables.iter().flatten().flatten().copied().collect();
        let mut filled: Vec<Vec<&arena::Free>> = Vec::new();
        for waiting in free
            .iter()
            .filter(|f| !seated.contains(&i64::from(f.entrant)))
        {
            let fits = filled.iter_mut().find(|t| {
                t.len() < table && t.iter().all(|other| !arena::just_played(other, waiting))
            });
            match fits {
                Some(at) => at.push(waiting),
                None => filled.push(vec![waiting]),
            }
        }
        tables.extend(
            filled
                .iter()
                .map(|t| t.iter().map(|f| Some(i64::from(f.entrant))).collect()),
        );
    }
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    seat_tables(conn, row, entrants, &tables, &[], round, None, metrics)
}

/// Who met whom at the tables so far.
fn meetings(seats: &[SeatRow]) -> Met {
    let mut tables: BTreeMap<GameId, Vec<u32>> = BTreeMap::new();
    for seat in seats {
        if let (Some(game), Ok(entrant)) = (seat.game_id, u32::try_from(seat.entrant_id)) {
            tables.entry(game).or_default().push(entrant);
        }
    }
    let mut met = Met::default();
    for table in tables.values() {
        met.table(table);
    }
    met
}

/// How many sides a table of the tournament's game has (a bye is worth first of them).
pub(super) fn sides_of(row: &TournamentRow) -> Result<usize, ApiError> {
    let options: Options =
        serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?;
    let (game, _) = AnyGame::create(
        row.kind,
        Some(&row.variant),
        usize::try_from(row.table_seats).unwrap_or(2),
        &options,
        &Setup {
            seed: random_seed(),
            deck: None,
            replay: None,
        },
    )
    .map_err(ApiError::because(
        "a stored tournament's game no longer starts",
    ))?;
    Ok(game.table().sides().count())
}
