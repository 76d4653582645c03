//! Presence: who is connected now, on any replica.
//!
//! A person is connected while they hold an event stream or long-poll open (a game's, or their
//! account's), or while they made a request in the last [`window`] (`CARDROOM_PRESENCE_SECS`)
//! and none of their streams closed since (a client that polls without a stream). A game's
//! spectators are the people not seated at it who hold a stream of it.
//!
//! Each process notes in memory the streams it holds, per person and game, and the people who
//! made a request, and writes them to the `presence` table so that every replica reads the
//! same answer. News is written within [`SOONEST`]: an arrival (the first stream of a person
//! and game, or the first request of a person) at once, a departure once the last stream has
//! stayed closed for [`GRACE`] (a long-poll's next request comes well within it), each with a
//! change notice for the games whose tables show it, so that their followers on every replica
//! look again. Held streams are written again every quarter window, so that a process that
//! dies without saying its streams closed stops counting after one window.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use cardroom_db::talk::{ACCOUNT_STREAM, REQUESTS, Seen};
use tokio::sync::Notify;
use tokio::time::Instant;

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

/// How often the streams a process holds are written again: a quarter of the window (and so
/// how often who is at a table may change without a notice).
pub fn refresh_every() -> Duration {
    window() / 4
}

/// The oldest time a person may have been seen and still count as connected.
pub fn since() -> chrono::NaiveDateTime {
    let window = chrono::Duration::from_std(window()).unwrap_or(chrono::Duration::seconds(20));
    cardroom_db::now() - window
}

/// The least time between two writes.
pub const SOONEST: Duration = Duration::from_millis(100);
/// How long a person's last stream of a game must stay closed before they are written as gone
/// from it: a long-poll's next request, or a reconnecting stream, comes within it.
pub const GRACE: Duration = Duration::from_millis(800);
/// How long rows are kept after they stop being refreshed (then swept).
pub const KEEP: Duration = Duration::from_secs(3600);

/// What this process has seen and not yet written.
#[derive(Debug, Default)]
pub struct Presence {
    inner: Mutex<Inner>,
    wake: Notify,
}

#[derive(Debug, Default)]
struct Inner {
    /// Streams and long-polls open now, per (person, game).
    following: HashMap<(i64, i64), usize>,
    /// (Person, game) whose last stream closed, and when it did.
    closed: HashMap<(i64, i64), Instant>,
    /// (Person, game) written as held, and not written as gone since.
    held: HashSet<(i64, i64)>,
    /// People who made a request since the last write.
    requests: HashSet<i64>,
    /// People whose requests the last write held.
    requested: HashSet<i64>,
}

/// One write: the rows, the games whose tables must hear of it (the games of streams that
/// opened or closed), and the people whose account-wide presence may have changed (their own
/// stream or first request: every table they sit at must hear of it).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Batch {
    pub rows: Vec<Seen>,
    pub games: Vec<i64>,
    pub people: Vec<i64>,
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

impl Presence {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `user` made a request.
    pub fn request(&self, user: i64) {
        let news = {
            let mut inner = self.inner();
            inner.requests.insert(user) && !inner.requested.contains(&user)
        };
        if news {
            self.wake.notify_one();
        }
    }

    /// `user` follows `game` (a stream or long-poll; game 0, their account's stream) while
    /// the guard lives.
    pub fn follow(self: &Arc<Self>, user: i64, game: i64) -> Following {
        let key = (user, game);
        let news = {
            let mut inner = self.inner();
            inner.closed.remove(&key);
            let count = inner.following.entry(key).or_insert(0);
            *count += 1;
            *count == 1 && !inner.held.contains(&key)
        };
        if news {
            self.wake.notify_one();
        }
        Following {
            presence: self.clone(),
            key,
        }
    }

    /// Resolves when there is news to write sooner than the next refresh.
    pub async fn arrived(&self) {
        self.wake.notified().await;
    }

    /// When the next departure falls due, if one is waiting.
    pub fn next_departure(&self) -> Option<Instant> {
        self.inner().closed.values().min().map(|&at| at + GRACE)
    }

