//! A game's events: as Server-Sent Events, resumable with `Last-Event-ID`, or as a JSON
//! long-poll; with the table's chat and who is at the table.

use cardroom_db::GameId;
use std::time::Duration;

use actix_web::web;
use actix_web_lab::sse;
use cardroom_core::Viewer;
use tokio::time::Instant;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::feeds;
use crate::hub::Topic;
use crate::model::{EventOut, EventsResponse, KnownPresence, PresenceOut, StreamEvent};
use crate::play::{self, ChatWanted, News, Revoked};
use crate::shared::{Encoded, EncodedEntry, GameLog, Shared};
use crate::state::AppState;

use super::queue::{SLOW_READER, queue, sse_response};
use super::slot::StreamSlot;
use super::wait::{check_reader_again, next_look_noticed, wait_for_notice};

/// Who follows a game: its id, the caller (none: a stranger watching a public table), and who
/// they were authorised to read as.
struct Follower {
    id: GameId,
    caller: Option<Caller>,
    viewer: Viewer,
}

/// One look at a game for `follower`: the events after `after` and the chat `chat` asks for,
/// from a shared read of the log begun no earlier than `not_before` (see [`crate::feeds`]),
/// then the follower's own part, checked again (see [`play::personal`]). Also whether the
/// follower is still behind (the events came as a page of a longer gap).
async fn look<F: Form>(
    state: &web::Data<AppState>,
    log: &Shared<GameLog>,
    follower: &Follower,
    after: i64,
    chat: ChatWanted,
    not_before: Instant,
) -> Result<Result<(News<F::Events>, bool), Revoked>, ApiError> {
    let Follower { id, viewer, .. } = *follower;
    let caller = follower.caller.as_ref();
    let read = feeds::game_log(state, log, id, after, not_before).await?;
    let log = &read.value;
    let page = play::EVENTS_PAGE as usize;
    let (events, version) = match F::shared(log, after, viewer, page)? {
        Some(found) => found,
        // Further behind than the shared read reaches: a page of its own.
        None => {
            let (events, version) = feeds::read_for_followers(state, move |conn, _| {
                play::events_after(conn, id, viewer, after)
            })
            .await?;
            (F::own(events)?, version)
        }
    };
    let personal = match play::personal_without_storage(caller, viewer, chat, log.chat_newest) {
        Some(personal) => personal,
        None => {
            let (reader, status, newest) = (caller.cloned(), log.status, log.chat_newest);
            feeds::read_for_followers(state, move |conn, _| {
                play::personal(conn, id, reader.as_ref(), viewer, (status, newest), chat)
            })
            .await?
        }
    };
    let behind = version < log.version;
    Ok(personal.map(|personal| {
        let news = News {
            events,
            version,
            chat: personal.chat,
            chat_cursor: personal.chat_cursor,
        };
        (news, behind)
    }))
}

/// How a look wants the game's events: decoded (the JSON long-poll answers them in its body)
/// or encoded (a stream sends each as it is).
trait Form {
    type Events;
    /// From the shared read (see [`GameLog::after`]).
    fn shared(
        log: &GameLog,
        after: i64,
        viewer: Viewer,
        page: usize,
    ) -> Result<Option<(Self::Events, i64)>, ApiError>;
    /// From a page of the follower's own.
    fn own(events: Vec<EventOut>) -> Result<Self::Events, ApiError>;
}

/// The events as values.
struct Decoded;

impl Form for Decoded {
    type Events = Vec<EventOut>;

    fn shared(
        log: &GameLog,
        after: i64,
        viewer: Viewer,
        page: usize,
    ) -> Result<Option<(Self::Events, i64)>, ApiError> {
        log.after(after, viewer, page)
    }

    fn own(events: Vec<EventOut>) -> Result<Self::Events, ApiError> {
        Ok(events)
    }
}

/// The events encoded, each entry's shared by every follower with the same view.
struct Encoding;

