//! Reading tournaments: the list, the lobby's list, and one whole — its standings recomputed
//! from the recorded seats at every read — as its reader (none: a stranger) may see it.

use std::collections::{BTreeMap, BTreeSet};

use cardroom_db::tournaments::{
    self, EntrantRow, Format, SeatRow, TournamentRow, TournamentStatus,
};
use cardroom_db::{AnyConnection, GameId, users};

use super::super::access::is_admin;
use super::{joinable, rounds, standings, visible};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::model::{
    Tournament, TournamentCancelled, TournamentEntrant, TournamentList, TournamentRound,
    TournamentSeat, TournamentStanding, TournamentSummary, TournamentTable, TournamentYourTable,
    TurnPolicy,
};

/// How many finished tournaments the list shows.
const FINISHED_LISTED: usize = 50;

/// `GET /tournaments`: upcoming ones soonest first, running ones, then the latest finished.
pub fn list(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    stages: &[TournamentStatus],
) -> Result<TournamentList, ApiError> {
    let mut rows = tournaments::list(conn, stages, caller.map(|c| c.id), 500)?;
    in_list_order(&mut rows, FINISHED_LISTED);
    let tournaments = summaries(conn, caller, &rows)?;
    Ok(TournamentList { tournaments })
}

/// Upcoming tournaments soonest first, then running ones, then at most `finished` of those
/// over (finished or cancelled), each group latest first as read.
fn in_list_order(rows: &mut Vec<TournamentRow>, finished: usize) {
    rows.sort_by_key(|r| match r.status {
        TournamentStatus::Upcoming => (0, r.starts_at.and_utc().timestamp()),
        TournamentStatus::Running => (1, 0),
        TournamentStatus::Finished | TournamentStatus::Cancelled => (2, 0),
    });
    let mut over = 0;
    rows.retain(|r| {
        let done = matches!(
            r.status,
            TournamentStatus::Finished | TournamentStatus::Cancelled
        );
        over += usize::from(done);
        !done || over <= finished
    });
}

/// The list entries of `rows` for `caller` (none: anyone): three queries whatever their
/// number.
fn summaries(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    rows: &[TournamentRow],
) -> Result<Vec<TournamentSummary>, ApiError> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let counts: BTreeMap<i64, i64> = tournaments::counts(conn, &ids)?.into_iter().collect();
    let entered: Vec<i64> = match caller {
        Some(caller) => tournaments::entered_by(conn, caller.id)?,
        None => Vec::new(),
    };
    let mut makers: Vec<i64> = rows.iter().map(|r| r.created_by).collect();
    makers.sort_unstable();
    makers.dedup();
    let names: BTreeMap<i64, String> = tournaments::names_of(conn, &makers)?.into_iter().collect();
    let admin = match caller {
        Some(caller) => is_admin(conn, caller)?,
        None => false,
    };
    rows.iter()
        .map(|row| {
            summary_of(
                row,
                counts.get(&row.id).copied().unwrap_or(0),
                names.get(&row.created_by).cloned().unwrap_or_default(),
                entered.contains(&row.id),
                Reader::of(caller, admin),
            )
        })
        .collect()
}

/// How many finished tournaments the lobby shows.
const FINISHED_IN_LOBBY: usize = 10;

/// The lobby's tournaments: the public ones upcoming (soonest first) and running, and the
/// latest finished; of one kind if asked.
pub fn listed(
    conn: &mut AnyConnection,
    kind: Option<cardroom_core::GameKind>,
) -> Result<Vec<TournamentSummary>, ApiError> {
    let mut rows = tournaments::list(
        conn,
        &[
            TournamentStatus::Upcoming,
            TournamentStatus::Running,
            TournamentStatus::Finished,
        ],
        None,
        200,
    )?;
    rows.retain(|r| r.code.is_none() && kind.is_none_or(|k| r.kind == k));
    in_list_order(&mut rows, FINISHED_IN_LOBBY);
    summaries(conn, None, &rows)
}

