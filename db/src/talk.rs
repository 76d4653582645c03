//! Table talk and presence: the chat of a game's two rooms (kept apart from its versioned log, so
//! that a word said never makes a move stale), admins' hidden messages, one person's mutes of
//! another, and who is connected now.

use chrono::NaiveDateTime;
use diesel::dsl::{exists, not};
use diesel::prelude::*;
use diesel::upsert::excluded;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::schema::{chat, mutes, presence, seats, users};
use crate::status::GameStatus;

/// What a chat row is.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Debug,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
    serde::Serialize,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "lowercase")]
pub enum ChatEntry {
    /// A message someone wrote.
    Message,
    /// An admin's note that message `target` was hidden.
    Hidden,
}

impl ChatEntry {
    pub const ALL: [ChatEntry; 2] = [ChatEntry::Message, ChatEntry::Hidden];

    /// The word, as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChatEntry::Message => "message",
            ChatEntry::Hidden => "hidden",
        }
    }
}

crate::words::text_column!(ChatEntry, "chat entry", not ["note", "Message", ""]);

/// A row of the chat: a message, or an admin's note that message `target` was hidden.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct ChatRow {
    pub id: i64,
    pub game_id: GameId,
    pub room: String,
    pub user_id: i64,
    /// The author's name.
    pub name: String,
    pub kind: ChatEntry,
    pub text: Option<String>,
    /// A preset phrase's key, for a message that is one.
    pub preset: Option<String>,
    /// For a `hidden` note, the message hidden.
    pub target: Option<i64>,
    /// For a message: an admin hid it.
    pub hidden: bool,
    pub created_at: NaiveDateTime,
}

/// A message to store.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewMessage {
    pub game_id: GameId,
    pub room: String,
    pub user_id: i64,
    pub text: Option<String>,
    pub preset: Option<String>,
}

type ChatColumns = (
    chat::id,
    chat::game_id,
    chat::room,
    chat::user_id,
    users::name,
    chat::kind,
    chat::text,
    chat::preset,
    chat::target,
    chat::hidden,
    chat::created_at,
);

const CHAT_COLUMNS: ChatColumns = (
    chat::id,
    chat::game_id,
    chat::room,
    chat::user_id,
    users::name,
    chat::kind,
    chat::text,
    chat::preset,
    chat::target,
    chat::hidden,
    chat::created_at,
);

fn by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<ChatRow>, DbError> {
    chat::table
        .inner_join(users::table)
        .filter(chat::id.eq(id))
        .select(CHAT_COLUMNS)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// What became of a message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Posted {
    /// Stored (and the game's listeners woken, on every replica).
    Stored(ChatRow),
    /// Not stored: an admin muted the author until then.
    Muted(NaiveDateTime),
    /// Not stored: the author wrote `burst` messages since `since`, the oldest then.
    Limited(NaiveDateTime),
}

/// Stores a message unless its author is muted or wrote `burst` messages since `since`. The
/// author's account row is held while the messages are counted, so one person's messages are
/// counted one at a time on every replica (two written at once cannot both be the last one
/// allowed). An author without an account is [`DbError::MissingReference`].
pub fn post(
    conn: &mut AnyConnection,
    new: &NewMessage,
    since: NaiveDateTime,
    burst: i64,
) -> Result<Posted, DbError> {
    conn.transaction(|conn| {
        let now = crate::now();
        // A write first: it holds the row on PostgreSQL, and takes SQLite's one writer (a
        // deferred BEGIN could not upgrade a read to a write later).
        let held = diesel::update(users::table.find(new.user_id))
            .set(users::muted_until.eq(users::muted_until))
            .execute(conn)?;
        if held == 0 {
            return Err(DbError::MissingReference("users".to_owned()));
        }
        let muted: Option<NaiveDateTime> = users::table
            .find(new.user_id)
            .select(users::muted_until)
            .first(conn)?;
        if let Some(until) = muted.filter(|until| *until > now) {
            return Ok(Posted::Muted(until));
        }
        let (written, oldest) = written_since(conn, new.user_id, since)?;
        if written >= burst {
            return Ok(Posted::Limited(oldest.unwrap_or(now)));
        }
        let id: i64 = diesel::insert_into(chat::table)
            .values((
                chat::game_id.eq(new.game_id),
                chat::room.eq(&new.room),
                chat::user_id.eq(new.user_id),
                chat::kind.eq(ChatEntry::Message),
                chat::text.eq(new.text.as_deref()),
                chat::preset.eq(new.preset.as_deref()),
                chat::hidden.eq(false),
                chat::created_at.eq(now),
            ))
            .returning(chat::id)
            .get_result(conn)?;
        crate::notify::notify(conn, new.game_id)?;
        Ok(Posted::Stored(by_id(conn, id)?.ok_or(DbError::NotFound)?))
    })
}