impl Form for Encoding {
    type Events = Vec<EncodedEntry>;

    fn shared(
        log: &GameLog,
        after: i64,
        viewer: Viewer,
        page: usize,
    ) -> Result<Option<(Self::Events, i64)>, ApiError> {
        log.encoded_after(after, viewer, page)
    }

    fn own(events: Vec<EventOut>) -> Result<Self::Events, ApiError> {
        let encoded = events
            .iter()
            .map(Encoded::new)
            .collect::<Result<EncodedEntry, _>>()?;
        Ok(vec![encoded])
    }
}

/// Who is at game `id` as `viewer` sees it, from a read begun after `not_before` (by default,
/// within the last half of [`crate::presence::refresh_every`]). A seated viewer is connected:
/// they are following the table now, whatever the rows say yet.
async fn presence_now(
    state: &web::Data<AppState>,
    shared: &Shared<PresenceOut>,
    id: GameId,
    viewer: Viewer,
    not_before: Option<Instant>,
) -> Result<PresenceOut, ApiError> {
    let not_before = not_before.unwrap_or_else(|| {
        Instant::now()
            .checked_sub(crate::presence::refresh_every() / 2)
            .unwrap_or_else(Instant::now)
    });
    let read = feeds::presence(state, shared, id, not_before).await?;
    let mut presence = read.value.clone();
    if let Some(seat) = viewer.seat() {
        let seat = i64::from(seat.number());
        if !presence.connected.contains(&seat) {
            presence.connected.push(seat);
            presence.connected.sort_unstable();
        }
    }
    Ok(presence)
}

/// The JSON long-poll: answers at once when there is news after `after` (or, with
/// `chat_after`, chat after it), otherwise when news arrives or `wait` passes, with who is at
/// the table then; with `known` (who the caller shows at the table), also as soon as that
/// differs. Every look at the log re-checks the caller (see [`play::personal`]): a caller who
/// lost the seat, or whose token expired, while waiting gets the refusal a new request would.
/// While it waits, the caller counts as following the game (presence).
#[allow(clippy::too_many_arguments)]
pub async fn long_poll(
    state: web::Data<AppState>,
    id: GameId,
    caller: Option<Caller>,
    viewer: Viewer,
    after: i64,
    chat_after: Option<i64>,
    known: Option<KnownPresence>,
    wait: Duration,
) -> Result<EventsResponse, ApiError> {
    // (A stranger is at no table: only people with an account count as watching.)
    let _following = caller
        .as_ref()
        .map(|c| state.presence.follow(c.id, id.get()));
    let follower = Follower { id, caller, viewer };
    let log = state.feeds.game(id);
    let mut changes = state.hub.follow(Topic::Game(id));
    let deadline = Instant::now() + wait;
    let chat = chat_after.map_or(ChatWanted::No, ChatWanted::After);
    let shared = state.feeds.presence(id);
    let mut not_before = Instant::now();
    // A first look at who is there reads afresh only when the caller says what it shows.
    let mut noticed = known.is_some();
    loop {
        let (news, _) = look::<Decoded>(&state, &log, &follower, after, chat, not_before)
            .await?
            .map_err(Revoked::error)?;
        let mut presence = None;
        if let Some(known) = &known
            && noticed
        {
            let now = presence_now(&state, &shared, id, viewer, Some(not_before)).await?;
            if known.differs(&now) {
                presence = Some(now);
            }
        }
        let now = Instant::now();
        let fresh = news.version > after || !news.chat.is_empty() || presence.is_some();
        let stop = if fresh || now >= deadline || state.hub.is_shutting_down() {
            true
        } else {
            // (News whose notice was missed comes from the process's safety net.)
            match wait_for_notice(&state.hub, &mut changes, Some(deadline - now)).await {
                Some((at, notice)) => {
                    not_before = at;
                    noticed = notice;
                    false
                }
                None => state.hub.is_shutting_down(),
            }
        };
        if stop {
            let presence = match presence {
                Some(presence) => presence,
                None => presence_now(&state, &shared, id, viewer, None).await?,
            };
            return Ok(EventsResponse {
                events: news.events,
                version: news.version,
                chat: chat_after.map(|_| news.chat),
                chat_cursor: news.chat_cursor,
                presence,
            });
        }
    }
}

