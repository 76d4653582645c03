//! A game of 31's state: the cards' places, the turn, the knock, and how a hand is dealt,
//! shown down and scored in lives. Its fields are visible to the game's own modules (the rules
//! in `game.rs`, the computer player's sampled worlds), not beyond.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Events, Scoped};
use crate::options::{PositionError, SetupError};
use crate::seat::{BySeat, Seat, Sides};
use crate::table::{
    EndReason, FirstDealer, LifeLoss, ScoreItem, ScoreLine, Setup, Table, TableSpec,
};

use super::config::{ThirtyOneConfig, Variant};
use super::event::{ShownHand, ThirtyOneEvent};
use super::value::{HandValue, hand_value};

/// Where a turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub(super) enum Step {
    /// Knock or draw.
    TurnStart,
    /// Discard; `taken` came from the discard pile.
    Discard { taken: Option<Card> },
}

/// A 31 position set up by hand (for teaching, puzzles and tests), at the start of `to_act`'s
/// turn: every card of the deck in exactly one place.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct ThirtyOnePosition {
    pub dealer: Seat,
    pub to_act: Seat,
    pub hands: Vec<CardSet>,
    /// Cards each seat took from the discard pile (a part of its hand).
    pub known: Vec<CardSet>,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    /// The discard pile, bottom card first.
    pub discards: Vec<Card>,
    /// Lives per seat (−1: out); empty for everyone's full lives.
    pub lives: Vec<i32>,
    pub knocker: Option<Seat>,
    /// Turns still to be played after the knock.
    pub final_turns: u8,
    pub reshuffled: bool,
}

/// A game of 31.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ThirtyOne {
    pub(super) config: ThirtyOneConfig,
    pub(super) table: Table,
    /// The stock, top card last.
    pub(super) stock: Vec<Card>,
    /// The discard pile, top card last.
    pub(super) discards: Vec<Card>,
    pub(super) hands: BySeat<CardSet>,
    /// Cards each seat took from the discard pile and still holds.
    pub(super) known: BySeat<CardSet>,
    pub(super) to_act: Seat,
    pub(super) step: Step,
    pub(super) knocker: Option<Seat>,
    /// Turns still to be played after the knock.
    pub(super) final_turns: u8,
    pub(super) reshuffled: bool,
    /// The hands shown at the end of this hand (none before, or after a drawn hand).
    pub(super) shown: Vec<ShownHand>,
}

impl ThirtyOne {
    /// A seat's cards.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// Whether a seat is still in the game.
    pub fn is_in(&self, seat: Seat) -> bool {
        self.table
            .totals()
            .get(seat.index())
            .is_some_and(|&lives| lives >= 0)
    }

