//! Basra, the fishing game (RULES.md §1): variants `standard`, `classic44` and `cse231`.
//!
//! Options: see [`config`]. A move is `{"type":"play","card":"7D","capture":[…]}`; `capture`
//! may be left out (the automatic or preferred capture is taken) and, where given, must name
//! exactly the cards the play takes — in `classic44` any maximal capture the player chooses.
//! Legal moves always carry the capture they make, so a client can show it before playing.
//!
//! Choices made where RULES.md leaves room:
//! - "Largest family" means the most cards captured.
//! - A jack or 7♦ dealt to the floor goes back into the stock at a uniformly random depth
//!   below the top card (so the replacement is a different card), drawn from the deal's
//!   stream. Replacements stop after 1000 returns (never reached with five such cards).
//! - Leftover floor cards with no capture in the deal go to the dealer's side.

mod bot;
pub mod capture;
mod config;
mod event;
pub mod rules;
mod view;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::any::GameKind;
use crate::bots::BotLevel;
use crate::card::{Card, pretty_cards};
use crate::cardset::CardSet;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::options::{KindInfo, LevelInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, Seat, Viewer};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Status, Table, TableSpec};

pub use config::{BasraConfig, MajorityTie, Variant};
pub use event::BasraEvent;
pub use view::{BasraView, SideView};

use capture::POINT_CARDS;

/// A Basra move: play a card, optionally naming the floor cards it captures.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BasraMove {
    Play {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<CardSet>,
    },
}

impl BasraMove {
    /// The card played.
    pub fn card(&self) -> Card {
        match self {
            BasraMove::Play { card, .. } => *card,
        }
    }

    /// The capture named, if any.
    pub fn capture(&self) -> Option<CardSet> {
        match self {
            BasraMove::Play { capture, .. } => *capture,
        }
    }
}

/// A basra made in the current deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BasraMark {
    pub seat: Seat,
    pub card: Card,
    pub points: i32,
}

/// Why the rules refuse a Basra move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BasraRejection {
    NotInHand(Card),
    NotOnFloor(Card),
    /// The capture is not a choice here: the card takes exactly `takes`.
    Automatic {
        card: Card,
        takes: CardSet,
    },
    /// A `classic44` choice must hold every same-rank floor card.
    MissingSameRank {
        card: Card,
        missing: CardSet,
    },
    /// A `classic44` choice whose other cards do not split into groups adding up to the card.
    NotSums {
        card: Card,
        cards: CardSet,
    },
    /// A `classic44` choice that another group of the floor would extend.
    Extendable {
        card: Card,
        group: CardSet,
    },
}

impl fmt::Display for BasraRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BasraRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            BasraRejection::NotOnFloor(card) => {
                write!(f, "{} is not on the floor", card.pretty())
            }
            BasraRejection::Automatic { card, takes } if takes.is_empty() => write!(
                f,
                "{} captures nothing here: leave out `capture` or send an empty list",
                card.pretty()
            ),
            BasraRejection::Automatic { card, takes } => write!(
                f,
                "{} captures exactly {} here: leave out `capture` or name those cards",
                card.pretty(),
                pretty_cards(*takes)
            ),
            BasraRejection::MissingSameRank { card, missing } => write!(
                f,
                "a capture with {} must take every {} on the floor; missing {}",
                card.pretty(),
                card.rank().label(),
                pretty_cards(*missing)
            ),
            BasraRejection::NotSums { card, cards } => write!(
                f,
                "{} do not split into groups of two or more numerals that each add up to {}",
                pretty_cards(*cards),
                card.rank().number()
            ),
            BasraRejection::Extendable { card, group } => write!(
                f,
                "the capture must take as much as it can: {} also add up to {}",
                pretty_cards(*group),
                card.rank().number()
            ),
        }
    }
}

/// A Basra game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Basra {
    config: BasraConfig,
    table: Table,
    /// The stock, top card last.
    stock: Vec<Card>,
    hands: Vec<CardSet>,
    floor: CardSet,
    /// Each side's capture pile.
    piles: Vec<CardSet>,
    /// Each side's basras this deal.
    basras: Vec<Vec<BasraMark>>,
    round: u8,
    to_act: Seat,
    last_capture: Option<Seat>,
    last_play: Option<Seat>,
    /// Majority points carried over from tied deals.
    carried: i32,
}

