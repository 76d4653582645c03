//! The API's request and response bodies. Each is its own type (a database row is never a
//! response: it would leak the seed), documented in the OpenAPI document.

use cardroom_core::{AnyMove, AnyView, Card, GameKind, KindInfo, OptionValue, Outcome, ScoreSheet};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

/// `POST /auth/guest`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuestRequest {
    /// A display name (3–32 letters, digits, `_`, `-`, `.`); one is made up when left out.
    #[schema(example = "amira", pattern = r"^[A-Za-z0-9_.-]{3,32}$")]
    pub name: Option<String>,
}

/// `POST /auth/register` and `POST /auth/login`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3–32 letters, digits, `_`, `-`, `.` (the first admin's name, from the configuration, may
    /// be anything up to 128 characters without a NUL).
    #[schema(example = "amira", pattern = r"^[A-Za-z0-9_.-]{3,32}$")]
    pub name: String,
    /// 8–128 characters.
    #[schema(example = "a long passphrase", min_length = 8, max_length = 128)]
    pub password: String,
}

/// An account as others may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct UserInfo {
    pub id: i64,
    pub name: String,
    /// `player` or `admin`.
    pub role: String,
    pub guest: bool,
    /// A bot account: a program that plays through personal API tokens.
    pub bot: bool,
}

/// A token and the account it is for.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthResponse {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    pub user: UserInfo,
}

/// The game catalogue.
#[derive(Debug, Serialize, ToSchema)]
pub struct Catalogue {
    pub kinds: Vec<KindInfo>,
    /// The turn timers a table may have (`turn` of `POST /games`).
    pub turn: TurnBounds,
}

/// The bounds of a table's turn timer.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnBounds {
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub min_takeover_after: i64,
    pub max_takeover_after: i64,
    pub default_takeover_after: i64,
    /// The computer player that moves for a person out of time.
    pub stand_in: String,
}

/// Who may find, join and watch a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Listed in the lobby: anyone signed in may take an open seat (no invite code) or watch.
    Public,
    /// Joined with the invite code only (the default); not listed, not watched.
    #[default]
    Unlisted,
    /// Joined with the invite code only; never watched.
    Private,
}

impl Visibility {
    /// The name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Unlisted => "unlisted",
            Visibility::Private => "private",
        }
    }

    /// The visibility of a stored name.
    pub fn of(name: &str) -> Visibility {
        match name {
            "public" => Visibility::Public,
            "private" => Visibility::Private,
            _ => Visibility::Unlisted,
        }
    }
}

/// One seat in a new game: a person (no `bot`) or a computer player.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// A computer player's level from the catalogue (`random`, `greedy`, …).
    #[schema(example = "greedy")]
    pub bot: Option<String>,
}

/// `POST /games`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "basra", "variant": "standard", "seats": [{}, {"bot": "greedy"}]}))]
pub struct CreateGame {
    pub kind: GameKind,
    /// The variant; the kind's default when left out.
    pub variant: Option<String>,
    /// Every seat in turn order (how many each game and variant seats: the catalogue).
    #[schema(min_items = 2, max_items = 8)]
    pub seats: Vec<SeatRequest>,
    /// House rules, within the catalogue's bounds.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// The creator's seat (default 0); it must be a person's seat.
    #[schema(minimum = 0, maximum = 7)]
    pub seat: Option<i64>,
    /// A practice game from a fixed seed: 64 hex digits.
    #[schema(pattern = "^[0-9a-fA-F]{64}$")]
    pub seed: Option<String>,
    /// A practice game from an explicit deck order, top card first (several decks' worth for
    /// several deals).
    pub deck: Option<Vec<Card>>,
    /// A turn timer; none: people take as long as they like.
    pub turn: Option<TurnPolicy>,
    /// `public` (in the lobby: anyone may sit down or watch), `unlisted` (the default: the
    /// invite code seats a friend) or `private` (the invite code; no one watches).
    pub visibility: Option<Visibility>,
}

