//! Games: the catalogue, creating and joining one, a seat's view, moves and their answers, the
//! log, the score, a player's list of games, events, health.

use cardroom_core::{
    AnyMove, AnyView, BotLevel, Card, GameKind, KindInfo, OptionValue, Outcome, ScoreSheet,
};
use cardroom_db::GameStatus;
use cardroom_db::Visibility;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

use super::table::{ChatMessage, PresenceOut, RematchState};

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

/// A variant's name, as requests and answers write it. Which a kind has is in the catalogue:
/// `standard` every kind; `classic44` and `cse231` Basra; `classic` 31, Rummy and Tarneeb (a
/// variant another kind has is refused with 422, as is a seat count the variant does not take).
/// The API reads variants as text, so this type only describes them to the document.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VariantName {
    Standard,
    Classic44,
    Cse231,
    Classic,
}

/// A game's status, as answers write it (a type for the document: the API holds it as text).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatusName {
    /// Seats are still open.
    Waiting,
    /// A hand is being played.
    Active,
    /// A hand is over; the next is dealt on `POST /games/{id}/deal`.
    HandOver,
    Finished,
    /// Closed before it began, or left by everyone.
    Abandoned,
}

/// A seek's status (for the document; held as text).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeekStatusName {
    Open,
    Matched,
    Cancelled,
    Expired,
}

/// A challenge's status (for the document; held as text).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatusName {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

// (A type for the document: the service holds a `cardroom_db::Visibility`, the same words.)
/// Who may find, join and watch a table.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = Visibility)]
#[serde(rename_all = "lowercase")]
pub enum VisibilityName {
    /// Listed in the lobby: anyone signed in may take an open seat (no invite code) or watch.
    Public,
    /// Joined with the invite code only (the default); not listed, not watched.
    Unlisted,
    /// Joined with the invite code only; never watched.
    Private,
}

/// One seat in a new game: a person (no `bot`) or a computer player.
#[derive(Clone, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// A computer player's level from the catalogue (`random`, `greedy`, …).
    #[schema(example = "greedy")]
    pub bot: Option<String>,
}

// (Serialized only to tell one request from another under an `Idempotency-Key`.)
/// `POST /games`.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "basra", "variant": "standard", "seats": [{}, {"bot": "greedy"}]}))]
pub struct CreateGame {
    pub kind: GameKind,
    /// The variant; the kind's default when left out.
    #[schema(value_type = Option<VariantName>)]
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
    #[schema(value_type = Option<VisibilityName>)]
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
#[derive(Clone, Debug, Deserialize, ToSchema)]
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
#[schema(example = json!({"kind": "basra", "expected_version": 3, "move": {"type": "play", "card": "7D"}}))]
pub struct MoveRequest {
    /// The game the move is for: the server refuses a move for another game (422
    /// `illegal_move`). Typed clients send it (it tells the move's schema); the server also
    /// takes a move without it, as older clients send them.
    pub kind: Option<GameKind>,
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
    #[schema(value_type = Option<String>)]
    pub bot: Option<BotLevel>,
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
    #[schema(value_type = GameStatusName)]
    pub status: GameStatus,
    /// Increments with every change; send it back as `expected_version`.
    pub version: i64,
    /// A practice game (fixed seed or deck): never counted in ratings or statistics.
    pub practice: bool,
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    pub seats: Vec<SeatInfo>,
    /// Who may find, join and watch the table.
    #[schema(value_type = VisibilityName)]
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
    /// A tournament's game: which tournament, and which round (an arena's pairing).
    pub tournament: Option<GameTournament>,
}

/// `GET /games/{id}/invitation`: a table as the person invited to it reads it before sitting
/// down.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Invitation {
    pub id: i64,
    pub kind: GameKind,
    #[schema(value_type = VariantName)]
    pub variant: String,
    /// The house rules: every option of the variant, with its value at this table.
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    /// The name of who made the table.
    pub invited_by: String,
    /// Every seat: who is in it, and which are still open.
    pub seats: Vec<SeatInfo>,
    /// The open seats, in order: `POST /games/{id}/join` takes the one named by `seat`, or the
    /// first.
    pub open_seats: Vec<i64>,
    /// The sides, each its seats (partners together; everyone for themselves, a side each).
    pub sides: Vec<Vec<i64>>,
    /// `waiting` while seats are open.
    #[schema(value_type = GameStatusName)]
    pub status: GameStatus,
    /// A practice game: never rated.
    pub practice: bool,
    /// The table's turn timer, if it has one.
    pub turn: Option<TurnPolicy>,
    /// Whether it is a tournament's table.
    pub tournament: bool,
}

/// The tournament a game is a round of.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameTournament {
    pub id: i64,
    pub round: i64,
    /// Its name; none for a spectator of a private tournament's game.
    pub name: Option<String>,
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
    /// The game's kind: its events and view are that game's.
    pub kind: GameKind,
    /// What happened, the caller's own action first, then any computer players' replies.
    #[schema(value_type = Vec<EventOut>)]
    pub events: serde_json::Value,
    #[schema(value_type = GameView)]
    pub view: serde_json::Value,
}

/// `GET /games/{id}/events` as JSON: the game's kind, and what the long-poll found.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventsPage {
    /// The game's kind: its events are that game's.
    pub kind: GameKind,
    #[serde(flatten)]
    pub answer: EventsResponse,
}

/// What a long-poll of a game's events found.
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

/// One entry of the move log as the caller may see it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LogEntryOut {
    pub version: i64,
    /// `created`, `joined`, `started`, `move`, `deal`, `resign`, `abandoned`.
    pub action: String,
    pub seat: Option<i64>,
    /// The move, in canonical form.
    #[serde(rename = "move", default)]
    #[schema(value_type = Option<AnyMove>)]
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
    /// The deal's seed, revealed when its hand is over (64 hex digits); at a table of a
    /// duplicate round, once every table of the round is over.
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
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    /// The caller's seat: the entries hold what that seat was shown.
    pub your_seat: Option<i64>,
    pub entries: Vec<LogEntryOut>,
    pub deals: Vec<DealOut>,
    /// The shuffle procedure's version (see docs/fairness.md).
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
    pub kind: GameKind,
    pub variant: String,
    #[schema(value_type = GameStatusName)]
    pub status: GameStatus,
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
    /// Long-poll only: who the caller shows as connected at the table (the seats of its last
    /// answer's `presence.connected`, comma-separated; empty for none). The answer then also
    /// comes as soon as who is connected differs from them.
    #[param(pattern = "^([0-7](,[0-7]){0,7})?$")]
    pub known_connected: Option<String>,
    /// Long-poll only: how many spectators the caller shows; the answer then also comes as soon
    /// as that differs.
    #[param(minimum = 0)]
    pub known_spectators: Option<i64>,
}

/// `GET /healthz` and `GET /readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable`.
    pub status: String,
}
