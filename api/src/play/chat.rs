//! Table chat: two rooms a table, `players` and `spectators`, neither reading the other while
//! the game is played (so nobody watching can tip a player); preset phrases; a limit on how
//! fast one person writes; admins hiding messages and muting people; and anyone muting another
//! for themselves.
//!
//! The chat is stored beside the game's log, not in it: a message never changes the game's
//! version, so it never makes a player's move stale. It reaches readers through the game's
//! events (stream and long-poll) with a cursor of its own.

use cardroom_core::Viewer;
use cardroom_db::AnyConnection;
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::talk::{self, ChatRow, NewMessage, Posted};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::loaded::load;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::model::{
    ChatKind, ChatMessage, ChatPage, ChatRequest, MuteList, Preset, PresetKey, Presets, Room,
    UserInfo,
};

/// The preset phrases, in English and Arabic.
const PRESETS: [(PresetKey, &str, &str); 11] = [
    (PresetKey::Hello, "Hello!", "مرحبا!"),
    (PresetKey::GoodLuck, "Good luck", "بالتوفيق"),
    (PresetKey::HaveFun, "Have fun", "استمتعوا"),
    (PresetKey::Thinking, "Thinking…", "أفكّر…"),
    (PresetKey::NiceOne, "Nice one!", "حلوة!"),
    (PresetKey::Sorry, "Sorry", "آسف"),
    (PresetKey::Thanks, "Thanks", "شكرًا"),
    (PresetKey::WellPlayed, "Well played", "أحسنت"),
    (PresetKey::GoodGame, "Good game", "لعبة حلوة"),
    (PresetKey::OneMore, "One more?", "جولة ثانية؟"),
    (PresetKey::Bye, "Bye!", "مع السلامة"),
];

/// The longest message, in characters.
pub const MAX_CHARS: usize = 280;
/// The window of the writing limit: at most `CARDROOM_CHAT_BURST` messages in any this long.
pub const BURST_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);
/// How many messages a reader who has seen none is given.
const LATEST: i64 = 100;
/// The most chat rows one answer carries after a cursor.
const PAGE: i64 = 200;

/// `GET /chat/presets`, with the pace this server allows (`burst` messages a person in any
/// `burst_seconds`), so that a client can hold back rather than be refused.
pub fn presets(burst: u32) -> Presets {
    Presets {
        burst: i64::from(burst),
        burst_seconds: BURST_WINDOW.as_secs() as i64,
        presets: PRESETS
            .iter()
            .map(|&(key, en, ar)| Preset {
                key,
                en: en.to_owned(),
                ar: ar.to_owned(),
            })
            .collect(),
    }
}

fn preset_key(stored: &str) -> Option<PresetKey> {
    serde_json::from_value(serde_json::Value::String(stored.to_owned())).ok()
}

fn preset_name(key: PresetKey) -> String {
    serde_json::to_value(key)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn english(key: PresetKey) -> &'static str {
    PRESETS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or("", |(_, en, _)| en)
}

fn room_of(name: &str) -> Room {
    if name == "spectators" {
        Room::Spectators
    } else {
        Room::Players
    }
}

/// Whether a game in this status is over (both rooms are then read by everyone at the table).
fn over(status: GameStatus) -> bool {
    status.is_over()
}

/// The room `viewer` writes in, and the rooms they read: their own, and once the game is over
/// the other too.
pub(crate) fn rooms(viewer: Viewer, status: GameStatus) -> (Room, Vec<Room>) {
    let own = match viewer {
        Viewer::Seat(_) => Room::Players,
        Viewer::Spectator => Room::Spectators,
    };
    let read = if over(status) {
        vec![Room::Players, Room::Spectators]
    } else {
        vec![own]
    };
    (own, read)
}

fn names(rooms: &[Room]) -> Vec<&'static str> {
    rooms.iter().map(|r| r.name()).collect()
}

/// A typed message as stored: trimmed, 1–280 characters, no control characters, nothing that
/// would make it show other than it reads (a right-to-left override, an isolate, …).
fn checked_text(text: &str) -> Result<String, ApiError> {
    if text.chars().any(char::is_control) {
        return Err(ApiError::Invalid(
            "a message may not hold control characters (line breaks, tabs, NUL, …)".to_owned(),
        ));
    }
    crate::input::plain_text("text", text)?;
    if text.chars().count() > MAX_CHARS {
        return Err(ApiError::Invalid(format!(
            "a message is at most {MAX_CHARS} characters"
        )));
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ApiError::Invalid(
            "a message needs at least one character that is not a space".to_owned(),
        ));
    }
    Ok(trimmed.to_owned())
}

