//! The events of the service itself, each a named variant: what a game's log and stream carry
//! beside the rules' own events (who sat down, a timer, a rematch, who is at the table), and
//! what the account stream carries. The code builds them by name and the OpenAPI document
//! derives one schema per variant from the same types, so the two cannot drift apart.

use cardroom_core::{BotLevel, GameKind};
use cardroom_db::GameStatus;
use cardroom_db::account_events::AccountNotice;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::GameStatusName;
use super::challenges::Challenge;

/// An announcement of the service on a game's log and stream (the rules' own events are the
/// game's and the table's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServiceEvent {
    /// `by` set the table up with `seats` seats; a rematch names the game it follows.
    Created {
        by: String,
        seats: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rematch_of: Option<i64>,
    },
    /// `name` sat down at `seat`.
    Joined { seat: i64, name: String },
    /// `by` closed the table before it started.
    Abandoned { by: String },
    /// Nobody came: the table closed after `after_seconds` waiting.
    Expired { after_seconds: u64 },
    /// A computer player at `level` plays `seat` from now on.
    SeatToComputer {
        seat: i64,
        #[schema(value_type = String)]
        level: BotLevel,
        /// Why (absent on entries written before it was said).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<TakeoverReason>,
    },
    /// The turn timer ran out: for `seat` (a stand-in played its move), or, with no seat,
    /// between hands (the next hand was dealt).
    TimedOut {
        seat: Option<i64>,
        /// The seat's timeouts in a row, now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeouts: Option<i64>,
        /// The computer level that played for the seat, or `deal`.
        stand_in: String,
    },
    /// The seat's person is back: they play again.
    SeatReclaimed { seat: i64, name: String },
    /// Who must act (none: anyone may deal the next hand) by `at`.
    Deadline {
        seat: Option<i64>,
        at: DateTime<Utc>,
    },
    /// `name` at `seat` asks for a rematch.
    RematchOffered { seat: i64, name: String },
    /// `name` at `seat` agrees to the rematch.
    RematchAccepted { seat: i64, name: String },
    /// `name` at `seat` turned the rematch down.
    RematchDeclined { seat: i64, name: String },
    /// Everyone agreed: the rematch is game `game_id`.
    RematchStarted { game_id: i64 },
    /// An entry restored from the text notation, which records what happened (`action`) but
    /// not the service's words for it.
    Imported { action: String, seat: Option<i64> },
}

/// Why a computer took a person's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakeoverReason {
    /// The person let the turn timer run out `takeover_after` times in a row (they may
    /// reclaim the seat).
    Timeouts,
    /// The person resigned from a table that plays on without them.
    Resigned,
}

/// What only a stream says (never stored on the log).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    /// Who is at the table now (sent whenever it changes).
    Presence {
        connected: Vec<i64>,
        spectators: i64,
    },
    /// The stream ends: its reader may no longer follow it.
    StreamEnd { reason: StreamEndReason },
}

/// Why a stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamEndReason {
    /// The reader no longer holds the seat the stream was opened for.
    SeatLost,
    /// The token the stream was opened with expired or was revoked.
    TokenExpired,
}

/// What the turn waits for: a move, or the next hand's deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    Move,
    Deal,
}

/// An event of the account stream (`GET /stream/events`). Logged events carry their `id`
/// (send the last one back as `Last-Event-ID`); what a fresh stream begins with (the games
/// waiting for you, the challenges to you) has none.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountEvent {
    /// A game you sit at was dealt.
    GameStarted {
        #[serde(flatten)]
        game: AccountGame,
    },
    /// A game waits for you: to move, or to deal the next hand.
    YourTurn {
        #[serde(flatten)]
        game: AccountGame,
        action: TurnAction,
    },
    /// A game you sit at ended.
    GameOver {
        #[serde(flatten)]
        game: AccountGame,
        #[schema(value_type = GameStatusName)]
        status: GameStatus,
        /// The winning seats (none for an abandoned table).
        winners: Option<Vec<i64>>,
    },
    /// Someone challenged you.
    ChallengeReceived { challenge: Challenge },
    /// Your challenge was accepted: the challenge names the game.
    ChallengeAccepted { challenge: Challenge },
    /// A challenge was declined (with its reason).
    ChallengeDeclined { challenge: Challenge },
    /// A challenge to you was withdrawn.
    ChallengeCancelled { challenge: Challenge },
    /// A challenge ran out of time.
    ChallengeExpired { challenge: Challenge },
    /// A quick match seated you at `game_id`.
    SeekMatched { seek_id: i64, game_id: i64 },
    /// A tournament you entered seated you at `game_id`, in `seat`, for its round `round`.
    TournamentGame {
        tournament_id: i64,
        round: i64,
        game_id: i64,
        seat: i64,
    },
    /// The stream ends: its token expired or was revoked.
    StreamEnd { reason: StreamEndReason },
}

