//! Basra, the fishing game (docs/rules.md#basra): variants `standard`, `classic44` and `cse231`.
//!
//! Options: see [`BasraConfig`]. A move is `{"type":"play","card":"7D","capture":[…]}`; `capture`
//! may be left out (the automatic or preferred capture is taken) and, where given, must name
//! exactly the cards the play takes — in `classic44` any maximal capture the player chooses.
//! Legal moves always carry the capture they make, so a client can show it before playing.
//!
//! Choices made where the rules leave room:
//! - "Largest family" means the most cards captured.
//! - A jack or 7♦ dealt to the floor goes back into the stock at a uniformly random depth
//!   below the top card (so the replacement is a different card), drawn from the deal's
//!   stream. Replacements stop after 1000 returns (never reached with five such cards).
//! - Leftover floor cards with no capture in the deal go to the dealer's side.

mod bot;
pub mod capture;
mod config;
mod event;
mod game;
mod moves;
pub mod rules;
mod state;
mod view;

pub use config::{BasraConfig, MajorityTie, Variant};
pub use event::BasraEvent;
pub use moves::{BasraMove, BasraRejection};
pub use state::{Basra, BasraPosition};
pub use view::{BasraMark, BasraView, SideView};
