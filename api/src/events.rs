//! A game's log entries as stored: each event with the audience that may see it, the
//! service's own announcements beside the rules' events, and what one viewer may see of them.

use cardroom_core::{Audience, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ApiError;
use crate::model::{EventOut, ServiceEvent};

/// A stored event with its audience.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StoredEvent {
    pub to: Audience,
    /// The event (a game's: see each game's events).
    #[schema(value_type = Object)]
    pub event: Value,
}

pub fn stored<T: Serialize>(events: &[T]) -> Result<String, ApiError> {
    serde_json::to_string(events).map_err(ApiError::because("event encoding"))
}

/// The events of one stored log entry (version `version`) that `viewer` may see.
pub fn visible(events_json: &str, viewer: Viewer, version: i64) -> Result<Vec<EventOut>, ApiError> {
    let events: Vec<StoredEvent> = serde_json::from_str(events_json)
        .map_err(ApiError::because("stored events do not decode"))?;
    Ok(events
        .into_iter()
        .filter(|e| e.to.includes(viewer))
        .map(|e| EventOut {
            version,
            event: e.event,
        })
        .collect())
}

/// The type of the deadline announcement (see [`is_announcement`]).
pub const DEADLINE_EVENT: &str = "deadline";

/// Whether an event is one of the service's announcements that ride along with a change's
/// game events (a new deadline), rather than anything the rules produced.
pub fn is_announcement(event: &Value) -> bool {
    event.get("type").and_then(Value::as_str) == Some(DEADLINE_EVENT)
}

/// An event of the service itself (not of a game's rules), for everyone.
pub fn service_event(event: &ServiceEvent) -> Result<StoredEvent, ApiError> {
    let event = serde_json::to_value(event).map_err(ApiError::because("event encoding"))?;
    Ok(StoredEvent {
        to: Audience::Everyone,
        event,
    })
}
