//! What one seat sees at a Tarneeb table.

use serde::{Deserialize, Serialize};

use crate::card::Suit;
use crate::cardset::CardSet;
use crate::game::PlayerView;
use crate::seat::Seat;
use crate::table::{Outcome, Status};

use super::auction::Phase;
use super::auction::{CallRecord, Contract, PlayedCard};
use super::config::TarneebConfig;
use super::moves::TarneebMove;

/// A finished trick.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TrickInfo {
    pub cards: Vec<PlayedCard>,
    pub winner: Seat,
}

/// A seat's view: its own hand, the auction so far, the contract and trump, the current trick,
/// the tricks won per team, the cards already played, the scores; never another hand.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TarneebView {
    pub config: TarneebConfig,
    pub seat: Option<Seat>,
    pub status: Status,
    pub hand_number: u32,
    pub dealer: Seat,
    pub to_act: Option<Seat>,
    /// `bidding`, `trump` (the declarer names it) or `play`.
    pub phase: Phase,
    pub hand: CardSet,
    pub hand_sizes: Vec<u8>,
    /// The calls of this deal, in order.
    pub auction: Vec<CallRecord>,
    /// The highest bid so far (during the auction) or the contract.
    pub contract: Option<Contract>,
    pub trump: Option<Suit>,
    pub leader: Option<Seat>,
    pub trick: Vec<PlayedCard>,
    pub last_trick: Option<TrickInfo>,
    /// Tricks won this hand by each team (seats 0+2, then 1+3).
    pub tricks_won: Vec<u8>,
    /// Every card played in finished tricks.
    pub played: CardSet,
    /// For each seat, the suits it has shown it no longer holds (it did not follow them).
    pub shown_out: Vec<Vec<Suit>>,
    pub totals: Vec<i32>,
    pub legal_moves: Vec<TarneebMove>,
    pub outcome: Option<Outcome>,
}

impl PlayerView for TarneebView {
    type Move = TarneebMove;
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn legal_moves(&self) -> &[TarneebMove] {
        &self.legal_moves
    }
}