/// A chat row as readers get it.
pub(crate) fn message_out(row: &ChatRow) -> ChatMessage {
    let hidden_note = row.kind == cardroom_db::talk::ChatEntry::Hidden;
    let preset = row.preset.as_deref().and_then(preset_key);
    ChatMessage {
        kind: if hidden_note {
            ChatKind::ChatHidden
        } else {
            ChatKind::Chat
        },
        id: if hidden_note {
            row.target.unwrap_or(row.id)
        } else {
            row.id
        },
        cursor: row.id,
        room: room_of(&row.room),
        name: (!hidden_note).then(|| row.name.clone()),
        text: if hidden_note {
            None
        } else {
            row.text
                .clone()
                .or_else(|| preset.map(|p| english(p).to_owned()))
        },
        preset,
        at: row.created_at.and_utc(),
    }
}

/// `POST /games/{id}/chat`.
pub fn post(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: GameId,
    request: ChatRequest,
    burst: u32,
) -> Result<ChatMessage, ApiError> {
    let (text, preset, wanted) = match request {
        ChatRequest::Text(typed) => (Some(checked_text(&typed.text)?), None, typed.room),
        ChatRequest::Preset(chosen) => (None, Some(preset_name(chosen.preset)), chosen.room),
    };
    let loaded = load(conn, id)?;
    let viewer = loaded.reader(Some(caller))?;
    if viewer.seat().is_some() {
        // (A bot account speaks at its table as it plays: through its tokens.)
        loaded.require_seat(caller)?;
    }
    let (room, _) = rooms(viewer, loaded.record.game.status);
    if wanted.is_some_and(|wanted| wanted != room) {
        return Err(ApiError::Forbidden(format!(
            "you write in the {} room here: players in `players`, spectators in `spectators`",
            room.name()
        )));
    }
    let window = chrono::Duration::from_std(BURST_WINDOW).unwrap_or(chrono::Duration::seconds(10));
    let now = cardroom_db::now();
    let new = NewMessage {
        game_id: id,
        room: room.name().to_owned(),
        user_id: caller.id,
        text,
        preset,
    };
    match talk::post(conn, &new, now - window, i64::from(burst))? {
        Posted::Stored(row) => Ok(message_out(&row)),
        Posted::Muted(until) => Err(ApiError::Muted {
            until: until.and_utc(),
        }),
        Posted::Limited(oldest) => {
            let free = (oldest + window - now).num_milliseconds().max(0);
            Err(ApiError::TooMany {
                code: ProblemCode::RateLimited,
                detail: format!(
                    "at most {burst} messages in any {} seconds: wait a moment",
                    BURST_WINDOW.as_secs()
                ),
                retry_after: u64::try_from((free + 999) / 1000).unwrap_or(1).max(1),
            })
        }
    }
}

/// The chat after `after` that `reader` may read as `viewer` of a game in `status` — without a
/// cursor, the latest messages — and the cursor to read on from.
pub(crate) fn news(
    conn: &mut AnyConnection,
    id: GameId,
    reader: Option<i64>,
    viewer: Viewer,
    status: GameStatus,
    after: Option<i64>,
) -> Result<(Vec<ChatMessage>, i64), ApiError> {
    let (_, read) = rooms(viewer, status);
    let read = names(&read);
    let rows = match after {
        None => talk::latest(conn, id, &read, reader, LATEST)?,
        Some(after) => talk::after(conn, id, &read, after, reader, PAGE)?,
    };
    let cursor = rows
        .last()
        .map_or(after.unwrap_or(0), |row| row.id.max(after.unwrap_or(0)));
    Ok((rows.iter().map(message_out).collect(), cursor))
}

