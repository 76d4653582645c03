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

/// Channels of one kind of thing (games, tournaments): one for each someone on this process
/// follows.
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

    /// Game `id` changed (or, with `None`, anything may have).
    pub fn publish(&self, id: Option<GameId>) {
        let now = Instant::now();
        self.games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(id, now);
        self.any_game.send_replace(now);
    }

    /// Game `id` may have changed (the safety net saw it): its followers look again, and
    /// nobody else.
    pub fn nudge(&self, id: GameId) {
        self.games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(Some(id), Instant::now());
    }

    /// Some game may have changed (the safety net saw a lobby listing change): those who
    /// follow every game look again, and nobody else.
    pub fn nudge_every_game(&self) {
        self.any_game.send_replace(Instant::now());
    }

    /// The games somebody on this process follows now.
    pub fn followed_games(&self) -> Vec<GameId> {
        self.games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .followed()
    }

    /// The changes of game `id` (with `None`, of every game), from now on.
    pub fn changes(&self, id: Option<GameId>) -> watch::Receiver<Instant> {
        let Some(id) = id else {
            return self.any_game.subscribe();
        };
        self.games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .subscribe(id)
    }

    /// Tournament `id` changed (with `None`, any may have): its followers and the lobby's look
    /// again — not the followers of other tournaments.
    pub fn publish_tournament(&self, id: Option<i64>) {
        let now = Instant::now();
        self.tournaments
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(id, now);
        self.any_game.send_replace(now);
    }

    /// Tournament `id`'s changes, from now on.
    pub fn tournament_changes(&self, id: i64) -> watch::Receiver<Instant> {
        self.tournaments
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .subscribe(id)
    }

    /// Tournament `id` may have changed (the safety net saw it): its followers look again.
    pub fn nudge_tournament(&self, id: i64) {
        self.tournaments
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(Some(id), Instant::now());
    }

    /// The tournaments somebody on this process follows now (their stream).
    pub fn followed_tournaments(&self) -> Vec<i64> {
        self.tournaments
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .followed()
    }

    /// Account `id` has new events (with `None`, every account may have).
    pub fn publish_account(&self, id: Option<i64>) {
        self.accounts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(id, Instant::now());
    }

    /// Account `id`'s news, from now on.
    pub fn account_changes(&self, id: i64) -> watch::Receiver<Instant> {
        self.accounts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .subscribe(id)
    }

    /// The accounts somebody on this process follows now (their account stream).
    pub fn followed_accounts(&self) -> Vec<i64> {
        self.accounts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .followed()
    }

    /// A notice from the database's channel (any replica's change).
    pub fn hear(&self, notice: cardroom_db::notify::Notice) {
        use cardroom_db::notify::Notice;
        match notice {
            Notice::Game(id) => self.publish(Some(id)),
            Notice::Account(id) => self.publish_account(Some(id)),
            Notice::Tournament(id) => self.publish_tournament(Some(id)),
            Notice::Everything => {
                self.publish(None);
                self.publish_tournament(None);
                self.publish_account(None);
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

    #[test]
    fn a_nudge_wakes_its_game_s_followers_only_and_followed_games_are_those_with_followers() {
        let hub = Hub::default();
        let one = hub.changes(Some(GameId::new(1)));
        let mut two = hub.changes(Some(GameId::new(2)));
        drop(hub.changes(Some(GameId::new(3))));
        let mut every = hub.changes(None);
        let mut followed = hub.followed_games();
        followed.sort_unstable();
        assert_eq!(followed, vec![GameId::new(1), GameId::new(2)]);
        hub.nudge(GameId::new(2));
        assert!(!one.has_changed().unwrap_or(true));
        assert!(two.has_changed().unwrap_or(false));
        assert!(
            !every.has_changed().unwrap_or(true),
            "a nudge is not news of every game"
        );
        two.mark_unchanged();
        hub.nudge_every_game();
        assert!(every.has_changed().unwrap_or(false));
        assert!(!one.has_changed().unwrap_or(true));
        assert!(!two.has_changed().unwrap_or(true));
        every.mark_unchanged();
        drop(one);
        assert_eq!(hub.followed_games(), vec![GameId::new(2)]);
    }

    #[test]
    fn an_account_s_news_wakes_its_followers_and_news_of_every_account_wakes_them_all() {
        let hub = Hub::default();
        let mut seven = hub.account_changes(7);
        let mut eight = hub.account_changes(8);
        assert_eq!(
            {
                let mut followed = hub.followed_accounts();
                followed.sort_unstable();
                followed
            },
            vec![7, 8]
        );
        hub.publish_account(Some(8));
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
        assert_eq!(hub.followed_accounts(), vec![8]);
    }

    #[test]
    fn a_tournament_s_change_wakes_its_followers_and_the_lobby_only() {
        let hub = Hub::default();
        let mut seven = hub.tournament_changes(7);
        let mut eight = hub.tournament_changes(8);
        let mut lobby = hub.changes(None);
        hub.publish_tournament(Some(8));
        assert!(
            !seven.has_changed().unwrap_or(true),
            "another tournament's change"
        );
        assert!(eight.has_changed().unwrap_or(false));
        assert!(lobby.has_changed().unwrap_or(false));
        eight.mark_unchanged();
        lobby.mark_unchanged();
        // Everything (notices were missed): every follower looks again.
        hub.publish_tournament(None);
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
