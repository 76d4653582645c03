//! Tournaments: their rows, who entered, and who sits where in each round.
//!
//! A round is paired in one transaction that holds the tournament's row
//! ([`with_claimed_tournament`]): on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` (a replica
//! pairing it right now is passed over, never waited for), on SQLite the single writer taken
//! by a first write. The pairing bumps the row's `version` only if it is still the one read
//! ([`advance`]), and a round seats each entrant at most once (the seats' primary key), so a
//! round is paired exactly once however many replicas try; a replica killed in the middle
//! leaves nothing behind (its transaction is undone) and the next sweep pairs the round.

use cardroom_core::{BotLevel, GameKind};
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::notify::notify_tournament;
use crate::schema::{games, tournament_entrants, tournament_seats, tournaments, users};
use crate::status::GameStatus;

mod advance;
mod holding;
mod terms;
mod words;

pub use advance::{Advance, advance};
pub use holding::{with_claimed_tournament, with_locked_tournament};
pub use terms::{cancel, edit};
pub use words::{CancelCause, Format, TournamentStatus};

/// A tournament.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    pub format: Format,
    pub kind: GameKind,
    pub variant: String,
    /// The house rules, as JSON.
    pub options: String,
    /// Seats at a table.
    pub table_seats: i32,
    /// Swiss and duplicate: the rounds.
    pub rounds: Option<i32>,
    /// Arena: its length.
    pub minutes: Option<i32>,
    /// The computer level that completes a table short of entrants (none: byes, or waiting).
    pub fill: Option<BotLevel>,
    pub turn_seconds: i32,
    pub takeover_after: i32,
    pub rated: bool,
    /// A private tournament's code (none: public, listed in the lobby).
    pub code: Option<String>,
    /// The seed its duplicate boards come from (hex).
    pub seed: String,
    pub created_by: i64,
    pub status: TournamentStatus,
    /// Rounds paired so far.
    pub round: i32,
    pub version: i64,
    pub starts_at: NaiveDateTime,
    /// Arena: when pairing stops.
    pub ends_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    /// Duplicate of a partnership game as team matches: entrants drawn into teams of four.
    pub teams: bool,
    /// Why it was cancelled, once it is.
    pub cancel_cause: Option<CancelCause>,
    /// The words its maker or an admin gave when calling it off.
    pub cancel_note: Option<String>,
}

/// A new tournament.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewTournament {
    pub name: String,
    pub format: Format,
    pub kind: GameKind,
    pub variant: String,
    pub options: String,
    pub table_seats: i32,
    pub rounds: Option<i32>,
    pub minutes: Option<i32>,
    pub fill: Option<BotLevel>,
    pub turn_seconds: i32,
    pub takeover_after: i32,
    pub rated: bool,
    pub code: Option<String>,
    pub seed: String,
    pub created_by: i64,
    pub starts_at: NaiveDateTime,
    pub teams: bool,
}

/// An entrant, with the account's name.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct EntrantRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    /// A bot account (a program).
    pub bot: bool,
    pub joined_at: NaiveDateTime,
    pub withdrawn_at: Option<NaiveDateTime>,
    /// A team match's team (from 1), once drawn.
    pub team: Option<i32>,
    /// The entrant's position in its team: 0 and 1 the first pair, 2 and 3 the second.
    pub team_position: Option<i32>,
}

/// Where an entrant sits in a round, and once its game is over how it did.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    pub tournament_id: i64,
    pub round: i32,
    pub entrant_id: i64,
    /// None: a bye.
    pub game_id: Option<GameId>,
    pub seat: Option<i32>,
    pub place: Option<i32>,
    pub points: Option<i32>,
    pub result: Option<i64>,
    pub first: Option<i32>,
}

/// A seat (or a bye) to write in a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NewSeat {
    pub entrant_id: i64,
    pub game_id: Option<GameId>,
    pub seat: Option<i32>,
}

/// How an entrant did in a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Recorded {
    pub seat: i32,
    pub place: i32,
    pub points: i32,
    pub result: i64,
    pub first: i32,
}

