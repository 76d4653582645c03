//! Tarneeb (RULES.md §4): four players in two partnerships (seats 0+2 against 1+3); variants
//! `standard` (bid 7–13, then name the trump; to 41) and `classic` (bridge-style bids with
//! no-trump; to 61).
//!
//! Options: see [`config`]. Moves: `{"type":"bid","tricks":8}` (in `classic` with
//! `"suit":"H"`, a suit or `"NT"`), `{"type":"pass"}`, `{"type":"trump","suit":"S"}` (the
//! declarer, in `standard`), `{"type":"play","card":"QS"}`.
//!
//! Choices made where RULES.md leaves room: cards are dealt one at a time from the seat after
//! the dealer; an all-pass redeal keeps the hand's number (it is the same hand, dealt again
//! from the next deal's seed); the bid is a number of tricks in both variants (a `classic`
//! level is tricks − 6).

pub mod auction;
mod bot;
mod config;
mod event;
mod view;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::any::GameKind;
use crate::bots::BotLevel;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::{Events, Game, Scoped, Sealed, Zone};
use crate::options::{KindInfo, LevelInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, Seat, Sides, Viewer};
use crate::table::{EndReason, FirstDealer, ScoreItem, ScoreLine, Setup, Status, Table, TableSpec};

use auction::{Bid, Call, CallRecord, Contract, Denomination, PlayedCard, trick_winner};

pub use config::{TarneebConfig, Variant};
pub use event::TarneebEvent;
pub use view::{TarneebView, TrickInfo};

/// A Tarneeb move.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TarneebMove {
    /// Bid a number of tricks (7–13); in `classic` with a denomination.
    Bid {
        tricks: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Denomination>,
    },
    Pass {},
    /// The declarer names the trump (`standard`).
    Trump {
        suit: Suit,
    },
    Play {
        card: Card,
    },
}

/// Why the rules refuse a Tarneeb move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TarneebRejection {
    NotNow(&'static str),
    BidRange(u8),
    BidTooLow { bid: Bid, highest: Bid },
    NeedsDenomination,
    NoDenomination,
    NotInHand(Card),
    MustFollow(Suit),
}

impl fmt::Display for TarneebRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TarneebRejection::NotNow(what) => f.write_str(what),
            TarneebRejection::BidRange(n) => write!(f, "a bid is 7 to 13 tricks, not {n}"),
            TarneebRejection::BidTooLow { bid, highest } => {
                write!(f, "a bid of {bid} does not beat the bid of {highest}")
            }
            TarneebRejection::NeedsDenomination => {
                f.write_str("a classic bid names a suit (C, D, H, S) or NT")
            }
            TarneebRejection::NoDenomination => f.write_str(
                "a standard bid is a number of tricks; the trump is named after the auction",
            ),
            TarneebRejection::NotInHand(card) => write!(f, "you do not hold {}", card.pretty()),
            TarneebRejection::MustFollow(suit) => {
                write!(f, "you must follow {} while you hold one", suit.name())
            }
        }
    }
}

/// A Tarneeb position set up by hand (for teaching, puzzles and tests): the auction about to
/// start (no `contract`), or the play about to start with the declarer to lead.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct TarneebPosition {
    pub dealer: Seat,
    /// Thirteen cards each.
    pub hands: Vec<CardSet>,
    /// The contract, for a position at the start of the play.
    pub contract: Option<Contract>,
    /// The trump (`standard`: named by the declarer; `classic`: the contract's denomination).
    pub trump: Option<Suit>,
    /// Each team's total before this hand (empty: 0).
    pub totals: Vec<i32>,
}

/// Where a hand stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Phase {
    Bidding,
    /// The declarer names the trump (`standard`).
    Trump,
    Play,
}

