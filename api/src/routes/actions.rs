//! What a seat does at a game: a move (safely retried with an `Idempotency-Key`), the next
//! deal, resigning, and reclaiming a seat a computer player took over.

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::blocking::{run, run_retrying};
use crate::error::{ApiError, Problem};
use crate::guards::Playing;
use crate::hub::Topic;
use crate::input::{IdempotencyKey, ParsedMove};
use crate::model::{ActionResponse, MoveRequest};
use crate::play::{self, Acted, MoveAnswer, MoveOrder};
use crate::state::AppState;

use super::params::{GameId, json_body};

/// The request's `Idempotency-Key`, if it sent one, for a move request `body`.
fn idempotency_key(
    req: &HttpRequest,
    body: &MoveRequest,
) -> Result<Option<IdempotencyKey>, ApiError> {
    let Some(value) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let request = serde_json::json!({"expected_version": body.expected_version, "move": body.mv});
    IdempotencyKey::parse(value.as_bytes(), &request).map(Some)
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
    security(("bearer" = ["play"]))
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
    let order = MoveOrder {
        expected_version: body.expected_version,
        mv: ParsedMove::parse(body.kind, &body.mv),
        idempotency,
    };
    let id = id.into_inner().0;
    let keyed = order.idempotency.is_some();
    let work = move |conn: &mut cardroom_db::AnyConnection, state: &AppState| match play::play_move(
        conn,
        &caller,
        id,
        order.clone(),
        &state.metrics,
    )? {
        MoveAnswer::Acted(acted) => Ok((200, acted.body()?)),
        MoveAnswer::Replayed { status, body } => Ok((status, body)),
    };
    // With an Idempotency-Key a move may be made again when the database went away under it
    // (a switchover): if the first attempt committed, the second answers as it did.
    let answer = if keyed {
        run_retrying(&state, work).await?
    } else {
        run(&state, work).await?
    };
    state.hub.publish(Topic::Game(id));
    Ok(json_body(answer.0, answer.1))
}

/// Runs one of a seat's actions off the async workers and answers 200 with what it did; every
/// stream of the game hears of it.
async fn acted(
    state: web::Data<AppState>,
    id: cardroom_db::GameId,
    action: impl FnOnce(&mut cardroom_db::AnyConnection, &AppState) -> Result<Acted, ApiError>
    + Send
    + 'static,
) -> Result<HttpResponse, ApiError> {
    let body = run(&state, move |conn, state| action(conn, state)?.body()).await?;
    state.hub.publish(Topic::Game(id));
    Ok(json_body(200, body))
}

/// Deal the next hand when a hand is over (any seated player). Every person at the table is
/// asked (`your_turn` with `action: deal`); send that event's `version` as `expected_version`
/// and a hand another player dealt first answers 200 with the game as it is now and no events,
/// rather than `409 hand_not_over`. The body may be left out.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    request_body(content = Option<DealRequest>, content_type = "application/json"),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`hand_not_over`, `version_conflict` (an `expected_version` the game has not reached, or one after which something other than a deal happened), `game_over`, `waiting_for_players`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`validation_failed`: a body that is not a DealRequest", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/deal")]
pub async fn deal(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: DealRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DealRequest::default()
    } else {
        let value: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("the body is not JSON: {e}")))?;
        if !value.is_object() {
            return Err(ApiError::Invalid(
                "the body must be a JSON object".to_owned(),
            ));
        }
        serde_json::from_value(value).map_err(|e| ApiError::Invalid(e.to_string()))?
    };
    if request.expected_version.is_some_and(|v| v < 0) {
        return Err(ApiError::Invalid(
            "expected_version is a version, 0 or more".to_owned(),
        ));
    }
    let id = id.into_inner().0;
    let expected = request.expected_version;
    if expected.is_some() {
        // A deal that names its version may be made again when the database went away under
        // it: if the first attempt dealt, the second answers 200 with nothing new.
        let body = run_retrying(&state, move |conn, state| {
            play::deal(conn, &caller, id, expected, &state.metrics)?.body()
        })
        .await?;
        state.hub.publish(Topic::Game(id));
        return Ok(json_body(200, body));
    }
    acted(state, id, move |conn, state| {
        play::deal(conn, &caller, id, expected, &state.metrics)
    })
    .await
}

/// `POST /games/{id}/deal`'s body, which may be left out.
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DealRequest {
    /// The version the caller saw the hand over at (its `your_turn` event's `version`).
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
}

/// Leave the game: with two sides the caller's side loses; with more, a computer player takes
/// the seat. Before the game starts, resigning abandons it.
#[utoipa::path(
    operation_id = "resign_game",
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_over`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    acted(state, id, move |conn, state| {
        play::resign(conn, &caller, id, &state.metrics)
    })
    .await
}

/// Take back a seat a computer player took over after the caller's timeouts in a row: from
/// the next turn on the caller plays it again.
#[utoipa::path(
    operation_id = "reclaim_seat",
    tag = "games",
    params(("id" = i64, Path, description = "The game")),
    responses(
        (status = 200, body = ActionResponse),
        (status = 403, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_away`, `game_over`, `waiting_for_players`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = ["play"]))
)]
#[post("/games/{id}/reclaim")]
pub async fn reclaim(
    state: web::Data<AppState>,
    Playing(caller): Playing,
    id: web::Path<GameId>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner().0;
    acted(state, id, move |conn, state| {
        play::reclaim(conn, &caller, id, &state.metrics)
    })
    .await
}
