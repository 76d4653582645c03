//! Challenges: one account asking another (or anyone with the link) for a game. Every change
//! of a challenge's status is one conditional update (`WHERE status = 'open'`), so of an
//! acceptance and a cancellation made at once exactly one takes effect.

use cardroom_core::GameKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::challenges;
use crate::visibility::Visibility;

/// Where a challenge stands: open until it is answered, taken back or expires.
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
pub enum ChallengeStatus {
    /// Waiting for its answer.
    Open,
    /// Accepted: its game is `game_id`.
    Accepted,
    /// Declined by the one challenged.
    Declined,
    /// Taken back by its challenger.
    Cancelled,
    /// Unanswered in time.
    Expired,
}

impl ChallengeStatus {
    /// Every status.
    pub const ALL: [ChallengeStatus; 5] = [
        ChallengeStatus::Open,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Cancelled,
        ChallengeStatus::Expired,
    ];

    /// The stored (and answered) word.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }
}

crate::words::text_column!(ChallengeStatus, "challenge status", not ["refused", "Open", ""]);

/// A challenge.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct ChallengeRow {
    pub id: i64,
    pub challenger_id: i64,
    /// The account challenged; none for an open challenge (anyone with its code).
    pub to_id: Option<i64>,
    /// The secret of an open challenge's link.
    pub code: String,
    pub kind: GameKind,
    pub variant: String,
    pub options: String,
    /// The seats as JSON: `[{"bot": level} or {}]`, two of them for people.
    pub seats: String,
    pub challenger_seat: i32,
    pub rated: bool,
    pub turn_seconds: Option<i32>,
    pub takeover_after: Option<i32>,
    pub visibility: Visibility,
    pub status: ChallengeStatus,
    /// Why it was declined.
    pub reason: Option<String>,
    pub game_id: Option<i64>,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub answered_at: Option<NaiveDateTime>,
}

/// A new challenge.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewChallenge {
    pub challenger_id: i64,
    pub to_id: Option<i64>,
    pub code: String,
    pub kind: GameKind,
    pub variant: String,
    pub options: String,
    pub seats: String,
    pub challenger_seat: i32,
    pub rated: bool,
    pub turn_seconds: Option<i32>,
    pub takeover_after: Option<i32>,
    pub visibility: Visibility,
    pub expires_at: NaiveDateTime,
}

/// Stores an open challenge.
pub fn create(conn: &mut AnyConnection, new: &NewChallenge) -> Result<ChallengeRow, DbError> {
    diesel::insert_into(challenges::table)
        .values((
            challenges::challenger_id.eq(new.challenger_id),
            challenges::to_id.eq(new.to_id),
            challenges::code.eq(&new.code),
            challenges::kind.eq(&new.kind),
            challenges::variant.eq(&new.variant),
            challenges::options.eq(&new.options),
            challenges::seats.eq(&new.seats),
            challenges::challenger_seat.eq(new.challenger_seat),
            challenges::rated.eq(new.rated),
            challenges::turn_seconds.eq(new.turn_seconds),
            challenges::takeover_after.eq(new.takeover_after),
            challenges::visibility.eq(new.visibility),
            challenges::status.eq(ChallengeStatus::Open),
            challenges::created_at.eq(crate::now()),
            challenges::expires_at.eq(new.expires_at),
        ))
        .returning(challenges::all_columns)
        .get_result(conn)
        .map_err(DbError::from)
}

/// A challenge by id.
pub fn get(conn: &mut AnyConnection, id: i64) -> Result<Option<ChallengeRow>, DbError> {
    challenges::table
        .find(id)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// The open challenges made by or to `user_id`, newest first.
pub fn open_of(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<ChallengeRow>, DbError> {
    challenges::table
        .filter(challenges::status.eq(ChallengeStatus::Open))
        .filter(
            challenges::challenger_id
                .eq(user_id)
                .or(challenges::to_id.eq(user_id)),
        )
        .order(challenges::id.desc())
        .limit(200)
        .load(conn)
        .map_err(DbError::from)
}

/// Closes an open challenge that has not expired by `now` with `status` (and `reason`);
/// whether it was open. The one write that decides a race between answers.
pub fn close(
    conn: &mut AnyConnection,
    id: i64,
    status: ChallengeStatus,
    reason: Option<&str>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let changed = diesel::update(
        challenges::table
            .find(id)
            .filter(challenges::status.eq(ChallengeStatus::Open))
            .filter(challenges::expires_at.gt(now)),
    )
    .set((
        challenges::status.eq(status),
        challenges::reason.eq(reason),
        challenges::answered_at.eq(Some(now)),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Records the game an accepted challenge made.
pub fn set_game(conn: &mut AnyConnection, id: i64, game_id: i64) -> Result<(), DbError> {
    diesel::update(challenges::table.find(id))
        .set(challenges::game_id.eq(Some(game_id)))
        .execute(conn)?;
    Ok(())
}

/// Marks the open challenges whose time is up as expired, at most `limit`; returns them.
pub fn expire(
    conn: &mut AnyConnection,
    now: NaiveDateTime,
    limit: i64,
) -> Result<Vec<ChallengeRow>, DbError> {
    let due: Vec<ChallengeRow> = challenges::table
        .filter(challenges::status.eq(ChallengeStatus::Open))
        .filter(challenges::expires_at.le(now))
        .order(challenges::expires_at.asc())
        .limit(limit)
        .load(conn)?;
    let mut expired = Vec::with_capacity(due.len());
    for row in due {
        let changed = diesel::update(
            challenges::table
                .find(row.id)
                .filter(challenges::status.eq(ChallengeStatus::Open)),
        )
        .set((
            challenges::status.eq(ChallengeStatus::Expired),
            challenges::answered_at.eq(Some(now)),
        ))
        .execute(conn)?;
        if changed == 1 {
            expired.push(row);
        }
    }
    Ok(expired)
}
