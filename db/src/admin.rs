//! What admins read: every game with filters, and the dashboard's aggregates. The aggregates
//! are read from the daily roll-ups (`rollups.rs`) in the database (GROUP BY over indexed
//! ranges), never by loading games.

use cardroom_core::{BotLevel, GameKind};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Nullable, Text};

use crate::connection::AnyConnection;
use crate::dialect::Dialect;
use crate::error::DbError;
use crate::games::seats_of_games;
use crate::id::GameId;
use crate::rows::{GameRecord, GameRow};
use crate::schema::{games, seats, users};

diesel::define_sql_function!(fn lower(x: Text) -> Text);

/// The history's filters; every one optional.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub kind: Option<GameKind>,
    pub variant: Option<String>,
    pub status: Option<crate::GameStatus>,
    /// A player's name (any case).
    pub player: Option<String>,
    pub practice: Option<bool>,
    /// Created at or after.
    pub from: Option<NaiveDateTime>,
    /// Created before.
    pub to: Option<NaiveDateTime>,
    /// Played in this tournament.
    pub tournament: Option<i64>,
}

/// A page of games, newest first, with their seats.
pub fn list_games(
    conn: &mut AnyConnection,
    filter: &GameFilter,
    page: i64,
    per_page: i64,
) -> Result<(Vec<GameRecord>, i64), DbError> {
    let player_id = match &filter.player {
        Some(name) => {
            let id = users::table
                .filter(lower(users::name).eq(name.to_lowercase()))
                .select(users::id)
                .first::<i64>(conn)
                .optional()?;
            match id {
                Some(id) => Some(id),
                None => return Ok((Vec::new(), 0)),
            }
        }
        None => None,
    };
    let query = || {
        let mut q = games::table.into_boxed();
        if let Some(kind) = &filter.kind {
            q = q.filter(games::kind.eq(*kind));
        }
        if let Some(variant) = &filter.variant {
            q = q.filter(games::variant.eq(variant.clone()));
        }
        if let Some(status) = &filter.status {
            q = q.filter(games::status.eq(*status));
        }
        if let Some(practice) = filter.practice {
            q = q.filter(games::practice.eq(practice));
        }
        if let Some(from) = filter.from {
            q = q.filter(games::created_at.ge(from));
        }
        if let Some(to) = filter.to {
            q = q.filter(games::created_at.lt(to));
        }
        if let Some(tournament) = filter.tournament {
            q = q.filter(
                games::id.nullable().eq_any(
                    crate::schema::tournament_seats::table
                        .filter(crate::schema::tournament_seats::tournament_id.eq(tournament))
                        .select(crate::schema::tournament_seats::game_id),
                ),
            );
        }
        if let Some(id) = player_id {
            q = q.filter(
                games::id.eq_any(
                    seats::table
                        .filter(seats::user_id.eq(id))
                        .select(seats::game_id),
                ),
            );
        }
        q
    };
    let total: i64 = query().count().get_result(conn)?;
    let rows: Vec<GameRow> = query()
        .order(games::id.desc())
        .limit(per_page)
        .offset((page - 1).max(0).saturating_mul(per_page))
        .load(conn)?;
    let ids: Vec<GameId> = rows.iter().map(|g| g.id).collect();
    let all_seats = seats_of_games(conn, &ids)?;
    let games = rows
        .into_iter()
        .map(|game| {
            let mine = all_seats
                .iter()
                .filter(|(id, _)| *id == game.id)
                .map(|(_, seat)| seat.clone())
                .collect();
            GameRecord { game, seats: mine }
        })
        .collect();
    Ok((games, total))
}

/// The dashboard's range: games created (or finished) at or after `from` and before `to`,
/// of one kind or all; practice games never count.
#[derive(Clone, Debug)]
pub struct StatsQuery {
    pub from: NaiveDateTime,
    pub to: NaiveDateTime,
    pub kind: Option<GameKind>,
}

#[derive(QueryableByName, Clone, PartialEq, Eq, Debug)]
pub struct DayCount {
    #[diesel(sql_type = Text)]
    pub day: String,
    #[diesel(sql_type = Text)]
    pub kind: GameKind,
    #[diesel(sql_type = BigInt)]
    pub games: i64,
}

#[derive(QueryableByName, Clone, PartialEq, Debug)]
pub struct KindTotals {
    #[diesel(sql_type = Text)]
    pub kind: GameKind,
    #[diesel(sql_type = BigInt)]
    pub games: i64,
    #[diesel(sql_type = Nullable<Double>)]
    pub average_moves: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    pub average_hands: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    pub average_seconds: Option<f64>,
    #[diesel(sql_type = BigInt)]
    pub basras: i64,
    #[diesel(sql_type = BigInt)]
    pub knocks: i64,
    #[diesel(sql_type = BigInt)]
    pub thirty_ones: i64,
    #[diesel(sql_type = BigInt)]
    pub contracts_made: i64,
    #[diesel(sql_type = BigInt)]
    pub contracts_set: i64,
}

#[derive(QueryableByName, Clone, PartialEq, Eq, Debug)]
pub struct LevelResults {
    #[diesel(sql_type = Text)]
    pub kind: GameKind,
    #[diesel(sql_type = Text)]
    pub level: BotLevel,
    #[diesel(sql_type = BigInt)]
    pub games: i64,
    #[diesel(sql_type = BigInt)]
    pub human_wins: i64,
    #[diesel(sql_type = BigInt)]
    pub computer_wins: i64,
}