/// A Basra position set up by hand (for teaching, puzzles and tests): every card of the
/// variant's deck must be in exactly one place.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct BasraPosition {
    pub dealer: Seat,
    pub to_act: Seat,
    pub hands: Vec<CardSet>,
    pub floor: CardSet,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    /// Each side's capture pile.
    pub piles: Vec<CardSet>,
    /// The round of the deal being played, from 1.
    pub round: u8,
    pub last_capture: Option<Seat>,
    pub carried: i32,
    /// Each side's total before this deal.
    pub totals: Vec<i32>,
}

/// The most times cards dealt to the floor go back into the stock in one deal.
const MAX_FLOOR_RETURNS: u32 = 1000;

impl Basra {
    /// The floor.
    pub fn floor(&self) -> CardSet {
        self.floor
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    /// A game at a position set up by hand, in its first hand. The seed drives later deals.
    pub fn from_position(
        config: BasraConfig,
        position: BasraPosition,
        seed: crate::rng::Seed,
    ) -> Result<Basra, SetupError> {
        let sides = config.sides().count();
        let seats = usize::from(config.seats);
        let fail = |what: String| Err(SetupError::Position(what));
        if position.hands.len() != seats || position.piles.len() != sides {
            return fail(format!("needs {seats} hands and {sides} piles"));
        }
        if position.totals.len() != sides && !position.totals.is_empty() {
            return fail(format!("needs {sides} totals"));
        }
        if position.dealer.index() >= seats || position.to_act.index() >= seats {
            return fail("names a seat that is not at the table".to_owned());
        }
        let mut placed = CardSet::EMPTY;
        let places = position
            .hands
            .iter()
            .chain(&position.piles)
            .copied()
            .chain([position.floor])
            .chain(position.stock.iter().map(|&c| CardSet::single(c)));
        for cards in places {
            if let Some(twice) = (placed & cards).first() {
                return fail(format!("puts {twice} in two places"));
            }
            placed |= cards;
        }
        let deck = config.deck().cards();
        if let Some(stray) = (placed - deck).first() {
            return fail(format!("uses {stray}, which is not in the deck"));
        }
        if let Some(missing) = (deck - placed).first() {
            return fail(format!("does not place {missing}"));
        }
        if position.hands[position.to_act.index()].is_empty() {
            return fail("gives the seat to act no cards".to_owned());
        }
        let mut table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: config.sides(),
                deck: config.deck(),
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Fixed(position.dealer),
                initial_total: 0,
            },
            &Setup::seeded(seed),
        )?;
        table.begin_hand(position.dealer);
        table.next_deck();
        table.set_totals(&position.totals);
        Ok(Basra {
            basras: vec![Vec::new(); sides],
            config,
            table,
            stock: position.stock.into_iter().rev().collect(),
            hands: position.hands,
            floor: position.floor,
            piles: position.piles,
            round: position.round.max(1),
            to_act: position.to_act,
            last_capture: position.last_capture,
            last_play: None,
            carried: position.carried,
        })
    }

    fn sides(&self) -> usize {
        self.table.sides().count()
    }

    fn begin_deal(&mut self, dealer: Seat) -> Events<BasraEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, mut rng) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.hands = vec![CardSet::EMPTY; usize::from(self.config.seats)];
        self.floor = CardSet::EMPTY;
        self.piles = vec![CardSet::EMPTY; self.sides()];
        self.basras = vec![Vec::new(); self.sides()];
        self.round = 0;
        self.last_capture = None;
        self.last_play = None;
        self.deal_round(&mut events, Some(&mut rng));
        self.to_act = dealer.next(self.config.seats);
        events
    }

    /// Deals a round to the players (RULES.md §1.1 "Deal", §1.2, §1.3) and, with `floor_rng`,
    /// the floor after them.
    fn deal_round(&mut self, events: &mut Events<BasraEvent>, floor_rng: Option<&mut CardRng>) {
        self.round += 1;
        let seats = self.config.seats;
        let each = self.config.cards_per_round();
        let first = self.table.dealer().next(seats);
        let order: Vec<Seat> = (0..seats)
            .map(|i| Seat::new((first.number() + i) % seats))
            .collect();
        if self.config.variant == Variant::Cse231 {
            for &seat in &order {
                for _ in 0..each {
                    self.give(seat);
                }
            }
        } else {
            for _ in 0..each {
                for &seat in &order {
                    self.give(seat);
                }
            }
        }
        for &seat in &order {
            events.push(Scoped::private(
                seat,
                BasraEvent::Dealt {
                    seat,
                    cards: self.hands[seat.index()],
                },
            ));
        }
        if let Some(rng) = floor_rng {
            self.deal_floor(rng);
            events.push(Scoped::public(BasraEvent::FloorDealt { cards: self.floor }));
        }
        events.push(Scoped::public(BasraEvent::RoundDealt {
            round: self.round,
            cards_each: each,
            stock: self.stock.len() as u8,
        }));
    }

    fn give(&mut self, seat: Seat) {
        if let Some(card) = self.stock.pop() {
            self.hands[seat.index()].insert(card);
        }
    }

    /// Four cards face up; a card the variant returns goes back into the stock below the top.
    fn deal_floor(&mut self, rng: &mut CardRng) {
        let mut returns = 0;
        while self.floor.len() < 4 {
            let Some(card) = self.stock.pop() else { break };
            if self.config.returns_from_floor(card)
                && !self.stock.is_empty()
                && returns < MAX_FLOOR_RETURNS
            {
                let cards_above = 1 + rng.index(self.stock.len());
                self.stock.insert(self.stock.len() - cards_above, card);
                returns += 1;
            } else {
                self.floor.insert(card);
            }
        }
    }

    /// The cards left on the floor after the last play go to the last capturer's side (or the
    /// dealer's, if nobody captured); in `cse231` to the player who played last.
    fn collect_floor(&mut self, events: &mut Events<BasraEvent>) {
        if self.floor.is_empty() {
            return;
        }
        let seat = match self.config.variant {
            Variant::Cse231 => self.last_play,
            Variant::Standard | Variant::Classic44 => self.last_capture,
        }
        .unwrap_or(self.table.dealer());
        let side = self.table.side_of(seat);
        self.piles[usize::from(side)] |= self.floor;
        events.push(Scoped::public(BasraEvent::FloorCollected {
            seat,
            side,
            cards: self.floor,
        }));
        self.floor = CardSet::EMPTY;
    }

    /// The deal's score lines (RULES.md §1.1 "Scoring per deal", §1.2, §1.3).
    fn score_deal(&mut self) -> Vec<ScoreLine> {
        let mut lines: Vec<ScoreLine> = self
            .basras
            .iter()
            .enumerate()
            .flat_map(|(side, marks)| {
                marks.iter().map(move |mark| ScoreLine {
                    side: side as u8,
                    points: mark.points,
                    item: ScoreItem::Basra { card: mark.card },
                })
            })
            .collect();
        match self.config.variant {
            Variant::Standard => {
                let most = self.piles.iter().map(|p| p.len()).max().unwrap_or(0);
                let leaders: Vec<usize> = (0..self.piles.len())
                    .filter(|&s| self.piles[s].len() == most)
                    .collect();
                match leaders.as_slice() {
                    [side] => {
                        lines.push(ScoreLine {
                            side: *side as u8,
                            points: 30 + self.carried,
                            item: ScoreItem::Majority { cards: most as u8 },
                        });
                        self.carried = 0;
                    }
                    _ if self.config.majority_tie == MajorityTie::Carry => self.carried += 30,
                    _ => {}
                }
                lines.extend(self.card_point_lines());
            }
            Variant::Classic44 => lines.extend(self.card_point_lines()),
            Variant::Cse231 => {
                for (side, pile) in self.piles.iter().enumerate() {
                    if pile.len() >= 27 {
                        lines.push(ScoreLine {
                            side: side as u8,
                            points: 30,
                            item: ScoreItem::Majority {
                                cards: pile.len() as u8,
                            },
                        });
                    }
                }
            }
        }
        lines
    }

    fn card_point_lines(&self) -> Vec<ScoreLine> {
        self.piles
            .iter()
            .enumerate()
            .filter(|(_, pile)| !(**pile & POINT_CARDS).is_empty())
            .map(|(side, pile)| ScoreLine {
                side: side as u8,
                points: rules::card_points(*pile),
                item: ScoreItem::CardPoints {
                    cards: (*pile & POINT_CARDS).to_vec(),
                },
            })
            .collect()
    }

    /// After the last card: the floor is collected, the deal scored, and the game decided
    /// (RULES.md §1.1 "End of game"; §1.3: one deal, higher score wins, equal is a draw).
    fn end_deal(&mut self, events: &mut Events<BasraEvent>) {
        self.collect_floor(events);
        let lines = self.score_deal();
        events.push(Scoped::table(self.table.end_hand(lines, self.carried)));
        let decided = match self.config.variant {
            Variant::Cse231 => {
                let best = self.table.totals().iter().copied().max().unwrap_or(0);
                let winners = (0..self.sides() as u8)
                    .filter(|&s| self.table.totals()[usize::from(s)] == best)
                    .collect();
                Some((winners, EndReason::FinalHand))
            }
            Variant::Standard | Variant::Classic44 => self
                .table
                .leaders_at_target(self.config.target)
                .filter(|leaders| leaders.len() == 1)
                .map(|leader| (leader, EndReason::Target)),
        };
        if let Some((winners, reason)) = decided {
            events.push(Scoped::table(self.table.finish(winners, reason)));
        }
    }

    fn explain(&self, card: Card, wanted: CardSet, allowed: &rules::Outcomes) -> BasraRejection {
        if let Some(stray) = (wanted - self.floor).first() {
            return BasraRejection::NotOnFloor(stray);
        }
        let automatic = BasraRejection::Automatic {
            card,
            takes: allowed.first(),
        };
        if !(self.config.capture_is_chosen() && card.rank().is_numeral()) {
            return automatic;
        }
        let same_rank = self.floor & CardSet::rank(card.rank());
        let missing = same_rank - wanted;
        if !missing.is_empty() {
            return BasraRejection::MissingSameRank { card, missing };
        }
        let rest = wanted - same_rank;
        if !capture::splits_into_groups(rest, card.rank().number(), self.config.groups()) {
            return BasraRejection::NotSums { card, cards: rest };
        }
        match capture::extension(card, self.floor, wanted, self.config.groups()) {
            Some(group) => BasraRejection::Extendable { card, group },
            None => automatic,
        }
    }
}