/// A game of Tarneeb.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Tarneeb {
    config: TarneebConfig,
    table: Table,
    hands: Vec<CardSet>,
    phase: Phase,
    to_act: Seat,
    auction: Vec<CallRecord>,
    /// The highest bid so far, then the contract.
    highest: Option<Contract>,
    trump: Option<Suit>,
    leader: Seat,
    trick: Vec<PlayedCard>,
    last_trick: Option<TrickInfo>,
    tricks_won: [u8; 2],
    played: CardSet,
    /// Suits each seat has shown out of.
    shown_out: Vec<Vec<Suit>>,
}

const SEATS: u8 = 4;

fn team(seat: Seat) -> usize {
    seat.index() % 2
}

impl Tarneeb {
    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    fn begin_deal(&mut self, dealer: Seat, redeal: bool) -> Events<TarneebEvent> {
        let started = if redeal {
            self.table.restart_hand()
        } else {
            self.table.begin_hand(dealer)
        };
        let mut events = vec![Scoped::table(started)];
        let (order, _) = self.table.next_deck();
        let mut deck = order.into_iter();
        self.hands = vec![CardSet::EMPTY; usize::from(SEATS)];
        for _ in 0..13 {
            for i in 1..=SEATS {
                let seat = Seat::new((dealer.number() + i) % SEATS);
                if let Some(card) = deck.next() {
                    self.hands[seat.index()].insert(card);
                }
            }
        }
        for seat in Seat::all(SEATS) {
            events.push(Scoped::private(
                seat,
                TarneebEvent::Dealt {
                    seat,
                    cards: self.hands[seat.index()],
                },
            ));
        }
        self.phase = Phase::Bidding;
        self.auction.clear();
        self.highest = None;
        self.trump = None;
        self.trick.clear();
        self.last_trick = None;
        self.tricks_won = [0, 0];
        self.played = CardSet::EMPTY;
        self.shown_out = vec![Vec::new(); usize::from(SEATS)];
        // `standard`: the seat after the dealer bids first; `classic`: the dealer.
        self.to_act = match self.config.variant {
            Variant::Standard => dealer.next(SEATS),
            Variant::Classic => dealer,
        };
        self.leader = self.to_act;
        events
    }

    /// A game at a position set up by hand. The seed drives later deals.
    pub fn from_position(
        config: TarneebConfig,
        position: TarneebPosition,
        seed: crate::rng::Seed,
    ) -> Result<Tarneeb, SetupError> {
        let fail = |what: String| Err(SetupError::Position(what));
        if position.hands.len() != 4 || position.hands.iter().any(|h| h.len() != 13) {
            return fail("needs four hands of thirteen cards".to_owned());
        }
        let mut placed = CardSet::EMPTY;
        for hand in &position.hands {
            if let Some(twice) = (placed & *hand).first() {
                return fail(format!("puts {twice} in two places"));
            }
            placed |= *hand;
        }
        let mut table = Table::new(
            TableSpec {
                seats: SEATS,
                sides: Sides::partnerships(SEATS),
                deck: crate::deck::Deck::Standard52,
                move_cap: config.move_cap,
                first_dealer: FirstDealer::Fixed(position.dealer),
                initial_total: 0,
            },
            &Setup::seeded(seed),
        )?;
        table.begin_hand(position.dealer);
        table.next_deck();
        if !position.totals.is_empty() {
            table.set_totals(&position.totals);
        }
        let first = match config.variant {
            Variant::Standard => position.dealer.next(SEATS),
            Variant::Classic => position.dealer,
        };
        let (phase, to_act) = match position.contract {
            Some(contract) => (Phase::Play, contract.declarer),
            None => (Phase::Bidding, first),
        };
        Ok(Tarneeb {
            config,
            table,
            hands: position.hands,
            phase,
            to_act,
            auction: Vec::new(),
            highest: position.contract,
            trump: position.trump,
            leader: to_act,
            trick: Vec::new(),
            last_trick: None,
            tricks_won: [0, 0],
            played: CardSet::EMPTY,
            shown_out: vec![Vec::new(); usize::from(SEATS)],
        })
    }

