//! A game's rows as they are read (the snapshot row, its seats, its log, its deals, stored
//! answers) and the changes written to them (a new game, a commit). Types only: the reads and
//! writes are in [`crate::games`].

use cardroom_core::{BotLevel, GameKind};
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::account_events::AccountNotice;
use crate::id::GameId;
use crate::schema::games;
use crate::status::GameStatus;
use crate::visibility::Visibility;

/// A game row. `seed` and `state` are secret: a row is never a response body.
#[derive(Queryable, QueryableByName, Clone, PartialEq, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: GameId,
    pub kind: GameKind,
    pub variant: String,
    pub options: String,
    pub seat_count: i32,
    pub status: GameStatus,
    pub seed: String,
    pub deck: Option<String>,
    pub state: Option<String>,
    pub state_format: i32,
    pub version: i64,
    pub practice: bool,
    pub invite_code: String,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub hands: i32,
    pub moves: i32,
    pub winners: Option<String>,
    pub end_reason: Option<String>,
    pub to_act: Option<i32>,
    pub bot_pending: bool,
    pub basras: i32,
    pub knocks: i32,
    pub thirty_ones: i32,
    pub contracts_made: i32,
    pub contracts_set: i32,
    /// The turn policy: seconds per move (none: no timer).
    pub turn_seconds: Option<i32>,
    /// Timeouts in a row after which a computer player takes the seat.
    pub takeover_after: Option<i32>,
    /// When the seat to act runs out of time.
    pub deadline: Option<NaiveDateTime>,
    /// `public` (listed in the lobby, watched by anyone signed in), `unlisted` (invite code
    /// only) or `private` (invite code only, never watched).
    pub visibility: Visibility,
}

/// A seat with its player's name. A seat with a person and a computer level is the person's,
/// played by the computer while they are away.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub name: Option<String>,
    pub bot: Option<BotLevel>,
    /// Timeouts in a row.
    pub timeouts: i32,
    /// Whether the seat's person is connected now (an open event stream or a recent request);
    /// none for a seat without a person, or where it was not asked.
    pub connected: Option<bool>,
    /// The seat's person is a bot account (a program, playing through API tokens).
    pub bot_account: bool,
}

/// A game with its seats in order.
#[derive(Clone, PartialEq, Debug)]
pub struct GameRecord {
    pub game: GameRow,
    pub seats: Vec<SeatRow>,
}

/// One entry of the move log.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct LogRow {
    pub game_id: GameId,
    pub seq: i64,
    pub seat: Option<i32>,
    pub action: String,
    pub payload: Option<String>,
    pub events: String,
    pub created_at: NaiveDateTime,
}

/// A deal's commitment and, once its hand is over, its seed.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct DealRow {
    pub game_id: GameId,
    pub deal: i32,
    pub hand: i32,
    pub commitment: String,
    pub seed: Option<String>,
    pub dealt_at: NaiveDateTime,
    pub revealed_at: Option<NaiveDateTime>,
}

/// A stored answer to a request made with an `Idempotency-Key`.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct IdempotencyRow {
    pub user_id: i64,
    pub key: String,
    pub game_id: GameId,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
    pub created_at: NaiveDateTime,
}

/// A new game, waiting for its players.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub kind: GameKind,
    pub variant: String,
    pub options: String,
    pub seed: String,
    pub deck: Option<String>,
    pub practice: bool,
    pub invite_code: String,
    pub created_by: i64,
    pub state_format: i32,
    /// The turn policy: seconds per move and timeouts before a takeover (none: no timer).
    pub turn_seconds: Option<i32>,
    pub takeover_after: Option<i32>,
    /// `public`, `unlisted` or `private`.
    pub visibility: Visibility,
    /// Every seat: its person (if taken) or computer level.
    pub seats: Vec<SeatChange>,
}

/// Who sits in a seat.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SeatChange {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub bot: Option<BotLevel>,
    /// Timeouts in a row.
    pub timeouts: i32,
    /// A player's name without an account here (an imported game's).
    pub label: Option<String>,
}

/// One entry to append to the log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogEntry {
    pub seat: Option<i32>,
    pub action: String,
    pub payload: Option<String>,
    pub events: String,
}

/// The listing columns kept beside the snapshot.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    pub status: GameStatus,
    pub hands: i32,
    pub moves: i32,
    pub winners: Option<String>,
    pub end_reason: Option<String>,
    pub finished: bool,
    pub to_act: Option<i32>,
    pub bot_pending: bool,
    /// When the seat to act runs out of time (a table with a turn timer, a person to act).
    pub deadline: Option<NaiveDateTime>,
    /// Each seat's result, stored once the game is finished.
    pub results: Vec<SeatResult>,
}

/// One seat's result in a finished game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatResult {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub bot: Option<BotLevel>,
    pub side: i32,
    pub won: bool,
}

/// Notable events of a change, added to the game's counts for the dashboard.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    pub basras: i32,
    pub knocks: i32,
    pub thirty_ones: i32,
    pub contracts_made: i32,
    pub contracts_set: i32,
}

/// A new deal's commitment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewDeal {
    pub deal: i32,
    pub hand: i32,
    pub commitment: String,
}

/// A deal's revealed seed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reveal {
    pub deal: i32,
    pub seed: String,
}

/// The answer to store under an idempotency key. (A new game's is stored without a body, 201:
/// a retry is answered from the game as it is then.)
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewIdempotency {
    pub user_id: i64,
    pub key: String,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
}

/// One atomic change of a game: the new snapshot, the log entries that led to it, and what
/// goes with them. Applied only if the game is still at `expected_version`.
#[derive(Clone, Debug)]
pub struct Commit {
    pub game_id: GameId,
    pub expected_version: i64,
    pub state: Option<String>,
    pub summary: Summary,
    pub entries: Vec<LogEntry>,
    pub seats: Vec<SeatChange>,
    pub deals: Vec<NewDeal>,
    pub reveals: Vec<Reveal>,
    pub idempotency: Option<NewIdempotency>,
    pub tally: Tally,
    /// A person leaving a real game for good (their seat to a computer): rated now, as a loss
    /// against every other seat.
    pub leaving: Option<Leaving>,
    /// What to tell the people at the table on their account streams (a game started, their
    /// turn, the game over), written with the change.
    pub notices: Vec<AccountNotice>,
}

/// A person leaving a game before its end: who, and every seat as it stood, the leaver's side
/// lost (`won` false) and every other side not (`won` true).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Leaving {
    pub user_id: i64,
    pub seats: Vec<SeatResult>,
}
