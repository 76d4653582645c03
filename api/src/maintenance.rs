//! `cardroom backup DEST` and `cardroom check`: an operator's tools for the database the service
//! runs on (`DATABASE_URL`), beside the service and while it serves.
//!
//! - **backup** copies an SQLite database into a new file in one read transaction: the copy is
//!   the database as of one commit, with every move acknowledged before the backup began, and
//!   the service goes on writing meanwhile. PostgreSQL is backed up with its own tools
//!   (docs/operations.md).
//! - **check** holds every game against its own log. The engine is deterministic, so the log
//!   replayed with the rules must give the stored snapshot exactly; each deal's commitment must be
//!   the one the game's seed gives for it, and each revealed seed must hash to its commitment.
//!   Any difference is damage (a restored copy cut short, a row changed by hand). It reads and
//!   never writes.

use cardroom_core::{AnyGame, Seed};
use cardroom_db::games;
use cardroom_db::{AnyConnection, GameId};
use serde_json::Value;

use crate::error::ApiError;

/// What a check found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Games read.
    pub games: usize,
    /// Deals whose commitment was checked.
    pub deals: usize,
    /// Seeds revealed and checked against their commitment.
    pub seeds: usize,
    /// One line for each difference, naming its game.
    pub problems: Vec<String>,
}

impl CheckReport {
    /// The summary line.
    pub fn summary(&self) -> String {
        let what = format!(
            "checked {} games: every log replayed against its snapshot, {} deals' commitments, {} revealed seeds",
            self.games, self.deals, self.seeds
        );
        if self.problems.is_empty() {
            format!("{what}: all consistent")
        } else {
            format!("{what}: {} differences", self.problems.len())
        }
    }
}

/// Checks every game of the database, in order of id; `found` hears of each difference as it is
/// found. An error is a failure to read (the database went away), not a difference.
pub fn check(
    conn: &mut AnyConnection,
    mut found: impl FnMut(&str),
) -> Result<CheckReport, ApiError> {
    let mut report = CheckReport::default();
    let mut after = 0;
    loop {
        let ids = cardroom_db::maintenance::game_ids_after(conn, after, 500)?;
        let Some(last) = ids.last() else {
            return Ok(report);
        };
        after = last.get();
        for id in ids {
            let before = report.problems.len();
            check_game(conn, id, &mut report)?;
            for problem in &report.problems[before..] {
                found(problem);
            }
        }
    }
}

fn check_game(
    conn: &mut AnyConnection,
    id: GameId,
    report: &mut CheckReport,
) -> Result<(), ApiError> {
    report.games += 1;
    let replayed = match crate::play::replay(conn, id) {
        Ok(game) => game,
        Err(ApiError::Unavailable) => return Err(ApiError::Unavailable),
        Err(error) => {
            report
                .problems
                .push(format!("game {id}: its log does not replay: {error}"));
            return Ok(());
        }
    };
    let stored = match crate::play::snapshot_of(conn, id) {
        Ok(game) => game,
        Err(ApiError::Unavailable) => return Err(ApiError::Unavailable),
        Err(error) => {
            report
                .problems
                .push(format!("game {id}: its snapshot does not read: {error}"));
            None
        }
    };
    if replayed != stored {
        report.problems.push(format!(
            "game {id}: the stored snapshot is not its log replayed ({})",
            first_difference(replayed.as_ref(), stored.as_ref())
        ));
    }
    for deal in games::deals(conn, id)? {
        report.deals += 1;
        let Ok(index) = u32::try_from(deal.deal) else {
            report
                .problems
                .push(format!("game {id}: deal {} has no place", deal.deal));
            continue;
        };
        let expected = replayed
            .as_ref()
            .and_then(|game| game.table().commitment(index))
            .map(|bytes| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>());
        if expected.as_deref() != Some(deal.commitment.to_ascii_lowercase().as_str()) {
            report.problems.push(format!(
                "game {id}: deal {index}'s commitment {} is not the one its seed gives ({})",
                deal.commitment,
                expected
                    .as_deref()
                    .unwrap_or("no such deal in the replayed game")
            ));
        }
        if let Some(seed) = &deal.seed {
            report.seeds += 1;
            match Seed::from_hex(seed) {
                Ok(seed) if seed.commitment_hex() == deal.commitment.to_ascii_lowercase() => {}
                _ => report.problems.push(format!(
                    "game {id}: deal {index}'s revealed seed does not hash to its commitment"
                )),
            }
        }
    }
    Ok(())
}

/// Where two states first differ, as a JSON path ("the snapshot has none", "at /state/hands/1").
fn first_difference(replayed: Option<&AnyGame>, stored: Option<&AnyGame>) -> String {
    match (replayed, stored) {
        (Some(_), None) => "the game has no snapshot".to_owned(),
        (None, Some(_)) => "the log has no deal, the snapshot a game".to_owned(),
        (None, None) => "neither has a game".to_owned(),
        (Some(a), Some(b)) => {
            let (a, b) = (
                serde_json::to_value(a).unwrap_or(Value::Null),
                serde_json::to_value(b).unwrap_or(Value::Null),
            );
            match path_of_difference(&a, &b, String::new()) {
                Some(path) => format!("first at {path}"),
                None => "they differ".to_owned(),
            }
        }
    }
}

fn path_of_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .find_map(|k| {
                    let (p, q) = (
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                    );
                    path_of_difference(p, q, format!("{at}/{k}"))
                })
                .or(Some(if at.is_empty() { "/".to_owned() } else { at }))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| path_of_difference(p, q, format!("{at}/{i}")))
            .or(Some(at)),
        _ => Some(if at.is_empty() { "/".to_owned() } else { at }),
    }
}