/// `GET /games/{id}/chat`.
pub fn page(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: GameId,
    after: Option<i64>,
) -> Result<ChatPage, ApiError> {
    if after.is_some_and(|a| a < 0) {
        return Err(ApiError::Invalid("after is a cursor, 0 or more".to_owned()));
    }
    let loaded = load(conn, id)?;
    let viewer = super::gate::reading(conn, &loaded, caller)?.viewer;
    let status = loaded.record.game.status;
    let (messages, cursor) = news(conn, id, caller.map(|c| c.id), viewer, status, after)?;
    let (room, rooms) = rooms(viewer, status);
    let muted_until = match caller {
        Some(caller) => {
            talk::muted_until(conn, caller.id)?.filter(|until| *until > cardroom_db::now())
        }
        None => None,
    };
    Ok(ChatPage {
        messages,
        cursor,
        rooms,
        room,
        writes: caller.is_some(),
        muted_until: muted_until.map(|until| until.and_utc()),
    })
}

// ---------------------------------------------------------------------------------------------
// One person's mutes.

fn user_named(conn: &mut AnyConnection, name: &str) -> Result<cardroom_db::users::User, ApiError> {
    crate::input::text("name", name)?;
    cardroom_db::users::by_name(conn, name)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no player {name:?}")))
}

/// `GET /mutes`.
pub fn mutes(conn: &mut AnyConnection, caller: &Caller) -> Result<MuteList, ApiError> {
    Ok(MuteList {
        names: talk::muted_by(conn, caller.id)?,
    })
}

/// `PUT /mutes/{name}`: the caller no longer gets `name`'s chat.
pub fn mute(conn: &mut AnyConnection, caller: &Caller, name: &str) -> Result<MuteList, ApiError> {
    let user = user_named(conn, name)?;
    if user.id == caller.id {
        return Err(self_mute());
    }
    talk::mute(conn, caller.id, user.id)?;
    mutes(conn, caller)
}

fn self_mute() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::SelfMute,
        detail: "you cannot mute yourself".to_owned(),
    }
}

/// `DELETE /mutes/{name}`.
pub fn unmute(conn: &mut AnyConnection, caller: &Caller, name: &str) -> Result<MuteList, ApiError> {
    let user = user_named(conn, name)?;
    if !talk::unmute(conn, caller.id, user.id)? {
        return Err(ApiError::NotFound(format!("you have not muted {name:?}")));
    }
    mutes(conn, caller)
}

// ---------------------------------------------------------------------------------------------
// Admins.

/// Query of `GET /admin/chat`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AdminChatQuery {
    /// Only this game's messages.
    #[param(minimum = 1)]
    pub game: Option<i64>,
    /// Only this person's messages.
    pub player: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// 1–200, default 50.
    #[param(minimum = 1, maximum = 200)]
    pub per_page: Option<i64>,
}

/// A message as admins see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminChatMessage {
    pub id: i64,
    pub game_id: i64,
    pub room: Room,
    pub name: String,
    pub text: Option<String>,
    pub preset: Option<PresetKey>,
    /// An admin hid it: nobody else gets it any more.
    pub hidden: bool,
    pub at: DateTime<Utc>,
    /// The author is muted in every chat until then (absent: not muted now).
    pub author_muted_until: Option<DateTime<Utc>>,
}

/// `GET /admin/chat`: messages, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminChatList {
    pub messages: Vec<AdminChatMessage>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
}

fn admin_message(row: &ChatRow, muted_until: Option<NaiveDateTime>) -> AdminChatMessage {
    let preset = row.preset.as_deref().and_then(preset_key);
    let now = cardroom_db::now();
    AdminChatMessage {
        id: row.id,
        game_id: row.game_id.get(),
        room: room_of(&row.room),
        name: row.name.clone(),
        text: row
            .text
            .clone()
            .or_else(|| preset.map(|p| english(p).to_owned())),
        preset,
        hidden: row.hidden,
        at: row.created_at.and_utc(),
        author_muted_until: muted_until
            .filter(|until| *until > now)
            .map(|until| until.and_utc()),
    }
}

/// `GET /admin/chat`.
pub fn admin_list(
    conn: &mut AnyConnection,
    caller: &Caller,
    query: &AdminChatQuery,
) -> Result<AdminChatList, ApiError> {
    super::access::admin_only(conn, caller)?;
    if query.game.is_some_and(|g| g < 1) {
        return Err(ApiError::Invalid(
            "game is a game's id, 1 or more".to_owned(),
        ));
    }
    let (page, per_page) = super::paging::paging(query.page, query.per_page, 50, 200)?;
    let author = match &query.player {
        None => None,
        Some(name) => match cardroom_db::users::by_name(conn, crate::input::text("player", name)?)?
        {
            Some(user) => Some(user.id),
            None => {
                return Ok(AdminChatList {
                    messages: Vec::new(),
                    page,
                    per_page,
                    total: 0,
                });
            }
        },
    };
    let (rows, total) = talk::for_admins(conn, query.game, author, page, per_page)?;
    Ok(AdminChatList {
        messages: rows
            .iter()
            .map(|(row, muted)| admin_message(row, *muted))
            .collect(),
        page,
        per_page,
        total,
    })
}