impl Game for Basra {
    const KIND: GameKind = GameKind::Basra;
    type Config = BasraConfig;
    type Move = BasraMove;
    type Event = BasraEvent;
    type View = BasraView;
    type Rejection = BasraRejection;

    fn describe() -> KindInfo {
        KindInfo {
            kind: GameKind::Basra,
            title: "Basra",
            summary: "The Egyptian fishing game: capture floor cards with a card from your hand, \
                      and clear the floor for a basra.",
            variants: Variant::ALL.map(BasraConfig::variant_info).to_vec(),
            levels: vec![
                LevelInfo {
                    name: "easy",
                    summary: "the original design's heuristic (the same as `greedy`)",
                },
                LevelInfo {
                    name: "medium",
                    summary: "deals the unseen cards at random 10 times and plays each card \
                              out to the end of the deal with `easy` at every seat",
                },
                LevelInfo {
                    name: "hard",
                    summary: "the same search with 40 sampled deals per card: perfect-information \
                              Monte Carlo with greedy playouts",
                },
                LevelInfo {
                    name: "random",
                    summary: "plays a uniformly random legal card",
                },
                LevelInfo {
                    name: "greedy",
                    summary: "the original design's heuristic: a basra if it can, a jack when the floor \
                              holds points, else the most valuable capture, else the lowest card that \
                              gives no basra",
                },
            ],
            default_level: "greedy",
        }
    }

