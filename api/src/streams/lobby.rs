//! Finding a game, live: the lobby as Server-Sent Events, and a quick-match seek's long-poll.

use std::time::Duration;

use actix_web::web;
use actix_web_lab::sse;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::auth::Caller;
use crate::blocking::run;
use crate::error::ApiError;
use crate::feeds;
use crate::hub::Topic;
use crate::model::LobbyQuery;
use crate::play;
use crate::shared::{Listing, LobbyKey, Read, Shared};
use crate::state::AppState;

use super::queue::{SLOW_READER, queue, sse_response};
use super::slot::StreamSlot;
use super::wait::{next_look, wait_for_news, wait_for_notice};

/// How often a waiting seek's long-poll tries the pairing again.
const PAIR_EVERY: Duration = Duration::from_millis(1000);

/// `GET /seeks/{id}` with `wait`: answers when the seek is no longer open or `wait` passes,
/// looking again at every notice (a seek matched elsewhere makes a game, and so a notice) and
/// trying the pairing again every `PAIR_EVERY`.
pub async fn seek_long_poll(
    state: web::Data<AppState>,
    caller: Caller,
    id: i64,
    wait: Duration,
) -> Result<crate::model::Seek, ApiError> {
    let mut changes = state.hub.follow(Topic::Lobby);
    let deadline = Instant::now() + wait;
    let mut paired_at: Option<Instant> = None;
    loop {
        let now = Instant::now();
        let pair = paired_at.is_none_or(|at| now >= at + PAIR_EVERY);
        if pair {
            paired_at = Some(now);
        }
        let asker = caller.clone();
        let seek = run(&state, move |conn, state| {
            play::seeks::look(conn, &asker, id, pair, &state.metrics)
        })
        .await?;
        let now = Instant::now();
        if seek.status != cardroom_db::seeks::SeekStatus::Open
            || now >= deadline
            || state.hub.is_shutting_down()
        {
            if let Some(game) = seek.game_id {
                state
                    .hub
                    .publish(Topic::Game(cardroom_db::GameId::new(game)));
            }
            return Ok(seek);
        }
        let left = (deadline - now).min(PAIR_EVERY);
        if wait_for_news(&state.hub, &mut changes, left)
            .await
            .is_none()
            && state.hub.is_shutting_down()
        {
            return Ok(seek);
        }
    }
}

/// The least time between two reads of a lobby listing by its pump: a busy room changes many
/// times a second, and a listing is read (and sent) at most this often.
const LOBBY_EVERY: Duration = Duration::from_millis(250);

/// The lobby as Server-Sent Events: `event: lobby` with the listing (as `GET /lobby` answers
/// it) at once and again whenever it changes — a table opened, joined, filled or closed on any
/// replica — at most every `LOBBY_EVERY`; heartbeats; closed when the process stops. Every
/// lobby stream of the same listing on this process shares its reads, and wakes only when the
/// listing changed: one pump a listing reads it at any game's change (`pump`, below).
pub fn lobby_stream(
    state: web::Data<AppState>,
    query: LobbyQuery,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, None)?;
    let (outbox, inbox) = queue(SLOW_READER);
    let response = sse_response(state.settings.heartbeat, inbox);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let listing = state.feeds.lobby(&query);
        let followed = state.feeds.follow_lobby(&query);
        if let Some(sender) = followed.start_pump {
            actix_web::rt::spawn(pump(state.clone(), followed.key, listing.clone(), sender));
        }
        let mut news = followed.news;
        let mut not_before = *news.borrow_and_update();
        let mut sent: Option<std::sync::Arc<Read<Listing>>> = None;
        loop {
            // (The pump's read, unless this stream came before its first.)
            let read = feeds::lobby(&state, &listing, &query, not_before).await;
            // (A failed read is tried again after the recheck; otherwise only the pump's news
            // wakes the stream.)
            let limit = read.is_err().then(|| state.hub.recheck());
            if let Ok(read) = read
                && sent
                    .as_ref()
                    .is_none_or(|sent| sent.value.signature != read.value.signature)
            {
                let data = sse::Data::new(read.value.json.clone()).event("lobby");
                if outbox.send(vec![sse::Event::Data(data)]).await.is_err() {
                    return;
                }
                sent = Some(read);
            }
            match next_look(&state.hub, &mut news, &outbox, limit).await {
                Some(at) => not_before = at,
                None => return,
            }
        }
    });
    Ok(response)
}

/// A lobby listing's pump, while anyone on this process follows it: reads the listing whenever
/// any game or tournament may have changed (a notice, or the safety net's nudge when it saw the
/// listing change), at most every `LOBBY_EVERY`, and tells the followers only when what it
/// lists changed — so a move in some game wakes one task a listing, not every lobby stream.
async fn pump(
    state: web::Data<AppState>,
    key: LobbyKey,
    listing: std::sync::Arc<Shared<Listing>>,
    news: std::sync::Arc<watch::Sender<Instant>>,
) {
    let mut changes = state.hub.follow(Topic::Lobby);
    let mut signature: Option<String> = None;
    let mut not_before = Instant::now();
    loop {
        let looked = Instant::now();
        let read = feeds::lobby(&state, &listing, &key.query, not_before).await;
        let limit = read.is_err().then(|| state.hub.recheck());
        if let Ok(read) = read
            && signature.as_deref() != Some(read.value.signature.as_str())
        {
            signature = Some(read.value.signature.clone());
            news.send_replace(read.began);
        }
        tokio::select! {
            woke = wait_for_notice(&state.hub, &mut changes, limit) => match woke {
                Some((at, _)) => not_before = at,
                None => return,
            },
            () = news.closed() => {
                if state.feeds.unfollowed_lobby(&key, &news) {
                    return;
                }
                // (Someone came to follow it meanwhile: a new follower reads for itself.)
                continue;
            }
        }
        tokio::time::sleep_until(looked + LOBBY_EVERY).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lobby_listing_has_one_pump_while_anyone_follows_it() {
        let feeds = crate::shared::Feeds::default();
        let query = LobbyQuery {
            kind: None,
            variant: None,
            page: None,
            per_page: None,
        };
        // Two streams open at once: the first starts the pump, the second follows it.
        let first = feeds.follow_lobby(&query);
        let second = feeds.follow_lobby(&query);
        let pump = first
            .start_pump
            .clone()
            .expect("the first follower starts the pump");
        assert!(second.start_pump.is_none());
        // Another listing has a pump of its own.
        let rummy = LobbyQuery {
            kind: Some(cardroom_core::GameKind::Rummy),
            ..query.clone()
        };
        assert!(feeds.follow_lobby(&rummy).start_pump.is_some());
        // News reaches both followers.
        pump.send_replace(Instant::now());
        let (a, mut b) = (first.news, second.news);
        assert!(a.has_changed().unwrap_or(false) && b.has_changed().unwrap_or(false));
        // While one follows, the pump stays; when the last leaves, it stops, and the next
        // follower starts a new one.
        drop(a);
        assert!(!feeds.unfollowed_lobby(&first.key, &pump));
        b.mark_unchanged();
        drop(b);
        assert!(feeds.unfollowed_lobby(&first.key, &pump));
        let again = feeds.follow_lobby(&query);
        let new_pump = again.start_pump.expect("a new pump");
        assert!(!std::sync::Arc::ptr_eq(&new_pump, &pump));
        // The old pump, stopping late, does not forget the new one's channel.
        assert!(feeds.unfollowed_lobby(&first.key, &pump));
        assert!(feeds.follow_lobby(&query).start_pump.is_none());
    }
}
