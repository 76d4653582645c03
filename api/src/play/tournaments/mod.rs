//! Tournaments: making one, entering and withdrawing, and reading it whole — its standings
//! recomputed from the recorded seats at every read. The rounds pair themselves in the
//! recovery sweep ([`rounds::sweep`]).

mod mark;
mod rounds;
mod standings;
mod tables;
mod teams;

use std::collections::{BTreeMap, BTreeSet};

use cardroom_core::{AnyGame, BotLevel, Options, Setup};
use cardroom_db::tournaments::{
    self, EntrantRow, Format, NewTournament, SeatRow, Stage, TournamentRow,
};
use cardroom_db::{AnyConnection, GameId, users};
use chrono::NaiveDateTime;

pub use mark::{TournamentMark, marks};
pub use rounds::{Swept, deal_tables, step_claimed, sweep};

use super::access::{is_admin, may_sit};
use super::setup::{random_code, random_seed, turn_policy};
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::model::{
    CreateTournament, Tournament, TournamentEntrant, TournamentList, TournamentRound,
    TournamentSeat, TournamentStanding, TournamentSummary, TournamentTable, TournamentYourTable,
    TurnPolicy,
};

/// The turn timer of a tournament's games when the request names none.
const DEFAULT_TURN: (i64, i64) = (60, 2);
/// Rounds (Swiss, duplicate): bounds and default.
const ROUNDS: std::ops::RangeInclusive<i64> = 1..=20;
const DEFAULT_ROUNDS: i64 = 3;
/// An arena's length in minutes: bounds and default.
const MINUTES: std::ops::RangeInclusive<i64> = 1..=1440;
const DEFAULT_MINUTES: i64 = 30;
/// How far ahead a tournament may start, in seconds, and when by default.
const STARTS_IN: std::ops::RangeInclusive<i64> = 0..=2_592_000;
const DEFAULT_STARTS_IN: i64 = 300;
/// How many finished tournaments the list shows.
const FINISHED_LISTED: usize = 50;

/// `POST /tournaments`: any registered player may make a private tournament; only admins a
/// public one.
pub fn create(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: &CreateTournament,
) -> Result<TournamentSummary, ApiError> {
    let user = users::by_id(conn, caller.id)?.ok_or_else(|| {
        ApiError::Unauthorized("the account this token names no longer exists".to_owned())
    })?;
    if user.guest {
        return Err(ApiError::Denied {
            code: ProblemCode::RegisteredOnly,
            detail: "guests enter tournaments but do not make them: register an account".to_owned(),
        });
    }
    let private = request.private.unwrap_or(false);
    if !private && !is_admin(conn, caller)? {
        return Err(ApiError::Forbidden(
            "only admins make public tournaments; make a private one (`private: true`)".to_owned(),
        ));
    }
    let new = checked(request, caller.id, private)?;
    let row = tournaments::create(conn, &new)?;
    summary(conn, Some(caller), &row, 0)
}

