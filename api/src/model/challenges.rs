//! A challenge as its two sides see it, and why one was declined.

use cardroom_core::GameKind;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use cardroom_db::Visibility;

use super::{TurnPolicy, VisibilityName};

/// A challenge as its two sides see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Challenge {
    pub id: i64,
    /// Who challenged.
    pub from: String,
    /// Who was challenged; none for an open challenge.
    pub to: Option<String>,
    /// The challenger is a bot account.
    pub from_bot: bool,
    pub kind: GameKind,
    pub variant: String,
    /// The house rules the game will have.
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    /// Each seat's computer level, or none for a person's seat.
    pub seats: Vec<Option<String>>,
    pub challenger_seat: i64,
    /// Whether the game will count for ratings: never when a guest is one of the two, even if
    /// it was asked for.
    pub rated: bool,
    pub turn: Option<TurnPolicy>,
    #[schema(value_type = VisibilityName)]
    pub visibility: Visibility,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    #[schema(value_type = super::ChallengeStatusName)]
    pub status: cardroom_db::challenges::ChallengeStatus,
    /// Why it was declined.
    pub reason: Option<DeclineReason>,
    /// The game it made, once accepted.
    pub game_id: Option<i64>,
    /// For the challenger of an open challenge: the secret that lets whoever has it accept
    /// (the page's link `/#/challenge/{id}/{code}`).
    pub code: Option<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// Why a challenge was declined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    Rated,
    Casual,
    Variant,
    NoBots,
    OnlyBots,
}

impl DeclineReason {
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    pub fn parse(text: &str) -> Option<DeclineReason> {
        serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
    }
}
