//! The safety net under the change notices: one task a process that, every recheck
//! (`CARDROOM_RECHECK_MS`), reads what tells a change of every game followed on this process
//! (its version and newest chat row, in one statement for all of them), who is at their
//! tables (every [`crate::presence::refresh_every`], all in one read, and at once for a game
//! newly followed), every lobby listing followed, the newest event of every account whose
//! stream is open here (one statement for them all), and what every followed tournament's page
//! is built from (four statements a tournament); and wakes the followers of what changed.
//!
//! A notice can be missed: the listening connection was down for a moment, processes sharing
//! one SQLite file send none to each other, and a process that dies stops counting as
//! connected when its presence rows age out, which nobody announces. Then this is how the news
//! arrives, within a recheck. It costs the process one statement a recheck for all the games
//! its streams follow and one for all the accounts, one read a listing and one a tournament,
//! and one read of every table's presence each quarter presence window — however many streams
//! follow them: the streams themselves wait for news only (and, each, for its caller's next
//! check: `streams::wait::check_again`).

use std::collections::HashMap;
use std::hash::Hash;

use actix_web::web;
use cardroom_db::games::Mark;
use cardroom_db::{AnyConnection, GameId};
use tokio::time::Instant;

use crate::error::ApiError;
use crate::feeds;
use crate::hub::Topic;
use crate::model::PresenceOut;
use crate::play::tournaments::TournamentMark;
use crate::shared::LobbyKey;
use crate::state::AppState;

/// Runs the safety net until the process stops.
pub async fn watch(state: web::Data<AppState>) {
    let mut net = Net::default();
    loop {
        let stopping = state.hub.stopping();
        tokio::pin!(stopping);
        stopping.as_mut().enable();
        if state.hub.is_shutting_down() {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(state.hub.recheck()) => {}
            () = &mut stopping => return,
        }
        net.round(&state).await;
    }
}

/// What the safety net saw at its last round.
#[derive(Debug, Default)]
pub struct Net {
    /// Each followed game's mark.
    games: HashMap<GameId, Mark>,
    /// Who was at each followed game's table.
    presence: HashMap<GameId, PresenceOut>,
    /// When every table's presence was last read.
    presence_read: Option<Instant>,
    /// Each followed lobby listing, as identified apart from the time its tables waited.
    lobbies: HashMap<LobbyKey, String>,
    /// Each followed account's newest event (0 for none).
    accounts: HashMap<i64, i64>,
    /// Each followed tournament as its page is built (none once it is gone).
    tournaments: HashMap<i64, Option<TournamentMark>>,
}

impl Net {
    /// One round: reads what is followed, and wakes the followers of what changed since the
    /// last round — and of what is followed for the first time (a change between a follower's
    /// first look and this read would otherwise go unseen).
    pub async fn round(&mut self, state: &web::Data<AppState>) {
        let followed = state.hub.followed();
        let mut changed = self.games_changed(state, &followed.games).await;
        changed.extend(self.presence_changed(state, &followed.games).await);
        changed.sort_unstable();
        changed.dedup();
        for id in changed {
            state.hub.nudge(Topic::Game(id));
        }
        if self.lobbies_changed(state).await {
            state.hub.nudge(Topic::Lobby);
        }
        for id in self.accounts_changed(state, followed.accounts).await {
            state.hub.nudge(Topic::Account(id));
        }
        for id in self.tournaments_changed(state, followed.tournaments).await {
            state.hub.nudge(Topic::Tournament(id));
        }
    }

    /// The followed tournaments whose page would show something new, or that were not followed
    /// at the last round.
    async fn tournaments_changed(
        &mut self,
        state: &web::Data<AppState>,
        followed: Vec<i64>,
    ) -> Vec<i64> {
        marks_changed(state, &mut self.tournaments, followed, |conn, ids| {
            crate::play::tournaments::marks(conn, ids)
        })
        .await
    }

    /// The followed accounts whose newest event changed, or that were not followed at the last
    /// round.
    async fn accounts_changed(
        &mut self,
        state: &web::Data<AppState>,
        followed: Vec<i64>,
    ) -> Vec<i64> {
        marks_changed(state, &mut self.accounts, followed, |conn, ids| {
            // (An account with no event yet: 0.)
            let mut newest: HashMap<i64, i64> = ids.iter().map(|&id| (id, 0)).collect();
            newest.extend(cardroom_db::account_events::newest_of(conn, ids)?);
            Ok(newest.into_iter().collect())
        })
        .await
    }

