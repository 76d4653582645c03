//! What a caller sees of a game.

use cardroom_core::{AnyGame, GameKind, Viewer};
use cardroom_db::AnyConnection;
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::games::{GameRecord, SeatRow};
use serde_json::Value;

use super::loaded::{Loaded, RECENT_VERSIONS, load};
use super::rematch_state;
use super::seats::seat_infos;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::events::visible;
use crate::model::{EventOut, GameTournament, GameView, TurnPolicy};

pub(super) fn status_name(record: &GameRecord, game: Option<&AnyGame>) -> GameStatus {
    match (record.game.status, game) {
        (GameStatus::Abandoned, _) => GameStatus::Abandoned,
        (_, Some(g)) => super::changes::of_rules(g.status()),
        (stored, None) => stored,
    }
}

/// A seated caller is connected: they are asking now, whatever the presence rows say yet.
fn own_seat_connected(
    mut seats: Vec<crate::model::SeatInfo>,
    your_seat: Option<cardroom_core::Seat>,
) -> Vec<crate::model::SeatInfo> {
    if let Some(seat) = your_seat
        && let Some(info) = seats.get_mut(seat.index())
    {
        info.connected = Some(true);
    }
    seats
}

#[allow(
    clippy::too_many_arguments,
    reason = "the view gathers every part of a game"
)]
pub(super) fn game_view(
    loaded: &Loaded,
    seats: &[SeatRow],
    game: Option<&AnyGame>,
    status: GameStatus,
    viewer: Viewer,
    version: i64,
    recent_events: Vec<EventOut>,
    deadline: Option<chrono::NaiveDateTime>,
) -> Result<GameView, ApiError> {
    let row = &loaded.record.game;
    let kind: GameKind = row.kind;
    let your_seat = viewer.seat();
    let has_open_seat = seats.iter().any(|s| s.user_id.is_none() && s.bot.is_none());
    Ok(GameView {
        id: row.id.get(),
        kind,
        variant: row.variant.clone(),
        status,
        version,
        practice: row.practice,
        options: serde_json::from_str(&row.options).unwrap_or(Value::Null),
        seats: own_seat_connected(seat_infos(seats), your_seat),
        visibility: row.visibility,
        your_seat: your_seat.map(|s| i64::from(s.number())),
        invite_code: (your_seat.is_some() && has_open_seat && status == GameStatus::Waiting)
            .then(|| row.invite_code.clone()),
        to_act: game.and_then(|g| g.to_act()).map(|s| i64::from(s.number())),
        legal_moves: match (game, your_seat) {
            (Some(g), Some(seat)) => g.legal_moves(seat),
            _ => Vec::new(),
        },
        table: game.map(|g| g.view(viewer)),
        recent_events,
        outcome: game.and_then(|g| g.table().outcome().cloned()),
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        deadline: deadline.map(|d| d.and_utc()),
        spectators: loaded.spectators,
        rematch: None,
        // (A private tournament's name is its entrants': a spectator sees only its number.)
        tournament: loaded.tournament.as_ref().map(|t| GameTournament {
            id: t.id,
            round: i64::from(t.round),
            name: (!t.private || your_seat.is_some()).then(|| t.name.clone()),
        }),
    })
}

/// The events of the last few versions up to the loaded one (committed, from the log read with
/// the game), plus `pending` ones.
pub(super) fn recent_events(
    loaded: &Loaded,
    viewer: Viewer,
    mut pending: Vec<EventOut>,
) -> Result<Vec<EventOut>, ApiError> {
    let upto = loaded.version();
    // (Versions, not events: a version may hold several.)
    let newest = pending.iter().map(|e| e.version).fold(upto, i64::max);
    let from = (newest - RECENT_VERSIONS).max(0);
    let mut out = Vec::new();
    for (seq, events) in &loaded.recent {
        if *seq > from && *seq <= upto {
            out.extend(visible(events, viewer, *seq)?);
        }
    }
    pending.retain(|e| e.version > from);
    out.extend(pending);
    Ok(out)
}

/// `GET /games/{id}`.
pub fn view(conn: &mut AnyConnection, caller: &Caller, id: GameId) -> Result<GameView, ApiError> {
    view_for(conn, Some(caller), id)
}

/// `GET /games/{id}` for whoever reads it: a caller, or a stranger (`None`) watching a public
/// table.
pub fn view_for(
    conn: &mut AnyConnection,
    caller: Option<&Caller>,
    id: GameId,
) -> Result<GameView, ApiError> {
    let loaded = load(conn, id)?;
    let viewer = super::gate::reading(conn, &loaded, caller)?.viewer;
    let recent = recent_events(&loaded, viewer, Vec::new())?;
    let status = status_name(&loaded.record, loaded.game.as_ref());
    let mut view = game_view(
        &loaded,
        &loaded.record.seats,
        loaded.game.as_ref(),
        status,
        viewer,
        loaded.version(),
        recent,
        loaded.record.game.deadline,
    )?;
    view.rematch = rematch_state::state_of(conn, &loaded)?;
    Ok(view)
}
