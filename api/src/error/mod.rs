//! The one place that knows HTTP status codes: every failure becomes an RFC 9457
//! `application/problem+json` body with a stable `code`.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use cardroom_core::{AnyMove, AnyRejection, GameKind, MoveError, Refusal, Refused};
use cardroom_db::DbError;
use serde::Serialize;
use utoipa::ToSchema;

mod codes;

pub use codes::ProblemCode;

/// A problem report (RFC 9457).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "https://cardroom.example/problems/illegal_move",
    "title": "Illegal move",
    "status": 422,
    "detail": "you do not hold 9♦",
    "code": "illegal_move",
    "legal_moves": [{"type": "play", "card": "5C", "capture": ["5D"]}]
}))]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    /// What went wrong, in a sentence.
    pub detail: String,
    /// A stable machine-readable word: `unauthorized`, `forbidden`, `not_found`,
    /// `validation_failed`, `illegal_move`, `not_your_turn`, `version_conflict`, `game_over`,
    /// `payload_too_large`, `rate_limited`, `unavailable`, …
    pub code: ProblemCode,
    /// With `version_conflict`: the game's version now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    /// With `illegal_move`: the moves the caller may make. Read them with `legal`, which says
    /// whose moves they are (this list, without its kind, is kept for older clients).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<AnyMove>>, deprecated)]
    pub legal_moves: Option<serde_json::Value>,
    /// With `illegal_move`: the game's kind and the moves the caller may make, as that game's
    /// moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<LegalMoves>,
    /// With `illegal_move`: the rule the move broke, as a stable code (`must_follow_suit`,
    /// `not_in_hand`, …); `detail` says it in a sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// With `rate_limited`: the limit's name (`sign_ins`, `writes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// With `muted`: until when an admin muted the caller in every chat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub muted_until: Option<chrono::DateTime<chrono::Utc>>,
}

/// The moves a seat may make, and the game whose moves they are.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    pub kind: GameKind,
    #[schema(value_type = Vec<AnyMove>)]
    pub moves: serde_json::Value,
}

/// Every way a request can fail.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    /// Refused for a reason of its own (403 with its own code, such as `registered_only`).
    #[error("{detail}")]
    Denied { code: ProblemCode, detail: String },
    /// An admin muted the caller in every chat until `until` (403 `muted`).
    #[error("an admin muted you in the chat until {}", until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))]
    Muted {
        until: chrono::DateTime<chrono::Utc>,
    },
    #[error("{0}")]
    NotFound(String),
    /// A body that is not JSON, or JSON of the wrong shape.
    #[error("{0}")]
    BadRequest(String),
    /// A request the server cannot read, with its own code (400, such as `invalid_cursor`).
    #[error("{detail}")]
    Malformed { code: ProblemCode, detail: String },
    /// Well-formed input with a value the rules do not allow (unknown card, bad option, …).
    #[error("{0}")]
    Invalid(String),
    #[error("{rejection}")]
    IllegalMove {
        rejection: AnyRejection,
        kind: GameKind,
        legal_moves: serde_json::Value,
    },
    #[error("{0}")]
    NotYourTurn(String),
    #[error("the game is at version {current}, not the version this move expected")]
    VersionConflict { current: i64 },
    #[error("{0}")]
    GameOver(String),
    /// Another conflict with the game's state, with its own code.
    #[error("{detail}")]
    Conflict { code: ProblemCode, detail: String },
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// The client took longer than the client timeout to send the request's body (408).
    #[error("the request body did not arrive within {seconds} s")]
    TimedOut { seconds: u64 },
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("the database is unavailable; try again shortly")]
    Unavailable,
    /// The server is at a limit: try again shortly (503 with its own code).
    #[error("{detail}")]
    Busy { code: ProblemCode, detail: String },
    /// The caller is at one of its own limits (429 with its own code and `Retry-After`).
    #[error("{detail}")]
    TooMany {
        code: ProblemCode,
        detail: String,
        retry_after: u64,
    },
    /// Over the rate limit `limit` (`sign_ins`, `writes`); try again after `retry_after`
    /// seconds.
    #[error("over the `{limit}` rate limit; try again in {retry_after} s")]
    RateLimited {
        retry_after: u64,
        limit: &'static str,
    },
    /// A defect. Its cause, with the chain of errors behind it, goes to the log, never to the
    /// client.
    #[error("internal error")]
    Internal(Defect),
}

/// What the server was doing when it met a defect, and the error that stopped it.
#[derive(Debug)]
pub struct Defect {
    context: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl std::fmt::Display for Defect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.context)
    }
}

