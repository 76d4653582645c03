//! The move path's statements, written by hand so that diesel prepares each once per connection
//! and reuses it.
//!
//! Diesel caches the prepared statements its query builder makes, except an `UPDATE`, a
//! multi-row `INSERT` and any hand-written SQL (`sql_query`): those it prepares afresh on every
//! use, which on PostgreSQL costs a round trip of its own (the `Parse`) and a new plan. Each
//! statement here is one fixed text (its type is its cache key), with its values bound.
//!
//! A move reads its game ([`LoadGame`]) and writes it back: on PostgreSQL the common move (a
//! new snapshot and log entries, nothing else) is one statement ([`MoveWrite`]), atomic on its
//! own, so two round trips in all; anything more (a finish, a deal, seats, an idempotency key)
//! is a transaction of [`UpdateGame`], [`AppendLog`] and the rest.

use chrono::NaiveDateTime;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamp, Untyped};
use diesel::sqlite::Sqlite;
use diesel::{QueryableByName, RunQueryDsl};

use crate::account_events::AccountNotice;
use crate::id::GameId;
use crate::notify::CHANNEL;
use crate::rows::{Commit, GameRow, LogEntry};

/// Reads a game with its seats (their players' names, and whether each person was seen since
/// `since`), the events of its last `versions` versions, and how many spectators were seen
/// since `since`, riding along as text the database builds: the seats a JSON array, the log
/// lines.
#[derive(QueryId, Debug)]
pub(crate) struct LoadGame {
    pub id: i64,
    pub versions: i64,
    pub since: NaiveDateTime,
}

/// A row of [`LoadGame`].
#[derive(QueryableByName)]
pub(crate) struct LoadedRow {
    #[diesel(embed)]
    pub game: GameRow,
    /// `[[seat, user_id, name, bot, timeouts, bot_account, connected], …]` in seat order
    /// (`connected` null for a seat without a person), or `NULL` for none.
    #[diesel(sql_type = Nullable<Text>)]
    pub seat_list: Option<String>,
    /// One line a version, oldest first: its `seq`, a space, its events (compact JSON, which
    /// holds no line break); `NULL` for none. (Lines, not a JSON array: the events are JSON
    /// text already, and escaping them into strings only to parse them back cost more than the
    /// rest of the read.)
    #[diesel(sql_type = Nullable<Text>)]
    pub recent_log: Option<String>,
    /// People following the game who are not seated at it.
    #[diesel(sql_type = BigInt)]
    pub spectators: i64,
    /// A tournament's game: `tournament round private name` (`private` 1 or 0), or `NULL`.
    #[diesel(sql_type = Nullable<Text>)]
    pub tournament: Option<String>,
}

impl Query for LoadGame {
    type SqlType = Untyped;
}

impl<C> RunQueryDsl<C> for LoadGame {}

// The columns are named, never `*`: a migration that adds one must not change the result of a
// statement prepared before it ran.
const GAME_COLUMNS: &str = "SELECT g.id, g.kind, g.variant, g.options, g.seat_count, g.status, \
    g.seed, g.deck, g.state, g.state_format, g.version, g.practice, g.invite_code, g.created_by, \
    g.created_at, g.updated_at, g.finished_at, g.hands, g.moves, g.winners, g.end_reason, \
    g.to_act, g.bot_pending, g.basras, g.knocks, g.thirty_ones, g.contracts_made, \
    g.contracts_set, g.turn_seconds, g.takeover_after, g.deadline, g.visibility, ";

/// `, (…) AS tournament`: the tournament whose round the game is, as one line of text (the same
/// in both dialects: `||` makes text of the numbers).
const TOURNAMENT_OF: &str = ", (SELECT ts.tournament_id || ' ' || ts.round || ' ' ||     CASE WHEN t.code IS NULL THEN 0 ELSE 1 END || ' ' || t.name     FROM tournament_seats ts JOIN tournaments t ON t.id = ts.tournament_id     WHERE ts.game_id = g.id LIMIT 1) AS tournament";

/// The rest of a person's presence row's test, after `p.seen_at > since`: a held stream, or a
/// request (game -1) after which none of their streams closed. The same rule as
/// `talk::connected_among`.
const CONNECTED_RULE: &str = " AND (p.held OR (p.game_id = -1 AND NOT EXISTS (SELECT 1 FROM presence d \
    WHERE d.user_id = p.user_id AND d.game_id >= 0 AND NOT d.held AND d.seen_at >= p.seen_at)))";

