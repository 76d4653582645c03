//! Tarneeb's rules as the [`Game`] trait asks for them: the catalogue entry, the first deal,
//! what each seat may do and see, and what a move does.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, BySeat, Seat, Sides, Viewer};
use crate::table::{FirstDealer, Setup, Status, Table, TableSpec};

use super::auction::{Bid, Call, CallRecord, Contract, Phase, PlayedCard};
use super::config::{self, TarneebConfig, Variant};
use super::event::TarneebEvent;
use super::hidden::deal_respecting_voids;
use super::moves::{NotNow, TarneebMove, TarneebRejection};
use super::state::{SEATS, Tarneeb};
use super::view::TarneebView;

impl Game for Tarneeb {
    const KIND: GameKind = GameKind::Tarneeb;
    type Config = TarneebConfig;
    type Move = TarneebMove;
    type Event = TarneebEvent;
    type View = TarneebView;
    type Rejection = TarneebRejection;

    fn describe() -> KindInfo {
        config::catalogue_entry()
    }

    fn configure(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<TarneebConfig, SetupError> {
        TarneebConfig::new(variant, seats, options)
    }

    fn start(
        config: TarneebConfig,
        setup: &Setup,
    ) -> Result<(Tarneeb, Events<TarneebEvent>), SetupError> {
        let table = Table::new(
            TableSpec {
                seats: SEATS,
                sides: Sides::partnerships(SEATS),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Drawn,
                initial_total: 0,
            },
            setup,
        )?;
        let dealer = table.dealer();
        let mut game = Tarneeb {
            config,
            table,
            hands: BySeat::default(),
            phase: Phase::Bidding,
            to_act: dealer,
            auction: Vec::new(),
            highest: None,
            trump: None,
            leader: dealer,
            trick: Vec::new(),
            last_trick: None,
            tricks_won: [0, 0],
            played: CardSet::EMPTY,
            shown_out: Vec::new(),
        };
        let events = game.begin_deal(dealer, false);
        Ok((game, events))
    }

    fn config(&self) -> &TarneebConfig {
        &self.config
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn to_act(&self) -> Option<Seat> {
        (self.table.status() == Status::Active).then_some(self.to_act)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<TarneebMove> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Bidding => {
                let mut moves = self.legal_bids();
                moves.push(TarneebMove::Pass {});
                moves
            }
            Phase::Trump => Suit::ALL
                .iter()
                .map(|&suit| TarneebMove::Trump { suit })
                .collect(),
            Phase::Play => self
                .legal_cards(seat)
                .iter()
                .map(|card| TarneebMove::Play { card })
                .collect(),
        }
    }

    fn check(&self, seat: Seat, mv: &TarneebMove) -> Result<TarneebMove, TarneebRejection> {
        match (*mv, self.phase) {
            (TarneebMove::Bid { tricks, suit }, Phase::Bidding) => {
                if !(7..=13).contains(&tricks) {
                    return Err(TarneebRejection::BidRange(tricks));
                }
                match (self.config.variant, suit) {
                    (Variant::Standard, Some(_)) => return Err(TarneebRejection::NoDenomination),
                    (Variant::Classic, None) => return Err(TarneebRejection::NeedsDenomination),
                    _ => {}
                }
                let bid = Bid { tricks, suit };
                match self.highest {
                    Some(highest) if !bid.beats(highest.bid) => Err(TarneebRejection::BidTooLow {
                        bid,
                        highest: highest.bid,
                    }),
                    _ => Ok(*mv),
                }
            }
            (TarneebMove::Pass {}, Phase::Bidding) => Ok(*mv),
            (TarneebMove::Bid { .. } | TarneebMove::Pass {}, _) => {
                Err(TarneebRejection::NotNow(NotNow::AuctionOver))
            }
            (TarneebMove::Trump { .. }, Phase::Trump) => Ok(*mv),
            (TarneebMove::Trump { .. }, _) => Err(TarneebRejection::NotNow(NotNow::TrumpNotAsked)),
            (TarneebMove::Play { card }, Phase::Play) => {
                if !self.hand(seat).contains(card) {
                    return Err(TarneebRejection::NotInHand(card));
                }
                if !self.legal_cards(seat).contains(card)
                    && let Some(lead) = self.trick.first()
                {
                    return Err(TarneebRejection::MustFollow(lead.card.suit()));
                }
                Ok(*mv)
            }
            (TarneebMove::Play { .. }, Phase::Bidding) => {
                Err(TarneebRejection::NotNow(NotNow::AuctionOn))
            }
            (TarneebMove::Play { .. }, Phase::Trump) => {
                Err(TarneebRejection::NotNow(NotNow::TrumpFirst))
            }
        }
    }

    fn view(&self, viewer: Viewer) -> TarneebView {
        let seat = viewer.seat();
        TarneebView {
            config: self.config.clone(),
            seat,
            status: self.table.status(),
            hand_number: self.table.hand_number(),
            dealer: self.table.dealer(),
            to_act: self.to_act(),
            phase: self.phase,
            hand: seat.map(|s| self.hand(s)).unwrap_or_default(),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            auction: self.auction.clone(),
            contract: self.highest,
            trump: self.trump,
            leader: (self.phase == Phase::Play).then_some(self.leader),
            trick: self.trick.clone(),
            last_trick: self.last_trick.clone(),
            tricks_won: self.tricks_won.to_vec(),
            played: self.played,
            shown_out: self.shown_out.clone(),
            totals: self.table.totals().to_vec(),
            legal_moves: seat.map(|s| self.legal_moves(s)).unwrap_or_default(),
            outcome: self.table.outcome().cloned(),
        }
    }

    fn zones(&self) -> Vec<Zone> {
        let mut zones = vec![
            Zone {
                name: "played".to_owned(),
                cards: self.played.to_vec(),
                seen_by: Audience::Everyone,
            },
            Zone {
                name: "current trick".to_owned(),
                cards: self.trick.iter().map(|p| p.card).collect(),
                seen_by: Audience::Everyone,
            },
        ];
        for seat in Seat::all(SEATS) {
            zones.push(Zone {
                name: format!("hand of seat {}", seat.number()),
                cards: self.hand(seat).to_vec(),
                seen_by: Audience::Seat(seat),
            });
        }
        zones
    }

    fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng) {
        // Cards may only move between hands that could hold them: a seat that showed out of a
        // suit takes none of it, so the viewer's knowledge stays the same.
        let hidden: Vec<Seat> = Seat::all(SEATS)
            .filter(|&s| viewer.seat() != Some(s))
            .collect();
        let sizes: Vec<usize> = hidden.iter().map(|s| self.hand(*s).len()).collect();
        let mut pool: Vec<Card> = hidden.iter().flat_map(|s| self.hand(*s).iter()).collect();
        for _ in 0..100 {
            rng.shuffle(&mut pool);
            if let Some(hands) = deal_respecting_voids(&pool, &hidden, &sizes, &self.shown_out) {
                for (seat, hand) in hidden.iter().zip(hands) {
                    self.hands[*seat] = hand;
                }
                return;
            }
        }
    }

