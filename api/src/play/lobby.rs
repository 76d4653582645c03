//! The lobby: public tables waiting for players, games to watch and tournaments; and the
//! closing of tables nobody joined.

use cardroom_db::GameId;
use std::collections::HashMap;
use std::time::Duration;

use cardroom_core::GameKind;
use cardroom_db::GameStatus;
use cardroom_db::games;
use cardroom_db::{AnyConnection, DbError};
use serde_json::Value;

use super::changes::{Changes, abandonment};
use super::loaded::load;
use crate::error::ApiError;
use crate::model::{LiveTable, Lobby, LobbyQuery, LobbySeat, OpenTable, ServiceEvent, TurnPolicy};

/// The most games the lobby lists to watch.
const LIVE_LISTED: i64 = 20;

/// The seats of a listed table, with each person's rating in the kind (against people).
fn lobby_seats(
    conn: &mut AnyConnection,
    kind: GameKind,
    seats: &[cardroom_db::games::SeatRow],
) -> Result<Vec<LobbySeat>, ApiError> {
    let people: Vec<i64> = seats.iter().filter_map(|s| s.user_id).collect();
    let ratings: HashMap<i64, f64> = cardroom_db::ratings::of_users(conn, &people, kind, "people")?
        .into_iter()
        .map(|r| (r.user_id, r.rating))
        .collect();
    Ok(seats
        .iter()
        .map(|s| LobbySeat {
            seat: i64::from(s.seat),
            name: s.name.clone(),
            rating: s.user_id.and_then(|u| ratings.get(&u).copied()),
            bot: s.bot,
            open: s.user_id.is_none() && s.bot.is_none(),
            bot_account: s.bot_account,
        })
        .collect())
}

/// Whether a listed table counts for ratings: a real game (not practice) with no guest seated
/// (a guest is neither rated nor an opponent anyone is rated against).
fn rated(
    conn: &mut AnyConnection,
    row: &cardroom_db::games::GameRow,
    seats: &[cardroom_db::games::SeatRow],
) -> Result<bool, ApiError> {
    if row.practice {
        return Ok(false);
    }
    let people: Vec<i64> = seats.iter().filter_map(|s| s.user_id).collect();
    Ok(cardroom_db::users::guests_among(conn, &people)?.is_empty())
}

/// `GET /lobby`.
pub fn lobby(
    conn: &mut AnyConnection,
    query: &LobbyQuery,
    expires_after: Duration,
) -> Result<Lobby, ApiError> {
    if let Some(variant) = &query.variant {
        let spelled = (1..=32).contains(&variant.len())
            && variant
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !spelled {
            return Err(ApiError::Invalid(
                "variant is 1 to 32 lowercase letters, digits or `_`".to_owned(),
            ));
        }
    }
    let (page, per_page) = super::paging::paging(query.page, query.per_page, 50, 100)?;
    let kind = query.kind;
    let (records, total) = games::lobby(conn, kind, query.variant.as_deref(), page, per_page)?;
    let now = chrono::Utc::now();
    let mut tables = Vec::with_capacity(records.len());
    for record in records {
        let row = &record.game;
        let kind: GameKind = row.kind;
        let seats = lobby_seats(conn, row.kind, &record.seats)?;
        let created_at = row.created_at.and_utc();
        tables.push(OpenTable {
            id: row.id.get(),
            kind,
            variant: row.variant.clone(),
            options: serde_json::from_str(&row.options).unwrap_or(Value::Null),
            rated: rated(conn, row, &record.seats)?,
            open_seats: seats.iter().filter(|s| s.open).count() as i64,
            seats,
            turn: row.turn_seconds.map(|seconds| TurnPolicy {
                seconds: i64::from(seconds),
                takeover_after: row.takeover_after.map(i64::from),
            }),
            created_at,
            waiting_seconds: (now - created_at).num_seconds().max(0),
        });
    }
    let mut playing = Vec::new();
    for record in games::live_public(conn, kind, query.variant.as_deref(), LIVE_LISTED)? {
        let row = &record.game;
        playing.push(LiveTable {
            id: row.id.get(),
            kind: row.kind,
            variant: row.variant.clone(),
            rated: rated(conn, row, &record.seats)?,
            seats: lobby_seats(conn, row.kind, &record.seats)?,
            created_at: row.created_at.and_utc(),
        });
    }
    Ok(Lobby {
        tables,
        page,
        per_page,
        total,
        expires_after_seconds: expires_after.as_secs() as i64,
        playing,
        tournaments: super::tournaments::listed(conn, kind)?,
    })
}

/// Closes the public tables that waited longer than `expires_after` for their players: each is
/// abandoned with an `expired` event, with the version check (a table someone joined meanwhile
/// is left alone). Returns the games closed.
pub fn expire_open_tables(
    conn: &mut AnyConnection,
    expires_after: Duration,
) -> Result<Vec<GameId>, ApiError> {
    let age =
        chrono::Duration::from_std(expires_after).map_err(ApiError::because("table expiry"))?;
    let before = cardroom_db::now() - age;
    let mut closed = Vec::new();
    for (id, version) in games::stale_open_tables(conn, before, 50)? {
        let loaded = load(conn, id)?;
        if loaded.version() != version || loaded.record.game.status != GameStatus::Waiting {
            continue;
        }
        let mut changes = Changes::new(None);
        changes.record_service(
            None,
            "abandoned",
            ServiceEvent::Expired {
                after_seconds: expires_after.as_secs(),
            },
        )?;
        match super::commit::commit_change(conn, &abandonment(&loaded, changes)) {
            Ok(_) => closed.push(id),
            Err(DbError::VersionConflict) => {}
            Err(other) => return Err(other.into()),
        }
    }
    Ok(closed)
}
