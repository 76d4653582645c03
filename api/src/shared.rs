//! Reads shared by everyone on this process who follows the same thing: a game's recent log,
//! who is at its table, a lobby listing. A thousand people watching one table cost one read of
//! the database per change, not a thousand: the first follower that needs a fresher read makes
//! it, those who ask meanwhile wait for it, and each takes from it what its seat may see.
//!
//! A read is fresh enough for a follower when it *began* after the follower learnt of the
//! change (the notice's time): it then sees the change, whoever started it. This module holds
//! the shared reads; [`crate::feeds`] makes them.

use cardroom_db::GameId;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

use cardroom_core::Viewer;
use cardroom_db::GameStatus;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::error::ApiError;
use crate::events::visible;
use crate::model::{EventOut, LobbyQuery, PresenceOut};

/// One shared read: when it began, and what it found.
#[derive(Debug)]
pub struct Read<T> {
    pub began: Instant,
    pub value: T,
}

/// The latest read of one thing, behind the lock that makes a new read happen once for
/// everyone who needs it.
#[derive(Debug)]
pub struct Shared<T> {
    latest: tokio::sync::Mutex<Option<Arc<Read<T>>>>,
}

impl<T> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared {
            latest: tokio::sync::Mutex::new(None),
        }
    }
}

impl<T> Shared<T> {
    /// A read begun no earlier than `not_before` that `fits` the caller: the latest one if it
    /// is, otherwise a new one by `read` (handed the latest, to build on), which whoever asks
    /// meanwhile waits for and shares. A failed read is not kept.
    pub async fn get<F, Fut>(
        &self,
        not_before: Instant,
        fits: impl Fn(&T) -> bool,
        read: F,
    ) -> Result<Arc<Read<T>>, ApiError>
    where
        F: FnOnce(Option<Arc<Read<T>>>) -> Fut,
        Fut: Future<Output = Result<T, ApiError>>,
    {
        let mut latest = self.latest.lock().await;
        if let Some(kept) = latest.as_ref()
            && kept.began >= not_before
            && fits(&kept.value)
        {
            return Ok(kept.clone());
        }
        let began = Instant::now();
        let value = read(latest.clone()).await?;
        let fresh = Arc::new(Read { began, value });
        *latest = Some(fresh.clone());
        Ok(fresh)
    }
}

/// The shared reads of one kind, by what they read. A follower holds its entry while it
/// follows; entries nobody holds are forgotten as the map grows.
#[derive(Debug)]
struct Registry<K, T> {
    entries: Mutex<Entries<K, T>>,
}

#[derive(Debug)]
struct Entries<K, T> {
    map: HashMap<K, Arc<Shared<T>>>,
    /// The size at which entries nobody holds are next forgotten.
    prune_at: usize,
}

/// Below this many entries a registry forgets nothing.
const KEEP_ENTRIES: usize = 256;

impl<K: Eq + Hash, T> Default for Registry<K, T> {
    fn default() -> Registry<K, T> {
        Registry {
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                prune_at: KEEP_ENTRIES,
            }),
        }
    }
}

impl<K: Eq + Hash, T> Registry<K, T> {
    fn entry(&self, key: K) -> Arc<Shared<T>> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(shared) = entries.map.get(&key) {
            return shared.clone();
        }
        if entries.map.len() >= entries.prune_at {
            entries
                .map
                .retain(|_, shared| Arc::strong_count(shared) > 1);
            entries.prune_at = (entries.map.len() * 2).max(KEEP_ENTRIES);
        }
        let shared = Arc::new(Shared::default());
        entries.map.insert(key, shared.clone());
        shared
    }

    /// The entries somebody holds now, with their keys.
    fn held(&self) -> Vec<(K, Arc<Shared<T>>)>
    where
        K: Clone,
    {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .iter()
            .filter(|(_, shared)| Arc::strong_count(shared) > 1)
            .map(|(key, shared)| (key.clone(), shared.clone()))
            .collect()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }
}

/// A game's log as followers read it: its version and status, the newest chat row's id, and
/// every log entry after `floor` up to the version.
#[derive(Debug)]
pub struct GameLog {
    pub version: i64,
    pub status: GameStatus,
    /// The id of the game's newest chat row (0 for none): a follower whose chat cursor is
    /// there has no chat to read.
    pub chat_newest: i64,
    /// The entries cover every version after this one.
    pub floor: i64,
    /// `(version, stored events)`, oldest first.
    pub entries: Vec<Entry>,
    /// Entries as one viewer sees them, encoded once for all the followers with that view
    /// (a thousand spectators of a table share one encoding of each version).
    pub encoded: Mutex<HashMap<(i64, Viewer), EncodedEntry>>,
}

