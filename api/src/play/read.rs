//! Reading a game: events, the log, the score sheet, and the list of one's games.

use cardroom_core::rng::SHUFFLE_VERSION;
use cardroom_core::{Card, GameKind, Viewer};
use cardroom_db::GameId;
use cardroom_db::games::{self};
use cardroom_db::{AnyConnection, GameStatus};

use std::sync::Arc;

use super::loaded::load;
use super::seats::seat_infos;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::events::visible;
use crate::model::{
    ChatMessage, DealOut, EventOut, GameList, GameSummary, ListQuery, LogEntryOut, LogResponse,
    PresenceOut, ScoreResponse, StreamEndReason,
};
use crate::shared::{GameLog, MAX_ENTRIES};

/// Checks that the caller may read the game (seated, or watching a public table); returns who
/// they are at the table.
pub fn authorize_reader(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: GameId,
) -> Result<(Viewer, GameKind), ApiError> {
    let loaded = load(conn, id)?;
    Ok((
        super::gate::reading(conn, &loaded, caller)?.viewer,
        loaded.kind(),
    ))
}

/// The events after `after` that `viewer` may see, and the current version.
pub fn events_after(
    conn: &mut AnyConnection,
    id: GameId,
    viewer: Viewer,
    after: i64,
) -> Result<(Vec<EventOut>, i64), ApiError> {
    let (events, version, _) = events_and_status(conn, id, viewer, after)?;
    Ok((events, version))
}

/// [`events_after`], with the game's status.
fn events_and_status(
    conn: &mut AnyConnection,
    id: GameId,
    viewer: Viewer,
    after: i64,
) -> Result<(Vec<EventOut>, i64, GameStatus), ApiError> {
    let (mut version, status) = games::version_and_status(conn, id)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    let mut out = Vec::new();
    if after < version {
        let rows = games::log_after(conn, id, after.max(0), EVENTS_PAGE)?;
        // A long gap comes in pages: the version answered is the last one included.
        if rows.len() as i64 == EVENTS_PAGE
            && let Some(last) = rows.last()
        {
            version = last.seq;
        }
        for row in rows {
            out.extend(visible(&row.events, viewer, row.seq)?);
        }
    }
    Ok((out, version, status))
}

/// Which of a table's chat a follower wants with its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatWanted {
    /// None (a long-poll that did not ask).
    No,
    /// The latest messages (a stream that has seen none yet).
    Latest,
    /// The chat after this cursor.
    After(i64),
}

/// What a follower of a game is sent at one look.
#[derive(Debug)]
pub struct News<E = Vec<EventOut>> {
    /// The game's events after the follower's version, as their seat (or a spectator) sees
    /// them (decoded, or encoded for a stream).
    pub events: E,
    pub version: i64,
    /// The chat after the follower's chat cursor (when wanted).
    pub chat: Vec<ChatMessage>,
    /// Where the follower's chat cursor is now (when wanted).
    pub chat_cursor: Option<i64>,
}

/// Why a reader may no longer follow a game's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revoked {
    /// The caller no longer holds the seat the stream was opened for (they resigned and a
    /// computer took it over): its private events are no longer theirs.
    SeatLost,
    /// The token the stream was opened with has expired (a session's) or was revoked (a
    /// personal API token's).
    TokenExpired,
}

impl Revoked {
    /// The reason the `stream_end` event gives.
    pub fn reason(self) -> StreamEndReason {
        match self {
            Revoked::SeatLost => StreamEndReason::SeatLost,
            Revoked::TokenExpired => StreamEndReason::TokenExpired,
        }
    }

    /// The refusal a new request for the same events gets.
    pub fn error(self) -> ApiError {
        match self {
            Revoked::SeatLost => ApiError::Forbidden("you are not seated at this game".to_owned()),
            Revoked::TokenExpired => {
                ApiError::Unauthorized("the token is invalid, expired or revoked".to_owned())
            }
        }
    }
}

