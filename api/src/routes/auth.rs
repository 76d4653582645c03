//! Accounts: playing as a guest, registering, logging in.

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::blocking::run;
use crate::error::{ApiError, Problem, ProblemCode};
use crate::model::{AuthResponse, Credentials, GuestRequest, UserInfo};
use crate::play;
use crate::state::AppState;

const NAME_RULES: &str =
    "a name is 3 to 32 letters (Latin or Arabic, not both), digits, `_`, `-` or `.`";

fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=32).contains(&name.chars().count()) && crate::input::spelled_as_name(name);
    if ok {
        Ok(())
    } else {
        Err(ApiError::Invalid(NAME_RULES.to_owned()))
    }
}

fn check_password(password: &str) -> Result<(), ApiError> {
    if (8..=128).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::Invalid(
            "a password is 8 to 128 characters".to_owned(),
        ))
    }
}

/// A name to log in with: any text that can be looked up (the first admin's name comes from the
/// configuration and need not follow [`NAME_RULES`]).
fn check_login_name(name: &str) -> Result<(), ApiError> {
    crate::input::text("name", name)?;
    if name.chars().count() > 128 {
        return Err(ApiError::Invalid(
            "a name is at most 128 characters".to_owned(),
        ));
    }
    Ok(())
}

fn name_taken(error: cardroom_db::DbError) -> ApiError {
    match error {
        cardroom_db::DbError::Duplicate(_) => ApiError::Conflict {
            code: ProblemCode::NameTaken,
            detail: "that name is taken".to_owned(),
        },
        other => other.into(),
    }
}

fn auth_response(
    state: &AppState,
    user: &cardroom_db::users::User,
) -> Result<AuthResponse, ApiError> {
    Ok(AuthResponse {
        token: state.keys.issue(user)?,
        user: UserInfo {
            id: user.id,
            name: user.name.clone(),
            role: user.role.clone(),
            guest: user.guest,
            bot: user.bot,
        },
    })
}

/// Play as a guest: an account with no password.
#[utoipa::path(
    operation_id = "sign_in_as_guest",
    tag = "auth",
    request_body = GuestRequest,
    responses(
        (status = 201, description = "The guest account and its token", body = AuthResponse),
        (status = 409, description = "`name_taken`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many sign-ins from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/guest")]
pub async fn guest(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: crate::input::Json<GuestRequest>,
) -> Result<HttpResponse, ApiError> {
    state.auth_limiter.check(&state.auth_limiter.client(&req))?;
    let name = body.into_inner().name;
    if let Some(name) = &name {
        check_name(name)?;
    }
    let response = run(&state, move |conn, state| {
        let user = match name {
            Some(name) => {
                cardroom_db::users::create(conn, &name, None, true).map_err(name_taken)?
            }
            None => {
                let mut made = None;
                for _ in 0..10 {
                    let name = format!("guest-{}", play::random_code(6));
                    match cardroom_db::users::create(conn, &name, None, true) {
                        Ok(user) => {
                            made = Some(user);
                            break;
                        }
                        Err(cardroom_db::DbError::Duplicate(_)) => continue,
                        Err(other) => return Err(other.into()),
                    }
                }
                made.ok_or_else(|| ApiError::internal("no free guest name in ten tries"))?
            }
        };
        auth_response(state, &user)
    })
    .await?;
    Ok(HttpResponse::Created().json(response))
}

/// Register an account with a password.
#[utoipa::path(
    tag = "auth",
    request_body = Credentials,
    responses(
        (status = 201, description = "The new account and its token", body = AuthResponse),
        (status = 409, description = "`name_taken`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many sign-ins from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/register")]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: crate::input::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    state.auth_limiter.check(&state.auth_limiter.client(&req))?;
    let Credentials { name, password } = body.into_inner();
    check_name(&name)?;
    check_password(&password)?;
    let hash = state.passwords.hash(password).await?;
    let response = run(&state, move |conn, state| {
        let user =
            cardroom_db::users::create(conn, &name, Some(&hash), false).map_err(name_taken)?;
        auth_response(state, &user)
    })
    .await?;
    Ok(HttpResponse::Created().json(response))
}

/// Log in with a name and password.
#[utoipa::path(
    tag = "auth",
    request_body = Credentials,
    responses(
        (status = 200, description = "A fresh token", body = AuthResponse),
        (status = 401, description = "`unauthorized`: wrong name or password", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a field is missing or of the wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many sign-ins from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/login")]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: crate::input::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    state.auth_limiter.check(&state.auth_limiter.client(&req))?;
    let Credentials { name, password } = body.into_inner();
    check_login_name(&name)?;
    let user = run(&state, move |conn, _| {
        Ok(cardroom_db::users::by_name(conn, &name)?)
    })
    .await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let has_password = stored.is_some();
    let matches = state.passwords.verify(password, stored).await?;
    match user {
        Some(user) if matches && has_password => {
            Ok(HttpResponse::Ok().json(auth_response(&state, &user)?))
        }
        _ => Err(ApiError::Unauthorized("wrong name or password".to_owned())),
    }
}
