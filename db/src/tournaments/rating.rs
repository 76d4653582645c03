//! A duplicate round's tables are rated together, once the round is over: rated as each ended,
//! a player's new rating (on their profile, on the leaderboard) would tell the other tables of
//! the round how the board went before they have played it.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{Format, Stage};
use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::rows::SeatResult;
use crate::schema::{games, results, tournament_seats, tournaments};
use crate::status::GameStatus;

/// Whether finished game `id` is rated with its round rather than at once: a table of a
/// duplicate tournament not called off.
pub(crate) fn waits_for_round(conn: &mut AnyConnection, id: GameId) -> Result<bool, DbError> {
    let tables: i64 = tournament_seats::table
        .inner_join(tournaments::table.on(tournaments::id.eq(tournament_seats::tournament_id)))
        .filter(tournament_seats::game_id.eq(id))
        .filter(tournaments::format.eq(Format::Duplicate))
        .filter(tournaments::status.ne(Stage::Cancelled))
        .count()
        .get_result(conn)?;
    Ok(tables > 0)
}

/// Rates every finished game of round `round` of duplicate tournament `id`, whose ratings
/// waited for the round (the step that closes the round calls this once, in its transaction;
/// so does calling the tournament off, for the games already over).
pub fn rate_round(
    conn: &mut AnyConnection,
    id: i64,
    round: i32,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let finished: Vec<GameId> = tournament_seats::table
        .inner_join(games::table.on(games::id.nullable().eq(tournament_seats::game_id)))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::round.eq(round))
        .filter(games::status.eq(GameStatus::Finished))
        .select(games::id)
        .distinct()
        .load(conn)?;
    for game in finished {
        let results: Vec<SeatResult> = results::table
            .filter(results::game_id.eq(game))
            .order(results::seat)
            .select((
                results::seat,
                results::user_id,
                results::bot,
                results::side,
                results::won,
            ))
            .load::<(i32, Option<i64>, Option<cardroom_core::BotLevel>, i32, bool)>(conn)?
            .into_iter()
            .map(|(seat, user_id, bot, side, won)| SeatResult {
                seat,
                user_id,
                bot,
                side,
                won,
            })
            .collect();
        crate::ratings::rate_game(conn, game, &results, None, now)?;
    }
    Ok(())
}
