//! An exact double-dummy solver for four-hand trick games with a trump suit or none (Tarneeb's
//! play, and bridge's): with every hand open, how many tricks can each side take if both play
//! perfectly?
//!
//! The method is the one strong solvers share:
//! - **zero-window alpha-beta**: each search answers one question, "can seats 0 and 2 take at
//!   least `t` tricks?", and the exact count is found by a few such questions, stepping from a
//!   guess;
//! - **a transposition table with partition search** at the start of each trick: a result is
//!   stored not for one position but for every position with the same leader and suit lengths
//!   in which the cards that decided a trick by their rank (and every card above them) are held
//!   by the same hands, in *relative* ranks. A search returns, with its answer, the ranks it
//!   rested on, so one entry answers for the many positions that differ only in small cards.
//!   Entries hold lower and upper bounds on the tricks still to come, and the lead that proved
//!   them (tried first next time); they may be kept across searches, positions and deals as
//!   long as the trump is the same;
//! - **equivalent cards**: cards of one hand with no other card still out (or on the table)
//!   between them are one move;
//! - **quick tricks**: the winners the side on lead can cash at once end a search early;
//! - **move ordering**: the cheapest winner first, low cards when partner wins, leads toward
//!   one's own or partner's winners.
//!
//! The solver is pure and deterministic; it knows nothing of any game's scoring. Seats 0 and 2
//! are one side, 1 and 3 the other; play passes 0 → 1 → 2 → 3.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

/// A position to solve.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    /// The cards each seat still holds.
    pub hands: [CardSet; 4],
    /// The cards already played to the trick in progress, in order (the first by its leader).
    pub trick: Vec<(Seat, Card)>,
    /// Whose turn it is: the leader when no trick is in progress.
    pub to_act: Seat,
    /// The trump suit, if any.
    pub trump: Option<Suit>,
}

/// Why a position cannot be solved.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("a card is in two places")]
    CardTwice,
    #[error("the hands do not have the sizes the trick in progress implies")]
    HandSizes,
    #[error("the trick in progress does not lead to the seat to act")]
    TrickOrder,
}

/// A rank as the solver keeps it: bit 0 is the two, bit 12 the ace.
type Ranks = u16;

/// No trump, as a suit index.
const NO_TRUMP: usize = 4;

/// A stored result's pattern: every position at a trick's start with this leader and these
/// suit lengths (`shape`) in which the top `counts[s]` cards of each suit `s` are held as in
/// `owners[s]`. The cards below those decided no trick by their rank in the search that proved
/// the result, so their ranks do not matter: one entry stands for many positions (partition
/// search).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pattern {
    shape: u64,
    counts: [u8; 4],
    /// The seats holding the top cards, two bits a card from the highest, right-aligned.
    owners: [u32; 4],
}

impl Hash for Pattern {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut h = self.shape;
        for suit in 0..4 {
            h = (h ^ (u64::from(self.owners[suit]) << 4 | u64::from(self.counts[suit])))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 31;
        }
        state.write_u64(h);
    }
}

/// Bounds on the tricks seats 0 and 2 take from a trick's start to the end, and the lead that
/// last proved one.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lower: u8,
    upper: u8,
    /// The lead's suit (`NO_MOVE` for none) and how many cards still out in that suit rank
    /// above it.
    best_suit: u8,
    best_above: u8,
}

/// No move, in [`Bounds::best_suit`].
const NO_MOVE: u8 = u8::MAX;

/// For each suit, the ranks that decided a trick by being higher than another card of the suit:
/// only cards at or above the lowest of them need to be where they are for a result to hold.
type Wins = [Ranks; 4];

/// Passes on keys that are already hashed.
#[derive(Default, Clone, Copy, Debug)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

type Build = BuildHasherDefault<KeyHasher>;

/// The transposition table: results by pattern, and for each shape the pattern sizes
/// (`counts`) stored for it, so a lookup probes one pattern a size.
#[derive(Debug, Default)]
struct Table {
    results: HashMap<Pattern, Bounds, Build>,
    sizes: HashMap<u64, Vec<[u8; 4]>, Build>,
}

impl Table {
    fn clear(&mut self) {
        self.results.clear();
        self.sizes.clear();
    }
}

