//! Finished games' analyses: made in the background after a game ends, one game at a time per
//! replica, and read by `GET /games/{id}/analysis`.
//!
//! A game is queued by the transaction that finishes it. A replica claims a queued game (one
//! statement: exactly one of two replicas wins), replays its
//! log with an [`Analyst`] shown every move, reports its progress about once a second, and
//! stores the analysis. A replica that dies leaves its claim to go stale; another takes it over.
//! The analysis never runs on a game in progress: only finished games are due, and the reader
//! answers `game_not_finished` before one is.

use std::time::{Duration, Instant};

use cardroom_core::analysis::{self, Analyst};
use cardroom_db::analyses::AnalysisStatus as Stored;
use cardroom_db::games::{self, GameRow, LogRow};
use cardroom_db::{AnyConnection, GameId};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::loaded::load;
use super::recovery::replay_entry;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::state::AppState;

/// A claim not renewed for this long is taken over by another replica.
const STALE: Duration = Duration::from_secs(300);

/// How often the worker reports its progress.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// Where a game's analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// The game is over and waits for its turn.
    Queued,
    Running,
    Done,
    Failed,
}

/// A finished game's analysis, or how far it has got.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisResponse {
    pub game_id: i64,
    pub status: AnalysisStatus,
    /// Moves analysed so far, of `total` (both 0 while queued).
    pub done: i64,
    pub total: i64,
    /// Once `done`.
    #[schema(value_type = Option<cardroom_core::analysis::Analysis>)]
    pub analysis: Option<Value>,
    /// Why it failed (a defect of ours, logged too).
    pub error: Option<String>,
}

/// `GET /games/{id}/analysis`: for the game's players, anyone for a public game, and admins;
/// `game_not_finished` while any hand of it is being played.
pub fn analysis(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: GameId,
) -> Result<AnalysisResponse, ApiError> {
    let loaded = load(conn, id)?;
    super::gate::whole(conn, &loaded, caller, super::gate::Whole::Analysis)?;
    // (A row of an older format is as good as queued: it is made again.)
    let stored = cardroom_db::analyses::get(conn, id)?
        .filter(|a| a.format >= analysis::FORMAT as i32 || a.status.is_pending());
    let Some(stored) = stored else {
        return Ok(AnalysisResponse {
            game_id: id.get(),
            status: AnalysisStatus::Queued,
            done: 0,
            total: 0,
            analysis: None,
            error: None,
        });
    };
    let status = match stored.status {
        Stored::Queued => AnalysisStatus::Queued,
        Stored::Running => AnalysisStatus::Running,
        Stored::Done => AnalysisStatus::Done,
        Stored::Failed => AnalysisStatus::Failed,
    };
    let body = match stored.body {
        Some(text) if status == AnalysisStatus::Done => {
            Some(serde_json::from_str(&text).map_err(ApiError::because("stored analysis"))?)
        }
        _ => None,
    };
    Ok(AnalysisResponse {
        game_id: id.get(),
        status,
        done: i64::from(stored.done),
        total: i64::from(stored.total),
        analysis: body,
        error: stored.error,
    })
}

/// Queues what the transactions that finish games did not: the games finished before analyses
/// existed, and the analyses of an older format. Once a process, before its first analysis.
pub fn queue_missing(state: &AppState) -> Result<usize, ApiError> {
    let mut conn = cardroom_db::checkout(&state.pool, &state.db_health, state.settings.db_timeout)?;
    Ok(cardroom_db::analyses::queue_missing(
        &mut conn,
        analysis::FORMAT as i32,
    )?)
}

