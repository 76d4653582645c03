//! Tokens (JWT, HS256 only) and the authenticated caller.

use std::future::{Ready, ready};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::state::AppState;

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
    /// When the token expires (seconds since the epoch).
    pub expires_at: i64,
}

impl Caller {
    /// Whether the token has expired by now (with the same leeway as its first check): a stream
    /// opened with it must end.
    pub fn token_expired(&self) -> bool {
        chrono::Utc::now().timestamp() > self.expires_at + LEEWAY_SECS as i64
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
    pub fn issue(&self, id: i64, name: &str, role: &str) -> Result<String, ApiError> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: id.to_string(),
            name: name.to_owned(),
            role: role.to_owned(),
            aud: AUDIENCE.to_owned(),
            iss: ISSUER.to_owned(),
            iat: now,
            exp: now + self.ttl.as_secs() as i64,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| ApiError::Internal(format!("token signing failed: {e}")))
    }

    /// The caller a token names, if it is genuine, unexpired and for this service.
    pub fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        let invalid = || ApiError::Unauthorized("the token is invalid or expired".to_owned());
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| invalid())?;
        let claims = data.claims;
        Ok(Caller {
            id: claims.sub.parse().map_err(|_| invalid())?,
            name: claims.name,
            role: Role::parse(&claims.role).ok_or_else(invalid)?,
            expires_at: claims.exp,
        })
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Caller, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller_of(req))
    }
}

fn caller_of(req: &HttpRequest) -> Result<Caller, ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::Internal("application state missing".to_owned()))?;
    let value = req.headers().get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError::Unauthorized("this needs a token: Authorization: Bearer …".to_owned())
    })?;
    let text = value
        .to_str()
        .map_err(|_| ApiError::Unauthorized("the Authorization header is not text".to_owned()))?;
    let token = text
        .strip_prefix("Bearer ")
        .or_else(|| text.strip_prefix("bearer "))
        .ok_or_else(|| {
            ApiError::Unauthorized("the Authorization header must be Bearer <token>".to_owned())
        })?;
    let caller = state.keys.verify(token.trim())?;
    state.presence.request(caller.id);
    Ok(caller)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_caller_until_it_expires() {
        let keys = Keys::new("secret", Duration::from_secs(60));
        let token = keys.issue(7, "amira", "player").unwrap();
        let caller = keys.verify(&token).unwrap();
        assert_eq!(
            (caller.id, caller.name.as_str(), caller.role),
            (7, "amira", Role::Player)
        );
    }

    #[test]
    fn tampered_foreign_and_unsigned_tokens_are_refused() {
        let keys = Keys::new("secret", Duration::from_secs(60));
        let token = keys.issue(7, "amira", "player").unwrap();
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
