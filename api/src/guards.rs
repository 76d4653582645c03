//! What stands before a handler: the caller read from the request (a session token checked by
//! its signature, a personal API token looked up before the handler runs), the scope a
//! handler needs, and the limit on writes. Handlers take the extractors; the middleware is
//! wrapped around every route at start.

use std::future::{Ready, ready};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use sha2::{Digest, Sha256};

use crate::auth::{Caller, Credential, Scope};
use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, ProblemCode};
use crate::state::AppState;
use crate::tokens;

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Caller, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller_of(req))
    }
}

/// What [`check_credentials`] found of a request's personal API token: its caller, or none when
/// the token is unknown, revoked or malformed.
#[derive(Clone, Debug)]
struct TokenChecked(Option<Caller>);

/// What [`check_credentials`] found of a request's session token: its caller, when its
/// signature and expiry hold (checked once a request, not again by the extractor).
#[derive(Clone, Debug)]
struct SessionChecked(Option<Caller>);

/// [`check_credentials`] found that the account a session token names does not exist.
#[derive(Clone, Copy, Debug)]
struct AccountGone;

fn caller_of(req: &HttpRequest) -> Result<Caller, ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal("application state missing"))?;
    let bearer = bearer(req)?;
    let caller = if bearer.starts_with(tokens::PREFIX) {
        req.extensions()
            .get::<TokenChecked>()
            .and_then(|checked| checked.0.clone())
            .ok_or_else(|| ApiError::Unauthorized("the token is invalid or revoked".to_owned()))?
    } else {
        let checked = req
            .extensions()
            .get::<SessionChecked>()
            .and_then(|checked| checked.0.clone());
        // (A token that did not verify there is verified again for its error.)
        let caller = match checked {
            Some(caller) => caller,
            None => state.keys.verify(&bearer)?,
        };
        if req.extensions().get::<AccountGone>().is_some() {
            return Err(ApiError::Unauthorized(
                "the account this token names no longer exists: sign in again".to_owned(),
            ));
        }
        caller
    };
    state.presence.request(caller.id);
    Ok(caller)
}

/// Looks a personal API token up before the request's handler (and its extractors) run, so
/// that a refused credential is refused before anything else is read; and the account of a
/// valid session token (whose signature the extractor checks, with no database), the first time
/// this process meets it: a token naming an account the database does not have is refused on
/// every operation.
pub async fn check_credentials(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let token = bearer(req.request()).ok();
    if let (Some(token), Some(state)) = (token, req.app_data::<web::Data<AppState>>().cloned()) {
        if token.starts_with(tokens::PREFIX) {
            match token_caller(&state, token).await {
                Ok((caller, bot)) => {
                    // A bot account's token: its writes count against the bots' own limit.
                    if bot && let Some(key) = credential_key(req.request()) {
                        state.bot_credentials.insert(key);
                    }
                    req.extensions_mut().insert(TokenChecked(Some(caller)));
                }
                Err(ApiError::Unauthorized(_)) => {
                    req.extensions_mut().insert(TokenChecked(None));
                }
                Err(other) => return Ok(req.error_response(other)),
            }
        } else if let Some((caller, stamp)) = verified_session(&req, &state, &token)
            && !state.known_accounts.contains(&(caller.id, stamp))
        {
            let id = caller.id;
            match run(&state, move |conn, _| {
                Ok(cardroom_db::users::by_id(conn, id)?)
            })
            .await
            {
                // The account, and (for a token that says) the very one the token was signed
                // for: an id a restored database gave to another account is not it.
                Ok(Some(user))
                    if stamp.is_none_or(|stamp| stamp == crate::auth::account_stamp(&user)) =>
                {
                    state.known_accounts.insert((id, stamp))
                }
                Ok(_) => {
                    req.extensions_mut().insert(AccountGone);
                }
                // (The database cannot say now: the request goes on and meets it itself.)
                Err(_) => {}
            }
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// The caller a session token names when it verifies, kept with the request for its extractor.
fn verified_session(
    req: &ServiceRequest,
    state: &AppState,
    token: &str,
) -> Option<(Caller, Option<i64>)> {
    let verified = state.keys.verify_account(token).ok();
    req.extensions_mut()
        .insert(SessionChecked(verified.as_ref().map(|(c, _)| c.clone())));
    verified
}

/// The caller a personal API token names, if it is live (a token of the wrong shape is refused
/// without a look at the database).
async fn token_caller(
    state: &web::Data<AppState>,
    token: String,
) -> Result<(Caller, bool), ApiError> {
    let invalid = || ApiError::Unauthorized("the token is invalid or revoked".to_owned());
    let public = tokens::public_id(&token).ok_or_else(invalid)?.to_owned();
    let found = run_retrying(state, move |conn, _| {
        tokens::live_caller(conn, &public, &token)
    })
    .await?;
    found.ok_or_else(invalid)
}

/// The bearer token of a request.
fn bearer(req: &HttpRequest) -> Result<String, ApiError> {
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
    Ok(token.trim().to_owned())
}

/// Declares an extractor for a caller whose credential has a scope: the handler takes it
/// instead of [`Caller`], and a credential without the scope is refused with
/// `403 insufficient_scope` before the handler runs.
macro_rules! scoped {
    ($(#[$doc:meta])* $name:ident, $scope:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name(pub Caller);

        impl FromRequest for $name {
            type Error = ApiError;
            type Future = Ready<Result<$name, ApiError>>;

            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                ready(caller_of(req).and_then(|caller| {
                    caller.require($scope)?;
                    Ok($name(caller))
                }))
            }
        }
    };
}

scoped!(
    /// A caller who may play (scope `play`).
    Playing,
    Scope::Play
);
scoped!(
    /// A caller who may read (scope `read`).
    Reading,
    Scope::Read
);
scoped!(
    /// A caller who may challenge (scope `challenge`).
    Challenging,
    Scope::Challenge
);
scoped!(
    /// A caller who may use the admin endpoints' credential-wise (scope `admin`; the account's
    /// stored role is checked by the use case).
    Administering,
    Scope::Admin
);

/// A reader of something public: a caller who may read (scope `read`), or nobody — a request
/// with no `Authorization` header at all, a stranger who opened a link. A credential that is
/// sent is checked as always: a bad or revoked one is refused, never read as a stranger's.
#[derive(Clone, Debug)]
pub struct Looking(pub Option<Caller>);

impl FromRequest for Looking {
    type Error = ApiError;
    type Future = Ready<Result<Looking, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        if !req.headers().contains_key(header::AUTHORIZATION) {
            return ready(Ok(Looking(None)));
        }
        ready(caller_of(req).and_then(|caller| {
            caller.require(Scope::Read)?;
            Ok(Looking(Some(caller)))
        }))
    }
}

/// A caller signed in with a session token, not a personal API token: managing tokens and the
/// account itself needs one, so a token that leaks cannot mint others.
#[derive(Clone, Debug)]
pub struct Session(pub Caller);

impl FromRequest for Session {
    type Error = ApiError;
    type Future = Ready<Result<Session, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller_of(req).and_then(|caller| {
            if caller.credential != Credential::Session {
                return Err(ApiError::Denied {
                    code: ProblemCode::SessionRequired,
                    detail: "this needs the token from signing in, not a personal API token"
                        .to_owned(),
                });
            }
            Ok(Session(caller))
        }))
    }
}

