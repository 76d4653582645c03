//! Live events: the per-process hub that wakes requests waiting on a game, fed by this process's
//! own commits and (on PostgreSQL) by every replica's through `LISTEN/NOTIFY`; Server-Sent Events
//! and the JSON long-poll built on it; and the shutdown signal that closes streams.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::Either;
use actix_web::web;
use actix_web_lab::sse::{self, Sse};
use cardroom_core::Viewer;
use tokio::sync::{Notify, broadcast, mpsc};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::model::{EventOut, EventsResponse, Lobby, LobbyQuery, PresenceOut};
use crate::play::{self, ChatWanted, Revoked};
use crate::routes::run;
use crate::state::AppState;

/// A notice that means "look again at every game" (notices may have been missed).
const EVERY_GAME: i64 = -1;

/// How often a waiting request looks again even without a notice (a safety net; on SQLite
/// shared by several processes, the only way news arrives).
const FALLBACK_POLL: Duration = Duration::from_millis(1000);

/// The hub: a broadcast of game ids that changed, and one of accounts with new events.
#[derive(Debug)]
pub struct Hub {
    notices: broadcast::Sender<i64>,
    accounts: broadcast::Sender<i64>,
    shutdown: Notify,
    shutting_down: AtomicBool,
    open_streams: AtomicUsize,
    /// Streams open now, per account.
    streams_by_account: Mutex<HashMap<i64, usize>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            notices: broadcast::channel(4096).0,
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
        let _ = self.notices.send(id.unwrap_or(EVERY_GAME));
    }

    /// Account `id` has new events.
    pub fn publish_account(&self, id: i64) {
        let _ = self.accounts.send(id);
    }

    /// A notice from the database's channel (any replica's change).
    pub fn hear(&self, notice: cardroom_db::notify::Notice) {
        use cardroom_db::notify::Notice;
        match notice {
            Notice::Game(id) => self.publish(Some(id)),
            Notice::Account(id) => self.publish_account(id),
            Notice::Everything => {
                self.publish(None);
                self.publish_account(EVERY_GAME);
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

/// Waits until game `id` (or, with `None`, any game) may have news, `limit` passes, or the
/// process stops. Returns whether to look again.
async fn wait_for_news(
    hub: &Hub,
    notices: &mut broadcast::Receiver<i64>,
    id: Option<i64>,
    limit: Duration,
) -> bool {
    wait_for(hub, notices, limit, |game| {
        id.is_none_or(|id| game == id || game == EVERY_GAME)
    })
    .await
}

/// Waits until a notice `wanted` says yes to comes (or notices were missed), `limit` passes, or
/// the process stops. Returns whether to look again.
async fn wait_for(
    hub: &Hub,
    notices: &mut broadcast::Receiver<i64>,
    limit: Duration,
    wanted: impl Fn(i64) -> bool,
) -> bool {
    // Register for the shutdown notice before looking at the flag: `notify_waiters` wakes only
    // those registered, so a request busy elsewhere when the signal came sees the flag instead.
    let shutdown = hub.shutdown.notified();
    tokio::pin!(shutdown);
    shutdown.as_mut().enable();
    if hub.is_shutting_down() {
        return false;
    }
    let deadline = tokio::time::sleep(limit);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            notice = notices.recv() => match notice {
                Ok(notice) if wanted(notice) => return true,
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(_)) => return true,
                Err(broadcast::error::RecvError::Closed) => return false,
            },
            () = &mut deadline => return true,
            () = &mut shutdown => return false,
        }
    }
}

