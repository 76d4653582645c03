//! The use cases behind the game endpoints: load a game, check who may do what, run the rules
//! engine, let the computer players answer, and commit everything as one versioned write.
//!
//! Everything here is synchronous and runs off the async workers. Nothing is kept in memory
//! between requests: any replica can serve any game.

mod access;
mod account;
mod act;
pub mod admin;
pub mod analysis;
pub mod challenges;
mod changes;
pub mod chat;
mod commit;
pub mod export;
mod gate;
mod invitation;
mod loaded;
mod lobby;
mod paging;
pub mod players;
mod read;
mod recovery;
pub mod rematch;
mod rematch_state;
mod seats;
pub mod seeks;
mod setup;
mod timers;
pub mod tokens;
pub mod tournaments;
mod view;

pub use account::{ACCOUNT_EVENTS_PAGE, account_events_for, account_snapshot};
pub use act::{Acted, MoveAnswer, MoveOrder, deal, play_move, resign};
pub(crate) use changes::results as seat_results;
pub use invitation::invitation;
pub use lobby::{expire_open_tables, lobby};
pub use read::{
    ChatWanted, EVENTS_PAGE, News, Personal, Revoked, authorize_reader, events_after, list, log,
    personal, personal_without_storage, presence, presence_at, read_log, score,
};
pub use recovery::{recover, replay, snapshot_of};
pub use setup::{create, join, random_code};
pub use timers::{enforce as enforce_timers, reclaim, turn_bounds};
pub use view::{view, view_for};