/// A table's turn timer: when a person's time runs out the server plays for them (the `easy`
/// computer player); after `takeover_after` timeouts in a row a computer player takes the seat
/// until they reclaim it (`POST /games/{id}/reclaim`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seconds": 60, "takeover_after": 3}))]
pub struct TurnPolicy {
    /// Seconds for each move (or for the next deal, between hands): 5 to 86400.
    #[schema(minimum = 5, maximum = 86400)]
    pub seconds: i64,
    /// Timeouts in a row before a computer player takes the seat: 1 to 10 (default 3).
    #[schema(minimum = 1, maximum = 10)]
    pub takeover_after: Option<i64>,
}

/// `POST /games/{id}/join`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The table's invite code; not needed at a public table.
    pub invite_code: Option<String>,
    /// A particular open seat; the first open one when left out.
    #[schema(minimum = 0, maximum = 7)]
    pub seat: Option<i64>,
}

/// `POST /games/{id}/moves`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 3, "move": {"type": "play", "card": "7D"}}))]
pub struct MoveRequest {
    /// The version of the view the move was chosen from.
    #[schema(minimum = 0)]
    pub expected_version: i64,
    /// The move, as the game defines it (see each game's legal moves).
    #[serde(rename = "move")]
    #[schema(value_type = AnyMove)]
    pub mv: serde_json::Value,
}

/// A seat as the table shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatInfo {
    pub seat: i64,
    /// The person's name (none while the seat is open or for a computer player).
    pub name: Option<String>,
    /// The computer player's level, for a computer seat.
    pub bot: Option<String>,
    /// Whether a person still has to take this seat.
    pub open: bool,
    /// The seat's person is away: the computer player `bot` plays for them until they reclaim
    /// the seat.
    pub away: bool,
    /// The person's timeouts in a row.
    pub timeouts: i64,
    /// Whether the seat's person is connected now (an open event stream or long-poll, or a
    /// request in the last `CARDROOM_PRESENCE_SECS`, on any replica); absent for a seat
    /// without a person and in listings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connected: Option<bool>,
    /// The seat's person is a bot account: a program, playing through API tokens.
    pub bot_account: bool,
}

/// An event as a seat may see it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventOut {
    /// The game's version after the change that produced the event.
    pub version: i64,
    /// The event: an object with a `type`.
    #[schema(value_type = Object)]
    pub event: serde_json::Value,
}

/// The caller's view of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameView {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    /// `waiting` (for players), `active`, `hand_over`, `finished` or `abandoned`.
    pub status: String,
    /// Increments with every change; send it back as `expected_version`.
    pub version: i64,
    /// A practice game (fixed seed or deck): never counted in ratings or statistics.
    pub practice: bool,
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    pub seats: Vec<SeatInfo>,
    /// Who may find, join and watch the table.
    pub visibility: Visibility,
    /// The caller's seat; none for a spectator of a public table.
    pub your_seat: Option<i64>,
    /// The code that seats a friend, while seats are open.
    pub invite_code: Option<String>,
    /// The seat to act.
    pub to_act: Option<i64>,
    /// Exactly the moves the server would accept from the caller now.
    pub legal_moves: Vec<AnyMove>,
    /// The table as the caller sees it (none until the first deal).
    pub table: Option<AnyView>,
    /// The most recent events the caller may see.
    pub recent_events: Vec<EventOut>,
    pub outcome: Option<Outcome>,
    /// The table's turn timer, if it has one.
    pub turn: Option<TurnPolicy>,
    /// When the seat to act (or, between hands, the next deal) runs out of time.
    pub deadline: Option<DateTime<Utc>>,
    /// People watching the table now (following it without a seat).
    pub spectators: i64,
    /// Once the game is finished: who wants a rematch, and the new game once everyone does.
    pub rematch: Option<RematchState>,
}

/// `201` to `POST /games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameCreated {
    pub id: i64,
    pub invite_code: String,
    pub view: GameView,
}

/// The answer to a move, a deal or a resignation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActionResponse {
    /// What happened, the caller's own action first, then any computer players' replies.
    #[schema(value_type = Vec<EventOut>)]
    pub events: serde_json::Value,
    #[schema(value_type = GameView)]
    pub view: serde_json::Value,
}

