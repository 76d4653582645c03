//! Challenges: an account asks another by name — or, open, anyone with the link — for a game
//! of two people (the other seats computer players). The challenged accepts (the game starts
//! at once), declines with a reason, or lets it expire; the challenger may cancel. Each answer
//! is one conditional update of the challenge, so of an acceptance and a cancellation made at
//! the same moment exactly one counts. Both sides hear of every step on their account streams.

use std::collections::BTreeMap;

use cardroom_core::options::VariantInfo;
use cardroom_core::{AnyGame, GameKind, KindInfo, OptionValue, Setup};
use cardroom_db::Visibility;
use cardroom_db::account_events::{self, AccountNotice};
use cardroom_db::challenges::{self, ChallengeRow, ChallengeStatus, NewChallenge};
use cardroom_db::{AnyConnection, users};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use super::access::may_sit;
use super::setup::{DEFAULT_TAKEOVER_AFTER, TAKEOVER_AFTER, TURN_SECONDS, create_seated};
use super::setup::{random_code, random_seed};
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::metrics::Metrics;
use crate::model::{
    AccountEvent, Challenge, CreateGame, DeclineReason, SeatRequest, TurnPolicy, VisibilityName,
};

/// `POST /challenges`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to": "basrabot", "kind": "basra", "rated": false}))]
pub struct ChallengeRequest {
    /// The account challenged, by name; without it the challenge is open: anyone with its link
    /// may accept.
    #[schema(pattern = r"^[A-Za-z0-9_.-]{3,32}$")]
    pub to: Option<String>,
    pub kind: GameKind,
    /// The variant; the kind's default when left out (one of the kind's: see
    /// [`VariantName`](crate::model::VariantName)).
    #[schema(value_type = Option<crate::model::VariantName>)]
    pub variant: Option<String>,
    /// Every seat: exactly two for people (no `bot`), the rest computer players. Without it, the
    /// variant's smallest table: the two people in seats 0 and 1, computers of the kind's default
    /// level in the others.
    #[schema(min_items = 2, max_items = 8)]
    pub seats: Option<Vec<SeatRequest>>,
    /// The challenger's seat: one of the two people's seats (default the first).
    #[schema(minimum = 0, maximum = 7)]
    pub seat: Option<i64>,
    /// House rules, within the catalogue's bounds.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Rated (the default) or not (a practice game from a seed nobody knows).
    pub rated: Option<bool>,
    /// A turn timer; none: no timer.
    pub turn: Option<TurnPolicy>,
    /// Who may watch the game (default `unlisted`).
    #[schema(value_type = Option<VisibilityName>)]
    pub visibility: Option<Visibility>,
}

/// `GET /challenges`: the caller's open challenges.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeList {
    /// Made to the caller, newest first.
    pub incoming: Vec<Challenge>,
    /// Made by the caller, newest first.
    pub outgoing: Vec<Challenge>,
}

/// `POST /challenges/{id}/decline`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineRequest {
    /// Why (default `generic`).
    pub reason: Option<DeclineReason>,
}

/// `POST /challenges/{id}/accept`, and the query of `GET /challenges/{id}`.
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChallengeCode {
    /// An open challenge's code (from its link); not needed by the account challenged.
    #[schema(pattern = "^[a-z0-9]{1,32}$")]
    #[param(pattern = "^[a-z0-9]{1,32}$")]
    pub code: Option<String>,
}

/// An account's name, whether it is a bot account, and whether it is a guest.
fn name_of(conn: &mut AnyConnection, id: i64) -> Result<(String, bool, bool), ApiError> {
    let user = users::by_id(conn, id)?
        .ok_or_else(|| ApiError::internal(format!("challenge by an unknown account {id}")))?;
    Ok((user.name, user.bot, user.guest))
}

/// A challenge as `viewer` gets it (the code only for its challenger).
fn out(conn: &mut AnyConnection, row: &ChallengeRow, viewer: i64) -> Result<Challenge, ApiError> {
    let (from, from_bot, from_guest) = name_of(conn, row.challenger_id)?;
    let (to, to_guest) = match row.to_id {
        None => (None, false),
        Some(id) => {
            let (name, _, guest) = name_of(conn, id)?;
            (Some(name), guest)
        }
    };
    let seats: Vec<SeatRequest> =
        serde_json::from_str(&row.seats).map_err(ApiError::because("stored seats"))?;
    Ok(Challenge {
        id: row.id,
        from,
        to,
        from_bot,
        kind: row.kind,
        variant: row.variant.clone(),
        options: serde_json::from_str(&row.options).unwrap_or_default(),
        seats: seats.into_iter().map(|s| s.bot).collect(),
        challenger_seat: i64::from(row.challenger_seat),
        // A guest is never rated: a challenge with one cannot be, whatever was asked.
        rated: row.rated && !from_guest && !to_guest,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        visibility: row.visibility,
        status: row.status,
        reason: row.reason.as_deref().and_then(DeclineReason::parse),
        game_id: row.game_id,
        code: (viewer == row.challenger_id && row.to_id.is_none()).then(|| row.code.clone()),
        created_at: row.created_at.and_utc(),
        expires_at: row.expires_at.and_utc(),
    })
}

