//! The handlers of tournaments.

use actix_web::{Either, HttpRequest, HttpResponse, get, post, put, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::params::{Id, wants_stream};
use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::{Challenging, Looking, Playing};
use crate::hub::Topic;
use crate::model::{
    CancelTournament, CreateTournament, JoinTournament, Tournament, TournamentList,
    TournamentQuery, TournamentSummary,
};
use crate::play::tournaments;
use crate::state::AppState;

/// A private tournament's code, to read it.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentCode {
    /// The code of a private tournament (its maker's link carries it).
    #[param(pattern = "^[a-z0-9]{1,32}$")]
    pub code: Option<String>,
}

/// Make a tournament: arena, Swiss or duplicate, of any game and variant, starting at a time
/// you choose. Any registered player makes a private one (entered with its `code`); only admins
/// make public ones, listed in the lobby. Its rounds pair themselves.
#[utoipa::path(
    operation_id = "create_tournament",
    tag = "tournaments",
    request_body = CreateTournament,
    responses(
        (status = 201, body = TournamentSummary),
        (status = 403, description = "`registered_only` (a guest), `forbidden` (a public one, not an admin)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_tournaments`: a player (not an admin) has five not yet over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: no such variant, a table size the variant does not seat, options, rounds, minutes, start, timer, fill level", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/tournaments")]
pub async fn create(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    body: crate::input::Json<CreateTournament>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let made = run(&state, move |conn, _| {
        tournaments::create(conn, &caller, &request)
    })
    .await?;
    state.hub.publish(Topic::Tournament(made.id));
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/tournaments/{}", made.id)))
        .json(made))
}

/// Tournaments: upcoming ones soonest first, running ones, then the latest finished — the
/// public ones and the private ones you made or entered.
#[utoipa::path(
    operation_id = "list_tournaments",
    tag = "tournaments",
    params(TournamentQuery),
    responses(
        (status = 200, body = TournamentList),
        (status = 422, description = "`validation_failed`: an unknown status", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/tournaments")]
pub async fn list(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    query: web::Query<TournamentQuery>,
) -> Result<HttpResponse, ApiError> {
    let stages = match query.into_inner().status.as_deref() {
        None => cardroom_db::tournaments::TournamentStatus::ALL.to_vec(),
        Some(list) => crate::input::tournament_stages(list)?,
    };
    let list = run_retrying(&state, move |conn, _| {
        tournaments::list(conn, caller.as_ref(), &stages)
    })
    .await?;
    Ok(HttpResponse::Ok().json(list))
}

/// One tournament whole: its entrants, standings (recomputed from the recorded games), every
/// round's tables and results (duplicate: each result's matchpoints against the others from the
/// same seat), and your table now. Anyone may read a public one, with a token or without; a
/// private one needs its `code`, unless you made it, entered it or are an admin. With `Accept: text/event-stream` it is a Server-Sent Events
/// stream instead: an `event: tournament` with this same body at once and whenever it changes,
/// closed when the tournament can no longer be seen, and after an `event: stream_end` (data
/// `{"type": "stream_end", "reason": "token_expired"}`) when the token expires or is revoked.
#[utoipa::path(
    operation_id = "get_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "The tournament"), TournamentCode),
    responses(
        (status = 200, description = "The tournament; or, with `Accept: text/event-stream`, a stream of it: `event: tournament` with this body, and `event: stream_end` (a `StreamEventStreamEnd`) before it closes for an expired or revoked token", content(
            (Tournament = "application/json"),
            (String = "text/event-stream"),
        )),
        (status = 403, description = "`private_tournament`: a private one, without its code (ask its maker for the link)", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`too_many_streams`: the account's limit on this server", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`too_many_streams`: this server's limit", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/tournaments/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<Id>,
    query: web::Query<TournamentCode>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let id = id.into_inner().0;
    let code = query.into_inner().code;
    let (reader, asked) = (caller.clone(), code.clone());
    // (Read first: a tournament the caller may not see is refused before a stream opens.)
    let tournament = run_retrying(&state, move |conn, _| {
        tournaments::get(conn, reader.as_ref(), id, asked.as_deref())
    })
    .await?;
    if wants_stream(&req) {
        return crate::streams::tournament_stream(state, caller, id, code).map(|stream| {
            Either::Left(
                actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
            )
        });
    }
    Ok(Either::Right(HttpResponse::Ok().json(tournament)))
}

/// Change a tournament's terms before it starts: the body is a whole new description, as
/// `POST /tournaments` takes it (whether it is private cannot change). Its maker (a private one)
/// and admins may; whoever entered stays entered.
#[utoipa::path(
    operation_id = "update_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "The tournament")),
    request_body = CreateTournament,
    responses(
        (status = 200, body = TournamentSummary),
        (status = 403, description = "`forbidden`: neither an admin nor the maker of this private tournament", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`tournament_closed`: it has started or is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: as when making one, or a change between public and private", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[put("/tournaments/{id}")]
pub async fn update(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    id: web::Path<Id>,
    body: crate::input::Json<CreateTournament>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let request = body.into_inner();
    let changed = run(&state, move |conn, _| {
        tournaments::update(conn, &caller, id, &request)
    })
    .await?;
    state.hub.publish(Topic::Tournament(id));
    Ok(HttpResponse::Ok().json(changed))
}

/// Call a tournament off, before it starts or while it runs, saying why (`reason`, which its
/// page shows). Games being played go on as ordinary games; no more are paired. Its maker (a
/// private one) and admins may.
#[utoipa::path(
    operation_id = "cancel_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "The tournament")),
    request_body = CancelTournament,
    responses(
        (status = 200, body = TournamentSummary),
        (status = 403, description = "`forbidden`: neither an admin nor the maker of this private tournament", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`tournament_closed`: it is over already", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["challenge"]))
)]
#[post("/tournaments/{id}/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    Challenging(caller): Challenging,
    id: web::Path<Id>,
    body: crate::input::Json<CancelTournament>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let request = body.into_inner();
    let cancelled = run(&state, move |conn, _| {
        tournaments::cancel(conn, &caller, id, &request)
    })
    .await?;
    state.hub.publish(Topic::Tournament(id));
    Ok(HttpResponse::Ok().json(cancelled))
}

/// Enter a tournament: before it starts, or an arena until its time is up (a private one needs
/// its `code`). Your tables come on your account stream (`tournament_game`) and in
/// `your_table`.
#[utoipa::path(
    operation_id = "join_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "The tournament")),
    request_body = JoinTournament,
    responses(
        (status = 200, body = Tournament),
        (status = 403, description = "`bot_needs_token`; `private_tournament`: a private one, without its code", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`tournament_closed`: started (not an arena) or over", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/tournaments/{id}/join")]
pub async fn join(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<Id>,
    body: crate::input::Json<JoinTournament>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let code = body.into_inner().code;
    let tournament = run(&state, move |conn, _| {
        tournaments::join(conn, &caller, id, code.as_deref())
    })
    .await?;
    state.hub.publish(Topic::Tournament(id));
    Ok(HttpResponse::Ok().json(tournament))
}

/// Withdraw from a tournament (until it is over): you are paired no more. A game you are
/// playing goes on; the turn timer hands your seat to the computer if you leave it.
#[utoipa::path(
    operation_id = "withdraw_tournament",
    tag = "tournaments",
    params(("id" = i64, Path, description = "The tournament")),
    responses(
        (status = 200, body = Tournament),
        (status = 403, description = "`private_tournament`: a private one you have not entered", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_entered`, `tournament_closed` (over)", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/tournaments/{id}/withdraw")]
pub async fn withdraw(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let tournament = run(&state, move |conn, _| {
        tournaments::withdraw(conn, &caller, id)
    })
    .await?;
    state.hub.publish(Topic::Tournament(id));
    Ok(HttpResponse::Ok().json(tournament))
}