    fn configure(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<BasraConfig, SetupError> {
        BasraConfig::new(variant, seats, options)
    }

    fn start(
        config: BasraConfig,
        setup: &Setup,
    ) -> Result<(Basra, Events<BasraEvent>), SetupError> {
        let first_dealer = match config.variant {
            Variant::Cse231 => FirstDealer::Fixed(Seat::new(1)),
            Variant::Standard | Variant::Classic44 => FirstDealer::Drawn,
        };
        let move_cap = match config.variant {
            Variant::Cse231 => 1000,
            Variant::Standard | Variant::Classic44 => config.move_cap,
        };
        let table = Table::new(
            TableSpec {
                seats: config.seats,
                sides: config.sides(),
                deck: config.deck(),
                move_cap,
                first_dealer,
                initial_total: 0,
            },
            setup,
        )?;
        let dealer = table.dealer();
        let mut game = Basra {
            config,
            table,
            stock: Vec::new(),
            hands: Vec::new(),
            floor: CardSet::EMPTY,
            piles: Vec::new(),
            basras: Vec::new(),
            round: 0,
            to_act: dealer,
            last_capture: None,
            last_play: None,
            carried: 0,
        };
        let events = game.begin_deal(dealer);
        Ok((game, events))
    }

    fn config(&self) -> &BasraConfig {
        &self.config
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn to_act(&self) -> Option<Seat> {
        (self.table.status() == Status::Active).then_some(self.to_act)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<BasraMove> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        let hand = self.hand(seat);
        let mut moves = Vec::with_capacity(hand.len());
        for card in hand {
            for capture in rules::outcomes(&self.config, card, self.floor).iter() {
                moves.push(BasraMove::Play {
                    card,
                    capture: Some(capture),
                });
            }
        }
        moves
    }

    fn check(&self, seat: Seat, mv: &BasraMove) -> Result<BasraMove, BasraRejection> {
        let BasraMove::Play { card, capture } = *mv;
        if !self.hand(seat).contains(card) {
            return Err(BasraRejection::NotInHand(card));
        }
        let allowed = rules::outcomes(&self.config, card, self.floor);
        let taken = match capture {
            None => allowed.first(),
            Some(wanted) if allowed.contains(wanted) => wanted,
            Some(wanted) => return Err(self.explain(card, wanted, &allowed)),
        };
        Ok(BasraMove::Play {
            card,
            capture: Some(taken),
        })
    }

    fn view(&self, viewer: Viewer) -> BasraView {
        let seat = viewer.seat();
        let sides = (0..self.sides())
            .map(|side| SideView {
                seats: self.table.sides().seats_of(side as u8),
                captured: self.piles[side],
                basras: self.basras[side].clone(),
                total: self.table.totals()[side],
            })
            .collect();
        BasraView {
            config: self.config.clone(),
            seat,
            status: self.table.status(),
            hand_number: self.table.hand_number(),
            round: self.round,
            rounds: self.config.rounds(),
            dealer: self.table.dealer(),
            to_act: self.to_act(),
            hand: seat.map(|s| self.hand(s)).unwrap_or_default(),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            floor: self.floor,
            stock: self.stock.len() as u8,
            sides,
            carried: self.carried,
            last_capture: self.last_capture,
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
                name: "floor".to_owned(),
                cards: self.floor.to_vec(),
                seen_by: Audience::Everyone,
            },
        ];
        for (i, hand) in self.hands.iter().enumerate() {
            zones.push(Zone {
                name: format!("hand of seat {i}"),
                cards: hand.to_vec(),
                seen_by: Audience::Seat(Seat::new(i as u8)),
            });
        }
        for (side, pile) in self.piles.iter().enumerate() {
            zones.push(Zone {
                name: format!("pile of side {side}"),
                cards: pile.to_vec(),
                seen_by: Audience::Everyone,
            });
        }
        if self.config.variant == Variant::Cse231 {
            for (side, marks) in self.basras.iter().enumerate() {
                zones.push(Zone {
                    name: format!("basra cards of side {side}"),
                    cards: marks.iter().map(|m| m.card).collect(),
                    seen_by: Audience::Everyone,
                });
            }
        }
        zones
    }

    fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng) {
        let hidden: Vec<usize> = (0..self.hands.len())
            .filter(|&s| viewer.seat() != Some(Seat::new(s as u8)))
            .collect();
        let mut pool: Vec<Card> = self.stock.clone();
        for &s in &hidden {
            pool.extend(self.hands[s].iter());
        }
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        self.stock = rest.by_ref().take(self.stock.len()).collect();
        for &s in &hidden {
            let size = self.hands[s].len();
            self.hands[s] = rest.by_ref().take(size).collect();
        }
    }

