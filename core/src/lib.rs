//! Cardroom's rules engine: pure, deterministic, no I/O.
//!
//! `(kind, configuration, seats, seed, moves)` rebuilds any game exactly. Every game implements
//! [`Game`]; [`AnyGame`] dispatches at run time. Views are built per viewer and hold only what
//! that viewer may see; computer players receive only their seat's view.

pub mod any;
pub mod arena;
pub mod bots;
pub mod card;
pub mod cardset;
pub mod deck;
pub mod double_dummy;
pub mod game;
pub mod games;
#[cfg(feature = "openapi")]
mod openapi;
pub mod options;
pub mod rating;
pub mod rng;
pub mod search;
pub mod seat;
pub mod table;

pub use any::{AnyEvent, AnyGame, AnyMove, AnyView, GameKind, catalogue};
pub use bots::{Automatic, BotLevel, Controller, autoplay, next_automatic};
pub use card::{Card, Rank, Suit, parse_cards};
pub use cardset::CardSet;
pub use deck::Deck;
pub use game::{Event, Events, Game, MoveError, PlayerView, Resignation, Scoped, Zone};
pub use options::{KindInfo, OptionValue, Options, SetupError};
pub use rng::{CardRng, Seed, Stream};
pub use seat::{Audience, Seat, Sides, Viewer};
pub use table::{
    EndReason, LifeLoss, Outcome, Replay, ScoreItem, ScoreLine, ScoreSheet, Setup, Status, Table,
};
