//! The hub: the per-process channels that wake requests waiting on a game, on every game, on a
//! tournament or on an account, fed by this process's own commits and (on PostgreSQL) by every replica's
//! through `LISTEN/NOTIFY`; and the signal that the process is stopping.

use cardroom_db::GameId;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::futures::Notified;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

/// The hub: for each game followed on this process, the time of its latest change; the time
/// of any game's latest change (for those who follow them all: the lobby, waiting seeks); and
/// for each account followed on this process, the time it last had new events.
///
/// A game's followers wait on that game's own channel, so a change wakes only those who follow
/// it, and changes that come while they are busy wake them once (with the latest time: a read
/// begun after it sees them all).
#[derive(Debug)]
pub struct Hub {
    games: Mutex<Channels<GameId>>,
    any_game: watch::Sender<Instant>,
    /// For each tournament followed on this process, the time of its latest change.
    tournaments: Mutex<Channels<i64>>,
    /// For each account followed on this process, the time of its latest events.
    accounts: Mutex<Channels<i64>>,
    shutdown: Notify,
    shutting_down: AtomicBool,
    pub(crate) open_streams: AtomicUsize,
    /// Streams open now, per account.
    pub(crate) streams_by_account: Mutex<HashMap<i64, usize>>,
    /// How long a waiting request goes without a notice before it looks again anyway.
    recheck: Duration,
    /// Times a waiting stream or long-poll woke to look again (`cardroom_stream_wakes_total`).
    wakes: AtomicU64,
}

/// What a waiting request follows, and what a change is news of: one game, one tournament,
/// one account, or the lobby (every game and tournament listed).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Topic {
    Game(GameId),
    Tournament(i64),
    Account(i64),
    Lobby,
}

/// What somebody on a process follows: the games, tournaments and accounts with a follower.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Followed {
    pub games: Vec<GameId>,
    pub tournaments: Vec<i64>,
    pub accounts: Vec<i64>,
}

/// One kind's channels, locked (a panic elsewhere leaves them usable: each change is whole).
fn lock<K>(channels: &Mutex<Channels<K>>) -> std::sync::MutexGuard<'_, Channels<K>> {
    channels.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Channels of one kind of thing (games, tournaments, accounts): one for each someone on
/// this process follows.
#[derive(Debug)]
struct Channels<K> {
    map: HashMap<K, watch::Sender<Instant>>,
    /// The size at which channels nobody follows any more are next dropped.
    prune_at: usize,
}

/// Below this many channels of a kind, none is dropped.
const KEEP_CHANNELS: usize = 256;

impl<K: Hash + Eq + Copy> Channels<K> {
    fn new() -> Channels<K> {
        Channels {
            map: HashMap::new(),
            prune_at: KEEP_CHANNELS,
        }
    }

    /// `id` changed at `now` (with `None`, every one may have).
    fn send(&self, id: Option<K>, now: Instant) {
        match id {
            Some(id) => {
                if let Some(channel) = self.map.get(&id) {
                    channel.send_replace(now);
                }
            }
            None => {
                for channel in self.map.values() {
                    channel.send_replace(now);
                }
            }
        }
    }

    /// The ones somebody on this process follows now.
    fn followed(&self) -> Vec<K> {
        self.map
            .iter()
            .filter(|(_, channel)| channel.receiver_count() > 0)
            .map(|(&id, _)| id)
            .collect()
    }

    /// `id`'s changes from now on (its channel made if nobody follows it yet, the channels
    /// nobody follows any more dropped as the map grows).
    fn subscribe(&mut self, id: K) -> watch::Receiver<Instant> {
        if let Some(channel) = self.map.get(&id) {
            return channel.subscribe();
        }
        if self.map.len() >= self.prune_at {
            self.map.retain(|_, channel| channel.receiver_count() > 0);
            self.prune_at = (self.map.len() * 2).max(KEEP_CHANNELS);
        }
        let (channel, changes) = watch::channel(Instant::now());
        self.map.insert(id, channel);
        changes
    }
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            games: Mutex::new(Channels::new()),
            any_game: watch::channel(Instant::now()).0,
            tournaments: Mutex::new(Channels::new()),
            accounts: Mutex::new(Channels::new()),
            shutdown: Notify::new(),
            shutting_down: AtomicBool::new(false),
            open_streams: AtomicUsize::new(0),
            streams_by_account: Mutex::new(HashMap::new()),
            recheck: crate::settings::DEFAULT_RECHECK,
            wakes: AtomicU64::new(0),
        }
    }
}

