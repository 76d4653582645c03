//! Basra's rules as the [`Game`] trait asks for them: the catalogue entry, the first deal,
//! what each seat may play and see, and what a play does.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, BySeat, Seat, Viewer};
use crate::table::{FirstDealer, Setup, Status, Table, TableSpec};

use super::config::{self, BasraConfig, Variant};
use super::event::BasraEvent;
use super::moves::{BasraMove, BasraRejection};
use super::rules;
use super::state::Basra;
use super::view::{BasraMark, BasraView, SideView};

impl Game for Basra {
    const KIND: GameKind = GameKind::Basra;
    type Config = BasraConfig;
    type Move = BasraMove;
    type Event = BasraEvent;
    type View = BasraView;
    type Rejection = BasraRejection;

    fn describe() -> KindInfo {
        config::catalogue_entry()
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
            hands: BySeat::default(),
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
            Some(wanted) => {
                return Err(rules::refusal(
                    &self.config,
                    self.floor,
                    card,
                    wanted,
                    &allowed,
                ));
            }
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
        let hidden: Vec<Seat> = Seat::all(self.config.seats)
            .filter(|&s| viewer.seat() != Some(s))
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

    fn apply(&mut self, seat: Seat, mv: BasraMove, _: Sealed) -> Events<BasraEvent> {
        let BasraMove::Play { card, capture } = mv;
        let captured = capture.unwrap_or_default();
        let floor_before = self.floor;
        let side = usize::from(self.table.side_of(seat));
        let points = rules::basra_points(&self.config, card, floor_before, captured);
        self.hands[seat].remove(card);
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
