//! The games. Each implements [`crate::Game`] and [`crate::ComputerPlayer`].
//!
//! Every game's folder has the same shape, each file using only those below it:
//! - `mod.rs`: what the game offers outside (re-exports only);
//! - `bot.rs`: its computer player, from a seat's view alone;
//! - `game.rs`: the rules as the `Game` trait asks for them;
//! - `state.rs`: the game's state and the changes the rules make to it (its fields are
//!   visible to the game's own files only);
//! - `moves.rs`, `event.rs`, `view.rs`, `config.rs` (variants, house rules and the catalogue
//!   entry), and the game's pure rules (`capture.rs` and `rules.rs`, `value.rs`, `meld.rs`,
//!   `auction.rs`, `hidden.rs`).

pub mod basra;
pub mod rummy;
pub mod tarneeb;
pub mod thirty_one;
