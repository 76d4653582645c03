//! The search: zero-window alpha-beta over the tricks, with quick tricks and the
//! transposition table.

use super::bits::{NO_TRUMP, Ranks, top};
use super::moves::{Candidate, Candidates};
use super::state::State;
use super::table::{Bounds, NO_MOVE, Pattern, Table, Wins};

impl State {
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

    /// Whether seats 0 and 2 take at least `target` tricks since the root, and the winning
    /// ranks the answer rests on.
    pub(super) fn search(&mut self, table: &mut Table, target: u8) -> (bool, Wins) {
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
