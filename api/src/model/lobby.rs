//! Finding a game: quick-match seeks and the lobby of open and live tables.

use cardroom_core::{BotLevel, GameKind, OptionValue};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

use super::games::{TurnPolicy, VariantName};

/// `POST /seeks`: a quick match.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "tarneeb", "players": 4, "rated": true, "rating_range": 300, "fill_after": 60}))]
pub struct SeekRequest {
    pub kind: GameKind,
    /// The variant; the kind's default when left out (one of the kind's: see [`VariantName`]).
    #[schema(value_type = Option<VariantName>)]
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
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    pub rated: bool,
    pub rating_range: Option<i64>,
    pub fill_after: Option<i64>,
    /// `open` (waiting), `matched` (see `game_id`), `cancelled` or `expired` (its client stopped
    /// asking after it).
    #[schema(value_type = super::games::SeekStatusName)]
    pub status: cardroom_db::seeks::SeekStatus,
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
    /// Public tournaments: upcoming (soonest first), running, and the 10 latest finished.
    pub tournaments: Vec<super::TournamentSummary>,
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
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    /// A real game (not practice) with no guest seated: it counts in the ratings of the
    /// registered players who sit down (a guest is never rated).
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
    #[schema(value_type = Option<String>)]
    pub bot: Option<BotLevel>,
    /// Open to anyone.
    pub open: bool,
    /// The person is a bot account (a program).
    pub bot_account: bool,
}