/// The JSON long-poll: answers at once when there is news after `after` (or, with
/// `chat_after`, chat after it), otherwise when news arrives or `wait` passes, with who is at
/// the table then. Every look at the log re-checks the caller (see [`play::news_for`]): a
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
    let mut notices = state.hub.notices.subscribe();
    let deadline = tokio::time::Instant::now() + wait;
    let chat = chat_after.map_or(ChatWanted::No, ChatWanted::After);
    loop {
        let reader = caller.clone();
        let news = run(&state, move |conn, _| {
            play::news_for(conn, id, &reader, viewer, after, chat)
        })
        .await?
        .map_err(Revoked::error)?;
        let now = tokio::time::Instant::now();
        let fresh = news.version > after || !news.chat.is_empty();
        if fresh || now >= deadline || state.hub.is_shutting_down() {
            let presence = run(&state, move |conn, _| play::presence(conn, id)).await?;
            return Ok(EventsResponse {
                events: news.events,
                version: news.version,
                chat: chat_after.map(|_| news.chat),
                chat_cursor: news.chat_cursor,
                presence,
            });
        }
        let left = (deadline - now).min(FALLBACK_POLL);
        if !wait_for_news(&state.hub, &mut notices, Some(id), left).await
            && state.hub.is_shutting_down()
        {
            let presence = run(&state, move |conn, _| play::presence(conn, id)).await?;
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

/// Server-Sent Events from version `after` on: each game event with `event:` its type and
/// `id:` (on the last event of a version, so that `Last-Event-ID` resumes after complete
/// versions) its version and chat cursor; the table's chat (`event: chat`, `chat_hidden`) as
/// `chat` asks; `event: presence` whenever who is at the table changes; heartbeats and a retry
/// hint; closed when the process stops. Before each batch is sent, the caller is checked again
/// ([`play::news_for`]): a caller who lost the seat, or whose token expired, gets a
/// `stream_end` event and the stream closes. The stream's slot is given back as soon as the
/// client closes the connection (the server ends a request whose client closed its side).
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
    let heartbeat = state.settings.heartbeat;
    let (tx, rx) = mpsc::channel::<sse::Event>(64);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let _following = following;
        let mut notices = state.hub.notices.subscribe();
        let mut after = after;
        let mut chat = chat;
        let mut cursor = match chat {
            ChatWanted::After(cursor) => cursor,
            ChatWanted::Latest | ChatWanted::No => 0,
        };
        let mut presence_sent: Option<PresenceOut> = None;
        let mut presence_looked: Option<tokio::time::Instant> = None;
        loop {
            let reader = caller.clone();
            match run(&state, move |conn, _| {
                play::news_for(conn, id, &reader, viewer, after, chat)
            })
            .await
            {
                Ok(Ok(news)) => {
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
                        if tx.send(sse::Event::Data(data)).await.is_err() {
                            return;
                        }
                    }
                    after = news.version;
                    for message in &news.chat {
                        cursor = cursor.max(message.cursor);
                        let Ok(event) = serde_json::to_value(message) else {
                            continue;
                        };
                        let Some(data) = sse_event(&message.kind, after, event) else {
                            continue;
                        };
                        let data = data.id(event_id(after, cursor));
                        if tx.send(sse::Event::Data(data)).await.is_err() {
                            return;
                        }
                    }
                    if let Some(next) = news.chat_cursor {
                        cursor = cursor.max(next);
                        chat = ChatWanted::After(cursor);
                    }
                }
                Ok(Err(revoked)) => {
                    let _ = tx.send(end_event(after, revoked)).await;
                    return;
                }
                // The database is away or the game is gone: try again at the next look.
                Err(_) => {}
            }
            if presence_looked.is_none_or(|at| at.elapsed() >= presence_every()) {
                presence_looked = Some(tokio::time::Instant::now());
                if let Ok(presence) = run(&state, move |conn, _| play::presence(conn, id)).await
                    && presence_sent.as_ref() != Some(&presence)
                {
                    let event = serde_json::json!({
                        "type": "presence",
                        "connected": presence.connected,
                        "spectators": presence.spectators,
                    });
                    if let Some(data) = sse_event("presence", after, event)
                        && tx.send(sse::Event::Data(data)).await.is_err()
                    {
                        return;
                    }
                    presence_sent = Some(presence);
                }
            }
            tokio::select! {
                keep_going = wait_for_news(&state.hub, &mut notices, Some(id), FALLBACK_POLL) => {
                    if !keep_going && state.hub.is_shutting_down() {
                        let _ = tx.send(sse::Event::Comment("the server is restarting: reconnect".into())).await;
                        return;
                    }
                }
                () = tx.closed() => return,
            }
        }
    });
    Ok(Sse::from_infallible_receiver(rx)
        .with_keep_alive(heartbeat)
        .with_retry_duration(Duration::from_secs(1)))
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
    let mut notices = state.hub.notices.subscribe();
    let deadline = tokio::time::Instant::now() + wait;
    let mut paired_at: Option<tokio::time::Instant> = None;
    loop {
        let now = tokio::time::Instant::now();
        let pair = paired_at.is_none_or(|at| now >= at + PAIR_EVERY);
        if pair {
            paired_at = Some(now);
        }
        let asker = caller.clone();
        let seek = run(&state, move |conn, state| {
            play::seeks::look(conn, &asker, id, pair, &state.metrics)
        })
        .await?;
        let now = tokio::time::Instant::now();
        if seek.status != "open" || now >= deadline || state.hub.is_shutting_down() {
            if let Some(game) = seek.game_id {
                state.hub.publish(Some(game));
            }
            return Ok(seek);
        }
        let left = (deadline - now).min(PAIR_EVERY);
        if !wait_for_news(&state.hub, &mut notices, None, left).await
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
fn lobby_signature(lobby: &Lobby) -> String {
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
/// replica — at most every [`LOBBY_EVERY`]; heartbeats; closed when the process stops.
pub fn lobby_stream(
    state: web::Data<AppState>,
    query: LobbyQuery,
) -> Result<impl actix_web::Responder, ApiError> {
    let slot = StreamSlot::take(&state, None)?;
    let heartbeat = state.settings.heartbeat;
    let (tx, rx) = mpsc::channel::<sse::Event>(8);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        let mut notices = state.hub.notices.subscribe();
        let mut sent: Option<String> = None;
        loop {
            let read = query.clone();
            let looked = tokio::time::Instant::now();
            if let Ok(lobby) = run(&state, move |conn, state| {
                play::lobby(conn, &read, state.settings.open_table_expiry)
            })
            .await
            {
                let signature = lobby_signature(&lobby);
                if sent.as_ref() != Some(&signature) {
                    let Ok(data) = sse::Data::new_json(&lobby) else {
                        return;
                    };
                    if tx
                        .send(sse::Event::Data(data.event("lobby")))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    sent = Some(signature);
                }
            }
            tokio::select! {
                keep_going = wait_for_news(&state.hub, &mut notices, None, FALLBACK_POLL) => {
                    if !keep_going && state.hub.is_shutting_down() {
                        let _ = tx.send(sse::Event::Comment("the server is restarting: reconnect".into())).await;
                        return;
                    }
                }
                () = tx.closed() => return,
            }
            tokio::select! {
                () = tokio::time::sleep_until(looked + LOBBY_EVERY) => {}
                () = tx.closed() => return,
            }
        }
    });
    Ok(Sse::from_infallible_receiver(rx)
        .with_keep_alive(heartbeat)
        .with_retry_duration(Duration::from_secs(1)))
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

/// Where an account stream's events go, in its form.
enum Sink {
    Sse(mpsc::Sender<sse::Event>),
    Lines(mpsc::Sender<actix_web::web::Bytes>),
}

impl Sink {
    /// Sends one event; false once the client has gone.
    async fn send(&self, id: Option<i64>, event: &serde_json::Value) -> bool {
        match self {
            Sink::Sse(tx) => {
                let Ok(mut data) = sse::Data::new_json(event) else {
                    return true;
                };
                if let Some(kind) = event.get("type").and_then(|t| t.as_str()) {
                    data = data.event(kind.to_owned());
                }
                if let Some(id) = id {
                    data = data.id(id.to_string());
                }
                tx.send(sse::Event::Data(data)).await.is_ok()
            }
            Sink::Lines(tx) => {
                let mut line = event.to_string();
                line.push('\n');
                tx.send(actix_web::web::Bytes::from(line)).await.is_ok()
            }
        }
    }

    /// A heartbeat for a quiet newline-delimited stream (SSE has its own).
    async fn heartbeat(&self) -> bool {
        match self {
            Sink::Sse(_) => true,
            Sink::Lines(tx) => tx
                .send(actix_web::web::Bytes::from_static(b"\n"))
                .await
                .is_ok(),
        }
    }

    async fn closed(&self) {
        match self {
            Sink::Sse(tx) => tx.closed().await,
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
/// stops; whether to look again.
async fn wait_for_account(
    hub: &Hub,
    notices: &mut broadcast::Receiver<i64>,
    id: i64,
    limit: Duration,
) -> bool {
    wait_for(hub, notices, limit, |account| {
        account == id || account == EVERY_GAME
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
            let (tx, rx) = mpsc::channel::<sse::Event>(64);
            let stream = Sse::from_infallible_receiver(rx)
                .with_keep_alive(heartbeat)
                .with_retry_duration(Duration::from_secs(1));
            (Sink::Sse(tx), Either::Left(stream))
        }
        StreamFormat::NdJson => {
            let (tx, rx) = mpsc::channel(64);
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
        let mut quiet_since = tokio::time::Instant::now();
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
                        quiet_since = tokio::time::Instant::now();
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
                quiet_since = tokio::time::Instant::now();
            }
            tokio::select! {
                keep_going = wait_for_account(&state.hub, &mut notices, me, FALLBACK_POLL) => {
                    if !keep_going && state.hub.is_shutting_down() {
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
        let mut notices = hub.notices.subscribe();
        hub.shut_down();
        let waited = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut notices, Some(1), Duration::from_secs(60)),
        )
        .await;
        assert_eq!(
            waited,
            Ok(false),
            "the wait should end at once, saying stop"
        );
    }

    #[tokio::test]
    async fn a_stop_signal_ends_a_wait_in_progress() {
        let hub = std::sync::Arc::new(Hub::default());
        let mut notices = hub.notices.subscribe();
        let waiting = {
            let hub = hub.clone();
            tokio::spawn(async move {
                wait_for_news(&hub, &mut notices, Some(1), Duration::from_secs(60)).await
            })
        };
        tokio::task::yield_now().await;
        hub.shut_down();
        let waited = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(matches!(waited, Ok(Ok(false))), "got {waited:?}");
    }

    #[tokio::test]
    async fn news_of_the_game_or_of_every_game_ends_a_wait_and_others_do_not() {
        let hub = Hub::default();
        let mut notices = hub.notices.subscribe();
        hub.publish(Some(2));
        hub.publish(Some(1));
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut notices, Some(1), Duration::from_secs(60)),
        )
        .await;
        assert_eq!(woke, Ok(true));
        hub.publish(None);
        let woke = tokio::time::timeout(
            Duration::from_secs(5),
            wait_for_news(&hub, &mut notices, Some(1), Duration::from_secs(60)),
        )
        .await;
        assert_eq!(woke, Ok(true));
        hub.publish(Some(3));
        let quiet = tokio::time::timeout(
            Duration::from_millis(200),
            wait_for_news(&hub, &mut notices, Some(1), Duration::from_secs(60)),
        )
        .await;
        assert!(quiet.is_err(), "news of another game woke the wait");
    }
}