/// Reads game `id`'s log for its followers, to be shared by all of them (see
/// [`GameLog`]): on top of `latest` when that reaches back to `after` (then only the entries
/// since it are read), otherwise from `after`; at most [`MAX_ENTRIES`] entries, the newest.
pub fn read_log(
    conn: &mut AnyConnection,
    id: GameId,
    latest: Option<&GameLog>,
    after: i64,
) -> Result<GameLog, ApiError> {
    let (mut floor, mut entries, from) = match latest {
        Some(latest) if latest.floor <= after => {
            (latest.floor, latest.entries.clone(), latest.version)
        }
        _ => (after.max(0), Vec::new(), after.max(0)),
    };
    // One statement: the version, the status, the newest chat and the first page of entries.
    let news = games::news_since(conn, id, from, EVENTS_PAGE)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    let version = news.version;
    let mut read_to = news.entries.last().map_or(from, |entry| entry.0);
    entries.extend(news.entries.into_iter().map(Arc::new));
    if version < from {
        // (A follower ahead of the game: nothing to keep.)
        entries.clear();
        floor = version;
        read_to = version;
    } else if version - from > MAX_ENTRIES {
        // Too far behind to keep it all: the newest entries only.
        entries.clear();
        floor = version - MAX_ENTRIES;
        read_to = floor;
    }
    while read_to < version {
        let rows = games::log_after(conn, id, read_to, EVENTS_PAGE)?;
        let Some(last) = rows.last() else { break };
        read_to = last.seq;
        // (An entry committed after the version was read waits for the next read.)
        entries.extend(
            rows.into_iter()
                .filter(|row| row.seq <= version)
                .map(|row| Arc::new((row.seq, row.events))),
        );
    }
    let excess = entries.len().saturating_sub(MAX_ENTRIES as usize);
    if excess > 0 {
        floor = entries[excess - 1].0;
        entries.drain(..excess);
    }
    Ok(GameLog {
        version,
        status: news.status,
        chat_newest: news.chat_newest,
        floor,
        entries,
        encoded: std::sync::Mutex::default(),
    })
}

/// A follower's own part of a look: the chat they asked for.
#[derive(Debug)]
pub struct Personal {
    pub chat: Vec<ChatMessage>,
    pub chat_cursor: Option<i64>,
}

/// The follower's own part of a look when it needs nothing from the database (a session's
/// caller or a stranger, watching, with no chat to read: the game's newest chat row is
/// `chat_newest`); none when it does (see [`personal`]).
pub fn personal_without_storage(
    caller: Option<&Caller>,
    viewer: Viewer,
    chat: ChatWanted,
    chat_newest: i64,
) -> Option<Result<Personal, Revoked>> {
    if caller.is_some_and(Caller::token_expired) {
        return Some(Err(Revoked::TokenExpired));
    }
    let chat_cursor = match chat {
        ChatWanted::No => None,
        ChatWanted::After(cursor) if chat_newest <= cursor => Some(cursor),
        ChatWanted::After(_) | ChatWanted::Latest => return None,
    };
    let session = caller.is_none_or(|c| matches!(c.credential, crate::auth::Credential::Session));
    if viewer.seat().is_some() || !session {
        return None;
    }
    Some(Ok(Personal {
        chat: Vec::new(),
        chat_cursor,
    }))
}

/// The follower's own part of a look at game `id` (in `status`, its newest chat row
/// `chat_newest`), after the shared read of its log: the chat `chat` asks for (read only when
/// there is some after the follower's cursor), and a check that the caller may still have what
/// was read —
/// the token is still valid, and the caller still holds the seat they read as. The check comes
/// *after* the log was read, so a batch that includes entries written after the seat changed
/// hands is never delivered (a seat once handed to a computer is not given back to the person
/// who left it).
pub fn personal(
    conn: &mut AnyConnection,
    id: GameId,
    caller: Option<&Caller>,
    viewer: Viewer,
    (status, chat_newest): (GameStatus, i64),
    chat: ChatWanted,
) -> Result<Result<Personal, Revoked>, ApiError> {
    if caller.is_some_and(Caller::token_expired) {
        return Ok(Err(Revoked::TokenExpired));
    }
    let reader = caller.map(|c| c.id);
    let (chat, chat_cursor) = match chat {
        ChatWanted::No => (Vec::new(), None),
        ChatWanted::After(cursor) if chat_newest <= cursor => (Vec::new(), Some(cursor)),
        ChatWanted::Latest => {
            let (chat, cursor) = super::chat::news(conn, id, reader, viewer, status, None)?;
            (chat, Some(cursor))
        }
        ChatWanted::After(cursor) => {
            let (chat, cursor) = super::chat::news(conn, id, reader, viewer, status, Some(cursor))?;
            (chat, Some(cursor))
        }
    };
    // (After the reads, like the seat: a token revoked meanwhile gets nothing read after it.)
    // A stranger has no token to lose, and no seat.
    let Some(caller) = caller else {
        return Ok(Ok(Personal { chat, chat_cursor }));
    };
    if !crate::tokens::still_valid(conn, caller)? {
        return Ok(Err(Revoked::TokenExpired));
    }
    if let Some(seat) = viewer.seat() {
        let held = games::seat_held_by(conn, id, caller.id)?;
        if held != Some(i32::from(seat.number())) {
            return Ok(Err(Revoked::SeatLost));
        }
    }
    Ok(Ok(Personal { chat, chat_cursor }))
}

/// Who is at game `id` now: the seats whose people are connected, and how many watch.
pub fn presence(conn: &mut AnyConnection, id: GameId) -> Result<PresenceOut, ApiError> {
    let table = cardroom_db::talk::at_game(conn, id, crate::presence::since())?;
    Ok(presence_out(table))
}

