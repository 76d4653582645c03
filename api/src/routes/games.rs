//! Games: the catalogue, creating and joining one, the caller's view of it and their games,
//! its score, log, export, analysis and events.

use std::time::Duration;

use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem, ProblemCode};
use crate::guards::{Looking, Playing, Reading};
use crate::hub::Topic;
use crate::input::IdempotencyKey;
use crate::model::{
    Catalogue, CreateGame, EventsPage, EventsQuery, GameCreated, GameList, GameView, Invitation,
    JoinRequest, KnownPresence, ListQuery, LogResponse, ScoreResponse,
};
use crate::play;
use crate::play::export::{self, Export};
use crate::state::AppState;

use super::params::{GameId, wants_stream};

/// Every game kind with its variants, seat counts, house-rule options (defaults and bounds),
/// computer-player levels and a short summary of the rules; and the bounds of turn timers.
#[utoipa::path(
    operation_id = "list_kinds",tag = "catalogue", responses((status = 200, body = Catalogue)))]
#[get("/games/kinds")]
pub async fn kinds() -> HttpResponse {
    HttpResponse::Ok().json(Catalogue {
        kinds: cardroom_core::catalogue(),
        turn: play::turn_bounds(),
    })
}

/// Create a game. The creator takes seat 0 (or `seat`); seats with `bot` are computer players;
/// the others are open to friends with the invite code. The first hand is dealt when every
/// seat is taken. `seed` or `deck` make a practice game. With an `Idempotency-Key`, a retried
/// request makes no second game: it is answered with the first one's, as it is then.
#[utoipa::path(
    tag = "games",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key and request answer with the game the first made"),
    ),
    request_body = CreateGame,
    responses(
        (status = 201, description = "The game, its invite code and the creator's view", body = GameCreated),
        (status = 400, description = "`validation_failed`: not JSON, or an Idempotency-Key of the wrong form", body = Problem, content_type = "application/problem+json"),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`idempotency_key_reused`: the key came with a different request", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: bad variant, seats, option, level, seed or deck", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    req: HttpRequest,
    body: crate::input::Json<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let key = match req.headers().get("Idempotency-Key") {
        None => None,
        Some(value) => {
            // (The request as a whole, under a name no move's request has: a key sent with a
            // move and then with a new game is a key used for a different request.)
            let canonical = serde_json::to_value(&request)
                .map_err(ApiError::because("a new game's request as JSON"))?;
            Some(IdempotencyKey::parse(
                value.as_bytes(),
                &serde_json::json!({ "create": canonical }),
            )?)
        }
    };
    let created: GameCreated = match key {
        // Made again while the database's hold lasts when it went away under the request (a
        // switchover): a first attempt that landed is found by its key and answered.
        Some(key) => {
            run_retrying(&state, move |conn, state| {
                play::create(conn, &caller, request.clone(), Some(&key), &state.metrics)
            })
            .await?
        }
        None => {
            run(&state, move |conn, state| {
                play::create(conn, &caller, request, None, &state.metrics)
            })
            .await?
        }
    };
    state
        .hub
        .publish(Topic::Game(cardroom_db::GameId::new(created.id)));
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/games/{}", created.id)))
        .json(created))
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
    security(("bearer" = ["read"]))
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let list = run_retrying(&state, move |conn, _| play::list(conn, &caller, &query)).await?;
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
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    body: crate::input::Json<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, request) = (id.into_inner().0, body.into_inner());
    // Made again while the database's hold lasts, when it went away under the join (a
    // switchover): an attempt that finds the caller seated is answered as the first would have
    // been, for that first attempt landed before the database went.
    let again = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let view = run_retrying(&state, move |conn, state| {
        let retry = again.swap(true, std::sync::atomic::Ordering::SeqCst);
        match play::join(conn, &caller, id, &request, &state.metrics) {
            Err(ApiError::Conflict {
                code: ProblemCode::AlreadySeated,
                ..
            }) if retry => play::view(conn, &caller, id),
            other => other,
        }
    })
    .await?;
    state.hub.publish(Topic::Game(id));
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
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    // A read: made again if the database went away under it, within the hold.
    let view = run_retrying(&state, move |conn, _| {
        play::view_for(conn, caller.as_ref(), id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// The code of an invitation to a table.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvitationCode {
    /// The table's invite code (its invite link carries it); a public table needs none.
    #[param(pattern = "^[a-z0-9]{1,32}$")]
    pub code: Option<String>,
}

/// An invitation, as the person invited reads it before sitting down (no token needed: they
/// may not have an account yet): the game, its variant and house rules, who invites, who sits
/// where, the sides (who would be a partner, who an opponent) and the seats still open.
#[utoipa::path(
    operation_id = "get_invitation",
    tag = "games",
    params(("id" = i64, Path, description = "The game"), InvitationCode),
    responses(
        (status = 200, body = Invitation),
        (status = 403, description = "`forbidden`: not the table's code", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}/invitation")]
pub async fn invitation(
    state: web::Data<AppState>,
    // (A credential, when sent, is checked like any other; none is needed.)
    Looking(_reader): Looking,
    id: web::Path<GameId>,
    query: web::Query<InvitationCode>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let code = query.into_inner().code;
    let invitation = run_retrying(&state, move |conn, _| {
        play::invitation(conn, id, code.as_deref())
    })
    .await?;
    Ok(HttpResponse::Ok().json(invitation))
}

/// The score sheet: every hand's scoring items per side, the running totals and the winner.
#[utoipa::path(
    operation_id = "get_score",
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ScoreResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`waiting_for_players`", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}/score")]
pub async fn score(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let sheet = run_retrying(&state, move |conn, _| {
        play::score(conn, caller.as_ref(), id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(sheet))
}

/// The move log as the caller may see it, with every deal's seed commitment and, once its hand
/// is over, its seed: everything `cardroom verify-deal` needs to check the deals. (A table of a
/// duplicate round gives no seed until every table of the round is over: they deal alike.)
#[utoipa::path(
    operation_id = "get_game_log",
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = LogResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["read"]))
)]
#[get("/games/{id}/log")]
pub async fn game_log(
    state: web::Data<AppState>,
    Reading(caller): Reading,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let log = run_retrying(&state, move |conn, _| play::log(conn, &caller, id)).await?;
    Ok(HttpResponse::Ok().json(log))
}