/// A log entry: its version and its stored events.
pub type Entry = Arc<(i64, String)>;

/// A log entry's events as one viewer sees them, encoded.
pub type EncodedEntry = Arc<[Encoded]>;

/// A game event ready to send: its version, its type, and `{version, event}` as JSON.
#[derive(Debug)]
pub struct Encoded {
    pub version: i64,
    pub kind: Option<String>,
    pub json: String,
}

impl Encoded {
    /// `event` encoded.
    pub fn new(event: &EventOut) -> Result<Encoded, ApiError> {
        Ok(Encoded {
            version: event.version,
            kind: event
                .event
                .get("type")
                .and_then(|t| t.as_str())
                .map(str::to_owned),
            json: serde_json::to_string(event).map_err(ApiError::because("event encoding"))?,
        })
    }
}

/// The most log entries a shared read keeps: a follower further behind reads its own pages.
pub const MAX_ENTRIES: i64 = 2000;

impl GameLog {
    /// The events after `after` that `viewer` may see, at most `page` entries of them, and the
    /// version they bring the follower to; none when the entries do not reach back that far.
    pub fn after(
        &self,
        after: i64,
        viewer: Viewer,
        page: usize,
    ) -> Result<Option<(Vec<EventOut>, i64)>, ApiError> {
        let Some((taken, version)) = self.range(after, page) else {
            return Ok(None);
        };
        let mut events = Vec::new();
        for entry in taken {
            events.extend(visible(&entry.1, viewer, entry.0)?);
        }
        Ok(Some((events, version)))
    }

    /// [`GameLog::after`], encoded: each entry's events as `viewer` sees them, encoded by the
    /// first follower with that view and shared with the others.
    pub fn encoded_after(
        &self,
        after: i64,
        viewer: Viewer,
        page: usize,
    ) -> Result<Option<(Vec<EncodedEntry>, i64)>, ApiError> {
        let Some((taken, version)) = self.range(after, page) else {
            return Ok(None);
        };
        let mut encoded = self.encoded.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = Vec::with_capacity(taken.len());
        for entry in taken {
            let key = (entry.0, viewer);
            if let Some(kept) = encoded.get(&key) {
                out.push(kept.clone());
                continue;
            }
            let events: EncodedEntry = visible(&entry.1, viewer, entry.0)?
                .iter()
                .map(Encoded::new)
                .collect::<Result<_, _>>()?;
            encoded.insert(key, events.clone());
            out.push(events);
        }
        Ok(Some((out, version)))
    }

    /// The entries after `after`, at most `page` of them, and the version they bring a
    /// follower to; none when the entries do not reach back that far.
    fn range(&self, after: i64, page: usize) -> Option<(&[Entry], i64)> {
        if after < self.floor {
            return None;
        }
        let first = self.entries.partition_point(|entry| entry.0 <= after);
        let taken = &self.entries[first..];
        Some(if taken.len() > page {
            let taken = &taken[..page];
            (taken, taken.last().map_or(after, |entry| entry.0))
        } else {
            (taken, self.version.max(after))
        })
    }
}

/// A lobby listing as its streams send it: the JSON, and what identifies it apart from the
/// seconds each table has waited.
#[derive(Debug)]
pub struct Listing {
    pub json: String,
    pub signature: String,
}

/// A lobby listing's query, as the key of its shared read: two queries that ask for the same
/// listing share it.
#[derive(Debug, Clone)]
pub struct LobbyKey {
    key: String,
    pub query: LobbyQuery,
}

impl LobbyKey {
    fn new(query: &LobbyQuery) -> LobbyKey {
        LobbyKey {
            key: format!(
                "{:?}/{:?}/{:?}/{:?}",
                query.kind, query.variant, query.page, query.per_page
            ),
            query: query.clone(),
        }
    }
}

impl PartialEq for LobbyKey {
    fn eq(&self, other: &LobbyKey) -> bool {
        self.key == other.key
    }
}

impl Eq for LobbyKey {}

impl Hash for LobbyKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

/// The process's shared reads.
#[derive(Debug, Default)]
pub struct Feeds {
    games: Registry<GameId, GameLog>,
    presence: Registry<GameId, PresenceOut>,
    lobbies: Registry<LobbyKey, Listing>,
    /// For each lobby listing followed on this process, when the read began that found it
    /// changed: its followers wait on this, not on every game's change (one pump a listing
    /// reads it then, [`crate::streams`]).
    lobby_news: Mutex<HashMap<LobbyKey, Arc<watch::Sender<Instant>>>>,
}

