//! Accounts: signing in as a guest, registering, logging in, and who one is.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /auth/guest`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuestRequest {
    /// A display name (3–32 letters — Latin or Arabic, not both — digits, `_`, `-`, `.`); one
    /// is made up when left out.
    #[schema(
        example = "amira",
        pattern = r"^([A-Za-z0-9_.-]{3,32}|[\u0621-\u063A\u0641-\u064A0-9_.-]{3,32})$"
    )]
    pub name: Option<String>,
}

/// `POST /auth/register` and `POST /auth/login`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3–32 letters (Latin or Arabic, not both), digits, `_`, `-`, `.` (the first admin's name, from the configuration, may
    /// be anything up to 128 characters without a NUL).
    #[schema(
        example = "amira",
        pattern = r"^([A-Za-z0-9_.-]{3,32}|[\u0621-\u063A\u0641-\u064A0-9_.-]{3,32})$"
    )]
    pub name: String,
    /// 8–128 characters.
    #[schema(example = "a long passphrase", min_length = 8, max_length = 128)]
    pub password: String,
}

/// An account as others may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct UserInfo {
    pub id: i64,
    pub name: String,
    /// `player` or `admin`.
    pub role: String,
    pub guest: bool,
    /// A bot account: a program that plays through personal API tokens.
    pub bot: bool,
}

/// A token and the account it is for.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthResponse {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    pub user: UserInfo,
}