/// A double-dummy solver with its transposition table. Keep one and reuse it: what it learned
/// about one position speeds up the next with the same trump.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    /// The trump the table's entries are for.
    trump: usize,
    capacity: usize,
    /// Entries in the table.
    stored: usize,
    nodes: u64,
    /// Store every result for its exact position only (no partitions): for checking.
    exact: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver whose table holds up to about a million results (some 40 MB) before it starts
    /// again empty.
    pub fn new() -> Solver {
        Solver::with_capacity(1 << 20)
    }

    /// A solver whose table holds up to `entries` results before it starts again empty.
    pub fn with_capacity(entries: usize) -> Solver {
        Solver {
            table: Table::default(),
            trump: NO_TRUMP,
            capacity: entries.max(1),
            stored: 0,
            nodes: 0,
            exact: false,
        }
    }

    /// Positions visited since the solver was made: a measure of work.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The tricks still to be won (the one in progress included) that the side of the seat to
    /// act takes with best play by everyone.
    pub fn tricks(&mut self, position: &Position) -> Result<u8, PositionError> {
        let mut state = self.prepare(position)?;
        let guess = state.ns + state.left.div_ceil(2);
        let ns = self.value(&mut state, guess);
        Ok(state.side_tricks(position.to_act.index(), ns))
    }

    /// [`Solver::tricks`], searching first around `guess` (tricks for the side of the seat to
    /// act): a guess close to the answer, such as the answer for a similar position, saves work.
    pub fn tricks_near(&mut self, position: &Position, guess: u8) -> Result<u8, PositionError> {
        let mut state = self.prepare(position)?;
        let ns_guess = state.side_tricks(position.to_act.index(), guess.min(state.left));
        let ns = self.value(&mut state, ns_guess);
        Ok(state.side_tricks(position.to_act.index(), ns))
    }

    /// For every card the seat to act may play, the tricks still to be won (the one in progress
    /// included) that its side takes after playing it, with best play by everyone after.
    /// Cards come in the order of [`CardSet::iter`].
    pub fn card_tricks(&mut self, position: &Position) -> Result<Vec<(Card, u8)>, PositionError> {
        let mut state = self.prepare(position)?;
        let seat = position.to_act.index();
        let mut values = Vec::new();
        let mut candidates = Candidates::default();
        state.candidates(seat, &mut candidates);
        // Cards' values are close to each other: each search starts from the last answer.
        let mut guess = state.ns + state.left.div_ceil(2);
        for candidate in candidates.list() {
            let undo = state.play(seat, candidate.suit, candidate.low);
            let ns = self.value(&mut state, guess);
            guess = ns;
            state.undo(seat, candidate.suit, candidate.low, undo);
            let tricks = state.side_tricks(seat, ns);
            let mut group = candidate.group;
            while group != 0 {
                let bit = 15 - group.leading_zeros() as usize;
                group &= !(1 << bit);
                if let Some(card) = card_of(candidate.suit, bit) {
                    values.push((card, tricks));
                }
            }
        }
        values.sort_by_key(|&(card, _)| card.index());
        Ok(values)
    }

    /// The search state of a position, the table emptied if the trump changed or it is full.
    fn prepare(&mut self, position: &Position) -> Result<State, PositionError> {
        let mut state = State::of(position)?;
        state.exact = self.exact;
        if state.trump != self.trump || self.stored >= self.capacity {
            self.table.clear();
            self.stored = 0;
            self.trump = state.trump;
        }
        Ok(state)
    }

    /// The exact number of tricks seats 0 and 2 take from the search's root with best play from
    /// `state` on: zero-window searches stepping from `guess` (counted from the root) towards
    /// the answer, which is cheap when the guess is close, since searches far from the answer
    /// end fast.
    fn value(&mut self, state: &mut State, guess: u8) -> u8 {
        let (mut lo, mut hi) = (state.ns, state.ns + state.left);
        let mut target = guess.clamp(lo + 1, hi.max(lo + 1));
        while lo < hi {
            if state.search(&mut self.table, target).0 {
                lo = target;
                target += 1;
            } else {
                hi = target - 1;
                target = target.saturating_sub(1);
            }
            target = target.clamp(lo + 1, hi.max(lo + 1));
        }
        self.nodes += std::mem::take(&mut state.nodes);
        self.stored += std::mem::take(&mut state.stored);
        lo
    }
}

/// A rank bit's card.
fn card_of(suit: usize, bit: usize) -> Option<Card> {
    let number = if bit == 12 { 1 } else { bit as u8 + 2 };
    Some(Card::new(Rank::from_number(number)?, *Suit::ALL.get(suit)?))
}

/// A card's suit index and rank bit.
fn bits_of(card: Card) -> (usize, Ranks) {
    let number = card.rank().number();
    let bit = if number == 1 { 12 } else { number - 2 };
    (card.suit() as usize, 1 << bit)
}

/// A hand's cards of every suit as rank masks.
fn lanes(hand: CardSet) -> [Ranks; 4] {
    Suit::ALL.map(|suit| {
        let m = hand.ranks_in(suit);
        (m >> 1) | ((m & 1) << 12)
    })
}

/// The highest rank bit of a non-empty mask.
fn top(mask: Ranks) -> Ranks {
    1 << (15 - mask.leading_zeros())
}

fn same_side(a: usize, b: usize) -> bool {
    a % 2 == b % 2
}