/// A lobby listing's news, as a follower takes it: the channel to wait on, and — for the
/// first follower — the sender, which the listing's pump is to hold.
#[derive(Debug)]
pub struct LobbyNews {
    pub key: LobbyKey,
    pub news: watch::Receiver<Instant>,
    pub start_pump: Option<Arc<watch::Sender<Instant>>>,
}

impl Feeds {
    /// Game `id`'s shared log, for a follower to hold while it follows.
    pub fn game(&self, id: GameId) -> Arc<Shared<GameLog>> {
        self.games.entry(id)
    }

    /// Game `id`'s shared presence.
    pub fn presence(&self, id: GameId) -> Arc<Shared<PresenceOut>> {
        self.presence.entry(id)
    }

    /// The shared lobby listing for `query`.
    pub fn lobby(&self, query: &LobbyQuery) -> Arc<Shared<Listing>> {
        self.lobbies.entry(LobbyKey::new(query))
    }

    /// The news of the lobby listing for `query`, to follow it; with the sender when nobody
    /// followed it until now (then the caller starts its pump).
    pub fn follow_lobby(&self, query: &LobbyQuery) -> LobbyNews {
        let key = LobbyKey::new(query);
        let mut news = self
            .lobby_news
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(sender) = news.get(&key) {
            return LobbyNews {
                news: sender.subscribe(),
                key,
                start_pump: None,
            };
        }
        let (sender, receiver) = watch::channel(Instant::now());
        let sender = Arc::new(sender);
        news.insert(key.clone(), sender.clone());
        LobbyNews {
            key,
            news: receiver,
            start_pump: Some(sender),
        }
    }

    /// Whether the pump of the listing `key` may stop: nobody follows it any more (then its
    /// channel is forgotten, and the next follower starts a new pump).
    pub fn unfollowed_lobby(&self, key: &LobbyKey, sender: &watch::Sender<Instant>) -> bool {
        let mut news = self
            .lobby_news
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if sender.receiver_count() > 0 {
            return false;
        }
        if news
            .get(key)
            .is_some_and(|kept| std::ptr::eq(Arc::as_ptr(kept), sender))
        {
            news.remove(key);
        }
        true
    }