impl QueryFragment<Pg> for LoadGame {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(GAME_COLUMNS);
        out.push_sql(
            "(SELECT json_agg(json_build_array(s.seat, s.user_id, COALESCE(u.name, s.label), s.bot, s.timeouts, \
                COALESCE(u.bot, false), \
                CASE WHEN s.user_id IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM presence p \
                  WHERE p.user_id = s.user_id AND p.seen_at > ",
        );
        out.push_bind_param::<Timestamp, _>(&self.since)?;
        out.push_sql(CONNECTED_RULE);
        out.push_sql(
            ") END) ORDER BY s.seat)::text \
              FROM seats s LEFT JOIN users u ON u.id = s.user_id \
              WHERE s.game_id = g.id) AS seat_list, \
             (SELECT string_agg(l.seq || ' ' || l.events, chr(10) ORDER BY l.seq) \
              FROM game_log l WHERE l.game_id = g.id AND l.seq > g.version - ",
        );
        out.push_bind_param::<BigInt, _>(&self.versions)?;
        out.push_sql(") AS recent_log, ");
        self.walk_spectators(&mut out)?;
        out.push_sql(TOURNAMENT_OF);
        out.push_sql(" FROM games g WHERE g.id = ");
        out.push_bind_param::<BigInt, _>(&self.id)?;
        Ok(())
    }
}

impl QueryFragment<Sqlite> for LoadGame {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_sql(GAME_COLUMNS);
        out.push_sql(
            "(SELECT json_group_array(json_array(s.seat, s.user_id, COALESCE(u.name, s.label), s.bot, s.timeouts, \
                CASE WHEN u.bot THEN json('true') ELSE json('false') END, \
                CASE WHEN s.user_id IS NULL THEN NULL WHEN EXISTS (SELECT 1 FROM presence p \
                  WHERE p.user_id = s.user_id AND p.seen_at > ",
        );
        out.push_bind_param::<Timestamp, _>(&self.since)?;
        out.push_sql(CONNECTED_RULE);
        out.push_sql(
            ") THEN json('true') ELSE json('false') END) ORDER BY s.seat) \
              FROM seats s LEFT JOIN users u ON u.id = s.user_id \
              WHERE s.game_id = g.id) AS seat_list, \
             (SELECT group_concat(l.seq || ' ' || l.events, char(10) ORDER BY l.seq) \
              FROM game_log l WHERE l.game_id = g.id AND l.seq > g.version - ",
        );
        out.push_bind_param::<BigInt, _>(&self.versions)?;
        out.push_sql(") AS recent_log, ");
        self.walk_spectators(&mut out)?;
        out.push_sql(TOURNAMENT_OF);
        out.push_sql(" FROM games g WHERE g.id = ");
        out.push_bind_param::<BigInt, _>(&self.id)?;
        Ok(())
    }
}

impl LoadGame {
    /// `(…) AS spectators`: the people seen following the game since `since` who are not
    /// seated at it.
    fn walk_spectators<'b, DB>(&'b self, out: &mut AstPass<'_, 'b, DB>) -> QueryResult<()>
    where
        DB: diesel::backend::Backend + diesel::sql_types::HasSqlType<Timestamp>,
        NaiveDateTime: diesel::serialize::ToSql<Timestamp, DB>,
    {
        out.push_sql(
            "(SELECT count(*) FROM presence p WHERE p.game_id = g.id AND p.held AND p.seen_at > ",
        );
        out.push_bind_param::<Timestamp, _>(&self.since)?;
        out.push_sql(
            " AND NOT EXISTS (SELECT 1 FROM seats w WHERE w.game_id = g.id AND w.user_id = p.user_id)) \
             AS spectators",
        );
        Ok(())
    }
}

/// Rewrites a game's snapshot and listing columns if it is still at the version that was read;
/// on PostgreSQL with `NOTIFY` (`NOTIFY` true), also queues the change notice in the same
/// statement. Affects one row, or none when the version moved on.
#[derive(Debug)]
pub(crate) struct UpdateGame<'a, const NOTIFY: bool> {
    pub change: &'a Commit,
    pub new_version: i64,
    pub now: NaiveDateTime,
}

/// The cache key of [`UpdateGame`]: one statement with the notice, one without.
pub(crate) struct UpdateGameId<const NOTIFY: bool>;

impl<const NOTIFY: bool> QueryId for UpdateGame<'_, NOTIFY> {
    type QueryId = UpdateGameId<NOTIFY>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<C, const NOTIFY: bool> RunQueryDsl<C> for UpdateGame<'_, NOTIFY> {}

