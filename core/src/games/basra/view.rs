//! What one seat sees at a Basra table.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::PlayerView;
use crate::seat::Seat;
use crate::table::{Outcome, Status};

use super::config::BasraConfig;
use super::moves::BasraMove;

/// A basra made in the current deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BasraMark {
    pub seat: Seat,
    pub card: Card,
    pub points: i32,
}

/// One side as everyone sees it: its seats, the cards it captured (captures happen face up),
/// its basras of this deal and its total.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SideView {
    pub seats: Vec<Seat>,
    pub captured: CardSet,
    pub basras: Vec<BasraMark>,
    pub total: i32,
}

/// A seat's view: its own hand, the counts of the others, everything public, and its legal
/// moves. Never another hand or the stock's order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BasraView {
    pub config: BasraConfig,
    /// Whose view this is (none: a spectator's).
    pub seat: Option<Seat>,
    pub status: Status,
    pub hand_number: u32,
    pub round: u8,
    pub rounds: u8,
    pub dealer: Seat,
    pub to_act: Option<Seat>,
    /// The viewer's own cards.
    pub hand: CardSet,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    pub floor: CardSet,
    /// Cards left in the stock.
    pub stock: u8,
    pub sides: Vec<SideView>,
    /// Majority points carried over from tied deals.
    pub carried: i32,
    /// The seat that captured last in this deal.
    pub last_capture: Option<Seat>,
    pub legal_moves: Vec<BasraMove>,
    pub outcome: Option<Outcome>,
}

impl BasraView {
    /// Cards the viewer has not seen: not in their hand, on the floor or captured.
    pub fn unseen(&self) -> CardSet {
        let mut seen = self.hand | self.floor;
        for side in &self.sides {
            seen |= side.captured;
            seen |= side.basras.iter().map(|b| b.card).collect::<CardSet>();
        }
        self.config.deck().cards() - seen
    }

    /// The viewer's side.
    pub fn own_side(&self) -> Option<usize> {
        let seat = self.seat?;
        self.sides.iter().position(|s| s.seats.contains(&seat))
    }
}

impl PlayerView for BasraView {
    type Move = BasraMove;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn legal_moves(&self) -> &[BasraMove] {
        &self.legal_moves
    }
}
