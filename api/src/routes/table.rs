//! The handlers of what happens around a table besides the game: its chat, a rematch, one
//! person's mutes, and the admins' chat moderation.

use actix_web::{HttpResponse, delete, get, post, put, web};

use super::params::{GameId, Id};
use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::{Administering, Looking, Playing, Reading};
use crate::hub::Topic;
use crate::model::{
    ChatMessage, ChatPage, ChatQuery, ChatRequest, MuteList, Presets, RematchRequest, RematchState,
};
use crate::play::chat::{
    self, AdminChatList, AdminChatMessage, AdminChatQuery, MuteRequest, MutedUser,
};
use crate::play::rematch;
use crate::state::AppState;

/// The preset phrases of the table chat, in English and Arabic.
#[utoipa::path(
    operation_id = "get_chat_presets",tag = "chat", responses((status = 200, body = Presets)))]
#[get("/chat/presets")]
pub async fn presets(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(chat::presets(state.settings.chat_burst))
}

/// Say something at a table: in the players' room when seated, in the spectators' room when
/// watching a public game (neither reads the other while the game is played). Typed text is
/// 1–280 characters; or a preset phrase. Everyone reading the room gets it through the game's
/// events. At most `CARDROOM_CHAT_BURST` messages in any ten seconds a person.
#[utoipa::path(
    tag = "chat",
    params(("id" = i64, Path, description = "The game")),
    request_body = ChatRequest,
    responses(
        (status = 201, description = "The message as its readers get it", body = ChatMessage),
        (status = 403, description = "`forbidden` (not at this table, or another room than one's own), `muted` (by an admin)", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: empty, too long, control characters, unknown preset", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many messages; see Retry-After", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/chat")]
pub async fn post_chat(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    body: crate::input::Json<ChatRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let request = body.into_inner();
    let message = run(&state, move |conn, state| {
        chat::post(conn, &caller, id, request, state.settings.chat_burst)
    })
    .await?;
    state.hub.publish(Topic::Game(id));
    Ok(HttpResponse::Created().json(message))
}

/// A table's chat as the caller may read it: the latest 100 messages, or those after a cursor.
/// During a game, players read the players' room and spectators the spectators'; once it is
/// over, both. Messages of people the caller muted are left out.
#[utoipa::path(
    tag = "chat",
    params(("id" = i64, Path, description = "The game"), ChatQuery),
    responses(
        (status = 200, body = ChatPage),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = ["read"]))
)]
#[get("/games/{id}/chat")]
pub async fn get_chat(
    state: web::Data<AppState>,
    Looking(caller): Looking,
    id: web::Path<GameId>,
    query: web::Query<ChatQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let after = query.into_inner().after;
    let page = run_retrying(&state, move |conn, _| {
        chat::page(conn, caller.as_ref(), id, after)
    })
    .await?;
    Ok(HttpResponse::Ok().json(page))
}

/// Offer a rematch of a finished game, or accept the one offered (`accept`, the default), or
/// decline it (`accept: false`). When every person at the table has accepted, a new game with
/// the same options starts, every seat moved one place on; the finished game's events say
/// `rematch_started` with its id, and its view's `rematch.game_id` names it.
#[utoipa::path(
    operation_id = "rematch",
    tag = "games",
    params(("id" = i64, Path, description = "The finished game")),
    request_body = RematchRequest,
    responses(
        (status = 200, description = "The rematch now", body = RematchState),
        (status = 403, description = "`forbidden`: not a person at this table", body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_finished`, `no_rematch_offered` (to decline), `rematch_started` (to decline), `version_conflict`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a field of the wrong type, or one too many", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/rematch")]
pub async fn post_rematch(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    body: crate::input::Json<RematchRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let accept = body.into_inner().accept.unwrap_or(true);
    let state_now = run(&state, move |conn, state| {
        rematch::rematch(conn, &caller, id, accept, &state.metrics)
    })
    .await?;
    state.hub.publish(Topic::Game(id));
    if let Some(game) = state_now.game_id {
        state
            .hub
            .publish(Topic::Game(cardroom_db::GameId::new(game)));
    }
    Ok(HttpResponse::Ok().json(state_now))
}

/// The people whose chat the caller does not get.
#[utoipa::path(
    operation_id = "list_mutes",
    tag = "chat",
    responses((status = 200, body = MuteList), (status = 401, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["read"]))
)]
#[get("/mutes")]
pub async fn mutes(
    state: web::Data<AppState>,
    Reading(caller): Reading,
) -> Result<HttpResponse, ApiError> {
    let list = run_retrying(&state, move |conn, _| chat::mutes(conn, &caller)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Stop getting a person's chat, at every table (for the caller only).
#[utoipa::path(
    operation_id = "mute_player",
    tag = "chat",
    params(("name" = String, Path, description = "The person to mute")),
    responses(
        (status = 200, description = "Everyone the caller muted", body = MuteList),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`self_mute`: oneself", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a name no one can have (a NUL)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[put("/mutes/{name}")]
pub async fn mute(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let list = run(&state, move |conn, _| chat::mute(conn, &caller, &name)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Get a muted person's chat again.
#[utoipa::path(
    operation_id = "unmute_player",
    tag = "chat",
    params(("name" = String, Path, description = "The person muted")),
    responses(
        (status = 200, description = "Everyone the caller still mutes", body = MuteList),
        (status = 404, description = "`not_found`: no such person, or not muted", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a name no one can have (a NUL)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[delete("/mutes/{name}")]
pub async fn unmute(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let list = run(&state, move |conn, _| chat::unmute(conn, &caller, &name)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Chat messages of every table, newest first, hidden ones included.
#[utoipa::path(
    operation_id = "admin_list_chat",
    tag = "admin",
    params(AdminChatQuery),
    responses(
        (status = 200, body = AdminChatList),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[get("/admin/chat")]
pub async fn admin_chat(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    query: web::Query<AdminChatQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let list = run_retrying(&state, move |conn, _| {
        chat::admin_list(conn, &caller, &query)
    })
    .await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Hide a message from everyone: it is no longer delivered, and readers who have it get a
/// `chat_hidden` event to take it down. Hiding is final.
#[utoipa::path(
    operation_id = "admin_hide_message",
    tag = "admin",
    params(("id" = i64, Path, description = "The message")),
    responses(
        (status = 200, body = AdminChatMessage),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[post("/admin/chat/{id}/hide")]
pub async fn admin_hide(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    let message = run(&state, move |conn, _| chat::admin_hide(conn, &caller, id)).await?;
    state
        .hub
        .publish(Topic::Game(cardroom_db::GameId::new(message.game_id)));
    Ok(HttpResponse::Ok().json(message))
}

/// Mute a person in every chat (for a number of minutes, or until lifted), or lift the mute.
#[utoipa::path(
    tag = "admin",
    params(("name" = String, Path, description = "The person")),
    request_body = MuteRequest,
    responses(
        (status = 200, body = MutedUser),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`self_mute`: an admin cannot mute themselves", body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["admin"]))
)]
#[post("/admin/users/{name}/mute")]
pub async fn admin_mute(
    state: web::Data<AppState>,
    Administering(caller): Administering,
    name: web::Path<String>,
    body: crate::input::Json<MuteRequest>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let request = body.into_inner();
    let user = run(&state, move |conn, _| {
        chat::admin_mute(conn, &caller, &name, &request)
    })
    .await?;
    Ok(HttpResponse::Ok().json(user))
}
