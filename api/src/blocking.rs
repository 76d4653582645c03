//! Running storage work off the async workers: a pooled connection, on the blocking pool, in
//! the request's span. Handlers, streams and background jobs all reach the database this way.

use std::time::{Duration, Instant};

use actix_web::web;
use cardroom_db::AnyConnection;

use crate::error::ApiError;
use crate::hub::Topic;
use crate::metrics::Metrics;
use crate::state::AppState;

/// Runs storage work off the async workers, with a pooled connection, in the request's span.
pub async fn run<T: Send + 'static>(
    state: &web::Data<AppState>,
    work: impl FnOnce(&mut AnyConnection, &AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run_within(state, state.settings.db_timeout, work).await
}

/// [`run`], waiting at most `wait` for a connection (less while the database is known to be
/// down: then at once).
pub async fn run_within<T: Send + 'static>(
    state: &web::Data<AppState>,
    wait: Duration,
    work: impl FnOnce(&mut AnyConnection, &AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = state.clone();
    let span = tracing::Span::current();
    web::block(move || {
        let _entered = span.enter();
        let mut conn = cardroom_db::checkout(&state.pool, &state.db_health, wait)?;
        let result = work(&mut conn, &state);
        // Accounts that got events: wake their streams here (other replicas hear the
        // database's notice).
        for account in cardroom_db::account_events::take_woken() {
            state.hub.publish(Topic::Account(account));
        }
        if let Err(ApiError::Unavailable) = result {
            // The server may have gone away: close this connection rather than offer it again,
            // and check the others before their next use (it may have closed them all).
            conn.mark_failed();
            state.db_health.suspect();
        }
        result
    })
    .await?
}

/// [`run`], made again on a fresh connection when the database went away under it, for as long
/// as the database's hold lasts (`CARDROOM_DB_HOLD_MS`, within `CARDROOM_DB_TIMEOUT_MS`): a
/// request in flight when the primary was stopped for a switchover is then answered by the new
/// one. Only for work that may safely run twice — every read, and a write whose repeat answers
/// as the first did (a move or a new game with an `Idempotency-Key`, a deal, which a second time
/// deals nothing, a join, which a second time finds its seat taken by the caller).
pub async fn run_retrying<T: Send + 'static>(
    state: &web::Data<AppState>,
    work: impl Fn(&mut AnyConnection, &AppState) -> Result<T, ApiError> + Send + Sync + 'static,
) -> Result<T, ApiError> {
    let until = Instant::now() + state.settings.db_hold.min(state.settings.db_timeout);
    let work = std::sync::Arc::new(work);
    loop {
        let attempt = work.clone();
        match run(state, move |conn, state| attempt(conn, state)).await {
            // (Not once the database has been away longer than the hold: then every request
            // fails fast, however lately it came.)
            Err(ApiError::Unavailable)
                if Instant::now() < until && !state.db_health.failing_fast() =>
            {
                Metrics::add(&state.metrics.db_retries, 1);
                actix_web::rt::time::sleep(Duration::from_millis(100)).await;
            }
            other => return other,
        }
    }
}