    /// The lobby listings somebody on this process follows now, with their queries.
    pub fn followed_lobbies(&self) -> Vec<(LobbyKey, Arc<Shared<Listing>>)> {
        self.lobbies.held()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn followers_who_ask_together_share_one_read() {
        let shared = Arc::new(Shared::<u32>::default());
        let reads = Arc::new(AtomicUsize::new(0));
        let noticed = Instant::now();
        let mut followers = Vec::new();
        for _ in 0..50 {
            let shared = shared.clone();
            let reads = reads.clone();
            followers.push(tokio::spawn(async move {
                shared
                    .get(
                        noticed,
                        |_| true,
                        |_| async move {
                            reads.fetch_add(1, Ordering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(20)).await;
                            Ok(7)
                        },
                    )
                    .await
                    .map(|read| read.value)
            }));
        }
        for follower in followers {
            assert_eq!(follower.await.ok().and_then(Result::ok), Some(7));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_read_begun_before_the_notice_is_not_fresh_enough_nor_one_that_does_not_fit() {
        let shared = Shared::<u32>::default();
        let first = shared
            .get(Instant::now(), |_| true, |_| async { Ok(1) })
            .await;
        assert_eq!(first.map(|r| r.value).ok(), Some(1));
        // A notice after that read: the next follower reads again, building on the last read.
        tokio::time::sleep(Duration::from_millis(2)).await;
        let noticed = Instant::now();
        let second = shared
            .get(
                noticed,
                |_| true,
                |latest| async move { Ok(latest.map_or(0, |r| r.value) + 1) },
            )
            .await;
        assert_eq!(second.map(|r| r.value).ok(), Some(2));
        // Fresh enough, but not what this follower needs.
        let third = shared
            .get(
                noticed,
                |&v| v >= 3,
                |latest| async move { Ok(latest.map_or(0, |r| r.value) + 1) },
            )
            .await;
        assert_eq!(third.map(|r| r.value).ok(), Some(3));
        // A failed read is not kept: the next one reads again.
        let failed = shared
            .get(
                Instant::now(),
                |_| true,
                |_| async { Err(ApiError::Unavailable) },
            )
            .await;
        assert!(failed.is_err());
        let after = shared.get(noticed, |_| true, |_| async { Ok(9) }).await;
        assert_eq!(after.map(|r| r.value).ok(), Some(3));
    }

    #[test]
    fn entries_nobody_holds_are_forgotten_as_the_registry_grows() {
        let registry = Registry::<i64, u32>::default();
        let held: Vec<_> = (0..10).map(|id| registry.entry(id)).collect();
        for id in 10..KEEP_ENTRIES as i64 + 50 {
            drop(registry.entry(id));
        }
        assert!(registry.len() < KEEP_ENTRIES, "{}", registry.len());
        for (id, shared) in held.iter().enumerate() {
            assert!(Arc::ptr_eq(shared, &registry.entry(id as i64)));
        }
        // Those held are what is followed, whatever else is still kept.
        let mut followed: Vec<i64> = registry.held().into_iter().map(|(id, _)| id).collect();
        followed.sort_unstable();
        assert_eq!(followed, (0..10).collect::<Vec<_>>());
    }

    fn log(floor: i64, version: i64) -> GameLog {
        GameLog {
            version,
            status: GameStatus::Active,
            chat_newest: 0,
            floor,
            encoded: Mutex::default(),
            entries: ((floor + 1)..=version)
                .map(|v| {
                    Arc::new((
                        v,
                        format!(r#"[{{"to":"everyone","event":{{"type":"e","n":{v}}}}}]"#),
                    ))
                })
                .collect(),
        }
    }

    #[test]
    fn a_follower_takes_the_entries_after_its_version_in_pages_and_none_below_the_floor() {
        let log = log(3, 10);
        assert!(matches!(log.after(2, Viewer::Spectator, 100), Ok(None)));
        let (events, version) = log
            .after(5, Viewer::Spectator, 100)
            .ok()
            .flatten()
            .unwrap_or_default();
        assert_eq!(version, 10);
        let seen: Vec<i64> = events.iter().map(|e| e.version).collect();
        assert_eq!(seen, vec![6, 7, 8, 9, 10]);
        let (events, version) = log
            .after(3, Viewer::Spectator, 4)
            .ok()
            .flatten()
            .unwrap_or_default();
        assert_eq!(version, 7);
        assert_eq!(events.len(), 4);
        let (events, version) = log
            .after(10, Viewer::Spectator, 4)
            .ok()
            .flatten()
            .unwrap_or_default();
        assert_eq!((events.len(), version), (0, 10));
    }

    #[test]
    fn encoded_events_are_each_views_own_and_shared_by_that_view() {
        use cardroom_core::{Audience, Seat};
        let mut log = log(0, 2);
        // Version 3 deals a card to seat 0 alone, and tells everyone of the deal.
        let stored = serde_json::json!([
            {"to": Audience::Seat(Seat::new(0)), "event": {"type": "dealt", "card": "AS"}},
            {"to": Audience::Everyone, "event": {"type": "deal", "cards": 1}},
        ]);
        log.entries.push(Arc::new((3, stored.to_string())));
        log.version = 3;
        for viewer in [
            Viewer::Seat(Seat::new(0)),
            Viewer::Seat(Seat::new(1)),
            Viewer::Spectator,
        ] {
            // The same events as decoded, as the stream used to encode them one by one.
            let (decoded, version) = log.after(1, viewer, 100).ok().flatten().unwrap();
            let (encoded, same) = log.encoded_after(1, viewer, 100).ok().flatten().unwrap();
            assert_eq!(version, same);
            let flat: Vec<&Encoded> = encoded.iter().flat_map(|e| e.iter()).collect();
            assert_eq!(flat.len(), decoded.len(), "{viewer:?}");
            for (encoded, decoded) in flat.iter().zip(&decoded) {
                assert_eq!(encoded.json, serde_json::to_string(decoded).unwrap());
                assert_eq!(encoded.version, decoded.version);
                assert_eq!(encoded.kind.as_deref(), decoded.event["type"].as_str());
            }
            let sees_card = flat.iter().any(|e| e.json.contains("AS"));
            assert_eq!(
                sees_card,
                viewer == Viewer::Seat(Seat::new(0)),
                "{viewer:?}"
            );
            // A second follower with the same view takes the same encoding.
            let (again, _) = log.encoded_after(1, viewer, 100).ok().flatten().unwrap();
            assert!(again.iter().zip(&encoded).all(|(a, b)| Arc::ptr_eq(a, b)));
        }
    }
}
