//! At the table besides the game: who is there, the chat and its presets, mutes, rematches.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Who is at a table now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PresenceOut {
    /// The seats of people connected now (on any replica).
    pub connected: Vec<i64>,
    /// People watching without a seat.
    pub spectators: i64,
}

/// A chat room: `players` (the people seated) or `spectators` (people watching a public game).
/// During a game neither room reads the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Players,
    Spectators,
}

impl Room {
    /// The name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }
}

/// `POST /games/{id}/chat`: a message in the caller's room, either typed (`text`) or one of the
/// preset phrases (`preset`, see `GET /chat/presets`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ChatRequest {
    Text(ChatText),
    Preset(ChatPreset),
}

/// A typed message.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"text": "good luck all"}))]
pub struct ChatText {
    /// 1–280 characters with at least one that is not a space, no control characters and
    /// nothing that would make it show other than it reads (bidirectional controls such as
    /// U+202E, isolates, line separators, invisible spaces, a zero-width joiner or non-joiner
    /// anywhere but between two visible characters); surrounding spaces are trimmed. Shown as
    /// text, never as markup.
    #[schema(
        min_length = 1,
        max_length = 280,
        pattern = r"^[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d](?:[\u200c\u200d]?[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d])*(?:[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d](?:[\u200c\u200d]?[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d])*)*[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*$"
    )]
    pub text: String,
    /// The caller's own room (players write in `players`, spectators in `spectators`); the
    /// default.
    pub room: Option<Room>,
}

/// A preset phrase.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"preset": "good_luck"}))]
pub struct ChatPreset {
    pub preset: PresetKey,
    /// The caller's own room; the default.
    pub room: Option<Room>,
}

/// A preset phrase's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PresetKey {
    Hello,
    GoodLuck,
    HaveFun,
    Thinking,
    NiceOne,
    Sorry,
    Thanks,
    WellPlayed,
    GoodGame,
    OneMore,
    Bye,
}

/// A preset phrase in each language the page speaks.
#[derive(Debug, Serialize, ToSchema)]
pub struct Preset {
    pub key: PresetKey,
    pub en: String,
    pub ar: String,
}

/// `GET /chat/presets`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Presets {
    pub presets: Vec<Preset>,
    /// The most messages one person may write in any `burst_seconds` (`CARDROOM_CHAT_BURST`);
    /// one more is refused with 429 `rate_limited`.
    pub burst: i64,
    pub burst_seconds: i64,
}

/// A chat message as readers get it; or, with `type` `chat_hidden`, the note that the message
/// `id` was hidden by an admin (take it down).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ChatMessage {
    #[serde(rename = "type")]
    pub kind: ChatKind,
    /// The message's id (for `chat_hidden`, the hidden message's).
    pub id: i64,
    /// The chat's position: a reader's cursor moves past it.
    pub cursor: i64,
    pub room: Room,
    /// The author (absent in a `chat_hidden` note).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What was said (a preset's English text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A preset phrase's key: a client shows it in its reader's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<PresetKey>,
    pub at: DateTime<Utc>,
}

/// A chat message, or the note that one was hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatKind {
    Chat,
    ChatHidden,
}

impl ChatKind {
    /// The word, as the stream's `event:` names it.
    pub fn name(self) -> &'static str {
        match self {
            ChatKind::Chat => "chat",
            ChatKind::ChatHidden => "chat_hidden",
        }
    }
}

/// `GET /games/{id}/chat`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatPage {
    /// Oldest first.
    pub messages: Vec<ChatMessage>,
    /// Read on with `after` (or `chat_after` of the events) set to it.
    pub cursor: i64,
    /// The rooms the caller reads now (both once the game is over).
    pub rooms: Vec<Room>,
    /// The room the caller writes in.
    pub room: Room,
    /// Whether the caller may write here at all: a stranger (no token) only reads.
    pub writes: bool,
    /// When an admin has muted the caller in every chat: until then (their messages are
    /// refused with `muted`, which says the same).
    pub muted_until: Option<DateTime<Utc>>,
}

/// Query of `GET /games/{id}/chat`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    /// The chat after this cursor (at most 200); without it, the latest 100 messages.
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// `POST /games/{id}/rematch`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    /// `true` (the default) offers a rematch or accepts the one offered; `false` declines it
    /// (or withdraws one's own offer).
    pub accept: Option<bool>,
}

/// A finished game's rematch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RematchState {
    /// The seats whose people want the rematch.
    pub accepted: Vec<i64>,
    /// The seats whose people must still accept.
    pub waiting_for: Vec<i64>,
    /// The seat that declined the last offer, if one did (a new offer clears it).
    pub declined_by: Option<i64>,
    /// The new game, once everyone accepted.
    pub game_id: Option<i64>,
}

/// `GET /mutes`: the people whose chat the caller does not get.
#[derive(Debug, Serialize, ToSchema)]
pub struct MuteList {
    pub names: Vec<String>,
}

/// What a long-poll's caller shows of who is at the table (each part only if it said).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KnownPresence {
    pub connected: Option<Vec<i64>>,
    pub spectators: Option<i64>,
}

impl KnownPresence {
    /// Whether `now` differs from what the caller shows.
    pub fn differs(&self, now: &PresenceOut) -> bool {
        self.connected.as_ref().is_some_and(|c| *c != now.connected)
            || self.spectators.is_some_and(|s| s != now.spectators)
    }
}
