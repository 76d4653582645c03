//! Personal API tokens: stored as the SHA-256 of the token, found by the public id it carries.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::schema::{api_tokens, users};

/// A token as stored (never its secret).
#[derive(Queryable, Clone, PartialEq, Eq, Debug)]
pub struct TokenRow {
    pub id: i64,
    pub user_id: i64,
    pub public_id: String,
    pub secret_hash: String,
    pub description: String,
    /// Space-separated scope names.
    pub scopes: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A new token's stored parts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewToken {
    pub user_id: i64,
    pub public_id: String,
    pub secret_hash: String,
    pub description: String,
    pub scopes: String,
}

/// Stores a token; a public id in use already is [`DbError::Duplicate`].
pub fn create(conn: &mut AnyConnection, new: &NewToken) -> Result<TokenRow, DbError> {
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(new.user_id),
            api_tokens::public_id.eq(&new.public_id),
            api_tokens::secret_hash.eq(&new.secret_hash),
            api_tokens::description.eq(&new.description),
            api_tokens::scopes.eq(&new.scopes),
            api_tokens::created_at.eq(crate::now()),
        ))
        .returning(api_tokens::all_columns)
        .get_result(conn)
        .map_err(DbError::from)
}

/// An account's tokens, newest first, revoked ones included.
pub fn of_user(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<TokenRow>, DbError> {
    api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id.desc())
        .load(conn)
        .map_err(DbError::from)
}

/// A token that is not revoked, by its public id, with its account: `(token, name, role, bot)`.
pub fn live_by_public_id(
    conn: &mut AnyConnection,
    public_id: &str,
) -> Result<Option<(TokenRow, String, String, bool)>, DbError> {
    api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::public_id.eq(public_id))
        .filter(api_tokens::revoked_at.is_null())
        .select((
            api_tokens::all_columns,
            users::name,
            users::role,
            users::bot,
        ))
        .first(conn)
        .optional()
        .map_err(DbError::from)
}

/// Notes that token `id` was used now, at most once a minute (a write only then).
pub fn used(conn: &mut AnyConnection, id: i64, now: NaiveDateTime) -> Result<(), DbError> {
    let minute_ago = now - chrono::Duration::minutes(1);
    diesel::update(
        api_tokens::table.find(id).filter(
            api_tokens::last_used_at
                .is_null()
                .or(api_tokens::last_used_at.lt(minute_ago)),
        ),
    )
    .set(api_tokens::last_used_at.eq(Some(now)))
    .execute(conn)?;
    Ok(())
}

/// Revokes one of `user_id`'s tokens; whether it was live.
pub fn revoke(conn: &mut AnyConnection, user_id: i64, id: i64) -> Result<bool, DbError> {
    let changed = diesel::update(
        api_tokens::table
            .find(id)
            .filter(api_tokens::user_id.eq(user_id))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(crate::now())))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Whether token `id` is still live (not revoked).
pub fn is_live(conn: &mut AnyConnection, id: i64) -> Result<bool, DbError> {
    diesel::select(diesel::dsl::exists(
        api_tokens::table
            .find(id)
            .filter(api_tokens::revoked_at.is_null()),
    ))
    .get_result(conn)
    .map_err(DbError::from)
}