    fn bot_move(view: &BasraView, level: BotLevel, rng: &mut CardRng) -> Option<BasraMove> {
        bot::choose(view, level, rng)
    }

    fn apply(&mut self, seat: Seat, mv: BasraMove, _: Sealed) -> Events<BasraEvent> {
        let BasraMove::Play { card, capture } = mv;
        let captured = capture.unwrap_or_default();
        let floor_before = self.floor;
        let side = usize::from(self.table.side_of(seat));
        let points = rules::basra_points(&self.config, card, floor_before, captured);
        self.hands[seat.index()].remove(card);
        if captured.is_empty() {
            self.floor.insert(card);
        } else {
            self.floor -= captured;
            self.piles[side] |= captured;
            if points > 0 {
                self.basras[side].push(BasraMark { seat, card, points });
            }
            // §1.3: the card that makes a basra is kept in the basra list, not in the pile.
            if !(points > 0 && self.config.variant == Variant::Cse231) {
                self.piles[side].insert(card);
            }
            self.last_capture = Some(seat);
        }
        self.last_play = Some(seat);
        let mut events = vec![Scoped::public(BasraEvent::Played {
            seat,
            card,
            captured,
            basra: (points > 0).then_some(points),
        })];
        self.to_act = seat.next(self.config.seats);
        if self.hands.iter().all(|h| h.is_empty()) {
            if self.stock.is_empty() {
                self.end_deal(&mut events);
            } else {
                self.deal_round(&mut events, None);
            }
        }
        events
    }

    fn deal(&mut self, _: Sealed) -> Events<BasraEvent> {
        let dealer = self.table.dealer().next(self.config.seats);
        self.begin_deal(dealer)
    }

    fn table_mut(&mut self, _: Sealed) -> &mut Table {
        &mut self.table
    }
}
