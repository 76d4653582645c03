//! A Basra game's state: the cards' places, the deal in progress, and how a deal is dealt,
//! collected and scored. Its fields are visible to the game's own modules (the rules in
//! `game.rs`, the computer player's sampled worlds), not beyond.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Events, Scoped};
use crate::options::{PositionError, SetupError};
use crate::rng::CardRng;
use crate::seat::{BySeat, Seat};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Table, TableSpec};

use super::capture::POINT_CARDS;
use super::config::{BasraConfig, MajorityTie, Variant};
use super::event::BasraEvent;
use super::rules;
use super::view::BasraMark;

/// A Basra game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Basra {
    pub(super) config: BasraConfig,
    pub(super) table: Table,
    /// The stock, top card last.
    pub(super) stock: Vec<Card>,
    pub(super) hands: BySeat<CardSet>,
    pub(super) floor: CardSet,
    /// Each side's capture pile.
    pub(super) piles: Vec<CardSet>,
    /// Each side's basras this deal.
    pub(super) basras: Vec<Vec<BasraMark>>,
    pub(super) round: u8,
    pub(super) to_act: Seat,
    pub(super) last_capture: Option<Seat>,
    pub(super) last_play: Option<Seat>,
    /// Majority points carried over from tied deals.
    pub(super) carried: i32,
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
        self.hands[seat]
    }

    /// A game at a position set up by hand, in its first hand. The seed drives later deals.
    pub fn from_position(
        config: BasraConfig,
        position: BasraPosition,
        seed: crate::rng::Seed,
    ) -> Result<Basra, SetupError> {
        let sides = config.sides().count();
        let seats = usize::from(config.seats);
        let fail = |why: PositionError| Err(SetupError::Position(why));
        if position.hands.len() != seats || position.piles.len() != sides {
            return fail(PositionError::HandsAndPiles {
                hands: seats,
                piles: sides,
            });
        }
        if position.totals.len() != sides && !position.totals.is_empty() {
            return fail(PositionError::Totals(sides));
        }
        if position.dealer.index() >= seats || position.to_act.index() >= seats {
            return fail(PositionError::NoSuchSeat);
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
                return fail(PositionError::Twice(twice));
            }
            placed |= cards;
        }
        let deck = config.deck().cards();
        if let Some(stray) = (placed - deck).first() {
            return fail(PositionError::NotInDeck(stray));
        }
        if let Some(missing) = (deck - placed).first() {
            return fail(PositionError::Unplaced(missing));
        }
        if position.hands[position.to_act.index()].is_empty() {
            return fail(PositionError::EmptyHandToAct);
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
            hands: BySeat::new(position.hands),
            floor: position.floor,
            piles: position.piles,
            round: position.round.max(1),
            to_act: position.to_act,
            last_capture: position.last_capture,
            last_play: None,
            carried: position.carried,
        })
    }

    pub(super) fn sides(&self) -> usize {
        self.table.sides().count()
    }

    pub(super) fn begin_deal(&mut self, dealer: Seat) -> Events<BasraEvent> {
        let mut events = vec![Scoped::table(self.table.begin_hand(dealer))];
        let (order, mut rng) = self.table.next_deck();
        self.stock = order.into_iter().rev().collect();
        self.hands = BySeat::filled(usize::from(self.config.seats), CardSet::EMPTY);
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

    /// Deals a round to the players (docs/rules.md#basra-standard "Deal", #basra-classic44, #basra-cse231) and, with `floor_rng`,
    /// the floor after them.
    pub(super) fn deal_round(
        &mut self,
        events: &mut Events<BasraEvent>,
        floor_rng: Option<&mut CardRng>,
    ) {
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
                    cards: self.hands[seat],
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
            self.hands[seat].insert(card);
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

    /// The deal's score lines (docs/rules.md#basra-standard "Scoring per deal", #basra-classic44, #basra-cse231).
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
    /// (docs/rules.md#basra-standard "End of game"; #basra-cse231: one deal, higher score wins, equal is a draw).
    pub(super) fn end_deal(&mut self, events: &mut Events<BasraEvent>) {
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
}