    /// What to write at `now`: the streams that opened (held) and the ones closed for
    /// [`GRACE`] (gone), the requests since the last write, and with `refresh` every stream
    /// still held; with the games and people whose presence changed.
    pub fn take(&self, now: Instant, refresh: bool) -> Batch {
        let mut inner = self.inner();
        let mut batch = Batch::default();
        let mut games = HashSet::new();
        let mut people = HashSet::new();
        let mut changed = |(user, game): (i64, i64)| {
            if game == ACCOUNT_STREAM || game == REQUESTS {
                people.insert(user);
            } else {
                games.insert(game);
            }
        };
        // Departures.
        let gone: Vec<(i64, i64)> = inner
            .closed
            .iter()
            .filter(|&(_, &at)| now.saturating_duration_since(at) >= GRACE)
            .map(|(&key, _)| key)
            .collect();
        for key in gone {
            inner.closed.remove(&key);
            if inner.held.remove(&key) {
                batch.rows.push(seen(key, false));
                changed(key);
            }
        }
        // Arrivals, and with `refresh` every stream held.
        let open: Vec<(i64, i64)> = inner.following.keys().copied().collect();
        for key in open {
            if inner.held.insert(key) {
                batch.rows.push(seen(key, true));
                changed(key);
            } else if refresh {
                batch.rows.push(seen(key, true));
            }
        }
        // Requests.
        let requests = std::mem::take(&mut inner.requests);
        for &user in &requests {
            if !inner.requested.contains(&user) {
                changed((user, REQUESTS));
            }
            batch.rows.push(seen((user, REQUESTS), false));
        }
        if refresh {
            inner.requested = requests;
        } else {
            inner.requested.extend(requests);
        }
        batch.rows.sort_unstable_by_key(|row| (row.user, row.game));
        batch.games = games.into_iter().collect();
        batch.games.sort_unstable();
        batch.people = people.into_iter().collect();
        batch.people.sort_unstable();
        batch
    }
}

fn seen((user, game): (i64, i64), held: bool) -> Seen {
    Seen { user, game, held }
}

/// A stream's or long-poll's mark that its caller follows a game.
#[derive(Debug)]
pub struct Following {
    presence: Arc<Presence>,
    key: (i64, i64),
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut inner = self.presence.inner();
        if let Some(count) = inner.following.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                inner.following.remove(&self.key);
                inner.closed.insert(self.key, Instant::now());
                drop(inner);
                // The writer sleeps until the departure falls due.
                self.presence.wake.notify_one();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(batch: &Batch) -> Vec<(i64, i64, bool)> {
        batch
            .rows
            .iter()
            .map(|r| (r.user, r.game, r.held))
            .collect()
    }

    #[test]
    fn arrivals_are_news_refreshes_are_not_and_a_departure_waits_for_the_grace() {
        let presence = Arc::new(Presence::default());
        let start = Instant::now();
        let watching = presence.follow(7, 42);
        let again = presence.follow(7, 42);
        presence.request(8);
        presence.request(8);
        let first = presence.take(start, false);
        assert_eq!(rows(&first), vec![(7, 42, true), (8, REQUESTS, false)]);
        assert_eq!(first.games, vec![42]);
        assert_eq!(first.people, vec![8]);
        // Nothing new: nothing to write, unless it is time to refresh (then no news).
        assert!(presence.take(start, false).is_empty());
        let refresh = presence.take(start, true);
        assert_eq!(rows(&refresh), vec![(7, 42, true)]);
        assert!(refresh.games.is_empty() && refresh.people.is_empty());
        // One of two streams closes: still there.
        drop(watching);
        assert!(presence.next_departure().is_none());
        assert!(presence.take(start, false).is_empty());
        // The last closes: gone, but only once the grace has passed.
        drop(again);
        let due = presence.next_departure().expect("a departure waits");
        assert!(
            presence
                .take(due - Duration::from_millis(1), false)
                .is_empty()
        );
        let gone = presence.take(due, false);
        assert_eq!(rows(&gone), vec![(7, 42, false)]);
        assert_eq!(gone.games, vec![42]);
        assert!(presence.take(due, true).is_empty());
    }

    #[test]
    fn a_stream_reopened_within_the_grace_is_no_departure() {
        let presence = Arc::new(Presence::default());
        let start = Instant::now();
        let account = presence.follow(3, ACCOUNT_STREAM);
        let first = presence.follow(3, 9);
        let arrived = presence.take(start, false);
        assert_eq!(arrived.games, vec![9]);
        assert_eq!(arrived.people, vec![3]);
        drop(account);
        drop(first);
        let _back = presence.follow(3, 9);
        let later = Instant::now() + GRACE * 2;
        let batch = presence.take(later, false);
        assert!(
            !rows(&batch).contains(&(3, 9, false)),
            "a long-poll's next request is not a departure: {:?}",
            rows(&batch)
        );
        // The account stream, closed for good, is gone and its person's tables hear of it.
        assert!(rows(&batch).contains(&(3, ACCOUNT_STREAM, false)));
        assert_eq!(batch.people, vec![3]);
    }
}