impl<const NOTIFY: bool> UpdateGame<'_, NOTIFY> {
    /// The statement for any backend whose placeholders `push_bind_param` writes.
    fn walk<'b, DB>(&'b self, out: &mut AstPass<'_, 'b, DB>) -> QueryResult<()>
    where
        DB: diesel::backend::Backend
            + diesel::sql_types::HasSqlType<BigInt>
            + diesel::sql_types::HasSqlType<Integer>
            + diesel::sql_types::HasSqlType<Text>
            + diesel::sql_types::HasSqlType<Bool>
            + diesel::sql_types::HasSqlType<Timestamp>,
        i64: diesel::serialize::ToSql<BigInt, DB>,
        i32: diesel::serialize::ToSql<Integer, DB>,
        String: diesel::serialize::ToSql<Text, DB>,
        str: diesel::serialize::ToSql<Text, DB>,
        bool: diesel::serialize::ToSql<Bool, DB>,
        NaiveDateTime: diesel::serialize::ToSql<Timestamp, DB>,
    {
        let change = self.change;
        let summary = &change.summary;
        let tally = &change.tally;
        out.push_sql("UPDATE games SET version = ");
        out.push_bind_param::<BigInt, _>(&self.new_version)?;
        out.push_sql(", state = ");
        out.push_bind_param::<Nullable<Text>, _>(&change.state)?;
        out.push_sql(", status = ");
        out.push_bind_param::<Text, _>(summary.status.as_str())?;
        out.push_sql(", hands = ");
        out.push_bind_param::<Integer, _>(&summary.hands)?;
        out.push_sql(", moves = ");
        out.push_bind_param::<Integer, _>(&summary.moves)?;
        out.push_sql(", winners = ");
        out.push_bind_param::<Nullable<Text>, _>(&summary.winners)?;
        out.push_sql(", end_reason = ");
        out.push_bind_param::<Nullable<Text>, _>(&summary.end_reason)?;
        out.push_sql(", to_act = ");
        out.push_bind_param::<Nullable<Integer>, _>(&summary.to_act)?;
        out.push_sql(", bot_pending = ");
        out.push_bind_param::<Bool, _>(&summary.bot_pending)?;
        out.push_sql(", deadline = ");
        out.push_bind_param::<Nullable<Timestamp>, _>(&summary.deadline)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<Timestamp, _>(&self.now)?;
        out.push_sql(", basras = basras + ");
        out.push_bind_param::<Integer, _>(&tally.basras)?;
        out.push_sql(", knocks = knocks + ");
        out.push_bind_param::<Integer, _>(&tally.knocks)?;
        out.push_sql(", thirty_ones = thirty_ones + ");
        out.push_bind_param::<Integer, _>(&tally.thirty_ones)?;
        out.push_sql(", contracts_made = contracts_made + ");
        out.push_bind_param::<Integer, _>(&tally.contracts_made)?;
        out.push_sql(", contracts_set = contracts_set + ");
        out.push_bind_param::<Integer, _>(&tally.contracts_set)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<BigInt, _>(&change.game_id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&change.expected_version)?;
        Ok(())
    }
}

impl<const NOTIFY: bool> UpdateGame<'_, NOTIFY> {
    /// ` RETURNING id`, and with `NOTIFY` the change notice: queued per rewritten row, so only
    /// if the version check passed, and delivered at commit.
    fn walk_returning(&self, out: &mut AstPass<'_, '_, Pg>) {
        out.push_sql(" RETURNING id");
        if NOTIFY {
            out.push_sql(", pg_notify('");
            out.push_sql(CHANNEL);
            out.push_sql("', id::text || '");
            // (Hexadecimal digits after `@`: nothing to escape.)
            out.push_sql(crate::notify::signature());
            out.push_sql("')");
        }
    }
}

impl<const NOTIFY: bool> QueryFragment<Pg> for UpdateGame<'_, NOTIFY> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.walk(&mut out)?;
        self.walk_returning(&mut out);
        Ok(())
    }
}

impl QueryFragment<Sqlite> for UpdateGame<'_, false> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        self.walk(&mut out)
    }
}

/// Appends log entries `first_seq`, `first_seq + 1`, … on PostgreSQL: one statement for any
/// number of entries, the columns bound as arrays and unnested.
#[derive(QueryId, Debug)]
pub(crate) struct AppendLog {
    game_id: i64,
    now: NaiveDateTime,
    seqs: Vec<i64>,
    seats: Vec<Option<i32>>,
    actions: Vec<String>,
    payloads: Vec<Option<String>>,
    events: Vec<String>,
}

