//! Tarneeb's computer players. They see only a [`TarneebView`].
//!
//! - `greedy` (the original design): bids from a count of honours and suit lengths, names its
//!   longest suit, plays the lowest card that wins the trick or else the lowest card, and never
//!   overtakes its partner's winning card.
//! - `strong`: deals the unseen cards at random among the other hands — consistently with what
//!   is public: the cards played and the suits each seat showed out of — plays every sample out
//!   with `greedy` at all four seats, and picks the card (or the trump, or the bid) that does
//!   best on average. This is perfect-information Monte Carlo with greedy playouts, the method
//!   BOTS.md reports working for trick-taking games. It is also `medium`.
//! - `hard`: perfect-information Monte Carlo with exact solutions. Each of its 24 samples deals
//!   the unseen cards consistently with the play (the suits a seat showed out of) *and* with
//!   the auction (a seat that bid holds the strength its bid suggests, one that passed does not,
//!   the declarer holds length in the trump it named); the hand is then played greedily only
//!   until eight cards a hand are left and solved from there with every hand open, exactly, by
//!   [`crate::double_dummy`] (from eight cards a hand on, from the current position). A card,
//!   a trump or a bid is valued by the contract's expected score for its team (made or set,
//!   and by how much), not by tricks alone. Bids come from the same simulation over sampled
//!   partner and opponent hands: the bid with the best expected score, if it is positive.
//!   The budget is a count of samples, never a clock, so a replay makes the same choices.

use crate::bots::BotLevel;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::double_dummy::{Position, Solver};
use crate::rng::CardRng;
use crate::seat::Seat;

use super::auction::{Bid, Call, Denomination, PlayedCard, score, strength, trick_winner};
use super::config::Variant;
use super::{TarneebMove, TarneebView};

/// Samples per decision for `strong` and `medium`.
const SAMPLES: usize = 20;
/// Samples per decision for `hard`.
const HARD_SAMPLES: usize = 24;
/// Cards a hand holds when `hard` stops playing greedily and solves the rest exactly.
const EXACT_EACH: usize = 8;
/// Deals tried for each of `hard`'s samples to find one the auction fits.
const AUCTION_TRIES: usize = 30;
/// Entries in `hard`'s double-dummy table, made afresh for each decision.
const HARD_TABLE: usize = 1 << 18;

/// A computer player's move.
pub fn choose(view: &TarneebView, level: BotLevel, rng: &mut CardRng) -> Option<TarneebMove> {
    let mv = match level {
        BotLevel::Random => return rng.choose(&view.legal_moves).copied(),
        BotLevel::Strong | BotLevel::Medium => strong(view, rng, SAMPLES),
        BotLevel::Hard => hard(view, rng),
        // No numbered scale in Tarneeb: the numbers play the original heuristic, as `easy`.
        BotLevel::Easy | BotLevel::Greedy | BotLevel::Level(_) => greedy(view),
    };
    mv.filter(|m| view.legal_moves.contains(m))
        .or_else(|| view.legal_moves.first().copied())
}

fn partner(seat: Seat) -> Seat {
    Seat::new((seat.number() + 2) % 4)
}

fn team(seat: Seat) -> usize {
    seat.index() % 2
}

// ---------------------------------------------------------------------------------------------
// Hand strength.

/// The tricks a hand should take by itself: honours by suit (an ace 1, a guarded king ¾, a
/// guarded queen ½, a jack ¼), plus one for every card beyond four in its longest suit.
fn own_tricks(hand: CardSet) -> f64 {
    let mut tricks = 0.0;
    let mut longest = 0;
    for suit in Suit::ALL {
        let cards = hand & CardSet::suit(suit);
        let length = cards.len();
        longest = longest.max(length);
        for card in cards {
            tricks += match strength(card) {
                14 => 1.0,
                13 if length >= 2 => 0.75,
                12 if length >= 3 => 0.5,
                11 if length >= 4 => 0.25,
                _ => 0.0,
            };
        }
    }
    tricks + longest.saturating_sub(4) as f64
}

/// What a partner's hand brings on average.
const PARTNER_TRICKS: f64 = 2.5;

/// The suit with the most cards, ties broken by the stronger honours.
fn longest_suit(hand: CardSet) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| {
            let cards = hand & CardSet::suit(s);
            let honours: u32 = cards
                .iter()
                .map(|c| u32::from(strength(c).saturating_sub(10)))
                .sum();
            (cards.len(), honours, s as u8)
        })
        .unwrap_or(Suit::Spades)
}