impl std::error::Error for Defect {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl Defect {
    /// The context and every error behind it, outermost first, for the log.
    pub fn chain(&self) -> String {
        let mut out = self.context.clone();
        let mut next = std::error::Error::source(self);
        while let Some(error) = next {
            out.push_str(": ");
            out.push_str(&error.to_string());
            next = error.source();
        }
        out
    }
}

impl ApiError {
    /// A defect with no error behind it (a state that should not be).
    pub fn internal(context: impl Into<String>) -> ApiError {
        ApiError::Internal(Defect {
            context: context.into(),
            source: None,
        })
    }

    /// A defect caused by `source`, met while doing `context`.
    pub fn defect(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> ApiError {
        ApiError::Internal(Defect {
            context: context.into(),
            source: Some(Box::new(source)),
        })
    }

    /// For `map_err`: a defect caused by the error, met while doing `context`.
    pub fn because<E: std::error::Error + Send + Sync + 'static>(
        context: &'static str,
    ) -> impl FnOnce(E) -> ApiError {
        move |source| ApiError::defect(context, source)
    }
}

impl ApiError {
    /// The stable code.
    pub fn code(&self) -> ProblemCode {
        match self {
            ApiError::Unauthorized(_) => ProblemCode::Unauthorized,
            ApiError::Forbidden(_) => ProblemCode::Forbidden,
            ApiError::Denied { code, .. } => *code,
            ApiError::Muted { .. } => ProblemCode::Muted,
            ApiError::NotFound(_) => ProblemCode::NotFound,
            ApiError::BadRequest(_) | ApiError::Invalid(_) => ProblemCode::ValidationFailed,
            ApiError::IllegalMove { .. } => ProblemCode::IllegalMove,
            ApiError::NotYourTurn(_) => ProblemCode::NotYourTurn,
            ApiError::VersionConflict { .. } => ProblemCode::VersionConflict,
            ApiError::GameOver(_) => ProblemCode::GameOver,
            ApiError::Conflict { code, .. } | ApiError::Malformed { code, .. } => *code,
            ApiError::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            ApiError::TimedOut { .. } => ProblemCode::RequestTimeout,
            ApiError::MethodNotAllowed(_) => ProblemCode::MethodNotAllowed,
            ApiError::Unavailable => ProblemCode::Unavailable,
            ApiError::Busy { code, .. } | ApiError::TooMany { code, .. } => *code,
            ApiError::RateLimited { .. } => ProblemCode::RateLimited,
            ApiError::Internal(_) => ProblemCode::Internal,
        }
    }

    fn title(&self) -> &'static str {
        match self {
            ApiError::Unauthorized(_) => "Unauthorized",
            ApiError::Forbidden(_) | ApiError::Denied { .. } | ApiError::Muted { .. } => {
                "Forbidden"
            }
            ApiError::NotFound(_) => "Not found",
            ApiError::BadRequest(_) | ApiError::Invalid(_) => "Validation failed",
            ApiError::Malformed { .. } => "Bad request",
            ApiError::IllegalMove { .. } => "Illegal move",
            ApiError::NotYourTurn(_) => "Not your turn",
            ApiError::VersionConflict { .. } => "Version conflict",
            ApiError::GameOver(_) => "Game over",
            ApiError::Conflict { .. } => "Conflict",
            ApiError::PayloadTooLarge { .. } => "Payload too large",
            ApiError::TimedOut { .. } => "Request timeout",
            ApiError::MethodNotAllowed(_) => "Method not allowed",
            ApiError::Unavailable | ApiError::Busy { .. } => "Service unavailable",
            ApiError::RateLimited { .. } | ApiError::TooMany { .. } => "Too many requests",
            ApiError::Internal(_) => "Internal error",
        }
    }

    /// The problem body.
    pub fn problem(&self) -> Problem {
        let status = self.status_code();
        let detail = match self {
            ApiError::Internal(_) => "something went wrong on our side".to_owned(),
            other => other.to_string(),
        };
        Problem {
            kind: format!("https://cardroom.example/problems/{}", self.code()),
            title: self.title().to_owned(),
            status: status.as_u16(),
            detail,
            code: self.code(),
            current_version: match self {
                ApiError::VersionConflict { current } => Some(*current),
                _ => None,
            },
            legal_moves: match self {
                ApiError::IllegalMove { legal_moves, .. } => Some(legal_moves.clone()),
                _ => None,
            },
            legal: match self {
                ApiError::IllegalMove {
                    kind, legal_moves, ..
                } => Some(LegalMoves {
                    kind: *kind,
                    moves: legal_moves.clone(),
                }),
                _ => None,
            },
            refusal: match self {
                ApiError::IllegalMove { rejection, .. } => Some(rejection.refusal()),
                _ => None,
            },
            limit: match self {
                ApiError::RateLimited { limit, .. } => Some((*limit).to_owned()),
                _ => None,
            },
            muted_until: match self {
                ApiError::Muted { until } => Some(*until),
                _ => None,
            },
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) | ApiError::Denied { .. } | ApiError::Muted { .. } => {
                StatusCode::FORBIDDEN
            }
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) | ApiError::Malformed { .. } => StatusCode::BAD_REQUEST,
            ApiError::Invalid(_) | ApiError::IllegalMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotYourTurn(_)
            | ApiError::VersionConflict { .. }
            | ApiError::GameOver(_)
            | ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TimedOut { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Unavailable | ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::RateLimited { .. } | ApiError::TooMany { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(defect) = self {
            tracing::error!(cause = %defect.chain(), "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        if let ApiError::Unauthorized(_) = self {
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
        }
        if let ApiError::Unavailable | ApiError::Busy { .. } = self {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("2")));
        }
        if let ApiError::RateLimited { retry_after, .. } | ApiError::TooMany { retry_after, .. } =
            self
        {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(*retry_after)));
        }
        response.json(self.problem())
    }
}