/// The account events of a challenge's step, to `users`.
fn tell(
    conn: &mut AnyConnection,
    row: &ChallengeRow,
    kind: fn(Challenge) -> AccountEvent,
    users: &[i64],
) -> Result<Vec<AccountNotice>, ApiError> {
    let mut notices = Vec::new();
    for &user in users {
        let challenge = out(conn, row, user)?;
        notices.push(kind(challenge).notice(user));
    }
    Ok(notices)
}

/// Both sides of a challenge (the acceptor of an open one, once known).
fn sides(row: &ChallengeRow, acceptor: Option<i64>) -> Vec<i64> {
    let mut users = vec![row.challenger_id];
    users.extend(row.to_id.or(acceptor));
    users
}

/// A challenge's seats (as asked, or the variant's fewest with computers beyond two) and the
/// challenger's: exactly two people, every computer one of the game's levels.
fn challenge_seats(
    request: &ChallengeRequest,
    info: &KindInfo,
    variant: &VariantInfo,
) -> Result<(Vec<SeatRequest>, usize), ApiError> {
    let kind = request.kind;
    let seats: Vec<SeatRequest> = match &request.seats {
        Some(seats) => seats
            .iter()
            .map(|s| SeatRequest { bot: s.bot.clone() })
            .collect(),
        None => {
            let n = variant.seats.iter().copied().min().unwrap_or(2);
            (0..n)
                .map(|seat| SeatRequest {
                    bot: (seat >= 2).then(|| info.default_level.name().to_owned()),
                })
                .collect()
        }
    };
    let people: Vec<usize> = (0..seats.len())
        .filter(|&i| seats[i].bot.is_none())
        .collect();
    if people.len() != 2 {
        return Err(ApiError::Invalid(
            "a challenge seats exactly two people: give every other seat a computer level"
                .to_owned(),
        ));
    }
    let levels: Vec<&str> = info.levels.iter().map(|l| l.name).collect();
    if let Some(level) = seats
        .iter()
        .filter_map(|s| s.bot.as_deref())
        .find(|l| !levels.contains(l))
    {
        return Err(ApiError::Invalid(format!(
            "`{}` is not a computer-player level of {kind}; the levels are {}",
            level.chars().take(32).collect::<String>(),
            levels.join(", ")
        )));
    }
    let seat = match request.seat {
        None => people[0],
        Some(seat) => usize::try_from(seat)
            .ok()
            .filter(|s| people.contains(s))
            .ok_or_else(|| {
                ApiError::Invalid(format!("seat {seat} is not one of the two people's seats"))
            })?,
    };
    Ok((seats, seat))
}

/// A challenge's turn timer, within the published bounds (none: no timer).
fn challenge_turn(turn: Option<&TurnPolicy>) -> Result<(Option<i32>, Option<i32>), ApiError> {
    let Some(turn) = turn else {
        return Ok((None, None));
    };
    let after = turn.takeover_after.unwrap_or(DEFAULT_TAKEOVER_AFTER);
    if !TURN_SECONDS.contains(&turn.seconds) || !TAKEOVER_AFTER.contains(&after) {
        return Err(ApiError::Invalid(format!(
            "turn.seconds is {} to {}, turn.takeover_after {} to {}",
            TURN_SECONDS.start(),
            TURN_SECONDS.end(),
            TAKEOVER_AFTER.start(),
            TAKEOVER_AFTER.end()
        )));
    }
    Ok((Some(turn.seconds as i32), Some(after as i32)))
}

/// The account a challenge names (none: an open challenge); never the challenger.
fn challenged(
    conn: &mut AnyConnection,
    caller: &Caller,
    to: Option<&str>,
) -> Result<Option<i64>, ApiError> {
    let Some(name) = to else {
        return Ok(None);
    };
    crate::input::text("to", name)?;
    let user = users::by_name(conn, name)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no player {name:?}")))?;
    if user.id == caller.id {
        return Err(ApiError::Conflict {
            code: ProblemCode::SelfChallenge,
            detail: "you cannot challenge yourself".to_owned(),
        });
    }
    Ok(Some(user.id))
}

