//! The handlers of the account itself: personal API tokens and turning into a bot account. Each
//! needs a session (the token from signing in), never a personal API token.

use actix_web::{HttpResponse, delete, get, post, web};

use super::params::Id;
use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::Session;
use crate::model::UserInfo;
use crate::play::tokens::{self, NewTokenRequest, TokenCreated, TokenList};
use crate::state::AppState;

/// Make a personal API token for a program: a description and scopes (`play`, `challenge`,
/// `read`; `admin` for admins). The token is in this answer and nowhere else, ever: keep it.
#[utoipa::path(
    tag = "account",
    request_body = NewTokenRequest,
    responses(
        (status = 201, body = TokenCreated),
        (status = 403, description = "`session_required` (sent with a personal API token), `registered_only` (a guest), `forbidden` (the admin scope, not being an admin)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_tokens`", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["session"]))
)]
#[post("/account/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    Session(caller): Session,
    body: crate::input::Json<NewTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let created = run(&state, move |conn, _| {
        tokens::create(conn, &caller, &request)
    })
    .await?;
    Ok(HttpResponse::Created().json(created))
}

/// The account's live tokens (never their secrets).
#[utoipa::path(
    tag = "account",
    responses(
        (status = 200, body = TokenList),
        (status = 403, description = "`session_required`, `registered_only`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["session"]))
)]
#[get("/account/tokens")]
pub async fn list_tokens(
    state: web::Data<AppState>,
    Session(caller): Session,
) -> Result<HttpResponse, ApiError> {
    let list = run_retrying(&state, move |conn, _| tokens::list(conn, &caller)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Revoke a token: from this moment it is refused everywhere, and streams opened with it end.
#[utoipa::path(
    tag = "account",
    params(("id" = i64, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "`session_required`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not_found`: no live token of yours with this id", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["session"]))
)]
#[delete("/account/tokens/{id}")]
pub async fn revoke_token(
    state: web::Data<AppState>,
    Session(caller): Session,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    run(&state, move |conn, _| tokens::revoke(conn, &caller, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Turn this account into a bot account: marked BOT everywhere, it plays only through personal
/// API tokens, is rated in the `bots` pool, and is paired in quick match only with people who
/// ask for bots. Only a registered account that has never sat at a game; irreversible.
#[utoipa::path(
    tag = "account",
    responses(
        (status = 200, description = "The account, now a bot account", body = UserInfo),
        (status = 403, description = "`session_required`, `registered_only`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`has_games`: the account has sat at a game", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["session"]))
)]
#[post("/account/bot")]
pub async fn become_bot(
    state: web::Data<AppState>,
    Session(caller): Session,
) -> Result<HttpResponse, ApiError> {
    let user = run(&state, move |conn, _| tokens::become_bot(conn, &caller)).await?;
    Ok(HttpResponse::Ok().json(user))
}
