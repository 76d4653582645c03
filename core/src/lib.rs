//! Cardroom's rules engine: pure, deterministic, no I/O.
//!
//! `(kind, configuration, seats, seed, moves)` rebuilds any game exactly. Every game implements
//! [`Game`]; [`AnyGame`] dispatches at run time. Views are built per viewer and hold only what
//! that viewer may see; computer players receive only their seat's view.
//!
//! # Layers
//!
//! A module uses only modules on lower lines, never one on its own line or above (checked by
//! `scripts/check-structure`, which also finds any cycle inside a module's own files):
//! - `arena`, `openapi`: duplicate matches between strategies; the OpenAPI schemas
//! - `analysis`: every finished game explained, decision by decision
//! - `any`: any game, dispatched at run time
//! - `games`: the four games, each with its computer player
//! - `search`, `double_dummy`: what the computer players search with
//! - `bots`: the computer players' interface, who controls a seat, autoplay
//! - `game`: the `Game` trait every game implements
//! - `table`: what every table shares: seats and sides, deals, scores, the end
//! - `rng`, `options`, `rating`, `tournament`: seeded shuffles; variants and house rules;
//!   ratings; tournaments' pairings and scores
//! - `deck`
//! - `cardset`
//! - `columns`: kinds and levels as text columns (the `diesel` feature)
//! - `card`, `seat`, `kind`, `level`: cards, seats, the games' and the levels' names

pub mod analysis;
pub mod any;
pub mod arena;
pub mod bots;
pub mod card;
pub mod cardset;
#[cfg(feature = "diesel")]
mod columns;
pub mod deck;
pub mod double_dummy;
pub mod game;
pub mod games;
pub mod kind;
pub mod level;
#[cfg(feature = "openapi")]
mod openapi;
pub mod options;
pub mod rating;
pub mod rng;
pub mod search;
pub mod seat;
pub mod table;
pub mod tournament;

pub use any::{AnyEvent, AnyGame, AnyMove, AnyRejection, AnyView, catalogue};
pub use bots::{Automatic, ComputerPlayer, Controller, autoplay, next_automatic};
pub use card::{Card, Rank, Suit, parse_cards};
pub use cardset::CardSet;
pub use deck::Deck;
pub use game::{
    Event, Events, Game, MoveError, PlayerView, Refusal, Refused, Resignation, Scoped, Zone,
};
pub use kind::GameKind;
pub use level::BotLevel;
pub use options::{KindInfo, OptionValue, Options, PositionError, SetupError};
pub use rng::{CardRng, Seed, Stream};
pub use seat::{Audience, BySeat, Seat, Sides, Viewer};
pub use table::{
    EndReason, LifeLoss, Outcome, Replay, ScoreItem, ScoreLine, ScoreSheet, Setup, Status, Table,
};