/// A balanced hand with honours in at least three suits plays best without a trump.
fn suits_no_trump(hand: CardSet) -> bool {
    let lengths: Vec<usize> = Suit::ALL
        .iter()
        .map(|&s| (hand & CardSet::suit(s)).len())
        .collect();
    let stopped = Suit::ALL
        .iter()
        .filter(|&&s| (hand & CardSet::suit(s)).iter().any(|c| strength(c) >= 13))
        .count();
    lengths.iter().all(|&l| (2..=4).contains(&l)) && stopped >= 3
}

/// The lowest bid beating the auction's highest that the team's expected tricks support,
/// unless the partner holds the highest bid.
fn bid_for(view: &TarneebView, team_tricks: f64, denomination: Denomination) -> TarneebMove {
    let me = view.seat;
    if let (Some(me), Some(contract)) = (me, view.contract)
        && contract.declarer == partner(me)
    {
        return TarneebMove::Pass {};
    }
    let most = team_tricks.floor().clamp(0.0, 13.0) as u8;
    let suit = match view.config.variant {
        Variant::Standard => None,
        Variant::Classic => Some(denomination),
    };
    (7..=most)
        .map(|tricks| Bid { tricks, suit })
        .find(|bid| view.contract.is_none_or(|c| bid.beats(c.bid)))
        .map(|bid| TarneebMove::Bid {
            tricks: bid.tricks,
            suit: bid.suit,
        })
        .unwrap_or(TarneebMove::Pass {})
}

fn greedy_denomination(hand: CardSet) -> Denomination {
    if suits_no_trump(hand) {
        Denomination::NoTrump
    } else {
        Denomination::Trump(longest_suit(hand))
    }
}

// ---------------------------------------------------------------------------------------------
// Greedy.

fn greedy(view: &TarneebView) -> Option<TarneebMove> {
    let me = view.seat?;
    match view.phase.as_str() {
        "bidding" => Some(bid_for(
            view,
            own_tricks(view.hand) + PARTNER_TRICKS,
            greedy_denomination(view.hand),
        )),
        "trump" => Some(TarneebMove::Trump {
            suit: longest_suit(view.hand),
        }),
        "play" => greedy_card(view.hand, &view.trick, view.trump, me, view.played)
            .map(|card| TarneebMove::Play { card }),
        _ => None,
    }
}

/// The cards `hand` may play to `trick`.
fn playable(hand: CardSet, trick: &[PlayedCard]) -> CardSet {
    match trick.first() {
        Some(lead) => {
            let follow = hand & CardSet::suit(lead.card.suit());
            if follow.is_empty() { hand } else { follow }
        }
        None => hand,
    }
}

/// The lowest card by strength, keeping trumps when another card will do.
fn lowest(cards: CardSet, trump: Option<Suit>) -> Option<Card> {
    cards
        .iter()
        .min_by_key(|&c| (Some(c.suit()) == trump, strength(c), c.suit() as u8))
}

/// Whether no unplayed card outranks `card` in its suit, outside `hand`.
fn is_master(card: Card, hand: CardSet, played: CardSet) -> bool {
    (CardSet::suit(card.suit()) - hand - played)
        .iter()
        .all(|other| strength(other) < strength(card))
}

/// The original design's card play.
pub(super) fn greedy_card(
    hand: CardSet,
    trick: &[PlayedCard],
    trump: Option<Suit>,
    me: Seat,
    played: CardSet,
) -> Option<Card> {
    let legal = playable(hand, trick);
    if trick.is_empty() {
        // Leading: the lowest card that wins (a master), otherwise the lowest card.
        let masters: CardSet = legal
            .iter()
            .filter(|&c| Some(c.suit()) != trump && is_master(c, hand, played))
            .collect();
        return lowest(masters, trump).or_else(|| lowest(legal, trump));
    }
    let winning = trick_winner(trick, trump)?;
    if winning.seat == partner(me) {
        return lowest(legal, trump);
    }
    let winners: CardSet = legal
        .iter()
        .filter(|&card| {
            let mut with = trick.to_vec();
            with.push(PlayedCard { seat: me, card });
            trick_winner(&with, trump).is_some_and(|w| w.seat == me)
        })
        .collect();
    winners
        .iter()
        .min_by_key(|&c| (Some(c.suit()) == trump, strength(c)))
        .or_else(|| lowest(legal, trump))
}

