//! 31, also called Scat (RULES.md §2): variants `standard` and `classic`.
//!
//! Options: see [`config`]. Moves: `{"type":"knock"}`, `{"type":"draw","from":"stock"}` or
//! `"discard"`, then `{"type":"discard","card":"KH"}`.
//!
//! The running totals are lives (tokens): 3, then 0 on the bus (the last-chance token), and −1
//! once out. Choices made where RULES.md leaves room:
//! - The stock is turned over from the discard pile when a turn would start on an empty stock;
//!   if it is empty again at the start of a turn, the hand is a draw.
//! - When a hand ends on a 31, every hand is shown, as at a knock's showdown.
//! - The deal passes to the next seat still in the game.

mod bot;
mod config;
mod event;
pub mod value;
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
use crate::table::{
    EndReason, FirstDealer, LifeLoss, ScoreItem, ScoreLine, Setup, Status, Table, TableSpec,
};

pub use config::{ThirtyOneConfig, Variant};
pub use event::{Pile, ShownHand, ThirtyOneEvent};
pub use value::{HandValue, hand_value};
pub use view::{PlayerInfo, ThirtyOneView};

/// A 31 move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ThirtyOneMove {
    /// End the hand after everyone else's one more turn (at the start of a turn, once a hand).
    /// (A struct variant, so that unknown fields are refused as for the other moves.)
    Knock {},
    /// Take the top card of the stock or of the discard pile.
    Draw { from: Pile },
    /// Put a card on the discard pile (never the one just taken from it).
    Discard { card: Card },
}

/// Why the rules refuse a 31 move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ThirtyOneRejection {
    AlreadyKnocked(Seat),
    KnockAfterDrawing,
    AlreadyDrew,
    DrawFirst,
    EmptyPile(Pile),
    NotInHand(Card),
    JustTaken(Card),
}

impl fmt::Display for ThirtyOneRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThirtyOneRejection::AlreadyKnocked(seat) => {
                write!(f, "seat {} has already knocked this hand", seat.number())
            }
            ThirtyOneRejection::KnockAfterDrawing => {
                f.write_str("you can knock only at the start of your turn, before drawing")
            }
            ThirtyOneRejection::AlreadyDrew => f.write_str("you have drawn: now discard a card"),
            ThirtyOneRejection::DrawFirst => f.write_str("draw a card (or knock) first"),
            ThirtyOneRejection::EmptyPile(Pile::Stock) => f.write_str("the stock is empty"),
            ThirtyOneRejection::EmptyPile(Pile::Discard) => {
                f.write_str("the discard pile is empty")
            }
            ThirtyOneRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            ThirtyOneRejection::JustTaken(card) => write!(
                f,
                "you cannot discard {}: you just took it from the discard pile",
                card.pretty()
            ),
        }
    }
}

/// Where a turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
enum Step {
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
    config: ThirtyOneConfig,
    table: Table,
    /// The stock, top card last.
    stock: Vec<Card>,
    /// The discard pile, top card last.
    discards: Vec<Card>,
    hands: Vec<CardSet>,
    /// Cards each seat took from the discard pile and still holds.
    known: Vec<CardSet>,
    to_act: Seat,
    step: Step,
    knocker: Option<Seat>,
    /// Turns still to be played after the knock.
    final_turns: u8,
    reshuffled: bool,
    /// The hands shown at the end of this hand (none before, or after a drawn hand).
    shown: Vec<ShownHand>,
}

