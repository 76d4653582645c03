//! Live events for clients: a game's events (Server-Sent Events or a JSON long-poll), the lobby,
//! a quick-match seek's long-poll, the account's event stream and a tournament. Each waits on the process's
//! [`crate::hub`], reads through the followers' shared reads ([`crate::feeds`]), and sends to
//! its reader through a bounded queue.

mod account;
mod game;
mod lobby;
mod queue;
mod slot;
mod tournament;
mod wait;

pub use account::{StreamFormat, account_stream};
pub use game::{STREAM_END, long_poll, parse_event_id, stream};
pub use lobby::{lobby_stream, seek_long_poll};
pub use tournament::tournament_stream;
