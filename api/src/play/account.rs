//! What the account's event stream reads: at its start, what waits for the account now; then
//! the account event log after a cursor, with the credential checked again each time.

use cardroom_db::AnyConnection;
use cardroom_db::GameStatus;
use cardroom_db::account_events;
use serde_json::{Value, json};

use super::Revoked;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::model::{AccountEvent, AccountGame, TurnAction};

/// The most events one look gives a stream.
pub const ACCOUNT_EVENTS_PAGE: i64 = 200;

/// What waits for the caller now, as events without ids — `your_turn` for each game waiting for
/// them (to move, or to deal), `challenge_received` for each open challenge to them — and the
/// id of their newest logged event, to go on from.
pub fn account_snapshot(
    conn: &mut AnyConnection,
    caller: &Caller,
) -> Result<(Vec<Value>, i64), ApiError> {
    let newest = account_events::newest(conn, caller.id)?;
    let statuses = [GameStatus::Active, GameStatus::HandOver];
    let (records, _) = cardroom_db::games::list_for_user(conn, caller.id, &statuses, 1, 100)?;
    let mut events = Vec::new();
    for record in records {
        let row = &record.game;
        let Some(seat) = record.seats.iter().find(|s| s.user_id == Some(caller.id)) else {
            continue;
        };
        // (A person away has a computer playing for them.)
        if seat.bot.is_some() {
            continue;
        }
        let action = match row.status {
            GameStatus::Active if row.to_act == Some(seat.seat) => TurnAction::Move,
            GameStatus::HandOver if !row.bot_pending => TurnAction::Deal,
            _ => continue,
        };
        events.push(AccountEvent::YourTurn {
            game: AccountGame {
                game_id: row.id.get(),
                version: row.version,
                kind: row.kind,
                variant: row.variant.clone(),
                seat: i64::from(seat.seat),
            },
            action,
        });
    }
    events.extend(super::challenges::waiting_for(conn, caller.id)?);
    let events = events
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()
        .map_err(ApiError::because("event encoding"))?;
    Ok((events, newest))
}

/// The caller's logged events after `after`, each with its id inside, if their credential
/// still holds.
pub fn account_events_for(
    conn: &mut AnyConnection,
    caller: &Caller,
    after: i64,
) -> Result<Result<Vec<(i64, Value)>, Revoked>, ApiError> {
    if caller.token_expired() {
        return Ok(Err(Revoked::TokenExpired));
    }
    let rows = account_events::after(conn, caller.id, after, ACCOUNT_EVENTS_PAGE)?;
    if !crate::tokens::still_valid(conn, caller)? {
        return Ok(Err(Revoked::TokenExpired));
    }
    Ok(Ok(rows
        .into_iter()
        .map(|row| {
            let mut event: Value = serde_json::from_str(&row.data).unwrap_or(Value::Null);
            if let Some(object) = event.as_object_mut() {
                object.insert("id".to_owned(), json!(row.id));
            }
            (row.id, event)
        })
        .collect()))
}
