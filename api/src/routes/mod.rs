//! The HTTP handlers. Each does four things: extract, authorise, make one call, map the result.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};
use cardroom_db::AnyConnection;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use crate::auth::{Administering, Caller, Playing, Reading};
use crate::error::{ApiError, Problem};
use crate::model::{
    ActionResponse, AuthResponse, Catalogue, CreateGame, Credentials, EventsQuery, EventsResponse,
    GameCreated, GameList, GameView, GuestRequest, Health, JoinRequest, ListQuery, Lobby,
    LobbyQuery, LogResponse, MoveRequest, ScoreResponse, Seek, SeekQuery, SeekRequest, UserInfo,
};

pub mod account;
pub mod challenges;
pub mod table;
use crate::play::admin::{
    self, AdminGame, AdminGameList, AdminGamesQuery, Replay, RoleRequest, Stats, StatsParams,
};
use crate::play::export::{self, Export};
use crate::play::players::{self, Leaderboard, LeaderboardQuery, Profile};
use crate::play::{self, Action};
use crate::state::AppState;

/// A game's id in a path: digits only (a sign, a space or a fraction names no game).
#[derive(Clone, Copy, Debug)]
pub struct GameId(pub i64);

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(serde::de::Error::custom("a game id is digits only"));
        }
        text.parse()
            .map(GameId)
            .map_err(|_| serde::de::Error::custom("no game has so large an id"))
    }
}

/// Runs storage work off the async workers, with a pooled connection, in the request's span.
pub async fn run<T: Send + 'static>(
    state: &web::Data<AppState>,
    work: impl FnOnce(&mut AnyConnection, &AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run_within(state, state.settings.db_timeout, work).await
}

/// [`run`], waiting at most `wait` for a connection (less while the database is known to be
/// down: then at once).
pub async fn run_within<T: Send + 'static>(
    state: &web::Data<AppState>,
    wait: Duration,
    work: impl FnOnce(&mut AnyConnection, &AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = state.clone();
    let span = tracing::Span::current();
    web::block(move || {
        let _entered = span.enter();
        let mut conn = cardroom_db::checkout(&state.pool, &state.db_health, wait)?;
        let result = work(&mut conn, &state);
        // Accounts that got events: wake their streams here (other replicas hear the
        // database's notice).
        for account in cardroom_db::account_events::take_woken() {
            state.hub.publish_account(account);
        }
        if let Err(ApiError::Unavailable) = result {
            // The server may have gone away: close this connection rather than offer it again.
            conn.mark_failed();
        }
        result
    })
    .await?
}

fn json_body(status: u16, body: String) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap_or_default())
        .content_type("application/json")
        .body(body)
}

// ---------------------------------------------------------------------------------------------
// Auth.

const NAME_RULES: &str = "a name is 3 to 32 letters, digits, `_`, `-` or `.`";

fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
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
            code: "name_taken",
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
        token: state.keys.issue(user.id, &user.name, &user.role)?,
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
                made.ok_or_else(|| {
                    ApiError::Internal("no free guest name in ten tries".to_owned())
                })?
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

// ---------------------------------------------------------------------------------------------
// Catalogue.

/// Every game kind with its variants, seat counts, house-rule options (defaults and bounds),
/// computer-player levels and a short summary of the rules; and the bounds of turn timers.
#[utoipa::path(tag = "catalogue", responses((status = 200, body = Catalogue)))]
#[get("/games/kinds")]
pub async fn kinds() -> HttpResponse {
    HttpResponse::Ok().json(Catalogue {
        kinds: cardroom_core::catalogue(),
        turn: play::turn_bounds(),
    })
}

// ---------------------------------------------------------------------------------------------
// Games.

/// Create a game. The creator takes seat 0 (or `seat`); seats with `bot` are computer players;
/// the others are open to friends with the invite code. The first hand is dealt when every
/// seat is taken. `seed` or `deck` make a practice game.
#[utoipa::path(
    tag = "games",
    request_body = CreateGame,
    responses(
        (status = 201, description = "The game, its invite code and the creator's view", body = GameCreated),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: bad variant, seats, option, level, seed or deck", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    body: crate::input::Json<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let created: GameCreated = run(&state, move |conn, state| {
        play::create(conn, &caller, request, &state.metrics)
    })
    .await?;
    state.hub.publish(Some(created.id));
    Ok(HttpResponse::Created().json(created))
}