/// A tournament's list entry, with `entrants` still in, for `caller` (none: anyone).
pub(super) fn summary(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    row: &TournamentRow,
    entrants: i64,
) -> Result<TournamentSummary, ApiError> {
    let creator = users::by_id(conn, row.created_by)?
        .map(|u| u.name)
        .unwrap_or_default();
    let (joined, admin) = match caller {
        Some(caller) => (
            tournaments::entered_by(conn, caller.id)?.contains(&row.id),
            is_admin(conn, caller)?,
        ),
        None => (false, false),
    };
    summary_of(row, entrants, creator, joined, Reader::of(caller, admin))
}

/// Who reads a summary, as far as it matters to it: their account (none: a stranger) and
/// whether they are an admin.
#[derive(Clone, Copy)]
struct Reader {
    id: Option<i64>,
    admin: bool,
}

impl Reader {
    fn of(caller: Option<&Caller>, admin: bool) -> Reader {
        Reader {
            id: caller.map(|c| c.id),
            admin,
        }
    }
}

/// A tournament's list entry from what was read for it: its maker's name, and whether its
/// reader is in.
fn summary_of(
    row: &TournamentRow,
    entrants: i64,
    creator: String,
    joined: bool,
    reader: Reader,
) -> Result<TournamentSummary, ApiError> {
    let maker = reader.id == Some(row.created_by);
    Ok(TournamentSummary {
        id: row.id,
        name: row.name.clone(),
        format: row.format,
        kind: row.kind,
        variant: row.variant.clone(),
        seats: i64::from(row.table_seats),
        options: serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?,
        rounds: row.rounds.map(i64::from),
        minutes: row.minutes.map(i64::from),
        turn: TurnPolicy {
            seconds: i64::from(row.turn_seconds),
            takeover_after: Some(i64::from(row.takeover_after)),
        },
        fill: row.fill.map(|level| level.name().to_owned()),
        rated: row.rated,
        private: row.code.is_some(),
        teams: row.teams,
        code: row.code.clone().filter(|_| maker),
        status: row.status,
        round: i64::from(row.round),
        entrants,
        created_by: creator,
        joined,
        joinable: joinable(row, cardroom_db::now()),
        manageable: reader.admin || (maker && row.code.is_some()),
        cancelled: row.cancel_cause.map(|cause| TournamentCancelled {
            cause,
            note: row.cancel_note.clone(),
        }),
        starts_at: row.starts_at.and_utc(),
        ends_at: row.ends_at.map(|t| t.and_utc()),
        finished_at: row.finished_at.map(|t| t.and_utc()),
    })
}

/// `GET /tournaments/{id}`.
pub fn get(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: i64,
    code: Option<&str>,
) -> Result<Tournament, ApiError> {
    let row = visible(conn, caller, id, code)?;
    whole(conn, caller, &row)
}