    /// A game at a position set up by hand, in its first hand. The seed drives later deals.
    pub fn from_position(
        config: ThirtyOneConfig,
        position: ThirtyOnePosition,
        seed: crate::rng::Seed,
    ) -> Result<ThirtyOne, SetupError> {
        let n = usize::from(config.seats);
        let fail = |why: PositionError| Err(SetupError::Position(why));
        if position.hands.len() != n || (!position.known.is_empty() && position.known.len() != n) {
            return fail(PositionError::Hands(n));
        }
        if !position.lives.is_empty() && position.lives.len() != n {
            return fail(PositionError::Lives(n));
        }
        let mut placed = CardSet::EMPTY;
        let places = position.hands.iter().copied().chain(
            position
                .stock
                .iter()
                .chain(&position.discards)
                .map(|&c| CardSet::single(c)),
        );
        for cards in places {
            if let Some(twice) = (placed & cards).first() {
                return fail(PositionError::Twice(twice));
            }
            placed |= cards;
        }
        if let Some(missing) = (CardSet::ALL - placed).first() {
            return fail(PositionError::Unplaced(missing));
        }
        let known = if position.known.is_empty() {
            vec![CardSet::EMPTY; n]
        } else {
            position.known
        };
        if known
            .iter()
            .zip(&position.hands)
            .any(|(k, h)| !k.is_subset(*h))
        {
            return fail(PositionError::TookUnheld);
        }
        let mut table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: Sides::individual(config.seats),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Fixed(position.dealer),
                initial_total: config.lives,
            },
            &Setup::seeded(seed),
        )?;
        table.begin_hand(position.dealer);
        table.next_deck();
        if !position.lives.is_empty() {
            table.set_totals(&position.lives);
        }
        let game = ThirtyOne {
            config,
            table,
            stock: position.stock.into_iter().rev().collect(),
            discards: position.discards,
            hands: BySeat::new(position.hands),
            known: BySeat::new(known),
            to_act: position.to_act,
            step: Step::TurnStart,
            knocker: position.knocker,
            final_turns: position.final_turns,
            reshuffled: position.reshuffled,
            shown: Vec::new(),
        };
        if !game.is_in(position.to_act) || game.hand(position.to_act).len() != 3 {
            return fail(PositionError::NoSeatToAct);
        }
        Ok(game)
    }

    pub(super) fn active_seats(&self) -> Vec<Seat> {
        Seat::all(self.config.seats)
            .filter(|&s| self.is_in(s))
            .collect()
    }

    pub(super) fn next_in(&self, seat: Seat) -> Seat {
        let mut next = seat.next(self.config.seats);
        for _ in 0..self.config.seats {
            if self.is_in(next) {
                return next;
            }
            next = next.next(self.config.seats);
        }
        seat
    }

    pub(super) fn value(&self, seat: Seat) -> HandValue {
        hand_value(self.hand(seat), self.config.three_of_a_kind)
    }

    /// Deals a hand: 3 cards each, one at a time from the seat after the dealer, then the first
    /// card of the discard pile (docs/rules.md#thirty-one-standard "Deal").
    pub(super) fn begin_deal(&mut self, dealer: Seat) -> Events<ThirtyOneEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, _) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.discards.clear();
        self.hands = BySeat::filled(usize::from(self.config.seats), CardSet::EMPTY);
        self.known = BySeat::filled(usize::from(self.config.seats), CardSet::EMPTY);
        self.knocker = None;
        self.final_turns = 0;
        self.reshuffled = false;
        self.shown.clear();
        self.step = Step::TurnStart;
        let first = self.next_in(dealer);
        let mut receivers = vec![first];
        while receivers.len() < self.active_seats().len() {
            let last = receivers[receivers.len() - 1];
            receivers.push(self.next_in(last));
        }
        for _ in 0..3 {
            for &seat in &receivers {
                if let Some(card) = self.stock.pop() {
                    self.hands[seat].insert(card);
                }
            }
        }
        for &seat in &receivers {
            events.push(Scoped::private(
                seat,
                ThirtyOneEvent::Dealt {
                    seat,
                    cards: self.hands[seat],
                },
            ));
        }
        if let Some(card) = self.stock.pop() {
            self.discards.push(card);
            events.push(Scoped::public(ThirtyOneEvent::HandDealt {
                discard: card,
                stock: self.stock.len() as u8,
            }));
        }
        self.to_act = first;
        let holders: Vec<Seat> = receivers
            .into_iter()
            .filter(|&s| self.value(s) == HandValue::THIRTY_ONE)
            .collect();
        if !holders.is_empty() {
            self.end_on_thirty_one(holders, &mut events);
        }
        events
    }

    /// A completed turn: the final turns count down after a knock, then the showdown; otherwise
    /// the next seat plays, with the stock turned over or the hand drawn if it ran out.
    pub(super) fn end_turn(&mut self, seat: Seat, events: &mut Events<ThirtyOneEvent>) {
        self.step = Step::TurnStart;
        if let Some(knocker) = self.knocker {
            if seat != knocker {
                self.final_turns = self.final_turns.saturating_sub(1);
            }
            if self.final_turns == 0 {
                self.showdown(events);
                return;
            }
        }
        self.to_act = self.next_in(seat);
        if self.stock.is_empty() {
            if !self.reshuffled {
                self.reshuffle(events);
            }
            if self.stock.is_empty() {
                events.push(Scoped::public(ThirtyOneEvent::StockExhausted));
                self.score_hand(Vec::new(), events);
            }
        }
    }

    /// docs/rules.md#thirty-one-standard "Empty stock": the discard pile except its top card, shuffled, once.
    fn reshuffle(&mut self, events: &mut Events<ThirtyOneEvent>) {
        self.reshuffled = true;
        let Some(top) = self.discards.pop() else {
            return;
        };
        let mut cards = std::mem::take(&mut self.discards);
        self.table.deal_rng(1).shuffle(&mut cards);
        self.stock = cards;
        self.discards.push(top);
        events.push(Scoped::public(ThirtyOneEvent::Reshuffled {
            stock: self.stock.len() as u8,
        }));
    }

    /// Shows every hand still in the game (docs/rules.md#thirty-one-standard: "then all hands are shown").
    fn show_hands(&mut self) -> Vec<ShownHand> {
        self.shown = self
            .active_seats()
            .into_iter()
            .map(|seat| ShownHand {
                seat,
                cards: self.hand(seat),
                value: self.value(seat),
            })
            .collect();
        self.shown.clone()
    }

    pub(super) fn is_shown(&self, seat: Seat) -> bool {
        self.shown.iter().any(|h| h.seat == seat)
    }

    fn loss(&self, seat: Seat, lives: i32, cause: LifeLoss) -> ScoreLine {
        let left = self.table.totals().get(seat.index()).copied().unwrap_or(0);
        ScoreLine {
            side: seat.number(),
            points: -lives.min(left + 1),
            item: ScoreItem::LifeLost { cause },
        }
    }

    /// Every hand is shown; the lowest loses (docs/rules.md#thirty-one-standard "Showdown", #thirty-one-classic).
    pub(super) fn showdown(&mut self, events: &mut Events<ThirtyOneEvent>) {
        let hands = self.show_hands();
        events.push(Scoped::public(ThirtyOneEvent::Showdown {
            hands: hands.clone(),
            knocker: self.knocker,
            thirty_one: Vec::new(),
        }));
        let lowest_value = hands.iter().map(|h| h.value).min();
        let lowest: Vec<Seat> = hands
            .iter()
            .filter(|h| Some(h.value) == lowest_value)
            .map(|h| h.seat)
            .collect();
        let knocker = self.knocker;
        let lines = match self.config.variant {
            Variant::Standard => match lowest.as_slice() {
                [alone] if Some(*alone) == knocker => {
                    vec![self.loss(*alone, 2, LifeLoss::KnockerAloneLowest)]
                }
                tied => tied
                    .iter()
                    .filter(|&&s| Some(s) != knocker)
                    .map(|&s| self.loss(s, 1, LifeLoss::LowestHand))
                    .collect(),
            },
            // Two players: the lower hand loses one token; a tie costs nothing.
            Variant::Classic => match lowest.as_slice() {
                [alone] => vec![self.loss(*alone, 1, LifeLoss::LowestHand)],
                _ => Vec::new(),
            },
        };
        self.score_hand(lines, events);
    }

    /// Someone holds 31: every hand is shown and everyone else loses a life (in `classic`,
    /// nobody if both hold 31).
    pub(super) fn end_on_thirty_one(
        &mut self,
        holders: Vec<Seat>,
        events: &mut Events<ThirtyOneEvent>,
    ) {
        let hands = self.show_hands();
        events.push(Scoped::public(ThirtyOneEvent::Showdown {
            hands,
            knocker: self.knocker,
            thirty_one: holders.clone(),
        }));
        let losers: Vec<Seat> = self
            .active_seats()
            .into_iter()
            .filter(|s| !holders.contains(s))
            .collect();
        let lines = if self.config.variant == Variant::Classic && losers.is_empty() {
            Vec::new()
        } else {
            losers
                .into_iter()
                .map(|s| self.loss(s, 1, LifeLoss::ThirtyOne))
                .collect()
        };
        self.score_hand(lines, events);
    }

    /// Records the hand; seats that lost a life with none left are out; the last one in wins.
    fn score_hand(&mut self, lines: Vec<ScoreLine>, events: &mut Events<ThirtyOneEvent>) {
        let before = self.active_seats();
        events.push(Scoped::table(self.table.end_hand(lines, 0)));
        for seat in before {
            if !self.is_in(seat) {
                events.push(Scoped::public(ThirtyOneEvent::PlayerOut { seat }));
            }
        }
        if let [winner] = self.active_seats().as_slice() {
            events.push(Scoped::table(
                self.table
                    .finish(vec![winner.number()], EndReason::LastStanding),
            ));
        }
    }
}
