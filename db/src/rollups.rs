//! The dashboard's daily roll-ups, kept as games change: games started and finished per day
//! and kind (with their moves, hands, time and notable events), people against computer
//! levels, and who played each day. Written in the transaction of the change that causes them
//! (through [`crate::derived`]); read by [`crate::admin`].

use cardroom_core::GameKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use crate::connection::AnyConnection;
use crate::dialect::Dialect;
use crate::error::DbError;
use crate::id::GameId;

/// The day and the `(game, seat)` pairs this process has noted on it.
type Noted = Option<(String, std::collections::HashSet<(GameId, i32)>)>;

/// The seats of games this process has already noted today, so the statement below runs once
/// per seat and day here, not on every move (another replica may run it again; the insert
/// ignores a row that is there). Filled only after the transaction commits.
static NOTED: std::sync::Mutex<Noted> = std::sync::Mutex::new(None);

fn already_noted(day: &str, game_id: GameId, seat: i32) -> bool {
    let noted = NOTED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    matches!(noted.as_ref(), Some((d, seats)) if d == day && seats.contains(&(game_id, seat)))
}

/// Whether `(game_id, seat)` is known to be noted on `now`'s day already.
pub(crate) fn is_noted(game_id: GameId, seat: i32, now: NaiveDateTime) -> bool {
    already_noted(&now.format("%Y-%m-%d").to_string(), game_id, seat)
}

/// Remembers that `(game_id, seat)` was noted on `now`'s day (call once committed).
pub(crate) fn noted(game_id: GameId, seat: i32, now: NaiveDateTime) {
    let day = now.format("%Y-%m-%d").to_string();
    let mut noted = NOTED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match noted.as_mut() {
        Some((d, seats)) if *d == day && seats.len() < 1_000_000 => {
            seats.insert((game_id, seat));
        }
        _ => *noted = Some((day, std::iter::once((game_id, seat)).collect())),
    }
}

/// Notes that the person in `seat` of a real (non-practice) game made a move on `now`'s day:
/// one row per person, kind and day, however many moves.
pub(crate) fn record_player_day(
    conn: &mut AnyConnection,
    game_id: GameId,
    seat: i32,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let day = now.format("%Y-%m-%d").to_string();
    if already_noted(&day, game_id, seat) {
        return Ok(());
    }
    let select = "SELECT {day}, g.kind, s.user_id FROM seats s JOIN games g ON g.id = s.game_id \
                  WHERE s.game_id = {game} AND s.seat = {seat} AND s.user_id IS NOT NULL \
                  AND NOT g.practice";
    match conn {
        AnyConnection::Postgresql(c) => {
            let sql = format!(
                "INSERT INTO player_days (day, kind, user_id) {} ON CONFLICT DO NOTHING",
                select
                    .replace("{day}", "$1")
                    .replace("{game}", "$2")
                    .replace("{seat}", "$3")
            );
            diesel::sql_query(sql)
                .bind::<Text, _>(day)
                .bind::<BigInt, _>(game_id)
                .bind::<diesel::sql_types::Integer, _>(seat)
                .execute(c)?;
        }
        AnyConnection::Sqlite(c) => {
            let sql = format!(
                "INSERT OR IGNORE INTO player_days (day, kind, user_id) {}",
                select
                    .replace("{day}", "?")
                    .replace("{game}", "?")
                    .replace("{seat}", "?")
            );
            diesel::sql_query(sql)
                .bind::<Text, _>(day)
                .bind::<BigInt, _>(game_id)
                .bind::<diesel::sql_types::Integer, _>(seat)
                .execute(c)?;
        }
    }
    Ok(())
}

/// Runs one statement with `?` placeholders on either backend (numbered for PostgreSQL);
/// `bind` adds the parameters.
macro_rules! execute {
    ($conn:expr, $sql:expr, |$q:ident| $bind:expr) => {{
        let sql: &str = $sql;
        match $conn {
            AnyConnection::Postgresql(c) => {
                let $q = diesel::sql_query(Dialect { postgres: true }.sql(sql));
                $bind.execute(c)
            }
            AnyConnection::Sqlite(c) => {
                let $q = diesel::sql_query(sql);
                $bind.execute(c)
            }
        }
    }};
}

/// A real game started on `now`'s day.
pub(crate) fn roll_up_start(
    conn: &mut AnyConnection,
    kind: GameKind,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let day = now.format("%Y-%m-%d").to_string();
    execute!(
        conn,
        "INSERT INTO daily_kind (day, kind, started) VALUES (?, ?, 1) \
         ON CONFLICT (day, kind) DO UPDATE SET started = daily_kind.started + 1",
        |q| q.bind::<Text, _>(&day).bind::<Text, _>(kind)
    )?;
    Ok(())
}

/// A game finished on `now`'s day (its row and results already written): adds it to the
/// day's totals and to the people-against-computer counts, unless it is a practice game.
pub(crate) fn roll_up_finish(
    conn: &mut AnyConnection,
    game_id: GameId,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let day = now.format("%Y-%m-%d").to_string();
    let postgres = matches!(conn, AnyConnection::Postgresql(_));
    let dialect = Dialect { postgres };
    let seconds = dialect.seconds("created_at", "finished_at");
    execute!(
        conn,
        &format!(
            "INSERT INTO daily_kind (day, kind, finished, moves, hands, seconds, basras, knocks, \
               thirty_ones, contracts_made, contracts_set) \
             SELECT ?, kind, 1, moves, hands, CAST({seconds} AS BIGINT), basras, knocks, thirty_ones, \
               contracts_made, contracts_set FROM games WHERE id = ? AND NOT practice \
             ON CONFLICT (day, kind) DO UPDATE SET finished = daily_kind.finished + 1, \
               moves = daily_kind.moves + excluded.moves, hands = daily_kind.hands + excluded.hands, \
               seconds = daily_kind.seconds + excluded.seconds, \
               basras = daily_kind.basras + excluded.basras, knocks = daily_kind.knocks + excluded.knocks, \
               thirty_ones = daily_kind.thirty_ones + excluded.thirty_ones, \
               contracts_made = daily_kind.contracts_made + excluded.contracts_made, \
               contracts_set = daily_kind.contracts_set + excluded.contracts_set"
        ),
        |q| q.bind::<Text, _>(&day).bind::<BigInt, _>(game_id)
    )?;
    execute!(
        conn,
        "INSERT INTO daily_level (day, kind, level, games, human_wins, computer_wins) \
         SELECT ?, g.kind, b.bot, 1, \
           MAX(CASE WHEN h.won AND NOT b.won THEN 1 ELSE 0 END), \
           MAX(CASE WHEN b.won AND NOT h.won THEN 1 ELSE 0 END) \
         FROM games g \
         JOIN results h ON h.game_id = g.id AND h.user_id IS NOT NULL \
         JOIN results b ON b.game_id = g.id AND b.bot IS NOT NULL AND b.user_id IS NULL AND b.side <> h.side \
         WHERE g.id = ? AND NOT g.practice GROUP BY g.kind, b.bot \
         ON CONFLICT (day, kind, level) DO UPDATE SET games = daily_level.games + 1, \
           human_wins = daily_level.human_wins + excluded.human_wins, \
           computer_wins = daily_level.computer_wins + excluded.computer_wins",
        |q| q.bind::<Text, _>(&day).bind::<BigInt, _>(game_id)
    )?;
    Ok(())
}