/// `POST /challenges`.
pub fn create(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: &ChallengeRequest,
    expires_after: std::time::Duration,
) -> Result<Challenge, ApiError> {
    may_sit(conn, caller)?;
    let kind = request.kind;
    let info = kind.describe();
    let variant = match &request.variant {
        None => info
            .variants
            .iter()
            .find(|v| v.default)
            .or(info.variants.first()),
        Some(name) => info.variants.iter().find(|v| v.name == name.as_str()),
    }
    .ok_or_else(|| ApiError::Invalid(format!("{kind} has no such variant")))?;
    let (seats, seat) = challenge_seats(request, &info, variant)?;
    let (turn_seconds, takeover_after) = challenge_turn(request.turn.as_ref())?;
    // The variant, seat count and house rules, checked by the rules themselves.
    let setup = Setup {
        seed: random_seed(),
        deck: None,
        replay: None,
    };
    let (probe, _) = AnyGame::create(
        kind,
        Some(variant.name),
        seats.len(),
        &request.options,
        &setup,
    )
    .map_err(|e| ApiError::Invalid(e.to_string()))?;
    let to = challenged(conn, caller, request.to.as_deref())?;
    let options =
        serde_json::to_string(&request.options).map_err(ApiError::because("options encoding"))?;
    let stored_seats = serde_json::to_string(
        &seats
            .iter()
            .map(|s| match &s.bot {
                Some(level) => json!({"bot": level}),
                None => json!({}),
            })
            .collect::<Vec<_>>(),
    )
    .map_err(ApiError::because("seats encoding"))?;
    let expires =
        chrono::Duration::from_std(expires_after).map_err(ApiError::because("challenge expiry"))?;
    let new = NewChallenge {
        challenger_id: caller.id,
        to_id: to,
        code: random_code(12),
        kind,
        variant: probe.variant().to_owned(),
        options,
        seats: stored_seats,
        challenger_seat: seat as i32,
        rated: request.rated.unwrap_or(true),
        turn_seconds,
        takeover_after,
        visibility: request.visibility.unwrap_or_default(),
        expires_at: cardroom_db::now() + expires,
    };
    cardroom_db::in_transaction(conn, |conn| {
        let row = challenges::create(conn, &new)?;
        if let Some(to) = row.to_id {
            let notices = tell(conn, &row, received, &[to])?;
            account_events::add(conn, &notices)?;
        }
        out(conn, &row, caller.id)
    })
}

/// The challenge, if `caller` may see it: its challenger, the account challenged, or (an open
/// one) anyone with its code.
fn visible(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<ChallengeRow, ApiError> {
    let code = crate::input::link_code(code)?;
    let missing = || ApiError::NotFound(format!("there is no challenge {id} for you"));
    let row = challenges::get(conn, id)?.ok_or_else(missing)?;
    let allowed = row.challenger_id == caller.id
        || row.to_id == Some(caller.id)
        || (row.to_id.is_none() && code == Some(row.code.as_str()));
    if allowed { Ok(row) } else { Err(missing()) }
}

/// `GET /challenges/{id}`.
pub fn get(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<Challenge, ApiError> {
    let row = visible(conn, caller, id, code)?;
    out(conn, &row, caller.id)
}

/// `GET /challenges`.
pub fn list(conn: &mut AnyConnection, caller: &Caller) -> Result<ChallengeList, ApiError> {
    let now = cardroom_db::now();
    let mut incoming = Vec::new();
    let mut outgoing = Vec::new();
    for row in challenges::open_of(conn, caller.id)? {
        if row.expires_at <= now {
            continue;
        }
        let challenge = out(conn, &row, caller.id)?;
        if row.challenger_id == caller.id {
            outgoing.push(challenge);
        } else {
            incoming.push(challenge);
        }
    }
    Ok(ChallengeList { incoming, outgoing })
}

fn closed() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::ChallengeClosed,
        detail: "this challenge is no longer open (accepted, declined, cancelled or expired)"
            .to_owned(),
    }
}

