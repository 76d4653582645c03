//! The position during a search, and the moves that change it: playing a card and taking it
//! back, and what a position's pattern is for the table.

use crate::cardset::CardSet;

use super::bits::{NO_TRUMP, Ranks, bits_of, lanes, top};
use super::position::{Position, PositionError};

/// What `play` changed, for `undo`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub(super) lead_suit: usize,
    pub(super) count: usize,
    pub(super) win_seat: usize,
    pub(super) win_suit: usize,
    pub(super) win_rank: Ranks,
    pub(super) on_table: [Ranks; 4],
    pub(super) to_act: usize,
    pub(super) ns: u8,
    pub(super) left: u8,
    /// The owner code of the suit played, before it was played.
    code: u32,
}

/// The position during a search.
#[derive(Clone, Debug)]
pub(super) struct State {
    /// `hands[seat][suit]`.
    pub(super) hands: [[Ranks; 4]; 4],
    /// Every card still in a hand, by suit.
    pub(super) rest: [Ranks; 4],
    pub(super) trump: usize,
    pub(super) lead_suit: usize,
    /// Cards on the table in the trick in progress.
    pub(super) count: usize,
    /// Every hand's length in every suit but one, four bits each (see [`length_unit`]).
    lengths: u64,
    /// For each suit, the seats holding its cards still in hands, from the highest, two bits a
    /// card (see [`State::layout`]), kept up to date by `play` and `undo`.
    codes: [u32; 4],
    pub(super) win_seat: usize,
    pub(super) win_suit: usize,
    pub(super) win_rank: Ranks,
    pub(super) on_table: [Ranks; 4],
    pub(super) to_act: usize,
    /// Tricks won by seats 0 and 2 since the root.
    pub(super) ns: u8,
    /// Tricks not yet complete, the one in progress included.
    pub(super) left: u8,
    pub(super) nodes: u64,
    /// Entries this state added to the table.
    pub(super) stored: usize,
    pub(super) exact: bool,
}