/// `POST /admin/chat/{id}/hide`: the message is taken down for everyone; returns it and the
/// game it was said at (whose listeners must hear of it).
pub fn admin_hide(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
) -> Result<AdminChatMessage, ApiError> {
    super::access::admin_only(conn, caller)?;
    let row = talk::hide(conn, id, caller.id)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no message {id}")))?;
    let muted = talk::muted_until(conn, row.user_id)?;
    Ok(admin_message(&row, muted))
}

/// `POST /admin/users/{name}/mute`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"muted": true, "minutes": 60}))]
pub struct MuteRequest {
    /// `true` mutes the person in every chat, `false` lifts the mute.
    pub muted: bool,
    /// How long, in minutes (1 to a year); without it, until lifted. (Ignored when lifting.)
    #[schema(minimum = 1, maximum = 525600)]
    pub minutes: Option<i64>,
}

/// A person's chat standing.
#[derive(Debug, Serialize, ToSchema)]
pub struct MutedUser {
    pub user: UserInfo,
    /// Muted in every chat until then; none: not muted.
    pub muted_until: Option<DateTime<Utc>>,
}

/// The end of an indefinite mute.
fn forever() -> NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .unwrap_or_default()
}

/// `POST /admin/users/{name}/mute`.
pub fn admin_mute(
    conn: &mut AnyConnection,
    caller: &Caller,
    name: &str,
    request: &MuteRequest,
) -> Result<MutedUser, ApiError> {
    super::access::admin_only(conn, caller)?;
    let until = match (request.muted, request.minutes) {
        (false, _) => None,
        (true, None) => Some(forever()),
        (true, Some(minutes)) if (1..=525_600).contains(&minutes) => {
            Some(cardroom_db::now() + chrono::Duration::minutes(minutes))
        }
        (true, Some(_)) => {
            return Err(ApiError::Invalid(
                "minutes is from 1 to 525600 (a year)".to_owned(),
            ));
        }
    };
    let user = user_named(conn, name)?;
    if user.id == caller.id && until.is_some() {
        return Err(self_mute());
    }
    cardroom_db::users::set_muted_until(conn, user.id, until)?;
    Ok(MutedUser {
        user: UserInfo {
            id: user.id,
            name: user.name,
            role: user.role,
            guest: user.guest,
            bot: user.bot,
        },
        muted_until: until.map(|u| u.and_utc()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_trimmed_and_held_to_its_bounds() {
        assert_eq!(checked_text("  good luck  ").unwrap(), "good luck");
        assert_eq!(checked_text("<b>hi</b>").unwrap(), "<b>hi</b>");
        assert_eq!(checked_text("بالتوفيق").unwrap(), "بالتوفيق");
        for bad in ["", "   ", "a\nb", "a\tb", "nul\0", "\u{85}", "\u{7f}"] {
            assert_eq!(
                checked_text(bad).unwrap_err().code(),
                ProblemCode::ValidationFailed,
                "{bad:?}"
            );
        }
        assert!(checked_text(&"é".repeat(280)).is_ok());
        assert!(checked_text(&"é".repeat(281)).is_err());
    }

    #[test]
    fn every_preset_has_both_languages_and_reads_back() {
        for preset in presets(5).presets {
            assert!(!preset.en.is_empty() && !preset.ar.is_empty());
            assert_eq!(preset_key(&preset_name(preset.key)), Some(preset.key));
        }
    }

    #[test]
    fn during_a_game_players_and_spectators_read_only_their_own_room() {
        let seat = Viewer::Seat(cardroom_core::Seat::new(0));
        assert_eq!(
            rooms(seat, GameStatus::Active),
            (Room::Players, vec![Room::Players])
        );
        assert_eq!(
            rooms(Viewer::Spectator, GameStatus::HandOver),
            (Room::Spectators, vec![Room::Spectators])
        );
        assert_eq!(
            rooms(Viewer::Spectator, GameStatus::Finished),
            (Room::Spectators, vec![Room::Players, Room::Spectators])
        );
    }
}
