//! A position's moves, best first: equivalent cards taken as one, ordered so that the move
//! likeliest to prove a result comes first.

use super::bits::{NO_TRUMP, Ranks, same_side, top};
use super::state::{State, hand_len};

/// One move: the cards of a suit in one hand that are equivalent, and the one to play.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    pub(super) suit: usize,
    /// The lowest card of the group (the one played).
    pub(super) low: Ranks,
    /// Every card of the group.
    pub(super) group: Ranks,
    pub(super) weight: i32,
}

/// A node's moves, at most thirteen.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidates {
    pub(super) moves: [Candidate; 13],
    pub(super) len: usize,
}

impl Candidates {
    pub(super) fn push(&mut self, candidate: Candidate) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = candidate;
            self.len += 1;
        }
    }

    pub(super) fn list(&self) -> &[Candidate] {
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

/// The run of `mine`'s highest card: it and the cards of `mine` below it down to the next
/// card of `others`.
fn run_from(mine: Ranks, others: Ranks) -> Ranks {
    let high = top(mine);
    let below = others & (high - 1);
    let floor = if below == 0 { 0 } else { (top(below) << 1) - 1 };
    mine & ((high << 1) - 1) & !floor
}

impl State {
    /// The moves of `seat`, best first.
    pub(super) fn candidates(&self, seat: usize, out: &mut Candidates) {
        let hand = &self.hands[seat];
        let following = self.count > 0 && hand[self.lead_suit] != 0;
        for (suit, &mine) in hand.iter().enumerate() {
            if mine == 0 || (following && suit != self.lead_suit) {
                continue;
            }
            // A run of this hand's cards with no other card still out (or on the table) in
            // between is one move.
            let others = (self.rest[suit] | self.on_table[suit]) & !mine;
            let mut left = mine;
            while left != 0 {
                let group = run_from(left, others);
                left &= !group;
                out.push(self.weighted(seat, suit, group & group.wrapping_neg(), group));
            }
        }
        out.sort();
    }

    /// The move of `seat` that plays the card of `suit` and `rank`, with the cards equivalent
    /// to it, if that card is in its hand and may be played.
    pub(super) fn candidate_of(&self, seat: usize, suit: usize, rank: Ranks) -> Option<Candidate> {
        let hand = &self.hands[seat];
        let following = self.count > 0 && hand[self.lead_suit] != 0;
        if hand[suit] & rank == 0 || (following && suit != self.lead_suit) {
            return None;
        }
        let mine = hand[suit];
        let others = (self.rest[suit] | self.on_table[suit]) & !mine;
        // The run through `rank`: from the card above the nearest other card above it.
        let above = others & !(rank - 1) & !rank;
        let start = if above == 0 {
            top(mine)
        } else {
            top(mine & ((above & above.wrapping_neg()) - 1))
        };
        let group = run_from(mine & ((start << 1) - 1), others);
        Some(Candidate {
            suit,
            low: group & group.wrapping_neg(),
            group,
            weight: 0,
        })
    }

    /// For a lead of a small card in `suit` by `seat`: toward partner's honours and through
    /// the left-hand opponent's, not into the right-hand opponent's (after DDS's weights).
    fn lead_toward(&self, seat: usize, suit: usize) -> i32 {
        let (partner, lho, rho) = ((seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4);
        let len = |hand: usize| hand_len(self, hand, suit);
        let first = self.holder(suit, 1);
        let second = self.holder(suit, 2);
        let third = self.holder(suit, 3);
        let mut bonus = 0;
        if (first == Some(rho) || second == Some(rho)) && len(rho) != 1 {
            bonus -= 10;
        } else if first == Some(lho) && second == Some(partner) && len(partner) != 1 {
            bonus += 31;
        }
        if second == Some(partner) && third == Some(partner) {
            bonus += 35;
        } else if (second == Some(seat) && third == Some(partner)
            || second == Some(partner) && third == Some(seat))
            && len(partner) > 1
        {
            bonus += 25;
        }
        if first.is_some_and(|h| (h == lho || h == rho) && len(h) == 1) {
            bonus += 28;
        }
        bonus
    }

    /// The weight of following suit as second or third hand, by the hands still to play
    /// (after DDS's): low when partner wins the trick anyway (with its card already played,
    /// its top card or its ruff); the cheapest card that beats the winning card and every card
    /// of the opponent still to play; else low. `None` where the opponent still to play could
    /// ruff, the trick is ruffed already, or the seat is not following suit.
    fn following_weight(&self, seat: usize, suit: usize, low: Ranks) -> Option<i32> {
        if self.count == 0 || self.count == 3 || suit != self.lead_suit || self.win_suit != suit {
            return None;
        }
        let ruffs = |hand: usize| {
            self.trump != NO_TRUMP
                && suit != self.trump
                && self.hands[hand][suit] == 0
                && self.hands[hand][self.trump] != 0
        };
        let (next, partner) = ((seat + 1) % 4, (seat + 2) % 4);
        if ruffs(next) {
            return None;
        }
        let theirs = self.hands[next][suit];
        let rank = low.trailing_zeros() as i32;
        let partner_wins = if self.count == 1 {
            let partners = self.hands[partner][suit];
            (partners > self.win_rank && partners > theirs) || ruffs(partner)
        } else {
            self.win_seat == partner && self.win_rank > theirs
        };
        Some(if partner_wins {
            -rank
        } else if low > self.win_rank && low > theirs {
            81 - rank
        } else {
            30 - rank
        })
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
            // The opponents' replies make the search below a lead: a suit they hold few cards
            // of gives the smallest search (an opponent out of the suit may play any card,
            // counted as more than any length), so each card they hold weighs against a suit.
            // Then leads toward partner's top card, own top cards, small cards, and last
            // the suits an opponent can ruff. The weights were tuned by the nodes the solver
            // visits on random and skewed deals.
            let replies = |o: usize| match hand_len(self, o, suit) {
                0 => i32::from(self.left) + 1,
                n => n as i32,
            };
            let ruffed = ruffable(lho) || ruffable(rho);
            let small = -12 * (replies(lho) + replies(rho));
            small
                + if group & highest != 0 {
                    if ruffed {
                        60 - rank
                    } else {
                        60 + i32::from(suit == self.trump) * 5
                    }
                } else if self.hands[partner][suit] & highest != 0 {
                    if ruffed { 30 - rank } else { 110 - rank }
                } else if ruffable(lho) {
                    -rank
                } else {
                    40 - rank + self.lead_toward(seat, suit)
                }
        } else if let Some(weight) = self.following_weight(seat, suit, low) {
            weight
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
}
