//! Live events: the per-process hub that wakes requests waiting on a game, fed by this process's
//! own commits and (on PostgreSQL) by every replica's through `LISTEN/NOTIFY`; Server-Sent Events
//! and the JSON long-poll built on it; and the shutdown signal that closes streams.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use actix_web::Either;
use actix_web::web;
use actix_web_lab::sse::{self, Sse};
use cardroom_core::Viewer;
use tokio::sync::{Notify, broadcast, mpsc, watch};
use tokio::time::Instant;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::feeds::{self, GameLog, Shared};
use crate::model::{EventOut, EventsResponse, Lobby, LobbyQuery, PresenceOut};
use crate::play::{self, ChatWanted, News, Revoked};
use crate::routes::run;
use crate::state::AppState;

/// An account notice that means "look again, every account" (notices may have been missed).
const EVERY_ACCOUNT: i64 = -1;

/// How often a waiting request looks again even without a notice (a safety net; on SQLite
/// shared by several processes, the only way news arrives).
const FALLBACK_POLL: Duration = Duration::from_millis(1000);

/// A notice on the hub: what changed, and when this process learnt of it (a read begun after
/// that sees the change).
type Notice = (i64, Instant);

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
    accounts: broadcast::Sender<Notice>,
    shutdown: Notify,
    shutting_down: AtomicBool,
    open_streams: AtomicUsize,
    /// Streams open now, per account.
    streams_by_account: Mutex<HashMap<i64, usize>>,
}

