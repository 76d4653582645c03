//! Where a finished game's rematch stands, as its log's `rematch` entries leave it: who
//! accepted, who is still asked, who declined, and the new game once it started.

use cardroom_db::AnyConnection;
use cardroom_db::GameStatus;
use cardroom_db::games::{self, RecentEntry, SeatRow};
use serde_json::Value;

use super::loaded::Loaded;
use crate::error::ApiError;
use crate::events::StoredEvent;
use crate::model::RematchState;

/// The log action of rematch entries.
pub const ACTION: &str = "rematch";

/// The seats of the people at the table (the seats whose person must accept).
pub(super) fn people(seats: &[SeatRow]) -> Vec<i64> {
    seats
        .iter()
        .filter(|s| s.user_id.is_some())
        .map(|s| i64::from(s.seat))
        .collect()
}

/// The rematch of a finished game as its `rematch` entries leave it.
pub(super) fn state_from(entries: &[RecentEntry], seats: &[SeatRow]) -> RematchState {
    let mut accepted: Vec<i64> = Vec::new();
    let mut declined_by = None;
    let mut game_id = None;
    for (_, events) in entries {
        let events: Vec<StoredEvent> = serde_json::from_str(events).unwrap_or_default();
        for StoredEvent { event, .. } in events {
            let seat = event.get("seat").and_then(Value::as_i64);
            match (event.get("type").and_then(Value::as_str), seat) {
                (Some("rematch_offered"), Some(seat)) => {
                    accepted = vec![seat];
                    declined_by = None;
                }
                (Some("rematch_accepted"), Some(seat)) if !accepted.contains(&seat) => {
                    accepted.push(seat);
                }
                (Some("rematch_declined"), Some(seat)) => {
                    accepted.clear();
                    declined_by = Some(seat);
                }
                (Some("rematch_started"), _) => {
                    game_id = event.get("game_id").and_then(Value::as_i64);
                }
                _ => {}
            }
        }
    }
    accepted.sort_unstable();
    let waiting_for = if game_id.is_some() {
        Vec::new()
    } else {
        people(seats)
            .into_iter()
            .filter(|s| !accepted.contains(s))
            .collect()
    };
    RematchState {
        accepted,
        waiting_for,
        declined_by,
        game_id,
    }
}

/// The rematch of a loaded game: none until it is finished.
pub(super) fn state_of(
    conn: &mut AnyConnection,
    loaded: &Loaded,
) -> Result<Option<RematchState>, ApiError> {
    if loaded.record.game.status != GameStatus::Finished {
        return Ok(None);
    }
    let entries = games::entries_of(conn, loaded.id(), ACTION)?;
    Ok(Some(state_from(&entries, &loaded.record.seats)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn seat(seat: i32, user: Option<i64>, bot: Option<&str>) -> SeatRow {
        SeatRow {
            seat,
            user_id: user,
            name: user.map(|u| format!("p{u}")),
            bot: bot.map(|level| level.parse().expect("a level")),
            timeouts: 0,
            connected: None,
            bot_account: false,
        }
    }

    fn entry(seq: i64, events: &[Value]) -> RecentEntry {
        let stored: Vec<Value> = events
            .iter()
            .map(|e| json!({"to": "everyone", "event": e}))
            .collect();
        (seq, serde_json::to_string(&stored).unwrap_or_default())
    }

    #[test]
    fn offers_acceptances_and_refusals_fold_into_who_is_still_asked() {
        let seats = [
            seat(0, Some(1), None),
            seat(1, None, Some("easy")),
            seat(2, Some(3), None),
            seat(3, Some(4), Some("easy")),
        ];
        let none = state_from(&[], &seats);
        assert_eq!(none.accepted, Vec::<i64>::new());
        assert_eq!(none.waiting_for, vec![0, 2, 3], "the away person too");
        let offered = [entry(10, &[json!({"type": "rematch_offered", "seat": 2})])];
        let state = state_from(&offered, &seats);
        assert_eq!(
            (state.accepted.clone(), state.waiting_for),
            (vec![2], vec![0, 3])
        );
        let declined = [
            offered[0].clone(),
            entry(11, &[json!({"type": "rematch_declined", "seat": 0})]),
        ];
        let state = state_from(&declined, &seats);
        assert_eq!(state.accepted, Vec::<i64>::new());
        assert_eq!(state.declined_by, Some(0));
        let started = [
            entry(12, &[json!({"type": "rematch_offered", "seat": 0})]),
            entry(13, &[json!({"type": "rematch_accepted", "seat": 3})]),
            entry(
                14,
                &[
                    json!({"type": "rematch_accepted", "seat": 2}),
                    json!({"type": "rematch_started", "game_id": 99}),
                ],
            ),
        ];
        let state = state_from(&started, &seats);
        assert_eq!(state.accepted, vec![0, 2, 3]);
        assert_eq!(state.game_id, Some(99));
        assert!(state.waiting_for.is_empty());
        assert_eq!(state.declined_by, None);
    }
}