/// The key a credential counts under: a digest of its `Authorization` header (never the secret
/// itself).
fn credential_key(req: &HttpRequest) -> Option<String> {
    let credential = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())?;
    let digest = Sha256::digest(credential.as_bytes());
    Some(digest.iter().take(12).map(|b| format!("{b:02x}")).collect())
}

/// The account a request's credential names, as [`check_credentials`] found it (none: no
/// credential, or one that does not verify).
fn account_of(req: &ServiceRequest) -> Option<i64> {
    let extensions = req.extensions();
    let token = extensions
        .get::<TokenChecked>()
        .and_then(|checked| checked.0.as_ref().map(|c| c.id));
    token.or_else(|| {
        extensions
            .get::<SessionChecked>()
            .and_then(|checked| checked.0.as_ref().map(|c| c.id))
    })
}

/// Counts every write but signing in (which has its own limit) against the `writes` limit of
/// its account — one budget shared by its sessions and all its personal tokens — (or of the
/// credential, when it names no account, or the address, without one), and says where it
/// stands in `RateLimit-Policy` and `RateLimit`; over the limit, `429 rate_limited` with
/// `Retry-After` and the limit's name.
pub async fn limit_writes(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let write = matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::DELETE | Method::PATCH
    ) && req.path().starts_with("/api/v1/")
        && !req.path().starts_with("/api/v1/auth/");
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let Some(state) = state.filter(|_| write) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    // An account counts as itself, however many tokens it holds; a credential that names none
    // as itself (its digest: the key must not hold a secret); no credential, as its address.
    // A bot account's tokens have a limit of their own.
    let credential = credential_key(req.request());
    let bot = credential
        .as_deref()
        .is_some_and(|key| state.bot_credentials.contains(key));
    let (limiter, key) = match (account_of(&req), credential) {
        (Some(account), _) if bot => (&state.bot_write_limiter, format!("account {account}")),
        (Some(account), _) => (&state.write_limiter, format!("account {account}")),
        (None, Some(key)) => (&state.write_limiter, key),
        (None, None) => (
            &state.write_limiter,
            state.write_limiter.client(req.request()),
        ),
    };
    if !limiter.is_on() {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let policy = HeaderValue::from_str(&limiter.policy()).ok();
    let (mut response, quota) = match limiter.take(&key) {
        Ok(quota) => (next.call(req).await?.map_into_boxed_body(), quota),
        // (Refused: `Retry-After` says when one more write may come; `RateLimit`'s `t`, as on
        // every answer, when the bucket is full again.)
        Err(refused) => (req.error_response(refused), limiter.standing(&key)),
    };
    let headers = response.headers_mut();
    if let Some(policy) = policy {
        headers.insert(header::HeaderName::from_static("ratelimit-policy"), policy);
    }
    if let Ok(state) = HeaderValue::from_str(&limiter.state(quota)) {
        headers.insert(header::HeaderName::from_static("ratelimit"), state);
    }
    Ok(response)
}
