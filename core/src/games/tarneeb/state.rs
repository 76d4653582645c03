//! A game of Tarneeb's state: the hands, the auction, the trick in play, and how a hand is
//! dealt, bid, played trick by trick and scored. Its fields are visible to the game's own
//! modules (the rules in `game.rs`), not beyond.

use serde::{Deserialize, Serialize};

use crate::card::Suit;
use crate::cardset::CardSet;
use crate::game::{Events, Scoped};
use crate::options::{PositionError, SetupError};
use crate::seat::{BySeat, Seat, Sides};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Table, TableSpec};

use super::auction::{
    self, Bid, Call, CallRecord, Contract, Denomination, Phase, PlayedCard, trick_winner,
};
use super::config::{TarneebConfig, Variant};
use super::event::TarneebEvent;
use super::moves::TarneebMove;
use super::view::TrickInfo;

/// A Tarneeb position set up by hand (for teaching, puzzles and tests): the auction about to
/// start (no `contract`), or the play about to start with the declarer to lead.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct TarneebPosition {
    pub dealer: Seat,
    /// Thirteen cards each.
    pub hands: Vec<CardSet>,
    /// The contract, for a position at the start of the play.
    pub contract: Option<Contract>,
    /// The trump (`standard`: named by the declarer; `classic`: the contract's denomination).
    pub trump: Option<Suit>,
    /// Each team's total before this hand (empty: 0).
    pub totals: Vec<i32>,
}

/// A game of Tarneeb.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Tarneeb {
    pub(super) config: TarneebConfig,
    pub(super) table: Table,
    pub(super) hands: BySeat<CardSet>,
    pub(super) phase: Phase,
    pub(super) to_act: Seat,
    pub(super) auction: Vec<CallRecord>,
    /// The highest bid so far, then the contract.
    pub(super) highest: Option<Contract>,
    pub(super) trump: Option<Suit>,
    pub(super) leader: Seat,
    pub(super) trick: Vec<PlayedCard>,
    pub(super) last_trick: Option<TrickInfo>,
    pub(super) tricks_won: [u8; 2],
    pub(super) played: CardSet,
    /// Suits each seat has shown out of.
    pub(super) shown_out: Vec<Vec<Suit>>,
}

pub(super) const SEATS: u8 = 4;

pub(super) fn team(seat: Seat) -> usize {
    seat.index() % 2
}

impl Tarneeb {
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// Where the hand stands: the auction, the naming of the trump, or the play.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The contract once the auction is over (none while it runs).
    pub fn contract(&self) -> Option<Contract> {
        if self.phase == Phase::Bidding {
            None
        } else {
            self.highest
        }
    }

    /// The trump suit, once named (none in a no-trump contract).
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The cards played so far this hand (the trick in progress included).
    pub fn cards_played(&self) -> CardSet {
        self.played
    }

    pub(super) fn begin_deal(&mut self, dealer: Seat, redeal: bool) -> Events<TarneebEvent> {
        let started = if redeal {
            self.table.restart_hand()
        } else {
            self.table.begin_hand(dealer)
        };
        let mut events = vec![Scoped::table(started)];
        let (order, _) = self.table.next_deck();
        let mut deck = order.into_iter();
        self.hands = BySeat::filled(usize::from(SEATS), CardSet::EMPTY);
        for _ in 0..13 {
            for i in 1..=SEATS {
                let seat = Seat::new((dealer.number() + i) % SEATS);
                if let Some(card) = deck.next() {
                    self.hands[seat].insert(card);
                }
            }
        }
        for seat in Seat::all(SEATS) {
            events.push(Scoped::private(
                seat,
                TarneebEvent::Dealt {
                    seat,
                    cards: self.hands[seat],
                },
            ));
        }
        self.phase = Phase::Bidding;
        self.auction.clear();
        self.highest = None;
        self.trump = None;
        self.trick.clear();
        self.last_trick = None;
        self.tricks_won = [0, 0];
        self.played = CardSet::EMPTY;
        self.shown_out = vec![Vec::new(); usize::from(SEATS)];
        // `standard`: the seat after the dealer bids first; `classic`: the dealer.
        self.to_act = match self.config.variant {
            Variant::Standard => dealer.next(SEATS),
            Variant::Classic => dealer,
        };
        self.leader = self.to_act;
        events
    }

    /// A game at a position set up by hand. The seed drives later deals.
    pub fn from_position(
        config: TarneebConfig,
        position: TarneebPosition,
        seed: crate::rng::Seed,
    ) -> Result<Tarneeb, SetupError> {
        let fail = |why: PositionError| Err(SetupError::Position(why));
        if position.hands.len() != 4 || position.hands.iter().any(|h| h.len() != 13) {
            return fail(PositionError::TarneebHands);
        }
        let mut placed = CardSet::EMPTY;
        for hand in &position.hands {
            if let Some(twice) = (placed & *hand).first() {
                return fail(PositionError::Twice(twice));
            }
            placed |= *hand;
        }
        let mut table = Table::new(
            TableSpec {
                seats: SEATS,
                sides: Sides::partnerships(SEATS),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Fixed(position.dealer),
                initial_total: 0,
            },
            &Setup::seeded(seed),
        )?;
        table.begin_hand(position.dealer);
        table.next_deck();
        if !position.totals.is_empty() {
            table.set_totals(&position.totals);
        }
        let first = match config.variant {
            Variant::Standard => position.dealer.next(SEATS),
            Variant::Classic => position.dealer,
        };
        let (phase, to_act) = match position.contract {
            Some(contract) => (Phase::Play, contract.declarer),
            None => (Phase::Bidding, first),
        };
        Ok(Tarneeb {
            config,
            table,
            hands: BySeat::new(position.hands),
            phase,
            to_act,
            auction: Vec::new(),
            highest: position.contract,
            trump: position.trump,
            leader: to_act,
            trick: Vec::new(),
            last_trick: None,
            tricks_won: [0, 0],
            played: CardSet::EMPTY,
            shown_out: vec![Vec::new(); usize::from(SEATS)],
        })
    }

