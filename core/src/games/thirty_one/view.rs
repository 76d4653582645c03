//! What one seat sees at a 31 table.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::PlayerView;
use crate::seat::Seat;
use crate::table::{Outcome, Status};

use super::config::ThirtyOneConfig;
use super::event::ShownHand;
use super::moves::ThirtyOneMove;
use super::value::HandValue;

/// One player as everyone sees them.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", schema(as = ThirtyOnePlayerInfo))]
pub struct PlayerInfo {
    pub seat: Seat,
    /// Lives (tokens) left: 0 is on the bus (the last-chance token); −1 is out.
    pub lives: i32,
    pub on_the_bus: bool,
    pub out: bool,
    /// How many cards the player holds.
    pub cards: u8,
    /// Cards the player took from the discard pile and still holds: everyone saw them.
    pub known: CardSet,
}

/// A seat's view: its own cards, the discard pile, the stock's size, everyone's lives, who
/// knocked, whose turn it is; at a showdown every hand. Never the stock's order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ThirtyOneView {
    pub config: ThirtyOneConfig,
    pub seat: Option<Seat>,
    pub status: Status,
    pub hand_number: u32,
    pub dealer: Seat,
    pub to_act: Option<Seat>,
    /// `turn_start` (knock or draw) or `discard`.
    pub step: String,
    pub hand: CardSet,
    /// The value of the viewer's hand.
    pub value: Option<HandValue>,
    /// The card the player to act just took from the discard pile: it cannot be discarded.
    pub taken: Option<Card>,
    pub discard_top: Option<Card>,
    /// The whole discard pile, bottom first (every card in it was seen face up).
    pub discards: Vec<Card>,
    pub stock: u8,
    /// Whether the discard pile was already turned into a new stock this hand.
    pub reshuffled: bool,
    pub players: Vec<PlayerInfo>,
    pub knocker: Option<Seat>,
    /// Every hand, once shown at the end of a hand.
    pub shown: Vec<ShownHand>,
    pub legal_moves: Vec<ThirtyOneMove>,
    pub outcome: Option<Outcome>,
}

impl PlayerView for ThirtyOneView {
    type Move = ThirtyOneMove;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn legal_moves(&self) -> &[ThirtyOneMove] {
        &self.legal_moves
    }
}