/// How many games this process has finished: the analysis worker looks for work as soon as it
/// changes (each such game's analysis was queued in the transaction that finished it), not only
/// every sweep. Process-wide: a game is finished by a write, and a write has no hub at hand.
static FINISHED: AtomicU64 = AtomicU64::new(0);
static FINISHED_NOTICE: Notify = Notify::const_new();

/// A write of this process finished a game (after its transaction committed).
pub fn game_finished() {
    FINISHED.fetch_add(1, Ordering::SeqCst);
    FINISHED_NOTICE.notify_waiters();
}

/// Waits until a game is finished after `seen` (a count of [`finished_count`]) or `within` has
/// passed; returns the count then. Wakes at once when one already was.
pub async fn finished_since(seen: u64, within: Duration) -> u64 {
    let notified = FINISHED_NOTICE.notified();
    tokio::pin!(notified);
    notified.as_mut().enable();
    let now = FINISHED.load(Ordering::SeqCst);
    if now != seen {
        return now;
    }
    let _ = tokio::time::timeout(within, notified).await;
    FINISHED.load(Ordering::SeqCst)
}

/// Games finished by this process so far.
pub fn finished_count() -> u64 {
    FINISHED.load(Ordering::SeqCst)
}

impl Hub {
    /// A hub whose waiting requests look again after `recheck` without a notice.
    pub fn with_recheck(recheck: Duration) -> Hub {
        Hub {
            recheck,
            ..Hub::default()
        }
    }

    /// How long a waiting stream or long-poll goes without a notice before it looks again: the
    /// safety net for a missed notice, and on SQLite shared by several processes (which send
    /// none to each other) the way news arrives.
    pub fn recheck(&self) -> Duration {
        self.recheck
    }

    /// A waiting stream or long-poll woke to look again.
    pub(crate) fn count_wake(&self) {
        self.wakes.fetch_add(1, Ordering::Relaxed);
    }

    /// Times a waiting stream or long-poll woke to look again, since the process started.
    pub fn wakes(&self) -> u64 {
        self.wakes.load(Ordering::Relaxed)
    }

    /// `topic` changed: its followers look again, and for a game or a tournament those who
    /// follow the lobby too (it lists them).
    pub fn publish(&self, topic: Topic) {
        let now = Instant::now();
        match topic {
            Topic::Game(id) => lock(&self.games).send(Some(id), now),
            Topic::Tournament(id) => lock(&self.tournaments).send(Some(id), now),
            Topic::Account(id) => {
                lock(&self.accounts).send(Some(id), now);
                return;
            }
            Topic::Lobby => {}
        }
        self.any_game.send_replace(now);
    }

    /// Anything may have changed (notices were missed): every follower of everything looks
    /// again.
    pub fn publish_everything(&self) {
        let now = Instant::now();
        lock(&self.games).send(None, now);
        lock(&self.tournaments).send(None, now);
        lock(&self.accounts).send(None, now);
        self.any_game.send_replace(now);
    }

    /// `topic` may have changed (the safety net saw it): its own followers look again, and
    /// nobody else — a game's nudge is not news of the lobby.
    pub fn nudge(&self, topic: Topic) {
        let now = Instant::now();
        match topic {
            Topic::Game(id) => lock(&self.games).send(Some(id), now),
            Topic::Tournament(id) => lock(&self.tournaments).send(Some(id), now),
            Topic::Account(id) => lock(&self.accounts).send(Some(id), now),
            Topic::Lobby => {
                self.any_game.send_replace(now);
            }
        }
    }

    /// `topic`'s changes, from now on.
    pub fn follow(&self, topic: Topic) -> watch::Receiver<Instant> {
        match topic {
            Topic::Game(id) => lock(&self.games).subscribe(id),
            Topic::Tournament(id) => lock(&self.tournaments).subscribe(id),
            Topic::Account(id) => lock(&self.accounts).subscribe(id),
            Topic::Lobby => self.any_game.subscribe(),
        }
    }

    /// What somebody on this process follows now (the lobby aside).
    pub fn followed(&self) -> Followed {
        Followed {
            games: lock(&self.games).followed(),
            tournaments: lock(&self.tournaments).followed(),
            accounts: lock(&self.accounts).followed(),
        }
    }

