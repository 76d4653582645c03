//! The search: zero-window alpha-beta over the tricks, with the bounds worked out before it
//! (`bounds.rs`) and the transposition table.

use super::bits::{Ranks, top};
use super::moves::{Candidate, Candidates};
use super::state::State;
use super::table::{Bounds, Entry, Pattern, Table, Wins};

/// From how many tricks left the table is looked in before the bounds are worked out.
const EARLY_PROBE: u8 = 5;

impl State {
    /// A bound on the tricks seats 0 and 2 take since the root, searched against `target`: at
    /// least the value returned when that reaches `target`, at most it when it falls short
    /// (fail-soft), with the winning ranks the bound rests on.
    pub(super) fn search(&mut self, table: &mut Table, target: u8) -> (u8, Wins) {
        self.nodes += 1;
        if self.ns >= target {
            return (self.ns, [0; 4]);
        }
        if self.ns + self.left < target {
            return (self.ns + self.left, [0; 4]);
        }
        if self.count == 1 {
            let (sure, wins) = self.second_hand_tricks();
            if self.to_act.is_multiple_of(2) {
                if self.ns + sure >= target {
                    return (self.ns + sure, wins);
                }
            } else if self.ns + self.left - sure < target {
                return (self.ns + self.left - sure, wins);
            }
        }
        if self.count != 0 {
            return self.try_moves(table, target);
        }
        let need = target - self.ns;
        if self.left == 1 {
            let (won, wins) = self.last_trick();
            return (self.ns + won, wins);
        }
        // With many tricks left the table answers more often than the bounds, and the bounds
        // cost more than a look in the table.
        let early = if self.left >= EARLY_PROBE {
            match self.probe(table, need) {
                Ok(found) => return found,
                Err(held) => Some(held),
            }
        } else {
            None
        };
        let leader = self.to_act;
        let (quick, wins) = self.quick_tricks(leader);
        let (sure, sure_wins) = self.sure_tricks(leader);
        let (ours, wins) = if sure > quick {
            (sure, sure_wins)
        } else {
            (quick, wins)
        };
        let (theirs, their_wins) = self.sure_tricks((leader + 1) % 4);
        let (at_least, at_most) = if leader.is_multiple_of(2) {
            ((ours, wins), (self.left - theirs, their_wins))
        } else {
            ((theirs, their_wins), (self.left - ours, wins))
        };
        if at_least.0 >= need {
            return (self.ns + at_least.0, at_least.1);
        }
        if at_most.0 < need {
            return (self.ns + at_most.0, at_most.1);
        }
        let held = match early {
            Some(held) => held,
            None => match self.probe(table, need) {
                Ok(found) => return found,
                Err(held) => held,
            },
        };
        let (value, wins) = self.try_moves(table, target);
        let shape = self.shape();
        let (codes, counts) = self.layout();
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
        let pattern = Pattern::of(&codes, &counts, size);
        let (bounds, new) = table.entry(shape, pattern, self.left, held);
        self.stored += usize::from(new);
        let tricks = value - self.ns;
        if value >= target {
            bounds.lower = bounds.lower.max(tricks);
        } else {
            bounds.upper = bounds.upper.min(tricks);
        }
        (value, wins)
    }

    /// The table's answer for the position at a trick's start (seats 0 and 2 need `need` more
    /// tricks), or whether any entry held for it.
    fn probe(&self, table: &mut Table, need: u8) -> Result<(u8, Wins), bool> {
        let shape = self.shape();
        let (codes, _) = self.layout();
        let answers = |b: &Bounds| b.lower >= need || b.upper < need;
        match table.probe(shape, &codes, answers) {
            Ok(Entry { pattern, bounds }) => {
                let mut wins = [0; 4];
                for (suit, win) in wins.iter_mut().enumerate() {
                    *win = self.nth_highest(suit, pattern.counts[suit]);
                }
                let value = if bounds.lower >= need {
                    bounds.lower
                } else {
                    bounds.upper
                };
                Ok((self.ns + value, wins))
            }
            Err(held) => Err(held),
        }
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

    /// A bound on the tricks of seats 0 and 2 with the seat to act choosing among its moves, as
    /// [`State::search`] gives it, and the winning ranks that rests on.
    fn try_moves(&mut self, table: &mut Table, target: u8) -> (u8, Wins) {
        let seat = self.to_act;
        let maximizing = seat.is_multiple_of(2);
        let key = self.cutoff_key(seat);
        // The move that cut off a similar search is tried before the others are even listed:
        // it usually decides. (The lead stored with a table entry did no better, and was left.)
        let first = table
            .cutoffs
            .get(key)
            .and_then(|(suit, rank)| self.candidate_of(seat, suit, rank));
        let mut candidates = Candidates::default();
        let mut listed = false;
        match first {
            Some(candidate) => candidates.push(candidate),
            None => {
                self.candidates(seat, &mut candidates);
                listed = true;
            }
        }
        let mut all = [0; 4];
        // For each suit, the lowest rank still worth trying: a card below the ranks a tried
        // card's result rested on is equivalent to it.
        let mut relevant: [Ranks; 4] = [0; 4];
        let mut best = if maximizing { 0 } else { u8::MAX };
        let mut i = 0;
        while i < candidates.len {
            let Candidate { suit, low, .. } = candidates.moves[i];
            i += 1;
            if low < relevant[suit] {
                continue;
            }
            let undo = self.play(seat, suit, low);
            let (value, mut wins) = self.search(table, target);
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
            best = if maximizing {
                best.max(value)
            } else {
                best.min(value)
            };
            if (value >= target) == maximizing {
                table.cutoffs.put(key, suit, low);
                return (value, wins);
            }
            let lowest = wins[suit] & wins[suit].wrapping_neg();
            if lowest == 0 {
                relevant[suit] = 1 << 13;
            } else if low < lowest {
                relevant[suit] = relevant[suit].max(lowest);
            }
            for (a, w) in all.iter_mut().zip(wins) {
                *a |= w;
            }
            if !listed {
                // The first move did not decide: the others, best first.
                listed = true;
                let mut rest = Candidates::default();
                self.candidates(seat, &mut rest);
                for other in rest.list() {
                    if other.suit != suit || other.low != low {
                        candidates.push(*other);
                    }
                }
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
        (best, all)
    }
}
