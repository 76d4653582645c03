//! Following: the reads a stream or long-poll makes of what it follows — a game's log, who is
//! at its table, a lobby listing — each through the process's shared read of it (see
//! [`crate::shared`]), so that everyone following the same thing costs one read a change.

use cardroom_db::GameId;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use actix_web::web;
use tokio::time::Instant;

use crate::blocking::run_retrying;
use crate::error::ApiError;
use crate::model::{Lobby, LobbyQuery, PresenceOut};
use crate::shared::{GameLog, Listing, Read, Shared};
use crate::state::AppState;

/// Runs `work` with a pooled connection for followers, counted in
/// `cardroom_stream_reads_total`; a read, so made again on a fresh connection while the
/// database's hold lasts when the database went away under it (see [`run_retrying`]).
pub async fn read_for_followers<T: Send + 'static>(
    state: &web::Data<AppState>,
    work: impl Fn(&mut cardroom_db::AnyConnection, &AppState) -> Result<T, ApiError>
    + Send
    + Sync
    + Clone
    + 'static,
) -> Result<T, ApiError> {
    state.metrics.stream_reads.fetch_add(1, Ordering::Relaxed);
    run_retrying(state, work).await
}

/// Game `id`'s log from a read begun no earlier than `not_before` that reaches back to
/// `after` (when the latest shared read does not, a new one does, built on the latest).
pub async fn game_log(
    state: &web::Data<AppState>,
    shared: &Shared<GameLog>,
    id: GameId,
    after: i64,
    not_before: Instant,
) -> Result<Arc<Read<GameLog>>, ApiError> {
    shared
        .get(
            not_before,
            |log| log.floor <= after,
            |latest| {
                read_for_followers(state, move |conn, _| {
                    crate::play::read_log(conn, id, latest.as_ref().map(|r| &r.value), after)
                })
            },
        )
        .await
}

/// Who is at game `id`, from a read begun no earlier than `not_before`.
pub async fn presence(
    state: &web::Data<AppState>,
    shared: &Shared<PresenceOut>,
    id: GameId,
    not_before: Instant,
) -> Result<Arc<Read<PresenceOut>>, ApiError> {
    shared
        .get(
            not_before,
            |_| true,
            |_| read_for_followers(state, move |conn, _| crate::play::presence(conn, id)),
        )
        .await
}

/// The lobby listing for `query`, from a read begun no earlier than `not_before`.
pub async fn lobby(
    state: &web::Data<AppState>,
    shared: &Shared<Listing>,
    query: &LobbyQuery,
    not_before: Instant,
) -> Result<Arc<Read<Listing>>, ApiError> {
    shared
        .get(
            not_before,
            |_| true,
            |_| {
                let query = query.clone();
                async move {
                    let lobby = read_for_followers(state, move |conn, state| {
                        crate::play::lobby(conn, &query, state.settings.open_table_expiry)
                    })
                    .await?;
                    let json = serde_json::to_string(&lobby).map_err(ApiError::because("lobby"))?;
                    Ok(Listing {
                        json,
                        signature: lobby_signature(&lobby),
                    })
                }
            },
        )
        .await
}

/// What identifies a lobby listing, apart from the seconds each table has waited (which change
/// every second and are no news).
fn lobby_signature(lobby: &Lobby) -> String {
    let mut value = serde_json::to_value(lobby).unwrap_or_default();
    if let Some(tables) = value.get_mut("tables").and_then(|t| t.as_array_mut()) {
        for table in tables {
            if let Some(table) = table.as_object_mut() {
                table.remove("waiting_seconds");
            }
        }
    }
    value.to_string()
}