#[derive(QueryableByName, Clone, PartialEq, Eq, Debug)]
pub struct DayPlayers {
    #[diesel(sql_type = Text)]
    pub day: String,
    #[diesel(sql_type = BigInt)]
    pub players: i64,
}

/// Everything the dashboard draws.
#[derive(Clone, PartialEq, Debug)]
pub struct Stats {
    pub started: Vec<DayCount>,
    pub finished: Vec<DayCount>,
    pub kinds: Vec<KindTotals>,
    pub levels: Vec<LevelResults>,
    pub active_players: Vec<DayPlayers>,
}

/// Runs `sql` with the range as days (`YYYY-MM-DD`, `to` excluded) and the kind, when given,
/// as a third parameter.
fn day_query<T>(
    conn: &mut AnyConnection,
    dialect: &Dialect,
    sql: &str,
    query: &StatsQuery,
) -> Result<Vec<T>, DbError>
where
    T: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + 'static,
{
    let sql = dialect.sql(sql);
    let q = diesel::sql_query(sql)
        .bind::<Text, _>(query.from.format("%Y-%m-%d").to_string())
        .bind::<Text, _>(query.to.format("%Y-%m-%d").to_string());
    let kind = query.kind;
    Ok(match (conn, kind) {
        (AnyConnection::Postgresql(c), Some(kind)) => q.bind::<Text, _>(kind).load(c)?,
        (AnyConnection::Postgresql(c), None) => q.load(c)?,
        (AnyConnection::Sqlite(c), Some(kind)) => q.bind::<Text, _>(kind).load(c)?,
        (AnyConnection::Sqlite(c), None) => q.load(c)?,
    })
}

/// How many games are stored in each status (`waiting`, `active`, `finished`, …), for the
/// metrics. An index-only count on `games (status, created_at)`.
pub fn games_by_status(conn: &mut AnyConnection) -> Result<Vec<(String, i64)>, DbError> {
    games::table
        .group_by(games::status)
        .select((games::status, diesel::dsl::count_star()))
        .order(games::status)
        .load::<(String, i64)>(conn)
        .map_err(DbError::from)
}

pub fn stats(conn: &mut AnyConnection, query: &StatsQuery) -> Result<Stats, DbError> {
    let dialect = Dialect {
        postgres: matches!(conn, AnyConnection::Postgresql(_)),
    };
    // Everything but the active players per kind comes from the daily roll-ups: a few rows a
    // day, whatever the size of the history.
    let kind_filter = if query.kind.is_some() {
        " AND kind = ?"
    } else {
        ""
    };
    let started = format!(
        "SELECT day, kind, started AS games FROM daily_kind \
         WHERE day >= ? AND day < ? AND started > 0{kind_filter} ORDER BY 1, 2"
    );
    let finished = format!(
        "SELECT day, kind, finished AS games FROM daily_kind \
         WHERE day >= ? AND day < ? AND finished > 0{kind_filter} ORDER BY 1, 2"
    );
    let kinds = format!(
        "SELECT kind, CAST(SUM(finished) AS BIGINT) AS games, \
           CAST(SUM(moves) AS DOUBLE PRECISION) / SUM(finished) AS average_moves, \
           CAST(SUM(hands) AS DOUBLE PRECISION) / SUM(finished) AS average_hands, \
           CAST(SUM(seconds) AS DOUBLE PRECISION) / SUM(finished) AS average_seconds, \
           CAST(SUM(basras) AS BIGINT) AS basras, CAST(SUM(knocks) AS BIGINT) AS knocks, \
           CAST(SUM(thirty_ones) AS BIGINT) AS thirty_ones, \
           CAST(SUM(contracts_made) AS BIGINT) AS contracts_made, \
           CAST(SUM(contracts_set) AS BIGINT) AS contracts_set \
         FROM daily_kind WHERE day >= ? AND day < ?{kind_filter} \
         GROUP BY kind HAVING SUM(finished) > 0 ORDER BY kind"
    );
    let levels = format!(
        "SELECT kind, level, CAST(SUM(games) AS BIGINT) AS games, \
           CAST(SUM(human_wins) AS BIGINT) AS human_wins, \
           CAST(SUM(computer_wins) AS BIGINT) AS computer_wins \
         FROM daily_level WHERE day >= ? AND day < ?{kind_filter} \
         GROUP BY kind, level ORDER BY 1, 2"
    );
    // People who made a move that day (kept per day and kind as they play: see
    // record_player_day).
    let active = format!(
        "SELECT day, COUNT(DISTINCT user_id) AS players FROM player_days \
         WHERE day >= ? AND day < ?{kind_filter} GROUP BY day ORDER BY 1"
    );
    Ok(Stats {
        started: day_query(conn, &dialect, &started, query)?,
        finished: day_query(conn, &dialect, &finished, query)?,
        kinds: day_query(conn, &dialect, &kinds, query)?,
        levels: day_query(conn, &dialect, &levels, query)?,
        active_players: day_query(conn, &dialect, &active, query)?,
    })
}
