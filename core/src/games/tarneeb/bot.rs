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
//! - `hard`: the same with 48 samples; from 16 cards left (four tricks) each sample is solved
//!   exactly with every hand open (double dummy) instead of played out greedily, and a playout
//!   is valued by the contract made or set as well as by the tricks.

use crate::bots::BotLevel;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::rng::CardRng;
use crate::seat::Seat;

use super::auction::{Bid, Denomination, PlayedCard, strength, trick_winner};
use super::config::Variant;
use super::{TarneebMove, TarneebView};

/// Samples per decision for `strong` and `medium`.
const SAMPLES: usize = 20;
/// Samples per decision for `hard`.
const HARD_SAMPLES: usize = 48;
/// From how many cards left in the four hands `hard` solves the rest exactly (double dummy).
const EXACT_CARDS: u32 = 16;
/// What making (or setting) the contract is worth to `hard`, in tricks.
const CONTRACT_BONUS: u32 = 4;

/// A computer player's move.
pub fn choose(view: &TarneebView, level: BotLevel, rng: &mut CardRng) -> Option<TarneebMove> {
    let mv = match level {
        BotLevel::Random => return rng.choose(&view.legal_moves).copied(),
        BotLevel::Strong | BotLevel::Medium => strong(view, rng, SAMPLES, false),
        BotLevel::Hard => strong(view, rng, HARD_SAMPLES, true),
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
    /// Cards still in the four hands.
    fn cards_left(&self) -> u32 {
        self.hands.iter().map(|h| h.len() as u32).sum()
    }

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

    /// The tricks `team_max`'s team ends the hand with when both teams play perfectly with
    /// every hand open (double dummy): minimax with alpha-beta pruning over the cards left.
    fn double_dummy(&self, team_max: usize, mut alpha: u8, mut beta: u8) -> u8 {
        let seat = self.next;
        let cards = playable(self.hands[seat.index()], &self.trick);
        if cards.is_empty() {
            return self.tricks[team_max];
        }
        let maximizing = team(seat) == team_max;
        let mut best = if maximizing { 0 } else { 13 };
        let mut order: Vec<Card> = cards.iter().collect();
        order.sort_by_key(|&c| (c.suit() as u8, strength(c)));
        let mut previous: Option<Card> = None;
        for card in order {
            // Touching cards of one hand are equivalent: after the 7, the 8 is worth trying
            // only if a card between them is still out (none is between adjacent strengths).
            if let Some(p) = previous.filter(|p| p.suit() == card.suit()) {
                let between = (CardSet::suit(card.suit()) - self.played)
                    .iter()
                    .any(|c| strength(c) > strength(p) && strength(c) < strength(card));
                if !between {
                    previous = Some(card);
                    continue;
                }
            }
            previous = Some(card);
            let mut next = self.clone();
            next.play(card);
            let value = next.double_dummy(team_max, alpha, beta);
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Plays the hand out with `greedy` at every seat.
    fn play_out(&mut self) {
        while self.hands.iter().any(|h| !h.is_empty()) {
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

/// How `me` values a finished playout: the tricks of its team and, when `contract_aware`, a
/// bonus for making the contract (declaring) or setting it (defending).
fn playout_value(view: &TarneebView, me: Seat, tricks: [u8; 2], contract_aware: bool) -> u32 {
    let own = u32::from(tricks[team(me)]);
    let Some(contract) = view.contract.filter(|_| contract_aware) else {
        return own;
    };
    let declaring = team(contract.declarer);
    let made = tricks[declaring] >= contract.bid.tricks;
    if made == (declaring == team(me)) {
        own + CONTRACT_BONUS
    } else {
        own
    }
}

/// Perfect-information Monte Carlo with greedy playouts: `samples` consistent worlds.
fn strong(
    view: &TarneebView,
    rng: &mut CardRng,
    samples: usize,
    contract_aware: bool,
) -> Option<TarneebMove> {
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
                // `hard` solves the last tricks exactly instead of playing them out greedily.
                let exact = contract_aware && world.cards_left() <= EXACT_CARDS;
                for (i, &card) in legal.iter().enumerate() {
                    let mut w = world.clone();
                    w.play(card);
                    if exact {
                        let mine = w.double_dummy(team(me), 0, 13);
                        let mut tricks = [0u8; 2];
                        tricks[team(me)] = mine;
                        tricks[1 - team(me)] = 13u8.saturating_sub(mine);
                        w.tricks = tricks;
                    } else {
                        w.play_out();
                    }
                    totals[i] += playout_value(view, me, w.tricks, contract_aware);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;

    /// Plain minimax over every card, no pruning and no equivalences: the reference.
    fn minimax(world: &World, team_max: usize) -> u8 {
        let seat = world.next;
        let cards = playable(world.hands[seat.index()], &world.trick);
        if cards.is_empty() {
            return world.tricks[team_max];
        }
        let values = cards.iter().map(|card| {
            let mut next = world.clone();
            next.play(card);
            minimax(&next, team_max)
        });
        if team(seat) == team_max {
            values.max().unwrap_or(0)
        } else {
            values.min().unwrap_or(0)
        }
    }

    #[test]
    fn double_dummy_agrees_with_plain_minimax_on_random_endings() {
        let mut rng = CardRng::new(&Seed::from_bytes([21; 32]), 0);
        for case in 0..300 {
            let mut deck = CardSet::ALL.to_vec();
            rng.shuffle(&mut deck);
            let each = 1 + case % 3;
            let mut cards = deck.into_iter();
            let mut hands = [CardSet::EMPTY; 4];
            for hand in &mut hands {
                *hand = cards.by_ref().take(each).collect();
            }
            let trump = match case % 5 {
                4 => None,
                s => Some(Suit::ALL[s]),
            };
            let world = World {
                hands,
                trick: Vec::new(),
                trump,
                next: Seat::new((case % 4) as u8),
                // Cards gone in earlier tricks make cards of one hand touch.
                played: cards.take(4 * (case % 7)).collect(),
                tricks: [3, 4],
            };
            for side in 0..2 {
                assert_eq!(
                    world.double_dummy(side, 0, 13),
                    minimax(&world, side),
                    "case {case}: {world:?}"
                );
            }
        }
    }
}
