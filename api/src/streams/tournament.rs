//! A tournament, live: its whole state as Server-Sent Events, sent again whenever it changes.

use std::time::Duration;

use actix_web::web;
use actix_web_lab::sse;
use tokio::time::Instant;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::feeds::read_for_followers;
use crate::hub::Topic;
use crate::model::{StreamEndReason, StreamEvent};
use crate::play;
use crate::state::AppState;

use super::queue::{SLOW_READER, queue, sse_response};
use super::slot::StreamSlot;
use super::wait::{check_reader_again, next_look};

/// The least time between two reads of a tournament by one stream.
const TOURNAMENT_EVERY: Duration = Duration::from_millis(250);

/// `GET /tournaments/{id}` as Server-Sent Events: `event: tournament` with the body `GET`
/// answers, at once and whenever it changes (an entrant, a pairing, a result, on any replica);
/// heartbeats; closed when the process stops and when the tournament can no longer be seen;
/// when the token it was opened with expires or is revoked, closed after an `event: stream_end`
/// (data `{"type": "stream_end", "reason": "token_expired"}`), as the game and account streams
/// end.
pub fn tournament_stream(
    state: web::Data<AppState>,
    caller: Option<Caller>,
    id: i64,
    code: Option<String>,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, caller.as_ref().map(|c| c.id))?;
    let (outbox, inbox) = queue(SLOW_READER);
    let response = sse_response(state.settings.heartbeat, inbox);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let mut changes = state.hub.follow(Topic::Tournament(id));
        let mut sent: Option<String> = None;
        loop {
            let looked = Instant::now();
            let reader = caller.clone();
            let code = code.clone();
            let read = read_for_followers(&state, move |conn, _| {
                // (A token expired or revoked since the stream opened: it gets nothing more. A
                // stranger has none to lose.)
                if let Some(reader) = &reader
                    && !crate::tokens::still_valid(conn, reader)?
                {
                    return Ok(None);
                }
                let tournament =
                    play::tournaments::get(conn, reader.as_ref(), id, code.as_deref())?;
                serde_json::to_string(&tournament)
                    .map(Some)
                    .map_err(ApiError::because("tournament"))
            })
            .await;
            let mut failed = false;
            match read {
                // (The token is no longer good: the stream says so, and ends.)
                Ok(None) => {
                    let _ = outbox.send(vec![end_event()]).await;
                    return;
                }
                Ok(Some(json)) if sent.as_deref() != Some(json.as_str()) => {
                    let data = sse::Data::new(json.clone()).event("tournament");
                    if outbox.send(vec![sse::Event::Data(data)]).await.is_err() {
                        return;
                    }
                    sent = Some(json);
                }
                Ok(_) => {}
                // (Gone, or no longer visible: the stream ends.)
                Err(ApiError::NotFound(_) | ApiError::Denied { .. }) => return,
                Err(_) => failed = true,
            }
            // News comes as a notice, or from the safety net (`crate::sentinel`), which reads
            // every followed tournament once a recheck for all its followers.
            let limit = check_reader_again(&state.hub, caller.as_ref(), failed);
            if next_look(&state.hub, &mut changes, &outbox, limit)
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

/// The event that ends a tournament's stream whose token is no longer good: `event:
/// stream_end`, its data the same `stream_end` event the game and account streams send.
fn end_event() -> sse::Event {
    let end = StreamEvent::StreamEnd {
        reason: StreamEndReason::TokenExpired,
    };
    match sse::Data::new_json(&end) {
        Ok(data) => sse::Event::Data(data.event(super::game::STREAM_END)),
        Err(_) => sse::Event::Comment(super::game::STREAM_END.into()),
    }
}
