//! Who calls: the authenticated caller, their role, credential and scopes, and the session
//! tokens (JWT, HS256 only) that carry them. Reading them from a request is [`crate::guards`].

use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ProblemCode};

const AUDIENCE: &str = "cardroom";
const ISSUER: &str = "cardroom";
/// Clock skew forgiven when a token's expiry is checked.
const LEEWAY_SECS: u64 = 5;

/// What a token says.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    name: String,
    role: String,
    aud: String,
    iss: String,
    iat: i64,
    exp: i64,
    /// When the account was made (microseconds since the epoch): the token names that account,
    /// not merely an id, which a database restored to an earlier moment may give to another.
    /// (Absent from tokens signed before it was added; those name the id alone.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    acct: Option<i64>,
}

/// Signs and checks tokens.
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keys")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

/// A role.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    Player,
    Admin,
}

impl Role {
    /// The role's name as stored and in tokens.
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Admin => "admin",
        }
    }

    /// The role of a stored or requested name.
    pub fn parse(name: &str) -> Option<Role> {
        match name {
            "player" => Some(Role::Player),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller {
    pub id: i64,
    pub name: String,
    pub role: Role,
    /// When the token expires (seconds since the epoch; a personal API token does not).
    pub expires_at: i64,
    /// What the credential may do: everything for a session (a token from signing in), the
    /// scopes it was given for a personal API token.
    pub scopes: Scopes,
    /// How the caller signed this request.
    pub credential: Credential,
}

/// How a request was signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A session token from `/auth/*` (a JWT).
    Session,
    /// A personal API token (`cdr_…`), by its row id.
    ApiToken(i64),
}

/// What a credential may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scopes(u8);

/// One thing a personal API token may be allowed to do.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Play: create, join and play games, seek, chat, rematch.
    Play,
    /// Challenge people and bots, and answer challenges.
    Challenge,
    /// Read: views, events, logs, lists, the account's event stream.
    Read,
    /// The admin endpoints (admins only).
    Admin,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::Play, Scope::Challenge, Scope::Read, Scope::Admin];

    fn bit(self) -> u8 {
        match self {
            Scope::Play => 1,
            Scope::Challenge => 2,
            Scope::Read => 4,
            Scope::Admin => 8,
        }
    }

    /// The scope's name.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Play => "play",
            Scope::Challenge => "challenge",
            Scope::Read => "read",
            Scope::Admin => "admin",
        }
    }

    /// The scope of a name.
    pub fn parse(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl Scopes {
    /// A session's: everything (the admin endpoints still ask for the admin role).
    pub const SESSION: Scopes = Scopes(15);

    /// These scopes.
    pub fn of(scopes: &[Scope]) -> Scopes {
        Scopes(scopes.iter().fold(0, |bits, s| bits | s.bit()))
    }

    /// Whether `scope` is among them.
    pub fn allow(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    /// The scopes, in a fixed order.
    pub fn list(self) -> Vec<Scope> {
        Scope::ALL.into_iter().filter(|s| self.allow(*s)).collect()
    }

    /// As stored: the names, space-separated.
    pub fn stored(self) -> String {
        self.list()
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// From the stored form (unknown names are ignored).
    pub fn from_stored(text: &str) -> Scopes {
        let scopes: Vec<Scope> = text.split_whitespace().filter_map(Scope::parse).collect();
        Scopes::of(&scopes)
    }
}

impl Caller {
    /// Whether the token has expired by now (with the same leeway as its first check): a stream
    /// opened with it must end.
    pub fn token_expired(&self) -> bool {
        chrono::Utc::now().timestamp() > self.expires_at.saturating_add(LEEWAY_SECS as i64)
    }

    /// How long until [`Caller::token_expired`] turns true (a little after, never sooner); for
    /// a personal API token, which does not expire, a very long time.
    pub fn expires_in(&self) -> std::time::Duration {
        let last = self.expires_at.saturating_add(LEEWAY_SECS as i64);
        let seconds = last.saturating_sub(chrono::Utc::now().timestamp());
        // (`token_expired` turns true once the second after `last` begins.)
        std::time::Duration::from_secs(u64::try_from(seconds).unwrap_or(0).saturating_add(1))
    }
}

impl Keys {
    /// Keys for an HS256 secret; tokens live `ttl`.
    pub fn new(secret: &str, ttl: Duration) -> Keys {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.set_audience(&[AUDIENCE]);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        validation.leeway = LEEWAY_SECS;
        Keys {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            validation,
            ttl,
        }
    }

    /// A token for an account.
    pub fn issue(&self, user: &cardroom_db::users::User) -> Result<String, ApiError> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user.id.to_string(),
            name: user.name.clone(),
            role: user.role.clone(),
            aud: AUDIENCE.to_owned(),
            iss: ISSUER.to_owned(),
            iat: now,
            exp: now + self.ttl.as_secs() as i64,
            acct: Some(account_stamp(user)),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(ApiError::because("token signing failed"))
    }

    /// The caller a token names, if it is genuine, unexpired and for this service.
    pub fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        self.verify_account(token).map(|(caller, _)| caller)
    }

    /// [`Keys::verify`], with the account's stamp ([`account_stamp`]) when the token has one.
    pub fn verify_account(&self, token: &str) -> Result<(Caller, Option<i64>), ApiError> {
        let invalid = || ApiError::Unauthorized("the token is invalid or expired".to_owned());
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| invalid())?;
        let claims = data.claims;
        let stamp = claims.acct;
        let caller = Caller {
            id: claims.sub.parse().map_err(|_| invalid())?,
            name: claims.name,
            role: Role::parse(&claims.role).ok_or_else(invalid)?,
            expires_at: claims.exp,
            scopes: Scopes::SESSION,
            credential: Credential::Session,
        };
        Ok((caller, stamp))
    }
}

