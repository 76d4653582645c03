//! Tournaments: making one and changing it ([`create`], [`update`], [`cancel`]), reading it
//! whole — its standings recomputed from the recorded seats at every read ([`get`]) — and
//! entering and withdrawing ([`join`], [`withdraw`]), each concern a module of its own. The
//! rounds pair themselves in the recovery sweep ([`sweep`]).

mod entry;
mod making;
mod mark;
mod reading;
mod rounds;
mod standings;
mod tables;
mod teams;

use cardroom_db::AnyConnection;
use cardroom_db::tournaments::{self, Format, TournamentRow, TournamentStatus};

pub use entry::{join, withdraw};
pub use making::{cancel, create, update};
pub use mark::{TournamentMark, marks};
pub use reading::{get, list, listed};
pub(crate) use rounds::recorded_for;
pub use rounds::{MINUTE, Swept, deal_tables, step_claimed, sweep};

use super::access::is_admin;
use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};

/// The tournament `id`, if the caller (none: a stranger) may see it: a public one; a private
/// one for its maker, its entrants, admins, and whoever has its code. A private one is
/// `private_tournament` to anyone else — it says that it is there, and to ask its maker — and
/// one that is not there is `not_found`.
fn visible(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: i64,
    code: Option<&str>,
) -> Result<TournamentRow, ApiError> {
    let code = crate::input::link_code(code)?;
    let row = tournaments::get(conn, id)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no tournament {id}")))?;
    let Some(secret) = row.code.as_deref() else {
        return Ok(row);
    };
    if code == Some(secret) {
        return Ok(row);
    }
    if let Some(caller) = caller {
        if row.created_by == caller.id || is_admin(conn, caller)? {
            return Ok(row);
        }
        let entered = tournaments::entrants(conn, id)?
            .iter()
            .any(|e| e.user_id == caller.id);
        if entered {
            return Ok(row);
        }
    }
    Err(ApiError::Denied {
        code: ProblemCode::PrivateTournament,
        detail: format!(
            "tournament {id} is private: its link (with its code) lets you in; ask its maker"
        ),
    })
}

/// Whether `caller` may change tournament `row` and call it off: admins any, and the maker of a
/// private one theirs.
fn may_manage(
    conn: &mut AnyConnection,
    caller: &Caller,
    row: &TournamentRow,
) -> Result<bool, ApiError> {
    Ok((row.code.is_some() && row.created_by == caller.id) || is_admin(conn, caller)?)
}

/// Whether tournament `row` takes entrants now: before its start, and an arena until its time
/// is up.
fn joinable(row: &TournamentRow, now: chrono::NaiveDateTime) -> bool {
    match row.status {
        TournamentStatus::Upcoming => true,
        TournamentStatus::Running => {
            row.format == Format::Arena && row.ends_at.is_some_and(|end| now < end)
        }
        TournamentStatus::Finished | TournamentStatus::Cancelled => false,
    }
}

fn closed(detail: &str) -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::TournamentClosed,
        detail: detail.to_owned(),
    }
}