/// The game an account event is about, and the reader's seat at it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccountGame {
    pub game_id: i64,
    /// The game's version when the event was written.
    pub version: i64,
    pub kind: GameKind,
    #[schema(value_type = super::VariantName)]
    pub variant: String,
    pub seat: i64,
}

/// An account event as the stream sends it: logged events with their `id`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AccountEventOut {
    /// The event's id, for `Last-Event-ID` (absent on what a fresh stream begins with).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    #[serde(flatten)]
    pub event: AccountEvent,
}

impl AccountEvent {
    /// The event as its reader's account log keeps it (the stream adds the `id`).
    pub fn notice(&self, user_id: i64) -> AccountNotice {
        AccountNotice {
            user_id,
            kind: self.kind().to_owned(),
            // (Plain data: its encoding cannot fail.)
            data: serde_json::to_string(self).unwrap_or_default(),
        }
    }

    /// The event's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            AccountEvent::GameStarted { .. } => "game_started",
            AccountEvent::YourTurn { .. } => "your_turn",
            AccountEvent::GameOver { .. } => "game_over",
            AccountEvent::ChallengeReceived { .. } => "challenge_received",
            AccountEvent::ChallengeAccepted { .. } => "challenge_accepted",
            AccountEvent::ChallengeDeclined { .. } => "challenge_declined",
            AccountEvent::ChallengeCancelled { .. } => "challenge_cancelled",
            AccountEvent::ChallengeExpired { .. } => "challenge_expired",
            AccountEvent::SeekMatched { .. } => "seek_matched",
            AccountEvent::TournamentGame { .. } => "tournament_game",
            AccountEvent::StreamEnd { .. } => "stream_end",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_read_as_the_service_always_wrote_them() {
        let created = ServiceEvent::Created {
            by: "amira".to_owned(),
            seats: 4,
            rematch_of: None,
        };
        assert_eq!(
            serde_json::to_value(&created).unwrap(),
            json!({"type": "created", "by": "amira", "seats": 4})
        );
        let timed_out = ServiceEvent::TimedOut {
            seat: None,
            timeouts: None,
            stand_in: "deal".to_owned(),
        };
        assert_eq!(
            serde_json::to_value(&timed_out).unwrap(),
            json!({"type": "timed_out", "seat": null, "stand_in": "deal"})
        );
        let turn = AccountEvent::YourTurn {
            game: AccountGame {
                game_id: 12,
                version: 5,
                kind: GameKind::Basra,
                variant: "standard".to_owned(),
                seat: 0,
            },
            action: TurnAction::Move,
        };
        assert_eq!(turn.kind(), "your_turn");
        assert_eq!(
            serde_json::to_value(AccountEventOut {
                id: Some(41),
                event: turn
            })
            .unwrap(),
            json!({"id": 41, "type": "your_turn", "game_id": 12, "version": 5, "kind": "basra",
                   "variant": "standard", "seat": 0, "action": "move"})
        );
        // An entry written before `reason` was said still reads.
        let old: ServiceEvent = serde_json::from_value(
            json!({"type": "seat_to_computer", "seat": 1, "level": "medium"}),
        )
        .unwrap();
        assert!(matches!(
            old,
            ServiceEvent::SeatToComputer { reason: None, .. }
        ));
    }
}