/// What a session token holds of its account beside the id: when it was made (microseconds
/// since the epoch, as stored).
pub fn account_stamp(user: &cardroom_db::users::User) -> i64 {
    user.created_at.and_utc().timestamp_micros()
}

impl Caller {
    /// The caller the service acts as when it does something for an account by itself (seating
    /// quick-match seekers, a challenger whose challenge was accepted, …).
    pub fn acting_for(user: &cardroom_db::users::User) -> Caller {
        Caller {
            id: user.id,
            name: user.name.clone(),
            role: Role::parse(&user.role).unwrap_or(Role::Player),
            expires_at: i64::MAX,
            scopes: Scopes::SESSION,
            credential: Credential::Session,
        }
    }

    /// Refuses a credential without `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes.allow(scope) {
            Ok(())
        } else {
            Err(ApiError::Denied {
                code: ProblemCode::InsufficientScope,
                detail: format!("this token lacks the `{}` scope", scope.name()),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amira() -> cardroom_db::users::User {
        cardroom_db::users::User {
            id: 7,
            name: "amira".to_owned(),
            password_hash: None,
            role: "player".to_owned(),
            guest: false,
            created_at: chrono::DateTime::from_timestamp_micros(1_790_000_000_123_456)
                .expect("a time")
                .naive_utc(),
            muted_until: None,
            bot: false,
        }
    }

    #[test]
    fn a_token_names_its_caller_until_it_expires() {
        let keys = Keys::new("secret", Duration::from_secs(60));
        let token = keys.issue(&amira()).unwrap();
        let (caller, stamp) = keys.verify_account(&token).unwrap();
        assert_eq!(stamp, Some(1_790_000_000_123_456));
        assert_eq!(
            (caller.id, caller.name.as_str(), caller.role),
            (7, "amira", Role::Player)
        );
    }

    #[test]
    fn tampered_foreign_and_unsigned_tokens_are_refused() {
        let keys = Keys::new("secret", Duration::from_secs(60));
        let token = keys.issue(&amira()).unwrap();
        let mut tampered = token.clone();
        tampered.pop();
        tampered.push(if token.ends_with('A') { 'B' } else { 'A' });
        assert!(keys.verify(&tampered).is_err());
        let other = Keys::new("another secret", Duration::from_secs(60));
        assert!(other.verify(&token).is_err());
        // alg "none": header {"alg":"none","typ":"JWT"}, same claims, no signature.
        let payload = token.split('.').nth(1).unwrap();
        let none = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.");
        assert!(keys.verify(&none).is_err());
        assert!(keys.verify("not a token").is_err());
    }
}
