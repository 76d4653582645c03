//! A game of Rummy's state: the cards' places, the melds on the table, the turn, and how a hand
//! is dealt, turned over and scored. Its fields are visible to the game's own modules (the
//! rules in `game.rs`), not beyond.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Events, Scoped};
use crate::options::{PositionError, SetupError};
use crate::seat::{BySeat, Seat, Sides};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Table, TableSpec};

use super::config::{RummyConfig, Variant};
use super::event::{RummyEvent, ShownHand};
use super::meld::{self, Meld, MeldError};
use super::moves::{NotNow, RummyMove, RummyRejection};
use super::value::hand_value;

/// Where a turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub(super) enum Step {
    /// `standard`: draw from the stock or the discard pile.
    Draw,
    /// `standard`: meld, lay off, discard; `taken` came from the discard pile.
    Play { taken: Option<Card> },
    /// `classic` step 1: meld and lay off, then exchange.
    BeforeExchange,
    /// `classic`: the face-down card `card` is turned over: keep it or pass it.
    Turned { card: Card },
    /// `classic` step 3: meld and lay off, then end the turn.
    AfterExchange,
}

/// A Rummy position set up by hand (for teaching, puzzles and tests), at the start of
/// `to_act`'s turn: every card of the deck in exactly one place.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct RummyPosition {
    pub dealer: Seat,
    pub to_act: Seat,
    pub hands: Vec<CardSet>,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    /// The face-up pile, bottom card first.
    pub discards: Vec<Card>,
    /// The melds on the table, in order.
    pub melds: Vec<CardSet>,
    /// Each seat's total before this hand (empty: all 0).
    pub totals: Vec<i32>,
    /// Which seats melded in an earlier turn of this hand (empty: none).
    pub melded_before: Vec<bool>,
    /// The hand (in `classic`, the round) being played, from 1.
    pub hand_number: u32,
    pub turned_over: bool,
}

/// A game of Rummy.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Rummy {
    pub(super) config: RummyConfig,
    pub(super) table: Table,
    /// The stock (face-down pile), top card last.
    pub(super) stock: Vec<Card>,
    /// The face-up pile, top card last.
    pub(super) discards: Vec<Card>,
    pub(super) hands: BySeat<CardSet>,
    /// Cards each seat took face up and still holds.
    pub(super) known: BySeat<CardSet>,
    pub(super) melds: Vec<Meld>,
    pub(super) to_act: Seat,
    pub(super) step: Step,
    /// Whether each seat melded or laid off in an earlier turn of this hand.
    pub(super) melded_before: Vec<bool>,
    /// Whether the seat to act has melded or laid off this turn.
    pub(super) melded_this_turn: bool,
    pub(super) turned_over: bool,
    /// The hands shown when this hand was scored.
    pub(super) shown: Vec<ShownHand>,
    /// The last hand was void: the same dealer deals again.
    pub(super) void: bool,
}