    /// The followed games whose mark changed, or that were not followed at the last round.
    async fn games_changed(
        &mut self,
        state: &web::Data<AppState>,
        followed: &[GameId],
    ) -> Vec<GameId> {
        marks_changed(state, &mut self.games, followed.to_vec(), |conn, ids| {
            Ok(cardroom_db::games::marks(conn, ids)?)
        })
        .await
    }

    /// The followed games whose presence changed. Every table is read every
    /// [`crate::presence::refresh_every`], all in one read; one newly followed is read at once
    /// (for what it shows now, which its followers read again when they are woken as new).
    async fn presence_changed(
        &mut self,
        state: &web::Data<AppState>,
        followed: &[GameId],
    ) -> Vec<GameId> {
        let due = self
            .presence_read
            .is_none_or(|at| at.elapsed() >= crate::presence::refresh_every());
        let mut kept = HashMap::with_capacity(followed.len());
        let mut wanted = Vec::new();
        for &id in followed {
            match self.presence.remove(&id) {
                Some(seen) if !due => {
                    kept.insert(id, seen);
                }
                seen => {
                    kept.extend(seen.map(|seen| (id, seen)));
                    wanted.push(id);
                }
            }
        }
        let mut changed = Vec::new();
        if !wanted.is_empty() {
            let ids = wanted.clone();
            let read = feeds::read_for_followers(state, move |conn, _| {
                crate::play::presence_at(conn, &ids)
            })
            .await;
            // (The database is away: what was seen is kept, and the next round reads again.)
            if let Ok(now) = read {
                if due {
                    self.presence_read = Some(Instant::now());
                }
                for (id, now) in now {
                    if kept.get(&id).is_some_and(|seen| *seen != now) {
                        changed.push(id);
                    }
                    kept.insert(id, now);
                }
            }
        }
        self.presence = kept;
        changed
    }

    /// Whether a followed lobby listing changed since the last round, or is followed for the
    /// first time.
    async fn lobbies_changed(&mut self, state: &web::Data<AppState>) -> bool {
        let mut kept = HashMap::new();
        let mut changed = false;
        for (key, shared) in state.feeds.followed_lobbies() {
            let seen = self.lobbies.remove(&key);
            match feeds::lobby(state, &shared, &key.query, Instant::now()).await {
                Ok(read) => {
                    changed |= seen.as_ref() != Some(&read.value.signature);
                    kept.insert(key, read.value.signature.clone());
                }
                Err(_) => kept.extend(seen.map(|seen| (key, seen))),
            }
        }
        self.lobbies = kept;
        changed
    }
}

/// The keys of `followed` whose mark, as `read` gives them all in one go, differs from what was
/// `seen` at the last round (or that are new there); `seen` becomes what was read. Nothing is
/// read when nothing is followed; when the read fails (the database is away), what was seen is
/// kept and the next round reads again.
async fn marks_changed<K, V>(
    state: &web::Data<AppState>,
    seen: &mut HashMap<K, V>,
    followed: Vec<K>,
    read: impl FnOnce(&mut AnyConnection, &[K]) -> Result<Vec<(K, V)>, ApiError> + Send + 'static,
) -> Vec<K>
where
    K: Hash + Eq + Copy + Send + 'static,
    V: PartialEq + Send + 'static,
{
    if followed.is_empty() {
        seen.clear();
        return Vec::new();
    }
    // (One try: when the database is away, the next round reads again.)
    state
        .metrics
        .stream_reads
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let read = crate::blocking::run(state, move |conn, _| read(conn, &followed)).await;
    match read {
        Ok(now) => replace_seen(seen, now.into_iter().collect()),
        Err(_) => Vec::new(),
    }
}

/// Replaces what was `seen` with what is seen `now`; the keys whose value changed or that are
/// new (a change between a follower's first look and the first read here would otherwise go
/// unseen).
fn replace_seen<K: Hash + Eq + Copy, V: PartialEq>(
    seen: &mut HashMap<K, V>,
    now: HashMap<K, V>,
) -> Vec<K> {
    let changed = now
        .iter()
        .filter(|&(key, value)| seen.get(key) != Some(value))
        .map(|(&key, _)| key)
        .collect();
    *seen = now;
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_changed_or_is_new_is_news_and_what_left_is_forgotten() {
        let mut seen = HashMap::from([(1, "a"), (2, "b"), (3, "c")]);
        let mut changed = replace_seen(&mut seen, HashMap::from([(1, "a"), (2, "B"), (4, "d")]));
        changed.sort_unstable();
        assert_eq!(changed, vec![2, 4]);
        assert_eq!(seen, HashMap::from([(1, "a"), (2, "B"), (4, "d")]));
        assert!(replace_seen(&mut seen, HashMap::from([(1, "a"), (2, "B"), (4, "d")])).is_empty());
    }
}
