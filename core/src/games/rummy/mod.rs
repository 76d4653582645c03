//! Rummy (RULES.md §3): variants `standard` (draw, meld, discard, to 100) and `classic` (the
//! seven-card exchange game: seven rounds, lowest total wins).
//!
//! Options: see [`config`]. Moves, one action each:
//! - `standard`: `{"type":"draw_stock"}` or `{"type":"take_discard"}`; then any number of
//!   `{"type":"meld","cards":[…]}` and `{"type":"lay_off","meld":ID,"cards":[…]}`; then
//!   `{"type":"discard","card":"9C"}`.
//! - `classic`: melds and lay-offs; then `{"type":"take_discard","drop":"9C"}`, or
//!   `{"type":"draw_stock"}` (the face-down card is turned over for all to see) followed by
//!   `{"type":"keep","drop":"9C"}` or `{"type":"pass_drawn"}`; then melds and lay-offs again
//!   and `{"type":"end_turn"}`.
//!
//! Choices made where RULES.md leaves room:
//! - Cards are dealt one at a time from the player who starts, then one card starts the face-up
//!   pile. In `classic`, round k (counting from 0) starts with seat k mod n, dealt by the seat
//!   before it.
//! - An empty stock is refilled (or the hand ended) when a turn would start on it.
//! - In `standard`, a meld or lay-off that would leave only the card just taken from the
//!   discard pile (which may not be discarded) is refused: the player could never finish the
//!   turn.
//! - Going out in one turn "without having melded before" means no meld or lay-off in an
//!   earlier turn of the hand.

mod bot;
mod config;
mod event;
pub mod meld;
mod view;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::any::GameKind;
use crate::bots::BotLevel;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::options::{KindInfo, LevelInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, Seat, Sides, Viewer};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Status, Table, TableSpec};

pub use config::{RummyConfig, Variant};
pub use event::{RummyEvent, ShownHand};
pub use meld::{AceRule, Meld, MeldError, MeldKind};
pub use view::{PlayerInfo, RummyView};

/// A Rummy move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RummyMove {
    /// `standard`: draw the top of the stock. `classic`: turn over the top face-down card.
    DrawStock {},
    /// Take the face-up card; in `classic`, `drop` (another card) goes onto the pile in exchange.
    TakeDiscard {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drop: Option<Card>,
    },
    /// `classic`: keep the turned-over card and put `drop` on the face-up pile.
    Keep { drop: Card },
    /// `classic`: put the turned-over card straight on the face-up pile.
    PassDrawn {},
    /// Put a new set or run on the table.
    Meld { cards: CardSet },
    /// Add cards to meld number `meld`.
    LayOff { meld: u16, cards: CardSet },
    /// `standard`: discard a card, ending the turn.
    Discard { card: Card },
    /// `classic`: end the turn.
    EndTurn {},
}

/// Why the rules refuse a Rummy move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RummyRejection {
    WrongStep(&'static str),
    EmptyPile,
    NotInHand(Card),
    /// A move of the other variant.
    NotInVariant(&'static str),
    Meld(MeldError),
    NoSuchMeld(u16),
    JustTaken(Card),
    WouldKeepOnlyTaken(Card),
    DropTheTurnedCard,
}

impl fmt::Display for RummyRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RummyRejection::WrongStep(what) => f.write_str(what),
            RummyRejection::EmptyPile => f.write_str("that pile is empty"),
            RummyRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            RummyRejection::NotInVariant(what) => f.write_str(what),
            RummyRejection::Meld(error) => write!(f, "{error}"),
            RummyRejection::NoSuchMeld(id) => write!(f, "there is no meld {id} on the table"),
            RummyRejection::JustTaken(card) => write!(
                f,
                "you cannot discard {}: you just took it from the discard pile",
                card.pretty()
            ),
            RummyRejection::WouldKeepOnlyTaken(card) => write!(
                f,
                "that would leave you only {}, which you just took and may not discard",
                card.pretty()
            ),
            RummyRejection::DropTheTurnedCard => {
                f.write_str("to give the turned-over card away, pass it (`pass_drawn`)")
            }
        }
    }
}