    fn has_passed(&self, seat: Seat) -> bool {
        self.auction
            .iter()
            .any(|c| c.seat == seat && c.call == Call::Pass)
    }

    /// The auction's next turn or its end (RULES.md §4.1, §4.2 "Auction").
    fn after_call(&mut self, seat: Seat, events: &mut Events<TarneebEvent>) {
        let bid_made = self.highest.is_some();
        let over = match self.config.variant {
            Variant::Standard => {
                let passed = Seat::all(SEATS).filter(|&s| self.has_passed(s)).count();
                let thirteen = self.highest.is_some_and(|c| c.bid.tricks == 13);
                thirteen || (bid_made && passed == 3) || passed == 4
            }
            Variant::Classic => {
                let trailing_passes = self
                    .auction
                    .iter()
                    .rev()
                    .take_while(|c| c.call == Call::Pass)
                    .count();
                (bid_made && trailing_passes >= 3) || (!bid_made && trailing_passes >= 4)
            }
        };
        if !over {
            let mut next = seat.next(SEATS);
            if self.config.variant == Variant::Standard {
                while self.has_passed(next) {
                    next = next.next(SEATS);
                }
            }
            self.to_act = next;
            return;
        }
        match self.highest {
            None => {
                events.push(Scoped::public(TarneebEvent::AllPassed));
                let dealer = self.table.dealer();
                events.extend(self.begin_deal(dealer, true));
            }
            Some(contract) => {
                events.push(Scoped::public(TarneebEvent::Contracted { contract }));
                self.to_act = contract.declarer;
                self.leader = contract.declarer;
                match contract.bid.suit {
                    Some(denomination) => {
                        self.trump = denomination.trump();
                        self.phase = Phase::Play;
                    }
                    None => self.phase = Phase::Trump,
                }
            }
        }
    }

    /// A completed trick goes to its winner, who leads the next; after the thirteenth the hand
    /// is scored.
    fn finish_trick(&mut self, events: &mut Events<TarneebEvent>) {
        let Some(winner) = trick_winner(&self.trick, self.trump) else {
            return;
        };
        let cards = std::mem::take(&mut self.trick);
        for p in &cards {
            self.played.insert(p.card);
        }
        self.tricks_won[team(winner.seat)] += 1;
        events.push(Scoped::public(TarneebEvent::TrickWon {
            winner: winner.seat,
            cards: cards.clone(),
        }));
        self.last_trick = Some(TrickInfo {
            cards,
            winner: winner.seat,
        });
        self.leader = winner.seat;
        self.to_act = winner.seat;
        if self.played.len() == 52 {
            self.score_hand(events);
        }
    }

    fn score_hand(&mut self, events: &mut Events<TarneebEvent>) {
        let Some(contract) = self.highest else {
            return;
        };
        let bidders = team(contract.declarer);
        let taken = self.tricks_won[bidders];
        let (for_bidders, for_defenders) = auction::score(self.config.variant, contract.bid, taken);
        let item = ScoreItem::Contract {
            declarer: contract.declarer,
            bid: contract.bid.tricks,
            tricks: taken,
            made: taken >= contract.bid.tricks,
        };
        let lines = vec![
            ScoreLine {
                side: bidders as u8,
                points: for_bidders,
                item: item.clone(),
            },
            ScoreLine {
                side: 1 - bidders as u8,
                points: for_defenders,
                item,
            },
        ];
        events.push(Scoped::table(self.table.end_hand(lines, 0)));
        if let Some(leaders) = self.table.leaders_at_target(self.config.target)
            && leaders.len() == 1
        {
            events.push(Scoped::table(self.table.finish(leaders, EndReason::Target)));
        }
    }