impl State {
    pub(super) fn of(position: &Position) -> Result<State, PositionError> {
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
            lengths: 0,
            codes: [0; 4],
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
            for seat in 0..4 {
                let length = u64::from(state.hands[seat][suit].count_ones());
                state.lengths += length * length_unit(seat, suit);
            }
        }
        state.codes = state.owner_codes();
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
            state.lengths += length_unit(seat.index(), suit);
            state.codes = state.owner_codes();
            state.play(seat.index(), suit, rank);
        }
        Ok(state)
    }

    /// The tricks of `seat`'s side from a root value of seats 0 and 2 (at the root).
    pub(super) fn side_tricks(&self, seat: usize, ns: u8) -> u8 {
        if seat.is_multiple_of(2) {
            ns
        } else {
            self.left.saturating_sub(ns)
        }
    }

    /// Whether a card of `suit` and `rank` beats the trick's winning card so far.
    pub(super) fn beats(&self, suit: usize, rank: Ranks) -> bool {
        if suit == self.win_suit {
            rank > self.win_rank
        } else {
            suit == self.trump
        }
    }

    pub(super) fn play(&mut self, seat: usize, suit: usize, rank: Ranks) -> Undo {
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
            code: self.codes[suit],
        };
        // The card's two bits leave its suit's code: those of the cards below it stay, those
        // above move down.
        let below = 2 * (self.rest[suit] & (rank - 1)).count_ones();
        let code = self.codes[suit];
        let low = code & ((1 << below) - 1);
        self.codes[suit] = ((code >> (below + 2)) << below) | low;
        self.hands[seat][suit] &= !rank;
        self.rest[suit] &= !rank;
        self.lengths -= length_unit(seat, suit);
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

    pub(super) fn undo(&mut self, seat: usize, suit: usize, rank: Ranks, undo: Undo) {
        self.hands[seat][suit] |= rank;
        self.rest[suit] |= rank;
        self.lengths += length_unit(seat, suit);
        self.codes[suit] = undo.code;
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
    /// length in every suit, kept up to date by `play` and `undo`.
    pub(super) fn shape(&self) -> u64 {
        self.lengths | (self.to_act as u64) << 62
    }

    /// What the seat to act sees of the position, hashed, for the cut-off moves: where it
    /// plays in the trick and its hand; when it follows suit, the suit's cards still out and
    /// the card winning so far instead of its other suits; when it leads, partner's hand too
    /// (a good lead is often one toward partner's cards: 4% fewer positions searched).
    pub(super) fn cutoff_key(&self, seat: usize) -> u64 {
        let mix = |h: u64, x: u64| {
            let h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^ (h >> 29)
        };
        let hand = &self.hands[seat];
        let mut h = mix(seat as u64, self.count as u64);
        if self.count > 0 {
            h = mix(h, (self.win_suit as u64) << 16 | u64::from(self.win_rank));
            if hand[self.lead_suit] != 0 {
                let suit = self.lead_suit;
                let out = self.rest[suit] | self.on_table[suit];
                return mix(h, u64::from(out) << 16 | u64::from(hand[suit]));
            }
        }
        let fold = |hand: &[Ranks; 4]| {
            hand.iter()
                .fold(0u64, |a, &ranks| (a << 13) | u64::from(ranks))
        };
        let h = mix(h, fold(hand));
        if self.count == 0 {
            mix(h, fold(&self.hands[(seat + 2) % 4]))
        } else {
            h
        }
    }

    /// For each suit, the seats holding its remaining cards from the highest (two bits a card)
    /// and how many there are.
    pub(super) fn layout(&self) -> ([u32; 4], [u8; 4]) {
        let counts = self.rest.map(|ranks| ranks.count_ones() as u8);
        debug_assert_eq!(self.codes, self.owner_codes());
        (self.codes, counts)
    }

    /// Each suit's owner code (see [`State::layout`]), from the hands.
    fn owner_codes(&self) -> [u32; 4] {
        std::array::from_fn(|suit| {
            // Seat 1 or 3 sets the low bit of the owner, seat 2 or 3 the high one.
            let low = self.hands[1][suit] | self.hands[3][suit];
            let high = self.hands[2][suit] | self.hands[3][suit];
            let mut cards = self.rest[suit];
            let mut code = 0u32;
            while cards != 0 {
                let rank = top(cards);
                cards &= !rank;
                code = (code << 2) | u32::from(low & rank != 0) | u32::from(high & rank != 0) << 1;
            }
            code
        })
    }

    /// The `n`-th highest remaining card of `suit` (from 1), as a mask; empty if there is none.
    pub(super) fn nth_highest(&self, suit: usize, n: u8) -> Ranks {
        let mut cards = self.rest[suit];
        for _ in 1..n {
            cards &= !top(cards);
        }
        if n == 0 || cards == 0 { 0 } else { top(cards) }
    }
}

impl State {
    /// The seat holding the `n`-th highest card of `suit` still in a hand (from 1), if there is
    /// one.
    pub(super) fn holder(&self, suit: usize, n: u32) -> Option<usize> {
        let count = self.rest[suit].count_ones();
        (n >= 1 && n <= count).then(|| ((self.codes[suit] >> (2 * (count - n))) & 3) as usize)
    }

    /// How many of `seat`'s cards of `suit` rank above every other hand's.
    pub(super) fn top_run(&self, seat: usize, suit: usize) -> u32 {
        let mine = self.hands[seat][suit];
        let others = self.rest[suit] & !mine;
        if others == 0 {
            mine.count_ones()
        } else {
            (mine & !((top(others) << 1) - 1)).count_ones()
        }
    }
}

/// How many cards of `suit` `seat` holds.
pub(super) fn hand_len(state: &State, seat: usize, suit: usize) -> u32 {
    state.hands[seat][suit].count_ones()
}

/// One card of a hand's suit in [`State::shape`]: lengths take four bits each (a suit holds
/// at most thirteen cards). Seat 3's last suit is left out, as the others imply it (every
/// hand at a trick's start holds as many cards), which leaves the top bits for the leader.
fn length_unit(seat: usize, suit: usize) -> u64 {
    if seat == 3 && suit == 3 {
        0
    } else {
        1 << (4 * (seat * 4 + suit))
    }
}
