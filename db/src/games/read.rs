//! Reading games: one with its seats and recent log (the move path's one read), what its
//! followers read when it changes, its log and deals, and the listings (a player's games, the
//! lobby, games being played, games a background job should look at).

use cardroom_core::{BotLevel, GameKind};
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::rows::{DealRow, GameRecord, GameRow, IdempotencyRow, LogRow, SeatRow};
use crate::schema::{deals, game_log, games, idempotency_keys, seats, users};
use crate::visibility::Visibility;

use super::statements::{LoadGame, LoadedRow};
use crate::status::GameStatus;

/// A game's log entries of one `action`, oldest first: `(seq, events)`.
pub fn entries_of(
    conn: &mut AnyConnection,
    id: GameId,
    action: &str,
) -> Result<Vec<RecentEntry>, DbError> {
    game_log::table
        .filter(game_log::game_id.eq(id))
        .filter(game_log::action.eq(action))
        .order(game_log::seq.asc())
        .select((game_log::seq, game_log::events))
        .load(conn)
        .map_err(DbError::from)
}

/// A game with its seats.
pub fn load(conn: &mut AnyConnection, id: GameId) -> Result<Option<GameRecord>, DbError> {
    Ok(load_with_recent(conn, id, 0, crate::now())?.map(|loaded| loaded.record))
}

/// The events of one version of the log: `(seq, events)`.
pub type RecentEntry = (i64, String);

/// What [`load_with_recent`] reads.
#[derive(Clone, PartialEq, Debug)]
pub struct LoadedGame {
    pub record: GameRecord,
    /// The events of the last versions, oldest first.
    pub recent: Vec<RecentEntry>,
    /// People seen following the game who are not seated at it.
    pub spectators: i64,
    /// The tournament whose round this game is, if any.
    pub tournament: Option<TournamentOf>,
}

/// The tournament a game belongs to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TournamentOf {
    pub id: i64,
    pub round: i32,
    pub name: String,
    /// A private tournament (entered with a code).
    pub private: bool,
}

impl TournamentOf {
    /// From the load's line `tournament round private name`.
    fn parse(line: &str) -> Result<TournamentOf, DbError> {
        let bad = || DbError::Corrupt(format!("a game's tournament line: {line:?}"));
        let mut parts = line.splitn(4, ' ');
        let mut number = || {
            parts
                .next()
                .and_then(|p| p.parse::<i64>().ok())
                .ok_or_else(bad)
        };
        let id = number()?;
        let round = i32::try_from(number()?).map_err(|_| bad())?;
        let private = number()? != 0;
        let name = parts.next().unwrap_or_default().to_owned();
        Ok(TournamentOf {
            id,
            round,
            name,
            private,
        })
    }
}

/// A game with its seats (each person connected or not: seen since `seen_since`), the events
/// of its last `versions` versions (oldest first) and its spectators, in one round trip: the
/// move path reads this and nothing else before it writes.
pub fn load_with_recent(
    conn: &mut AnyConnection,
    id: GameId,
    versions: i64,
    seen_since: NaiveDateTime,
) -> Result<Option<LoadedGame>, DbError> {
    let query = LoadGame {
        id: id.get(),
        versions,
        since: seen_since,
    };
    let rows: Vec<LoadedRow> = match conn {
        AnyConnection::Postgresql(c) => query.load(c)?,
        AnyConnection::Sqlite(c) => query.load(c)?,
    };
    let Some(row) = rows.into_iter().next() else {
        return Ok(None);
    };
    let seats: Vec<SeatRow> = decode_list(row.seat_list.as_deref(), "seats")?
        .into_iter()
        .map(
            |(seat, user_id, name, bot, timeouts, bot_account, connected)| SeatRow {
                seat,
                user_id,
                name,
                bot,
                timeouts,
                connected,
                bot_account,
            },
        )
        .collect();
    let recent = decode_recent(row.recent_log.as_deref())?;
    Ok(Some(LoadedGame {
        record: GameRecord {
            game: row.game,
            seats,
        },
        recent,
        spectators: row.spectators,
        tournament: row
            .tournament
            .as_deref()
            .map(TournamentOf::parse)
            .transpose()?,
    }))
}