/// Stores a new, upcoming tournament.
pub fn create(conn: &mut AnyConnection, new: &NewTournament) -> Result<TournamentRow, DbError> {
    diesel::insert_into(tournaments::table)
        .values((
            tournaments::name.eq(&new.name),
            tournaments::format.eq(new.format),
            tournaments::kind.eq(new.kind),
            tournaments::variant.eq(&new.variant),
            tournaments::options.eq(&new.options),
            tournaments::table_seats.eq(new.table_seats),
            tournaments::rounds.eq(new.rounds),
            tournaments::minutes.eq(new.minutes),
            tournaments::fill.eq(new.fill),
            tournaments::turn_seconds.eq(new.turn_seconds),
            tournaments::takeover_after.eq(new.takeover_after),
            tournaments::rated.eq(new.rated),
            tournaments::code.eq(new.code.as_deref()),
            tournaments::seed.eq(&new.seed),
            tournaments::created_by.eq(new.created_by),
            tournaments::status.eq(TournamentStatus::Upcoming),
            tournaments::round.eq(0),
            tournaments::version.eq(0i64),
            tournaments::starts_at.eq(new.starts_at),
            tournaments::created_at.eq(crate::now()),
            tournaments::teams.eq(new.teams),
        ))
        .returning(tournaments::all_columns)
        .get_result(conn)
        .map_err(DbError::from)
}