/// A finished game explained, decision by decision: Tarneeb's cards against perfect play with
/// every hand open (tricks before and after each card, the cards that kept them, each hand's
/// par), and Basra's, 31's and Rummy's decisions from the seat's own view: every legal move
/// valued on the same sampled deals of the unseen cards, in the game's unit (points, lives or
/// tokens), with each loss's 95% interval. Made in the background after the game ends:
/// `queued`, then `running` with its progress, then `done`. For the game's players, anyone for a
/// public game, and admins.
#[utoipa::path(
    operation_id = "get_game_analysis",
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = play::analysis::AnalysisResponse),
        (status = 401, description = "A game that is not public, asked without a token", body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_finished`; `board_in_play` (a duplicate round's table, until every table of the round is over)", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}/analysis")]
pub async fn game_analysis(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let analysis = run_retrying(&state, move |conn, _| {
        play::analysis::analysis(conn, caller.as_ref(), id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(analysis))
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
        (status = 409, description = "`game_not_finished`; `board_in_play` (a duplicate round's table, until every table of the round is over)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["read"]))
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
    let export = run_retrying(&state, move |conn, _| export::export(conn, &caller, id)).await?;
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

/// The presence a long-poll's caller shows (`known_connected`, `known_spectators`), either
/// part alone or both.
fn known_presence(
    connected: Option<&str>,
    spectators: Option<i64>,
) -> Result<Option<KnownPresence>, ApiError> {
    if connected.is_none() && spectators.is_none() {
        return Ok(None);
    }
    if spectators.is_some_and(|n| n < 0) {
        return Err(ApiError::Invalid(
            "known_spectators is a count, 0 or more".to_owned(),
        ));
    }
    let connected = match connected {
        None => None,
        Some(text) => {
            let mut seats = Vec::new();
            for part in text.split(',').filter(|p| !p.is_empty()) {
                match part.parse::<i64>() {
                    Ok(seat) if (0..8).contains(&seat) => seats.push(seat),
                    _ => {
                        return Err(ApiError::Invalid(
                            "known_connected is seats 0–7, comma-separated".to_owned(),
                        ));
                    }
                }
            }
            if seats.len() > 8 {
                return Err(ApiError::Invalid(
                    "known_connected names at most 8 seats".to_owned(),
                ));
            }
            seats.sort_unstable();
            seats.dedup();
            Some(seats)
        }
    };
    Ok(Some(KnownPresence {
        connected,
        spectators,
    }))
}

/// Events after a version: Server-Sent Events (`Accept: text/event-stream`), resumable with
/// `Last-Event-ID` or `after`, with heartbeats; or a JSON long-poll that answers at once when
/// there is news, otherwise when news arrives or `wait` seconds pass (at most the server's
/// limit). A move made through any replica reaches streams on every replica.
#[utoipa::path(
    operation_id = "game_events",
    tag = "games",
    params(
        ("id" = i64, Path, description = "The game"),
        EventsQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Resume a stream after this event id (`V`, or `V:C` with a chat cursor)"),
    ),
    responses(
        (status = 200, description = "A JSON page of events (with `chat_after`, the chat too) and who is at the table; or, with `Accept: text/event-stream`, an event stream: each event's `event:` is its type (game events, `chat`, `chat_hidden`, `presence`, `stream_end`), its `data:` an EventOut, and the last event of each version and each chat message has `id:` the version (and `:` the chat cursor, once there is one)", content(
            (EventsPage = "application/json"),
            (String = "text/event-stream"),
        )),
        (status = 400, description = "`invalid_cursor`: a Last-Event-ID that is not an id the stream sends", body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`cursor_ahead`: `after` or Last-Event-ID is a version the game has not reached", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`too_many_streams`: the account's limit of open streams on this server (`CARDROOM_MAX_STREAMS_PER_ACCOUNT`); see Retry-After", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`too_many_streams`: this server's stream limit", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<GameId>,
    query: web::Query<EventsQuery>,
    req: HttpRequest,
) -> Result<Either<impl actix_web::Responder, HttpResponse>, ApiError> {
    let id = id.into_inner().0;
    let last_event = super::params::last_event_id(
        &req,
        |text| {
            crate::streams::parse_event_id(text)
                .filter(|&(v, c)| v >= 0 && c.is_none_or(|c| c >= 0))
        },
        "Last-Event-ID is an id this stream sent: a version, or a version, `:` and a chat cursor",
    )?;
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
    let known = known_presence(query.known_connected.as_deref(), query.known_spectators)?;
    let reader = caller.clone();
    let (viewer, kind, version) = run_retrying(&state, move |conn, _| {
        let (viewer, kind) = play::authorize_reader(conn, reader.as_ref(), id)?;
        Ok((
            viewer,
            kind,
            cardroom_db::games::version(conn, id)?.unwrap_or(0),
        ))
    })
    .await?;
    // A resumption after a version that never was would wait for ever: refused.
    if after > version {
        return Err(super::params::cursor_ahead(format!(
            "the game is at version {version}, not yet {after}: resume after a version it \
             sent, or from 0"
        )));
    }
    if wants_stream(&req) {
        let chat = chat_after.map_or(play::ChatWanted::Latest, play::ChatWanted::After);
        // `X-Accel-Buffering: no` tells a proxy such as nginx to pass events on at once.
        return crate::streams::stream(state, id, caller, viewer, after, chat).map(|stream| {
            Either::Left(
                actix_web::Responder::customize(stream).insert_header(("X-Accel-Buffering", "no")),
            )
        });
    }
    let answer =
        crate::streams::long_poll(state, id, caller, viewer, after, chat_after, known, wait)
            .await?;
    Ok(Either::Right(
        HttpResponse::Ok().json(EventsPage { kind, answer }),
    ))
}
