//! A stream's slot: the process holds at most `CARDROOM_MAX_STREAMS` streams, and an account
//! at most `CARDROOM_MAX_STREAMS_PER_ACCOUNT` on it.

use std::sync::atomic::Ordering;

use actix_web::web;

use crate::error::{ApiError, ProblemCode};
use crate::state::AppState;

/// A taken stream slot: given back (the process's count and the account's) when the stream
/// ends.
pub(super) struct StreamSlot {
    state: web::Data<AppState>,
    account: Option<i64>,
}

impl StreamSlot {
    /// Takes a slot for `account` (none: an anonymous reader of public news), within the
    /// process's and the account's limits.
    pub(super) fn take(
        state: &web::Data<AppState>,
        account: Option<i64>,
    ) -> Result<StreamSlot, ApiError> {
        let hub = &state.hub;
        let limit = state.settings.max_streams;
        let per_account = state.settings.max_streams_per_account;
        let mut accounts = hub
            .streams_by_account
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if hub.open_streams.load(Ordering::SeqCst) >= limit {
            return Err(ApiError::Busy {
                code: ProblemCode::TooManyStreams,
                detail: format!(
                    "this server holds its limit of {limit} open event streams: try again \
                     shortly, or use the JSON long-poll (Accept: application/json)"
                ),
            });
        }
        if let Some(account) = account {
            let mine = accounts.entry(account).or_insert(0);
            if *mine >= per_account {
                return Err(ApiError::TooMany {
                    code: ProblemCode::TooManyStreams,
                    detail: format!(
                        "this account has {per_account} event streams open on this server, \
                         its limit: close one, or use the JSON long-poll (Accept: \
                         application/json)"
                    ),
                    retry_after: 2,
                });
            }
            *mine += 1;
        }
        hub.open_streams.fetch_add(1, Ordering::SeqCst);
        Ok(StreamSlot {
            state: state.clone(),
            account,
        })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let hub = &self.state.hub;
        let mut accounts = hub
            .streams_by_account
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(account) = self.account
            && let Some(count) = accounts.get_mut(&account)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                accounts.remove(&account);
            }
        }
        hub.open_streams.fetch_sub(1, Ordering::SeqCst);
    }
}
