//! Making a tournament, changing its terms before it starts, and calling it off.

use cardroom_core::{AnyGame, BotLevel, Options, Setup};
use cardroom_db::tournaments::{
    self, CancelCause, Format, NewTournament, TournamentRow, TournamentStatus,
};
use cardroom_db::{AnyConnection, users};
use chrono::NaiveDateTime;

use super::super::access::is_admin;
use super::super::setup::{random_code, random_seed, turn_policy};
use super::reading::summary;
use super::{closed, may_manage};
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::model::{CancelTournament, CreateTournament, TournamentSummary, TurnPolicy};

/// The turn timer of a tournament's games when the request names none.
const DEFAULT_TURN: (i64, i64) = (60, 2);
/// The tournaments a player (not an admin) may have made and not yet over at once.
pub const MAX_OPEN_MADE: i64 = 5;

/// Rounds (Swiss, duplicate): bounds and default.
const ROUNDS: std::ops::RangeInclusive<i64> = 1..=20;
const DEFAULT_ROUNDS: i64 = 3;
/// An arena's length in minutes: bounds and default.
const MINUTES: std::ops::RangeInclusive<i64> = 1..=1440;
const DEFAULT_MINUTES: i64 = 30;
/// How far ahead a tournament may start, in seconds, and when by default.
const STARTS_IN: std::ops::RangeInclusive<i64> = 0..=2_592_000;
const DEFAULT_STARTS_IN: i64 = 300;

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
    let admin = is_admin(conn, caller)?;
    if !private && !admin {
        return Err(ApiError::Forbidden(
            "only admins make public tournaments; make a private one (`private: true`)".to_owned(),
        ));
    }
    let new = checked(request, caller.id, private)?;
    let row = if admin {
        tournaments::create(conn, &new)?
    } else {
        tournaments::create_capped(conn, &new, MAX_OPEN_MADE)?.ok_or_else(|| {
            ApiError::Conflict {
                code: ProblemCode::TooManyTournaments,
                detail: format!(
                    "you have {MAX_OPEN_MADE} tournaments not yet over: one must end (or be \
                     called off) before you make another"
                ),
            }
        })?
    };
    summary(conn, Some(caller), &row, 0)
}

/// `PUT /tournaments/{id}`: its maker (a private one) or an admin changes its terms, everything
/// a new one is made with, until it starts. Whoever entered stays entered.
pub fn update(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    request: &CreateTournament,
) -> Result<TournamentSummary, ApiError> {
    let (row, entrants) = tournaments::with_locked_tournament(conn, id, |conn, row| {
        let row = managed(conn, caller, id, row)?;
        if row.status != TournamentStatus::Upcoming {
            return Err(closed("a tournament's terms change only until it starts"));
        }
        let private = row.code.is_some();
        if request.private.is_some_and(|wanted| wanted != private) {
            return Err(ApiError::Invalid(
                "a tournament stays public or private as it was made: make a new one".to_owned(),
            ));
        }
        let mut new = checked(request, row.created_by, private)?;
        new.code = row.code.clone();
        new.seed = row.seed.clone();
        let updated = tournaments::edit(conn, &row, &new)?;
        let entrants = entrants_in(conn, id)?;
        Ok((updated, entrants))
    })?;
    summary(conn, Some(caller), &row, entrants)
}

/// `POST /tournaments/{id}/cancel`: its maker (a private one) or an admin calls it off, before
/// it starts or while it runs, saying why. Games being played go on as ordinary games; no more
/// are paired, and its standings stay as they were.
pub fn cancel(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    request: &CancelTournament,
) -> Result<TournamentSummary, ApiError> {
    let note = match request.reason.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(line_of_text("reason", text, 200)?.to_owned()),
    };
    let (row, entrants) = tournaments::with_locked_tournament(conn, id, |conn, row| {
        let row = managed(conn, caller, id, row)?;
        if matches!(
            row.status,
            TournamentStatus::Finished | TournamentStatus::Cancelled
        ) {
            return Err(closed("this tournament is over"));
        }
        // (Admins make the public ones: theirs is the organisers' word. A private one's maker
        // calls it off themselves.)
        let cause = if row.code.is_some() && row.created_by == caller.id {
            CancelCause::ByMaker
        } else {
            CancelCause::ByAdmin
        };
        // A duplicate round's games already over are rated now: those still played are ordinary
        // games from here on, rated as they end.
        if row.format == Format::Duplicate && row.status == TournamentStatus::Running {
            cardroom_db::ratings::rate_round(conn, row.id, row.round, cardroom_db::now())?;
        }
        tournaments::cancel(conn, &row, cause, note.as_deref())?;
        let row = tournaments::get(conn, id)?
            .ok_or_else(|| ApiError::internal("a tournament gone inside its own transaction"))?;
        let entrants = entrants_in(conn, id)?;
        Ok((row, entrants))
    })?;
    summary(conn, Some(caller), &row, entrants)
}

/// The entrants of tournament `id` who have not withdrawn.
fn entrants_in(conn: &mut AnyConnection, id: i64) -> Result<i64, ApiError> {
    Ok(tournaments::counts(conn, &[id])?
        .first()
        .map_or(0, |(_, n)| *n))
}

/// `text` as a line people read (a name, a reason): plain text of 1 to `most` characters, none
/// of them a control character.
fn line_of_text<'a>(field: &str, text: &'a str, most: usize) -> Result<&'a str, ApiError> {
    let text = crate::input::plain_text(field, text)?;
    if text.is_empty() || text.chars().count() > most || text.chars().any(char::is_control) {
        return Err(ApiError::Invalid(format!(
            "{field} is 1 to {most} characters, none of them control characters"
        )));
    }
    Ok(text)
}

/// The tournament `row` (`id`) if `caller` may change it: a public one for admins, a private
/// one for its maker too; `not_found` when there is none, `forbidden` to anyone else.
fn managed(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    row: Option<TournamentRow>,
) -> Result<TournamentRow, ApiError> {
    let row = row.ok_or_else(|| ApiError::NotFound(format!("there is no tournament {id}")))?;
    if may_manage(conn, caller, &row)? {
        Ok(row)
    } else {
        Err(ApiError::Forbidden(
            "only admins, and the maker of a private tournament, change or cancel it".to_owned(),
        ))
    }
}

/// A request made into a tournament's row, every field within its bounds and the game checked
/// by its own rules (dealt once).
fn checked(
    request: &CreateTournament,
    created_by: i64,
    private: bool,
) -> Result<NewTournament, ApiError> {
    let name = line_of_text("name", request.name.trim(), 60)?;
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

/// How far in the past a `starts_at` may lie (a clock a little behind, a form sent slowly): it
/// is then now. Earlier is refused.
const STARTS_AT_GRACE: i64 = 60;

/// When a new tournament starts: `starts_in` seconds from now or `starts_at` (now at the
/// earliest: a time up to [`STARTS_AT_GRACE`] seconds ago is now), at most 30 days ahead.
fn starts_at(request: &CreateTournament) -> Result<NaiveDateTime, ApiError> {
    let now = cardroom_db::now();
    match (request.starts_in, request.starts_at) {
        (Some(_), Some(_)) => Err(ApiError::Invalid(
            "give `starts_in` or `starts_at`, not both".to_owned(),
        )),
        (None, Some(at)) => {
            if at.naive_utc() < now - chrono::Duration::seconds(STARTS_AT_GRACE) {
                return Err(ApiError::Invalid(format!(
                    "starts_at has passed: give a time from now (up to {STARTS_AT_GRACE} s ago \
                     is taken as now) to 30 days ahead"
                )));
            }
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
