//! Managing personal API tokens (`/account/tokens`) and turning an account into a bot account
//! (`/account/bot`).

use cardroom_db::AnyConnection;
use cardroom_db::tokens::{self, NewToken, TokenRow};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{Caller, Role, Scope, Scopes};
use crate::error::{ApiError, ProblemCode};
use crate::tokens::{PREFIX, PUBLIC_LEN, SECRET_LEN, digest, random_text};

/// The most live tokens one account may hold.
pub const MAX_TOKENS: usize = 50;

/// `POST /account/tokens`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"description": "my Tarneeb bot", "scopes": ["play", "challenge", "read"]}))]
pub struct NewTokenRequest {
    /// What the token is for, 1–100 characters (no control characters, nor bidirectional or
    /// invisible formatting ones, as in a chat message).
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = r"^[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d](?:[\u200c\u200d]?[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d])*(?:[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d](?:[\u200c\u200d]?[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u200c\u200d])*)*[^\S\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*$"
    )]
    pub description: String,
    /// What it may do (at least one; `admin` for admins only).
    #[schema(min_items = 1, max_items = 4)]
    pub scopes: Vec<Scope>,
}

/// A token as its owner may see it later: never its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenInfo {
    pub id: i64,
    /// The token's beginning, to recognise it: `cdr_` and its public id.
    pub prefix: String,
    pub description: String,
    pub scopes: Vec<Scope>,
    pub created_at: DateTime<Utc>,
    /// When it was last used (to the minute).
    pub last_used_at: Option<DateTime<Utc>>,
}

/// `201` to `POST /account/tokens`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCreated {
    /// The token: shown this once, kept nowhere. Send it as `Authorization: Bearer <token>`.
    pub token: String,
    pub info: TokenInfo,
}

/// `GET /account/tokens`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenList {
    /// Live tokens, newest first.
    pub tokens: Vec<TokenInfo>,
}

fn info(row: &TokenRow) -> TokenInfo {
    TokenInfo {
        id: row.id,
        prefix: format!("{PREFIX}{}", row.public_id),
        description: row.description.clone(),
        scopes: Scopes::from_stored(&row.scopes).list(),
        created_at: row.created_at.and_utc(),
        last_used_at: row.last_used_at.map(|t| t.and_utc()),
    }
}

/// The account behind a session, which must be a registered one.
fn registered(
    conn: &mut AnyConnection,
    caller: &Caller,
) -> Result<cardroom_db::users::User, ApiError> {
    let user = cardroom_db::users::by_id(conn, caller.id)?.ok_or_else(|| {
        ApiError::Unauthorized("the account this token names no longer exists".to_owned())
    })?;
    if user.guest {
        return Err(ApiError::Denied {
            code: ProblemCode::RegisteredOnly,
            detail: "guests have no API tokens: register an account (a name and a password)"
                .to_owned(),
        });
    }
    Ok(user)
}

/// `POST /account/tokens`.
pub fn create(
    conn: &mut AnyConnection,
    caller: &Caller,
    request: &NewTokenRequest,
) -> Result<TokenCreated, ApiError> {
    let description = request.description.trim();
    if description.is_empty()
        || request.description.chars().count() > 100
        || request.description.chars().any(char::is_control)
    {
        return Err(ApiError::Invalid(
            "description is 1 to 100 characters, not all spaces, without control characters"
                .to_owned(),
        ));
    }
    crate::input::plain_text("description", description)?;
    if request.scopes.is_empty() {
        return Err(ApiError::Invalid(
            "a token needs at least one scope".to_owned(),
        ));
    }
    let user = registered(conn, caller)?;
    if request.scopes.contains(&Scope::Admin) && user.role != Role::Admin.name() {
        return Err(ApiError::Forbidden(
            "only admins may give a token the admin scope".to_owned(),
        ));
    }
    if tokens::of_user(conn, user.id)?
        .iter()
        .filter(|t| t.revoked_at.is_none())
        .count()
        >= MAX_TOKENS
    {
        return Err(ApiError::Conflict {
            code: ProblemCode::TooManyTokens,
            detail: format!("an account holds at most {MAX_TOKENS} tokens: revoke one first"),
        });
    }
    let scopes = Scopes::of(&request.scopes);
    for _ in 0..5 {
        let public = random_text(PUBLIC_LEN);
        let token = format!("{PREFIX}{public}_{}", random_text(SECRET_LEN));
        let new = NewToken {
            user_id: user.id,
            public_id: public,
            secret_hash: digest(&token),
            description: description.to_owned(),
            scopes: scopes.stored(),
        };
        match tokens::create(conn, &new) {
            Ok(row) => {
                return Ok(TokenCreated {
                    token,
                    info: info(&row),
                });
            }
            Err(cardroom_db::DbError::Duplicate(_)) => continue,
            Err(other) => return Err(other.into()),
        }
    }
    Err(ApiError::internal("no free token id in five tries"))
}

/// `GET /account/tokens`.
pub fn list(conn: &mut AnyConnection, caller: &Caller) -> Result<TokenList, ApiError> {
    let user = registered(conn, caller)?;
    Ok(TokenList {
        tokens: tokens::of_user(conn, user.id)?
            .iter()
            .filter(|t| t.revoked_at.is_none())
            .map(info)
            .collect(),
    })
}

/// `DELETE /account/tokens/{id}`.
pub fn revoke(conn: &mut AnyConnection, caller: &Caller, id: i64) -> Result<(), ApiError> {
    if !tokens::revoke(conn, caller.id, id)? {
        return Err(ApiError::NotFound(format!("you have no live token {id}")));
    }
    Ok(())
}

/// `POST /account/bot`.
pub fn become_bot(
    conn: &mut AnyConnection,
    caller: &Caller,
) -> Result<crate::model::UserInfo, ApiError> {
    let user = registered(conn, caller)?;
    if !cardroom_db::users::make_bot(conn, user.id)? {
        return Err(ApiError::Conflict {
            code: ProblemCode::HasGames,
            detail: "only an account that has never sat at a game may become a bot account"
                .to_owned(),
        });
    }
    Ok(crate::model::UserInfo {
        id: user.id,
        name: user.name,
        role: user.role,
        guest: false,
        bot: true,
    })
}