// ---------------------------------------------------------------------------------------------
// Strong: sampled deals and greedy playouts.

/// Deals `pool` to `seats` with these `sizes`, never giving a seat a suit it showed out of;
/// `None` when the random choices ran into a dead end (try another order).
pub(super) fn deal_respecting_voids(
    pool: &[Card],
    seats: &[Seat],
    sizes: &[usize],
    shown_out: &[Vec<Suit>],
) -> Option<Vec<CardSet>> {
    let can_take = |i: usize, card: Card| {
        shown_out
            .get(seats[i].index())
            .is_none_or(|voids| !voids.contains(&card.suit()))
    };
    // The most constrained cards first, in the given (random) order otherwise; each to the
    // eligible seat with the most room, like dealing round the table.
    let mut cards: Vec<Card> = pool.to_vec();
    cards.sort_by_key(|&c| (0..seats.len()).filter(|&i| can_take(i, c)).count());
    let mut hands = vec![CardSet::EMPTY; seats.len()];
    for card in cards {
        let room = |i: usize| sizes[i].saturating_sub(hands[i].len());
        let target = (0..seats.len())
            .filter(|&i| can_take(i, card) && room(i) > 0)
            .max_by_key(|&i| (room(i), std::cmp::Reverse(i)))?;
        hands[target].insert(card);
    }
    Some(hands)
}

/// One sampled world: every hand known.
#[derive(Clone, Debug)]
struct World {
    hands: [CardSet; 4],
    trick: Vec<PlayedCard>,
    trump: Option<Suit>,
    next: Seat,
    played: CardSet,
    tricks: [u8; 2],
}

impl World {
    /// Plays `card` for the seat to act, finishing the trick when it is full.
    fn play(&mut self, card: Card) {
        let seat = self.next;
        self.hands[seat.index()].remove(card);
        self.trick.push(PlayedCard { seat, card });
        if self.trick.len() == 4 {
            if let Some(winner) = trick_winner(&self.trick, self.trump) {
                self.tricks[team(winner.seat)] += 1;
                self.next = winner.seat;
            }
            for p in self.trick.drain(..) {
                self.played.insert(p.card);
            }
        } else {
            self.next = seat.next(4);
        }
    }

    /// Plays the hand out with `greedy` at every seat.
    fn play_out(&mut self) {
        self.play_greedily_while(|w| w.hands.iter().any(|h| !h.is_empty()));
    }

    /// Plays `greedy` at every seat for as long as `going` holds (and a seat has a card).
    fn play_greedily_while(&mut self, going: impl Fn(&World) -> bool) {
        while going(self) {
            let seat = self.next;
            let Some(card) = greedy_card(
                self.hands[seat.index()],
                &self.trick,
                self.trump,
                seat,
                self.played,
            ) else {
                return;
            };
            self.play(card);
        }
    }
}

/// A world consistent with the view: the unseen cards dealt among the other three seats.
fn sample_world(view: &TarneebView, me: Seat, rng: &mut CardRng) -> Option<World> {
    let in_trick: CardSet = view.trick.iter().map(|p| p.card).collect();
    let unseen = CardSet::ALL - view.hand - view.played - in_trick;
    let others: Vec<Seat> = Seat::all(4).filter(|&s| s != me).collect();
    let sizes: Vec<usize> = others
        .iter()
        .map(|s| usize::from(view.hand_sizes.get(s.index()).copied().unwrap_or(0)))
        .collect();
    let mut pool = unseen.to_vec();
    let mut dealt = None;
    for _ in 0..20 {
        rng.shuffle(&mut pool);
        dealt = deal_respecting_voids(&pool, &others, &sizes, &view.shown_out);
        if dealt.is_some() {
            break;
        }
    }
    let dealt = dealt.or_else(|| deal_respecting_voids(&pool, &others, &sizes, &[]))?;
    let mut hands = [CardSet::EMPTY; 4];
    hands[me.index()] = view.hand;
    for (seat, hand) in others.iter().zip(dealt) {
        hands[seat.index()] = hand;
    }
    let next = view.to_act.unwrap_or(me);
    let tricks = [
        view.tricks_won.first().copied().unwrap_or(0),
        view.tricks_won.get(1).copied().unwrap_or(0),
    ];
    Some(World {
        hands,
        trick: view.trick.clone(),
        trump: view.trump,
        next,
        played: view.played,
        tricks,
    })
}

