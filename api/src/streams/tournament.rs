//! A tournament, live: its whole state as Server-Sent Events, sent again whenever it changes.

use std::time::Duration;

use actix_web::web;
use actix_web_lab::sse;
use tokio::time::Instant;

use crate::auth::Caller;
use crate::blocking::run;
use crate::error::ApiError;
use crate::play;
use crate::state::AppState;

use super::queue::{SLOW_READER, queue, sse_response};
use super::slot::StreamSlot;
use super::wait::next_look;

/// The least time between two reads of a tournament by one stream.
const TOURNAMENT_EVERY: Duration = Duration::from_millis(250);

/// `GET /tournaments/{id}` as Server-Sent Events: `event: tournament` with the body `GET`
/// answers, at once and whenever it changes (an entrant, a pairing, a result, on any replica);
/// heartbeats; closed when the process stops (or when the tournament can no longer be seen).
pub fn tournament_stream(
    state: web::Data<AppState>,
    caller: Caller,
    id: i64,
    code: Option<String>,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, Some(caller.id))?;
    let (outbox, inbox) = queue(SLOW_READER);
    let response = sse_response(state.settings.heartbeat, inbox);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let mut changes = state.hub.tournament_changes(id);
        let mut sent: Option<String> = None;
        loop {
            let looked = Instant::now();
            let reader = caller.clone();
            let code = code.clone();
            let read = run(&state, move |conn, _| {
                play::tournaments::get(conn, &reader, id, code.as_deref())
            })
            .await;
            match read
                .and_then(|t| serde_json::to_string(&t).map_err(ApiError::because("tournament")))
            {
                Ok(json) if sent.as_deref() != Some(json.as_str()) => {
                    let data = sse::Data::new(json.clone()).event("tournament");
                    if outbox.send(vec![sse::Event::Data(data)]).await.is_err() {
                        return;
                    }
                    sent = Some(json);
                }
                Ok(_) => {}
                // (Gone, or no longer visible: the stream ends.)
                Err(ApiError::NotFound(_)) => return,
                Err(_) => {}
            }
            // (A tournament's followers each read it for themselves, and so look again after
            // every recheck too.)
            let recheck = Some(state.hub.recheck());
            if next_look(&state.hub, &mut changes, &outbox, recheck)
                .await
                .is_none()
            {
                return;
            }
            tokio::select! {
                () = tokio::time::sleep_until(looked + TOURNAMENT_EVERY) => {}
                () = outbox.closed() => return,
            }
        }
    });
    Ok(response)
}