/// The SSE event that ends a stream whose reader may no longer follow the game:
/// `event: stream_end`, data `{"version": V, "event": {"type": "stream_end", "reason": …}}`.
fn end_event(version: i64, revoked: Revoked) -> sse::Event {
    let out = EventOut {
        version,
        event: serde_json::to_value(StreamEvent::StreamEnd {
            reason: revoked.reason(),
        })
        .unwrap_or_default(),
    };
    match sse::Data::new_json(&out) {
        Ok(data) => sse::Event::Data(data.event(STREAM_END)),
        Err(_) => sse::Event::Comment(STREAM_END.into()),
    }
}

/// The type of the event that ends a stream (`event: stream_end`, written by `end_event`).
pub const STREAM_END: &str = "stream_end";

/// A stream's event id: the version, and once the stream has a chat cursor, `:` and it. A
/// client sends the last one back as `Last-Event-ID` and the stream resumes after both.
fn event_id(version: i64, chat: i64) -> String {
    if chat == 0 {
        version.to_string()
    } else {
        format!("{version}:{chat}")
    }
}

/// Reads a `Last-Event-ID`: `V` or `V:C` (as `event_id` writes it); none if it is neither.
pub fn parse_event_id(text: &str) -> Option<(i64, Option<i64>)> {
    let text = text.trim();
    match text.split_once(':') {
        None => Some((text.parse().ok()?, None)),
        Some((version, chat)) => Some((version.parse().ok()?, Some(chat.parse().ok()?))),
    }
}

/// An SSE event of type `kind` with data `{version, event}`.
fn sse_event(kind: &str, version: i64, event: serde_json::Value) -> Option<sse::Data> {
    sse::Data::new_json(EventOut { version, event })
        .ok()
        .map(|data| data.event(kind.to_owned()))
}

/// A game's news as SSE events: each game event with `event:` its type and, on the last event
/// of a version, `id:` the version and chat cursor; then the chat.
fn news_events(news: &News<Vec<EncodedEntry>>, mut cursor: i64) -> (Vec<sse::Event>, i64) {
    let mut out = Vec::new();
    let events: Vec<&Encoded> = news.events.iter().flat_map(|entry| entry.iter()).collect();
    for (i, event) in events.iter().enumerate() {
        let ends_version = events
            .get(i + 1)
            .is_none_or(|next| next.version != event.version);
        let mut data = sse::Data::new(event.json.clone());
        if let Some(kind) = &event.kind {
            data = data.event(kind.clone());
        }
        if ends_version {
            data = data.id(event_id(event.version, cursor));
        }
        out.push(sse::Event::Data(data));
    }
    for message in &news.chat {
        cursor = cursor.max(message.cursor);
        let Ok(event) = serde_json::to_value(message) else {
            continue;
        };
        let Some(data) = sse_event(message.kind.name(), news.version, event) else {
            continue;
        };
        out.push(sse::Event::Data(data.id(event_id(news.version, cursor))));
    }
    (out, cursor)
}

