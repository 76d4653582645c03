//! The handlers of challenges and of the account's event stream.

use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::params::Id;
use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::{Challenging, Reading};
use crate::hub::Topic;
use crate::model::{Challenge, DeclineReason};
use crate::play::challenges::{
    self, ChallengeCode, ChallengeList, ChallengeRequest, DeclineRequest,
};
use crate::state::AppState;
use crate::streams::StreamFormat;

/// Challenge an account by name to a game of two people (the other seats computer players) —
/// or, without `to`, anyone who has the challenge's link. The account challenged hears of it
/// on its event stream; it expires after `CARDROOM_CHALLENGE_SECS` unanswered.
#[utoipa::path(
    operation_id = "create_challenge",
    tag = "challenges",
    request_body = ChallengeRequest,
    responses(
        (status = 201, body = Challenge),
        (status = 403, description = "`bot_needs_token`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`: no account of that name", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`self_challenge`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: no such variant, seats that do not seat exactly two people, options, timer", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/challenges")]
pub async fn create(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    body: crate::input::Json<ChallengeRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let challenge = run(&state, move |conn, state| {
        challenges::create(conn, &caller, &request, state.settings.challenge_expiry)
    })
    .await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/challenges/{}", challenge.id)))
        .json(challenge))
}

/// The caller's open challenges: made to them, and made by them.
#[utoipa::path(
    operation_id = "list_challenges",
    tag = "challenges",
    responses((status = 200, body = ChallengeList)),
    security(("bearer" = ["read"]))
)]
#[get("/challenges")]
pub async fn list(
    state: web::Data<AppState>,
    Reading(caller): Reading,
) -> Result<HttpResponse, ApiError> {
    let list = run_retrying(&state, move |conn, _| challenges::list(conn, &caller)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// One challenge: for its challenger, the account challenged, or anyone with an open one's code.
#[utoipa::path(
    operation_id = "get_challenge",
    tag = "challenges",
    params(("id" = i64, Path, description = "The challenge"), ChallengeCode),
    responses(
        (status = 200, body = Challenge),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["read"]))
)]
#[get("/challenges/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<Id>,
    query: web::Query<ChallengeCode>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let code = query.into_inner().code;
    let challenge = run_retrying(&state, move |conn, _| {
        challenges::get(conn, &caller, id, code.as_deref())
    })
    .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Accept a challenge: the game starts at once (its id in `game_id`). An open challenge needs its
/// `code`.
#[utoipa::path(
    operation_id = "accept_challenge",
    tag = "challenges",
    params(("id" = i64, Path, description = "The challenge")),
    request_body = ChallengeCode,
    responses(
        (status = 200, description = "The challenge, accepted, with its game", body = Challenge),
        (status = 403, description = "`forbidden` (one's own challenge), `bot_needs_token`", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_closed`: accepted, declined, cancelled or expired already", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/challenges/{id}/accept")]
pub async fn accept(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    id: web::Path<Id>,
    body: crate::input::Json<ChallengeCode>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let code = body.into_inner().code;
    let challenge = run(&state, move |conn, state| {
        challenges::accept(conn, &caller, id, code.as_deref(), &state.metrics)
    })
    .await?;
    if let Some(game) = challenge.game_id {
        state
            .hub
            .publish(Topic::Game(cardroom_db::GameId::new(game)));
    }
    Ok(HttpResponse::Ok().json(challenge))
}

/// Decline a challenge made to the caller, with a reason the challenger is told.
#[utoipa::path(
    operation_id = "decline_challenge",
    tag = "challenges",
    params(("id" = i64, Path, description = "The challenge")),
    request_body = DeclineRequest,
    responses(
        (status = 200, body = Challenge),
        (status = 403, description = "`forbidden`: not the account challenged", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_closed`", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/challenges/{id}/decline")]
pub async fn decline(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    id: web::Path<Id>,
    body: crate::input::Json<DeclineRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let reason = body.into_inner().reason.unwrap_or(DeclineReason::Generic);
    let challenge = run(&state, move |conn, _| {
        challenges::decline(conn, &caller, id, reason)
    })
    .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Cancel one's own challenge.
#[utoipa::path(
    operation_id = "cancel_challenge",
    tag = "challenges",
    params(("id" = i64, Path, description = "The challenge")),
    responses(
        (status = 200, body = Challenge),
        (status = 403, description = "`forbidden`: not its challenger", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_closed`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/challenges/{id}/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let challenge = run(&state, move |conn, _| challenges::cancel(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Query of `GET /stream/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Resume after this event id (as `Last-Event-ID` does).
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// Everything that concerns the caller's account, as it happens, from any replica:
/// `game_started`, `your_turn` (with the game, its version and whether to move or deal),
/// `game_over`, `challenge_received`, `challenge_accepted`, `challenge_declined`,
/// `challenge_cancelled`, `challenge_expired`, `seek_matched`. Server-Sent Events with `Accept:
/// text/event-stream` (each event's `id:` its id), otherwise newline-delimited JSON (each line
/// an event with its `id`; an empty line is a heartbeat). Resume after an id with
/// `Last-Event-ID` or `after` (events are kept a week): nothing missed or repeated. Without
/// one, it begins with what waits for the account now (its turns, the challenges to it),
/// without ids. An account may hold several streams (`CARDROOM_MAX_STREAMS_PER_ACCOUNT` on each
/// server, counted with its games' streams).
#[utoipa::path(
    operation_id = "account_events",
    tag = "account",
    params(
        StreamQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event id"),
    ),
    responses(
        (status = 200, description = "The stream", content(
            (String = "text/event-stream"),
            (String = "application/x-ndjson"),
        )),
        (status = 400, description = "`invalid_cursor`: a Last-Event-ID that is not an event id", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`cursor_ahead`: `after` or Last-Event-ID is later than any event sent", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`too_many_streams`: the account's limit on this server", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`too_many_streams`: this server's limit", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["read"]))
)]
#[get("/stream/events")]
pub async fn account_stream(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    query: web::Query<StreamQuery>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let last_event = super::params::last_event_id(
        &req,
        |text| text.trim().parse::<i64>().ok().filter(|&id| id >= 0),
        "Last-Event-ID is an event id, 0 or more",
    )?;
    let after = query.into_inner().after.or(last_event);
    if after.is_some_and(|a| a < 0) {
        return Err(ApiError::Invalid(
            "after is an event id, 0 or more".to_owned(),
        ));
    }
    // A resumption after an event that was never sent would wait for ever: refused.
    if let Some(after) = after.filter(|&a| a > 0) {
        let newest = run_retrying(&state, |conn, _| {
            Ok(cardroom_db::account_events::newest_of_all(conn)?)
        })
        .await?;
        if after > newest {
            return Err(super::params::cursor_ahead(format!(
                "there is no event {after} yet (the newest is {newest}): resume after an id \
                 this stream sent, or start afresh without one"
            )));
        }
    }
    let format = if super::params::wants_stream(&req) {
        StreamFormat::Sse
    } else {
        StreamFormat::NdJson
    };
    crate::streams::account_stream(state, caller, after, format).await
}