/// The caller's games, newest first.
#[utoipa::path(
    tag = "games",
    params(ListQuery),
    responses(
        (status = 200, body = GameList),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let list = run(&state, move |conn, _| play::list(conn, &caller, &query)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Take a seat with the invite code.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    request_body = JoinRequest,
    responses(
        (status = 200, description = "The joiner's view", body = GameView),
        (status = 403, description = "`forbidden`: wrong invite code", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`already_seated`, `game_full`, `seat_taken`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a field is missing, of the wrong type, or names no seat", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    body: crate::input::Json<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, request) = (id.into_inner().0, body.into_inner());
    let view = run(&state, move |conn, state| {
        play::join(conn, &caller, id, &request, &state.metrics)
    })
    .await?;
    state.hub.publish(Some(id));
    Ok(HttpResponse::Ok().json(view))
}

/// The caller's view of a game: only what their seat may see, with their legal moves.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = GameView),
        (status = 403, description = "`forbidden`: not seated at this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let view = run(&state, move |conn, _| play::view(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// The pattern of an Idempotency-Key, as the OpenAPI document states it.
pub const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]{1,200}$";

fn is_idempotency_key(key: &str) -> bool {
    (1..=200).contains(&key.len()) && key.bytes().all(|b| (b'!'..=b'~').contains(&b))
}

fn idempotency_key(
    req: &HttpRequest,
    body: &MoveRequest,
) -> Result<Option<(String, String)>, ApiError> {
    let Some(value) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let key = value
        .to_str()
        .ok()
        .filter(|k| is_idempotency_key(k))
        .ok_or_else(|| {
            ApiError::BadRequest(
                "an Idempotency-Key is 1 to 200 visible ASCII characters, without spaces"
                    .to_owned(),
            )
        })?;
    let request = serde_json::json!({"expected_version": body.expected_version, "move": body.mv});
    let hash = Sha256::digest(request.to_string().as_bytes());
    let hash: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    Ok(Some((key.to_owned(), hash)))
}

/// Make a move. Computer players whose turn follows answer at once; their moves come back as
/// events. With an `Idempotency-Key`, a retried request returns the first answer and applies
/// nothing twice.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = i64, Path, description = "The game"),
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key returns the first answer"),
    ),
    request_body = MoveRequest,
    responses(
        (status = 200, description = "What happened and the caller's new view", body = ActionResponse),
        (status = 400, description = "`validation_failed`: not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_your_turn`, `version_conflict` (with `current_version`), `game_over`, `hand_over`, `waiting_for_players`, `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`illegal_move` (with the reason and `legal_moves`) or `validation_failed`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/moves")]
pub async fn make_move(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    req: HttpRequest,
    body: crate::input::Json<MoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let idempotency = idempotency_key(&req, &body)?;
    let action = Action::Move {
        expected_version: body.expected_version,
        mv: body.mv,
        idempotency,
    };
    act(state, caller, id.into_inner().0, action).await
}

async fn act(
    state: web::Data<AppState>,
    caller: Caller,
    id: i64,
    action: Action,
) -> Result<HttpResponse, ApiError> {
    let (status, body) = run(&state, move |conn, state| {
        play::act(conn, &caller, id, action, &state.metrics)
    })
    .await?;
    state.hub.publish(Some(id));
    Ok(json_body(status, body))
}

/// Deal the next hand when a hand is over (any seated player).
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`hand_not_over`, `game_over`, `waiting_for_players`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/deal")]
pub async fn deal(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    act(state, caller, id.into_inner().0, Action::Deal).await
}

/// Leave the game: with two sides the caller's side loses; with more, a computer player takes
/// the seat. Before the game starts, resigning abandons it.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_over`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    act(state, caller, id.into_inner().0, Action::Resign).await
}

/// Take back a seat a computer player took over after the caller's timeouts in a row: from
/// the next turn on the caller plays it again.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_away`, `game_over`, `waiting_for_players`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/reclaim")]
pub async fn reclaim(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    act(state, caller, id.into_inner().0, Action::Reclaim).await
}

/// The score sheet: every hand's scoring items per side, the running totals and the winner.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ScoreResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`waiting_for_players`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/score")]
pub async fn score(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let sheet = run(&state, move |conn, _| play::score(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(sheet))
}

/// The move log as the caller may see it, with every deal's seed commitment and, once its hand
/// is over, its seed: everything `cardroom verify-deal` needs to check the deals.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = LogResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/log")]
pub async fn game_log(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let log = run(&state, move |conn, _| play::log(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(log))
}

/// Query of `GET /games/{id}/export`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `json` (the default) or `text` (the notation of `docs/notation.md`).
    #[param(inline)]
    pub format: Option<ExportFormat>,
}

/// An export's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Json,
    Text,
}

/// A finished game, whole, for its players and admins: options, seats, the game's seed, every
/// deal's commitment and seed, the full log with every event, each seat's cards in each hand,
/// and the result with the final state's digest. `cardroom import` replays it.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game"), ExportQuery),
    responses(
        (status = 200, description = "The export: JSON (`format=json`, the default), or the text notation (`format=text`)", content(
            (Export = "application/json"),
            (String = "text/plain"),
        )),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_finished`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/export")]
pub async fn export_game(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let text = query.format == Some(ExportFormat::Text);
    let export = run(&state, move |conn, _| export::export(conn, &caller, id)).await?;
    let disposition = format!(
        "attachment; filename=\"cardroom-{id}.{}\"",
        if text { "txt" } else { "json" }
    );
    let mut response = HttpResponse::Ok();
    response.insert_header(("Content-Disposition", disposition));
    Ok(if text {
        response
            .content_type("text/plain; charset=utf-8")
            .body(export::to_text(&export))
    } else {
        response.json(export)
    })
}

/// Events after a version: Server-Sent Events (`Accept: text/event-stream`), resumable with
/// `Last-Event-ID` or `after`, with heartbeats; or a JSON long-poll that answers at once when
/// there is news, otherwise when news arrives or `wait` seconds pass (at most the server's
/// limit). A move made through any replica reaches streams on every replica.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = i64, Path, description = "The game"),
        EventsQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Resume a stream after this event id (`V`, or `V:C` with a chat cursor)"),
    ),
    responses(
        (status = 200, description = "A JSON page of events (with `chat_after`, the chat too) and who is at the table; or, with `Accept: text/event-stream`, an event stream: each event's `event:` is its type (game events, `chat`, `chat_hidden`, `presence`, `stream_end`), its `data:` an EventOut, and the last event of each version and each chat message has `id:` the version (and `:` the chat cursor, once there is one)", content(
            (EventsResponse = "application/json"),
            (String = "text/event-stream"),
        )),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`too_many_streams`: the account's limit of open streams on this server (`CARDROOM_MAX_STREAMS_PER_ACCOUNT`); see Retry-After", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`too_many_streams`: this server's stream limit", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
    query: web::Query<EventsQuery>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let id = id.into_inner().0;
    let last_event = req
        .headers()
        .get("Last-Event-ID")
        .and_then(|v| v.to_str().ok())
        .and_then(crate::live::parse_event_id);
    let after = query.after.or(last_event.map(|(v, _)| v)).unwrap_or(0);
    if after < 0 {
        return Err(ApiError::Invalid(
            "after is a version, 0 or more".to_owned(),
        ));
    }
    let chat_after = query.chat_after.or(last_event.and_then(|(_, c)| c));
    if chat_after.is_some_and(|c| c < 0) {
        return Err(ApiError::Invalid(
            "chat_after is a chat cursor, 0 or more".to_owned(),
        ));
    }
    let limit = state.settings.long_poll;
    let wait = match query.wait {
        None => limit,
        Some(seconds) if seconds >= 0 => Duration::from_secs(seconds as u64).min(limit),
        Some(_) => {
            return Err(ApiError::Invalid(
                "wait is a number of seconds, 0 or more".to_owned(),
            ));
        }
    };
    let reader = caller.clone();
    let viewer = run(&state, move |conn, _| {
        play::authorize_reader(conn, &reader, id)
    })
    .await?;
    if wants_stream(&req) {
        let chat = chat_after.map_or(play::ChatWanted::Latest, play::ChatWanted::After);
        // `X-Accel-Buffering: no` tells a proxy such as nginx to pass events on at once.
        return crate::live::stream(state, id, caller, viewer, after, chat).map(|stream| {
            Either::Left(
                actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
            )
        });
    }
    let answer = crate::live::long_poll(state, id, caller, viewer, after, chat_after, wait).await?;
    Ok(Either::Right(HttpResponse::Ok().json(answer)))
}

/// The lobby: public tables waiting for players, the longest-waiting first, optionally of one
/// game and variant. Sit down with `POST /games/{id}/join` (no invite code at a public table);
/// a table nobody fills is closed after `expires_after_seconds`. With `Accept:
/// text/event-stream` it is a Server-Sent Events stream instead: an `event: lobby` whose data is
/// this same listing, at once and whenever it changes on any replica.
#[utoipa::path(
    tag = "games",
    params(LobbyQuery),
    responses(
        (status = 200, body = Lobby),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/lobby")]
pub async fn lobby(
    state: web::Data<AppState>,
    query: web::Query<LobbyQuery>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let query = query.into_inner();
    if wants_stream(&req) {
        return crate::live::lobby_stream(state, query).map(|stream| {
            Either::Left(
                actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
            )
        });
    }
    let lobby = run(&state, move |conn, state| {
        play::lobby(conn, &query, state.settings.open_table_expiry)
    })
    .await?;
    Ok(Either::Right(HttpResponse::Ok().json(lobby)))
}

/// Quick match: ask for a game of this kind, variant, seat count and house rules. Compatible
/// seekers (by rating, for a rated game) are seated together in one new public game; the answer
/// says `matched` with the `game_id` at once when others were waiting, otherwise `open`: ask
/// after it with `GET /seeks/{id}?wait=S` (a seek nobody asks after for
/// `CARDROOM_SEEK_TIMEOUT_SECS` expires). One open seek an account.
#[utoipa::path(
    tag = "games",
    request_body = SeekRequest,
    responses(
        (status = 201, body = Seek),
        (status = 409, description = "`already_seeking`: the account has an open seek", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: no such variant, seat count or house rule", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/seeks")]
pub async fn create_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    body: crate::input::Json<SeekRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let seek = run(&state, move |conn, state| {
        play::seeks::create(conn, &caller, &request, &state.metrics)
    })
    .await?;
    if let Some(game) = seek.game_id {
        state.hub.publish(Some(game));
    }
    Ok(HttpResponse::Created().json(seek))
}

/// The caller's seek: at once, or (with `wait`) when it is matched, cancelled or expired, or
/// `wait` seconds pass. Asking keeps it open; while it waits the pairing is tried again.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The seek"), SeekQuery),
    responses(
        (status = 200, body = Seek),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/seeks/{id}")]
pub async fn get_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    query: web::Query<SeekQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let wait = match query.wait {
        None => Duration::ZERO,
        Some(seconds) if seconds >= 0 => {
            Duration::from_secs(seconds as u64).min(state.settings.long_poll)
        }
        Some(_) => {
            return Err(ApiError::Invalid(
                "wait is a number of seconds, 0 or more".to_owned(),
            ));
        }
    };
    let seek = crate::live::seek_long_poll(state, caller, id, wait).await?;
    Ok(HttpResponse::Ok().json(seek))
}

/// Cancels the caller's open seek.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The seek")),
    responses(
        (status = 200, body = Seek),
        (status = 409, description = "`seek_closed`: already matched, cancelled or expired", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/seeks/{id}/cancel")]
pub async fn cancel_seek(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let seek = run(&state, move |conn, _| {
        play::seeks::cancel(conn, &caller, id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(seek))
}

/// Whether the request asks for Server-Sent Events.
pub(crate) fn wants_stream(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"))
}

// ---------------------------------------------------------------------------------------------
// Operations.

/// The longest `/readyz` waits for a connection.
const READY_WAIT: Duration = Duration::from_millis(800);

/// The process is up.
#[utoipa::path(tag = "operations", responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".to_owned(),
    })
}

/// The database answers.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, body = Health),
        (status = 503, description = "`unavailable`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    // Within a second, whatever the pool's timeout: health checks give up after a few.
    let wait = state.settings.db_timeout.min(READY_WAIT);
    run_within(&state, wait, |conn, _| {
        cardroom_db::check(conn).map_err(ApiError::from)
    })
    .await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".to_owned(),
    }))
}