impl Rummy {
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The melds on the table.
    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }

    /// A game at a position set up by hand. The seed drives later deals.
    pub fn from_position(
        config: RummyConfig,
        position: RummyPosition,
        seed: crate::rng::Seed,
    ) -> Result<Rummy, SetupError> {
        let n = usize::from(config.seats);
        let fail = |why: PositionError| Err(SetupError::Position(why));
        if position.hands.len() != n {
            return fail(PositionError::Hands(n));
        }
        let mut placed = CardSet::EMPTY;
        let mut melds = Vec::new();
        for (id, cards) in position.melds.iter().enumerate() {
            match meld::as_meld(*cards, config.ace()) {
                Ok(mut m) => {
                    m.id = id as u16;
                    melds.push(m);
                }
                Err(e) => {
                    return fail(PositionError::NotAMeld {
                        cards: *cards,
                        reason: e.to_string(),
                    });
                }
            }
        }
        let places = position.hands.iter().chain(&position.melds).copied().chain(
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
        let mut table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: Sides::individual(config.seats),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Fixed(position.dealer),
                initial_total: 0,
            },
            &Setup::seeded(seed),
        )?;
        for _ in 0..position.hand_number.max(1) {
            table.begin_hand(position.dealer);
            table.next_deck();
        }
        if !position.totals.is_empty() {
            table.set_totals(&position.totals);
        }
        let mut game = Rummy {
            stock: position.stock.into_iter().rev().collect(),
            discards: position.discards,
            hands: BySeat::new(position.hands),
            known: BySeat::filled(n, CardSet::EMPTY),
            melds,
            to_act: position.to_act,
            step: Step::Draw,
            melded_before: if position.melded_before.is_empty() {
                vec![false; n]
            } else {
                position.melded_before
            },
            melded_this_turn: false,
            turned_over: position.turned_over,
            shown: Vec::new(),
            void: false,
            config,
            table,
        };
        game.step = game.turn_start_step();
        Ok(game)
    }

    /// The first player of the current hand: next(dealer), or in `classic` seat k mod n.
    fn first_player(&self, dealer: Seat) -> Seat {
        dealer.next(self.config.seats)
    }

    pub(super) fn classic_dealer(&self, round: u32) -> Seat {
        let n = u32::from(self.config.seats);
        Seat::new(((round + n - 1) % n) as u8)
    }

    pub(super) fn begin_deal(&mut self, dealer: Seat) -> Events<RummyEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, _) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.discards.clear();
        let n = usize::from(self.config.seats);
        self.hands = BySeat::filled(n, CardSet::EMPTY);
        self.known = BySeat::filled(n, CardSet::EMPTY);
        self.melds.clear();
        self.melded_before = vec![false; n];
        self.melded_this_turn = false;
        self.turned_over = false;
        self.shown.clear();
        self.void = false;
        let first = self.first_player(dealer);
        for _ in 0..self.config.hand_size() {
            for i in 0..self.config.seats {
                let seat = Seat::new((first.number() + i) % self.config.seats);
                if let Some(card) = self.stock.pop() {
                    self.hands[seat].insert(card);
                }
            }
        }
        for seat in Seat::all(self.config.seats) {
            events.push(Scoped::private(
                seat,
                RummyEvent::Dealt {
                    seat,
                    cards: self.hands[seat],
                },
            ));
        }
        if let Some(card) = self.stock.pop() {
            self.discards.push(card);
            events.push(Scoped::public(RummyEvent::HandDealt {
                face_up: card,
                stock: self.stock.len() as u8,
            }));
        }
        self.to_act = first;
        self.step = self.turn_start_step();
        events
    }

    fn turn_start_step(&self) -> Step {
        match self.config.variant {
            Variant::Standard => Step::Draw,
            Variant::Classic => Step::BeforeExchange,
        }
    }

    /// The next seat's turn, with the stock refilled once when it is empty, and the hand ended
    /// when it is empty again (docs/rules.md#rummy-standard, #rummy-classic "Empty stock").
    pub(super) fn next_turn(&mut self, seat: Seat, events: &mut Events<RummyEvent>) {
        if self.melded_this_turn {
            self.melded_before[seat.index()] = true;
        }
        self.melded_this_turn = false;
        self.to_act = seat.next(self.config.seats);
        self.step = self.turn_start_step();
        if self.stock.is_empty() {
            if !self.turned_over {
                self.turned_over = true;
                if let Some(top) = self.discards.pop() {
                    // Turned over, not shuffled: the first card discarded is the new top.
                    let pile = std::mem::take(&mut self.discards);
                    self.stock = pile.into_iter().rev().collect();
                    self.discards.push(top);
                    events.push(Scoped::public(RummyEvent::StockTurnedOver {
                        stock: self.stock.len() as u8,
                    }));
                }
            }
            if self.stock.is_empty() {
                events.push(Scoped::public(RummyEvent::StockExhausted));
                match self.config.variant {
                    Variant::Standard => self.void_hand(events),
                    Variant::Classic => self.score_round(events),
                }
            }
        }
    }

    fn show_hands(&mut self, events: &mut Events<RummyEvent>) {
        self.shown = Seat::all(self.config.seats)
            .filter(|s| !self.hand(*s).is_empty())
            .map(|seat| ShownHand {
                seat,
                cards: self.hand(seat),
            })
            .collect();
        events.push(Scoped::public(RummyEvent::HandsShown {
            hands: self.shown.clone(),
        }));
    }

    /// `standard`: the stock ran out twice: no score, the same dealer deals again.
    fn void_hand(&mut self, events: &mut Events<RummyEvent>) {
        self.void = true;
        events.push(Scoped::table(self.table.end_hand(Vec::new(), 0)));
    }

    /// `standard`: the winner scores the cards left in the other hands, doubled for rummy.
    fn score_going_out(&mut self, winner: Seat, events: &mut Events<RummyEvent>) {
        let rummy = !self.melded_before[winner.index()];
        events.push(Scoped::public(RummyEvent::WentOut {
            seat: winner,
            rummy,
        }));
        self.show_hands(events);
        let side = winner.number();
        let mut lines: Vec<ScoreLine> = Seat::all(self.config.seats)
            .filter(|&s| s != winner)
            .map(|s| ScoreLine {
                side,
                points: hand_value(&self.config, self.hand(s)),
                item: ScoreItem::CardsLeft {
                    seat: s,
                    cards: self.hand(s).to_vec(),
                },
            })
            .collect();
        if rummy {
            let doubled = lines.iter().map(|l| l.points).sum();
            lines.push(ScoreLine {
                side,
                points: doubled,
                item: ScoreItem::Rummy,
            });
        }
        events.push(Scoped::table(self.table.end_hand(lines, 0)));
        if let Some(leaders) = self.table.leaders_at_target(self.config.target)
            && leaders.len() == 1
        {
            events.push(Scoped::table(self.table.finish(leaders, EndReason::Target)));
        }
    }

    /// `classic`: everyone adds the cards left in their hand; after the last round, the lowest
    /// total wins (equal lowest share the win).
    fn score_round(&mut self, events: &mut Events<RummyEvent>) {
        self.show_hands(events);
        let lines = Seat::all(self.config.seats)
            .filter(|s| !self.hand(*s).is_empty())
            .map(|s| ScoreLine {
                side: s.number(),
                points: hand_value(&self.config, self.hand(s)),
                item: ScoreItem::CardsLeft {
                    seat: s,
                    cards: self.hand(s).to_vec(),
                },
            })
            .collect();
        events.push(Scoped::table(self.table.end_hand(lines, 0)));
        if self.table.hand_number() >= u32::from(self.config.rounds) {
            let lowest = self.table.totals().iter().copied().min().unwrap_or(0);
            let winners = (0..self.config.seats)
                .filter(|&s| self.table.totals()[usize::from(s)] == lowest)
                .collect();
            events.push(Scoped::table(
                self.table.finish(winners, EndReason::FinalHand),
            ));
        }
    }

    /// After a seat's hand changed: an empty hand ends the hand (round) at once.
    pub(super) fn check_out(&mut self, seat: Seat, events: &mut Events<RummyEvent>) -> bool {
        if !self.hand(seat).is_empty() {
            return false;
        }
        match self.config.variant {
            Variant::Standard => self.score_going_out(seat, events),
            Variant::Classic => {
                events.push(Scoped::public(RummyEvent::WentOut { seat, rummy: false }));
                self.score_round(events);
            }
        }
        true
    }

    pub(super) fn check_meld(&self, seat: Seat, cards: CardSet) -> Result<(), RummyRejection> {
        if let Some(card) = (cards - self.hand(seat)).first() {
            return Err(RummyRejection::NotInHand(card));
        }
        meld::as_meld(cards, self.config.ace()).map_err(RummyRejection::Meld)?;
        self.check_keeps_playable(seat, cards)
    }

    pub(super) fn check_lay_off(
        &self,
        seat: Seat,
        id: u16,
        cards: CardSet,
    ) -> Result<(), RummyRejection> {
        if let Some(card) = (cards - self.hand(seat)).first() {
            return Err(RummyRejection::NotInHand(card));
        }
        if cards.is_empty() {
            return Err(RummyRejection::Meld(MeldError::TooFew(cards)));
        }
        let target = self
            .melds
            .get(usize::from(id))
            .ok_or(RummyRejection::NoSuchMeld(id))?;
        meld::extend(target, cards, self.config.ace()).map_err(RummyRejection::Meld)?;
        self.check_keeps_playable(seat, cards)
    }

    /// `standard`: never leave only the card just taken, which may not be discarded.
    fn check_keeps_playable(&self, seat: Seat, cards: CardSet) -> Result<(), RummyRejection> {
        if let Step::Play { taken: Some(taken) } = self.step
            && self.hand(seat) - cards == CardSet::single(taken)
        {
            return Err(RummyRejection::WouldKeepOnlyTaken(taken));
        }
        Ok(())
    }

    pub(super) fn meld_moves(&self, seat: Seat) -> Vec<RummyMove> {
        let hand = self.hand(seat);
        let ace = self.config.ace();
        let mut moves: Vec<RummyMove> = meld::melds_in(hand, ace)
            .into_iter()
            .filter(|&cards| self.check_keeps_playable(seat, cards).is_ok())
            .map(|cards| RummyMove::Meld { cards })
            .collect();
        for m in &self.melds {
            for cards in meld::lay_offs(m, hand, ace) {
                if self.check_keeps_playable(seat, cards).is_ok() {
                    moves.push(RummyMove::LayOff { meld: m.id, cards });
                }
            }
        }
        moves
    }
}

pub(super) fn not_now(when: NotNow) -> Result<RummyMove, RummyRejection> {
    Err(RummyRejection::NotNow(when))
}