/// A request made into a tournament's row, every field within its bounds and the game checked
/// by its own rules (dealt once).
fn checked(
    request: &CreateTournament,
    created_by: i64,
    private: bool,
) -> Result<NewTournament, ApiError> {
    let name = crate::input::plain_text("name", request.name.trim())?;
    if name.is_empty() || name.chars().count() > 60 || name.chars().any(char::is_control) {
        return Err(ApiError::Invalid(
            "name is 1 to 60 characters, none of them control characters".to_owned(),
        ));
    }
    let info = request.kind.describe();
    let variant = match &request.variant {
        Some(name) => info.variants.iter().find(|v| v.name == name.as_str()),
        None => info.variants.iter().find(|v| v.default),
    }
    .ok_or_else(|| {
        ApiError::Invalid(format!(
            "{} has no variant `{}`",
            request.kind,
            request
                .variant
                .as_deref()
                .unwrap_or_default()
                .chars()
                .take(32)
                .collect::<String>()
        ))
    })?;
    let seats = match request.seats {
        Some(n) => usize::try_from(n).unwrap_or(0),
        None => variant.seats.iter().copied().min().map_or(2, usize::from),
    };
    if !variant
        .seats
        .iter()
        .any(|&allowed| usize::from(allowed) == seats)
    {
        return Err(ApiError::Invalid(format!(
            "a table of {} `{}` seats one of {:?}",
            request.kind, variant.name, variant.seats
        )));
    }
    let options: Options = request.options.clone();
    let (game, _) = AnyGame::create(
        request.kind,
        Some(variant.name),
        seats,
        &options,
        &Setup {
            seed: random_seed(),
            deck: None,
            replay: None,
        },
    )
    .map_err(|e| ApiError::Invalid(e.to_string()))?;
    let teams = request.teams.unwrap_or(false);
    if teams && (request.format != Format::Duplicate || !partnerships_of_two(&game)) {
        return Err(ApiError::Invalid(
            "team matches (`teams`) are a duplicate format for a partnership game at tables of \
             four"
                .to_owned(),
        ));
    }
    let (rounds, minutes) = match request.format {
        Format::Arena => {
            if request.rounds.is_some() {
                return Err(ApiError::Invalid(
                    "an arena runs for `minutes`, not `rounds`".to_owned(),
                ));
            }
            let minutes = request.minutes.unwrap_or(DEFAULT_MINUTES);
            (None, Some(within("minutes", minutes, &MINUTES)?))
        }
        Format::Swiss | Format::Duplicate => {
            if request.minutes.is_some() {
                return Err(ApiError::Invalid(
                    "Swiss and duplicate tournaments have `rounds`, not `minutes`".to_owned(),
                ));
            }
            let rounds = request.rounds.unwrap_or(DEFAULT_ROUNDS);
            (Some(within("rounds", rounds, &ROUNDS)?), None)
        }
    };
    let turn = request.turn.clone().unwrap_or(TurnPolicy {
        seconds: DEFAULT_TURN.0,
        takeover_after: Some(DEFAULT_TURN.1),
    });
    let (Some(turn_seconds), Some(takeover_after)) = turn_policy(Some(&turn))? else {
        return Err(ApiError::internal("a turn policy without its numbers"));
    };
    let fill = match request.fill.as_deref() {
        None => None,
        Some(given) => Some(
            given
                .parse::<BotLevel>()
                .ok()
                .filter(|level| info.levels.iter().any(|l| l.name == level.name()))
                .ok_or_else(|| {
                    ApiError::Invalid(format!(
                        "fill: not a computer-player level of {}; the levels are {}",
                        request.kind,
                        info.levels
                            .iter()
                            .map(|l| l.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?,
        ),
    };
    Ok(NewTournament {
        name: name.to_owned(),
        format: request.format,
        kind: request.kind,
        variant: variant.name.to_owned(),
        options: serde_json::to_string(&options).map_err(ApiError::because("options encoding"))?,
        table_seats: seats as i32,
        rounds,
        minutes,
        fill,
        turn_seconds,
        takeover_after,
        rated: request.rated.unwrap_or(true),
        code: private.then(|| random_code(10)),
        seed: random_seed().to_hex(),
        created_by,
        starts_at: starts_at(request)?,
        teams,
    })
}

/// Whether a game's table is two partnerships of two, opposite seats together (seats 0 and 2
/// against 1 and 3), as team matches seat them.
fn partnerships_of_two(game: &AnyGame) -> bool {
    let table = game.table();
    let side = |seat: u8| table.side_of(cardroom_core::Seat::new(seat));
    table.seats() == 4 && table.sides().count() == 2 && side(0) == side(2) && side(1) == side(3)
}

/// `value` within `range`, as an `i32`.
fn within(field: &str, value: i64, range: &std::ops::RangeInclusive<i64>) -> Result<i32, ApiError> {
    if range.contains(&value) {
        // (Bounded well inside i32.)
        Ok(value as i32)
    } else {
        Err(ApiError::Invalid(format!(
            "{field} must be from {} to {}",
            range.start(),
            range.end()
        )))
    }
}

/// When a new tournament starts: `starts_in` seconds from now or `starts_at` (a time passed
/// already is now), at most 30 days ahead.
fn starts_at(request: &CreateTournament) -> Result<NaiveDateTime, ApiError> {
    let now = cardroom_db::now();
    match (request.starts_in, request.starts_at) {
        (Some(_), Some(_)) => Err(ApiError::Invalid(
            "give `starts_in` or `starts_at`, not both".to_owned(),
        )),
        (None, Some(at)) => {
            let at = at.naive_utc().max(now);
            if at > now + chrono::Duration::seconds(*STARTS_IN.end()) {
                return Err(ApiError::Invalid(
                    "starts_at is at most 30 days ahead".to_owned(),
                ));
            }
            Ok(at)
        }
        (given, None) => {
            let seconds = within("starts_in", given.unwrap_or(DEFAULT_STARTS_IN), &STARTS_IN)?;
            Ok(now + chrono::Duration::seconds(i64::from(seconds)))
        }
    }
}

/// The tournament `id`, if the caller may see it: a public one; a private one for its maker,
/// its entrants, admins, and whoever has its code.
fn visible(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<TournamentRow, ApiError> {
    let code = crate::input::link_code(code)?;
    let missing = || ApiError::NotFound(format!("there is no tournament {id} for you"));
    let row = tournaments::get(conn, id)?.ok_or_else(missing)?;
    let Some(secret) = row.code.as_deref() else {
        return Ok(row);
    };
    if row.created_by == caller.id || code == Some(secret) || is_admin(conn, caller)? {
        return Ok(row);
    }
    let entered = tournaments::entrants(conn, id)?
        .iter()
        .any(|e| e.user_id == caller.id);
    if entered { Ok(row) } else { Err(missing()) }
}

/// `GET /tournaments`: upcoming ones soonest first, running ones, then the latest finished.
pub fn list(
    conn: &mut AnyConnection,
    caller: &Caller,
    stages: &[Stage],
) -> Result<TournamentList, ApiError> {
    let mut rows = tournaments::list(conn, stages, caller.id, 500)?;
    in_list_order(&mut rows, FINISHED_LISTED);
    let tournaments = summaries(conn, Some(caller), &rows)?;
    Ok(TournamentList { tournaments })
}

/// Upcoming tournaments soonest first, then running ones, then at most `finished` of those
/// over (finished or cancelled), each group latest first as read.
fn in_list_order(rows: &mut Vec<TournamentRow>, finished: usize) {
    rows.sort_by_key(|r| match r.status {
        Stage::Upcoming => (0, r.starts_at.and_utc().timestamp()),
        Stage::Running => (1, 0),
        Stage::Finished | Stage::Cancelled => (2, 0),
    });
    let mut over = 0;
    rows.retain(|r| {
        let done = matches!(r.status, Stage::Finished | Stage::Cancelled);
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
    rows.iter()
        .map(|row| {
            summary_of(
                row,
                counts.get(&row.id).copied().unwrap_or(0),
                names.get(&row.created_by).cloned().unwrap_or_default(),
                entered.contains(&row.id),
                caller.map(|c| c.id),
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
        &[Stage::Upcoming, Stage::Running, Stage::Finished],
        0,
        200,
    )?;
    rows.retain(|r| r.code.is_none() && kind.is_none_or(|k| r.kind == k));
    in_list_order(&mut rows, FINISHED_IN_LOBBY);
    summaries(conn, None, &rows)
}

/// A tournament's list entry, with `entrants` still in, for `caller` (none: anyone).
fn summary(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    row: &TournamentRow,
    entrants: i64,
) -> Result<TournamentSummary, ApiError> {
    let creator = users::by_id(conn, row.created_by)?
        .map(|u| u.name)
        .unwrap_or_default();
    let joined = match caller {
        Some(caller) => tournaments::entered_by(conn, caller.id)?.contains(&row.id),
        None => false,
    };
    summary_of(row, entrants, creator, joined, caller.map(|c| c.id))
}

/// A tournament's list entry from what was read for it: its maker's name, and whether the
/// caller (`caller`, none for anyone) is in.
fn summary_of(
    row: &TournamentRow,
    entrants: i64,
    creator: String,
    joined: bool,
    caller: Option<i64>,
) -> Result<TournamentSummary, ApiError> {
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
        code: row.code.clone().filter(|_| caller == Some(row.created_by)),
        status: row.status,
        round: i64::from(row.round),
        entrants,
        created_by: creator,
        joined,
        starts_at: row.starts_at.and_utc(),
        ends_at: row.ends_at.map(|t| t.and_utc()),
        finished_at: row.finished_at.map(|t| t.and_utc()),
    })
}

/// `GET /tournaments/{id}`.
pub fn get(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<Tournament, ApiError> {
    let row = visible(conn, caller, id, code)?;
    whole(conn, caller, &row)
}

/// The tournament whole, as `caller` sees it.
fn whole(
    conn: &mut AnyConnection,
    caller: &Caller,
    row: &TournamentRow,
) -> Result<Tournament, ApiError> {
    let entrants = tournaments::entrants(conn, row.id)?;
    let seats = tournaments::seats(conn, row.id)?;
    let active = entrants.iter().filter(|e| e.withdrawn_at.is_none()).count() as i64;
    let summary = summary(conn, Some(caller), row, active)?;
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
    let mut by_round: BTreeMap<i32, TournamentRound> = BTreeMap::new();
    let mut your_table = None;
    let mine = entrants
        .iter()
        .find(|e| e.user_id == caller.id)
        .map(|e| e.id);
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
        let over = seat.place.is_some();
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

fn closed(detail: &str) -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::TournamentClosed,
        detail: detail.to_owned(),
    }
}

/// `POST /tournaments/{id}/join`: before the start (an arena: until its time is up). A private
/// tournament needs its code.
pub fn join(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<Tournament, ApiError> {
    let row = visible(conn, caller, id, code)?;
    may_sit(conn, caller)?;
    let now = cardroom_db::now();
    let open = match row.status {
        Stage::Upcoming => true,
        Stage::Running => row.format == Format::Arena && row.ends_at.is_some_and(|end| now < end),
        Stage::Finished | Stage::Cancelled => false,
    };
    if !open {
        return Err(closed(
            "this tournament takes no more entrants (it has started or is over)",
        ));
    }
    tournaments::join(conn, id, caller.id)?;
    whole(conn, caller, &row)
}

/// `POST /tournaments/{id}/withdraw`: until it is over. A withdrawn entrant is paired no more;
/// a game being played goes on (the turn timer hands an empty seat to the computer).
pub fn withdraw(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
) -> Result<Tournament, ApiError> {
    let row = visible(conn, caller, id, None)?;
    if matches!(row.status, Stage::Finished | Stage::Cancelled) {
        return Err(closed("this tournament is over"));
    }
    if !tournaments::withdraw(conn, id, caller.id)? {
        return Err(ApiError::Conflict {
            code: ProblemCode::NotEntered,
            detail: "you are not entered in this tournament".to_owned(),
        });
    }
    whole(conn, caller, &row)
}
