//! Operations: health, readiness and metrics.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};

use crate::blocking::run_within;
use crate::error::{ApiError, Problem};
use crate::model::Health;
use crate::state::AppState;

/// The longest `/readyz` waits for a connection.
const READY_WAIT: Duration = Duration::from_millis(800);

/// The process is up.
#[utoipa::path(tag = "operations", responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".to_owned(),
    })
}

/// The database answers.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, body = Health),
        (status = 503, description = "`unavailable`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    // Within a second, whatever the pool's timeout: health checks give up after a few.
    let wait = state.settings.db_timeout.min(READY_WAIT);
    run_within(&state, wait, |conn, _| {
        cardroom_db::check(conn).map_err(ApiError::from)
    })
    .await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".to_owned(),
    }))
}

/// Counters in the Prometheus text format.
#[utoipa::path(tag = "operations", responses((status = 200, content_type = "text/plain", body = String)))]
#[get("/metrics")]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    // Games by status come from the database; while it is unreachable the rest still renders.
    let games = run_within(&state, READY_WAIT, |conn, _| {
        cardroom_db::admin::games_by_status(conn).map_err(ApiError::from)
    })
    .await
    .ok();
    let pool = state.pool.state();
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; version=0.0.4"))
        .body(state.metrics.render(
            pool.connections,
            pool.idle_connections,
            games.as_deref(),
            state.hub.wakes(),
        ))
}