/// Server-Sent Events from version `after` on: each game event with `event:` its type and
/// `id:` (on the last event of a version, so that `Last-Event-ID` resumes after complete
/// versions) its version and chat cursor; the table's chat (`event: chat`, `chat_hidden`) as
/// `chat` asks; `event: presence` whenever who is at the table changes; heartbeats and a retry
/// hint; closed when the process stops. Before each batch is sent, the caller is checked again
/// ([`play::personal`]): a caller who lost the seat, or whose token expired, gets a
/// `stream_end` event and the stream closes. The stream's slot is given back as soon as the
/// client closes the connection (the server ends a request whose client closed its side).
///
/// All of a process's followers of one game share its reads (see [`crate::feeds`]); each
/// stream holds at most `QUEUE` events for its reader, and a reader who makes no room for
/// `SLOW_READER` is dropped with a hint to reconnect, never holding up anyone else.
pub fn stream(
    state: web::Data<AppState>,
    id: GameId,
    caller: Option<Caller>,
    viewer: Viewer,
    after: i64,
    chat: ChatWanted,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, caller.as_ref().map(|c| c.id))?;
    let following = caller
        .as_ref()
        .map(|c| state.presence.follow(c.id, id.get()));
    let (outbox, inbox) = queue(SLOW_READER);
    let response = sse_response(state.settings.heartbeat, inbox);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let _following = following;
        let follower = Follower { id, caller, viewer };
        let log = state.feeds.game(id);
        let presence = state.feeds.presence(id);
        let mut changes = state.hub.follow(Topic::Game(id));
        let mut after = after;
        let mut chat = chat;
        let mut cursor = match chat {
            ChatWanted::After(cursor) => cursor,
            ChatWanted::Latest | ChatWanted::No => 0,
        };
        let mut presence_sent: Option<PresenceOut> = None;
        let mut not_before = Instant::now();
        // Whether a notice woke the last wait (then who is at the table may have changed).
        let mut noticed = false;
        // The first look also says who is there, from a recent read; a look at who is there
        // that failed is made again at the next look, however that comes.
        let mut first = true;
        let mut presence_owed = true;
        loop {
            let mut behind = false;
            let mut failed = false;
            match look::<Encoding>(&state, &log, &follower, after, chat, not_before).await {
                Ok(Ok((news, more))) => {
                    behind = more;
                    let (events, next) = news_events(&news, cursor);
                    if outbox.send(events).await.is_err() {
                        return;
                    }
                    after = news.version;
                    cursor = next;
                    if let Some(next) = news.chat_cursor {
                        cursor = cursor.max(next);
                        chat = ChatWanted::After(cursor);
                    }
                }
                Ok(Err(revoked)) => {
                    let _ = outbox.send(vec![end_event(after, revoked)]).await;
                    return;
                }
                // The database is away or the game is gone: try again soon.
                Err(_) => failed = true,
            }
            if noticed || presence_owed {
                let fresh = (!first).then_some(not_before);
                first = false;
                let now = presence_now(&state, &presence, id, viewer, fresh).await;
                presence_owed = now.is_err();
                failed |= presence_owed;
                if let Ok(now) = now
                    && presence_sent.as_ref() != Some(&now)
                {
                    let event = StreamEvent::Presence {
                        connected: now.connected.clone(),
                        spectators: now.spectators,
                    };
                    if let Ok(event) = serde_json::to_value(event)
                        && let Some(data) = sse_event("presence", after, event)
                        && outbox.send(vec![sse::Event::Data(data)]).await.is_err()
                    {
                        return;
                    }
                    presence_sent = Some(now);
                }
            }
            if behind {
                // Part of a long gap came: the rest at once, from the same read or after it.
                continue;
            }
            let limit = check_reader_again(&state.hub, follower.caller.as_ref(), failed);
            match next_look_noticed(&state.hub, &mut changes, &outbox, limit).await {
                Some((at, notice)) => {
                    not_before = at;
                    noticed = notice;
                }
                None => return,
            }
        }
    });
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_id_carries_the_chat_cursor_once_there_is_one_and_reads_back() {
        assert_eq!(event_id(12, 0), "12");
        assert_eq!(event_id(12, 7), "12:7");
        assert_eq!(parse_event_id("12"), Some((12, None)));
        assert_eq!(parse_event_id(" 12:7 "), Some((12, Some(7))));
        for bad in ["", "x", "12:", ":7", "12:7:1", "1.5"] {
            assert_eq!(parse_event_id(bad), None, "{bad:?}");
        }
    }
}