/// `POST /seeks`: a quick match.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "tarneeb", "players": 4, "rated": true, "rating_range": 300, "fill_after": 60}))]
pub struct SeekRequest {
    pub kind: GameKind,
    /// The variant; the kind's default when left out.
    pub variant: Option<String>,
    /// Seats at the table (the catalogue lists each variant's).
    #[schema(minimum = 2, maximum = 8)]
    pub players: i64,
    /// House rules, within the catalogue's bounds; seekers pair only on the same rules.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Rated (the default) pairs with rated seekers by rating; unrated makes a practice game
    /// (never rated or counted).
    pub rated: Option<bool>,
    /// The most an opponent's rating may differ from yours (both seekers' ranges must agree);
    /// none: anyone.
    #[schema(minimum = 0, maximum = 3000)]
    pub rating_range: Option<i64>,
    /// After this many seconds, computer players fill the seats nobody took; none: wait for
    /// people only.
    #[schema(minimum = 1, maximum = 3600)]
    pub fill_after: Option<i64>,
    /// Be paired with bot accounts (programs) too. A person is paired with people only unless
    /// they ask; a bot account with bots unless it says `false`.
    pub bots: Option<bool>,
}

/// A quick-match seek.
#[derive(Debug, Serialize, ToSchema)]
pub struct Seek {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub players: i64,
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    pub rated: bool,
    pub rating_range: Option<i64>,
    pub fill_after: Option<i64>,
    /// `open` (waiting), `matched` (see `game_id`), `cancelled` or `expired` (its client stopped
    /// asking after it).
    pub status: String,
    /// The game the seek was seated in, once matched.
    pub game_id: Option<i64>,
    pub created_at: DateTime<Utc>,
}

/// Query of `GET /seeks/{id}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SeekQuery {
    /// Wait up to this many seconds (at most the server's long-poll limit) for the seek to be
    /// matched; default 0: answer at once.
    #[param(minimum = 0)]
    pub wait: Option<i64>,
}

/// Query of `GET /lobby`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LobbyQuery {
    /// Only tables of this game.
    pub kind: Option<GameKind>,
    /// Only tables of this variant.
    #[param(pattern = "^[a-z0-9_]{1,32}$")]
    pub variant: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// 1–100, default 50.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// `GET /lobby`: public tables waiting for players, the longest-waiting first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Lobby {
    pub tables: Vec<OpenTable>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
    /// How long a public table waits for its players before it is closed, in seconds.
    pub expires_after_seconds: i64,
    /// Public games being played now, newest first (at most 20): anyone signed in may watch
    /// them (`GET /games/{id}` and its events, as a spectator).
    pub playing: Vec<LiveTable>,
}

/// A public game being played, to watch.
#[derive(Debug, Serialize, ToSchema)]
pub struct LiveTable {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub rated: bool,
    pub seats: Vec<LobbySeat>,
    pub created_at: DateTime<Utc>,
}

/// A public table waiting for players.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenTable {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    /// A real game (not practice): it counts in the ratings of registered players.
    pub rated: bool,
    pub seats: Vec<LobbySeat>,
    /// Seats still open to people.
    pub open_seats: i64,
    /// The table's turn timer, if it has one.
    pub turn: Option<TurnPolicy>,
    pub created_at: DateTime<Utc>,
    /// Seconds since the table was opened.
    pub waiting_seconds: i64,
}

/// A seat at an open table.
#[derive(Debug, Serialize, ToSchema)]
pub struct LobbySeat {
    pub seat: i64,
    /// The person sitting there.
    pub name: Option<String>,
    /// Their rating in this game against people, if they have one.
    pub rating: Option<f64>,
    /// The computer player's level, for a computer seat.
    pub bot: Option<String>,
    /// Open to anyone.
    pub open: bool,
    /// The person is a bot account (a program).
    pub bot_account: bool,
}

