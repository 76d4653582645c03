//! Games: the versioned snapshot row, its seats, the append-only log, the deals' seed
//! commitments and idempotency keys.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::{deals, game_log, games, idempotency_keys, results, seats, users};

/// A game row. `seed` and `state` are secret: a row is never a response body.
#[derive(Queryable, QueryableByName, Clone, PartialEq, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i64,
    pub kind: String,
    pub variant: String,
    pub options: String,
    pub seat_count: i32,
    pub status: String,
    pub seed: String,
    pub deck: Option<String>,
    pub state: Option<String>,
    pub state_format: i32,
    pub version: i64,
    pub practice: bool,
    pub invite_code: String,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub hands: i32,
    pub moves: i32,
    pub winners: Option<String>,
    pub end_reason: Option<String>,
    pub to_act: Option<i32>,
    pub bot_pending: bool,
    pub basras: i32,
    pub knocks: i32,
    pub thirty_ones: i32,
    pub contracts_made: i32,
    pub contracts_set: i32,
    /// The turn policy: seconds per move (none: no timer).
    pub turn_seconds: Option<i32>,
    /// Timeouts in a row after which a computer player takes the seat.
    pub takeover_after: Option<i32>,
    /// When the seat to act runs out of time.
    pub deadline: Option<NaiveDateTime>,
    /// `public` (listed in the lobby, watched by anyone signed in), `unlisted` (invite code
    /// only) or `private` (invite code only, never watched).
    pub visibility: String,
}

/// A seat with its player's name. A seat with a person and a computer level is the person's,
/// played by the computer while they are away.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub name: Option<String>,
    pub bot: Option<String>,
    /// Timeouts in a row.
    pub timeouts: i32,
    /// Whether the seat's person is connected now (an open event stream or a recent request);
    /// none for a seat without a person, or where it was not asked.
    pub connected: Option<bool>,
    /// The seat's person is a bot account (a program, playing through API tokens).
    pub bot_account: bool,
}

/// A game with its seats in order.
#[derive(Clone, PartialEq, Debug)]
pub struct GameRecord {
    pub game: GameRow,
    pub seats: Vec<SeatRow>,
}

/// One entry of the move log.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct LogRow {
    pub game_id: i64,
    pub seq: i64,
    pub seat: Option<i32>,
    pub action: String,
    pub payload: Option<String>,
    pub events: String,
    pub created_at: NaiveDateTime,
}

/// A deal's commitment and, once its hand is over, its seed.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct DealRow {
    pub game_id: i64,
    pub deal: i32,
    pub hand: i32,
    pub commitment: String,
    pub seed: Option<String>,
    pub dealt_at: NaiveDateTime,
    pub revealed_at: Option<NaiveDateTime>,
}

/// A stored answer to a request made with an `Idempotency-Key`.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct IdempotencyRow {
    pub user_id: i64,
    pub key: String,
    pub game_id: i64,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
    pub created_at: NaiveDateTime,
}

/// A new game, waiting for its players.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub kind: String,
    pub variant: String,
    pub options: String,
    pub seed: String,
    pub deck: Option<String>,
    pub practice: bool,
    pub invite_code: String,
    pub created_by: i64,
    pub state_format: i32,
    /// The turn policy: seconds per move and timeouts before a takeover (none: no timer).
    pub turn_seconds: Option<i32>,
    pub takeover_after: Option<i32>,
    /// `public`, `unlisted` or `private`.
    pub visibility: String,
    /// Every seat: its person (if taken) or computer level.
    pub seats: Vec<SeatChange>,
}

/// Who sits in a seat.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SeatChange {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub bot: Option<String>,
    /// Timeouts in a row.
    pub timeouts: i32,
    /// A player's name without an account here (an imported game's).
    pub label: Option<String>,
}

/// One entry to append to the log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogEntry {
    pub seat: Option<i32>,
    pub action: String,
    pub payload: Option<String>,
    pub events: String,
}

/// The listing columns kept beside the snapshot.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    pub status: String,
    pub hands: i32,
    pub moves: i32,
    pub winners: Option<String>,
    pub end_reason: Option<String>,
    pub finished: bool,
    pub to_act: Option<i32>,
    pub bot_pending: bool,
    /// When the seat to act runs out of time (a table with a turn timer, a person to act).
    pub deadline: Option<NaiveDateTime>,
    /// Each seat's result, stored once the game is finished.
    pub results: Vec<SeatResult>,
}

