//! The hub: the per-process channels that wake requests waiting on a game, on every game or
//! on an account, fed by this process's own commits and (on PostgreSQL) by every replica's
//! through `LISTEN/NOTIFY`; and the signal that the process is stopping.

use cardroom_db::GameId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use tokio::sync::futures::Notified;
use tokio::sync::{Notify, broadcast, watch};
use tokio::time::Instant;

/// An account notice that means "look again, every account" (notices may have been missed).
pub const EVERY_ACCOUNT: i64 = -1;

/// A notice on the hub: what changed, and when this process learnt of it (a read begun after
/// that sees the change).
pub type Notice = (i64, Instant);

/// The hub: for each game followed on this process, the time of its latest change; the time
/// of any game's latest change (for those who follow them all: the lobby, waiting seeks); and a
/// broadcast of accounts with new events.
///
/// A game's followers wait on that game's own channel, so a change wakes only those who follow
/// it, and changes that come while they are busy wake them once (with the latest time: a read
/// begun after it sees them all).
#[derive(Debug)]
pub struct Hub {
    games: Mutex<GameChannels>,
    any_game: watch::Sender<Instant>,
    /// The time of any tournament's latest change.
    tournaments: watch::Sender<Instant>,
    accounts: broadcast::Sender<Notice>,
    shutdown: Notify,
    shutting_down: AtomicBool,
    pub(crate) open_streams: AtomicUsize,
    /// Streams open now, per account.
    pub(crate) streams_by_account: Mutex<HashMap<i64, usize>>,
}

/// The games' channels: one a game someone on this process follows.
#[derive(Debug)]
struct GameChannels {
    map: HashMap<GameId, watch::Sender<Instant>>,
    /// The size at which channels nobody follows any more are next dropped.
    prune_at: usize,
}

/// Below this many game channels, none is dropped.
const KEEP_CHANNELS: usize = 256;

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            games: Mutex::new(GameChannels {
                map: HashMap::new(),
                prune_at: KEEP_CHANNELS,
            }),
            any_game: watch::channel(Instant::now()).0,
            tournaments: watch::channel(Instant::now()).0,
            accounts: broadcast::channel(4096).0,
            shutdown: Notify::new(),
            shutting_down: AtomicBool::new(false),
            open_streams: AtomicUsize::new(0),
            streams_by_account: Mutex::new(HashMap::new()),
        }
    }
}

impl Hub {
    /// Game `id` changed (or, with `None`, anything may have).
    pub fn publish(&self, id: Option<GameId>) {
        let now = Instant::now();
        {
            let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            match id {
                Some(id) => {
                    if let Some(channel) = games.map.get(&id) {
                        channel.send_replace(now);
                    }
                }
                None => {
                    for channel in games.map.values() {
                        channel.send_replace(now);
                    }
                }
            }
        }
        self.any_game.send_replace(now);
    }

    /// The changes of game `id` (with `None`, of every game), from now on.
    pub fn changes(&self, id: Option<GameId>) -> watch::Receiver<Instant> {
        let Some(id) = id else {
            return self.any_game.subscribe();
        };
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(channel) = games.map.get(&id) {
            return channel.subscribe();
        }
        if games.map.len() >= games.prune_at {
            games.map.retain(|_, channel| channel.receiver_count() > 0);
            games.prune_at = (games.map.len() * 2).max(KEEP_CHANNELS);
        }
        let (channel, changes) = watch::channel(Instant::now());
        games.map.insert(id, channel);
        changes
    }

    /// A tournament changed: its followers and the lobby's look again.
    pub fn publish_tournament(&self) {
        let now = Instant::now();
        self.tournaments.send_replace(now);
        self.any_game.send_replace(now);
    }

    /// Tournaments' changes, from now on.
    pub fn tournament_changes(&self) -> watch::Receiver<Instant> {
        self.tournaments.subscribe()
    }

    /// Account `id` has new events.
    pub fn publish_account(&self, id: i64) {
        let _ = self.accounts.send((id, Instant::now()));
    }

    /// A notice from the database's channel (any replica's change).
    pub fn hear(&self, notice: cardroom_db::notify::Notice) {
        use cardroom_db::notify::Notice;
        match notice {
            Notice::Game(id) => self.publish(Some(id)),
            Notice::Account(id) => self.publish_account(id),
            Notice::Tournament(_) => self.publish_tournament(),
            Notice::Everything => {
                self.publish(None);
                self.publish_tournament();
                self.publish_account(EVERY_ACCOUNT);
            }
        }
    }

    /// Starts closing streams and long-polls: the process is stopping.
    pub fn shut_down(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        self.shutdown.notify_waiters();
    }

    /// Whether the process is stopping.
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::SeqCst)
    }

    /// Accounts with new events, from now on.
    pub fn account_notices(&self) -> broadcast::Receiver<Notice> {
        self.accounts.subscribe()
    }

    /// Resolves when the process starts stopping (after [`Hub::shut_down`]); register it (with
    /// `enable`) before looking at [`Hub::is_shutting_down`], or the signal may be missed.
    pub fn stopping(&self) -> Notified<'_> {
        self.shutdown.notified()
    }

    /// Streams open now.
    pub fn open_streams(&self) -> usize {
        self.open_streams.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_of_games_nobody_follows_are_dropped_as_they_grow() {
        let hub = Hub::default();
        let followed = hub.changes(Some(GameId::new(-5)));
        for id in 0..(KEEP_CHANNELS as i64 * 3) {
            drop(hub.changes(Some(GameId::new(id))));
        }
        let kept = hub.games.lock().map(|games| games.map.len()).unwrap_or(0);
        assert!(kept <= KEEP_CHANNELS, "{kept} channels kept");
        // The followed game's channel is still the one its follower listens on.
        hub.publish(Some(GameId::new(-5)));
        assert!(followed.has_changed().unwrap_or(false));
    }
}