/// How many messages `user_id` wrote since `since`, and when the oldest of them was written.
pub fn written_since(
    conn: &mut AnyConnection,
    user_id: i64,
    since: NaiveDateTime,
) -> Result<(i64, Option<NaiveDateTime>), DbError> {
    let times: Vec<NaiveDateTime> = chat::table
        .filter(chat::user_id.eq(user_id))
        .filter(chat::kind.eq(ChatEntry::Message))
        .filter(chat::created_at.gt(since))
        .order(chat::created_at.asc())
        .select(chat::created_at)
        .limit(1000)
        .load(conn)?;
    Ok((times.len() as i64, times.first().copied()))
}

/// A game's chat after row `after` in `rooms`, oldest first, at most `limit`, as `reader` may
/// have it: without the messages an admin hid (the notes that they were hidden stay, so that a
/// client that showed one takes it down) and without the messages of people `reader` muted.
pub fn after(
    conn: &mut AnyConnection,
    game_id: GameId,
    rooms: &[&str],
    after: i64,
    reader: Option<i64>,
    limit: i64,
) -> Result<Vec<ChatRow>, DbError> {
    // (A reader without an account — a stranger — has muted no one: `= NULL` holds for no row.)
    let muted_by_reader = mutes::table
        .filter(mutes::user_id.nullable().eq(reader))
        .filter(mutes::muted_id.eq(chat::user_id));
    chat::table
        .inner_join(users::table)
        .filter(chat::game_id.eq(game_id))
        .filter(chat::id.gt(after))
        .filter(chat::room.eq_any(rooms.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>()))
        .filter(chat::kind.eq(ChatEntry::Hidden).or(chat::hidden.eq(false)))
        .filter(
            chat::kind
                .eq(ChatEntry::Hidden)
                .or(not(exists(muted_by_reader))),
        )
        .order(chat::id.asc())
        .limit(limit)
        .select(CHAT_COLUMNS)
        .load(conn)
        .map_err(DbError::from)
}

/// The last `limit` rows of a game's chat in `rooms` as `reader` may have them (see [`after`]),
/// oldest first: what a reader who has seen nothing yet is given.
pub fn latest(
    conn: &mut AnyConnection,
    game_id: GameId,
    rooms: &[&str],
    reader: Option<i64>,
    limit: i64,
) -> Result<Vec<ChatRow>, DbError> {
    let muted_by_reader = mutes::table
        .filter(mutes::user_id.nullable().eq(reader))
        .filter(mutes::muted_id.eq(chat::user_id));
    let mut rows: Vec<ChatRow> = chat::table
        .inner_join(users::table)
        .filter(chat::game_id.eq(game_id))
        .filter(chat::room.eq_any(rooms.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>()))
        .filter(chat::kind.eq(ChatEntry::Message))
        .filter(chat::hidden.eq(false))
        .filter(not(exists(muted_by_reader)))
        .order(chat::id.desc())
        .limit(limit)
        .select(CHAT_COLUMNS)
        .load(conn)?;
    rows.reverse();
    Ok(rows)
}