/// The games' channels: one a game someone on this process follows.
#[derive(Debug)]
struct GameChannels {
    map: HashMap<i64, watch::Sender<Instant>>,
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
    pub fn publish(&self, id: Option<i64>) {
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
    fn changes(&self, id: Option<i64>) -> watch::Receiver<Instant> {
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
            Notice::Everything => {
                self.publish(None);
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

    /// Streams open now.
    pub fn open_streams(&self) -> usize {
        self.open_streams.load(Ordering::SeqCst)
    }
}

/// Waits until `woken` resolves, `limit` passes, or the process stops. Returns the instant a
/// read must have begun after to see what woke the wait — what `woken` says; the wait's start,
/// when `limit` passed — or none when the process stops.
async fn wait_until(
    hub: &Hub,
    limit: Duration,
    woken: impl Future<Output = Instant>,
) -> Option<Instant> {
    // Register for the shutdown notice before looking at the flag: `notify_waiters` wakes only
    // those registered, so a request busy elsewhere when the signal came sees the flag instead.
    let shutdown = hub.shutdown.notified();
    tokio::pin!(shutdown);
    shutdown.as_mut().enable();
    if hub.is_shutting_down() {
        return None;
    }
    let began = Instant::now();
    tokio::select! {
        at = woken => Some(at),
        () = tokio::time::sleep(limit) => Some(began),
        () = &mut shutdown => None,
    }
}

/// Waits until the followed game (or games) changes — at once if it changed since the last
/// wait — `limit` passes, or the process stops (see [`wait_until`]): the time of the latest
/// change.
async fn wait_for_news(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    limit: Duration,
) -> Option<Instant> {
    wait_until(hub, limit, async {
        match changes.changed().await {
            Ok(()) => *changes.borrow_and_update(),
            // (The hub keeps a channel while anyone follows it: this does not happen.)
            Err(_) => std::future::pending().await,
        }
    })
    .await
}

/// A stream's wait for its next look: until what `changes` follows changes, or the safety-net
/// interval passes, while its reader stays. The instant a read must have begun after; none
/// when the stream ends (the reader left, or the process stops — then with a hint to
/// reconnect).
async fn next_look(
    hub: &Hub,
    changes: &mut watch::Receiver<Instant>,
    outbox: &Outbox,
) -> Option<Instant> {
    tokio::select! {
        woke = wait_for_news(hub, changes, FALLBACK_POLL) => {
            if woke.is_none() {
                let hint = sse::Event::Comment("the server is restarting: reconnect".into());
                let _ = outbox.send(vec![hint]).await;
            }
            woke
        }
        () = outbox.closed() => None,
    }
}

/// Who follows a game: its id, the caller, and who they were authorised to read as.
struct Follower {
    id: i64,
    caller: Caller,
    viewer: Viewer,
}

/// One look at a game for `follower`: the events after `after` and the chat `chat` asks for,
/// from a shared read of the log begun no earlier than `not_before` (see [`crate::feeds`]),
/// then the follower's own part, checked again (see [`play::personal`]). Also whether the
/// follower is still behind (the events came as a page of a longer gap).
async fn look(
    state: &web::Data<AppState>,
    log: &Shared<GameLog>,
    follower: &Follower,
    after: i64,
    chat: ChatWanted,
    not_before: Instant,
) -> Result<Result<(News, bool), Revoked>, ApiError> {
    let Follower { id, viewer, .. } = *follower;
    let caller = &follower.caller;
    let read = feeds::game_log(state, log, id, after, not_before).await?;
    let log = &read.value;
    let page = play::EVENTS_PAGE as usize;
    let (events, version) = match log.after(after, viewer, page)? {
        Some(found) => found,
        // Further behind than the shared read reaches: a page of its own.
        None => {
            feeds::read_for_followers(state, move |conn, _| {
                play::events_after(conn, id, viewer, after)
            })
            .await?
        }
    };
    let personal = match play::personal_without_storage(caller, viewer, chat, log.chat_newest) {
        Some(personal) => personal,
        None => {
            let (reader, status, newest) = (caller.clone(), log.status.clone(), log.chat_newest);
            feeds::read_for_followers(state, move |conn, _| {
                play::personal(conn, id, &reader, viewer, (&status, newest), chat)
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

/// Who is at game `id`, as read within the last half of [`presence_every`].
async fn presence_now(
    state: &web::Data<AppState>,
    shared: &Shared<PresenceOut>,
    id: i64,
) -> Result<PresenceOut, ApiError> {
    let not_before = Instant::now()
        .checked_sub(presence_every() / 2)
        .unwrap_or_else(Instant::now);
    let read = feeds::presence(state, shared, id, not_before).await?;
    Ok(read.value.clone())
}

/// The JSON long-poll: answers at once when there is news after `after` (or, with
/// `chat_after`, chat after it), otherwise when news arrives or `wait` passes, with who is at
/// the table then. Every look at the log re-checks the caller (see [`play::personal`]): a
/// caller who lost the seat, or whose token expired, while waiting gets the refusal a new
/// request would. While it waits, the caller counts as following the game (presence).
pub async fn long_poll(
    state: web::Data<AppState>,
    id: i64,
    caller: Caller,
    viewer: Viewer,
    after: i64,
    chat_after: Option<i64>,
    wait: Duration,
) -> Result<EventsResponse, ApiError> {
    let _following = state.presence.follow(caller.id, id);
    let follower = Follower { id, caller, viewer };
    let log = state.feeds.game(id);
    let mut changes = state.hub.changes(Some(id));
    let deadline = Instant::now() + wait;
    let chat = chat_after.map_or(ChatWanted::No, ChatWanted::After);
    let mut not_before = Instant::now();
    loop {
        let (news, _) = look(&state, &log, &follower, after, chat, not_before)
            .await?
            .map_err(Revoked::error)?;
        let now = Instant::now();
        let fresh = news.version > after || !news.chat.is_empty();
        let stop = if fresh || now >= deadline || state.hub.is_shutting_down() {
            true
        } else {
            let left = (deadline - now).min(FALLBACK_POLL);
            match wait_for_news(&state.hub, &mut changes, left).await {
                Some(at) => {
                    not_before = at;
                    false
                }
                None => state.hub.is_shutting_down(),
            }
        };
        if stop {
            let presence = presence_now(&state, &state.feeds.presence(id), id).await?;
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

/// A taken stream slot: given back (the process's count and the account's) when the stream
/// ends.
struct StreamSlot {
    state: web::Data<AppState>,
    account: Option<i64>,
}

impl StreamSlot {
    /// Takes a slot for `account` (none: an anonymous reader of public news), within the
    /// process's and the account's limits.
    fn take(state: &web::Data<AppState>, account: Option<i64>) -> Result<StreamSlot, ApiError> {
        let hub = &state.hub;
        let limit = state.settings.max_streams;
        let per_account = state.settings.max_streams_per_account;
        let mut accounts = hub
            .streams_by_account
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if hub.open_streams.load(Ordering::SeqCst) >= limit {
            return Err(ApiError::Busy {
                code: "too_many_streams",
                detail: format!(
                    "this server holds its limit of {limit} open event streams: try again \
                     shortly, or use the JSON long-poll (Accept: application/json)"
                ),
            });
        }
        if let Some(account) = account {
            let mine = accounts.entry(account).or_insert(0);
            if *mine >= per_account {
                return Err(ApiError::TooMany {
                    code: "too_many_streams",
                    detail: format!(
                        "this account has {per_account} event streams open on this server, \
                         its limit: close one, or use the JSON long-poll (Accept: \
                         application/json)"
                    ),
                    retry_after: 2,
                });
            }
            *mine += 1;
        }
        hub.open_streams.fetch_add(1, Ordering::SeqCst);
        Ok(StreamSlot {
            state: state.clone(),
            account,
        })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let hub = &self.state.hub;
        let mut accounts = hub
            .streams_by_account
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(account) = self.account
            && let Some(count) = accounts.get_mut(&account)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                accounts.remove(&account);
            }
        }
        hub.open_streams.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The SSE event that ends a stream whose reader may no longer follow the game:
/// `event: stream_end`, data `{"version": V, "event": {"type": "stream_end", "reason": …}}`.
fn end_event(version: i64, revoked: Revoked) -> sse::Event {
    let out = EventOut {
        version,
        event: serde_json::json!({"type": STREAM_END, "reason": revoked.reason()}),
    };
    match sse::Data::new_json(&out) {
        Ok(data) => sse::Event::Data(data.event(STREAM_END)),
        Err(_) => sse::Event::Comment(STREAM_END.into()),
    }
}

/// The type of the event that ends a stream (see [`end_event`]).
pub const STREAM_END: &str = "stream_end";

/// How often a stream looks at who is at the table (and says so when it changed): as often as
/// the processes write it, a quarter of the presence window.
fn presence_every() -> Duration {
    crate::presence::window() / 4
}

/// A stream's event id: the version, and once the stream has a chat cursor, `:` and it. A
/// client sends the last one back as `Last-Event-ID` and the stream resumes after both.
fn event_id(version: i64, chat: i64) -> String {
    if chat == 0 {
        version.to_string()
    } else {
        format!("{version}:{chat}")
    }
}

/// Reads a `Last-Event-ID`: `V` or `V:C` (see [`event_id`]); none if it is neither.
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

/// Events a stream holds for its reader: beyond this, it waits for them to read.
const QUEUE: usize = 64;

/// How long a stream waits for a reader that does not read: then it drops them (the reader
/// gets what was queued, a hint to reconnect, and the end of the stream).
const SLOW_READER: Duration = Duration::from_secs(10);

/// The comment that ends a stream whose reader fell behind.
const SLOW_HINT: &str = "you read too slowly and fell behind: reconnect (with Last-Event-ID) \
                         to resume";

/// Why a stream stops sending.
#[derive(Debug, PartialEq, Eq)]
enum Ended {
    /// The client closed the connection.
    Gone,
    /// The reader did not make room within [`SLOW_READER`].
    Slow,
}

/// A stream's side of its bounded queue to the connection.
struct Outbox {
    tx: mpsc::Sender<sse::Event>,
    slow: std::sync::Arc<AtomicBool>,
    patience: Duration,
}

impl Outbox {
    /// Queues `events` together, as room comes: a version's events go as one batch, so a
    /// reader dropped for slowness has seen whole versions only (the `id` is on a version's
    /// last event) and resumes exactly. A reader who leaves no room for `patience` is marked
    /// slow and the stream ends.
    async fn send(&self, events: Vec<sse::Event>) -> Result<(), Ended> {
        let mut left = events.into_iter();
        while left.len() > 0 {
            let room = left.len().min(self.tx.max_capacity());
            match tokio::time::timeout(self.patience, self.tx.reserve_many(room)).await {
                Ok(Ok(permits)) => {
                    for (permit, event) in permits.zip(left.by_ref()) {
                        permit.send(event);
                    }
                }
                Ok(Err(_)) => return Err(Ended::Gone),
                Err(_) => {
                    self.slow.store(true, Ordering::SeqCst);
                    return Err(Ended::Slow);
                }
            }
        }
        Ok(())
    }

    async fn closed(&self) {
        self.tx.closed().await;
    }
}

/// The connection's side: the queued events, then — when the stream ended for a slow reader
/// — [`SLOW_HINT`].
struct Inbox {
    rx: mpsc::Receiver<sse::Event>,
    slow: std::sync::Arc<AtomicBool>,
    hinted: bool,
}

impl futures_core::Stream for Inbox {
    type Item = Result<sse::Event, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        match self.rx.poll_recv(cx) {
            std::task::Poll::Ready(None) if !self.hinted && self.slow.load(Ordering::SeqCst) => {
                self.hinted = true;
                std::task::Poll::Ready(Some(Ok(sse::Event::Comment(SLOW_HINT.into()))))
            }
            polled => polled.map(|event| event.map(Ok)),
        }
    }
}

/// A bounded queue from a stream's task to its connection (see [`Outbox`]).
fn queue(patience: Duration) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let slow = std::sync::Arc::new(AtomicBool::new(false));
    (
        Outbox {
            tx,
            slow: slow.clone(),
            patience,
        },
        Inbox {
            rx,
            slow,
            hinted: false,
        },
    )
}

/// A Server-Sent Events response fed by `inbox`, with heartbeats and a retry hint.
fn sse_response(heartbeat: Duration, inbox: Inbox) -> Sse<Inbox> {
    Sse::from_stream(inbox)
        .with_keep_alive(heartbeat)
        .with_retry_duration(Duration::from_secs(1))
}

/// A game's news as SSE events: each game event with `event:` its type and, on the last event
/// of a version, `id:` the version and chat cursor; then the chat.
fn news_events(news: &News, mut cursor: i64) -> (Vec<sse::Event>, i64) {
    let mut out = Vec::new();
    for (i, event) in news.events.iter().enumerate() {
        let ends_version = news
            .events
            .get(i + 1)
            .is_none_or(|next| next.version != event.version);
        let Ok(mut data) = sse::Data::new_json(event) else {
            continue;
        };
        if let Some(kind) = event.event.get("type").and_then(|t| t.as_str()) {
            data = data.event(kind.to_owned());
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
        let Some(data) = sse_event(&message.kind, news.version, event) else {
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
/// stream holds at most [`QUEUE`] events for its reader, and a reader who makes no room for
/// [`SLOW_READER`] is dropped with a hint to reconnect, never holding up anyone else.
pub fn stream(
    state: web::Data<AppState>,
    id: i64,
    caller: Caller,
    viewer: Viewer,
    after: i64,
    chat: ChatWanted,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, Some(caller.id))?;
    let following = state.presence.follow(caller.id, id);
    let (outbox, inbox) = queue(SLOW_READER);
    let response = sse_response(state.settings.heartbeat, inbox);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let _following = following;
        let follower = Follower { id, caller, viewer };
        let log = state.feeds.game(id);
        let presence = state.feeds.presence(id);
        let mut changes = state.hub.changes(Some(id));
        let mut after = after;
        let mut chat = chat;
        let mut cursor = match chat {
            ChatWanted::After(cursor) => cursor,
            ChatWanted::Latest | ChatWanted::No => 0,
        };
        let mut presence_sent: Option<PresenceOut> = None;
        let mut presence_looked: Option<Instant> = None;
        let mut not_before = Instant::now();
        loop {
            let mut behind = false;
            match look(&state, &log, &follower, after, chat, not_before).await {
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
                // The database is away or the game is gone: try again at the next look.
                Err(_) => {}
            }
            if presence_looked.is_none_or(|at| at.elapsed() >= presence_every()) {
                presence_looked = Some(Instant::now());
                if let Ok(now) = presence_now(&state, &presence, id).await
                    && presence_sent.as_ref() != Some(&now)
                {
                    let event = serde_json::json!({
                        "type": "presence",
                        "connected": now.connected,
                        "spectators": now.spectators,
                    });
                    if let Some(data) = sse_event("presence", after, event)
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
            match next_look(&state.hub, &mut changes, &outbox).await {
                Some(at) => not_before = at,
                None => return,
            }
        }
    });
    Ok(response)
}

/// How often a waiting seek's long-poll tries the pairing again.
const PAIR_EVERY: Duration = Duration::from_millis(1000);

/// `GET /seeks/{id}` with `wait`: answers when the seek is no longer open or `wait` passes,
/// looking again at every notice (a seek matched elsewhere makes a game, and so a notice) and
/// trying the pairing again every [`PAIR_EVERY`].
pub async fn seek_long_poll(
    state: web::Data<AppState>,
    caller: Caller,
    id: i64,
    wait: Duration,
) -> Result<crate::model::Seek, ApiError> {
    let mut changes = state.hub.changes(None);
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
        if seek.status != "open" || now >= deadline || state.hub.is_shutting_down() {
            if let Some(game) = seek.game_id {
                state.hub.publish(Some(game));
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

/// The least time between two reads of the lobby by one stream: a busy room changes many
/// times a second, and a stream reads (and sends) the listing at most this often.
const LOBBY_EVERY: Duration = Duration::from_millis(250);

/// What identifies a lobby listing, apart from the seconds each table has waited (which change
/// every second and are no news).
pub(crate) fn lobby_signature(lobby: &Lobby) -> String {
    let mut value = serde_json::to_value(lobby).unwrap_or_default();
    if let Some(tables) = value.get_mut("tables").and_then(|t| t.as_array_mut()) {
        for table in tables {
            if let Some(table) = table.as_object_mut() {
                table.remove("waiting_seconds");
            }
        }
    }
    value.to_string()
}

/// The lobby as Server-Sent Events: `event: lobby` with the listing (as `GET /lobby` answers
/// it) at once and again whenever it changes — a table opened, joined, filled or closed on any
/// replica — at most every [`LOBBY_EVERY`]; heartbeats; closed when the process stops. Every
/// lobby stream of the same listing on this process shares its reads.
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
        let mut changes = state.hub.changes(None);
        let mut sent: Option<std::sync::Arc<feeds::Read<feeds::Listing>>> = None;
        let mut not_before = Instant::now();
        loop {
            let looked = Instant::now();
            if let Ok(read) = feeds::lobby(&state, &listing, &query, not_before).await
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
            match next_look(&state.hub, &mut changes, &outbox).await {
                Some(at) => not_before = at,
                None => return,
            }
            tokio::select! {
                () = tokio::time::sleep_until(looked + LOBBY_EVERY) => {}
                () = outbox.closed() => return,
            }
        }
    });
    Ok(response)
}

// ---------------------------------------------------------------------------------------------
// The account's event stream.

/// The form an account stream takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamFormat {
    /// Server-Sent Events: `event:` the type, `id:` the event's id, `data:` the event.
    Sse,
    /// Newline-delimited JSON: one event a line (each with its `id`), an empty line as a
    /// heartbeat.
    NdJson,
}

/// Where an account stream's events go, in its form. Either holds at most [`QUEUE`] events,
/// and a reader who makes no room for [`SLOW_READER`] is dropped (the SSE form ends with
/// [`SLOW_HINT`]); the client resumes after the last event id it has.
enum Sink {
    Sse(Outbox),
    Lines(mpsc::Sender<actix_web::web::Bytes>),
}

impl Sink {
    /// Sends one event; false once the client has gone.
    async fn send(&self, id: Option<i64>, event: &serde_json::Value) -> bool {
        match self {
            Sink::Sse(outbox) => {
                let Ok(mut data) = sse::Data::new_json(event) else {
                    return true;
                };
                if let Some(kind) = event.get("type").and_then(|t| t.as_str()) {
                    data = data.event(kind.to_owned());
                }
                if let Some(id) = id {
                    data = data.id(id.to_string());
                }
                outbox.send(vec![sse::Event::Data(data)]).await.is_ok()
            }
            Sink::Lines(tx) => {
                let mut line = event.to_string();
                line.push('\n');
                tx.send_timeout(actix_web::web::Bytes::from(line), SLOW_READER)
                    .await
                    .is_ok()
            }
        }
    }

    /// A heartbeat for a quiet newline-delimited stream (SSE has its own).
    async fn heartbeat(&self) -> bool {
        match self {
            Sink::Sse(_) => true,
            Sink::Lines(tx) => tx
                .send_timeout(actix_web::web::Bytes::from_static(b"\n"), SLOW_READER)
                .await
                .is_ok(),
        }
    }

    async fn closed(&self) {
        match self {
            Sink::Sse(outbox) => outbox.closed().await,
            Sink::Lines(tx) => tx.closed().await,
        }
    }
}

/// A receiver as a body stream, for the newline-delimited form.
struct Lines(mpsc::Receiver<actix_web::web::Bytes>);

impl futures_core::Stream for Lines {
    type Item = Result<actix_web::web::Bytes, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|line| line.map(Ok))
    }
}

/// Waits until account `id` (or every account) may have news, `limit` passes, or the process
/// stops (see [`wait_until`]).
async fn wait_for_account(
    hub: &Hub,
    notices: &mut broadcast::Receiver<Notice>,
    id: i64,
    limit: Duration,
) -> Option<Instant> {
    wait_until(hub, limit, async {
        loop {
            match notices.recv().await {
                Ok((account, at)) if account == id || account == EVERY_ACCOUNT => return at,
                Ok(_) => continue,
                // Notices were missed: look again now.
                Err(broadcast::error::RecvError::Lagged(_)) => return Instant::now(),
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    })
    .await
}

/// `GET /stream/events`: everything that concerns the caller's account, as it happens — a game
/// started, their turn, a game over, challenges, a quick match — from any replica. After
/// `after` (an event id; `Last-Event-ID` does the same) it resumes from the account's event
/// log, missing and repeating nothing; without one it begins with what waits for the account
/// now (its turns, the challenges to it), then goes on with new events. Before each batch the
/// credential is checked again: an expired session or a revoked token ends the stream with a
/// `stream_end` event.
///
/// The starting point is read before the response's headers go out, so a client that has the
/// headers misses nothing that happens after (what happened just before is in the snapshot).
pub async fn account_stream(
    state: web::Data<AppState>,
    caller: Caller,
    after: Option<i64>,
    format: StreamFormat,
) -> Result<Either<impl actix_web::Responder, actix_web::HttpResponse>, ApiError> {
    let slot = StreamSlot::take(&state, Some(caller.id))?;
    let (waiting, mut cursor) = match after {
        Some(after) => (Vec::new(), after),
        None => {
            let reader = caller.clone();
            run(&state, move |conn, _| play::account_snapshot(conn, &reader)).await?
        }
    };
    let following = state.presence.follow(caller.id, 0);
    let heartbeat = state.settings.heartbeat;
    let (sink, response) = match format {
        StreamFormat::Sse => {
            let (outbox, inbox) = queue(SLOW_READER);
            (
                Sink::Sse(outbox),
                Either::Left(sse_response(heartbeat, inbox)),
            )
        }
        StreamFormat::NdJson => {
            let (tx, rx) = mpsc::channel(QUEUE);
            (Sink::Lines(tx), Either::Right(Lines(rx)))
        }
    };
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let _following = following;
        let mut notices = state.hub.accounts.subscribe();
        let me = caller.id;
        for event in &waiting {
            if !sink.send(None, event).await {
                return;
            }
        }
        let mut quiet_since = Instant::now();
        loop {
            let reader = caller.clone();
            let read = run(&state, move |conn, _| {
                play::account_events_for(conn, &reader, cursor)
            })
            .await;
            match read {
                Ok(Ok(events)) => {
                    for (id, event) in events {
                        if !sink.send(Some(id), &event).await {
                            return;
                        }
                        cursor = id;
                        quiet_since = Instant::now();
                    }
                }
                Ok(Err(revoked)) => {
                    let end = serde_json::json!({"type": STREAM_END, "reason": revoked.reason()});
                    let _ = sink.send(None, &end).await;
                    return;
                }
                // The database is away: try again at the next look.
                Err(_) => {}
            }
            if quiet_since.elapsed() >= heartbeat {
                if !sink.heartbeat().await {
                    return;
                }
                quiet_since = Instant::now();
            }
            tokio::select! {
                woke = wait_for_account(&state.hub, &mut notices, me, FALLBACK_POLL) => {
                    if woke.is_none() && state.hub.is_shutting_down() {
                        return;
                    }
                }
                () = sink.closed() => return,
            }
        }
    });
    Ok(match response {
        Either::Left(stream) => Either::Left(
            actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
        ),
        Either::Right(lines) => Either::Right(
            actix_web::HttpResponse::Ok()
                .content_type("application/x-ndjson")
                .insert_header(("X-Accel-Buffering", "no"))
                .streaming(lines),
        ),
    })
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

    #[tokio::test]
    async fn a_wait_begun_after_the_stop_signal_ends_at_once() {
        let hub = Hub::default();
        let mut changes = hub.changes(Some(1));
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
        let mut changes = hub.changes(Some(1));
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
        let mut changes = hub.changes(Some(1));
        hub.publish(Some(2));
        let before = Instant::now();
        hub.publish(Some(1));
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
        hub.publish(None);
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(matches!(woke, Ok(Some(_))), "{woke:?}");
        hub.publish(Some(3));
        let quiet = tokio::time::timeout(
            Duration::from_millis(200),
            wait_for_news(&hub, &mut changes, Duration::from_secs(60)),
        )
        .await;
        assert!(quiet.is_err(), "news of another game woke the wait");
        // Who follows every game hears them all.
        let mut every = hub.changes(None);
        hub.publish(Some(3));
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
        let mut changes = hub.changes(Some(1));
        let began = Instant::now();
        let woke = wait_for_news(&hub, &mut changes, Duration::from_millis(20)).await;
        assert!(
            matches!(woke, Some(at) if at >= began && at + Duration::from_millis(20) <= Instant::now()),
            "{woke:?}"
        );
    }

    #[tokio::test]
    async fn changes_made_while_nobody_waited_wake_the_next_wait_once_with_the_latest_time() {
        let hub = Hub::default();
        let mut changes = hub.changes(Some(1));
        hub.publish(Some(1));
        hub.publish(Some(1));
        let latest = Instant::now();
        hub.publish(Some(1));
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

    #[test]
    fn channels_of_games_nobody_follows_are_dropped_as_they_grow() {
        let hub = Hub::default();
        let followed = hub.changes(Some(-5));
        for id in 0..(KEEP_CHANNELS as i64 * 3) {
            drop(hub.changes(Some(id)));
        }
        let kept = hub.games.lock().map(|games| games.map.len()).unwrap_or(0);
        assert!(kept <= KEEP_CHANNELS, "{kept} channels kept");
        // The followed game's channel is still the one its follower listens on.
        hub.publish(Some(-5));
        assert!(followed.has_changed().unwrap_or(false));
    }

    fn comment(text: &str) -> sse::Event {
        sse::Event::Comment(text.to_owned().into())
    }

    #[tokio::test]
    async fn a_reader_who_makes_no_room_is_dropped_after_whole_batches_with_a_hint() {
        use futures_core::Stream;
        let (outbox, mut inbox) = queue(Duration::from_millis(50));
        // Batches fit while there is room…
        for _ in 0..(QUEUE / 4) {
            let batch = (0..4).map(|i| comment(&i.to_string())).collect();
            assert_eq!(outbox.send(batch).await, Ok(()));
        }
        // …and the next waits for room that never comes: the reader is dropped.
        let batch = vec![comment("late"), comment("late too")];
        assert_eq!(outbox.send(batch).await, Err(Ended::Slow));
        drop(outbox);
        // The reader still gets everything queued, whole, then the hint, then the end.
        let mut got = Vec::new();
        let waker = futures_task_noop();
        let mut cx = std::task::Context::from_waker(&waker);
        while let std::task::Poll::Ready(Some(Ok(event))) =
            std::pin::Pin::new(&mut inbox).poll_next(&mut cx)
        {
            got.push(format!("{event:?}"));
        }
        assert_eq!(got.len(), QUEUE + 1, "{got:?}");
        assert!(got[QUEUE].contains("too slowly"), "{:?}", got[QUEUE]);
        assert!(!got.iter().any(|e| e.contains("late")));
    }

    #[tokio::test]
    async fn a_reader_who_leaves_ends_the_sending() {
        let (outbox, inbox) = queue(Duration::from_secs(60));
        drop(inbox);
        assert_eq!(outbox.send(vec![comment("x")]).await, Err(Ended::Gone));
    }

    #[tokio::test]
    async fn a_batch_longer_than_the_queue_goes_as_the_reader_makes_room() {
        use futures_core::Stream;
        let (outbox, mut inbox) = queue(Duration::from_secs(5));
        let reader = tokio::spawn(async move {
            let mut count = 0;
            while std::future::poll_fn(|cx| std::pin::Pin::new(&mut inbox).poll_next(cx))
                .await
                .is_some()
            {
                count += 1;
            }
            count
        });
        let batch = (0..(QUEUE * 3)).map(|i| comment(&i.to_string())).collect();
        assert_eq!(outbox.send(batch).await, Ok(()));
        drop(outbox);
        assert_eq!(reader.await.ok(), Some(QUEUE * 3));
    }

    /// A waker that does nothing (the test polls by hand).
    fn futures_task_noop() -> std::task::Waker {
        std::task::Waker::noop().clone()
    }
}
