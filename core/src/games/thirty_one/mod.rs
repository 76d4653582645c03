//! 31, also called Scat (docs/rules.md#thirty-one): variants `standard` and `classic`.
//!
//! Options: see [`ThirtyOneConfig`]. Moves: `{"type":"knock"}`, `{"type":"draw","from":"stock"}` or
//! `"discard"`, then `{"type":"discard","card":"KH"}`.
//!
//! The running totals are lives (tokens): 3, then 0 on the bus (the last-chance token), and −1
//! once out. Choices made where the rules leave room:
//! - The stock is turned over from the discard pile when a turn would start on an empty stock;
//!   if it is empty again at the start of a turn, the hand is a draw.
//! - When a hand ends on a 31, every hand is shown, as at a knock's showdown.
//! - The deal passes to the next seat still in the game.

mod bot;
mod config;
mod event;
mod game;
mod moves;
mod state;
pub mod value;
mod view;

pub use config::{ThirtyOneConfig, Variant};
pub use event::{Pile, ShownHand, ThirtyOneEvent};
pub use moves::{ThirtyOneMove, ThirtyOneRejection};
pub use state::{ThirtyOne, ThirtyOnePosition};
pub use value::{HandValue, hand_value};
pub use view::{PlayerInfo, ThirtyOneView};
