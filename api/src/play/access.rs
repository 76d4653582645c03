//! Who may do what beyond a seat: a bot account plays only through its API tokens, and some
//! things are for admins.

use cardroom_db::AnyConnection;

use cardroom_db::users;

use crate::auth::{Caller, Role};
use crate::error::{ApiError, ProblemCode};

/// A bot account plays only through personal API tokens: refuses its session token.
pub(super) fn bot_needs_token(caller: &Caller) -> Result<(), ApiError> {
    if caller.credential == crate::auth::Credential::Session {
        return Err(ApiError::Denied {
            code: ProblemCode::BotNeedsToken,
            detail: "a bot account plays through its personal API tokens, not a session".to_owned(),
        });
    }
    Ok(())
}

/// Refuses to seat a bot account that signed this request with a session token (a person's
/// session is fine, and any personal API token is).
pub(super) fn may_sit(conn: &mut AnyConnection, caller: &Caller) -> Result<(), ApiError> {
    if caller.credential != crate::auth::Credential::Session {
        return Ok(());
    }
    let user = cardroom_db::users::by_id(conn, caller.id)?.ok_or_else(|| {
        ApiError::Unauthorized("the account this token names no longer exists".to_owned())
    })?;
    if user.bot {
        bot_needs_token(caller)?;
    }
    Ok(())
}

/// Admins only — by the role stored now, not the one in the token: a demoted admin's token
/// stops working for these at once, and a promoted user's works at once.
pub(super) fn admin_only(conn: &mut AnyConnection, caller: &Caller) -> Result<(), ApiError> {
    if is_admin(conn, caller)? {
        Ok(())
    } else {
        Err(ApiError::Forbidden("only admins may do this".to_owned()))
    }
}

/// Whether the caller's account has the admin role now (the token's claim may be stale).
pub(super) fn is_admin(conn: &mut AnyConnection, caller: &Caller) -> Result<bool, ApiError> {
    let stored = users::by_id(conn, caller.id)?.map(|u| u.role);
    Ok(stored.as_deref() == Some(Role::Admin.name()))
}