/// The recent log's lines: `seq events` each.
fn decode_recent(text: Option<&str>) -> Result<Vec<RecentEntry>, DbError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    text.split('\n')
        .map(|line| {
            line.split_once(' ')
                .and_then(|(seq, events)| Some((seq.parse().ok()?, events.to_owned())))
                .ok_or_else(|| DbError::Corrupt("a line of a game's recent log".to_owned()))
        })
        .collect()
}

/// A JSON array built by the database (`NULL` when it aggregated no rows).
fn decode_list<T: serde::de::DeserializeOwned>(
    text: Option<&str>,
    what: &str,
) -> Result<Vec<T>, DbError> {
    match text {
        None => Ok(Vec::new()),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| DbError::Corrupt(format!("the {what} of a game: {e}"))),
    }
}

fn seats_of(conn: &mut AnyConnection, id: GameId) -> Result<Vec<SeatRow>, DbError> {
    Ok(seats_of_games(conn, &[id])?
        .into_iter()
        .map(|(_, seat)| seat)
        .collect())
}

/// The seats of these games with their players' names, by game and seat.
pub(crate) fn seats_of_games(
    conn: &mut AnyConnection,
    ids: &[GameId],
) -> Result<Vec<(GameId, SeatRow)>, DbError> {
    type Row = (
        GameId,
        i32,
        Option<i64>,
        Option<String>,
        Option<BotLevel>,
        i32,
        Option<String>,
        Option<bool>,
    );
    let rows: Vec<Row> = seats::table
        .left_join(users::table.on(seats::user_id.eq(users::id.nullable())))
        .filter(seats::game_id.eq_any(ids))
        .order((seats::game_id.asc(), seats::seat.asc()))
        .select((
            seats::game_id,
            seats::seat,
            seats::user_id,
            users::name.nullable(),
            seats::bot,
            seats::timeouts,
            seats::label,
            users::bot.nullable(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(game, seat, user_id, name, bot, timeouts, label, bot_account)| {
                let row = SeatRow {
                    seat,
                    user_id,
                    name: name.or(label),
                    bot,
                    timeouts,
                    connected: None,
                    bot_account: bot_account.unwrap_or(false),
                };
                (game, row)
            },
        )
        .collect())
}

/// The current version of a game (cheap: for waiting on changes).
pub fn version(conn: &mut AnyConnection, id: GameId) -> Result<Option<i64>, DbError> {
    games::table
        .find(id)
        .select(games::version)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// What a game's followers read when it may have changed, in one statement: its version, its
/// status, its newest chat row's id (0 for none), and its log entries after version `from` up
/// to the version, oldest first, at most `limit` (as `(version, stored events)`). None if there
/// is no such game.
pub fn news_since(
    conn: &mut AnyConnection,
    id: GameId,
    from: i64,
    limit: i64,
) -> Result<Option<GameNews>, DbError> {
    use crate::schema::chat;
    let newest = chat::table
        .filter(chat::game_id.eq(id))
        .select(diesel::dsl::max(chat::id))
        .single_value();
    let rows: Vec<NewsRow> = games::table
        .left_join(
            game_log::table.on(game_log::game_id
                .eq(games::id)
                .and(game_log::seq.gt(from))
                .and(game_log::seq.le(games::version))),
        )
        .filter(games::id.eq(id))
        .select((
            games::version,
            games::status,
            newest,
            game_log::seq.nullable(),
            game_log::events.nullable(),
        ))
        .order(game_log::seq.asc())
        .limit(limit.max(1))
        .load(conn)?;
    let Some((version, status, chat_newest, _, _)) = rows.first().cloned() else {
        return Ok(None);
    };
    let entries = rows
        .into_iter()
        .filter_map(|(_, _, _, seq, events)| seq.zip(events))
        .collect();
    Ok(Some(GameNews {
        version,
        status,
        chat_newest: chat_newest.unwrap_or(0),
        entries,
    }))
}

/// A row of [`news_since`]'s statement: the game's version, status and newest chat row, and
/// one log entry (none when there is no entry to read).
type NewsRow = (i64, GameStatus, Option<i64>, Option<i64>, Option<String>);

/// See [`news_since`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNews {
    pub version: i64,
    pub status: GameStatus,
    pub chat_newest: i64,
    pub entries: Vec<(i64, String)>,
}

/// The current version and status of a game (cheap: for following its changes).
pub fn version_and_status(
    conn: &mut AnyConnection,
    id: GameId,
) -> Result<Option<(i64, GameStatus)>, DbError> {
    games::table
        .find(id)
        .select((games::version, games::status))
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// The seat `user_id` holds at game `id`, if any (a seat handed to a computer is no longer
/// the person's; an away person still holds theirs).
pub fn seat_held_by(
    conn: &mut AnyConnection,
    id: GameId,
    user_id: i64,
) -> Result<Option<i32>, DbError> {
    seats::table
        .filter(seats::game_id.eq(id))
        .filter(seats::user_id.eq(user_id))
        .select(seats::seat)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Log entries after `after`, oldest first, at most `limit`.
pub fn log_after(
    conn: &mut AnyConnection,
    id: GameId,
    after: i64,
    limit: i64,
) -> Result<Vec<LogRow>, DbError> {
    game_log::table
        .filter(game_log::game_id.eq(id))
        .filter(game_log::seq.gt(after))
        .order(game_log::seq.asc())
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// The deals of a game, in order.
pub fn deals(conn: &mut AnyConnection, id: GameId) -> Result<Vec<DealRow>, DbError> {
    deals::table
        .filter(deals::game_id.eq(id))
        .order(deals::deal.asc())
        .load(conn)
        .map_err(DbError::from)
}

/// The stored answer for a user's idempotency key.
pub fn idempotent_answer(
    conn: &mut AnyConnection,
    user_id: i64,
    key: &str,
) -> Result<Option<IdempotencyRow>, DbError> {
    idempotency_keys::table
        .find((user_id, key))
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// A page of the games a user sits in, newest first, optionally only with these statuses;
/// and how many there are in all.
pub fn list_for_user(
    conn: &mut AnyConnection,
    user_id: i64,
    statuses: &[GameStatus],
    page: i64,
    per_page: i64,
) -> Result<(Vec<GameRecord>, i64), DbError> {
    let mine = seats::table
        .filter(seats::user_id.eq(user_id))
        .select(seats::game_id);
    let mut query = games::table.filter(games::id.eq_any(mine)).into_boxed();
    let mut count = games::table
        .filter(
            games::id.eq_any(
                seats::table
                    .filter(seats::user_id.eq(user_id))
                    .select(seats::game_id),
            ),
        )
        .into_boxed();
    if !statuses.is_empty() {
        query = query.filter(games::status.eq_any(statuses.to_vec()));
        count = count.filter(games::status.eq_any(statuses.to_vec()));
    }
    let total: i64 = count.count().get_result(conn)?;
    let rows: Vec<GameRow> = query
        .order((games::created_at.desc(), games::id.desc()))
        .offset(page.saturating_sub(1).saturating_mul(per_page))
        .limit(per_page)
        .load(conn)?;
    let mut records = Vec::with_capacity(rows.len());
    for game in rows {
        let seats = seats_of(conn, game.id)?;
        records.push(GameRecord { game, seats });
    }
    Ok((records, total))
}

/// The games a tournament seated someone at.
type TournamentGames = diesel::dsl::Select<
    diesel::dsl::Filter<
        crate::schema::tournament_seats::table,
        diesel::dsl::IsNotNull<crate::schema::tournament_seats::game_id>,
    >,
    crate::schema::tournament_seats::game_id,
>;
/// A filter on games: not among [`TournamentGames`].
type NotATournamentTable =
    diesel::dsl::not<diesel::dsl::EqAny<diesel::dsl::Nullable<games::id>, TournamentGames>>;

/// Not a tournament's table: one of those waits only between its pairing and its deal, every
/// seat taken, and is neither offered in the lobby nor closed for want of players.
fn not_a_tournament_table() -> NotATournamentTable {
    use crate::schema::tournament_seats;
    diesel::dsl::not(
        games::id.nullable().eq_any(
            tournament_seats::table
                .filter(tournament_seats::game_id.is_not_null())
                .select(tournament_seats::game_id),
        ),
    )
}

/// A page of the lobby: public tables waiting for players, oldest first (the longest wait is
/// served first), optionally of one kind and variant; and how many there are in all.
pub fn lobby(
    conn: &mut AnyConnection,
    kind: Option<GameKind>,
    variant: Option<&str>,
    page: i64,
    per_page: i64,
) -> Result<(Vec<GameRecord>, i64), DbError> {
    let filtered = || {
        let mut query = games::table
            .filter(games::status.eq(GameStatus::Waiting))
            .filter(games::visibility.eq(Visibility::Public))
            .filter(not_a_tournament_table())
            .into_boxed();
        if let Some(kind) = kind {
            query = query.filter(games::kind.eq(kind));
        }
        if let Some(variant) = variant {
            query = query.filter(games::variant.eq(variant.to_owned()));
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let rows: Vec<GameRow> = filtered()
        .order((games::created_at.asc(), games::id.asc()))
        .offset(page.saturating_sub(1).saturating_mul(per_page))
        .limit(per_page)
        .load(conn)?;
    Ok((with_their_seats(conn, rows)?, total))
}

/// Public games being played now (dealt, not finished), newest first, at most `limit`,
/// optionally of one kind and variant: what anyone signed in may watch.
pub fn live_public(
    conn: &mut AnyConnection,
    kind: Option<GameKind>,
    variant: Option<&str>,
    limit: i64,
) -> Result<Vec<GameRecord>, DbError> {
    let mut query = games::table
        .filter(games::status.eq_any([GameStatus::Active, GameStatus::HandOver]))
        .filter(games::visibility.eq(Visibility::Public))
        .into_boxed();
    if let Some(kind) = kind {
        query = query.filter(games::kind.eq(kind));
    }
    if let Some(variant) = variant {
        query = query.filter(games::variant.eq(variant.to_owned()));
    }
    let rows: Vec<GameRow> = query
        .order((games::created_at.desc(), games::id.desc()))
        .limit(limit)
        .load(conn)?;
    with_their_seats(conn, rows)
}

/// These games with their seats (read in one statement).
fn with_their_seats(
    conn: &mut AnyConnection,
    rows: Vec<GameRow>,
) -> Result<Vec<GameRecord>, DbError> {
    let ids: Vec<GameId> = rows.iter().map(|g| g.id).collect();
    let seats = seats_of_games(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|game| {
            let id = game.id;
            let mine = seats
                .iter()
                .filter(|(game, _)| *game == id)
                .map(|(_, seat)| seat.clone())
                .collect();
            GameRecord { game, seats: mine }
        })
        .collect())
}

/// Public tables still waiting for players that were opened before `before` (the open tables
/// nobody joined in time), at most `limit`, oldest first: their ids and versions.
pub fn stale_open_tables(
    conn: &mut AnyConnection,
    before: NaiveDateTime,
    limit: i64,
) -> Result<Vec<(GameId, i64)>, DbError> {
    games::table
        .filter(games::status.eq(GameStatus::Waiting))
        .filter(games::visibility.eq(Visibility::Public))
        .filter(not_a_tournament_table())
        .filter(games::created_at.lt(before))
        .order(games::created_at.asc())
        .limit(limit)
        .select((games::id, games::version))
        .load(conn)
        .map_err(DbError::from)
}

/// Games whose deadline is at or before `now`, the longest overdue first, at most `limit`.
pub fn past_deadline(
    conn: &mut AnyConnection,
    now: NaiveDateTime,
    limit: i64,
) -> Result<Vec<GameId>, DbError> {
    games::table
        .filter(games::deadline.le(now))
        .select(games::id)
        .order((games::deadline.asc(), games::id.asc()))
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// Games left on a computer player's turn (for recovery), at most `limit`.
pub fn bot_pending(conn: &mut AnyConnection, limit: i64) -> Result<Vec<GameId>, DbError> {
    games::table
        .filter(games::bot_pending.eq(true))
        .select(games::id)
        .order(games::id.asc())
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recent_log_reads_back_line_by_line_and_refuses_garbage() {
        assert_eq!(decode_recent(None).unwrap(), Vec::<RecentEntry>::new());
        assert_eq!(
            decode_recent(Some(
                "7 []\n8 [{\"to\":\"everyone\",\"event\":{\"a\":\"b c\"}}]"
            ))
            .unwrap(),
            vec![
                (7, "[]".to_owned()),
                (
                    8,
                    "[{\"to\":\"everyone\",\"event\":{\"a\":\"b c\"}}]".to_owned()
                )
            ]
        );
        assert!(matches!(
            decode_recent(Some("7 []\nnot a line")),
            Err(DbError::Corrupt(_))
        ));
        assert!(matches!(
            decode_recent(Some("[]")),
            Err(DbError::Corrupt(_))
        ));
    }
}