/// What `play` changed, for `undo`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    lead_suit: usize,
    count: usize,
    win_seat: usize,
    win_suit: usize,
    win_rank: Ranks,
    on_table: [Ranks; 4],
    to_act: usize,
    ns: u8,
    left: u8,
}

/// One move: the cards of a suit in one hand that are equivalent, and the one to play.
#[derive(Clone, Copy, Debug, Default)]
struct Candidate {
    suit: usize,
    /// The lowest card of the group (the one played).
    low: Ranks,
    /// Every card of the group.
    group: Ranks,
    weight: i32,
}

/// A node's moves, at most thirteen.
#[derive(Clone, Copy, Debug, Default)]
struct Candidates {
    moves: [Candidate; 13],
    len: usize,
}

impl Candidates {
    fn push(&mut self, candidate: Candidate) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = candidate;
            self.len += 1;
        }
    }

    fn list(&self) -> &[Candidate] {
        &self.moves[..self.len]
    }

    /// Best weight first (a stable insertion sort: ties keep their order).
    fn sort(&mut self) {
        for i in 1..self.len {
            let mut j = i;
            while j > 0 && self.moves[j - 1].weight < self.moves[j].weight {
                self.moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// The position during a search.
#[derive(Clone, Debug)]
struct State {
    /// `hands[seat][suit]`.
    hands: [[Ranks; 4]; 4],
    /// Every card still in a hand, by suit.
    rest: [Ranks; 4],
    trump: usize,
    lead_suit: usize,
    /// Cards on the table in the trick in progress.
    count: usize,
    win_seat: usize,
    win_suit: usize,
    win_rank: Ranks,
    on_table: [Ranks; 4],
    to_act: usize,
    /// Tricks won by seats 0 and 2 since the root.
    ns: u8,
    /// Tricks not yet complete, the one in progress included.
    left: u8,
    nodes: u64,
    /// Entries this state added to the table.
    stored: usize,
    exact: bool,
}

impl State {
    fn of(position: &Position) -> Result<State, PositionError> {
        let mut seen = CardSet::EMPTY;
        for hand in &position.hands {
            if !seen.is_disjoint(*hand) {
                return Err(PositionError::CardTwice);
            }
            seen |= *hand;
        }
        let mut state = State {
            hands: position.hands.map(lanes),
            rest: [0; 4],
            trump: position.trump.map_or(NO_TRUMP, |s| s as usize),
            lead_suit: 0,
            count: 0,
            win_seat: 0,
            win_suit: 0,
            win_rank: 0,
            on_table: [0; 4],
            to_act: 0,
            ns: 0,
            left: 0,
            nodes: 0,
            stored: 0,
            exact: false,
        };
        if position.trick.len() > 3 {
            return Err(PositionError::TrickOrder);
        }
        let leader = match position.trick.first() {
            Some((seat, _)) => seat.index(),
            None => position.to_act.index(),
        };
        if leader > 3 || (leader + position.trick.len()) % 4 != position.to_act.index() {
            return Err(PositionError::TrickOrder);
        }
        // Every seat holds as many cards as the leader held before the trick began, less the
        // one it played to it.
        let size = position.hands[leader].len() + usize::from(!position.trick.is_empty());
        for offset in 0..4 {
            let seat = (leader + offset) % 4;
            let played = usize::from(offset < position.trick.len());
            if position.hands[seat].len() + played != size {
                return Err(PositionError::HandSizes);
            }
        }
        if size == 0 {
            return Err(PositionError::HandSizes);
        }
        for suit in 0..4 {
            state.rest[suit] = state.hands.iter().map(|h| h[suit]).fold(0, |a, b| a | b);
        }
        state.left = size as u8;
        state.to_act = leader;
        for (i, &(seat, card)) in position.trick.iter().enumerate() {
            if seat.index() != (leader + i) % 4 {
                return Err(PositionError::TrickOrder);
            }
            if seen.contains(card) {
                return Err(PositionError::CardTwice);
            }
            seen.insert(card);
            let (suit, rank) = bits_of(card);
            // Put the card back in its hand, then play it as the search would.
            state.hands[seat.index()][suit] |= rank;
            state.rest[suit] |= rank;
            state.play(seat.index(), suit, rank);
        }
        Ok(state)
    }

    /// The tricks of `seat`'s side from a root value of seats 0 and 2 (at the root).
    fn side_tricks(&self, seat: usize, ns: u8) -> u8 {
        if seat.is_multiple_of(2) {
            ns
        } else {
            self.left.saturating_sub(ns)
        }
    }

    fn owner(&self, suit: usize, rank: Ranks) -> usize {
        (0..4)
            .find(|&seat| self.hands[seat][suit] & rank != 0)
            .unwrap_or(0)
    }

    /// Whether a card of `suit` and `rank` beats the trick's winning card so far.
    fn beats(&self, suit: usize, rank: Ranks) -> bool {
        if suit == self.win_suit {
            rank > self.win_rank
        } else {
            suit == self.trump
        }
    }

    fn play(&mut self, seat: usize, suit: usize, rank: Ranks) -> Undo {
        let undo = Undo {
            lead_suit: self.lead_suit,
            count: self.count,
            win_seat: self.win_seat,
            win_suit: self.win_suit,
            win_rank: self.win_rank,
            on_table: self.on_table,
            to_act: self.to_act,
            ns: self.ns,
            left: self.left,
        };
        self.hands[seat][suit] &= !rank;
        self.rest[suit] &= !rank;
        self.on_table[suit] |= rank;
        if self.count == 0 {
            self.lead_suit = suit;
            self.win_seat = seat;
            self.win_suit = suit;
            self.win_rank = rank;
        } else if self.beats(suit, rank) {
            self.win_seat = seat;
            self.win_suit = suit;
            self.win_rank = rank;
        }
        self.count += 1;
        if self.count == 4 {
            if self.win_seat.is_multiple_of(2) {
                self.ns += 1;
            }
            self.left -= 1;
            self.count = 0;
            self.on_table = [0; 4];
            self.to_act = self.win_seat;
        } else {
            self.to_act = (seat + 1) % 4;
        }
        undo
    }

    fn undo(&mut self, seat: usize, suit: usize, rank: Ranks, undo: Undo) {
        self.hands[seat][suit] |= rank;
        self.rest[suit] |= rank;
        self.lead_suit = undo.lead_suit;
        self.count = undo.count;
        self.win_seat = undo.win_seat;
        self.win_suit = undo.win_suit;
        self.win_rank = undo.win_rank;
        self.on_table = undo.on_table;
        self.to_act = undo.to_act;
        self.ns = undo.ns;
        self.left = undo.left;
    }

    /// The table's bucket for the position at a trick's start: the leader and every hand's
    /// length in every suit (the last one follows from the others).
    fn shape(&self) -> u64 {
        let mut key = self.to_act as u64;
        for (seat, hand) in self.hands.iter().enumerate() {
            for (suit, &cards) in hand.iter().enumerate() {
                if seat == 3 && suit == 3 {
                    break;
                }
                key = (key << 4) | u64::from(cards.count_ones());
            }
        }
        key
    }

    /// For each suit, the seats holding its remaining cards from the highest (two bits a card)
    /// and how many there are.
    fn layout(&self) -> ([u32; 4], [u8; 4]) {
        let mut codes = [0u32; 4];
        let mut counts = [0u8; 4];
        for suit in 0..4 {
            let mut cards = self.rest[suit];
            while cards != 0 {
                let rank = top(cards);
                cards &= !rank;
                codes[suit] = (codes[suit] << 2) | self.owner(suit, rank) as u32;
                counts[suit] += 1;
            }
        }
        (codes, counts)
    }

    /// The `n`-th highest remaining card of `suit` (from 1), as a mask; empty if there is none.
    fn nth_highest(&self, suit: usize, n: u8) -> Ranks {
        let mut cards = self.rest[suit];
        for _ in 1..n {
            cards &= !top(cards);
        }
        if n == 0 || cards == 0 { 0 } else { top(cards) }
    }

    /// The tricks `leader` can cash at once without giving up the lead: its top cards in each
    /// suit that no opponent can ruff. A lower bound on its side's tricks from here, with the
    /// cards it counted as winning ranks.
    fn quick_tricks(&self, leader: usize) -> (u8, Wins) {
        let hand = &self.hands[leader];
        let opponents = [(leader + 1) % 4, (leader + 3) % 4];
        let mut wins = [0; 4];
        // The run of top cards of a suit the leader holds.
        let run = |suit: usize| -> u32 {
            let mine = hand[suit];
            let others = self.rest[suit] & !mine;
            if mine == 0 {
                return 0;
            }
            if others == 0 {
                return mine.count_ones();
            }
            (mine & !((top(others) << 1) - 1)).count_ones()
        };
        let mut tricks = 0;
        let mut count = |suit: usize, cash: u32, wins: &mut Wins| {
            if cash > 0 {
                tricks += cash;
                wins[suit] |= self.nth_highest(suit, cash as u8);
            }
        };
        if self.trump == NO_TRUMP {
            for suit in 0..4 {
                count(suit, run(suit), &mut wins);
            }
        } else {
            let trump_run = run(self.trump);
            count(self.trump, trump_run, &mut wins);
            let their_trumps = opponents
                .iter()
                .map(|&o| self.hands[o][self.trump].count_ones())
                .max()
                .unwrap_or(0);
            // Cashing the top trumps first draws theirs when they have no more.
            let drawn = their_trumps <= trump_run;
            for suit in (0..4).filter(|&s| s != self.trump) {
                let mut cash = run(suit);
                if !drawn {
                    for &o in &opponents {
                        if self.hands[o][self.trump] != 0 {
                            cash = cash.min(self.hands[o][suit].count_ones());
                        }
                    }
                }
                count(suit, cash, &mut wins);
            }
        }
        (tricks.min(u32::from(self.left)) as u8, wins)
    }

    /// The moves of `seat`, best first.
    fn candidates(&self, seat: usize, out: &mut Candidates) {
        let hand = &self.hands[seat];
        let following = self.count > 0 && hand[self.lead_suit] != 0;
        for (suit, &mine) in hand.iter().enumerate() {
            if mine == 0 || (following && suit != self.lead_suit) {
                continue;
            }
            // Walk the suit's cards still out or on the table from the highest; a run of this
            // hand's cards with none of them in between is one move.
            let mut cards = self.rest[suit] | self.on_table[suit];
            let mut group: Ranks = 0;
            let mut low: Ranks = 0;
            while cards != 0 {
                let rank = top(cards);
                cards &= !rank;
                if mine & rank != 0 {
                    group |= rank;
                    low = rank;
                } else if group != 0 {
                    out.push(self.weighted(seat, suit, low, group));
                    group = 0;
                }
            }
            if group != 0 {
                out.push(self.weighted(seat, suit, low, group));
            }
        }
        out.sort();
    }

    /// A move with its ordering weight: how likely it is to be best.
    fn weighted(&self, seat: usize, suit: usize, low: Ranks, group: Ranks) -> Candidate {
        let rank = low.trailing_zeros() as i32;
        let partner = (seat + 2) % 4;
        let weight = if self.count == 0 {
            let highest = top(self.rest[suit]);
            let lho = (seat + 1) % 4;
            let rho = (seat + 3) % 4;
            let ruffable = |o: usize| {
                self.trump != NO_TRUMP
                    && suit != self.trump
                    && self.hands[o][suit] == 0
                    && self.hands[o][self.trump] != 0
            };
            if group & highest != 0 {
                if ruffable(lho) || ruffable(rho) {
                    20 - rank
                } else {
                    100 + i32::from(suit == self.trump) * 5
                }
            } else if self.hands[partner][suit] & highest != 0 {
                if ruffable(lho) || ruffable(rho) {
                    30 - rank
                } else {
                    80 - rank
                }
            } else if ruffable(lho) {
                -rank
            } else {
                40 - rank
            }
        } else if same_side(self.win_seat, seat) {
            // Partner wins so far: play low, and never ruff partner's trick.
            let ruffing = suit == self.trump && suit != self.lead_suit;
            let discarding = suit != self.lead_suit;
            if ruffing {
                -20 - rank
            } else if discarding {
                30 - rank + (hand_len(self, seat, suit) as i32)
            } else {
                50 - rank
            }
        } else if self.beats(suit, low) {
            // The lowest card of the group wins as well as the highest.
            let ruffing = suit == self.trump && suit != self.lead_suit;
            let last = self.count == 3;
            match (last, ruffing) {
                (true, false) => 100 - rank,
                (true, true) => 90 - rank,
                (false, false) => 80 - rank,
                (false, true) => 70 - rank,
            }
        } else {
            let discarding = suit != self.lead_suit;
            if discarding && suit == self.trump {
                -40 - rank
            } else if discarding {
                20 - rank + (hand_len(self, seat, suit) as i32)
            } else {
                30 - rank
            }
        };
        Candidate {
            suit,
            low,
            group,
            weight,
        }
    }

    /// Whether seats 0 and 2 take at least `target` tricks since the root, and the winning
    /// ranks the answer rests on.
    fn search(&mut self, table: &mut Table, target: u8) -> (bool, Wins) {
        self.nodes += 1;
        if self.ns >= target {
            return (true, [0; 4]);
        }
        if self.ns + self.left < target {
            return (false, [0; 4]);
        }
        if self.count != 0 {
            let (result, wins, _) = self.try_moves(table, target, None);
            return (result, wins);
        }
        let need = target - self.ns;
        if self.left == 1 {
            let (won, wins) = self.last_trick();
            return (won >= need, wins);
        }
        let leader = self.to_act;
        let (quick, wins) = self.quick_tricks(leader);
        if leader.is_multiple_of(2) {
            if quick >= need {
                return (true, wins);
            }
        } else if self.left - quick < need {
            return (false, wins);
        }
        let shape = self.shape();
        let (codes, counts) = self.layout();
        let pattern = |sizes: [u8; 4]| {
            let mut owners = [0u32; 4];
            for suit in 0..4 {
                let shift = 2 * u32::from(counts[suit] - sizes[suit]);
                owners[suit] = codes[suit].checked_shr(shift).unwrap_or(0);
            }
            Pattern {
                shape,
                counts: sizes,
                owners,
            }
        };
        let mut hint = None;
        if let Some(sizes) = table.sizes.get_mut(&shape) {
            for i in 0..sizes.len() {
                let size = sizes[i];
                let Some(bounds) = table.results.get(&pattern(size)) else {
                    continue;
                };
                if bounds.lower >= need || bounds.upper < need {
                    let mut wins = [0; 4];
                    for (suit, win) in wins.iter_mut().enumerate() {
                        *win = self.nth_highest(suit, size[suit]);
                    }
                    // Sizes that answer come to the front: the next lookup tries them first.
                    if i > 0 {
                        sizes.swap(i, i / 2);
                    }
                    return (bounds.lower >= need, wins);
                }
                if hint.is_none() && bounds.best_suit != NO_MOVE {
                    let suit = usize::from(bounds.best_suit);
                    let card = self.nth_highest(suit, bounds.best_above + 1);
                    if card != 0 {
                        hint = Some((suit, card));
                    }
                }
            }
        }
        let (result, wins, cut) = self.try_moves(table, target, hint);
        // The pattern the result holds for: each suit's cards down to its lowest winning rank.
        let mut size = [0u8; 4];
        for suit in 0..4 {
            let lowest = wins[suit] & wins[suit].wrapping_neg();
            if lowest != 0 {
                size[suit] = (self.rest[suit] & !(lowest - 1)).count_ones() as u8;
            }
            if self.exact {
                size[suit] = counts[suit];
            }
        }
        let left = self.left;
        let bounds = table.results.entry(pattern(size)).or_insert_with(|| {
            self.stored += 1;
            Bounds {
                lower: 0,
                upper: left,
                best_suit: NO_MOVE,
                best_above: 0,
            }
        });
        if result {
            bounds.lower = bounds.lower.max(need);
        } else {
            bounds.upper = bounds.upper.min(need - 1);
        }
        if let Some((suit, rank)) = cut {
            bounds.best_suit = suit as u8;
            bounds.best_above = (self.rest[suit] & !((rank << 1) - 1)).count_ones() as u8;
        }
        let sizes = table.sizes.entry(shape).or_default();
        if !sizes.contains(&size) {
            sizes.push(size);
        }
        (result, wins)
    }

    /// The last trick, every hand down to one card: 1 if seats 0 and 2 win it, and the winning
    /// card's rank if it beat another of its suit.
    fn last_trick(&self) -> (u8, Wins) {
        let leader = self.to_act;
        let card = |seat: usize| -> (usize, Ranks) {
            let hand = &self.hands[seat];
            let suit = (0..4).find(|&s| hand[s] != 0).unwrap_or(0);
            (suit, hand[suit])
        };
        let (lead_suit, lead_rank) = card(leader);
        let mut winner = (leader, lead_suit, lead_rank);
        for offset in 1..4 {
            let seat = (leader + offset) % 4;
            let (suit, rank) = card(seat);
            let beats = if suit == winner.1 {
                rank > winner.2
            } else {
                suit == self.trump
            };
            if beats {
                winner = (seat, suit, rank);
            }
        }
        let mut wins = [0; 4];
        // Whether the winner beat a card of its own suit: the cards of that suit in the trick.
        let of_suit = (0..4)
            .filter(|&seat| self.hands[seat][winner.1] != 0)
            .count();
        if of_suit > 1 {
            wins[winner.1] = winner.2;
        }
        (u8::from(winner.0 % 2 == 0), wins)
    }

    /// Whether seats 0 and 2 reach `target` with the seat to act choosing among its moves
    /// (`hint`, a card, first); the winning ranks that rests on; and the move that decided it
    /// if one did.
    fn try_moves(
        &mut self,
        table: &mut Table,
        target: u8,
        hint: Option<(usize, Ranks)>,
    ) -> (bool, Wins, Option<(usize, Ranks)>) {
        let seat = self.to_act;
        let maximizing = seat.is_multiple_of(2);
        let mut candidates = Candidates::default();
        self.candidates(seat, &mut candidates);
        if let Some((suit, rank)) = hint
            && let Some(i) = candidates
                .list()
                .iter()
                .position(|c| c.suit == suit && c.group & rank != 0)
        {
            candidates.moves[..=i].rotate_right(1);
        }
        let mut all = [0; 4];
        for i in 0..candidates.len {
            let Candidate { suit, low, .. } = candidates.moves[i];
            let undo = self.play(seat, suit, low);
            let (reached, mut wins) = self.search(table, target);
            if undo.count == 3 {
                // The trick is complete: did its winner beat a card of its own suit?
                let mut others = undo.on_table[self.win_suit] & !self.win_rank;
                if suit == self.win_suit {
                    others |= low & !self.win_rank;
                }
                if others != 0 {
                    wins[self.win_suit] |= self.win_rank;
                }
            }
            self.undo(seat, suit, low, undo);
            if reached == maximizing {
                return (reached, wins, Some((suit, low)));
            }
            for (a, w) in all.iter_mut().zip(wins) {
                *a |= w;
            }
        }
        // Every move was searched, each group of equivalent cards through its lowest card. That
        // the group's cards are equivalent rests on which cards lie between them, so a group
        // that reaches the ranks the result rests on must lie wholly within them: elsewhere
        // its upper cards may have a card of another hand in between, and be a move of their
        // own that was never searched.
        for candidate in candidates.list() {
            let threshold = all[candidate.suit] & all[candidate.suit].wrapping_neg();
            if threshold != 0 && top(candidate.group) >= threshold && candidate.low < threshold {
                all[candidate.suit] |= candidate.low;
            }
        }
        (!maximizing, all, None)
    }
}

/// How many cards of `suit` `seat` holds.
fn hand_len(state: &State, seat: usize, suit: usize) -> u32 {
    state.hands[seat][suit].count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{CardRng, Seed};

    /// The seat that wins a full trick: the highest trump, else the highest card of the suit led.
    fn winner(trick: &[(Seat, Card)], trump: Option<Suit>) -> Seat {
        let led = trick[0].1.suit();
        let strength = |c: Card| match c.rank().number() {
            1 => 14,
            n => n,
        };
        trick
            .iter()
            .max_by_key(|(_, c)| {
                let class = if Some(c.suit()) == trump {
                    2
                } else {
                    u8::from(c.suit() == led)
                };
                (class, strength(*c))
            })
            .unwrap()
            .0
    }

    fn cards(text: &str) -> CardSet {
        crate::card::parse_cards(text)
            .unwrap()
            .into_iter()
            .collect()
    }

    /// Plain minimax over every card: no table, no pruning, no equivalences, no quick tricks.
    fn minimax(
        hands: &mut [CardSet; 4],
        trick: &mut Vec<(Seat, Card)>,
        to_act: Seat,
        trump: Option<Suit>,
    ) -> u8 {
        // Tricks for seats 0 and 2 from here.
        let hand = hands[to_act.index()];
        if hand.is_empty() {
            return 0;
        }
        let playable = match trick.first() {
            Some(&(_, lead)) => {
                let follow = hand & CardSet::suit(lead.suit());
                if follow.is_empty() { hand } else { follow }
            }
            None => hand,
        };
        let maximizing = to_act.index().is_multiple_of(2);
        let mut best: Option<u8> = None;
        for card in playable {
            hands[to_act.index()].remove(card);
            trick.push((to_act, card));
            let value = if trick.len() == 4 {
                let done = std::mem::take(trick);
                let winner = winner(&done, trump);
                let v = u8::from(winner.index().is_multiple_of(2))
                    + minimax(hands, trick, winner, trump);
                *trick = done;
                v
            } else {
                minimax(hands, trick, to_act.next(4), trump)
            };
            trick.pop();
            hands[to_act.index()].insert(card);
            best = Some(match best {
                None => value,
                Some(b) if maximizing => b.max(value),
                Some(b) => b.min(value),
            });
        }
        best.unwrap_or(0)
    }

    fn random_position(rng: &mut CardRng, each: usize, in_trick: usize, case: usize) -> Position {
        let mut deck = CardSet::ALL.to_vec();
        rng.shuffle(&mut deck);
        let mut deck = deck.into_iter();
        let leader = Seat::new((case % 4) as u8);
        let mut hands = [CardSet::EMPTY; 4];
        for hand in &mut hands {
            *hand = deck.by_ref().take(each).collect();
        }
        // Play `in_trick` legal cards (the first of each hand's playable cards).
        let mut trick = Vec::new();
        let mut seat = leader;
        for _ in 0..in_trick {
            let hand = hands[seat.index()];
            let playable = match trick.first() {
                Some(&(_, lead)) => {
                    let follow = hand & CardSet::suit(Card::suit(lead));
                    if follow.is_empty() { hand } else { follow }
                }
                None => hand,
            };
            let card = playable.to_vec()[case % playable.len()];
            hands[seat.index()].remove(card);
            trick.push((seat, card));
            seat = seat.next(4);
        }
        let trump = match case % 5 {
            4 => None,
            s => Some(Suit::ALL[s]),
        };
        Position {
            hands,
            trick,
            to_act: seat,
            trump,
        }
    }

    #[test]
    fn agrees_with_plain_minimax_on_random_endings_mid_trick_too() {
        let mut rng = CardRng::new(&Seed::from_bytes([31; 32]), 0);
        let mut solver = Solver::with_capacity(10_000);
        for case in 0..600 {
            let each = 1 + case % 4;
            let in_trick = (case / 4) % 4;
            let position = random_position(&mut rng, each, in_trick, case);
            let mut hands = position.hands;
            let mut trick = position.trick.clone();
            let ns = minimax(&mut hands, &mut trick, position.to_act, position.trump);
            let left = position.hands[position.to_act.index()].len() as u8;
            let expected = if position.to_act.index().is_multiple_of(2) {
                ns
            } else {
                left - ns
            };
            assert_eq!(
                solver.tricks(&position),
                Ok(expected),
                "case {case}: {position:?}"
            );
            // Every card's value, and the best of them is the position's.
            let values = solver.card_tricks(&position).unwrap();
            let best = values.iter().map(|&(_, t)| t).max();
            assert_eq!(best, Some(expected), "case {case}");
            for &(card, tricks) in &values {
                let mut after = position.hands;
                after[position.to_act.index()].remove(card);
                let mut trick = position.trick.clone();
                trick.push((position.to_act, card));
                let (next, won) = if trick.len() == 4 {
                    let w = winner(&trick, position.trump);
                    trick.clear();
                    (w, u8::from(w.index().is_multiple_of(2)))
                } else {
                    (position.to_act.next(4), 0)
                };
                let ns_after = won + minimax(&mut after, &mut trick, next, position.trump);
                let mine = if position.to_act.index().is_multiple_of(2) {
                    ns_after
                } else {
                    left - ns_after
                };
                assert_eq!(tricks, mine, "case {case}: {card}");
            }
        }
    }

    #[test]
    fn partitions_agree_with_exact_positions() {
        let mut rng = CardRng::new(&Seed::from_bytes([7; 32]), 0);
        let mut partitioned = Solver::new();
        let mut exact = Solver::new();
        exact.exact = true;
        for case in 0..3000 {
            let each = 5 + case % 3;
            let position = random_position(&mut rng, each, 0, case);
            let a = partitioned.tricks(&position);
            let b = exact.tricks(&position);
            assert_eq!(a, b, "case {case}: {position:?}");
        }
    }

    #[test]
    fn a_group_of_equivalent_cards_is_kept_whole_in_what_it_proves() {
        // In the first position West's JC and 9C touch, so they are one move; playing either
        // under the ace, North-South cannot take three tricks, and the result rests on the
        // AC and JC being where they are. In the second, North's TC lies between them: West
        // can unblock the jack, and North-South take three. A table entry from the first must
        // not answer for the second.
        let first = Position {
            hands: [
                cards("2C 4C JD 9S"),
                cards("AC 7C 6C 8D"),
                cards("JC 9C KD 7D"),
                cards("QD TD TS 8S"),
            ],
            trick: Vec::new(),
            to_act: Seat::new(1),
            trump: None,
        };
        let second = Position {
            hands: [
                cards("4C TC 3D QS"),
                cards("AC 6C 7C 8D"),
                cards("9C JC 7D KD"),
                cards("TD QD 8S TS"),
            ],
            ..first.clone()
        };
        let mut solver = Solver::new();
        assert_eq!(solver.tricks(&first), Ok(2));
        assert_eq!(solver.tricks(&second), Ok(1));
    }

    #[test]
    fn a_known_deal() {
        // Each side holds two solid suits; whoever leads cashes theirs, and the other side
        // takes the rest.
        let position = Position {
            hands: [
                cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
                cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"),
                cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
                cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
            ],
            trick: Vec::new(),
            to_act: Seat::new(0),
            trump: None,
        };
        let mut solver = Solver::new();
        assert_eq!(solver.tricks(&position), Ok(13));
        let spades = Position {
            trump: Some(Suit::Hearts),
            ..position.clone()
        };
        // Hearts are trumps: seat 1 ruffs the first spade and runs the hearts.
        assert_eq!(solver.tricks(&spades), Ok(0));
    }

    #[test]
    fn inconsistent_positions_are_refused() {
        let mut solver = Solver::new();
        let twice = Position {
            hands: [cards("AS"), cards("AS"), cards("KS"), cards("QS")],
            trick: Vec::new(),
            to_act: Seat::new(0),
            trump: None,
        };
        assert_eq!(solver.tricks(&twice), Err(PositionError::CardTwice));
        let sizes = Position {
            hands: [cards("AS 2S"), cards("3S"), cards("KS"), cards("QS")],
            ..twice.clone()
        };
        assert_eq!(solver.tricks(&sizes), Err(PositionError::HandSizes));
        let order = Position {
            hands: [cards("AS"), cards("3S"), cards("KS"), cards("QS")],
            trick: vec![(Seat::new(2), cards("JS").first().unwrap())],
            to_act: Seat::new(0),
            trump: None,
        };
        assert_eq!(solver.tricks(&order), Err(PositionError::TrickOrder));
        let empty = Position {
            hands: [CardSet::EMPTY; 4],
            ..twice
        };
        assert_eq!(solver.tricks(&empty), Err(PositionError::HandSizes));
    }
}
