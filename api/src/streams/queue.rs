//! A stream's bounded queue to its connection: at most [`QUEUE`] events wait for the reader,
//! whole versions at a time, and a reader who makes no room for [`SLOW_READER`] is dropped with
//! a hint to reconnect, never holding up anyone else.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web_lab::sse::{self, Sse};
use tokio::sync::mpsc;

/// Events a stream holds for its reader: beyond this, it waits for them to read.
pub(super) const QUEUE: usize = 64;

/// How long a stream waits for a reader that does not read: then it drops them (the reader
/// gets what was queued, a hint to reconnect, and the end of the stream).
pub(super) const SLOW_READER: Duration = Duration::from_secs(10);

/// The comment that ends a stream whose reader fell behind.
pub(super) const SLOW_HINT: &str = "you read too slowly and fell behind: reconnect (with Last-Event-ID) \
                         to resume";

/// Why a stream stops sending.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// The client closed the connection.
    Gone,
    /// The reader did not make room within [`SLOW_READER`].
    Slow,
}

/// A stream's side of its bounded queue to the connection. The queue holds each event boxed:
/// tokio's channel keeps a block of 32 slots for as long as it lives, and a block of pointers
/// is a quarter of a KiB an idle stream where one of events was 3 KiB (see the streams bench).
pub(super) struct Outbox {
    tx: mpsc::Sender<Box<sse::Event>>,
    slow: std::sync::Arc<AtomicBool>,
    patience: Duration,
}

impl Outbox {
    /// Queues `events` together, as room comes: a version's events go as one batch, so a
    /// reader dropped for slowness has seen whole versions only (the `id` is on a version's
    /// last event) and resumes exactly. A reader who leaves no room for `patience` is marked
    /// slow and the stream ends.
    pub(super) async fn send(&self, events: Vec<sse::Event>) -> Result<(), Ended> {
        let mut left = events.into_iter();
        while left.len() > 0 {
            let room = left.len().min(self.tx.max_capacity());
            match tokio::time::timeout(self.patience, self.tx.reserve_many(room)).await {
                Ok(Ok(permits)) => {
                    for (permit, event) in permits.zip(left.by_ref()) {
                        permit.send(Box::new(event));
                    }
                }
                Ok(Err(_)) => return Err(Ended::Gone),
                Err(_) => {
                    self.slow.store(true, Ordering::SeqCst);
                    return Err(Ended::Slow);
                }
            }
        }
        Ok(())
    }

    pub(super) async fn closed(&self) {
        self.tx.closed().await;
    }
}

/// The connection's side: the queued events, then — when the stream ended for a slow reader
/// — [`SLOW_HINT`].
pub(super) struct Inbox {
    rx: mpsc::Receiver<Box<sse::Event>>,
    slow: std::sync::Arc<AtomicBool>,
    hinted: bool,
}

impl futures_core::Stream for Inbox {
    type Item = Result<sse::Event, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        match self.rx.poll_recv(cx) {
            std::task::Poll::Ready(None) if !self.hinted && self.slow.load(Ordering::SeqCst) => {
                self.hinted = true;
                std::task::Poll::Ready(Some(Ok(sse::Event::Comment(SLOW_HINT.into()))))
            }
            polled => polled.map(|event| event.map(|event| Ok(*event))),
        }
    }
}

/// A bounded queue from a stream's task to its connection (see [`Outbox`]).
pub(super) fn queue(patience: Duration) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let slow = std::sync::Arc::new(AtomicBool::new(false));
    (
        Outbox {
            tx,
            slow: slow.clone(),
            patience,
        },
        Inbox {
            rx,
            slow,
            hinted: false,
        },
    )
}

/// A Server-Sent Events response fed by `inbox`, with heartbeats and a retry hint.
pub(super) fn sse_response(heartbeat: Duration, inbox: Inbox) -> Sse<Inbox> {
    Sse::from_stream(inbox)
        .with_keep_alive(heartbeat)
        .with_retry_duration(Duration::from_secs(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(text: &str) -> sse::Event {
        sse::Event::Comment(text.to_owned().into())
    }

    #[tokio::test]
    async fn a_reader_who_makes_no_room_is_dropped_after_whole_batches_with_a_hint() {
        use futures_core::Stream;
        let (outbox, mut inbox) = queue(Duration::from_millis(50));
        // Batches fit while there is room…
        for _ in 0..(QUEUE / 4) {
            let batch = (0..4).map(|i| comment(&i.to_string())).collect();
            assert_eq!(outbox.send(batch).await, Ok(()));
        }
        // …and the next waits for room that never comes: the reader is dropped.
        let batch = vec![comment("late"), comment("late too")];
        assert_eq!(outbox.send(batch).await, Err(Ended::Slow));
        drop(outbox);
        // The reader still gets everything queued, whole, then the hint, then the end.
        let mut got = Vec::new();
        let waker = futures_task_noop();
        let mut cx = std::task::Context::from_waker(&waker);
        while let std::task::Poll::Ready(Some(Ok(event))) =
            std::pin::Pin::new(&mut inbox).poll_next(&mut cx)
        {
            got.push(format!("{event:?}"));
        }
        assert_eq!(got.len(), QUEUE + 1, "{got:?}");
        assert!(got[QUEUE].contains("too slowly"), "{:?}", got[QUEUE]);
        assert!(!got.iter().any(|e| e.contains("late")));
    }

    #[tokio::test]
    async fn a_reader_who_leaves_ends_the_sending() {
        let (outbox, inbox) = queue(Duration::from_secs(60));
        drop(inbox);
        assert_eq!(outbox.send(vec![comment("x")]).await, Err(Ended::Gone));
    }

    #[tokio::test]
    async fn a_batch_longer_than_the_queue_goes_as_the_reader_makes_room() {
        use futures_core::Stream;
        let (outbox, mut inbox) = queue(Duration::from_secs(5));
        let reader = tokio::spawn(async move {
            let mut count = 0;
            while std::future::poll_fn(|cx| std::pin::Pin::new(&mut inbox).poll_next(cx))
                .await
                .is_some()
            {
                count += 1;
            }
            count
        });
        let batch = (0..(QUEUE * 3)).map(|i| comment(&i.to_string())).collect();
        assert_eq!(outbox.send(batch).await, Ok(()));
        drop(outbox);
        assert_eq!(reader.await.ok(), Some(QUEUE * 3));
    }

    /// A waker that does nothing (the test polls by hand).
    fn futures_task_noop() -> std::task::Waker {
        std::task::Waker::noop().clone()
    }
}
