//! What one seat sees at a Rummy table.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::PlayerView;
use crate::seat::Seat;
use crate::table::{Outcome, Status};

use super::config::RummyConfig;
use super::event::ShownHand;
use super::meld::Meld;
use super::moves::RummyMove;

/// One player as everyone sees them.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", schema(as = RummyPlayerInfo))]
pub struct PlayerInfo {
    pub seat: Seat,
    pub cards: u8,
    /// Cards the player took face up and still holds: everyone saw them.
    pub known: CardSet,
    /// Whether the player has melded or laid off this hand.
    pub melded: bool,
    pub total: i32,
}

/// A seat's view: its own hand, the face-up pile, the melds, the stock's size, what everyone
/// took face up; never another hand or the stock's order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RummyView {
    pub config: RummyConfig,
    pub seat: Option<Seat>,
    pub status: Status,
    /// The hand (in `classic`, the round) being played, from 1.
    pub hand_number: u32,
    pub dealer: Seat,
    pub to_act: Option<Seat>,
    /// `draw` or `play` (`standard`); `meld_or_exchange`, `keep_or_pass` or `meld_or_end`
    /// (`classic`).
    pub step: String,
    pub hand: CardSet,
    /// The card just taken from the face-up pile (`standard`): it may not be discarded this turn.
    pub taken: Option<Card>,
    /// The face-down card just turned over (`classic`): everyone sees it.
    pub turned: Option<Card>,
    pub discard_top: Option<Card>,
    /// The face-up pile, bottom first (every card in it was seen).
    pub discards: Vec<Card>,
    pub stock: u8,
    /// Whether the stock was already refilled from the face-up pile this hand.
    pub turned_over: bool,
    pub melds: Vec<Meld>,
    pub players: Vec<PlayerInfo>,
    /// Every hand, once shown at the end of a hand.
    pub shown: Vec<ShownHand>,
    pub legal_moves: Vec<RummyMove>,
    pub outcome: Option<Outcome>,
}

impl PlayerView for RummyView {
    type Move = RummyMove;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn legal_moves(&self) -> &[RummyMove] {
        &self.legal_moves
    }
}