/// Counters in the Prometheus text format.
#[utoipa::path(tag = "operations", responses((status = 200, content_type = "text/plain", body = String)))]
#[get("/metrics")]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    // Games by status come from the database; while it is unreachable the rest still renders.
    let games = run_within(&state, READY_WAIT, |conn, _| {
        cardroom_db::admin::games_by_status(conn).map_err(ApiError::from)
    })
    .await
    .ok();
    let pool = state.pool.state();
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; version=0.0.4"))
        .body(
            state
                .metrics
                .render(pool.connections, pool.idle_connections, games.as_deref()),
        )
}

// ---------------------------------------------------------------------------------------------
// Players: public.

/// A player's profile: finished games and win rates per game, Glicko-2 ratings (against people
/// and against computers) with their history, and recent games.
#[utoipa::path(
    tag = "players",
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, body = Profile))
)]
#[get("/players/{name}")]
pub async fn player(
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let profile = run(&state, move |conn, _| players::profile(conn, &name)).await?;
    Ok(HttpResponse::Ok().json(profile))
}

/// A game kind's leaderboard of rated players, in one pool (against people, or against
/// computers).
#[utoipa::path(
    tag = "players",
    params(("kind" = String, Path, description = "The game kind"), LeaderboardQuery),
    responses(
        (status = 200, body = Leaderboard),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/leaderboards/{kind}")]
pub async fn leaderboard(
    state: web::Data<AppState>,
    kind: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = kind.into_inner();
    let query = query.into_inner();
    let board = run(&state, move |conn, _| {
        players::leaderboard(conn, &kind, &query)
    })
    .await?;
    Ok(HttpResponse::Ok().json(board))
}

// ---------------------------------------------------------------------------------------------
// Admin: only the `admin` role (403 `forbidden` for anyone else).

/// Every game, newest first, with filters.
#[utoipa::path(
    tag = "admin",
    params(AdminGamesQuery),
    responses(
        (status = 200, body = AdminGameList),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/admin/games")]
pub async fn admin_games(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    query: web::Query<AdminGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let list = run(&state, move |conn, _| admin::list(conn, &caller, &query)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Any game whole and unredacted: every hand, the stock, the full log, every seed.
#[utoipa::path(
    tag = "admin",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = AdminGame),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/admin/games/{id}")]
pub async fn admin_game(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let game = run(&state, move |conn, _| admin::game(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(game))
}

/// The game replayed from its seed and log: after every entry, every seat's hand and the
/// public table.
#[utoipa::path(
    tag = "admin",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = Replay),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/admin/games/{id}/replay")]
pub async fn admin_replay(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let replay = run(&state, move |conn, _| admin::replay(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(replay))
}

/// The dashboard's aggregates over a range of days (default the last 30), for one kind or all.
#[utoipa::path(
    tag = "admin",
    params(StatsParams),
    responses(
        (status = 200, body = Stats),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/admin/stats")]
pub async fn admin_stats(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    query: web::Query<StatsParams>,
) -> Result<HttpResponse, ApiError> {
    let params = query.into_inner();
    let stats = run(&state, move |conn, _| admin::stats(conn, &caller, &params)).await?;
    Ok(HttpResponse::Ok().json(stats))
}

/// Makes a user an admin (or a player again).
#[utoipa::path(
    tag = "admin",
    params(("name" = String, Path, description = "The user's name")),
    request_body = RoleRequest,
    responses(
        (status = 200, body = UserInfo),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`last_admin_guard`: an admin cannot demote themselves", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/admin/users/{name}/role")]
pub async fn admin_set_role(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    name: web::Path<String>,
    body: crate::input::Json<RoleRequest>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let request = body.into_inner();
    let user = run(&state, move |conn, _| {
        admin::set_role(conn, &caller, &name, &request)
    })
    .await?;
    Ok(HttpResponse::Ok().json(user))
}
