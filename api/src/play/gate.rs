//! The one place that decides what a reader may see of a game. Every read of a game asks it:
//! the view, the events (long-poll and streams), the log, the score sheet, the chat, both
//! exports and the analysis; a tournament's results ask [`sealed_rounds`].
//!
//! What it weighs:
//! - **Who reads**: the game's seat (a player), a spectator of a public table (a stranger
//!   without a token included), an admin (the export and the analysis of any game), or nobody
//!   who may (a stranger is told to sign in, anyone else that it is not theirs).
//! - **The board**: a table of a duplicate round deals the same cards as every other table of
//!   that round. Until the last of them is over, the board is *sealed*: no reader — the players
//!   of a table that is already over and admins included — learns the board's seed, a deal's
//!   seed, the whole record of a table (the export: every hand), its analysis (which reads
//!   every hand), or any table's result on it in the tournament's standings. What a player
//!   saw at their own table stays theirs; nothing beyond it is given.

use cardroom_core::Viewer;
use cardroom_db::{AnyConnection, GameStatus, Visibility};

use super::access::is_admin;
use super::loaded::Loaded;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};

/// What one reader may see of one game now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reading {
    /// Who they are at the table: a seat, or a spectator.
    pub(super) viewer: Viewer,
    /// The game's board is being played at another table (see the module's words).
    pub(super) sealed: bool,
}

impl Reading {
    /// Whether deals' seeds (and so the cards they deal) may be given.
    pub(super) fn seeds(&self) -> bool {
        !self.sealed
    }
}

/// How a game may be read whole (every hand): who besides its players, and what for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Whole {
    /// The export: the game's players and admins.
    Export,
    /// The analysis: the game's players, admins, and anyone for a public game.
    Analysis,
}

/// The reading of a game as it is played: its seat, or a spectator of a public table.
pub(super) fn reading(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    caller: Option<&Caller>,
) -> Result<Reading, ApiError> {
    let viewer = loaded.reader(caller)?;
    Ok(Reading {
        viewer,
        sealed: sealed(conn, loaded)?,
    })
}

/// May `caller` read the game whole (`what`)? Only a finished game, and only once its board is
/// no longer played at another table.
pub(super) fn whole(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    caller: Option<&Caller>,
    what: Whole,
) -> Result<(), ApiError> {
    let row = &loaded.record.game;
    let seated = caller.is_some_and(|c| loaded.seat_of(c).is_some());
    let admin = match caller {
        Some(caller) if !seated => is_admin(conn, caller)?,
        _ => false,
    };
    let public = what == Whole::Analysis && row.visibility == Visibility::Public;
    if !(seated || admin || public) {
        return Err(match (caller, what) {
            (None, _) => ApiError::Unauthorized(
                "this game is not public: sign in as one of its players to read it whole"
                    .to_owned(),
            ),
            (Some(_), Whole::Export) => {
                ApiError::Forbidden("only the game's players and admins may export it".to_owned())
            }
            (Some(_), Whole::Analysis) => ApiError::Forbidden(
                "only the game's players and admins may read the analysis of a game that is \
                 not public"
                    .to_owned(),
            ),
        });
    }
    if row.status != GameStatus::Finished {
        return Err(ApiError::Conflict {
            code: ProblemCode::GameNotFinished,
            detail: match what {
                Whole::Export => "only a finished game can be exported",
                Whole::Analysis => "a game is analysed once it is over",
            }
            .to_owned(),
        });
    }
    if sealed(conn, loaded)? {
        return Err(board_in_play());
    }
    Ok(())
}

/// Whether the game's board is being played at another table now.
fn sealed(conn: &mut AnyConnection, loaded: &Loaded) -> Result<bool, ApiError> {
    // (Only a tournament's table can be; the tournament says whether it is a duplicate's.)
    if loaded.tournament.is_none() {
        return Ok(false);
    }
    Ok(cardroom_db::tournaments::board_in_play(conn, loaded.id())?)
}

/// The refusal of a whole read while the board is being played elsewhere.
pub(super) fn board_in_play() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::BoardInPlay,
        detail: "this board is still being played at another table of the round: its deals, \
                 record and analysis are given once every table of the round is over"
            .to_owned(),
    }
}

/// The rounds of tournament `row` whose results are sealed: a duplicate's rounds with a table
/// whose result is not yet recorded (places, results and matchpoints are told together, once
/// every table of the round is over and scored against the others).
pub(super) fn sealed_rounds(
    row: &cardroom_db::tournaments::TournamentRow,
    seats: &[cardroom_db::tournaments::SeatRow],
) -> std::collections::BTreeSet<i32> {
    if row.format != cardroom_db::tournaments::Format::Duplicate {
        return std::collections::BTreeSet::new();
    }
    seats
        .iter()
        .filter(|s| s.game_id.is_some() && s.place.is_none())
        .map(|s| s.round)
        .collect()
}
