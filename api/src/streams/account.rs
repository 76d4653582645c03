//! The account's event stream: everything that concerns an account, as it happens, from any
//! replica; as Server-Sent Events or newline-delimited JSON.

use actix_web::Either;
use actix_web::web;
use actix_web_lab::sse;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::auth::Caller;
use crate::blocking::{run, run_retrying};
use crate::error::ApiError;
use crate::hub::Topic;
use crate::model::AccountEvent;
use crate::play::{self, ACCOUNT_EVENTS_PAGE};
use crate::state::AppState;

use super::queue::{Outbox, QUEUE, SLOW_READER, queue, sse_response};
use super::slot::StreamSlot;
use super::wait::{check_again, wait_for_news};

/// The form an account stream takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamFormat {
    /// Server-Sent Events: `event:` the type, `id:` the event's id, `data:` the event.
    Sse,
    /// Newline-delimited JSON: one event a line (each with its `id`), an empty line as a
    /// heartbeat.
    NdJson,
}

/// Where an account stream's events go, in its form. Either holds at most [`QUEUE`] events,
/// and a reader who makes no room for [`SLOW_READER`] is dropped (the SSE form ends with
/// [`SLOW_HINT`]); the client resumes after the last event id it has.
enum Sink {
    Sse(Outbox),
    Lines(mpsc::Sender<actix_web::web::Bytes>),
}

impl Sink {
    /// Sends one event; false once the client has gone.
    pub(super) async fn send(&self, id: Option<i64>, event: &serde_json::Value) -> bool {
        match self {
            Sink::Sse(outbox) => {
                let Ok(mut data) = sse::Data::new_json(event) else {
                    return true;
                };
                if let Some(kind) = event.get("type").and_then(|t| t.as_str()) {
                    data = data.event(kind.to_owned());
                }
                if let Some(id) = id {
                    data = data.id(id.to_string());
                }
                outbox.send(vec![sse::Event::Data(data)]).await.is_ok()
            }
            Sink::Lines(tx) => {
                let mut line = event.to_string();
                line.push('\n');
                tx.send_timeout(actix_web::web::Bytes::from(line), SLOW_READER)
                    .await
                    .is_ok()
            }
        }
    }

    /// A heartbeat for a quiet newline-delimited stream (SSE has its own).
    pub(super) async fn heartbeat(&self) -> bool {
        match self {
            Sink::Sse(_) => true,
            Sink::Lines(tx) => tx
                .send_timeout(actix_web::web::Bytes::from_static(b"\n"), SLOW_READER)
                .await
                .is_ok(),
        }
    }

    pub(super) async fn closed(&self) {
        match self {
            Sink::Sse(outbox) => outbox.closed().await,
            Sink::Lines(tx) => tx.closed().await,
        }
    }
}

/// A receiver as a body stream, for the newline-delimited form.
struct Lines(mpsc::Receiver<actix_web::web::Bytes>);

impl futures_core::Stream for Lines {
    type Item = Result<actix_web::web::Bytes, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|line| line.map(Ok))
    }
}

/// `GET /stream/events`: everything that concerns the caller's account, as it happens — a game
/// started, their turn, a game over, challenges, a quick match — from any replica. After
/// `after` (an event id; `Last-Event-ID` does the same) it resumes from the account's event
/// log, missing and repeating nothing; without one it begins with what waits for the account
/// now (its turns, the challenges to it), then goes on with new events. Before each batch the
/// credential is checked again: an expired session or a revoked token ends the stream with a
/// `stream_end` event.
///
/// The starting point is read before the response's headers go out, so a client that has the
/// headers misses nothing that happens after (what happened just before is in the snapshot).
pub async fn account_stream(
    state: web::Data<AppState>,
    caller: Caller,
    after: Option<i64>,
    format: StreamFormat,
) -> Result<Either<impl actix_web::Responder, actix_web::HttpResponse>, ApiError> {
    let slot = StreamSlot::take(&state, Some(caller.id))?;
    let (waiting, mut cursor) = match after {
        Some(after) => (Vec::new(), after),
        None => {
            let reader = caller.clone();
            run_retrying(&state, move |conn, _| play::account_snapshot(conn, &reader)).await?
        }
    };
    let following = state.presence.follow(caller.id, 0);
    let heartbeat = state.settings.heartbeat;
    let (sink, response) = match format {
        StreamFormat::Sse => {
            let (outbox, inbox) = queue(SLOW_READER);
            (
                Sink::Sse(outbox),
                Either::Left(sse_response(heartbeat, inbox)),
            )
        }
        StreamFormat::NdJson => {
            let (tx, rx) = mpsc::channel(QUEUE);
            (Sink::Lines(tx), Either::Right(Lines(rx)))
        }
    };
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let _following = following;
        let mut changes = state.hub.follow(Topic::Account(caller.id));
        for event in &waiting {
            if !sink.send(None, event).await {
                return;
            }
        }
        let mut quiet_since = Instant::now();
        loop {
            let reader = caller.clone();
            let read = run(&state, move |conn, _| {
                play::account_events_for(conn, &reader, cursor)
            })
            .await;
            let mut failed = false;
            let mut more = false;
            match read {
                Ok(Ok(events)) => {
                    more = events.len() >= usize::try_from(ACCOUNT_EVENTS_PAGE).unwrap_or(0);
                    for (id, event) in events {
                        if !sink.send(Some(id), &event).await {
                            return;
                        }
                        cursor = id;
                        quiet_since = Instant::now();
                    }
                }
                Ok(Err(revoked)) => {
                    let end = AccountEvent::StreamEnd {
                        reason: revoked.reason(),
                    };
                    let end = serde_json::to_value(end).unwrap_or_default();
                    let _ = sink.send(None, &end).await;
                    return;
                }
                // The database is away: try again soon.
                Err(_) => failed = true,
            }
            if more {
                // A full page came: the rest at once.
                continue;
            }
            if quiet_since.elapsed() >= heartbeat {
                if !sink.heartbeat().await {
                    return;
                }
                quiet_since = Instant::now();
            }
            // Only news wakes the stream (the process's safety net reads what its account
            // streams follow), its caller's next check, or — newline-delimited, which has no
            // heartbeat of its own — the next heartbeat.
            let mut limit = check_again(&state.hub, &caller, failed);
            if let Sink::Lines(_) = sink {
                limit = limit.min(heartbeat.saturating_sub(quiet_since.elapsed()));
            }
            tokio::select! {
                woke = wait_for_news(&state.hub, &mut changes, limit) => {
                    if woke.is_none() && state.hub.is_shutting_down() {
                        return;
                    }
                }
                () = sink.closed() => return,
            }
        }
    });
    Ok(match response {
        Either::Left(stream) => Either::Left(
            actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
        ),
        Either::Right(lines) => Either::Right(
            actix_web::HttpResponse::Ok()
                .content_type("application/x-ndjson")
                .insert_header(("X-Accel-Buffering", "no"))
                .streaming(lines),
        ),
    })
}
