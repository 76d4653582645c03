//! Committing a request's changes as one versioned write, and the view the caller gets back.

use cardroom_core::{AnyGame, GameKind, Viewer};
use cardroom_db::GameStatus;
use cardroom_db::games::{self, Commit, NewIdempotency, SeatRow};
use cardroom_db::{AnyConnection, DbError};

use crate::error::ApiError;
use crate::input::IdempotencyKey;
use crate::metrics::Metrics;
use crate::model::{EventOut, GameView};

use super::changes::{Changes, account_notices, summary};
use super::loaded::Loaded;
use super::rematch_state;
use super::view::{game_view, recent_events, status_name};

/// The format of stored snapshots (`games.state`).
pub const STATE_FORMAT: i32 = 1;
/// How many times a join, deal or resignation is retried after losing a version race.
const RETRIES: usize = 5;

pub(super) fn snapshot(game: &AnyGame) -> Result<String, ApiError> {
    serde_json::to_string(game).map_err(ApiError::because("snapshot encoding"))
}

pub(super) fn with_retries<T>(
    metrics: &Metrics,
    mut attempt: impl FnMut() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut last = None;
    for _ in 0..RETRIES {
        match attempt() {
            Err(ApiError::VersionConflict { current }) => {
                Metrics::add(&metrics.version_conflicts, 1);
                last = Some(current);
            }
            other => return other,
        }
    }
    Err(ApiError::VersionConflict {
        current: last.unwrap_or(0),
    })
}

/// Commits `change` (one versioned write); when it finished the game, tells this process's
/// analysis worker, whose work the same transaction queued.
pub(super) fn commit_change(conn: &mut AnyConnection, change: &Commit) -> Result<i64, DbError> {
    let committed = games::commit(conn, change)?;
    if change.summary.finished && change.summary.status == GameStatus::Finished {
        crate::hub::game_finished();
    }
    Ok(committed)
}

/// Commits the changes to `loaded` and builds the view `viewer` gets back. On a lost race,
/// `VersionConflict` with the game's current version.
pub(super) fn commit_and_view(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    game: AnyGame,
    changes: Changes,
    idempotency: Option<(i64, IdempotencyKey)>,
    viewer: Viewer,
    metrics: &Metrics,
) -> Result<(Vec<EventOut>, GameView), ApiError> {
    let mut changes = changes;
    let base = loaded.version();
    let new_version = base + changes.entries.len() as i64;
    let summary = summary(
        Some(&game),
        None,
        &loaded.record.seats,
        loaded.record.game.turn_seconds,
    );
    changes.announce_deadline(&summary)?;
    let events = changes.visible(base, viewer)?;
    let recent = recent_events(loaded, viewer, events.clone())?;
    let status = status_name(&loaded.record, Some(&game));
    let mut view = game_view(
        loaded,
        &loaded.record.seats,
        Some(&game),
        status,
        viewer,
        new_version,
        recent,
        summary.deadline,
    )?;
    if status == GameStatus::Finished {
        // The game ends with this change: nobody has asked for a rematch yet.
        view.rematch = Some(rematch_state::state_from(&[], &loaded.record.seats));
    }
    let idempotency = match idempotency {
        None => None,
        Some((user_id, key)) => {
            let body = action_body(&events, &view)?;
            Some(NewIdempotency {
                user_id,
                key: key.key().to_owned(),
                request_hash: key.request_hash().to_owned(),
                status: 200,
                body,
            })
        }
    };
    let notices = account_notices(loaded, &loaded.record.seats, &summary, new_version);
    let change = Commit {
        game_id: loaded.id(),
        expected_version: base,
        state: Some(snapshot(&game)?),
        summary,
        entries: changes.entries,
        seats: changes.seats,
        deals: changes.deals,
        reveals: changes.reveals,
        idempotency,
        tally: changes.tally,
        leaving: changes.leaving,
        notices,
    };
    match commit_change(conn, &change) {
        Ok(_) => Ok((events, view)),
        Err(DbError::VersionConflict) => {
            Metrics::add(&metrics.version_conflicts, 1);
            let current = games::version(conn, loaded.id())?.unwrap_or(base);
            Err(ApiError::VersionConflict { current })
        }
        Err(other) => Err(other.into()),
    }
}

/// Commits a change made in the background (computers answering, a timeout) to the game as
/// `loaded`, with the seats as they are after it: the summary, the deadline's announcement and
/// the versioned write. A lost race is `VersionConflict`.
pub(super) fn commit_background(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    game: &AnyGame,
    seats: &[SeatRow],
    mut changes: Changes,
) -> Result<(), ApiError> {
    let summary = summary(Some(game), None, seats, loaded.record.game.turn_seconds);
    changes.announce_deadline(&summary)?;
    let version = loaded.version() + changes.entries.len() as i64;
    let notices = account_notices(loaded, seats, &summary, version);
    let change = Commit {
        game_id: loaded.id(),
        expected_version: loaded.version(),
        state: Some(snapshot(game)?),
        summary,
        entries: changes.entries,
        seats: changes.seats,
        deals: changes.deals,
        reveals: changes.reveals,
        idempotency: None,
        tally: changes.tally,
        leaving: changes.leaving,
        notices,
    };
    match commit_change(conn, &change) {
        Ok(_) => Ok(()),
        Err(DbError::VersionConflict) => Err(ApiError::VersionConflict {
            current: loaded.version(),
        }),
        Err(other) => Err(other.into()),
    }
}

/// The body of the answer to an action: its events and the new view, encoded straight from
/// them (not through a `Value` tree).
pub(super) fn action_body(events: &[EventOut], view: &GameView) -> Result<String, ApiError> {
    #[derive(serde::Serialize)]
    struct Body<'a> {
        kind: GameKind,
        events: &'a [EventOut],
        view: &'a GameView,
    }
    let kind = view.kind;
    serde_json::to_string(&Body { kind, events, view })
        .map_err(ApiError::because("response encoding"))
}