/// Where a turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
enum Step {
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
    config: RummyConfig,
    table: Table,
    /// The stock (face-down pile), top card last.
    stock: Vec<Card>,
    /// The face-up pile, top card last.
    discards: Vec<Card>,
    hands: Vec<CardSet>,
    /// Cards each seat took face up and still holds.
    known: Vec<CardSet>,
    melds: Vec<Meld>,
    to_act: Seat,
    step: Step,
    /// Whether each seat melded or laid off in an earlier turn of this hand.
    melded_before: Vec<bool>,
    /// Whether the seat to act has melded or laid off this turn.
    melded_this_turn: bool,
    turned_over: bool,
    /// The hands shown when this hand was scored.
    shown: Vec<ShownHand>,
    /// The last hand was void: the same dealer deals again.
    void: bool,
}

/// `standard`'s count of cards left: ace 1, two to ten their pip, faces 10.
pub fn standard_value(card: Card) -> i32 {
    i32::from(card.rank().number().min(10))
}

/// `classic`'s count of cards left: ace 1, two to ten their pip, jack 11, queen 12, king 13.
pub fn classic_value(card: Card) -> i32 {
    i32::from(card.rank().number())
}

impl Rummy {
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
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
        let fail = |what: String| Err(SetupError::Position(what));
        if position.hands.len() != n {
            return fail(format!("needs {n} hands"));
        }
        let mut placed = CardSet::EMPTY;
        let mut melds = Vec::new();
        for (id, cards) in position.melds.iter().enumerate() {
            match meld::as_meld(*cards, config.ace()) {
                Ok(mut m) => {
                    m.id = id as u16;
                    melds.push(m);
                }
                Err(e) => return fail(format!("has a meld that is none: {e}")),
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
                return fail(format!("puts {twice} in two places"));
            }
            placed |= cards;
        }
        if let Some(missing) = (CardSet::ALL - placed).first() {
            return fail(format!("does not place {missing}"));
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
            hands: position.hands,
            known: vec![CardSet::EMPTY; n],
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

    fn classic_dealer(&self, round: u32) -> Seat {
        let n = u32::from(self.config.seats);
        Seat::new(((round + n - 1) % n) as u8)
    }

    fn begin_deal(&mut self, dealer: Seat) -> Events<RummyEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, _) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.discards.clear();
        let n = usize::from(self.config.seats);
        self.hands = vec![CardSet::EMPTY; n];
        self.known = vec![CardSet::EMPTY; n];
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
                    self.hands[seat.index()].insert(card);
                }
            }
        }
        for seat in Seat::all(self.config.seats) {
            events.push(Scoped::private(
                seat,
                RummyEvent::Dealt {
                    seat,
                    cards: self.hands[seat.index()],
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
    /// when it is empty again (RULES.md §3.1, §3.2 "Empty stock").
    fn next_turn(&mut self, seat: Seat, events: &mut Events<RummyEvent>) {
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
    fn check_out(&mut self, seat: Seat, events: &mut Events<RummyEvent>) -> bool {
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

    fn check_meld(&self, seat: Seat, cards: CardSet) -> Result<(), RummyRejection> {
        if let Some(card) = (cards - self.hand(seat)).first() {
            return Err(RummyRejection::NotInHand(card));
        }
        meld::as_meld(cards, self.config.ace()).map_err(RummyRejection::Meld)?;
        self.check_keeps_playable(seat, cards)
    }

    fn check_lay_off(&self, seat: Seat, id: u16, cards: CardSet) -> Result<(), RummyRejection> {
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

    fn meld_moves(&self, seat: Seat) -> Vec<RummyMove> {
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

fn wrong_step(what: &'static str) -> Result<RummyMove, RummyRejection> {
    Err(RummyRejection::WrongStep(what))
}

impl Game for Rummy {
    const KIND: GameKind = GameKind::Rummy;
    type Config = RummyConfig;
    type Move = RummyMove;
    type Event = RummyEvent;
    type View = RummyView;
    type Rejection = RummyRejection;

    fn describe() -> KindInfo {
        let mut levels = vec![
            LevelInfo {
                name: "easy",
                summary: "level 3 of the original design's numbered scale: plans melds roughly, \
                          remembers the last dozen face-up cards, blunders often",
            },
            LevelInfo {
                name: "medium",
                summary: "level 6 of the numbered scale: exact meld planning, a short memory, \
                          occasional blunders",
            },
            LevelInfo {
                name: "hard",
                summary: "level 10 of the numbered scale: exact planning, full memory, no blunders",
            },
            LevelInfo {
                name: "random",
                summary: "a uniformly random legal move",
            },
            LevelInfo {
                name: "greedy",
                summary: "melds and lays off all it can, takes the face-up card when it fits a \
                          meld, and throws its highest loose card",
            },
        ];
        levels.extend(
            bot::LEVELS
                .iter()
                .map(|(name, summary)| LevelInfo { name, summary }),
        );
        KindInfo {
            kind: GameKind::Rummy,
            title: "Rummy",
            summary: "Meld sets and runs, lay off onto any meld, and get rid of your cards.",
            variants: Variant::ALL.map(RummyConfig::variant_info).to_vec(),
            levels,
            default_level: "greedy",
        }
    }

    fn configure(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<RummyConfig, SetupError> {
        RummyConfig::new(variant, seats, options)
    }

    fn start(
        config: RummyConfig,
        setup: &Setup,
    ) -> Result<(Rummy, Events<RummyEvent>), SetupError> {
        let first_dealer = match config.variant {
            // Round 0 starts with seat 0, so the last seat deals it.
            Variant::Classic => FirstDealer::Fixed(Seat::new(config.seats - 1)),
            Variant::Standard => FirstDealer::Drawn,
        };
        let table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: Sides::individual(config.seats),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer,
                initial_total: 0,
            },
            setup,
        )?;
        let dealer = table.dealer();
        let mut game = Rummy {
            stock: Vec::new(),
            discards: Vec::new(),
            hands: Vec::new(),
            known: Vec::new(),
            melds: Vec::new(),
            to_act: dealer,
            step: Step::Draw,
            melded_before: Vec::new(),
            melded_this_turn: false,
            turned_over: false,
            shown: Vec::new(),
            void: false,
            config,
            table,
        };
        let events = game.begin_deal(dealer);
        Ok((game, events))
    }

    fn config(&self) -> &RummyConfig {
        &self.config
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn to_act(&self) -> Option<Seat> {
        (self.table.status() == Status::Active).then_some(self.to_act)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<RummyMove> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        let hand = self.hand(seat);
        match self.step {
            Step::Draw => {
                let mut moves = Vec::new();
                if !self.stock.is_empty() {
                    moves.push(RummyMove::DrawStock {});
                }
                if !self.discards.is_empty() {
                    moves.push(RummyMove::TakeDiscard { drop: None });
                }
                moves
            }
            Step::Play { taken } => {
                let mut moves = self.meld_moves(seat);
                moves.extend(
                    hand.iter()
                        .filter(|&c| Some(c) != taken)
                        .map(|card| RummyMove::Discard { card }),
                );
                moves
            }
            Step::BeforeExchange => {
                let mut moves = self.meld_moves(seat);
                if !self.discards.is_empty() {
                    moves.extend(
                        hand.iter()
                            .map(|c| RummyMove::TakeDiscard { drop: Some(c) }),
                    );
                }
                if !self.stock.is_empty() {
                    moves.push(RummyMove::DrawStock {});
                }
                moves
            }
            Step::Turned { .. } => {
                let mut moves: Vec<RummyMove> =
                    hand.iter().map(|drop| RummyMove::Keep { drop }).collect();
                moves.push(RummyMove::PassDrawn {});
                moves
            }
            Step::AfterExchange => {
                let mut moves = self.meld_moves(seat);
                moves.push(RummyMove::EndTurn {});
                moves
            }
        }
    }

    fn check(&self, seat: Seat, mv: &RummyMove) -> Result<RummyMove, RummyRejection> {
        let classic = self.config.variant == Variant::Classic;
        let hand = self.hand(seat);
        match (mv, self.step) {
            (RummyMove::DrawStock {}, Step::Draw | Step::BeforeExchange) => {
                if self.stock.is_empty() {
                    Err(RummyRejection::EmptyPile)
                } else {
                    Ok(mv.clone())
                }
            }
            (RummyMove::DrawStock {}, _) => wrong_step("you cannot draw now"),
            (RummyMove::TakeDiscard { drop }, Step::Draw | Step::BeforeExchange) => {
                if self.discards.is_empty() {
                    return Err(RummyRejection::EmptyPile);
                }
                match (drop, classic) {
                    (Some(_), false) => Err(RummyRejection::NotInVariant(
                        "in standard Rummy you take the discard without dropping a card; you \
                         discard at the end of your turn",
                    )),
                    (None, true) => Err(RummyRejection::NotInVariant(
                        "name the card you put on the face-up pile in exchange (`drop`)",
                    )),
                    (Some(card), true) if !hand.contains(*card) => {
                        Err(RummyRejection::NotInHand(*card))
                    }
                    _ => Ok(mv.clone()),
                }
            }
            (RummyMove::TakeDiscard { .. }, _) => {
                wrong_step("you cannot take the face-up card now")
            }
            (RummyMove::Keep { drop }, Step::Turned { card }) => {
                if *drop == card {
                    Err(RummyRejection::DropTheTurnedCard)
                } else if !hand.contains(*drop) {
                    Err(RummyRejection::NotInHand(*drop))
                } else {
                    Ok(mv.clone())
                }
            }
            (RummyMove::PassDrawn {}, Step::Turned { .. }) => Ok(mv.clone()),
            (RummyMove::Keep { .. } | RummyMove::PassDrawn {}, _) => {
                wrong_step("keep or pass a card only after turning one over")
            }
            (
                RummyMove::Meld { cards },
                Step::Play { .. } | Step::BeforeExchange | Step::AfterExchange,
            ) => self.check_meld(seat, *cards).map(|()| mv.clone()),
            (
                RummyMove::LayOff { meld, cards },
                Step::Play { .. } | Step::BeforeExchange | Step::AfterExchange,
            ) => self.check_lay_off(seat, *meld, *cards).map(|()| mv.clone()),
            (RummyMove::Meld { .. } | RummyMove::LayOff { .. }, Step::Draw) => {
                wrong_step("draw first: from the stock or the discard pile")
            }
            (RummyMove::Meld { .. } | RummyMove::LayOff { .. }, _) => {
                wrong_step("keep or pass the turned-over card first")
            }
            (RummyMove::Discard { card }, Step::Play { taken }) => {
                if !hand.contains(*card) {
                    Err(RummyRejection::NotInHand(*card))
                } else if taken == Some(*card) {
                    Err(RummyRejection::JustTaken(*card))
                } else {
                    Ok(mv.clone())
                }
            }
            (RummyMove::Discard { .. }, Step::Draw) => {
                wrong_step("draw first: from the stock or the discard pile")
            }
            (RummyMove::Discard { .. }, _) => Err(RummyRejection::NotInVariant(
                "in classic Rummy you exchange a card instead of discarding",
            )),
            (RummyMove::EndTurn {}, Step::AfterExchange) => Ok(mv.clone()),
            (RummyMove::EndTurn {}, Step::BeforeExchange) => wrong_step(
                "exchange a card first: take the face-up card or turn over the face-down one",
            ),
            (RummyMove::EndTurn {}, Step::Turned { .. }) => {
                wrong_step("keep or pass the turned-over card first")
            }
            (RummyMove::EndTurn {}, _) => Err(RummyRejection::NotInVariant(
                "in standard Rummy a turn ends with a discard",
            )),
        }
    }

    fn view(&self, viewer: Viewer) -> RummyView {
        let seat = viewer.seat();
        RummyView {
            config: self.config.clone(),
            seat,
            status: self.table.status(),
            hand_number: self.table.hand_number(),
            dealer: self.table.dealer(),
            to_act: self.to_act(),
            step: match self.step {
                Step::Draw => "draw",
                Step::Play { .. } => "play",
                Step::BeforeExchange => "meld_or_exchange",
                Step::Turned { .. } => "keep_or_pass",
                Step::AfterExchange => "meld_or_end",
            }
            .to_owned(),
            hand: seat.map(|s| self.hand(s)).unwrap_or_default(),
            taken: match self.step {
                Step::Play { taken } => taken,
                _ => None,
            },
            turned: match self.step {
                Step::Turned { card } => Some(card),
                _ => None,
            },
            discard_top: self.discards.last().copied(),
            discards: self.discards.clone(),
            stock: self.stock.len() as u8,
            turned_over: self.turned_over,
            melds: self.melds.clone(),
            players: Seat::all(self.config.seats)
                .map(|s| PlayerInfo {
                    seat: s,
                    cards: self.hand(s).len() as u8,
                    known: self.known.get(s.index()).copied().unwrap_or_default(),
                    melded: self.melded_before.get(s.index()).copied().unwrap_or(false)
                        || (s == self.to_act && self.melded_this_turn),
                    total: self.table.totals().get(s.index()).copied().unwrap_or(0),
                })
                .collect(),
            shown: self.shown.clone(),
            legal_moves: seat.map(|s| self.legal_moves(s)).unwrap_or_default(),
            outcome: self.table.outcome().cloned(),
        }
    }

    fn zones(&self) -> Vec<Zone> {
        let mut zones = vec![
            Zone {
                name: "stock".to_owned(),
                cards: self.stock.iter().rev().copied().collect(),
                seen_by: Audience::Nobody,
            },
            Zone {
                name: "face-up pile".to_owned(),
                cards: self.discards.clone(),
                seen_by: Audience::Everyone,
            },
            Zone {
                name: "melds".to_owned(),
                cards: self.melds.iter().flat_map(|m| m.cards.iter()).collect(),
                seen_by: Audience::Everyone,
            },
        ];
        if let Step::Turned { card } = self.step {
            zones.push(Zone {
                name: "turned-over card".to_owned(),
                cards: vec![card],
                seen_by: Audience::Everyone,
            });
        }
        for seat in Seat::all(self.config.seats) {
            let known = self.known.get(seat.index()).copied().unwrap_or_default();
            let shown = self.shown.iter().any(|h| h.seat == seat);
            zones.push(Zone {
                name: format!("hand of seat {}", seat.number()),
                cards: (self.hand(seat) - known).to_vec(),
                seen_by: if shown {
                    Audience::Everyone
                } else {
                    Audience::Seat(seat)
                },
            });
            zones.push(Zone {
                name: format!("cards seat {} took face up", seat.number()),
                cards: known.to_vec(),
                seen_by: Audience::Everyone,
            });
        }
        zones
    }

    fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng) {
        let hidden: Vec<Seat> = Seat::all(self.config.seats)
            .filter(|&s| viewer.seat() != Some(s) && !self.shown.iter().any(|h| h.seat == s))
            .collect();
        let mut pool: Vec<Card> = self.stock.clone();
        for &s in &hidden {
            pool.extend((self.hands[s.index()] - self.known[s.index()]).iter());
        }
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        self.stock = rest.by_ref().take(self.stock.len()).collect();
        for &s in &hidden {
            let secret = (self.hands[s.index()] - self.known[s.index()]).len();
            self.hands[s.index()] = self.known[s.index()] | rest.by_ref().take(secret).collect();
        }
    }

    fn bot_move(view: &RummyView, level: BotLevel, rng: &mut CardRng) -> Option<RummyMove> {
        bot::choose(view, level, rng)
    }

    fn apply(&mut self, seat: Seat, mv: RummyMove, _: Sealed) -> Events<RummyEvent> {
        let mut events = Vec::new();
        let i = seat.index();
        match mv {
            RummyMove::DrawStock {} => {
                let Some(card) = self.stock.pop() else {
                    return events;
                };
                match self.config.variant {
                    Variant::Standard => {
                        self.hands[i].insert(card);
                        events.push(Scoped::public(RummyEvent::Drew { seat }));
                        events.push(Scoped::private(seat, RummyEvent::DrewCard { seat, card }));
                        self.step = Step::Play { taken: None };
                    }
                    Variant::Classic => {
                        events.push(Scoped::public(RummyEvent::TurnedOver { seat, card }));
                        self.step = Step::Turned { card };
                    }
                }
            }
            RummyMove::TakeDiscard { drop } => {
                let Some(card) = self.discards.pop() else {
                    return events;
                };
                self.hands[i].insert(card);
                self.known[i].insert(card);
                if let Some(dropped) = drop {
                    self.hands[i].remove(dropped);
                    self.known[i].remove(dropped);
                    self.discards.push(dropped);
                    self.step = Step::AfterExchange;
                } else {
                    self.step = Step::Play { taken: Some(card) };
                }
                events.push(Scoped::public(RummyEvent::TookDiscard {
                    seat,
                    card,
                    dropped: drop,
                }));
            }
            RummyMove::Keep { drop } => {
                if let Step::Turned { card } = self.step {
                    self.hands[i].insert(card);
                    self.known[i].insert(card);
                    self.hands[i].remove(drop);
                    self.known[i].remove(drop);
                    self.discards.push(drop);
                    events.push(Scoped::public(RummyEvent::Kept {
                        seat,
                        card,
                        dropped: drop,
                    }));
                }
                self.step = Step::AfterExchange;
            }
            RummyMove::PassDrawn {} => {
                if let Step::Turned { card } = self.step {
                    self.discards.push(card);
                    events.push(Scoped::public(RummyEvent::Passed { seat, card }));
                }
                self.step = Step::AfterExchange;
            }
            RummyMove::Meld { cards } => {
                if let Ok(mut new) = meld::as_meld(cards, self.config.ace()) {
                    new.id = self.melds.len() as u16;
                    self.hands[i] -= cards;
                    self.known[i] -= cards;
                    self.melded_this_turn = true;
                    events.push(Scoped::public(RummyEvent::Melded {
                        seat,
                        meld: new.clone(),
                    }));
                    self.melds.push(new);
                    self.check_out(seat, &mut events);
                }
            }
            RummyMove::LayOff { meld: id, cards } => {
                let grown = self
                    .melds
                    .get(usize::from(id))
                    .and_then(|m| meld::extend(m, cards, self.config.ace()).ok());
                if let Some(grown) = grown {
                    self.melds[usize::from(id)] = grown;
                    self.hands[i] -= cards;
                    self.known[i] -= cards;
                    self.melded_this_turn = true;
                    events.push(Scoped::public(RummyEvent::LaidOff {
                        seat,
                        meld: id,
                        cards,
                    }));
                    self.check_out(seat, &mut events);
                }
            }
            RummyMove::Discard { card } => {
                self.hands[i].remove(card);
                self.known[i].remove(card);
                self.discards.push(card);
                events.push(Scoped::public(RummyEvent::Discarded { seat, card }));
                if !self.check_out(seat, &mut events) {
                    self.next_turn(seat, &mut events);
                }
            }
            RummyMove::EndTurn {} => self.next_turn(seat, &mut events),
        }
        events
    }

    fn deal(&mut self, _: Sealed) -> Events<RummyEvent> {
        let dealer = match self.config.variant {
            Variant::Classic => self.classic_dealer(self.table.hand_number()),
            Variant::Standard if self.void => self.table.dealer(),
            Variant::Standard => self.table.dealer().next(self.config.seats),
        };
        self.begin_deal(dealer)
    }

    fn table_mut(&mut self, _: Sealed) -> &mut Table {
        &mut self.table
    }
}

/// Cards that count in a hand at the end (used by the computer players too).
pub fn hand_value(config: &RummyConfig, cards: CardSet) -> i32 {
    cards
        .iter()
        .map(|c| match config.variant {
            Variant::Standard => standard_value(c),
            Variant::Classic => classic_value(c),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_counts_per_variant() {
        let king: Card = "KH".parse().unwrap();
        let ace: Card = "AH".parse().unwrap();
        assert_eq!(standard_value(king), 10);
        assert_eq!(classic_value(king), 13);
        assert_eq!(standard_value(ace), 1);
        assert_eq!(classic_value(ace), 1);
        assert_eq!(classic_value("JC".parse().unwrap()), 11);
    }
}