/// A fresh deal's world for bidding: the other 39 cards dealt at random, the bidder's partner
/// to lead (an average of who will).
fn sample_deal(view: &TarneebView, me: Seat, trump: Option<Suit>, rng: &mut CardRng) -> World {
    let mut pool = (CardSet::ALL - view.hand).to_vec();
    rng.shuffle(&mut pool);
    let mut hands = [CardSet::EMPTY; 4];
    hands[me.index()] = view.hand;
    let mut rest = pool.into_iter();
    for seat in Seat::all(4).filter(|&s| s != me) {
        hands[seat.index()] = rest.by_ref().take(13).collect();
    }
    World {
        hands,
        trick: Vec::new(),
        trump,
        next: me,
        played: CardSet::EMPTY,
        tricks: [0, 0],
    }
}

/// The average tricks `me`'s team takes with `trump` over sampled deals.
fn simulated_tricks(
    view: &TarneebView,
    me: Seat,
    trump: Option<Suit>,
    samples: usize,
    rng: &mut CardRng,
) -> f64 {
    let total: u32 = (0..samples)
        .map(|_| {
            let mut world = sample_deal(view, me, trump, rng);
            world.play_out();
            u32::from(world.tricks[team(me)])
        })
        .sum();
    f64::from(total) / samples.max(1) as f64
}