/// Analyses the finished game that has waited longest, if any: true when one was due (another
/// may be), false when none is.
pub fn analyse_next(state: &AppState) -> Result<bool, ApiError> {
    let checkout =
        || cardroom_db::checkout(&state.pool, &state.db_health, state.settings.db_timeout);
    let mut conn = checkout()?;
    let stale = stale_before();
    let Some(id) = cardroom_db::analyses::next_due(&mut conn, stale)? else {
        return Ok(false);
    };
    let format = analysis::FORMAT as i32;
    let Some(started) = cardroom_db::analyses::claim(&mut conn, id, format, stale)? else {
        // Another replica holds it.
        return Ok(true);
    };
    let began = Instant::now();
    // (Claimed first: a game that cannot be read is stored as failed, not tried again and again.)
    let read =
        load(&mut conn, id).and_then(|loaded| Ok((loaded.record.game, read_all(&mut conn, id)?)));
    drop(conn);
    let result = read.and_then(|(record, log)| {
        let total = log.iter().filter(|row| row.action == "move").count();
        let total = i32::try_from(total).unwrap_or(i32::MAX);
        analyse(state, &record, &log, started, total).map(|body| body.map(|b| (b, total)))
    });
    let (outcome, total) = match result {
        Ok(Some((body, total))) => (Ok(body), total),
        // The claim was taken over: the other replica finishes.
        Ok(None) => return Ok(true),
        Err(ApiError::Unavailable) => return Err(ApiError::Unavailable),
        Err(error) => {
            tracing::error!(game = id.get(), %error, "a finished game's analysis failed");
            (Err(error.to_string()), 0)
        }
    };
    let mut conn = checkout()?;
    if cardroom_db::analyses::finish(&mut conn, id, started, outcome)? {
        tracing::info!(
            game = id.get(),
            moves = total,
            ms = began.elapsed().as_millis() as u64,
            "analysed a finished game"
        );
    }
    Ok(true)
}

/// The analysis of the game of `record` from its log, as JSON; `None` when the claim made at
/// `started` was taken over meanwhile.
fn analyse(
    state: &AppState,
    record: &GameRow,
    log: &[LogRow],
    started: chrono::NaiveDateTime,
    total: i32,
) -> Result<Option<String>, ApiError> {
    let mut game = None;
    let mut analyst: Option<Analyst> = None;
    let mut done = 0;
    // The first report at once: it says how many moves there are.
    let mut reported: Option<Instant> = None;
    for row in log {
        // A process that is stopping gives the game back, to be made again later (by it, or
        // another replica), rather than keep the stop waiting.
        if state.hub.is_shutting_down() {
            let mut conn =
                cardroom_db::checkout(&state.pool, &state.db_health, state.settings.db_timeout)?;
            cardroom_db::analyses::release(&mut conn, record.id, started)?;
            tracing::info!(
                game = record.id.get(),
                "stopping: an analysis given back to the queue"
            );
            return Ok(None);
        }
        let mut before_move = |game: &cardroom_core::AnyGame, seat, mv: &cardroom_core::AnyMove| {
            analyst
                .get_or_insert_with(|| Analyst::new(game))
                .observe(game, row.seq, seat, mv)
                .map_err(|e| ApiError::internal(format!("game {}: {e}", record.id)))
        };
        replay_entry(record, &mut game, row, &mut before_move)?;
        if row.action == "move" {
            done += 1;
        }
        if reported.is_none_or(|at| at.elapsed() >= REPORT_EVERY) {
            reported = Some(Instant::now());
            let mut conn =
                cardroom_db::checkout(&state.pool, &state.db_health, state.settings.db_timeout)?;
            if !cardroom_db::analyses::progress(&mut conn, record.id, started, done, total)? {
                return Ok(None);
            }
        }
    }
    let analyst = match (analyst, &game) {
        (Some(analyst), _) => analyst,
        // A game over before any move (every seat resigned, say): nothing to judge.
        (None, Some(game)) => Analyst::new(game),
        (None, None) => {
            return Err(ApiError::internal(format!(
                "game {} has no deal in its log",
                record.id
            )));
        }
    };
    let analysis = analyst
        .finish()
        .map_err(|e| ApiError::internal(format!("game {}: {e}", record.id)))?;
    let body = serde_json::to_string(&analysis).map_err(ApiError::because("analysis"))?;
    Ok(Some(body))
}

/// Every entry of a game's log, in order.
fn read_all(conn: &mut AnyConnection, id: GameId) -> Result<Vec<LogRow>, ApiError> {
    let mut all = Vec::new();
    loop {
        let after = all.last().map_or(0, |row: &LogRow| row.seq);
        let rows = games::log_after(conn, id, after, 1000)?;
        if rows.is_empty() {
            return Ok(all);
        }
        all.extend(rows);
    }
}

fn stale_before() -> chrono::NaiveDateTime {
    let stale = chrono::Duration::from_std(STALE).unwrap_or(chrono::Duration::minutes(5));
    cardroom_db::now() - stale
}