/// One seat's result in a finished game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatResult {
    pub seat: i32,
    pub user_id: Option<i64>,
    pub bot: Option<String>,
    pub side: i32,
    pub won: bool,
}

/// Notable events of a change, added to the game's counts for the dashboard.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    pub basras: i32,
    pub knocks: i32,
    pub thirty_ones: i32,
    pub contracts_made: i32,
    pub contracts_set: i32,
}

/// A new deal's commitment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewDeal {
    pub deal: i32,
    pub hand: i32,
    pub commitment: String,
}

/// A deal's revealed seed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reveal {
    pub deal: i32,
    pub seed: String,
}

/// The answer to store under an idempotency key.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewIdempotency {
    pub user_id: i64,
    pub key: String,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
}

/// One atomic change of a game: the new snapshot, the log entries that led to it, and what
/// goes with them. Applied only if the game is still at `expected_version`.
#[derive(Clone, Debug)]
pub struct Commit {
    pub game_id: i64,
    pub expected_version: i64,
    pub state: Option<String>,
    pub summary: Summary,
    pub entries: Vec<LogEntry>,
    pub seats: Vec<SeatChange>,
    pub deals: Vec<NewDeal>,
    pub reveals: Vec<Reveal>,
    pub idempotency: Option<NewIdempotency>,
    pub tally: Tally,
    /// A person leaving a real game for good (their seat to a computer): rated now, as a loss
    /// against every other seat.
    pub leaving: Option<Leaving>,
    /// What to tell the people at the table on their account streams (a game started, their
    /// turn, the game over), written with the change.
    pub notices: Vec<crate::account_events::AccountNotice>,
}

/// A person leaving a game before its end: who, and every seat as it stood, the leaver's side
/// lost (`won` false) and every other side not (`won` true).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Leaving {
    pub user_id: i64,
    pub seats: Vec<SeatResult>,
}

/// Creates a game with its seats and its first log entry (version 1).
pub fn create(
    conn: &mut AnyConnection,
    new: &NewGame,
    first: &LogEntry,
) -> Result<GameRow, DbError> {
    conn.transaction(|conn| {
        let now = crate::now();
        let row: GameRow = diesel::insert_into(games::table)
            .values((
                games::kind.eq(&new.kind),
                games::variant.eq(&new.variant),
                games::options.eq(&new.options),
                games::seat_count.eq(new.seats.len() as i32),
                games::status.eq("waiting"),
                games::seed.eq(&new.seed),
                games::deck.eq(new.deck.as_deref()),
                games::state.eq(None::<String>),
                games::state_format.eq(new.state_format),
                games::version.eq(1i64),
                games::practice.eq(new.practice),
                games::invite_code.eq(&new.invite_code),
                games::created_by.eq(new.created_by),
                games::created_at.eq(now),
                games::updated_at.eq(now),
                games::hands.eq(0),
                games::moves.eq(0),
                games::bot_pending.eq(false),
                games::turn_seconds.eq(new.turn_seconds),
                games::takeover_after.eq(new.takeover_after),
                games::visibility.eq(&new.visibility),
            ))
            .returning(games::all_columns)
            .get_result(conn)?;
        insert_seats(conn, row.id, &new.seats, now)?;
        append(conn, row.id, 1, std::slice::from_ref(first), now)?;
        if !row.practice {
            crate::admin::roll_up_start(conn, &row.kind, now)?;
        }
        crate::notify::notify(conn, row.id)?;
        Ok(row)
    })
}

/// A finished game brought in from an export: stored as it was, a practice game (never rated
/// or counted), its players' names as labels.
#[derive(Clone, Debug)]
pub struct ImportedGame {
    pub game: NewGame,
    pub state: String,
    pub summary: Summary,
    /// The log, each entry with its version and time.
    pub log: Vec<(i64, LogEntry, NaiveDateTime)>,
    /// Every deal with its seed.
    pub deals: Vec<(NewDeal, String)>,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
}