/// Perfect-information Monte Carlo with greedy playouts: `samples` consistent worlds.
fn strong(view: &TarneebView, rng: &mut CardRng, samples: usize) -> Option<TarneebMove> {
    let me = view.seat?;
    match view.phase.as_str() {
        "bidding" => {
            let options: Vec<Denomination> = match view.config.variant {
                Variant::Standard => Suit::ALL.into_iter().map(Denomination::Trump).collect(),
                Variant::Classic => Denomination::ALL.to_vec(),
            };
            let (denomination, tricks) = options
                .into_iter()
                .map(|d| (d, simulated_tricks(view, me, d.trump(), samples, rng)))
                .max_by(|a, b| a.1.total_cmp(&b.1))?;
            // The playouts are greedy and the partner's hand random: shade the estimate.
            Some(bid_for(view, tricks - 0.5, denomination))
        }
        "trump" => Suit::ALL
            .into_iter()
            .map(|s| (s, simulated_tricks(view, me, Some(s), samples, rng)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(suit, _)| TarneebMove::Trump { suit }),
        "play" => {
            let legal: Vec<Card> = view
                .legal_moves
                .iter()
                .filter_map(|m| match m {
                    TarneebMove::Play { card } => Some(*card),
                    _ => None,
                })
                .collect();
            if legal.len() == 1 {
                return legal.first().map(|&card| TarneebMove::Play { card });
            }
            let mut totals = vec![0u32; legal.len()];
            for _ in 0..samples {
                let Some(world) = sample_world(view, me, rng) else {
                    break;
                };
                for (i, &card) in legal.iter().enumerate() {
                    let mut w = world.clone();
                    w.play(card);
                    w.play_out();
                    totals[i] += u32::from(w.tricks[team(me)]);
                }
            }
            legal
                .iter()
                .zip(&totals)
                .max_by_key(|&(c, t)| (*t, std::cmp::Reverse(strength(*c))))
                .map(|(&card, _)| TarneebMove::Play { card })
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Hard: samples consistent with the auction, solved exactly, valued by the contract's score.

/// What each other seat's calls say about its hand, read from the auction: the least and the
/// most it should be worth by [`own_tricks`] (with a partner's average added), scaled to the
/// cards it still holds.
#[derive(Clone, Copy, Debug)]
struct Reading {
    least: f64,
    most: f64,
}

/// The auction's readings of every seat but `me`'s (`None` for seats it says nothing about).
fn read_auction(view: &TarneebView, me: Seat) -> [Option<Reading>; 4] {
    let mut readings = [None; 4];
    let mut highest: Option<(Seat, u8)> = None;
    for record in &view.auction {
        let seat = record.seat;
        if seat == me || seat.index() > 3 {
            continue;
        }
        let reading = readings[seat.index()].get_or_insert(Reading {
            least: 0.0,
            most: 13.0,
        });
        match record.call {
            Call::Bid { tricks, .. } => {
                // A bidder expects its side to take `tricks`, its partner bringing an average.
                reading.least = reading.least.max(f64::from(tricks) - PARTNER_TRICKS - 1.0);
                highest = Some((seat, tricks));
            }
            Call::Pass => {
                // A pass over an opponent's bid (or into an empty auction) says the hand could
                // not bid one more; a pass over the partner's bid says nothing.
                let over = highest.map_or(6, |(_, t)| t);
                let partners_bid = highest.is_some_and(|(s, _)| s == partner(seat));
                if !partners_bid && over < 13 {
                    reading.most = reading.most.min(f64::from(over + 1) - PARTNER_TRICKS + 1.0);
                }
            }
        }
    }
    readings
}

/// Whether a dealt world agrees with the auction's readings (and the declarer holds four of
/// the trump it named), the hands' strength scaled to the cards still in them.
fn fits_auction(view: &TarneebView, readings: &[Option<Reading>; 4], hands: &[CardSet; 4]) -> bool {
    let declarer_trump = view.contract.zip(view.trump);
    (0..4).all(|i| {
        let hand = hands[i];
        let share = hand.len() as f64 / 13.0;
        let worth = own_tricks(hand);
        let fits = readings[i].is_none_or(|r| {
            worth >= r.least * share - 0.01 && worth <= r.most * share.max(0.5) + 0.01
        });
        let holds_trump = declarer_trump.is_none_or(|(contract, trump)| {
            contract.declarer.index() != i
                || view.seat.is_some_and(|me| me.index() == i)
                || (hand & CardSet::suit(trump)).len() as f64 >= (4.0 * share).floor()
        });
        fits && holds_trump
    })
}

/// A world for `hard`: [`sample_world`] (or, before the play, a fresh deal), redealt up to
/// [`AUCTION_TRIES`] times until the auction fits; the last try if none does.
fn hard_world(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    fresh: Option<Option<Suit>>,
    rng: &mut CardRng,
) -> Option<World> {
    let mut world = None;
    for _ in 0..AUCTION_TRIES {
        let w = match fresh {
            Some(trump) => sample_deal(view, me, trump, rng),
            None => sample_world(view, me, rng)?,
        };
        let fits = fits_auction(view, readings, &w.hands);
        world = Some(w);
        if fits {
            break;
        }
    }
    world
}

impl World {
    /// The solver's view of this world.
    fn position(&self) -> Position {
        Position {
            hands: self.hands,
            trick: self.trick.iter().map(|p| (p.seat, p.card)).collect(),
            to_act: self.next,
            trump: self.trump,
        }
    }

    /// The tricks `side` ends the hand with: greedy play until every hand is down to
    /// [`EXACT_EACH`] cards at a trick's start, then exact play.
    fn solved_tricks(&mut self, side: usize, solver: &mut Solver) -> u8 {
        self.play_greedily_while(|w| {
            !w.trick.is_empty() || w.hands.iter().any(|h| h.len() > EXACT_EACH)
        });
        let left = self.hands[self.next.index()].len() as u8;
        let to_act = match solver.tricks(&self.position()) {
            Ok(tricks) if left > 0 => tricks,
            _ => 0,
        };
        let mine = if team(self.next) == side {
            to_act
        } else {
            left - to_act
        };
        self.tricks[side] + mine
    }
}

/// What a hand in which `side` takes `tricks` is worth to `side` under `contract`: its score
/// less the other side's.
fn contract_value(variant: Variant, contract: (Seat, Bid), side: usize, tricks: u8) -> i32 {
    let (declarer, bid) = contract;
    let declaring = team(declarer) == side;
    let taken = if declaring {
        tricks
    } else {
        13 - tricks.min(13)
    };
    let (made, set) = score(variant, bid, taken);
    if declaring { made - set } else { set - made }
}

fn hard(view: &TarneebView, rng: &mut CardRng) -> Option<TarneebMove> {
    let me = view.seat?;
    let readings = read_auction(view, me);
    let mut solver = Solver::with_capacity(HARD_TABLE);
    match view.phase.as_str() {
        "bidding" => hard_bid(view, me, &readings, &mut solver, rng),
        "trump" => {
            let contract = view.contract?;
            let values = Suit::ALL.map(|suit| {
                (0..HARD_SAMPLES)
                    .filter_map(|_| hard_world(view, me, &readings, Some(Some(suit)), rng))
                    .map(|mut world| {
                        let tricks = world.solved_tricks(team(me), &mut solver);
                        contract_value(
                            view.config.variant,
                            (contract.declarer, contract.bid),
                            team(me),
                            tricks,
                        )
                    })
                    .sum::<i32>()
            });
            Suit::ALL
                .into_iter()
                .zip(values)
                .max_by_key(|&(suit, value)| (value, suit as u8))
                .map(|(suit, _)| TarneebMove::Trump { suit })
        }
        "play" => hard_play(view, me, &readings, &mut solver, rng),
        _ => None,
    }
}

/// `hard`'s bid: for every denomination it could play in, the tricks its side takes over
/// sampled deals; then the legal bid with the best expected score, if that is positive.
fn hard_bid(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    solver: &mut Solver,
    rng: &mut CardRng,
) -> Option<TarneebMove> {
    if view.contract.is_some_and(|c| c.declarer == partner(me)) {
        return Some(TarneebMove::Pass {});
    }
    let options: Vec<Denomination> = match view.config.variant {
        Variant::Standard => Suit::ALL.into_iter().map(Denomination::Trump).collect(),
        Variant::Classic => Denomination::ALL.to_vec(),
    };
    let mut best: Option<(i32, TarneebMove)> = None;
    for denomination in options {
        let tricks: Vec<u8> = (0..HARD_SAMPLES)
            .filter_map(|_| hard_world(view, me, readings, Some(denomination.trump()), rng))
            .map(|mut world| world.solved_tricks(team(me), solver))
            .collect();
        let suit = match view.config.variant {
            Variant::Standard => None,
            Variant::Classic => Some(denomination),
        };
        for level in 7..=13 {
            let bid = Bid {
                tricks: level,
                suit,
            };
            if view.contract.is_some_and(|c| !bid.beats(c.bid)) {
                continue;
            }
            let value: i32 = tricks
                .iter()
                .map(|&t| contract_value(view.config.variant, (me, bid), team(me), t))
                .sum();
            if value > 0 && best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((
                    value,
                    TarneebMove::Bid {
                        tricks: level,
                        suit,
                    },
                ));
            }
        }
    }
    Some(best.map_or(TarneebMove::Pass {}, |(_, mv)| mv))
}

/// `hard`'s card: over sampled worlds, the card whose exact outcome scores best on average.
fn hard_play(
    view: &TarneebView,
    me: Seat,
    readings: &[Option<Reading>; 4],
    solver: &mut Solver,
    rng: &mut CardRng,
) -> Option<TarneebMove> {
    let contract = view.contract?;
    let contract = (contract.declarer, contract.bid);
    let side = team(me);
    let legal: Vec<Card> = view
        .legal_moves
        .iter()
        .filter_map(|m| match m {
            TarneebMove::Play { card } => Some(*card),
            _ => None,
        })
        .collect();
    if legal.len() <= 1 {
        return legal.first().map(|&card| TarneebMove::Play { card });
    }
    let mut totals = vec![0i64; legal.len()];
    for _ in 0..HARD_SAMPLES {
        let Some(world) = hard_world(view, me, readings, None, rng) else {
            break;
        };
        if view.hand.len() <= EXACT_EACH {
            // Small enough to solve every card exactly from here.
            let Ok(values) = solver.card_tricks(&world.position()) else {
                continue;
            };
            for (i, &card) in legal.iter().enumerate() {
                if let Some(&(_, tricks)) = values.iter().find(|(c, _)| *c == card) {
                    let total = world.tricks[side] + tricks;
                    totals[i] +=
                        i64::from(contract_value(view.config.variant, contract, side, total));
                }
            }
        } else {
            for (i, &card) in legal.iter().enumerate() {
                let mut w = world.clone();
                w.play(card);
                let total = w.solved_tricks(side, solver);
                totals[i] += i64::from(contract_value(view.config.variant, contract, side, total));
            }
        }
    }
    legal
        .iter()
        .zip(&totals)
        .max_by_key(|&(c, t)| (*t, std::cmp::Reverse(strength(*c))))
        .map(|(&card, _)| TarneebMove::Play { card })
}