/// `GET /games/{id}/events` as JSON.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventsResponse {
    pub events: Vec<EventOut>,
    /// The game's version: ask again with `after` set to it.
    pub version: i64,
    /// With `chat_after`: the chat after it the caller may read (messages, and notes that a
    /// message was hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat: Option<Vec<ChatMessage>>,
    /// With `chat_after`: ask again with `chat_after` set to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_cursor: Option<i64>,
    /// Who is at the table now.
    pub presence: PresenceOut,
}

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
    /// 1–280 characters with at least one that is not a space, no control characters;
    /// surrounding spaces are trimmed. Shown as text, never as markup.
    #[schema(
        min_length = 1,
        max_length = 280,
        pattern = r"^[^\u0000-\u001f\u007f-\u009f]*[^\s\u0000-\u001f\u007f-\u009f][^\u0000-\u001f\u007f-\u009f]*$"
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
}

/// A chat message as readers get it; or, with `type` `chat_hidden`, the note that the message
/// `id` was hidden by an admin (take it down).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ChatMessage {
    /// `chat` or `chat_hidden`.
    #[serde(rename = "type")]
    pub kind: String,
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

/// One entry of the move log as the caller may see it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LogEntryOut {
    pub version: i64,
    /// `created`, `joined`, `started`, `move`, `deal`, `resign`, `abandoned`.
    pub action: String,
    pub seat: Option<i64>,
    /// The move, in canonical form.
    #[serde(rename = "move", default)]
    #[schema(value_type = Option<Object>)]
    pub mv: Option<serde_json::Value>,
    pub events: Vec<EventOut>,
    pub at: DateTime<Utc>,
}

/// A deal's fairness record.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DealOut {
    /// The deal's index in the game, from 0.
    pub deal: i64,
    pub hand: i64,
    /// `sha256(seed)`, published when the hand was dealt.
    pub commitment: String,
    /// The deal's seed, revealed when its hand is over (64 hex digits).
    pub seed: Option<String>,
    /// A practice game's explicit deck order for this deal, top card first.
    #[serde(default)]
    pub practice_deck: Option<Vec<Card>>,
}

/// `GET /games/{id}/log`: everything `cardroom verify-deal` needs to recreate the game's
/// deals and check them against what the caller was shown.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LogResponse {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    /// How many seats.
    pub seats: i64,
    /// The options the game was created with.
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    /// The caller's seat: the entries hold what that seat was shown.
    pub your_seat: Option<i64>,
    pub entries: Vec<LogEntryOut>,
    pub deals: Vec<DealOut>,
    /// The shuffle procedure's version (see the README, "Fairness").
    pub shuffle_version: u32,
}

/// `GET /games/{id}/score`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreResponse {
    pub seats: Vec<SeatInfo>,
    #[serde(flatten)]
    pub sheet: ScoreSheet,
}

/// A game in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: i64,
    pub kind: String,
    pub variant: String,
    pub status: String,
    pub version: i64,
    pub practice: bool,
    pub seats: Vec<SeatInfo>,
    pub your_seat: Option<i64>,
    pub to_act: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The winning sides, once finished.
    pub winners: Option<Vec<i64>>,
}

/// A page of games.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameList {
    pub games: Vec<GameSummary>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
}

/// Query of `GET /games`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only the caller's games (the only listing here; admins use `/admin/games`).
    pub mine: Option<bool>,
    /// Comma-separated statuses: `waiting`, `active`, `hand_over`, `finished`, `abandoned`.
    #[param(
        pattern = "^ *(waiting|active|hand_over|finished|abandoned)? *(, *(waiting|active|hand_over|finished|abandoned)? *)*$"
    )]
    pub status: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// Query of `GET /games/{id}/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Events after this version (default 0: all).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// The longest wait in seconds for news, up to the server's limit (default: that limit).
    #[param(minimum = 0)]
    pub wait: Option<i64>,
    /// Also the table's chat after this cursor (0: from the start); its arrival ends the wait
    /// too. A stream without it starts with the latest 100 messages.
    #[param(minimum = 0)]
    pub chat_after: Option<i64>,
}

/// `GET /healthz` and `GET /readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable`.
    pub status: String,
}