/// Stores an imported game; returns its row.
pub fn import(conn: &mut AnyConnection, imported: &ImportedGame) -> Result<GameRow, DbError> {
    conn.transaction(|conn| {
        let new = &imported.game;
        let summary = &imported.summary;
        let now = crate::now();
        let version = imported.log.last().map_or(0, |(seq, _, _)| *seq);
        let row: GameRow = diesel::insert_into(games::table)
            .values((
                games::kind.eq(&new.kind),
                games::variant.eq(&new.variant),
                games::options.eq(&new.options),
                games::seat_count.eq(new.seats.len() as i32),
                games::status.eq(&summary.status),
                games::seed.eq(&new.seed),
                games::deck.eq(new.deck.as_deref()),
                games::state.eq(Some(&imported.state)),
                games::state_format.eq(new.state_format),
                games::version.eq(version),
                games::practice.eq(true),
                games::invite_code.eq(&new.invite_code),
                games::created_by.eq(new.created_by),
                games::created_at.eq(imported.created_at),
                games::updated_at.eq(now),
                games::finished_at.eq(imported.finished_at),
                games::hands.eq(summary.hands),
                games::moves.eq(summary.moves),
                games::winners.eq(summary.winners.as_deref()),
                games::end_reason.eq(summary.end_reason.as_deref()),
                games::bot_pending.eq(false),
                games::turn_seconds.eq(new.turn_seconds),
                games::takeover_after.eq(new.takeover_after),
                games::visibility.eq(&new.visibility),
            ))
            .returning(games::all_columns)
            .get_result(conn)?;
        insert_seats(conn, row.id, &new.seats, now)?;
        for (seq, entry, at) in &imported.log {
            diesel::insert_into(game_log::table)
                .values((
                    game_log::game_id.eq(row.id),
                    game_log::seq.eq(seq),
                    game_log::seat.eq(entry.seat),
                    game_log::action.eq(&entry.action),
                    game_log::payload.eq(entry.payload.as_deref()),
                    game_log::events.eq(&entry.events),
                    game_log::created_at.eq(at),
                ))
                .execute(conn)?;
        }
        for (deal, seed) in &imported.deals {
            diesel::insert_into(deals::table)
                .values((
                    deals::game_id.eq(row.id),
                    deals::deal.eq(deal.deal),
                    deals::hand.eq(deal.hand),
                    deals::commitment.eq(&deal.commitment),
                    deals::seed.eq(Some(seed)),
                    deals::dealt_at.eq(imported.created_at),
                    deals::revealed_at.eq(imported.finished_at),
                ))
                .execute(conn)?;
        }
        Ok(row)
    })
}

/// A new game's seats; a person's joined now.
fn insert_seats(
    conn: &mut AnyConnection,
    game_id: i64,
    new: &[SeatChange],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    for seat in new {
        diesel::insert_into(seats::table)
            .values((
                seats::game_id.eq(game_id),
                seats::seat.eq(seat.seat),
                seats::user_id.eq(seat.user_id),
                seats::bot.eq(seat.bot.as_deref()),
                seats::joined_at.eq(seat.user_id.map(|_| now)),
                seats::label.eq(seat.label.as_deref()),
            ))
            .execute(conn)?;
    }
    Ok(())
}

fn append(
    conn: &mut AnyConnection,
    game_id: i64,
    first_seq: i64,
    entries: &[LogEntry],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    if entries.is_empty() {
        return Ok(());
    }
    // One statement for the whole batch (a move and the computers' replies).
    match conn {
        AnyConnection::Postgresql(c) => {
            crate::statements::AppendLog::new(game_id, first_seq, entries, now).execute(c)?;
        }
        // (SQLite prepares statements in-process: preparing afresh costs no round trip.)
        AnyConnection::Sqlite(c) => {
            let rows: Vec<_> = entries
                .iter()
                .zip(first_seq..)
                .map(|(entry, seq)| {
                    (
                        game_log::game_id.eq(game_id),
                        game_log::seq.eq(seq),
                        game_log::seat.eq(entry.seat),
                        game_log::action.eq(&entry.action),
                        game_log::payload.eq(entry.payload.as_deref()),
                        game_log::events.eq(&entry.events),
                        game_log::created_at.eq(now),
                    )
                })
                .collect();
            diesel::insert_into(game_log::table)
                .values(rows)
                .execute(c)?;
        }
    }
    Ok(())
}