/// `POST /challenges/{id}/accept`: the game starts at once; returns the challenge with it.
pub fn accept(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
    metrics: &Metrics,
) -> Result<Challenge, ApiError> {
    let row = visible(conn, caller, id, code)?;
    if row.challenger_id == caller.id {
        return Err(ApiError::Forbidden(
            "you cannot accept your own challenge".to_owned(),
        ));
    }
    may_sit(conn, caller)?;
    let challenger = users::by_id(conn, row.challenger_id)?
        .ok_or_else(|| ApiError::internal("a challenge without its challenger"))?;
    let seats: Vec<SeatRequest> =
        serde_json::from_str(&row.seats).map_err(ApiError::because("stored seats"))?;
    let mine = (0..seats.len())
        .find(|&i| seats[i].bot.is_none() && i as i32 != row.challenger_seat)
        .ok_or_else(|| ApiError::internal("a challenge without a second seat"))?;
    let request = CreateGame {
        kind: row.kind,
        variant: Some(row.variant.clone()),
        seats,
        options: serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?,
        seat: Some(i64::from(row.challenger_seat)),
        // An unrated game is a practice game from a seed nobody knows: never rated or counted.
        seed: (!row.rated).then(|| random_seed().to_hex()),
        deck: None,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        visibility: Some(row.visibility),
    };
    let as_challenger = Caller::acting_for(&challenger);
    cardroom_db::in_transaction(conn, |conn| {
        if !challenges::close(
            conn,
            id,
            ChallengeStatus::Accepted,
            None,
            cardroom_db::now(),
        )? {
            return Err(closed());
        }
        let game = create_seated(
            conn,
            &as_challenger,
            request,
            &[(mine, caller.id)],
            None,
            None,
            metrics,
        )?;
        challenges::set_game(conn, id, game.id)?;
        let row = challenges::get(conn, id)?.ok_or_else(closed)?;
        let notices = tell(
            conn,
            &row,
            |challenge| AccountEvent::ChallengeAccepted { challenge },
            &sides(&row, Some(caller.id)),
        )?;
        account_events::add(conn, &notices)?;
        out(conn, &row, caller.id)
    })
}

/// `POST /challenges/{id}/decline`: only the account challenged.
pub fn decline(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    reason: DeclineReason,
) -> Result<Challenge, ApiError> {
    let row = visible(conn, caller, id, None)?;
    if row.to_id != Some(caller.id) {
        return Err(ApiError::Forbidden(
            "only the account challenged declines; its challenger cancels".to_owned(),
        ));
    }
    answer(
        conn,
        caller,
        row,
        ChallengeStatus::Declined,
        Some(reason.name()),
        |challenge| AccountEvent::ChallengeDeclined { challenge },
    )
}

/// `POST /challenges/{id}/cancel`: only its challenger.
pub fn cancel(conn: &mut AnyConnection, caller: &Caller, id: i64) -> Result<Challenge, ApiError> {
    let row = visible(conn, caller, id, None)?;
    if row.challenger_id != caller.id {
        return Err(ApiError::Forbidden(
            "only its challenger cancels a challenge; decline it instead".to_owned(),
        ));
    }
    answer(
        conn,
        caller,
        row,
        ChallengeStatus::Cancelled,
        None,
        |challenge| AccountEvent::ChallengeCancelled { challenge },
    )
}

/// Closes `row` with `status` and tells both sides.
fn answer(
    conn: &mut AnyConnection,
    caller: &Caller,
    row: ChallengeRow,
    status: ChallengeStatus,
    reason: Option<String>,
    event: fn(Challenge) -> AccountEvent,
) -> Result<Challenge, ApiError> {
    cardroom_db::in_transaction(conn, |conn| {
        if !challenges::close(conn, row.id, status, reason.as_deref(), cardroom_db::now())? {
            return Err(closed());
        }
        let row = challenges::get(conn, row.id)?.ok_or_else(closed)?;
        let notices = tell(conn, &row, event, &sides(&row, None))?;
        account_events::add(conn, &notices)?;
        out(conn, &row, caller.id)
    })
}

/// The sweep's part: marks the challenges whose time is up as expired and tells both sides.
/// Returns how many expired.
pub fn expire(conn: &mut AnyConnection) -> Result<usize, ApiError> {
    cardroom_db::in_transaction(conn, |conn| {
        let expired = challenges::expire(conn, cardroom_db::now(), 200)?;
        for row in &expired {
            let mut row = row.clone();
            row.status = ChallengeStatus::Expired;
            let notices = tell(
                conn,
                &row,
                |challenge| AccountEvent::ChallengeExpired { challenge },
                &sides(&row, None),
            )?;
            account_events::add(conn, &notices)?;
        }
        Ok(expired.len())
    })
}

fn received(challenge: Challenge) -> AccountEvent {
    AccountEvent::ChallengeReceived { challenge }
}

/// The open challenges made to `user_id`, as the start of their account stream tells them.
pub(super) fn waiting_for(
    conn: &mut AnyConnection,
    user_id: i64,
) -> Result<Vec<AccountEvent>, ApiError> {
    let now = cardroom_db::now();
    let mut events = Vec::new();
    for row in challenges::open_of(conn, user_id)? {
        if row.to_id == Some(user_id) && row.expires_at > now {
            let challenge = out(conn, &row, user_id)?;
            events.push(received(challenge));
        }
    }
    Ok(events)
}