/// The id of a game's newest chat row (0 for none): the cursor of a reader who has everything.
pub fn newest(conn: &mut AnyConnection, game_id: GameId) -> Result<i64, DbError> {
    let newest: Option<i64> = chat::table
        .filter(chat::game_id.eq(game_id))
        .select(diesel::dsl::max(chat::id))
        .first(conn)?;
    Ok(newest.unwrap_or(0))
}

/// Hides message `id` (an admin's decision): it is no longer delivered, and a `hidden` note by
/// `admin` tells the clients that showed it. Returns the message as it is now (none if there
/// is no such message); hiding twice changes nothing.
pub fn hide(conn: &mut AnyConnection, id: i64, admin: i64) -> Result<Option<ChatRow>, DbError> {
    conn.transaction(|conn| {
        let Some(message) = by_id(conn, id)? else {
            return Ok(None);
        };
        if message.kind != ChatEntry::Message {
            return Ok(None);
        }
        if !message.hidden {
            diesel::update(chat::table.find(id))
                .set(chat::hidden.eq(true))
                .execute(conn)?;
            diesel::insert_into(chat::table)
                .values((
                    chat::game_id.eq(message.game_id),
                    chat::room.eq(&message.room),
                    chat::user_id.eq(admin),
                    chat::kind.eq(ChatEntry::Hidden),
                    chat::target.eq(Some(id)),
                    chat::hidden.eq(false),
                    chat::created_at.eq(crate::now()),
                ))
                .execute(conn)?;
            crate::notify::notify(conn, message.game_id)?;
        }
        by_id(conn, id)
    })
}

/// Messages for the admins, newest first, optionally of one game or one author, hidden ones
/// included; and how many there are in all.
/// A message as admins list it: the row, and until when its author is muted (if ever).
pub type AdminChatRow = (ChatRow, Option<NaiveDateTime>);