impl ThirtyOne {
    /// A seat's cards.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
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
        let fail = |what: String| Err(SetupError::Position(what));
        if position.hands.len() != n || (!position.known.is_empty() && position.known.len() != n) {
            return fail(format!("needs {n} hands"));
        }
        if !position.lives.is_empty() && position.lives.len() != n {
            return fail(format!("needs {n} lives"));
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
                return fail(format!("puts {twice} in two places"));
            }
            placed |= cards;
        }
        if let Some(missing) = (CardSet::ALL - placed).first() {
            return fail(format!("does not place {missing}"));
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
            return fail("says a seat took cards it does not hold".to_owned());
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
            hands: position.hands,
            known,
            to_act: position.to_act,
            step: Step::TurnStart,
            knocker: position.knocker,
            final_turns: position.final_turns,
            reshuffled: position.reshuffled,
            shown: Vec::new(),
        };
        if !game.is_in(position.to_act) || game.hand(position.to_act).len() != 3 {
            return fail("must have a seat in the game with three cards to act".to_owned());
        }
        Ok(game)
    }

    fn active_seats(&self) -> Vec<Seat> {
        Seat::all(self.config.seats)
            .filter(|&s| self.is_in(s))
            .collect()
    }

    fn next_in(&self, seat: Seat) -> Seat {
        let mut next = seat.next(self.config.seats);
        for _ in 0..self.config.seats {
            if self.is_in(next) {
                return next;
            }
            next = next.next(self.config.seats);
        }
        seat
    }

    fn value(&self, seat: Seat) -> HandValue {
        hand_value(self.hand(seat), self.config.three_of_a_kind)
    }

    /// Deals a hand: 3 cards each, one at a time from the seat after the dealer, then the first
    /// card of the discard pile (RULES.md §2.1 "Deal").
    fn begin_deal(&mut self, dealer: Seat) -> Events<ThirtyOneEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, _) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.discards.clear();
        self.hands = vec![CardSet::EMPTY; usize::from(self.config.seats)];
        self.known = vec![CardSet::EMPTY; usize::from(self.config.seats)];
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
                    self.hands[seat.index()].insert(card);
                }
            }
        }
        for &seat in &receivers {
            events.push(Scoped::private(
                seat,
                ThirtyOneEvent::Dealt {
                    seat,
                    cards: self.hands[seat.index()],
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
    fn end_turn(&mut self, seat: Seat, events: &mut Events<ThirtyOneEvent>) {
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

    /// RULES.md §2.1 "Empty stock": the discard pile except its top card, shuffled, once.
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

    /// Shows every hand still in the game (RULES.md §2.1: "then all hands are shown").
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

    fn is_shown(&self, seat: Seat) -> bool {
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

    /// Every hand is shown; the lowest loses (RULES.md §2.1 "Showdown", §2.2).
    fn showdown(&mut self, events: &mut Events<ThirtyOneEvent>) {
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
    fn end_on_thirty_one(&mut self, holders: Vec<Seat>, events: &mut Events<ThirtyOneEvent>) {
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

impl Game for ThirtyOne {
    const KIND: GameKind = GameKind::ThirtyOne;
    type Config = ThirtyOneConfig;
    type Move = ThirtyOneMove;
    type Event = ThirtyOneEvent;
    type View = ThirtyOneView;
    type Rejection = ThirtyOneRejection;

    fn describe() -> KindInfo {
        KindInfo {
            kind: GameKind::ThirtyOne,
            title: "31",
            summary: "Scat: three cards, one suit, as close to 31 as you can; knock when you are \
                      not the lowest.",
            variants: Variant::ALL.map(ThirtyOneConfig::variant_info).to_vec(),
            levels: vec![
                LevelInfo {
                    name: "easy",
                    summary: "the original design's heuristic (the same as `greedy`)",
                },
                LevelInfo {
                    name: "medium",
                    summary: "estimates what the others hold from the cards it has seen (the same \
                              as `strong`)",
                },
                LevelInfo {
                    name: "hard",
                    summary: "`medium`, checked by a search: deals the unseen cards 48 times (the \
                              cards each player took from the discard pile stay in its hand, and \
                              each hand is improved by as many draws as its owner has had turns), \
                              plays every move out to the end of the hand with `easy` at every \
                              seat, and changes `medium`'s move only where another wins clearly",
                },
                LevelInfo {
                    name: "random",
                    summary: "a uniformly random legal move",
                },
                LevelInfo {
                    name: "greedy",
                    summary: "the original design: knocks above 26, takes the discard when it \
                              improves the hand, otherwise draws, and discards the card that \
                              costs least",
                },
                LevelInfo {
                    name: "strong",
                    summary: "estimates what the others hold from the cards it has seen: knocks \
                              when it is unlikely to be lowest, and weighs the discard against \
                              the stock",
                },
            ],
            default_level: "greedy",
        }
    }

    fn configure(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<ThirtyOneConfig, SetupError> {
        ThirtyOneConfig::new(variant, seats, options)
    }

    fn start(
        config: ThirtyOneConfig,
        setup: &Setup,
    ) -> Result<(ThirtyOne, Events<ThirtyOneEvent>), SetupError> {
        let first_dealer = match config.variant {
            Variant::Classic => FirstDealer::Fixed(Seat::new(1)),
            Variant::Standard => FirstDealer::Drawn,
        };
        let table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: Sides::individual(config.seats),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer,
                initial_total: config.lives,
            },
            setup,
        )?;
        let dealer = table.dealer();
        let mut game = ThirtyOne {
            hands: Vec::new(),
            known: Vec::new(),
            stock: Vec::new(),
            discards: Vec::new(),
            to_act: dealer,
            step: Step::TurnStart,
            knocker: None,
            final_turns: 0,
            reshuffled: false,
            shown: Vec::new(),
            config,
            table,
        };
        let events = game.begin_deal(dealer);
        Ok((game, events))
    }

    fn config(&self) -> &ThirtyOneConfig {
        &self.config
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn to_act(&self) -> Option<Seat> {
        (self.table.status() == Status::Active).then_some(self.to_act)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<ThirtyOneMove> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.step {
            Step::TurnStart => {
                let mut moves = Vec::with_capacity(3);
                if self.knocker.is_none() {
                    moves.push(ThirtyOneMove::Knock {});
                }
                if !self.stock.is_empty() {
                    moves.push(ThirtyOneMove::Draw { from: Pile::Stock });
                }
                if !self.discards.is_empty() {
                    moves.push(ThirtyOneMove::Draw {
                        from: Pile::Discard,
                    });
                }
                moves
            }
            Step::Discard { taken } => self
                .hand(seat)
                .iter()
                .filter(|&c| Some(c) != taken)
                .map(|card| ThirtyOneMove::Discard { card })
                .collect(),
        }
    }

    fn check(&self, seat: Seat, mv: &ThirtyOneMove) -> Result<ThirtyOneMove, ThirtyOneRejection> {
        match (*mv, self.step) {
            (ThirtyOneMove::Knock {}, Step::TurnStart) => match self.knocker {
                Some(knocker) => Err(ThirtyOneRejection::AlreadyKnocked(knocker)),
                None => Ok(*mv),
            },
            (ThirtyOneMove::Knock {}, Step::Discard { .. }) => {
                Err(ThirtyOneRejection::KnockAfterDrawing)
            }
            (ThirtyOneMove::Draw { .. }, Step::Discard { .. }) => {
                Err(ThirtyOneRejection::AlreadyDrew)
            }
            (ThirtyOneMove::Draw { from }, Step::TurnStart) => {
                let empty = match from {
                    Pile::Stock => self.stock.is_empty(),
                    Pile::Discard => self.discards.is_empty(),
                };
                if empty {
                    Err(ThirtyOneRejection::EmptyPile(from))
                } else {
                    Ok(*mv)
                }
            }
            (ThirtyOneMove::Discard { .. }, Step::TurnStart) => Err(ThirtyOneRejection::DrawFirst),
            (ThirtyOneMove::Discard { card }, Step::Discard { taken }) => {
                if !self.hand(seat).contains(card) {
                    Err(ThirtyOneRejection::NotInHand(card))
                } else if taken == Some(card) {
                    Err(ThirtyOneRejection::JustTaken(card))
                } else {
                    Ok(*mv)
                }
            }
        }
    }

    fn view(&self, viewer: Viewer) -> ThirtyOneView {
        let seat = viewer.seat();
        let players = Seat::all(self.config.seats)
            .map(|s| {
                let lives = self.table.totals().get(s.index()).copied().unwrap_or(-1);
                PlayerInfo {
                    seat: s,
                    lives,
                    on_the_bus: lives == 0,
                    out: lives < 0,
                    cards: self.hand(s).len() as u8,
                    known: self.known.get(s.index()).copied().unwrap_or_default(),
                }
            })
            .collect();
        ThirtyOneView {
            config: self.config.clone(),
            seat,
            status: self.table.status(),
            hand_number: self.table.hand_number(),
            dealer: self.table.dealer(),
            to_act: self.to_act(),
            step: match self.step {
                Step::TurnStart => "turn_start",
                Step::Discard { .. } => "discard",
            }
            .to_owned(),
            hand: seat.map(|s| self.hand(s)).unwrap_or_default(),
            value: seat.map(|s| self.value(s)),
            taken: match self.step {
                Step::Discard { taken } => taken,
                Step::TurnStart => None,
            },
            discard_top: self.discards.last().copied(),
            discards: self.discards.clone(),
            stock: self.stock.len() as u8,
            reshuffled: self.reshuffled,
            players,
            knocker: self.knocker,
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
                name: "discard pile".to_owned(),
                cards: self.discards.clone(),
                seen_by: Audience::Everyone,
            },
        ];
        for seat in Seat::all(self.config.seats) {
            let known = self.known.get(seat.index()).copied().unwrap_or_default();
            zones.push(Zone {
                name: format!("hand of seat {}", seat.number()),
                cards: (self.hand(seat) - known).to_vec(),
                seen_by: if self.is_shown(seat) {
                    Audience::Everyone
                } else {
                    Audience::Seat(seat)
                },
            });
            zones.push(Zone {
                name: format!("cards seat {} took from the discard pile", seat.number()),
                cards: known.to_vec(),
                seen_by: Audience::Everyone,
            });
        }
        zones
    }

    fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng) {
        let hidden: Vec<Seat> = Seat::all(self.config.seats)
            .filter(|&s| viewer.seat() != Some(s) && !self.is_shown(s))
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

    fn bot_move(view: &ThirtyOneView, level: BotLevel, rng: &mut CardRng) -> Option<ThirtyOneMove> {
        bot::choose(view, level, rng)
    }

    fn apply(&mut self, seat: Seat, mv: ThirtyOneMove, _: Sealed) -> Events<ThirtyOneEvent> {
        let mut events = Vec::new();
        match mv {
            ThirtyOneMove::Knock {} => {
                self.knocker = Some(seat);
                self.final_turns = (self.active_seats().len() as u8).saturating_sub(1);
                events.push(Scoped::public(ThirtyOneEvent::Knocked { seat }));
                self.end_turn(seat, &mut events);
            }
            ThirtyOneMove::Draw { from: Pile::Stock } => {
                if let Some(card) = self.stock.pop() {
                    self.hands[seat.index()].insert(card);
                    events.push(Scoped::public(ThirtyOneEvent::Drew {
                        seat,
                        from: Pile::Stock,
                        card: None,
                    }));
                    events.push(Scoped::private(
                        seat,
                        ThirtyOneEvent::DrewCard { seat, card },
                    ));
                }
                self.step = Step::Discard { taken: None };
            }
            ThirtyOneMove::Draw {
                from: Pile::Discard,
            } => {
                let taken = self.discards.pop();
                if let Some(card) = taken {
                    self.hands[seat.index()].insert(card);
                    self.known[seat.index()].insert(card);
                    events.push(Scoped::public(ThirtyOneEvent::Drew {
                        seat,
                        from: Pile::Discard,
                        card: Some(card),
                    }));
                }
                self.step = Step::Discard { taken };
            }
            ThirtyOneMove::Discard { card } => {
                self.hands[seat.index()].remove(card);
                self.known[seat.index()].remove(card);
                self.discards.push(card);
                events.push(Scoped::public(ThirtyOneEvent::Discarded { seat, card }));
                if self.value(seat) == HandValue::THIRTY_ONE {
                    self.end_on_thirty_one(vec![seat], &mut events);
                } else {
                    self.end_turn(seat, &mut events);
                }
            }
        }
        events
    }

    fn deal(&mut self, _: Sealed) -> Events<ThirtyOneEvent> {
        let dealer = match self.config.variant {
            Variant::Classic => Seat::new(1),
            Variant::Standard => self.next_in(self.table.dealer()),
        };
        self.begin_deal(dealer)
    }

    fn table_mut(&mut self, _: Sealed) -> &mut Table {
        &mut self.table
    }
}
