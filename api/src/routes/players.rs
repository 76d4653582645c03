//! Players, public: profiles and leaderboards.

use actix_web::{HttpResponse, get, web};

use crate::blocking::run_retrying;
use crate::error::{ApiError, Problem};
use crate::play::players::{self, Leaderboard, LeaderboardQuery, Profile};
use crate::state::AppState;

/// A player's profile: finished games and win rates per game, Glicko-2 ratings (against people
/// and against computers) with their history, and recent games.
#[utoipa::path(
    operation_id = "get_player",
    tag = "players",
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, body = Profile))
)]
#[get("/players/{name}")]
pub async fn player(
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let profile = run_retrying(&state, move |conn, _| players::profile(conn, &name)).await?;
    Ok(HttpResponse::Ok().json(profile))
}

/// A game kind's leaderboard of rated players, in one pool (against people, or against
/// computers).
#[utoipa::path(
    operation_id = "get_leaderboard",
    tag = "players",
    params(("kind" = String, Path, description = "The game kind"), LeaderboardQuery),
    responses(
        (status = 200, body = Leaderboard),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/leaderboards/{kind}")]
pub async fn leaderboard(
    state: web::Data<AppState>,
    kind: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = kind.into_inner();
    let query = query.into_inner();
    let board = run_retrying(&state, move |conn, _| {
        players::leaderboard(conn, &kind, &query)
    })
    .await?;
    Ok(HttpResponse::Ok().json(board))
}
