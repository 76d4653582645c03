//! Rummy's rules as the [`Game`] trait asks for them: the catalogue entry, the first deal,
//! what each seat may do and see, and what a move does.

use crate::card::Card;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, BySeat, Seat, Sides, Viewer};
use crate::table::{FirstDealer, Setup, Status, Table, TableSpec};

use super::config::{self, RummyConfig, Variant};
use super::event::RummyEvent;
use super::meld;
use super::moves::{NotNow, OtherVariant, RummyMove, RummyRejection};
use super::state::{Rummy, Step, not_now};
use super::view::{PlayerInfo, RummyView};

impl Game for Rummy {
    const KIND: GameKind = GameKind::Rummy;
    type Config = RummyConfig;
    type Move = RummyMove;
    type Event = RummyEvent;
    type View = RummyView;
    type Rejection = RummyRejection;

    fn describe() -> KindInfo {
        config::catalogue_entry()
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
            hands: BySeat::default(),
            known: BySeat::default(),
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
            (RummyMove::DrawStock {}, _) => not_now(NotNow::Draw),
            (RummyMove::TakeDiscard { drop }, Step::Draw | Step::BeforeExchange) => {
                if self.discards.is_empty() {
                    return Err(RummyRejection::EmptyPile);
                }
                match (drop, classic) {
                    (Some(_), false) => {
                        Err(RummyRejection::NotInVariant(OtherVariant::DropInStandard))
                    }
                    (None, true) => Err(RummyRejection::NotInVariant(OtherVariant::DropMissing)),
                    (Some(card), true) if !hand.contains(*card) => {
                        Err(RummyRejection::NotInHand(*card))
                    }
                    _ => Ok(mv.clone()),
                }
            }
            (RummyMove::TakeDiscard { .. }, _) => not_now(NotNow::TakeDiscard),
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
            (RummyMove::Keep { .. } | RummyMove::PassDrawn {}, _) => not_now(NotNow::NothingTurned),
            (
                RummyMove::Meld { cards },
                Step::Play { .. } | Step::BeforeExchange | Step::AfterExchange,
            ) => self.check_meld(seat, *cards).map(|()| mv.clone()),
            (
                RummyMove::LayOff { meld, cards },
                Step::Play { .. } | Step::BeforeExchange | Step::AfterExchange,
            ) => self.check_lay_off(seat, *meld, *cards).map(|()| mv.clone()),
            (RummyMove::Meld { .. } | RummyMove::LayOff { .. }, Step::Draw) => {
                not_now(NotNow::DrawFirst)
            }
            (RummyMove::Meld { .. } | RummyMove::LayOff { .. }, _) => {
                not_now(NotNow::KeepOrPassFirst)
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
            (RummyMove::Discard { .. }, Step::Draw) => not_now(NotNow::DrawFirst),
            (RummyMove::Discard { .. }, _) => {
                Err(RummyRejection::NotInVariant(OtherVariant::DiscardInClassic))
            }
            (RummyMove::EndTurn {}, Step::AfterExchange) => Ok(mv.clone()),
            (RummyMove::EndTurn {}, Step::BeforeExchange) => not_now(NotNow::ExchangeFirst),
            (RummyMove::EndTurn {}, Step::Turned { .. }) => not_now(NotNow::KeepOrPassFirst),
            (RummyMove::EndTurn {}, _) => Err(RummyRejection::NotInVariant(
                OtherVariant::EndTurnInStandard,
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
                    known: self.known[s],
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
            let known = self.known[seat];
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

    fn apply(&mut self, seat: Seat, mv: RummyMove, _: Sealed) -> Events<RummyEvent> {
        let mut events = Vec::new();
        match mv {
            RummyMove::DrawStock {} => {
                let Some(card) = self.stock.pop() else {
                    return events;
                };
                match self.config.variant {
                    Variant::Standard => {
                        self.hands[seat].insert(card);
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
                self.hands[seat].insert(card);
                self.known[seat].insert(card);
                if let Some(dropped) = drop {
                    self.hands[seat].remove(dropped);
                    self.known[seat].remove(dropped);
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
                    self.hands[seat].insert(card);
                    self.known[seat].insert(card);
                    self.hands[seat].remove(drop);
                    self.known[seat].remove(drop);
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
                    self.hands[seat] -= cards;
                    self.known[seat] -= cards;
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
                    self.hands[seat] -= cards;
                    self.known[seat] -= cards;
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
                self.hands[seat].remove(card);
                self.known[seat].remove(card);
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
