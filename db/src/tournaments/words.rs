//! A tournament's format and status, as their text columns store them.

use serde::{Deserialize, Serialize};

/// A tournament's format.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    Serialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A fixed time; whoever is free is seated at once; a win is worth 2, 4 on a streak.
    Arena,
    /// A fixed number of rounds; equal scores sit together; byes worth a win.
    Swiss,
    /// A fixed number of rounds whose tables all play the same deals; matchpoints per seat.
    Duplicate,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Arena, Format::Swiss, Format::Duplicate];

    /// The name, as stored and answered.
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Arena => "arena",
            Format::Swiss => "swiss",
            Format::Duplicate => "duplicate",
        }
    }
}

crate::words::text_column!(Format, "tournament format", not ["knockout", "Arena", ""], test format_column);

/// Where a tournament stands.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    Serialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    /// Before its start: entrants join and withdraw.
    Upcoming,
    /// Rounds are being paired and played.
    Running,
    /// Every round played (an arena: its time up and its last games over); final.
    Finished,
    /// Too few entrants when it was to start.
    Cancelled,
}

impl TournamentStatus {
    /// Every status, in order.
    pub const ALL: [TournamentStatus; 4] = [
        TournamentStatus::Upcoming,
        TournamentStatus::Running,
        TournamentStatus::Finished,
        TournamentStatus::Cancelled,
    ];

    /// The name, as stored and answered.
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Upcoming => "upcoming",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }
}

crate::words::text_column!(TournamentStatus, "tournament status", not ["open", "Running", ""], test status_column);

/// Why a tournament was cancelled.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    Serialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum CancelCause {
    /// Fewer entrants than it needs were in when it was to start.
    TooFewEntrants,
    /// Its maker called it off.
    ByMaker,
    /// An admin called it off.
    ByAdmin,
}

impl CancelCause {
    /// Every cause.
    pub const ALL: [CancelCause; 3] = [
        CancelCause::TooFewEntrants,
        CancelCause::ByMaker,
        CancelCause::ByAdmin,
    ];

    /// The name, as stored and answered.
    pub const fn as_str(self) -> &'static str {
        match self {
            CancelCause::TooFewEntrants => "too_few_entrants",
            CancelCause::ByMaker => "by_maker",
            CancelCause::ByAdmin => "by_admin",
        }
    }
}

crate::words::text_column!(CancelCause, "tournament cancellation", not ["admin", "TooFewEntrants", ""], test cancel_cause_column);