/// Every message, newest first, for admins: each with its author's mute (until when an admin
/// muted them, if ever; it may have passed).
pub fn for_admins(
    conn: &mut AnyConnection,
    game_id: Option<i64>,
    user_id: Option<i64>,
    page: i64,
    per_page: i64,
) -> Result<(Vec<AdminChatRow>, i64), DbError> {
    let filtered = || {
        let mut query = chat::table
            .inner_join(users::table)
            .filter(chat::kind.eq(ChatEntry::Message))
            .into_boxed();
        if let Some(game_id) = game_id {
            query = query.filter(chat::game_id.eq(game_id));
        }
        if let Some(user_id) = user_id {
            query = query.filter(chat::user_id.eq(user_id));
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let rows = filtered()
        .order(chat::id.desc())
        .offset(page.saturating_sub(1).saturating_mul(per_page))
        .limit(per_page)
        .select((CHAT_COLUMNS, users::muted_until))
        .load(conn)?;
    Ok((rows, total))
}

/// Until when an admin muted `user_id` (it may have passed), if ever.
pub fn muted_until(
    conn: &mut AnyConnection,
    user_id: i64,
) -> Result<Option<NaiveDateTime>, DbError> {
    Ok(users::table
        .find(user_id)
        .select(users::muted_until)
        .first::<Option<NaiveDateTime>>(conn)
        .optional()?
        .flatten())
}

// ---------------------------------------------------------------------------------------------
// One person's mutes.

/// `user_id` mutes `muted_id` for themselves (again: no change).
pub fn mute(conn: &mut AnyConnection, user_id: i64, muted_id: i64) -> Result<(), DbError> {
    let row = (
        mutes::user_id.eq(user_id),
        mutes::muted_id.eq(muted_id),
        mutes::created_at.eq(crate::now()),
    );
    // (`ON CONFLICT` is written for each backend on its own connection type.)
    match conn {
        AnyConnection::Postgresql(c) => diesel::insert_into(mutes::table)
            .values(row)
            .on_conflict((mutes::user_id, mutes::muted_id))
            .do_nothing()
            .execute(c)?,
        AnyConnection::Sqlite(c) => diesel::insert_into(mutes::table)
            .values(row)
            .on_conflict((mutes::user_id, mutes::muted_id))
            .do_nothing()
            .execute(c)?,
    };
    Ok(())
}

/// `user_id` hears `muted_id` again; whether there was a mute to lift.
pub fn unmute(conn: &mut AnyConnection, user_id: i64, muted_id: i64) -> Result<bool, DbError> {
    let removed = diesel::delete(mutes::table.find((user_id, muted_id))).execute(conn)?;
    Ok(removed == 1)
}

/// The names `user_id` muted, alphabetically.
pub fn muted_by(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<String>, DbError> {
    mutes::table
        .inner_join(users::table.on(users::id.eq(mutes::muted_id)))
        .filter(mutes::user_id.eq(user_id))
        .order(users::name.asc())
        .select(users::name)
        .load(conn)
        .map_err(DbError::from)
}

// ---------------------------------------------------------------------------------------------
// Presence.

/// The `game_id` of a person's account stream's presence row.
pub const ACCOUNT_STREAM: i64 = 0;
/// The `game_id` of a person's presence row for requests made without a stream (a client that
/// polls): it counts for the window, unless a stream of theirs closed since.
pub const REQUESTS: i64 = -1;

/// One presence row to write: `(user, game)` seen now, and whether a stream of it is held.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seen {
    pub user: i64,
    pub game: i64,
    pub held: bool,
}

/// Writes each row as seen now, in a few statements; with `notify`, queues a change notice
/// for each of those games in the same transaction (on PostgreSQL: every replica's followers
/// of them look again).
pub fn seen(
    conn: &mut AnyConnection,
    rows: &[Seen],
    now: NaiveDateTime,
    notify: &[GameId],
) -> Result<(), DbError> {
    conn.transaction(|conn| {
        for batch in rows.chunks(1000) {
            let values: Vec<_> = batch
                .iter()
                .map(|row| {
                    (
                        presence::user_id.eq(row.user),
                        presence::game_id.eq(row.game),
                        presence::seen_at.eq(now),
                        presence::held.eq(row.held),
                    )
                })
                .collect();
            // (A multi-row insert is written for each backend on its own connection type.)
            match conn {
                AnyConnection::Postgresql(c) => {
                    diesel::insert_into(presence::table)
                        .values(&values)
                        .on_conflict((presence::user_id, presence::game_id))
                        .do_update()
                        .set((
                            presence::seen_at.eq(excluded(presence::seen_at)),
                            presence::held.eq(excluded(presence::held)),
                        ))
                        .execute(c)?;
                }
                AnyConnection::Sqlite(c) => {
                    for row in &values {
                        diesel::insert_into(presence::table)
                            .values(row)
                            .on_conflict((presence::user_id, presence::game_id))
                            .do_update()
                            .set((
                                presence::seen_at.eq(excluded(presence::seen_at)),
                                presence::held.eq(excluded(presence::held)),
                            ))
                            .execute(c)?;
                    }
                }
            }
        }
        for &game in notify {
            crate::notify::notify(conn, game)?;
        }
        Ok(())
    })
}

/// The unfinished games these people are seated at (whose tables show whether they are
/// connected).
pub fn seated_at(conn: &mut AnyConnection, users: &[i64]) -> Result<Vec<GameId>, DbError> {
    if users.is_empty() {
        return Ok(Vec::new());
    }
    seats::table
        .inner_join(crate::schema::games::table)
        .filter(seats::user_id.eq_any(users))
        .filter(crate::schema::games::status.eq_any([
            GameStatus::Waiting,
            GameStatus::Active,
            GameStatus::HandOver,
        ]))
        .select(seats::game_id)
        .distinct()
        .load(conn)
        .map_err(DbError::from)
}

diesel::alias!(presence as departed: Departed);

/// Which of these people are connected: one of their streams is held (a row marked held and
/// younger than `since`), or they made a request since `since` and no stream of theirs closed
/// after it (leaving the page ends the streams: it shows at once, not when the requests age).
pub fn connected_among(
    conn: &mut AnyConnection,
    users: &[i64],
    since: NaiveDateTime,
) -> Result<std::collections::HashSet<i64>, DbError> {
    if users.is_empty() {
        return Ok(std::collections::HashSet::new());
    }
    let left_since = departed
        .filter(departed.field(presence::user_id).eq(presence::user_id))
        .filter(departed.field(presence::game_id).ge(ACCOUNT_STREAM))
        .filter(departed.field(presence::held).eq(false))
        .filter(departed.field(presence::seen_at).ge(presence::seen_at));
    let here: Vec<i64> = presence::table
        .filter(presence::user_id.eq_any(users))
        .filter(presence::seen_at.gt(since))
        .filter(
            presence::held
                .eq(true)
                .or(presence::game_id.eq(REQUESTS).and(not(exists(left_since)))),
        )
        .select(presence::user_id)
        .distinct()
        .load(conn)?;
    Ok(here.into_iter().collect())
}

/// Who is at a table: each seat with a person, and whether they are connected; how many
/// people not seated there hold a stream of it.
pub type AtTable = (Vec<(i32, bool)>, i64);

/// Who is at game `game_id` now: the seats whose person is connected (see
/// [`connected_among`]; anywhere), and how many people not seated there hold a stream of it
/// (its spectators).
pub fn at_game(
    conn: &mut AnyConnection,
    game_id: GameId,
    since: NaiveDateTime,
) -> Result<AtTable, DbError> {
    Ok(at_games(conn, &[game_id], since)?
        .remove(&game_id)
        .unwrap_or_default())
}

/// [`at_game`] for each of the games `ids` (a game without seats or streams: nobody), in three
/// statements a thousand games, however many there are.
pub fn at_games(
    conn: &mut AnyConnection,
    ids: &[GameId],
    since: NaiveDateTime,
) -> Result<std::collections::HashMap<GameId, AtTable>, DbError> {
    let mut tables: std::collections::HashMap<GameId, AtTable> =
        ids.iter().map(|&id| (id, AtTable::default())).collect();
    for chunk in ids.chunks(1000) {
        let people: Vec<(GameId, i32, i64)> = seats::table
            .filter(seats::game_id.eq_any(chunk))
            .filter(seats::user_id.is_not_null())
            .order((seats::game_id.asc(), seats::seat.asc()))
            .select((
                seats::game_id,
                seats::seat,
                seats::user_id.assume_not_null(),
            ))
            .load(conn)?;
        let mut users: Vec<i64> = people.iter().map(|&(_, _, user)| user).collect();
        users.sort_unstable();
        users.dedup();
        let here = connected_among(conn, &users, since)?;
        for (game, seat, user) in people {
            if let Some(table) = tables.get_mut(&game) {
                table.0.push((seat, here.contains(&user)));
            }
        }
        // Spectators: streams held of the game by people not seated at it.
        let seated = seats::table
            .filter(seats::game_id.eq(presence::game_id))
            .filter(seats::user_id.eq(presence::user_id.nullable()));
        let watching: Vec<(GameId, i64)> = presence::table
            .filter(presence::game_id.eq_any(chunk))
            .filter(presence::held.eq(true))
            .filter(presence::seen_at.gt(since))
            .filter(not(exists(seated)))
            .group_by(presence::game_id)
            .select((presence::game_id, diesel::dsl::count_star()))
            .load(conn)?;
        for (game, count) in watching {
            if let Some(table) = tables.get_mut(&game) {
                table.1 = count;
            }
        }
    }
    Ok(tables)
}

/// Forgets presence older than `before`; how many rows went.
pub fn forget_before(conn: &mut AnyConnection, before: NaiveDateTime) -> Result<usize, DbError> {
    diesel::delete(presence::table.filter(presence::seen_at.lt(before)))
        .execute(conn)
        .map_err(DbError::from)
}
