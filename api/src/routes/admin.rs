//! Admins only (the `admin` role; 403 `forbidden` for anyone else): the history of games, a
//! game's replay, the statistics, and roles.

use actix_web::{HttpResponse, get, post, web};

use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::Administering;
use crate::model::UserInfo;
use crate::play::admin::{
    self, AdminGame, AdminGameList, AdminGamesQuery, Replay, RoleRequest, Stats, StatsParams,
};
use crate::state::AppState;

use super::params::GameId;

/// Every game, newest first, with filters.
#[utoipa::path(
    operation_id = "admin_list_games",
    tag = "admin",
    params(AdminGamesQuery),
    responses(
        (status = 200, body = AdminGameList),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[get("/admin/games")]
pub async fn admin_games(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    query: web::Query<AdminGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let list = run_retrying(&state, move |conn, _| admin::list(conn, &caller, &query)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Any game whole and unredacted: every hand, the stock, the full log, every seed.
#[utoipa::path(
    operation_id = "admin_get_game",
    tag = "admin",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = AdminGame),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[get("/admin/games/{id}")]
pub async fn admin_game(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let game = run_retrying(&state, move |conn, _| admin::game(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(game))
}

/// The game replayed from its seed and log: after every entry, every seat's hand and the
/// public table.
#[utoipa::path(
    operation_id = "admin_get_replay",
    tag = "admin",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = Replay),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[get("/admin/games/{id}/replay")]
pub async fn admin_replay(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let replay = run_retrying(&state, move |conn, _| admin::replay(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(replay))
}

/// The dashboard's aggregates over a range of days (default the last 30), for one kind or all.
#[utoipa::path(
    operation_id = "admin_get_stats",
    tag = "admin",
    params(StatsParams),
    responses(
        (status = 200, body = Stats),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[get("/admin/stats")]
pub async fn admin_stats(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    query: web::Query<StatsParams>,
) -> Result<HttpResponse, ApiError> {
    let params = query.into_inner();
    let stats = run_retrying(&state, move |conn, _| admin::stats(conn, &caller, &params)).await?;
    Ok(HttpResponse::Ok().json(stats))
}

/// Makes a user an admin (or a player again).
#[utoipa::path(
    tag = "admin",
    params(("name" = String, Path, description = "The user's name")),
    request_body = RoleRequest,
    responses(
        (status = 200, body = UserInfo),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`last_admin_guard`: an admin cannot demote themselves", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[post("/admin/users/{name}/role")]
pub async fn admin_set_role(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    name: web::Path<String>,
    body: crate::input::Json<RoleRequest>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let request = body.into_inner();
    let user = run(&state, move |conn, _| {
        admin::set_role(conn, &caller, &name, &request)
    })
    .await?;
    Ok(HttpResponse::Ok().json(user))
}
