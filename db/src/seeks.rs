//! Quick match: seeks — people waiting to be paired with others who want the same game — and
//! the locked pairing that never puts one seek in two games.

use cardroom_core::GameKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::seeks;

/// Where a seek stands: open until it is paired, cancelled, or left unasked after.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Debug,
    serde::Serialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum SeekStatus {
    /// Waiting to be paired.
    Open,
    /// Paired: its game is `game_id`.
    Matched,
    /// Taken back by its seeker.
    Cancelled,
    /// Its client stopped asking after it.
    Expired,
}

impl SeekStatus {
    /// Every status.
    pub const ALL: [SeekStatus; 4] = [
        SeekStatus::Open,
        SeekStatus::Matched,
        SeekStatus::Cancelled,
        SeekStatus::Expired,
    ];

    /// The stored (and answered) word.
    pub const fn as_str(self) -> &'static str {
        match self {
            SeekStatus::Open => "open",
            SeekStatus::Matched => "matched",
            SeekStatus::Cancelled => "cancelled",
            SeekStatus::Expired => "expired",
        }
    }
}

crate::words::text_column!(SeekStatus, "seek status", not ["paired", "Open", ""]);

/// A seek.
#[derive(Queryable, Clone, PartialEq, Debug)]
pub struct SeekRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub players: i32,
    /// The house rules, as canonical JSON (keys in order): seeks pair on equal text.
    pub options: String,
    pub rated: bool,
    /// The seeker's rating in the kind when they asked (1500 without one).
    pub rating: f64,
    /// How far from the seeker's rating an opponent's may be (none: any).
    pub rating_range: Option<i32>,
    /// Seconds after which computer players fill the seats nobody took (none: never).
    pub fill_after: Option<i32>,
    pub status: SeekStatus,
    pub game_id: Option<i64>,
    pub created_at: NaiveDateTime,
    /// When its client last asked after it.
    pub seen_at: NaiveDateTime,
    /// The seeker is a bot account.
    pub bot: bool,
    /// The seeker will be paired with bot accounts.
    pub with_bots: bool,
}

/// A new seek.
#[derive(Clone, Debug)]
pub struct NewSeek {
    pub user_id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub players: i32,
    pub options: String,
    pub rated: bool,
    pub rating: f64,
    pub rating_range: Option<i32>,
    pub fill_after: Option<i32>,
    /// The seeker is a bot account.
    pub bot: bool,
    /// The seeker will be paired with bot accounts.
    pub with_bots: bool,
}

/// Stores a new open seek.
pub fn create(conn: &mut AnyConnection, new: &NewSeek) -> Result<SeekRow, DbError> {
    let now = crate::now();
    diesel::insert_into(seeks::table)
        .values((
            seeks::user_id.eq(new.user_id),
            seeks::kind.eq(&new.kind),
            seeks::variant.eq(&new.variant),
            seeks::players.eq(new.players),
            seeks::options.eq(&new.options),
            seeks::rated.eq(new.rated),
            seeks::rating.eq(new.rating),
            seeks::rating_range.eq(new.rating_range),
            seeks::fill_after.eq(new.fill_after),
            seeks::status.eq(SeekStatus::Open),
            seeks::created_at.eq(now),
            seeks::seen_at.eq(now),
            seeks::bot.eq(new.bot),
            seeks::with_bots.eq(new.with_bots),
        ))
        .returning(seeks::all_columns)
        .get_result(conn)
        .map_err(DbError::from)
}

