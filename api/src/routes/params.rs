//! What several handlers share: a game's id in the path, whether a request asks for a stream,
//! and an answer whose JSON body is already encoded.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::error::{ApiError, ProblemCode};

/// An id in a path (a seek's, a challenge's, a token's): digits only (a sign, a space or a
/// fraction names nothing).
#[derive(Clone, Copy, Debug)]
pub struct Id(pub i64);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Id, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(serde::de::Error::custom("an id is digits only"));
        }
        text.parse()
            .map(Id)
            .map_err(|_| serde::de::Error::custom("nothing has so large an id"))
    }
}

/// A game's id in a path, digits only like any [`Id`].
#[derive(Clone, Copy, Debug)]
pub struct GameId(pub cardroom_db::GameId);

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
        Id::deserialize(deserializer).map(|Id(n)| GameId(cardroom_db::GameId::new(n)))
    }
}

pub(super) fn json_body(status: u16, body: String) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap_or_default())
        .content_type("application/json")
        .body(body)
}

/// Whether the request asks for Server-Sent Events.
/// A stream's `Last-Event-ID`, read with `parse`: none when the header is absent, 400
/// `invalid_cursor` (saying `what` an id is) when it is there and not one.
pub(super) fn last_event_id<T>(
    req: &HttpRequest,
    parse: impl Fn(&str) -> Option<T>,
    what: &str,
) -> Result<Option<T>, ApiError> {
    match req.headers().get("Last-Event-ID") {
        None => Ok(None),
        Some(value) => value
            .to_str()
            .ok()
            .and_then(parse)
            .map(Some)
            .ok_or_else(|| invalid_cursor(what)),
    }
}

/// A resumption point that cannot be read (400 `invalid_cursor`).
pub(super) fn invalid_cursor(detail: &str) -> ApiError {
    ApiError::Malformed {
        code: ProblemCode::InvalidCursor,
        detail: detail.to_owned(),
    }
}

/// A resumption point later than anything sent (409 `cursor_ahead`): a stream would wait for
/// ever for what it names.
pub(super) fn cursor_ahead(detail: String) -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::CursorAhead,
        detail,
    }
}

pub(crate) fn wants_stream(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"))
}