/// Applies a [`Commit`] atomically: the versioned update first (so SQLite takes its write lock
/// before any read), then the log, seats, deals and idempotency key. Returns the new version.
pub fn commit(conn: &mut AnyConnection, change: &Commit) -> Result<i64, DbError> {
    let now = crate::now();
    let mut movers: Vec<i32> = change
        .entries
        .iter()
        .filter(|e| e.action == "move")
        .filter_map(|e| e.seat)
        .collect();
    movers.sort_unstable();
    movers.dedup();
    if let AnyConnection::Postgresql(pg) = conn
        && is_plain_move(change, &movers, now)
    {
        return write_move(pg, change, now);
    }
    let version = conn.transaction(|conn| {
        let new_version = change.expected_version + change.entries.len() as i64;
        let summary = &change.summary;
        let updated = update_game(conn, change, new_version, now)?;
        if updated == 0 {
            return Err(DbError::VersionConflict);
        }
        if summary.finished {
            diesel::update(games::table.find(change.game_id))
                .set(games::finished_at.eq(Some(now)))
                .execute(conn)?;
            for result in &summary.results {
                diesel::insert_into(results::table)
                    .values((
                        results::game_id.eq(change.game_id),
                        results::seat.eq(result.seat),
                        results::user_id.eq(result.user_id),
                        results::bot.eq(result.bot.as_deref()),
                        results::side.eq(result.side),
                        results::won.eq(result.won),
                    ))
                    .execute(conn)?;
            }
            if summary.status == "finished" {
                crate::admin::roll_up_finish(conn, change.game_id, now)?;
                crate::ratings::rate_game(conn, change.game_id, &summary.results, None, now)?;
            }
        }
        if let Some(leaving) = &change.leaving {
            let only = Some(leaving.user_id);
            crate::ratings::rate_game(conn, change.game_id, &leaving.seats, only, now)?;
        }
        append(
            conn,
            change.game_id,
            change.expected_version + 1,
            &change.entries,
            now,
        )?;
        crate::account_events::add(conn, &change.notices)?;
        for &seat in &movers {
            crate::admin::record_player_day(conn, change.game_id, seat, now)?;
        }
        for seat in &change.seats {
            diesel::update(seats::table.find((change.game_id, seat.seat)))
                .set((
                    seats::user_id.eq(seat.user_id),
                    seats::bot.eq(seat.bot.as_deref()),
                    seats::joined_at.eq(seat.user_id.map(|_| now)),
                    seats::timeouts.eq(seat.timeouts),
                ))
                .execute(conn)?;
        }
        for deal in &change.deals {
            diesel::insert_into(deals::table)
                .values((
                    deals::game_id.eq(change.game_id),
                    deals::deal.eq(deal.deal),
                    deals::hand.eq(deal.hand),
                    deals::commitment.eq(&deal.commitment),
                    deals::dealt_at.eq(now),
                ))
                .execute(conn)?;
        }
        for reveal in &change.reveals {
            diesel::update(deals::table.find((change.game_id, reveal.deal)))
                .set((
                    deals::seed.eq(Some(&reveal.seed)),
                    deals::revealed_at.eq(Some(now)),
                ))
                .execute(conn)?;
        }
        // (The change notice went with the update.)
        if let Some(key) = &change.idempotency {
            diesel::insert_into(idempotency_keys::table)
                .values((
                    idempotency_keys::user_id.eq(key.user_id),
                    idempotency_keys::key.eq(&key.key),
                    idempotency_keys::game_id.eq(change.game_id),
                    idempotency_keys::request_hash.eq(&key.request_hash),
                    idempotency_keys::status.eq(key.status),
                    idempotency_keys::body.eq(&key.body),
                    idempotency_keys::created_at.eq(now),
                ))
                .execute(conn)?;
        }
        Ok(new_version)
    })?;
    for &seat in &movers {
        crate::admin::noted(change.game_id, seat, now);
    }
    Ok(version)
}

/// Appends the service's own entries to a game still at `expected_version`, changing nothing
/// else about it (a rematch offered after the game is over, say), and wakes its listeners.
/// Returns the new version; a lost race is [`DbError::VersionConflict`].
pub fn append_service(
    conn: &mut AnyConnection,
    id: i64,
    expected_version: i64,
    entries: &[LogEntry],
) -> Result<i64, DbError> {
    let now = crate::now();
    let new_version = expected_version + entries.len() as i64;
    conn.transaction(|conn| {
        let updated = diesel::update(
            games::table
                .filter(games::id.eq(id))
                .filter(games::version.eq(expected_version)),
        )
        .set((games::version.eq(new_version), games::updated_at.eq(now)))
        .execute(conn)?;
        if updated == 0 {
            return Err(DbError::VersionConflict);
        }
        append(conn, id, expected_version + 1, entries, now)?;
        crate::notify::notify(conn, id)?;
        Ok(new_version)
    })
}

