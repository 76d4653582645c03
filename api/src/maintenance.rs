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
//!   A finished game's stored results (who sat where, on which side, who won) must be the ones
//!   the replayed game gives, and so must what a tournament recorded of it (place, points,
//!   total). Each rating's history must lead, game by game, from a new player's rating to the
//!   stored one, one change a rated game, and only through games that could be rated.
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
    /// Finished games whose stored results were checked.
    pub results: usize,
    /// Tournament seats whose recorded result was checked.
    pub tournament_seats: usize,
    /// Ratings whose history was followed.
    pub ratings: usize,
    /// One line for each difference, naming its game.
    pub problems: Vec<String>,
}

impl CheckReport {
    /// The summary line.
    pub fn summary(&self) -> String {
        let what = format!(
            "checked {} games: every log replayed against its snapshot, {} deals' commitments, \
             {} revealed seeds, {} finished games' results, {} tournament seats, {} ratings' \
             histories",
            self.games, self.deals, self.seeds, self.results, self.tournament_seats, self.ratings
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
            break;
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
    let mut after = 0;
    loop {
        let trails = cardroom_db::maintenance::rating_trails_after(conn, after, 200)?;
        let Some(last) = trails.last() else {
            return Ok(report);
        };
        after = last.rating.user_id;
        let before = report.problems.len();
        check_ratings(conn, &trails, &mut report)?;
        for problem in &report.problems[before..] {
            found(problem);
        }
    }
}

/// Each rating's history must lead from a new player's rating to the stored one: a change
/// whose `before` is the rating so far, then the next, until every change is used and the
/// rating is the stored one (deviation too), with one game counted a change. (Followed by
/// value, not by time: two games finishing together are rated in either order.)
fn check_ratings(
    conn: &mut AnyConnection,
    trails: &[cardroom_db::maintenance::RatingTrail],
    report: &mut CheckReport,
) -> Result<(), ApiError> {
    let mut rated = Vec::new();
    for trail in trails {
        report.ratings += 1;
        let row = &trail.rating;
        let name = format!(
            "user {}'s {} rating (pool {})",
            row.user_id, row.kind, row.pool
        );
        let mut left = trail.changes.clone();
        let start = cardroom_core::rating::Rating::default();
        let (mut rating, mut deviation) = (start.rating, start.deviation);
        while let Some(next) = left.iter().position(|c| c.1 == rating) {
            let (_, _, after, deviation_after) = left.swap_remove(next);
            rating = after;
            deviation = deviation_after;
        }
        if !left.is_empty() {
            report.problems.push(format!(
                "{name}: {} of its {} changes do not follow from the ones before (games {})",
                left.len(),
                trail.changes.len(),
                left.iter()
                    .map(|c| c.0.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        } else if rating != row.rating || deviation != row.deviation {
            report.problems.push(format!(
                "{name}: stored as {:.2} ± {:.2}, its history leads to {rating:.2} ± {deviation:.2}",
                row.rating, row.deviation
            ));
        }
        if usize::try_from(row.games).ok() != Some(trail.changes.len()) {
            report.problems.push(format!(
                "{name}: counts {} games, its history {}",
                row.games,
                trail.changes.len()
            ));
        }
        rated.extend(trail.changes.iter().map(|c| c.0));
    }
    rated.sort();
    rated.dedup();
    for game in cardroom_db::maintenance::unratable_games(conn, &rated)? {
        report.problems.push(format!(
            "game {game}: rated, but it is a practice game or is not there"
        ));
    }
    Ok(())
}

/// A game's stored results, and what tournaments recorded of it, against the replayed game.
fn check_results(
    conn: &mut AnyConnection,
    id: GameId,
    replayed: Option<&AnyGame>,
    report: &mut CheckReport,
) -> Result<(), ApiError> {
    let Some(record) = games::load(conn, id)? else {
        return Ok(());
    };
    let stored = cardroom_db::maintenance::results_of(conn, id)?;
    let expected = replayed
        .map(|game| crate::play::seat_results(game, &record.seats))
        .unwrap_or_default();
    if !expected.is_empty() || !stored.is_empty() {
        report.results += 1;
        if stored != expected {
            report.problems.push(format!(
                "game {id}: its stored results are not the replayed game's (stored {}, replayed {})",
                describe_results(&stored),
                describe_results(&expected)
            ));
        }
    }
    let recorded = cardroom_db::maintenance::recorded_seats(conn, id)?;
    for seat in recorded {
        report.tournament_seats += 1;
        let expected =
            crate::play::tournaments::recorded_for(replayed, record.game.seat_count, seat.teams);
        let mine = expected.iter().find(|r| r.seat == seat.recorded.seat);
        if mine != Some(&seat.recorded) {
            report.problems.push(format!(
                "game {id}: tournament {} recorded seat {} as place {}, {} points, total {}; the \
                 replayed game gives {}",
                seat.tournament,
                seat.recorded.seat,
                seat.recorded.place,
                seat.recorded.points,
                seat.recorded.result,
                mine.map_or("no such seat".to_owned(), |r| format!(
                    "place {}, {} points, total {}",
                    r.place, r.points, r.result
                ))
            ));
        }
    }
    Ok(())
}

fn describe_results(results: &[cardroom_db::games::SeatResult]) -> String {
    if results.is_empty() {
        return "none".to_owned();
    }
    results
        .iter()
        .map(|r| {
            let who = match (r.user_id, r.bot) {
                (Some(user), _) => format!("user {user}"),
                (None, Some(level)) => format!("{level} computer"),
                (None, None) => "nobody".to_owned(),
            };
            format!(
                "seat {} {who} side {}{}",
                r.seat,
                r.side,
                if r.won { " won" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
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
    check_results(conn, id, replayed.as_ref(), report)?;
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