impl AppendLog {
    pub fn new(game_id: GameId, first_seq: i64, entries: &[LogEntry], now: NaiveDateTime) -> Self {
        AppendLog {
            game_id: game_id.get(),
            now,
            seqs: (first_seq..).take(entries.len()).collect(),
            seats: entries.iter().map(|e| e.seat).collect(),
            actions: entries.iter().map(|e| e.action.clone()).collect(),
            payloads: entries.iter().map(|e| e.payload.clone()).collect(),
            events: entries.iter().map(|e| e.events.clone()).collect(),
        }
    }
}

impl<C> RunQueryDsl<C> for AppendLog {}

impl AppendLog {
    /// `unnest(…) AS e(seq, seat, action, payload, events)`: the entries as rows.
    fn walk_rows<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("unnest(");
        out.push_bind_param::<Array<BigInt>, _>(&self.seqs)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&self.seats)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.actions)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&self.payloads)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.events)?;
        out.push_sql(") AS e(seq, seat, action, payload, events)");
        Ok(())
    }
}

const INSERT_LOG: &str =
    "INSERT INTO game_log (game_id, seq, seat, action, payload, events, created_at) SELECT ";

impl QueryFragment<Pg> for AppendLog {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(INSERT_LOG);
        out.push_bind_param::<BigInt, _>(&self.game_id)?;
        out.push_sql(", e.seq, e.seat, e.action, e.payload, e.events, ");
        out.push_bind_param::<Timestamp, _>(&self.now)?;
        out.push_sql(" FROM ");
        self.walk_rows(&mut out)
    }
}

/// A whole move in one statement on PostgreSQL, atomic without `BEGIN` and `COMMIT`: the
/// versioned update (with the change notice when `NOTIFY`) and, only if it rewrote the row, the
/// account events and the log entries. Returns the number of entries written: none means the
/// version moved on.
pub(crate) struct MoveWrite<'a, const NOTIFY: bool> {
    pub update: UpdateGame<'a, NOTIFY>,
    pub log: AppendLog,
    pub notices: Notices,
}

/// A move's account events as columns, for `unnest`.
#[derive(Debug, Default)]
pub(crate) struct Notices {
    pub users: Vec<i64>,
    pub kinds: Vec<String>,
    pub datas: Vec<String>,
}

impl Notices {
    pub fn of(notices: &[AccountNotice]) -> Notices {
        Notices {
            users: notices.iter().map(|n| n.user_id).collect(),
            kinds: notices.iter().map(|n| n.kind.clone()).collect(),
            datas: notices.iter().map(|n| n.data.clone()).collect(),
        }
    }
}

/// The cache key of [`MoveWrite`].
pub(crate) struct MoveWriteId<const NOTIFY: bool>;

impl<const NOTIFY: bool> QueryId for MoveWrite<'_, NOTIFY> {
    type QueryId = MoveWriteId<NOTIFY>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<C, const NOTIFY: bool> RunQueryDsl<C> for MoveWrite<'_, NOTIFY> {}

impl<const NOTIFY: bool> QueryFragment<Pg> for MoveWrite<'_, NOTIFY> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH u AS (");
        self.update.walk(&mut out)?;
        self.update.walk_returning(&mut out);
        // The account events, only if the update happened (a data-modifying CTE runs whether
        // or not it is read), each waking its account's streams.
        out.push_sql("), a AS (INSERT INTO account_events (user_id, type, data, created_at) SELECT n.user_id, n.type, n.data, ");
        out.push_bind_param::<Timestamp, _>(&self.log.now)?;
        out.push_sql(" FROM u, unnest(");
        out.push_bind_param::<Array<BigInt>, _>(&self.notices.users)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.notices.kinds)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.notices.datas)?;
        out.push_sql(") AS n(user_id, type, data) RETURNING id");
        if NOTIFY {
            out.push_sql(", pg_notify('");
            out.push_sql(CHANNEL);
            out.push_sql("', 'a' || user_id::text || '");
            out.push_sql(crate::notify::signature());
            out.push_sql("')");
        }
        out.push_sql(") ");
        out.push_sql(INSERT_LOG);
        out.push_sql("u.id, e.seq, e.seat, e.action, e.payload, e.events, ");
        out.push_bind_param::<Timestamp, _>(&self.log.now)?;
        out.push_sql(" FROM u, ");
        self.log.walk_rows(&mut out)
    }
}