/// A game's log entries of one `action`, oldest first: `(seq, events)`.
pub fn entries_of(
    conn: &mut AnyConnection,
    id: i64,
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

/// The versioned update of a commit (with the change notice where this process sends them):
/// the number of rows rewritten, 0 when the version moved on.
fn update_game(
    conn: &mut AnyConnection,
    change: &Commit,
    new_version: i64,
    now: NaiveDateTime,
) -> Result<usize, DbError> {
    use crate::statements::UpdateGame;
    let quiet = UpdateGame::<false> {
        change,
        new_version,
        now,
    };
    Ok(match conn {
        AnyConnection::Postgresql(c) if crate::notify::sending() => UpdateGame::<true> {
            change,
            new_version,
            now,
        }
        .execute(c)?,
        AnyConnection::Postgresql(c) => quiet.execute(c)?,
        AnyConnection::Sqlite(c) => quiet.execute(c)?,
    })
}

/// Whether a commit only rewrites the snapshot and appends to the log (the common move): no
/// finish, seats, deals, reveals or idempotency key, and its movers already noted today.
fn is_plain_move(change: &Commit, movers: &[i32], now: NaiveDateTime) -> bool {
    !change.entries.is_empty()
        && !change.summary.finished
        && change.seats.is_empty()
        && change.deals.is_empty()
        && change.reveals.is_empty()
        && change.idempotency.is_none()
        && change.leaving.is_none()
        && movers
            .iter()
            .all(|&seat| crate::admin::is_noted(change.game_id, seat, now))
}

/// [`commit`] for a plain move on PostgreSQL: one statement, atomic on its own.
fn write_move(
    conn: &mut diesel::PgConnection,
    change: &Commit,
    now: NaiveDateTime,
) -> Result<i64, DbError> {
    use crate::statements::{AppendLog, MoveWrite, Notices, UpdateGame};
    let new_version = change.expected_version + change.entries.len() as i64;
    let log = AppendLog::new(
        change.game_id,
        change.expected_version + 1,
        &change.entries,
        now,
    );
    let notices = Notices::of(&change.notices);
    crate::account_events::note_woken(notices.users.iter().copied());
    let written = if crate::notify::sending() {
        MoveWrite {
            update: UpdateGame::<true> {
                change,
                new_version,
                now,
            },
            log,
            notices,
        }
        .execute(conn)?
    } else {
        MoveWrite {
            update: UpdateGame::<false> {
                change,
                new_version,
                now,
            },
            log,
            notices,
        }
        .execute(conn)?
    };
    if written == 0 {
        return Err(DbError::VersionConflict);
    }
    Ok(new_version)
}

/// A game with its seats.
pub fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<GameRecord>, DbError> {
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
}

/// A game with its seats (each person connected or not: seen since `seen_since`), the events
/// of its last `versions` versions (oldest first) and its spectators, in one round trip: the
/// move path reads this and nothing else before it writes.
pub fn load_with_recent(
    conn: &mut AnyConnection,
    id: i64,
    versions: i64,
    seen_since: NaiveDateTime,
) -> Result<Option<LoadedGame>, DbError> {
    use crate::statements::{LoadGame, LoadedRow};
    let query = LoadGame {
        id,
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

fn seats_of(conn: &mut AnyConnection, id: i64) -> Result<Vec<SeatRow>, DbError> {
    Ok(seats_of_games(conn, &[id])?
        .into_iter()
        .map(|(_, seat)| seat)
        .collect())
}

/// The seats of these games with their players' names, by game and seat.
pub(crate) fn seats_of_games(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, SeatRow)>, DbError> {
    type Row = (
        i64,
        i32,
        Option<i64>,
        Option<String>,
        Option<String>,
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
pub fn version(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>, DbError> {
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
    id: i64,
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
type NewsRow = (i64, String, Option<i64>, Option<i64>, Option<String>);

/// See [`news_since`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNews {
    pub version: i64,
    pub status: String,
    pub chat_newest: i64,
    pub entries: Vec<(i64, String)>,
}

/// The current version and status of a game (cheap: for following its changes).
pub fn version_and_status(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<Option<(i64, String)>, DbError> {
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
    id: i64,
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
    id: i64,
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
pub fn deals(conn: &mut AnyConnection, id: i64) -> Result<Vec<DealRow>, DbError> {
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
    statuses: &[String],
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

/// A page of the lobby: public tables waiting for players, oldest first (the longest wait is
/// served first), optionally of one kind and variant; and how many there are in all.
pub fn lobby(
    conn: &mut AnyConnection,
    kind: Option<&str>,
    variant: Option<&str>,
    page: i64,
    per_page: i64,
) -> Result<(Vec<GameRecord>, i64), DbError> {
    let filtered = || {
        let mut query = games::table
            .filter(games::status.eq("waiting"))
            .filter(games::visibility.eq("public"))
            .into_boxed();
        if let Some(kind) = kind {
            query = query.filter(games::kind.eq(kind.to_owned()));
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
    kind: Option<&str>,
    variant: Option<&str>,
    limit: i64,
) -> Result<Vec<GameRecord>, DbError> {
    let mut query = games::table
        .filter(games::status.eq_any(["active", "hand_over"]))
        .filter(games::visibility.eq("public"))
        .into_boxed();
    if let Some(kind) = kind {
        query = query.filter(games::kind.eq(kind.to_owned()));
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
    let ids: Vec<i64> = rows.iter().map(|g| g.id).collect();
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
) -> Result<Vec<(i64, i64)>, DbError> {
    games::table
        .filter(games::status.eq("waiting"))
        .filter(games::visibility.eq("public"))
        .filter(games::created_at.lt(before))
        .order(games::created_at.asc())
        .limit(limit)
        .select((games::id, games::version))
        .load(conn)
        .map_err(DbError::from)
}

/// What a background job claims a game for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Claim {
    /// It is left on a computer player's turn.
    BotPending,
    /// Its deadline is at or before this time.
    PastDeadline(NaiveDateTime),
}

/// Runs `work` on game `id` while holding its row, if it still needs the `claim`ed work and no
/// other replica holds it: on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` in one transaction
/// with the work; on SQLite (one writer at a time) the work's own versioned write. Returns
/// `None` when the game was skipped.
pub fn with_claimed_game<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    id: i64,
    claim: Claim,
    work: impl FnOnce(&mut AnyConnection) -> Result<T, E>,
) -> Result<Option<T>, E> {
    #[derive(QueryableByName)]
    struct Claimed {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        #[allow(dead_code, reason = "read only to count the claimed rows")]
        id: i64,
    }
    if let AnyConnection::Sqlite(_) = conn {
        // No outer transaction: SQLite's deferred BEGIN would read first and could not upgrade
        // to the write; the work's own commit writes first and checks the version.
        return work(conn).map(Some);
    }
    crate::connection::in_transaction(conn, |conn| {
        let AnyConnection::Postgresql(pg) = conn else {
            return Ok(None);
        };
        let claimed = match claim {
            Claim::BotPending => diesel::sql_query(
                "SELECT id FROM games WHERE id = $1 AND bot_pending FOR UPDATE SKIP LOCKED",
            )
            .bind::<diesel::sql_types::BigInt, _>(id)
            .load::<Claimed>(pg),
            Claim::PastDeadline(now) => diesel::sql_query(
                "SELECT id FROM games WHERE id = $1 AND deadline <= $2 FOR UPDATE SKIP LOCKED",
            )
            .bind::<diesel::sql_types::BigInt, _>(id)
            .bind::<diesel::sql_types::Timestamp, _>(now)
            .load::<Claimed>(pg),
        }
        .map_err(DbError::from)?;
        if claimed.is_empty() {
            return Ok(None);
        }
        work(conn).map(Some)
    })
}

/// Games whose deadline is at or before `now`, the longest overdue first, at most `limit`.
pub fn past_deadline(
    conn: &mut AnyConnection,
    now: NaiveDateTime,
    limit: i64,
) -> Result<Vec<i64>, DbError> {
    games::table
        .filter(games::deadline.le(now))
        .select(games::id)
        .order((games::deadline.asc(), games::id.asc()))
        .limit(limit)
        .load(conn)
        .map_err(DbError::from)
}

/// Clears the deadline of a game still at `version` (a deadline with nobody left to time out).
pub fn clear_deadline(conn: &mut AnyConnection, id: i64, version: i64) -> Result<(), DbError> {
    diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::version.eq(version)),
    )
    .set(games::deadline.eq(None::<NaiveDateTime>))
    .execute(conn)?;
    Ok(())
}

/// Games left on a computer player's turn (for recovery), at most `limit`.
pub fn bot_pending(conn: &mut AnyConnection, limit: i64) -> Result<Vec<i64>, DbError> {
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
