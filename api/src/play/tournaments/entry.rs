//! Entering a tournament and withdrawing from it. Each takes the tournament's row for its
//! transaction (see [`tournaments::with_locked_tournament`]) and checks the status under it, so
//! an entry cannot slip in while the pairing step starts the tournament: it is in before the
//! start, or refused after it.

use cardroom_db::AnyConnection;
use cardroom_db::tournaments::{self, TournamentStatus};

use super::super::access::may_sit;
use super::reading::whole;
use super::{closed, joinable, visible};
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::model::Tournament;

/// `POST /tournaments/{id}/join`: before the start (an arena: until its time is up). A private
/// tournament needs its code.
pub fn join(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
    code: Option<&str>,
) -> Result<Tournament, ApiError> {
    may_sit(conn, caller)?;
    let row = tournaments::with_locked_tournament(conn, id, |conn, _| {
        let row = visible(conn, Some(caller), id, code)?;
        if !joinable(&row, cardroom_db::now()) {
            return Err(closed(
                "this tournament takes no more entrants (it has started or is over)",
            ));
        }
        tournaments::join(conn, id, caller.id)?;
        Ok(row)
    })?;
    whole(conn, Some(caller), &row)
}

/// `POST /tournaments/{id}/withdraw`: until it is over. A withdrawn entrant is paired no more;
/// a game being played goes on (the turn timer hands an empty seat to the computer).
pub fn withdraw(
    conn: &mut AnyConnection,
    caller: &Caller,
    id: i64,
) -> Result<Tournament, ApiError> {
    let row = tournaments::with_locked_tournament(conn, id, |conn, _| {
        let row = visible(conn, Some(caller), id, None)?;
        if matches!(
            row.status,
            TournamentStatus::Finished | TournamentStatus::Cancelled
        ) {
            return Err(closed("this tournament is over"));
        }
        if !tournaments::withdraw(conn, id, caller.id)? {
            return Err(ApiError::Conflict {
                code: ProblemCode::NotEntered,
                detail: "you are not entered in this tournament".to_owned(),
            });
        }
        Ok(row)
    })?;
    whole(conn, Some(caller), &row)
}
