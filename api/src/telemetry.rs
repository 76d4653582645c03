//! Logging: to standard error, filtered by `RUST_LOG` (default `info`, without the 4xx warnings
//! of the request middleware, which the access log already shows), as one JSON object a
//! line (`CARDROOM_LOG_FORMAT=json`, the default when standard error is not a terminal) or as
//! readable text (`text`, the default on a terminal).
//!
//! Every request runs in a span that carries its `request_id` (also sent back as the
//! `X-Request-Id` header), method, route, status and, when the span closes, its time: one
//! access-log line per request, and every other line logged while serving it carries the id.
//! Nothing secret is recorded: the span has the path and query, never headers or bodies, and
//! tokens travel only in the `Authorization` header.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    Json,
    Text,
}

impl LogFormat {
    /// From `CARDROOM_LOG_FORMAT` (`json` or `text`); otherwise JSON unless standard error is a
    /// terminal. An unknown value falls back to JSON, the format machines read.
    pub fn from_env() -> LogFormat {
        match std::env::var("CARDROOM_LOG_FORMAT").as_deref() {
            Ok("text") => LogFormat::Text,
            Ok(_) => LogFormat::Json,
            Err(_) if std::io::stderr().is_terminal() => LogFormat::Text,
            Err(_) => LogFormat::Json,
        }
    }
}

/// Installs the global subscriber (once; later calls do nothing).
pub fn init() {
    // The middleware's own line for every 4xx repeats the access log; 5xx stay (as errors).
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tracing_actix_web::middleware=error"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        // The request span's close is the access log: status and time, with the request id.
        .with_span_events(FmtSpan::CLOSE);
    let _ = match LogFormat::from_env() {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        LogFormat::Text => builder.try_init(),
    };
}