/// A seek by id.
pub fn get(conn: &mut AnyConnection, id: i64) -> Result<Option<SeekRow>, DbError> {
    seeks::table
        .find(id)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// The account's open seek, if it has one.
pub fn open_of_user(conn: &mut AnyConnection, user_id: i64) -> Result<Option<SeekRow>, DbError> {
    seeks::table
        .filter(seeks::user_id.eq(user_id))
        .filter(seeks::status.eq(SeekStatus::Open))
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Its client asked after the seek now.
pub fn touch(conn: &mut AnyConnection, id: i64) -> Result<(), DbError> {
    diesel::update(
        seeks::table
            .find(id)
            .filter(seeks::status.eq(SeekStatus::Open)),
    )
    .set(seeks::seen_at.eq(crate::now()))
    .execute(conn)?;
    Ok(())
}

/// Cancels an open seek; whether it was open.
pub fn cancel(conn: &mut AnyConnection, id: i64) -> Result<bool, DbError> {
    let changed = diesel::update(
        seeks::table
            .find(id)
            .filter(seeks::status.eq(SeekStatus::Open)),
    )
    .set(seeks::status.eq(SeekStatus::Cancelled))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Expires the open seeks whose clients have not asked after them since `before`; how many.
pub fn expire_unseen(conn: &mut AnyConnection, before: NaiveDateTime) -> Result<usize, DbError> {
    diesel::update(
        seeks::table
            .filter(seeks::status.eq(SeekStatus::Open))
            .filter(seeks::seen_at.lt(before)),
    )
    .set(seeks::status.eq(SeekStatus::Expired))
    .execute(conn)
    .map_err(DbError::from)
}

/// Open seeks, oldest first, at most `limit`: the sweep tries to pair (or fill) each.
pub fn open_seeks(conn: &mut AnyConnection, limit: i64) -> Result<Vec<i64>, DbError> {
    seeks::table
        .filter(seeks::status.eq(SeekStatus::Open))
        .order(seeks::created_at.asc())
        .limit(limit)
        .select(seeks::id)
        .load(conn)
        .map_err(DbError::from)
}

/// Runs `work` in one transaction with seek `id` (if it is still open) and the open seeks it
/// could be paired with — the same game, variant, seat count, house rules and ratedness, from
/// other accounts, oldest first — every one of them locked: on PostgreSQL the seek's row is
/// held `FOR UPDATE` and each candidate's taken `FOR UPDATE SKIP LOCKED` (one that another
/// replica is pairing right now is passed over, never waited for, so two pairings never wait
/// on each other); SQLite's single writer is taken by a first write. `work` creates the game
/// and marks the seeks it paired with [`mark_matched`]; its error undoes everything.
pub fn with_pairing<T, E: From<DbError>>(
    conn: &mut AnyConnection,
    id: i64,
    work: impl FnOnce(&mut AnyConnection, SeekRow, Vec<SeekRow>) -> Result<Option<T>, E>,
) -> Result<Option<T>, E> {
    #[derive(QueryableByName)]
    struct Locked {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        id: i64,
    }
    crate::connection::in_transaction(conn, |conn| {
        match conn {
            AnyConnection::Postgresql(pg) => {
                diesel::sql_query("SELECT id FROM seeks WHERE id = $1 FOR UPDATE")
                    .bind::<diesel::sql_types::BigInt, _>(id)
                    .load::<Locked>(pg)
                    .map_err(DbError::from)?;
            }
            AnyConnection::Sqlite(_) => {
                // A write first: SQLite's deferred BEGIN could not upgrade a read to a write.
                diesel::update(seeks::table.find(id))
                    .set(seeks::seen_at.eq(seeks::seen_at))
                    .execute(conn)
                    .map_err(DbError::from)?;
            }
        }
        let Some(seek) = get(conn, id)? else {
            return Ok(None);
        };
        if seek.status != SeekStatus::Open {
            return Ok(None);
        }
        let mut candidates: Vec<SeekRow> = seeks::table
            .filter(seeks::status.eq(SeekStatus::Open))
            .filter(seeks::id.ne(seek.id))
            .filter(seeks::user_id.ne(seek.user_id))
            .filter(seeks::kind.eq(&seek.kind))
            .filter(seeks::variant.eq(&seek.variant))
            .filter(seeks::players.eq(seek.players))
            .filter(seeks::options.eq(&seek.options))
            .filter(seeks::rated.eq(seek.rated))
            .order((seeks::created_at.asc(), seeks::id.asc()))
            .limit(50)
            .load(conn)
            .map_err(DbError::from)?;
        if let AnyConnection::Postgresql(pg) = conn
            && !candidates.is_empty()
        {
            let ids: Vec<i64> = candidates.iter().map(|c| c.id).collect();
            let locked: Vec<i64> = diesel::sql_query(
                "SELECT id FROM seeks WHERE id = ANY($1) AND status = $2 FOR UPDATE SKIP LOCKED",
            )
            .bind::<diesel::sql_types::Array<diesel::sql_types::BigInt>, _>(&ids)
            .bind::<diesel::sql_types::Text, _>(SeekStatus::Open)
            .load::<Locked>(pg)
            .map_err(DbError::from)?
            .into_iter()
            .map(|l| l.id)
            .collect();
            candidates.retain(|c| locked.contains(&c.id));
        }
        work(conn, seek, candidates)
    })
}

/// Marks these open seeks matched to `game_id`, inside [`with_pairing`]; fails (undoing the
/// pairing) unless every one of them was still open.
pub fn mark_matched(conn: &mut AnyConnection, ids: &[i64], game_id: i64) -> Result<(), DbError> {
    let changed = diesel::update(
        seeks::table
            .filter(seeks::id.eq_any(ids))
            .filter(seeks::status.eq(SeekStatus::Open)),
    )
    .set((
        seeks::status.eq(SeekStatus::Matched),
        seeks::game_id.eq(game_id),
    ))
    .execute(conn)?;
    if changed == ids.len() {
        Ok(())
    } else {
        Err(DbError::VersionConflict)
    }
}