    /// A notice from the database's channel (any replica's change).
    pub fn hear(&self, notice: cardroom_db::notify::Notice) {
        use cardroom_db::notify::Notice;
        match notice {
            Notice::Game(id) => self.publish(Topic::Game(id)),
            Notice::Account(id) => self.publish(Topic::Account(id)),
            Notice::Tournament(id) => self.publish(Topic::Tournament(id)),
            Notice::Everything => self.publish_everything(),
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
        let followed = hub.follow(Topic::Game(GameId::new(-5)));
        for id in 0..(KEEP_CHANNELS as i64 * 3) {
            drop(hub.follow(Topic::Game(GameId::new(id))));
        }
        let kept = hub.games.lock().map(|games| games.map.len()).unwrap_or(0);
        assert!(kept <= KEEP_CHANNELS, "{kept} channels kept");
        // The followed game's channel is still the one its follower listens on.
        hub.publish(Topic::Game(GameId::new(-5)));
        assert!(followed.has_changed().unwrap_or(false));
    }

    #[test]
    fn a_nudge_wakes_its_game_s_followers_only_and_followed_games_are_those_with_followers() {
        let hub = Hub::default();
        let one = hub.follow(Topic::Game(GameId::new(1)));
        let mut two = hub.follow(Topic::Game(GameId::new(2)));
        drop(hub.follow(Topic::Game(GameId::new(3))));
        let mut every = hub.follow(Topic::Lobby);
        let mut followed = hub.followed().games;
        followed.sort_unstable();
        assert_eq!(followed, vec![GameId::new(1), GameId::new(2)]);
        hub.nudge(Topic::Game(GameId::new(2)));
        assert!(!one.has_changed().unwrap_or(true));
        assert!(two.has_changed().unwrap_or(false));
        assert!(
            !every.has_changed().unwrap_or(true),
            "a nudge is not news of every game"
        );
        two.mark_unchanged();
        hub.nudge(Topic::Lobby);
        assert!(every.has_changed().unwrap_or(false));
        assert!(!one.has_changed().unwrap_or(true));
        assert!(!two.has_changed().unwrap_or(true));
        every.mark_unchanged();
        drop(one);
        assert_eq!(hub.followed().games, vec![GameId::new(2)]);
    }

    #[test]
    fn an_account_s_news_wakes_its_followers_and_news_of_every_account_wakes_them_all() {
        let hub = Hub::default();
        let mut seven = hub.follow(Topic::Account(7));
        let mut eight = hub.follow(Topic::Account(8));
        assert_eq!(
            {
                let mut followed = hub.followed().accounts;
                followed.sort_unstable();
                followed
            },
            vec![7, 8]
        );
        hub.publish(Topic::Account(8));
        assert!(
            !seven.has_changed().unwrap_or(true),
            "another account's news"
        );
        assert!(eight.has_changed().unwrap_or(false));
        eight.mark_unchanged();
        // A notice from another replica names its account; "everything" wakes every account.
        hub.hear(cardroom_db::notify::Notice::Account(7));
        assert!(seven.has_changed().unwrap_or(false));
        assert!(!eight.has_changed().unwrap_or(true));
        seven.mark_unchanged();
        hub.hear(cardroom_db::notify::Notice::Everything);
        assert!(seven.has_changed().unwrap_or(false));
        assert!(eight.has_changed().unwrap_or(false));
        drop(seven);
        assert_eq!(hub.followed().accounts, vec![8]);
    }

    #[test]
    fn a_tournament_s_change_wakes_its_followers_and_the_lobby_only() {
        let hub = Hub::default();
        let mut seven = hub.follow(Topic::Tournament(7));
        let mut eight = hub.follow(Topic::Tournament(8));
        let mut lobby = hub.follow(Topic::Lobby);
        hub.publish(Topic::Tournament(8));
        assert!(
            !seven.has_changed().unwrap_or(true),
            "another tournament's change"
        );
        assert!(eight.has_changed().unwrap_or(false));
        assert!(lobby.has_changed().unwrap_or(false));
        eight.mark_unchanged();
        lobby.mark_unchanged();
        // Everything (notices were missed): every follower looks again.
        hub.publish_everything();
        assert!(seven.has_changed().unwrap_or(false));
        assert!(eight.has_changed().unwrap_or(false));
        assert!(lobby.has_changed().unwrap_or(false));
        seven.mark_unchanged();
        eight.mark_unchanged();
        // A notice from another replica names its tournament.
        hub.hear(cardroom_db::notify::Notice::Tournament(7));
        assert!(seven.has_changed().unwrap_or(false));
        assert!(!eight.has_changed().unwrap_or(true));
    }
}
