//! Cardroom's storage: each game is an append-only move log plus a versioned JSON snapshot, on
//! PostgreSQL (production) or SQLite (the embedded default), through one connection type.
//!
//! Every state write is `UPDATE games … WHERE id = ? AND version = ?`: a lost race is a
//! [`DbError::VersionConflict`], never a lost move. Functions take a connection and are
//! synchronous; the service runs them off its async workers.
//!
//! # Layers
//!
//! A module uses only modules on lower lines, never one on its own line or above (checked by
//! `scripts/check-structure`); [`now`], here, is for all of them:
//! - `admin`: the admins' history and the dashboard's statistics
//! - `maintenance`: an operator's tools: a backup of an SQLite database, the games to check
//! - `games`: the game rows' reads, writes and the versioned commit
//! - `derived`: the one way the game rows' writes reach the roll-ups and the ratings
//! - `ratings`, `rollups`, `analyses`: Glicko-2 ratings; the dashboard's daily roll-ups;
//!   finished games' analyses
//! - `tournaments`: tournaments, their entrants and each round's seats
//! - `rows`, `users`, `tokens`, `seeks`, `challenges`, `talk`: the game rows' types; accounts,
//!   API tokens, quick-match seeks, challenges, chat and presence
//! - `account_events`: the account stream's log
//! - `notify`, `dialect`, `schema`: change notices; the SQL dialects' differences; the tables
//! - `connection`: one connection type over both backends
//! - `error`, `status`, `id`, `visibility`: what goes wrong; where a game stands; a game's id;
//!   who may find a table
//! - `words`: closed lists of words in text columns

pub mod account_events;
pub mod admin;
pub mod analyses;
pub mod challenges;
pub mod connection;
mod derived;
mod dialect;
pub mod error;
pub mod games;
mod id;
pub mod maintenance;
pub mod notify;
pub mod ratings;
mod rollups;
mod rows;
pub mod schema;
pub mod seeks;
mod status;
pub mod talk;
pub mod tokens;
pub mod tournaments;
pub mod users;
mod visibility;
mod words;

pub use connection::{
    AnyConnection, Backend, Health, Pool, PooledConnection, check, checkout, connect,
    connect_with_health, in_transaction, with_setup_lock,
};
pub use error::DbError;
pub use id::GameId;
pub use status::GameStatus;
pub use visibility::Visibility;
pub use words::UnknownWord;

/// Now, as stored: UTC without zone, truncated to microseconds (PostgreSQL's precision), so a
/// value reads back equal to what was written.
pub fn now() -> chrono::NaiveDateTime {
    let now = chrono::Utc::now().naive_utc();
    let micros = now.and_utc().timestamp_micros();
    chrono::DateTime::from_timestamp_micros(micros)
        .map(|t| t.naive_utc())
        .unwrap_or(now)
}