/// The tournament whole, as `caller` (none: a stranger) sees it.
pub(super) fn whole(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    row: &TournamentRow,
) -> Result<Tournament, ApiError> {
    let entrants = tournaments::entrants(conn, row.id)?;
    // A duplicate round's results wait until its last table is over: until then each of its
    // seats reads as not yet recorded, in the standings as in the round's tables.
    let seats = tournaments::seats(conn, row.id)?;
    let sealed = crate::play::gate::sealed_rounds(row, &seats);
    let seats: Vec<_> = seats
        .into_iter()
        .map(|mut seat| {
            if sealed.contains(&seat.round) {
                (seat.place, seat.points, seat.result, seat.first) = (None, None, None, None);
            }
            seat
        })
        .collect();
    let active = entrants.iter().filter(|e| e.withdrawn_at.is_none()).count() as i64;
    let summary = summary(conn, caller, row, active)?;
    let sides = rounds::sides_of(row)?;
    let table = standings::standings(row, sides, &entrants, &seats)?;
    let names: BTreeMap<i64, (&str, bool)> = entrants
        .iter()
        .map(|e| (e.id, (e.name.as_str(), e.withdrawn_at.is_some())))
        .collect();
    let name = |entrant: i64| names.get(&entrant).map_or("", |n| n.0).to_owned();
    let standings = table
        .lines
        .iter()
        .map(|line| TournamentStanding {
            rank: i64::from(line.rank),
            entrant_id: line.entrant,
            name: name(line.entrant),
            points: line.points,
            games: i64::from(line.games),
            buchholz: line.buchholz,
            sonneborn_berger: line.sonneborn_berger,
            streak: line.streak.map(i64::from),
            withdrawn: names.get(&line.entrant).is_some_and(|n| n.1),
            team: line.team.map(i64::from),
            difference: line.difference,
        })
        .collect();
    let partner_tables = partner_tables(&entrants, &seats);
    let over_games: BTreeSet<GameId> = tournaments::games_over(conn, row.id)?.into_iter().collect();
    let mut by_round: BTreeMap<i32, TournamentRound> = BTreeMap::new();
    let mut your_table = None;
    let mine = caller.and_then(|caller| {
        entrants
            .iter()
            .find(|e| e.user_id == caller.id)
            .map(|e| e.id)
    });
    for seat in &seats {
        let round = by_round
            .entry(seat.round)
            .or_insert_with(|| TournamentRound {
                round: i64::from(seat.round),
                tables: Vec::new(),
                byes: Vec::new(),
            });
        let Some(game) = seat.game_id else {
            round.byes.push(seat.entrant_id);
            continue;
        };
        // (Over as soon as its game is, though its result counts a step later.)
        let over = seat.place.is_some() || over_games.contains(&game);
        if !over && Some(seat.entrant_id) == mine {
            your_table = Some(TournamentYourTable {
                round: i64::from(seat.round),
                game_id: game.get(),
                seat: i64::from(seat.seat.unwrap_or(0)),
            });
        }
        let index = match round.tables.iter().position(|t| t.game_id == game.get()) {
            Some(index) => index,
            None => {
                round.tables.push(TournamentTable {
                    game_id: game.get(),
                    over,
                    seats: Vec::new(),
                    match_game_id: partner_tables.get(&game).map(|g| g.get()),
                });
                round.tables.len() - 1
            }
        };
        let worth = table.worth.get(&(seat.round, seat.entrant_id)).copied();
        let duplicate = row.format == Format::Duplicate && !row.teams;
        round.tables[index].seats.push(TournamentSeat {
            seat: i64::from(seat.seat.unwrap_or(0)),
            entrant_id: seat.entrant_id,
            name: name(seat.entrant_id),
            place: seat.place.map(i64::from),
            points: worth.filter(|_| !duplicate),
            result: seat.result,
            matchpoints: worth.filter(|_| duplicate),
            board: table.boards.get(&(seat.round, seat.entrant_id)).copied(),
        });
    }
    Ok(Tournament {
        summary,
        players: entrants
            .iter()
            .map(|e| TournamentEntrant {
                entrant_id: e.id,
                name: e.name.clone(),
                bot: e.bot,
                withdrawn: e.withdrawn_at.is_some(),
                team: e.team.map(i64::from),
                pair: e.team_position.map(|p| i64::from(p / 2 + 1)),
            })
            .collect(),
        standings,
        round_tables: by_round.into_values().collect(),
        your_table,
    })
}

/// Team matches: each game's partner, the match's other table — the other game a team played
/// in the same round.
fn partner_tables(entrants: &[EntrantRow], seats: &[SeatRow]) -> BTreeMap<GameId, GameId> {
    let team_of: BTreeMap<i64, i32> = entrants
        .iter()
        .filter_map(|e| Some((e.id, e.team?)))
        .collect();
    let mut games: BTreeMap<(i32, i32), BTreeSet<GameId>> = BTreeMap::new();
    for seat in seats {
        if let (Some(game), Some(&team)) = (seat.game_id, team_of.get(&seat.entrant_id)) {
            games.entry((seat.round, team)).or_default().insert(game);
        }
    }
    let mut partners = BTreeMap::new();
    for pair in games.values() {
        if let [a, b] = pair.iter().copied().collect::<Vec<_>>()[..] {
            partners.insert(a, b);
            partners.insert(b, a);
        }
    }
    partners
}