    fn has_passed(&self, seat: Seat) -> bool {
        self.auction
            .iter()
            .any(|c| c.seat == seat && c.call == Call::Pass)
    }

    /// The auction's next turn or its end (docs/rules.md#tarneeb-standard, #tarneeb-classic "Auction").
    pub(super) fn after_call(&mut self, seat: Seat, events: &mut Events<TarneebEvent>) {
        let bid_made = self.highest.is_some();
        let over = match self.config.variant {
            Variant::Standard => {
                let passed = Seat::all(SEATS).filter(|&s| self.has_passed(s)).count();
                let thirteen = self.highest.is_some_and(|c| c.bid.tricks == 13);
                thirteen || (bid_made && passed == 3) || passed == 4
            }
            Variant::Classic => {
                let trailing_passes = self
                    .auction
                    .iter()
                    .rev()
                    .take_while(|c| c.call == Call::Pass)
                    .count();
                (bid_made && trailing_passes >= 3) || (!bid_made && trailing_passes >= 4)
            }
        };
        if !over {
            let mut next = seat.next(SEATS);
            if self.config.variant == Variant::Standard {
                while self.has_passed(next) {
                    next = next.next(SEATS);
                }
            }
            self.to_act = next;
            return;
        }
        match self.highest {
            None => {
                events.push(Scoped::public(TarneebEvent::AllPassed));
                let dealer = self.table.dealer();
                events.extend(self.begin_deal(dealer, true));
            }
            Some(contract) => {
                events.push(Scoped::public(TarneebEvent::Contracted { contract }));
                self.to_act = contract.declarer;
                self.leader = contract.declarer;
                match contract.bid.suit {
                    Some(denomination) => {
                        self.trump = denomination.trump();
                        self.phase = Phase::Play;
                    }
                    None => self.phase = Phase::Trump,
                }
            }
        }
    }

    /// A completed trick goes to its winner, who leads the next; after the thirteenth the hand
    /// is scored.
    pub(super) fn finish_trick(&mut self, events: &mut Events<TarneebEvent>) {
        let Some(winner) = trick_winner(&self.trick, self.trump) else {
            return;
        };
        let cards = std::mem::take(&mut self.trick);
        for p in &cards {
            self.played.insert(p.card);
        }
        self.tricks_won[team(winner.seat)] += 1;
        events.push(Scoped::public(TarneebEvent::TrickWon {
            winner: winner.seat,
            cards: cards.clone(),
        }));
        self.last_trick = Some(TrickInfo {
            cards,
            winner: winner.seat,
        });
        self.leader = winner.seat;
        self.to_act = winner.seat;
        if self.played.len() == 52 {
            self.score_hand(events);
        }
    }

    fn score_hand(&mut self, events: &mut Events<TarneebEvent>) {
        let Some(contract) = self.highest else {
            return;
        };
        let bidders = team(contract.declarer);
        let taken = self.tricks_won[bidders];
        let (for_bidders, for_defenders) = auction::score(self.config.variant, contract.bid, taken);
        let item = ScoreItem::Contract {
            declarer: contract.declarer,
            bid: contract.bid.tricks,
            tricks: taken,
            made: taken >= contract.bid.tricks,
        };
        let lines = vec![
            ScoreLine {
                side: bidders as u8,
                points: for_bidders,
                item: item.clone(),
            },
            ScoreLine {
                side: 1 - bidders as u8,
                points: for_defenders,
                item,
            },
        ];
        events.push(Scoped::table(self.table.end_hand(lines, 0)));
        if let Some(leaders) = self.table.leaders_at_target(self.config.target)
            && leaders.len() == 1
        {
            events.push(Scoped::table(self.table.finish(leaders, EndReason::Target)));
        }
    }

    pub(super) fn legal_cards(&self, seat: Seat) -> CardSet {
        auction::playable(self.hand(seat), &self.trick)
    }

    pub(super) fn legal_bids(&self) -> Vec<TarneebMove> {
        let denominations: Vec<Option<Denomination>> = match self.config.variant {
            Variant::Standard => vec![None],
            Variant::Classic => Denomination::ALL.into_iter().map(Some).collect(),
        };
        (7..=13u8)
            .flat_map(|tricks| denominations.iter().map(move |&suit| Bid { tricks, suit }))
            .filter(|bid| self.highest.is_none_or(|c| bid.beats(c.bid)))
            .map(|bid| TarneebMove::Bid {
                tricks: bid.tricks,
                suit: bid.suit,
            })
            .collect()
    }
}
