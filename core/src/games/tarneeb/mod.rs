//! Tarneeb (docs/rules.md#tarneeb): four players in two partnerships (seats 0+2 against 1+3); variants
//! `standard` (bid 7–13, then name the trump; to 41) and `classic` (bridge-style bids with
//! no-trump; to 61).
//!
//! Options: see [`TarneebConfig`]. Moves: `{"type":"bid","tricks":8}` (in `classic` with
//! `"suit":"H"`, a suit or `"NT"`), `{"type":"pass"}`, `{"type":"trump","suit":"S"}` (the
//! declarer, in `standard`), `{"type":"play","card":"QS"}`.
//!
//! Choices made where the rules leave room: cards are dealt one at a time from the seat after
//! the dealer; an all-pass redeal keeps the hand's number (it is the same hand, dealt again
//! from the next deal's seed); the bid is a number of tricks in both variants (a `classic`
//! level is tricks − 6).

pub mod auction;
mod bot;
mod config;
mod event;
mod game;
mod hidden;
mod moves;
mod state;
mod view;

pub use auction::Phase;
pub use config::{TarneebConfig, Variant};
pub use event::TarneebEvent;
pub use moves::{NotNow, TarneebMove, TarneebRejection};
pub use state::{Tarneeb, TarneebPosition};
pub use view::{TarneebView, TrickInfo};