/// A tournament by id.
pub fn get(conn: &mut AnyConnection, id: i64) -> Result<Option<TournamentRow>, DbError> {
    tournaments::table
        .find(id)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Tournaments at `stages`, the soonest to start first among the upcoming and the latest
/// otherwise: the public ones and the private ones `user_id` made or entered; at most `limit`.
pub fn list(
    conn: &mut AnyConnection,
    stages: &[TournamentStatus],
    user_id: Option<i64>,
    limit: i64,
) -> Result<Vec<TournamentRow>, DbError> {
    // (No account — a stranger — made and entered none: `= NULL` holds for no row.)
    let entered = tournament_entrants::table
        .filter(tournament_entrants::user_id.nullable().eq(user_id))
        .select(tournament_entrants::tournament_id);
    tournaments::table
        .filter(tournaments::status.eq_any(stages))
        .filter(
            tournaments::code
                .is_null()
                .or(tournaments::created_by.nullable().eq(user_id))
                .or(tournaments::id.eq_any(entered)),
        )
        .order((tournaments::starts_at.desc(), tournaments::id.desc()))
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// The tournaments that need the pairing step now: running ones, and upcoming ones due to
/// start by `now`; at most `limit`, oldest first.
pub fn due(conn: &mut AnyConnection, now: NaiveDateTime, limit: i64) -> Result<Vec<i64>, DbError> {
    tournaments::table
        .filter(
            tournaments::status
                .eq(TournamentStatus::Running)
                .or(tournaments::status
                    .eq(TournamentStatus::Upcoming)
                    .and(tournaments::starts_at.le(now))),
        )
        .order(tournaments::id.asc())
        .select(tournaments::id)
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// Enters `user_id` (again, if they withdrew); whether anything changed.
pub fn join(conn: &mut AnyConnection, id: i64, user_id: i64) -> Result<bool, DbError> {
    let back = diesel::update(
        tournament_entrants::table
            .filter(tournament_entrants::tournament_id.eq(id))
            .filter(tournament_entrants::user_id.eq(user_id))
            .filter(tournament_entrants::withdrawn_at.is_not_null()),
    )
    .set(tournament_entrants::withdrawn_at.eq(None::<NaiveDateTime>))
    .execute(conn)?;
    if back == 1 {
        notify_tournament(conn, id)?;
        return Ok(true);
    }
    let inserted = diesel::insert_into(tournament_entrants::table)
        .values((
            tournament_entrants::tournament_id.eq(id),
            tournament_entrants::user_id.eq(user_id),
            tournament_entrants::joined_at.eq(crate::now()),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => {
            notify_tournament(conn, id)?;
            Ok(true)
        }
        // Entered already (by this request's twin, perhaps): nothing to do.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(false),
        Err(other) => Err(other.into()),
    }
}

/// Withdraws `user_id`; whether they were entered and had not withdrawn.
pub fn withdraw(conn: &mut AnyConnection, id: i64, user_id: i64) -> Result<bool, DbError> {
    let changed = diesel::update(
        tournament_entrants::table
            .filter(tournament_entrants::tournament_id.eq(id))
            .filter(tournament_entrants::user_id.eq(user_id))
            .filter(tournament_entrants::withdrawn_at.is_null()),
    )
    .set(tournament_entrants::withdrawn_at.eq(Some(crate::now())))
    .execute(conn)?;
    if changed == 1 {
        notify_tournament(conn, id)?;
    }
    Ok(changed == 1)
}

/// Everyone who entered, in the order they joined.
pub fn entrants(conn: &mut AnyConnection, id: i64) -> Result<Vec<EntrantRow>, DbError> {
    tournament_entrants::table
        .inner_join(users::table)
        .filter(tournament_entrants::tournament_id.eq(id))
        .order(tournament_entrants::id.asc())
        .select((
            tournament_entrants::id,
            tournament_entrants::user_id,
            users::name,
            users::bot,
            tournament_entrants::joined_at,
            tournament_entrants::withdrawn_at,
            tournament_entrants::team,
            tournament_entrants::team_position,
        ))
        .load(conn)
        .map_err(DbError::from)
}

/// Writes a team match's draw: each entrant's team and position in it (`(entrant, team,
/// position)`). Part of the step that starts the tournament.
pub fn draw_teams(conn: &mut AnyConnection, drawn: &[(i64, i32, i32)]) -> Result<(), DbError> {
    for &(entrant, team, position) in drawn {
        diesel::update(tournament_entrants::table.find(entrant))
            .set((
                tournament_entrants::team.eq(Some(team)),
                tournament_entrants::team_position.eq(Some(position)),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// How many entrants have not withdrawn, for each of `ids`.
pub fn counts(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, i64)>, DbError> {
    use diesel::dsl::count_star;
    tournament_entrants::table
        .filter(tournament_entrants::tournament_id.eq_any(ids))
        .filter(tournament_entrants::withdrawn_at.is_null())
        .group_by(tournament_entrants::tournament_id)
        .select((tournament_entrants::tournament_id, count_star()))
        .load(conn)
        .map_err(DbError::from)
}

/// Every seat of every round, in round order.
pub fn seats(conn: &mut AnyConnection, id: i64) -> Result<Vec<SeatRow>, DbError> {
    tournament_seats::table
        .filter(tournament_seats::tournament_id.eq(id))
        .order((
            tournament_seats::round.asc(),
            tournament_seats::game_id.asc(),
            tournament_seats::seat.asc(),
        ))
        .load(conn)
        .map_err(DbError::from)
}

/// The games of `id` that are over (finished or abandoned) and whose results are not recorded.
pub fn unrecorded(conn: &mut AnyConnection, id: i64) -> Result<Vec<GameId>, DbError> {
    let mut over: Vec<GameId> = tournament_seats::table
        .inner_join(games::table.on(tournament_seats::game_id.eq(games::id.nullable())))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::place.is_null())
        .filter(games::status.eq_any([GameStatus::Finished, GameStatus::Abandoned]))
        .select(games::id)
        .load(conn)?;
    over.sort_unstable();
    over.dedup();
    Ok(over)
}

/// The games of `id` paired and not dealt yet.
pub fn undealt(conn: &mut AnyConnection, id: i64) -> Result<Vec<GameId>, DbError> {
    let mut waiting: Vec<GameId> = tournament_seats::table
        .inner_join(games::table.on(tournament_seats::game_id.eq(games::id.nullable())))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::place.is_null())
        .filter(games::status.eq(GameStatus::Waiting))
        .select(games::id)
        .load(conn)?;
    waiting.sort_unstable();
    waiting.dedup();
    Ok(waiting)
}

/// How many of `id`'s games are still being played.
pub fn playing(conn: &mut AnyConnection, id: i64) -> Result<i64, DbError> {
    use diesel::dsl::count_star;
    tournament_seats::table
        .inner_join(games::table.on(tournament_seats::game_id.eq(games::id.nullable())))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::place.is_null())
        .select(count_star())
        .first(conn)
        .map_err(DbError::from)
}

/// Records how each entrant at `game` did.
pub fn record(
    conn: &mut AnyConnection,
    id: i64,
    game: GameId,
    results: &[Recorded],
) -> Result<(), DbError> {
    for r in results {
        diesel::update(
            tournament_seats::table
                .filter(tournament_seats::tournament_id.eq(id))
                .filter(tournament_seats::game_id.eq(game))
                .filter(tournament_seats::seat.eq(r.seat)),
        )
        .set((
            tournament_seats::place.eq(r.place),
            tournament_seats::points.eq(r.points),
            tournament_seats::result.eq(r.result),
            tournament_seats::first.eq(r.first),
        ))
        .execute(conn)?;
    }
    notify_tournament(conn, id)?;
    Ok(())
}

/// Writes round `round`'s seats and byes.
pub fn seat(
    conn: &mut AnyConnection,
    id: i64,
    round: i32,
    seats: &[NewSeat],
) -> Result<(), DbError> {
    let rows: Vec<_> = seats
        .iter()
        .map(|s| {
            (
                tournament_seats::tournament_id.eq(id),
                tournament_seats::round.eq(round),
                tournament_seats::entrant_id.eq(s.entrant_id),
                tournament_seats::game_id.eq(s.game_id),
                tournament_seats::seat.eq(s.seat),
            )
        })
        .collect();
    // (A multi-row insert is written for each backend on its own connection type; a few
    // hundred rows a statement keeps within both backends' bound-parameter limits.)
    for chunk in rows.chunks(500) {
        match conn {
            AnyConnection::Postgresql(c) => {
                diesel::insert_into(tournament_seats::table)
                    .values(chunk)
                    .execute(c)?;
            }
            AnyConnection::Sqlite(c) => {
                diesel::insert_into(tournament_seats::table)
                    .values(chunk)
                    .execute(c)?;
            }
        }
    }
    Ok(())
}

/// Makes `new` unless its maker already has `cap` tournaments not yet over (then `None`): the
/// count and the insert in one transaction that first writes the maker's row, so two made at
/// once wait for each other (a row lock on PostgreSQL, the single writer on SQLite) and cannot
/// both pass the cap.
pub fn create_capped(
    conn: &mut AnyConnection,
    new: &NewTournament,
    cap: i64,
) -> Result<Option<TournamentRow>, DbError> {
    crate::connection::in_transaction(conn, |conn| {
        diesel::update(users::table.find(new.created_by))
            .set(users::id.eq(users::id))
            .execute(conn)?;
        if open_made_by(conn, new.created_by)? >= cap {
            return Ok(None);
        }
        create(conn, new).map(Some)
    })
}

/// How many tournaments `user_id` made that are not over yet (upcoming or running).
pub fn open_made_by(conn: &mut AnyConnection, user_id: i64) -> Result<i64, DbError> {
    tournaments::table
        .filter(tournaments::created_by.eq(user_id))
        .filter(tournaments::status.eq_any([TournamentStatus::Upcoming, TournamentStatus::Running]))
        .count()
        .get_result(conn)
        .map_err(DbError::from)
}

/// The tournaments `user_id` entered and has not withdrawn from, not yet over.
pub fn entered_by(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<i64>, DbError> {
    tournament_entrants::table
        .inner_join(tournaments::table)
        .filter(tournament_entrants::user_id.eq(user_id))
        .filter(tournament_entrants::withdrawn_at.is_null())
        .filter(tournaments::status.eq_any([TournamentStatus::Upcoming, TournamentStatus::Running]))
        .select(tournaments::id)
        .load(conn)
        .map_err(DbError::from)
}

/// Opens round `round`'s games to everyone (a duplicate round's, private while it was played).
pub fn publish_round(conn: &mut AnyConnection, id: i64, round: i32) -> Result<(), DbError> {
    let of_round = tournament_seats::table
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::round.eq(round))
        .filter(tournament_seats::game_id.is_not_null())
        .select(tournament_seats::game_id.assume_not_null());
    diesel::update(games::table.filter(games::id.eq_any(of_round)))
        .filter(games::visibility.eq(crate::visibility::Visibility::Private))
        .set(games::visibility.eq(crate::visibility::Visibility::Public))
        .execute(conn)?;
    Ok(())
}

/// Whether game `id` is a table of a duplicate round that some table of the round still plays:
/// then its board (seeds, hands, results) is sealed. False for any other game.
pub fn board_in_play(conn: &mut AnyConnection, id: GameId) -> Result<bool, DbError> {
    let round: Option<(i64, i32)> = tournament_seats::table
        .inner_join(tournaments::table.on(tournaments::id.eq(tournament_seats::tournament_id)))
        .filter(tournament_seats::game_id.eq(id))
        .filter(tournaments::format.eq(Format::Duplicate))
        .select((tournament_seats::tournament_id, tournament_seats::round))
        .first(conn)
        .optional()?;
    let Some((tournament, round)) = round else {
        return Ok(false);
    };
    let playing: i64 = tournament_seats::table
        .inner_join(games::table.on(games::id.nullable().eq(tournament_seats::game_id)))
        .filter(tournament_seats::tournament_id.eq(tournament))
        .filter(tournament_seats::round.eq(round))
        .filter(games::status.ne_all([GameStatus::Finished, GameStatus::Abandoned]))
        .count()
        .get_result(conn)?;
    Ok(playing > 0)
}

/// The games of tournament `id` that are over (finished or abandoned), recorded in its standings
/// or not yet (the pairing step records each a sweep after it ends; a cancelled tournament's
/// never are).
pub fn games_over(conn: &mut AnyConnection, id: i64) -> Result<Vec<GameId>, DbError> {
    tournament_seats::table
        .inner_join(games::table.on(games::id.nullable().eq(tournament_seats::game_id)))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(games::status.eq_any([GameStatus::Finished, GameStatus::Abandoned]))
        .select(games::id)
        .distinct()
        .load(conn)
        .map_err(DbError::from)
}

/// The names of the accounts `ids`.
pub fn names_of(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, String)>, DbError> {
    users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::name))
        .load(conn)
        .map_err(DbError::from)
}
