//! A tournament moving on: started, its next round paired, finished — the only changes of its
//! status and round, each written against the version and the status it was read at.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{TournamentRow, TournamentStatus, notify_tournament};
use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::tournaments;

/// A change of a running tournament's status and round: the only ones [`advance`] writes (a
/// cancellation is [`cancel`](super::cancel)'s, with its cause).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Advance {
    /// An upcoming tournament starts, its first round paired (an arena's first tables
    /// seated); an arena ends at `ends_at`.
    Start { ends_at: Option<NaiveDateTime> },
    /// A running tournament's next round is paired (an arena: more tables seated).
    NextRound,
    /// A running tournament is over.
    Finish,
}

impl Advance {
    /// The status the change starts from.
    pub const fn from(self) -> TournamentStatus {
        match self {
            Advance::Start { .. } => TournamentStatus::Upcoming,
            Advance::NextRound | Advance::Finish => TournamentStatus::Running,
        }
    }

    /// The status it leaves.
    pub const fn to(self) -> TournamentStatus {
        match self {
            Advance::Start { .. } | Advance::NextRound => TournamentStatus::Running,
            Advance::Finish => TournamentStatus::Finished,
        }
    }
}

/// Makes `change` to tournament `row` as read (its version and status): the status it leaves,
/// the rounds paired (the first, one more, or as they are) and the end. Fails with
/// [`DbError::VersionConflict`] (undoing the transaction's pairing) if another got there
/// first, and with [`DbError::Corrupt`] if the tournament was not where the change starts.
pub fn advance(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    change: Advance,
) -> Result<(), DbError> {
    if row.status != change.from() {
        return Err(DbError::Corrupt(format!(
            "tournament {} is {}: {change:?} starts from {}",
            row.id,
            row.status.as_str(),
            change.from().as_str()
        )));
    }
    let (round, ends_at) = match change {
        Advance::Start { ends_at } => (1, ends_at),
        Advance::NextRound => (row.round + 1, row.ends_at),
        Advance::Finish => (row.round, row.ends_at),
    };
    let status = change.to();
    let finished = (status == TournamentStatus::Finished).then(crate::now);
    let changed = diesel::update(
        tournaments::table
            .find(row.id)
            .filter(tournaments::version.eq(row.version))
            .filter(tournaments::status.eq(change.from())),
    )
    .set((
        tournaments::status.eq(status),
        tournaments::round.eq(round),
        tournaments::ends_at.eq(ends_at),
        tournaments::finished_at.eq(finished),
        tournaments::version.eq(row.version + 1),
    ))
    .execute(conn)?;
    if changed == 1 {
        notify_tournament(conn, row.id)
    } else {
        Err(DbError::VersionConflict)
    }
}