impl From<DbError> for ApiError {
    fn from(error: DbError) -> ApiError {
        match error {
            DbError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                ApiError::Unavailable
            }
            DbError::NotFound => ApiError::NotFound("no such resource".to_owned()),
            // The only row a request's writes refer to that the request did not just read is
            // the caller's own account (a seat, a game's creator): a token whose account is
            // gone (the database was replaced, say) is no longer good.
            DbError::MissingReference(_) => ApiError::Unauthorized(
                "the account this token names no longer exists: sign in again".to_owned(),
            ),
            DbError::VersionConflict => ApiError::internal("unhandled version conflict"),
            // The database's own guards against two requests at the same moment (named on
            // PostgreSQL, described on SQLite).
            DbError::Duplicate(what) if what.contains("seats") => ApiError::Conflict {
                code: ProblemCode::AlreadySeated,
                detail: "you already have a seat at this game".to_owned(),
            },
            DbError::Duplicate(what) if what.contains("seeks") => ApiError::Conflict {
                code: ProblemCode::AlreadySeeking,
                detail: "you are already waiting for a quick match: cancel that one first"
                    .to_owned(),
            },
            other => ApiError::defect("a database request", other),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> ApiError {
        ApiError::defect("a blocking task", error)
    }
}

/// Maps a refused move in a game of `kind`; `legal_moves` is the caller's list, for
/// `illegal_move`.
pub fn move_error(
    error: MoveError<AnyRejection>,
    kind: GameKind,
    legal_moves: serde_json::Value,
) -> ApiError {
    match error {
        MoveError::GameOver => ApiError::GameOver("the game is over".to_owned()),
        MoveError::HandOver => ApiError::Conflict {
            code: ProblemCode::HandOver,
            detail: "the hand is over: deal the next hand first".to_owned(),
        },
        MoveError::NoSuchSeat(n) => ApiError::Invalid(format!("there is no seat {n}")),
        MoveError::NotYourTurn { to_act: Some(seat) } => {
            ApiError::NotYourTurn(format!("it is seat {}'s turn", seat.number()))
        }
        MoveError::NotYourTurn { to_act: None } => {
            ApiError::NotYourTurn("nobody is to act now".to_owned())
        }
        MoveError::Illegal(rejection) => ApiError::IllegalMove {
            rejection,
            kind,
            legal_moves,
        },
    }
}

#[cfg(test)]
mod defects {
    use super::*;

    fn parse_text() -> String {
        serde_json::from_str::<i64>("[")
            .expect_err("not a number")
            .to_string()
    }

    #[test]
    fn a_defect_keeps_its_chain_for_the_log_and_answers_without_it() {
        let parse = serde_json::from_str::<i64>("[").expect_err("not a number");
        let error = ApiError::defect("game 7 snapshot", parse);
        let ApiError::Internal(defect) = &error else {
            panic!("a defect is internal: {error:?}");
        };
        let chain = defect.chain();
        assert!(chain.starts_with("game 7 snapshot: "), "{chain}");
        assert!(chain.ends_with(&parse_text()), "{chain}");
        assert!(std::error::Error::source(defect).is_some());
        let problem = error.problem();
        assert_eq!(problem.status, 500);
        assert_eq!(problem.code, ProblemCode::Internal);
        assert!(!problem.detail.contains("snapshot"), "{}", problem.detail);
        assert!(
            !problem.detail.contains(&parse_text()),
            "{}",
            problem.detail
        );
        // A defect with nothing behind it is its context alone.
        let ApiError::Internal(bare) = ApiError::internal("a pairing of no one") else {
            panic!("internal");
        };
        assert_eq!(bare.chain(), "a pairing of no one");
    }
}
