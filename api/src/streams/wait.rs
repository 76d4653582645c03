//! A stream's or long-poll's waits: for news of what it follows (a game, every game, a
//! tournament, an account), for a limit (its caller's next check, a long-poll's deadline), or
//! for the process to stop.

use std::future::Future;
use std::time::Duration;

use actix_web_lab::sse;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::auth::{Caller, Credential};
use crate::hub::Hub;

use super::queue::Outbox;

/// Waits until `woken` resolves, `limit` passes (with no limit, only `woken` or the stop ends
/// the wait), or the process stops. Returns the instant a read must have begun after to see
/// what woke the wait — what `woken` says; the wait's start, when `limit` passed — and whether
/// `woken` (a notice) ended it; none when the process stops.
async fn wait_noticed(
    hub: &Hub,
    limit: Option<Duration>,
    woken: impl Future<Output = Instant>,
) -> Option<(Instant, bool)> {
    // Register for the shutdown notice before looking at the flag: `notify_waiters` wakes only
    // those registered, so a request busy elsewhere when the signal came sees the flag instead.
    let shutdown = hub.stopping();
    tokio::pin!(shutdown);
    shutdown.as_mut().enable();
    if hub.is_shutting_down() {
        return None;
    }
    let began = Instant::now();
    let limit = async {
        match limit {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    let woke = tokio::select! {
        at = woken => Some((at, true)),
        () = limit => Some((began, false)),
        () = &mut shutdown => None,
    };
    if woke.is_some() {
        hub.count_wake();
    }
    woke
}

/// Waits until what `changes` follows (a game, every game, an account) changes — at once if
/// it changed since the last wait — `limit` passes, or the process stops (see
/// [`wait_noticed`]): the time of the latest change.
pub(super) async fn wait_for_news(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    limit: Duration,
) -> Option<Instant> {
    wait_for_notice(hub, changes, Some(limit))
        .await
        .map(|(at, _)| at)
}

/// [`wait_for_news`], also saying whether a notice (rather than the limit) ended the wait.
pub(super) async fn wait_for_notice(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    limit: Option<Duration>,
) -> Option<(Instant, bool)> {
    wait_noticed(hub, limit, async {
        match changes.changed().await {
            Ok(()) => *changes.borrow_and_update(),
            // (The hub keeps a channel while anyone follows it: this does not happen.)
            Err(_) => std::future::pending().await,
        }
    })
    .await
}

/// A stream's wait for its next look: until what `changes` follows changes, or `limit` passes
/// (with none, only news wakes it: the process's safety net, [`crate::sentinel`], sends news
/// whose notice was missed), while its reader stays. The instant a read must have begun after;
/// none when the stream ends (the reader left, or the process stops — then with a hint to
/// reconnect).
pub(super) async fn next_look(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    outbox: &Outbox,
    limit: Option<Duration>,
) -> Option<Instant> {
    next_look_noticed(hub, changes, outbox, limit)
        .await
        .map(|(at, _)| at)
}

/// [`next_look`], also saying whether a notice (rather than the limit) woke it.
pub(super) async fn next_look_noticed(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    outbox: &Outbox,
    limit: Option<Duration>,
) -> Option<(Instant, bool)> {
    tokio::select! {
        woke = wait_for_notice(hub, changes, limit) => {
            if woke.is_none() {
                let hint = sse::Event::Comment("the server is restarting: reconnect".into());
                let _ = outbox.send(vec![hint]).await;
            }
            woke
        }
        () = outbox.closed() => None,
    }
}

/// How long a stream may wait for news before it checks its caller again: until a session's
/// token expires; a personal API token, which a revocation on any replica ends without a
/// notice to the stream, every recheck; and after a look that failed (the database was away),
/// every recheck too, so that it tries again.
pub(super) fn check_again(hub: &Hub, caller: &Caller, failed: bool) -> Duration {
    match caller.credential {
        _ if failed => hub.recheck(),
        Credential::Session => caller.expires_in(),
        Credential::ApiToken(_) => hub.recheck(),
    }
}

/// [`check_again`] for a reader who may be a stranger (no caller): a stranger has no token to
/// lose, so only a failed look has it look again.
pub(super) fn check_reader_again(
    hub: &Hub,
    caller: Option<&Caller>,
    failed: bool,
) -> Option<Duration> {
    match caller {
        Some(caller) => Some(check_again(hub, caller, failed)),
        None => failed.then(|| hub.recheck()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Topic;
    use cardroom_db::GameId;

    #[tokio::test]
    async fn a_wait_begun_after_the_stop_signal_ends_at_once() {
        let hub = Hub::default();
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        hub.shut_down();
        let waited = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert_eq!(waited, Ok(None), "the wait should end at once, saying stop");
    }

    #[tokio::test]
    async fn a_stop_signal_ends_a_wait_in_progress() {
        let hub = std::sync::Arc::new(Hub::default());
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        let waiting = {
            let hub = hub.clone();
            tokio::spawn(
                async move { wait_for_news(&hub, &mut changes, Duration::from_secs(60)).await },
            )
        };
        tokio::task::yield_now().await;
        hub.shut_down();
        let waited = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(matches!(waited, Ok(Ok(None))), "got {waited:?}");
    }

    #[tokio::test]
    async fn news_of_the_game_or_of_every_game_ends_a_wait_and_others_do_not() {
        let hub = Hub::default();
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        hub.publish(Topic::Game(GameId::new(2)));
        let before = Instant::now();
        hub.publish(Topic::Game(GameId::new(1)));
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        // The wait says when the notice came: a read begun after that sees the change.
        assert!(
            matches!(woke, Ok(Some(at)) if at >= before && at <= Instant::now()),
            "{woke:?}"
        );
        hub.publish_everything();
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(matches!(woke, Ok(Some(_))), "{woke:?}");
        hub.publish(Topic::Game(GameId::new(3)));
        let quiet = tokio::time::timeout(
            Duration::from_millis(200),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(quiet.is_err(), "news of another game woke the wait");
        // Who follows every game hears them all.
        let mut every = hub.follow(Topic::Lobby);
        hub.publish(Topic::Game(GameId::new(3)));
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut every, Duration::from_secs(60)),
        )
        .await;
        assert!(matches!(woke, Ok(Some(_))), "{woke:?}");
    }

    #[tokio::test]
    async fn a_wait_that_runs_out_asks_for_a_read_begun_since_it_began() {
        let hub = Hub::default();
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        let began = Instant::now();
        let woke = wait_for_news(&hub, &mut changes, Duration::from_millis(20)).await;
        assert!(
            matches!(woke, Some(at) if at >= began && at + Duration::from_millis(20) <= Instant::now()),
            "{woke:?}"
        );
    }

    #[tokio::test]
    async fn a_stream_without_news_looks_again_after_its_limit_and_without_one_waits_for_news() {
        let limit = Duration::from_millis(40);
        let hub = Hub::default();
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        let (outbox, _inbox) = super::super::queue::queue(Duration::from_secs(1));
        let began = Instant::now();
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            next_look_noticed(&hub, &mut changes, &outbox, Some(limit)),
        )
        .await;
        // Not a notice: the limit, asking for a read begun since the wait began.
        assert!(
            matches!(woke, Ok(Some((at, false))) if at >= began),
            "{woke:?}"
        );
        assert!(began.elapsed() >= limit, "looked again before the limit");
        // Without a limit, nothing but news (or the reader leaving) ends the wait.
        let quiet = tokio::time::timeout(
            Duration::from_millis(300),
            next_look_noticed(&hub, &mut changes, &outbox, None),
        )
        .await;
        assert!(quiet.is_err(), "a wait without a limit ended: {quiet:?}");
        hub.nudge(Topic::Game(GameId::new(1)));
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            next_look_noticed(&hub, &mut changes, &outbox, None),
        )
        .await;
        assert!(matches!(woke, Ok(Some((_, true)))), "{woke:?}");
    }

    #[tokio::test]
    async fn changes_made_while_nobody_waited_wake_the_next_wait_once_with_the_latest_time() {
        let hub = Hub::default();
        let mut changes = hub.follow(Topic::Game(GameId::new(1)));
        hub.publish(Topic::Game(GameId::new(1)));
        hub.publish(Topic::Game(GameId::new(1)));
        let latest = Instant::now();
        hub.publish(Topic::Game(GameId::new(1)));
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(matches!(woke, Ok(Some(at)) if at >= latest), "{woke:?}");
        let quiet = tokio::time::timeout(
            Duration::from_millis(100),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(quiet.is_err(), "the same changes woke a second wait");
    }
}
