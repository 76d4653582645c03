//! Accounts.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::users;

/// An account.
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub password_hash: Option<String>,
    pub role: String,
    pub guest: bool,
    pub created_at: NaiveDateTime,
    /// Muted by an admin until then: no chat anywhere.
    pub muted_until: Option<NaiveDateTime>,
    /// A bot account: plays only through API tokens.
    pub bot: bool,
}

/// Creates an account; a taken name is [`DbError::Duplicate`].
pub fn create(
    conn: &mut AnyConnection,
    name: &str,
    password_hash: Option<&str>,
    guest: bool,
) -> Result<User, DbError> {
    diesel::insert_into(users::table)
        .values((
            users::name.eq(name),
            users::password_hash.eq(password_hash),
            users::role.eq("player"),
            users::guest.eq(guest),
            users::created_at.eq(crate::now()),
        ))
        .returning(users::all_columns)
        .get_result(conn)
        .map_err(DbError::from)
}

/// The account with this name.
pub fn by_name(conn: &mut AnyConnection, name: &str) -> Result<Option<User>, DbError> {
    users::table
        .filter(users::name.eq(name))
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Which of these accounts are guests.
pub fn guests_among(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<std::collections::HashSet<i64>, DbError> {
    if ids.is_empty() {
        return Ok(std::collections::HashSet::new());
    }
    let guests: Vec<i64> = users::table
        .filter(users::id.eq_any(ids))
        .filter(users::guest.eq(true))
        .select(users::id)
        .load(conn)?;
    Ok(guests.into_iter().collect())
}

/// The account with this id.
pub fn by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<User>, DbError> {
    users::table
        .find(id)
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Sets an account's role (`player` or `admin`).
pub fn set_role(conn: &mut AnyConnection, id: i64, role: &str) -> Result<(), DbError> {
    diesel::update(users::table.find(id))
        .set(users::role.eq(role))
        .execute(conn)?;
    Ok(())
}

/// Sets an account's password hash (and makes it a registered account).
pub fn set_password(conn: &mut AnyConnection, id: i64, hash: &str) -> Result<(), DbError> {
    diesel::update(users::table.find(id))
        .set((users::password_hash.eq(hash), users::guest.eq(false)))
        .execute(conn)?;
    Ok(())
}

/// Mutes an account in every chat until `until` (none: lifts the mute).
pub fn set_muted_until(
    conn: &mut AnyConnection,
    id: i64,
    until: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    diesel::update(users::table.find(id))
        .set(users::muted_until.eq(until))
        .execute(conn)?;
    Ok(())
}

/// Makes a registered account without games a bot account (irreversible), in one statement so
/// that no game can be joined in between. Whether it is a bot account now.
pub fn make_bot(conn: &mut AnyConnection, id: i64) -> Result<bool, DbError> {
    use crate::schema::seats;
    use diesel::dsl::{exists, not};
    diesel::update(
        users::table
            .find(id)
            .filter(users::guest.eq(false))
            .filter(not(exists(seats::table.filter(seats::user_id.eq(id))))),
    )
    .set(users::bot.eq(true))
    .execute(conn)?;
    Ok(by_id(conn, id)?.is_some_and(|user| user.bot))
}
