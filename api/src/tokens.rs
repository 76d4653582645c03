//! Personal API tokens: a registered account's long-lived credentials for its programs, each
//! with a description and scopes.
//!
//! A token reads `cdr_` + a public id (10 characters) + `_` + a secret (40 characters), about
//! 200 bits of randomness in all. It is shown once, when it is made; only the SHA-256 of the
//! whole token is stored (a token is random, so a fast hash is as safe as a slow one), found by
//! its public id and compared in constant time. It is sent as `Authorization: Bearer cdr_…`
//! like a session token, never expires, and stops working the moment it is revoked.
//!
//! Here: a token's form, and finding and checking one. Making, listing and revoking them is a
//! use case ([`crate::play::tokens`]); the check before each request is in [`crate::guards`].

use cardroom_db::AnyConnection;
use cardroom_db::tokens;
use rand::RngExt;
use sha2::{Digest, Sha256};

use crate::auth::{Caller, Credential, Role, Scopes};
use crate::error::ApiError;

/// How every personal API token begins.
pub const PREFIX: &str = "cdr_";
pub(crate) const PUBLIC_LEN: usize = 10;
pub(crate) const SECRET_LEN: usize = 40;
const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
pub(crate) fn random_text(length: usize) -> String {
    let mut rng = rand::rng();
    (0..length)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

pub(crate) fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Equal, in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The public id of a token of the right shape.
pub fn public_id(token: &str) -> Option<&str> {
    let rest = token.strip_prefix(PREFIX)?;
    let (public, secret) = rest.split_once('_')?;
    let fits =
        |text: &str, len: usize| text.len() == len && text.bytes().all(|b| ALPHABET.contains(&b));
    (fits(public, PUBLIC_LEN) && fits(secret, SECRET_LEN)).then_some(public)
}

/// The caller the live personal API token `token` (whose public id is `public`) names, and
/// whether its account is a bot account; none when no live token matches.
pub fn live_caller(
    conn: &mut AnyConnection,
    public: &str,
    token: &str,
) -> Result<Option<(Caller, bool)>, ApiError> {
    let Some((row, name, role, bot)) = tokens::live_by_public_id(conn, public)? else {
        return Ok(None);
    };
    if !same(&row.secret_hash, &digest(token)) {
        return Ok(None);
    }
    // (When it was last used is a note, not a condition: a database that takes no writes for
    // now still lets a program read, and a read made again does not fail on it.)
    if let Err(error) = tokens::used(conn, row.id, cardroom_db::now()) {
        tracing::debug!(%error, "a token's last use not noted");
    }
    let caller = Caller {
        id: row.user_id,
        name,
        role: Role::parse(&role).unwrap_or(Role::Player),
        expires_at: i64::MAX,
        scopes: Scopes::from_stored(&row.scopes),
        credential: Credential::ApiToken(row.id),
    };
    Ok(Some((caller, bot)))
}

/// Whether a caller's credential still holds (for a stream opened earlier): a session token
/// until it expires, a personal API token until it is revoked.
pub fn still_valid(conn: &mut AnyConnection, caller: &Caller) -> Result<bool, ApiError> {
    Ok(match caller.credential {
        Credential::Session => !caller.token_expired(),
        Credential::ApiToken(id) => tokens::is_live(conn, id)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_recognised_by_its_shape_and_its_public_id() {
        let public = random_text(PUBLIC_LEN);
        let token = format!("{PREFIX}{public}_{}", random_text(SECRET_LEN));
        assert_eq!(public_id(&token), Some(public.as_str()));
        for bad in [
            "cdr_",
            "cdr_short_secret",
            &token[..token.len() - 1],
            &format!("{token}x"),
            &token.replace("cdr_", "cdx_"),
            "eyJhbGciOiJIUzI1NiJ9.e30.sig",
        ] {
            assert_eq!(public_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn hashes_compare_whole() {
        let a = digest("cdr_one");
        assert!(same(&a, &digest("cdr_one")));
        assert!(!same(&a, &digest("cdr_two")));
        assert!(!same(&a, &a[..10]));
    }
}