    fn apply(&mut self, seat: Seat, mv: TarneebMove, _: Sealed) -> Events<TarneebEvent> {
        let mut events = Vec::new();
        match mv {
            TarneebMove::Bid { tricks, suit } => {
                let call = Call::Bid { tricks, suit };
                self.auction.push(CallRecord { seat, call });
                self.highest = Some(Contract {
                    declarer: seat,
                    bid: Bid { tricks, suit },
                });
                events.push(Scoped::public(TarneebEvent::Called { seat, call }));
                self.after_call(seat, &mut events);
            }
            TarneebMove::Pass {} => {
                self.auction.push(CallRecord {
                    seat,
                    call: Call::Pass,
                });
                events.push(Scoped::public(TarneebEvent::Called {
                    seat,
                    call: Call::Pass,
                }));
                self.after_call(seat, &mut events);
            }
            TarneebMove::Trump { suit } => {
                self.trump = Some(suit);
                self.phase = Phase::Play;
                events.push(Scoped::public(TarneebEvent::TrumpNamed { seat, suit }));
            }
            TarneebMove::Play { card } => {
                if let Some(lead) = self.trick.first()
                    && card.suit() != lead.card.suit()
                    && !self.shown_out[seat.index()].contains(&lead.card.suit())
                {
                    self.shown_out[seat.index()].push(lead.card.suit());
                }
                self.hands[seat].remove(card);
                self.trick.push(PlayedCard { seat, card });
                events.push(Scoped::public(TarneebEvent::Played { seat, card }));
                if self.trick.len() == usize::from(SEATS) {
                    self.finish_trick(&mut events);
                } else {
                    self.to_act = seat.next(SEATS);
                }
            }
        }
        events
    }

    fn deal(&mut self, _: Sealed) -> Events<TarneebEvent> {
        let dealer = self.table.dealer().next(SEATS);
        self.begin_deal(dealer, false)
    }

    fn table_mut(&mut self, _: Sealed) -> &mut Table {
        &mut self.table
    }
}
