//! Rummy (docs/rules.md#rummy): variants `standard` (draw, meld, discard, to 100) and `classic` (the
//! seven-card exchange game: seven rounds, lowest total wins).
//!
//! Options: see [`RummyConfig`]. Moves, one action each:
//! - `standard`: `{"type":"draw_stock"}` or `{"type":"take_discard"}`; then any number of
//!   `{"type":"meld","cards":[…]}` and `{"type":"lay_off","meld":ID,"cards":[…]}`; then
//!   `{"type":"discard","card":"9C"}`.
//! - `classic`: melds and lay-offs; then `{"type":"take_discard","drop":"9C"}`, or
//!   `{"type":"draw_stock"}` (the face-down card is turned over for all to see) followed by
//!   `{"type":"keep","drop":"9C"}` or `{"type":"pass_drawn"}`; then melds and lay-offs again
//!   and `{"type":"end_turn"}`.
//!
//! Choices made where the rules leave room:
//! - Cards are dealt one at a time from the player who starts, then one card starts the face-up
//!   pile. In `classic`, round k (counting from 0) starts with seat k mod n, dealt by the seat
//!   before it.
//! - An empty stock is refilled (or the hand ended) when a turn would start on it.
//! - In `standard`, a meld or lay-off that would leave only the card just taken from the
//!   discard pile (which may not be discarded) is refused: the player could never finish the
//!   turn.
//! - Going out in one turn "without having melded before" means no meld or lay-off in an
//!   earlier turn of the hand.

mod bot;
mod config;
mod determinize;
mod event;
mod game;
pub mod meld;
mod moves;
mod state;
mod value;
mod view;

pub use config::{RummyConfig, Variant};
pub use event::{RummyEvent, ShownHand};
pub use meld::{AceRule, Meld, MeldError, MeldKind};
pub use moves::{NotNow, OtherVariant, RummyMove, RummyRejection};
pub use state::{Rummy, RummyPosition};
pub use value::{classic_value, hand_value, standard_value};
pub use view::{PlayerInfo, RummyView};
