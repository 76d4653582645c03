//! 31's rules as the [`Game`] trait asks for them: the catalogue entry, the first deal, what
//! each seat may do and see, and what a move does.

use crate::card::Card;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, BySeat, Seat, Sides, Viewer};
use crate::table::{FirstDealer, Setup, Status, Table, TableSpec};

use super::config::{self, ThirtyOneConfig, Variant};
use super::event::{Pile, ThirtyOneEvent};
use super::moves::{ThirtyOneMove, ThirtyOneRejection};
use super::state::{Step, ThirtyOne};
use super::value::HandValue;
use super::view::{PlayerInfo, ThirtyOneView};

impl Game for ThirtyOne {
    const KIND: GameKind = GameKind::ThirtyOne;
    type Config = ThirtyOneConfig;
    type Move = ThirtyOneMove;
    type Event = ThirtyOneEvent;
    type View = ThirtyOneView;
    type Rejection = ThirtyOneRejection;

    fn describe() -> KindInfo {
        config::catalogue_entry()
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
            hands: BySeat::default(),
            known: BySeat::default(),
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
                    known: self.known[s],
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
            let known = self.known[seat];
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
            pool.extend((self.hands[s] - self.known[s]).iter());
        }
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        self.stock = rest.by_ref().take(self.stock.len()).collect();
        for &s in &hidden {
            let secret = (self.hands[s] - self.known[s]).len();
            self.hands[s] = self.known[s] | rest.by_ref().take(secret).collect();
        }
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
                    self.hands[seat].insert(card);
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
                    self.hands[seat].insert(card);
                    self.known[seat].insert(card);
                    events.push(Scoped::public(ThirtyOneEvent::Drew {
                        seat,
                        from: Pile::Discard,
                        card: Some(card),
                    }));
                }
                self.step = Step::Discard { taken };
            }
            ThirtyOneMove::Discard { card } => {
                self.hands[seat].remove(card);
                self.known[seat].remove(card);
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
