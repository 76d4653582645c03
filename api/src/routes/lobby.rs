//! Finding a game: the lobby of open tables, and quick-match seeks.

use std::time::Duration;

use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};

use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::Playing;
use crate::hub::Topic;
use crate::model::{Lobby, LobbyQuery, Seek, SeekQuery, SeekRequest};
use crate::play;
use crate::state::AppState;

use super::params::{Id, wants_stream};

/// The lobby: public tables waiting for players, the longest-waiting first, optionally of one
/// game and variant. Sit down with `POST /games/{id}/join` (no invite code at a public table);
/// a table nobody fills is closed after `expires_after_seconds`. With `Accept:
/// text/event-stream` it is a Server-Sent Events stream instead: an `event: lobby` whose data is
/// this same listing, at once and whenever it changes on any replica.
#[utoipa::path(
    operation_id = "get_lobby",
    tag = "games",
    params(LobbyQuery),
    responses(
        (status = 200, description = "The listing; or, with `Accept: text/event-stream`, a stream of it", content(
            (Lobby = "application/json"),
            (String = "text/event-stream"),
        )),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/lobby")]
pub async fn lobby(
    state: web::Data<AppState>,
    query: web::Query<LobbyQuery>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let query = query.into_inner();
    if wants_stream(&req) {
        return crate::streams::lobby_stream(state, query).map(|stream| {
            Either::Left(
                actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
            )
        });
    }
    let lobby = run_retrying(&state, move |conn, state| {
        play::lobby(conn, &query, state.settings.open_table_expiry)
    })
    .await?;
    Ok(Either::Right(HttpResponse::Ok().json(lobby)))
}

/// Quick match: ask for a game of this kind, variant, seat count and house rules. Compatible
/// seekers (by rating, for a rated game) are seated together in one new public game; the answer
/// says `matched` with the `game_id` at once when others were waiting, otherwise `open`: ask
/// after it with `GET /seeks/{id}?wait=S` (a seek nobody asks after for
/// `CARDROOM_SEEK_TIMEOUT_SECS` expires). One open seek an account.
#[utoipa::path(
    tag = "games",
    request_body = SeekRequest,
    responses(
        (status = 201, body = Seek),
        (status = 409, description = "`already_seeking`: the account has an open seek", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: no such variant, seat count or house rule", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/seeks")]
pub async fn create_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    body: crate::input::Json<SeekRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let seek = run(&state, move |conn, state| {
        play::seeks::create(conn, &caller, &request, &state.metrics)
    })
    .await?;
    if let Some(game) = seek.game_id {
        state
            .hub
            .publish(Topic::Game(cardroom_db::GameId::new(game)));
    }
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/seeks/{}", seek.id)))
        .json(seek))
}

/// The caller's seek: at once, or (with `wait`) when it is matched, cancelled or expired, or
/// `wait` seconds pass. Asking keeps it open; while it waits the pairing is tried again.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The seek"), SeekQuery),
    responses(
        (status = 200, body = Seek),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[get("/seeks/{id}")]
pub async fn get_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<Id>,
    query: web::Query<SeekQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let wait = match query.wait {
        None => Duration::ZERO,
        Some(seconds) if seconds >= 0 => {
            Duration::from_secs(seconds as u64).min(state.settings.long_poll)
        }
        Some(_) => {
            return Err(ApiError::Invalid(
                "wait is a number of seconds, 0 or more".to_owned(),
            ));
        }
    };
    let seek = crate::streams::seek_long_poll(state, caller, id, wait).await?;
    Ok(HttpResponse::Ok().json(seek))
}

/// Cancels the caller's open seek.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The seek")),
    responses(
        (status = 200, body = Seek),
        (status = 409, description = "`seek_closed`: already matched, cancelled or expired", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/seeks/{id}/cancel")]
pub async fn cancel_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let seek = run(&state, move |conn, _| {
        play::seeks::cancel(conn, &caller, id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(seek))
}