/// [`presence`] at each of the games `ids`, read together (the safety net's look at every
/// table its process follows).
pub fn presence_at(
    conn: &mut AnyConnection,
    ids: &[GameId],
) -> Result<std::collections::HashMap<GameId, PresenceOut>, ApiError> {
    let tables = cardroom_db::talk::at_games(conn, ids, crate::presence::since())?;
    Ok(tables
        .into_iter()
        .map(|(id, table)| (id, presence_out(table)))
        .collect())
}

fn presence_out((seats, spectators): cardroom_db::talk::AtTable) -> PresenceOut {
    PresenceOut {
        connected: seats
            .into_iter()
            .filter(|&(_, connected)| connected)
            .map(|(seat, _)| i64::from(seat))
            .collect(),
        spectators,
    }
}

/// The most log entries one events answer covers.
pub const EVENTS_PAGE: i64 = 500;

/// `GET /games/{id}/log`.
pub fn log(conn: &mut AnyConnection, caller: &Caller, id: GameId) -> Result<LogResponse, ApiError> {
    let loaded = load(conn, id)?;
    let reading = super::gate::reading(conn, &loaded, Some(caller))?;
    let viewer = reading.viewer;
    let mut entries = Vec::new();
    let mut after = 0;
    loop {
        let rows = games::log_after(conn, id, after, 1000)?;
        let Some(last) = rows.last() else { break };
        after = last.seq;
        for row in rows {
            entries.push(LogEntryOut {
                version: row.seq,
                action: row.action.clone(),
                seat: row.seat.map(i64::from),
                mv: row
                    .payload
                    .as_deref()
                    .and_then(|p| serde_json::from_str(p).ok()),
                events: visible(&row.events, viewer, row.seq)?,
                at: row.created_at.and_utc(),
            });
        }
    }
    let table = loaded.game.as_ref().map(|g| g.table());
    let deals = games::deals(conn, id)?
        .into_iter()
        .map(|d| DealOut {
            deal: i64::from(d.deal),
            hand: i64::from(d.hand),
            commitment: d.commitment,
            // (While the board is played at another table, its seeds and cards wait.)
            seed: d.seed.filter(|_| reading.seeds()),
            practice_deck: table
                .filter(|_| reading.seeds())
                .and_then(|t| t.practice_deal(d.deal as u32))
                .map(<[Card]>::to_vec),
        })
        .collect();
    let options = serde_json::from_str(&loaded.record.game.options)
        .map_err(ApiError::because("stored options"))?;
    Ok(LogResponse {
        id: id.get(),
        kind: loaded.kind(),
        variant: loaded.record.game.variant.clone(),
        seats: i64::from(loaded.record.game.seat_count),
        options,
        your_seat: viewer.seat().map(|s| i64::from(s.number())),
        entries,
        deals,
        shuffle_version: SHUFFLE_VERSION,
    })
}

/// `GET /games/{id}/score`.
pub fn score(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: GameId,
) -> Result<ScoreResponse, ApiError> {
    let loaded = load(conn, id)?;
    super::gate::reading(conn, &loaded, caller)?;
    let game = loaded.started()?;
    Ok(ScoreResponse {
        seats: seat_infos(&loaded.record.seats),
        sheet: game.scores(),
    })
}

/// `GET /games?mine=true`.
pub fn list(
    conn: &mut AnyConnection,
    caller: &Caller,
    query: &ListQuery,
) -> Result<GameList, ApiError> {
    if query.mine == Some(false) {
        return Err(ApiError::Invalid(
            "only your own games are listed here (mine=true); admins use /admin/games".to_owned(),
        ));
    }
    let statuses = match &query.status {
        None => Vec::new(),
        Some(list) => crate::input::statuses(list)?,
    };
    let (page, per_page) = super::paging::paging(query.page, query.per_page, 20, 100)?;
    let (records, total) = games::list_for_user(conn, caller.id, &statuses, page, per_page)?;
    let games = records
        .into_iter()
        .map(|record| {
            let row = &record.game;
            GameSummary {
                id: row.id.get(),
                kind: row.kind,
                variant: row.variant.clone(),
                status: row.status,
                version: row.version,
                practice: row.practice,
                seats: seat_infos(&record.seats),
                your_seat: record
                    .seats
                    .iter()
                    .find(|s| s.user_id == Some(caller.id))
                    .map(|s| i64::from(s.seat)),
                to_act: row.to_act.map(i64::from),
                created_at: row.created_at.and_utc(),
                updated_at: row.updated_at.and_utc(),
                winners: row
                    .winners
                    .as_deref()
                    .and_then(|w| serde_json::from_str(w).ok()),
            }
        })
        .collect();
    Ok(GameList {
        games,
        page,
        per_page,
        total,
    })
}
