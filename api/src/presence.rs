//! Presence: who is connected now, on any replica.
//!
//! A person is connected while they hold an event stream or long-poll open, or made a request
//! in the last [`window`] (`CARDROOM_PRESENCE_SECS`). Each process notes both in memory — the
//! streams it holds, per person and game, and the people who made a request — and writes them
//! to the `presence` table in one statement every quarter of the window (sooner, within a
//! quarter second, when someone new arrives), so that every replica reads the same answer:
//! a person is connected while one of their rows is younger than the window, and a game's
//! spectators are the people not seated at it whose row for that game is. Leaving is noticed
//! when the rows grow old: within one window.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

/// The window, in milliseconds (one per process: set once at start).
static WINDOW_MS: AtomicU64 = AtomicU64::new(20_000);

/// Sets the presence window (from the settings, at start).
pub fn set_window(window: Duration) {
    let ms = u64::try_from(window.as_millis())
        .unwrap_or(u64::MAX)
        .max(1000);
    WINDOW_MS.store(ms, Ordering::Relaxed);
}

/// How long a person counts as connected after they were last seen.
pub fn window() -> Duration {
    Duration::from_millis(WINDOW_MS.load(Ordering::Relaxed))
}

/// The oldest time a person may have been seen and still count as connected.
pub fn since() -> chrono::NaiveDateTime {
    let window = chrono::Duration::from_std(window()).unwrap_or(chrono::Duration::seconds(20));
    cardroom_db::now() - window
}

/// The least time between two writes.
pub const SOONEST: Duration = Duration::from_millis(250);
/// How long rows are kept after they stop being refreshed (then swept).
pub const KEEP: Duration = Duration::from_secs(3600);

/// What this process has seen since its last write.
#[derive(Debug, Default)]
pub struct Presence {
    /// Streams and long-polls open now, per (person, game).
    following: Mutex<HashMap<(i64, i64), usize>>,
    /// People who made a request since the last write.
    requests: Mutex<HashSet<i64>>,
    /// People written at the last write (someone not among them is news, written sooner).
    written: Mutex<HashSet<i64>>,
    wake: Notify,
}

impl Presence {
    /// `user` made a request.
    pub fn request(&self, user: i64) {
        let new = self
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(user);
        if new
            && !self
                .written
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(&user)
        {
            self.wake.notify_one();
        }
    }

    /// `user` follows `game` (a stream or long-poll) while the guard lives.
    pub fn follow(self: &Arc<Self>, user: i64, game: i64) -> Following {
        let first = {
            let mut following = self
                .following
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let count = following.entry((user, game)).or_insert(0);
            *count += 1;
            *count == 1
        };
        if first {
            self.wake.notify_one();
        }
        Following {
            presence: self.clone(),
            key: (user, game),
        }
    }

    /// Resolves when someone new arrived (a request or a stream), to be written sooner.
    pub async fn arrived(&self) {
        self.wake.notified().await;
    }

    /// Everything to write now: every followed game and every person who made a request (as
    /// game 0); the requests are forgotten.
    pub fn take(&self) -> Vec<(i64, i64)> {
        let mut keys: HashSet<(i64, i64)> = self
            .following
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .copied()
            .collect();
        let requests =
            std::mem::take(&mut *self.requests.lock().unwrap_or_else(PoisonError::into_inner));
        keys.extend(requests.into_iter().map(|user| (user, 0)));
        *self.written.lock().unwrap_or_else(PoisonError::into_inner) =
            keys.iter().map(|&(user, _)| user).collect();
        let mut keys: Vec<(i64, i64)> = keys.into_iter().collect();
        keys.sort_unstable();
        keys
    }
}

/// A stream's or long-poll's mark that its caller follows a game.
#[derive(Debug)]
pub struct Following {
    presence: Arc<Presence>,
    key: (i64, i64),
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut following = self
            .presence
            .following
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = following.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                following.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_holds_every_followed_game_and_the_requests_since_the_last() {
        let presence = Arc::new(Presence::default());
        let watching = presence.follow(7, 42);
        let again = presence.follow(7, 42);
        presence.request(8);
        presence.request(8);
        assert_eq!(presence.take(), vec![(7, 42), (8, 0)]);
        // The requests were written; the streams are still open.
        assert_eq!(presence.take(), vec![(7, 42)]);
        drop(watching);
        assert_eq!(
            presence.take(),
            vec![(7, 42)],
            "one of two streams is still open"
        );
        drop(again);
        assert!(presence.take().is_empty());
    }
}