    fn legal_cards(&self, seat: Seat) -> CardSet {
        let hand = self.hand(seat);
        match self.trick.first() {
            Some(lead) => {
                let follow = hand & CardSet::suit(lead.card.suit());
                if follow.is_empty() { hand } else { follow }
            }
            None => hand,
        }
    }

    fn legal_bids(&self) -> Vec<TarneebMove> {
        let denominations: Vec<Option<Denomination>> = match self.config.variant {
            Variant::Standard => vec![None],
            Variant::Classic => Denomination::ALL.into_iter().map(Some).collect(),
        };
        (7..=13u8)
            .flat_map(|tricks| denominations.iter().map(move |&suit| Bid { tricks, suit }))
            .filter(|bid| self.highest.is_none_or(|c| bid.beats(c.bid)))
            .map(|bid| TarneebMove::Bid {
                tricks: bid.tricks,
                suit: bid.suit,
            })
            .collect()
    }
}

impl Game for Tarneeb {
    const KIND: GameKind = GameKind::Tarneeb;
    type Config = TarneebConfig;
    type Move = TarneebMove;
    type Event = TarneebEvent;
    type View = TarneebView;
    type Rejection = TarneebRejection;

    fn describe() -> KindInfo {
        KindInfo {
            kind: GameKind::Tarneeb,
            title: "Tarneeb",
            summary: "The Levantine trick-taking game: bid, name the trump, and take tricks with \
                      your partner opposite.",
            variants: Variant::ALL.map(TarneebConfig::variant_info).to_vec(),
            levels: vec![
                LevelInfo {
                    name: "easy",
                    summary: "the original design's heuristic (the same as `greedy`)",
                },
                LevelInfo {
                    name: "medium",
                    summary: "deals the unseen cards 20 times consistently with the play (who \
                              showed out of which suit) and plays each card out with `greedy` (the \
                              same as `strong`)",
                },
                LevelInfo {
                    name: "hard",
                    summary: "24 samples dealt to fit the auction as well as the play, each \
                              solved exactly with every hand open (double dummy) from eight cards \
                              a hand; cards, trumps and bids chosen by the contract's expected \
                              score",
                },
                LevelInfo {
                    name: "random",
                    summary: "a uniformly random legal move",
                },
                LevelInfo {
                    name: "greedy",
                    summary: "bids from a count of honours and suit lengths, plays the lowest \
                              card that wins the trick or else the lowest card, and never \
                              overtakes its partner's winning card",
                },
                LevelInfo {
                    name: "strong",
                    summary: "samples the unseen cards consistently with what has been played \
                              (who showed out of which suit) and plays each sample out to \
                              choose its card and trump",
                },
            ],
            default_level: "greedy",
        }
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
            hands: Vec::new(),
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
                Err(TarneebRejection::NotNow("the auction is over"))
            }
            (TarneebMove::Trump { .. }, Phase::Trump) => Ok(*mv),
            (TarneebMove::Trump { .. }, _) => Err(TarneebRejection::NotNow(
                "the trump is named by the declarer after a standard auction",
            )),
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
            (TarneebMove::Play { .. }, Phase::Bidding) => Err(TarneebRejection::NotNow(
                "the auction is still on: bid or pass",
            )),
            (TarneebMove::Play { .. }, Phase::Trump) => Err(TarneebRejection::NotNow(
                "the declarer names the trump first",
            )),
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
            phase: match self.phase {
                Phase::Bidding => "bidding",
                Phase::Trump => "trump",
                Phase::Play => "play",
            }
            .to_owned(),
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
            if let Some(hands) = bot::deal_respecting_voids(&pool, &hidden, &sizes, &self.shown_out)
            {
                for (seat, hand) in hidden.iter().zip(hands) {
                    self.hands[seat.index()] = hand;
                }
                return;
            }
        }
    }

    fn bot_move(view: &TarneebView, level: BotLevel, rng: &mut CardRng) -> Option<TarneebMove> {
        bot::choose(view, level, rng)
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
                self.hands[seat.index()].remove(card);
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
