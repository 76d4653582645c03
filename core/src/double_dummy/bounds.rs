//! The bounds the search tries before it searches: tricks a side surely takes from a position,
//! worked out from the cards without playing them.

use super::bits::{NO_TRUMP, Ranks, top};
use super::state::{State, hand_len};
use super::table::Wins;

impl State {
    /// The tricks `leader`'s side can cash at once: the leader's top cards in each suit that
    /// no opponent can ruff (all its cards of a suit when its top cards outlast every other
    /// hand's cards of it); or those, then a small card to partner's top card in a suit, and
    /// partner's winners. A lower bound on the side's tricks from here, with the cards it
    /// counted as winning ranks.
    pub(super) fn quick_tricks(&self, leader: usize) -> (u8, Wins) {
        let partner = (leader + 2) % 4;
        let (lho, rho) = ((leader + 1) % 4, (leader + 3) % 4);
        let trump = self.trump;
        let run = |seat: usize, suit: usize| self.top_run(seat, suit);
        let len = |seat: usize, suit: usize| hand_len(self, seat, suit);
        // A hand's winners in a suit: its top cards; or all its cards, when its top cards
        // outlast every other hand's cards of the suit (the rest win by length). With how
        // many top cards that rests on.
        let winners = |seat: usize, suit: usize| -> (u32, u32) {
            let top_cards = run(seat, suit);
            let others = (1..4).map(|o| len((seat + o) % 4, suit)).max().unwrap_or(0);
            if top_cards >= others {
                (len(seat, suit), top_cards)
            } else {
                (top_cards, top_cards)
            }
        };
        let mut mine = [0u32; 4];
        let mut theirs = [0u32; 4];
        // How many of the suit's top cards each count rests on.
        let mut my_pins = [0u32; 4];
        let mut their_pins = [0u32; 4];
        // The most tricks a side suit gives before an opponent who can ruff is out of it.
        let mut caps = [u32::MAX; 4];
        if trump != NO_TRUMP {
            let trump_run = run(leader, trump);
            (mine[trump], my_pins[trump]) = winners(leader, trump);
            // Cashing the top trumps first draws the opponents' when they have no more.
            for o in [lho, rho] {
                let trumps = len(o, trump);
                if trumps > trump_run {
                    for (suit, cap) in caps.iter_mut().enumerate() {
                        *cap = (*cap).min(len(o, suit));
                    }
                }
            }
        }
        for suit in (0..4).filter(|&s| s != trump) {
            let (cash, pins) = winners(leader, suit);
            mine[suit] = cash.min(caps[suit]);
            my_pins[suit] = pins.min(mine[suit]);
            let (cash, pins) = winners(partner, suit);
            theirs[suit] = cash.min(caps[suit]);
            their_pins[suit] = pins.min(theirs[suit]);
        }
        let alone: u32 = mine.iter().sum();
        // Partner's plan: cash the leader's winners, cross in a suit where the leader has a
        // card and partner's top card wins, then cash partner's. Partner follows the leader's
        // winners, discarding cards it does not count when it has run out.
        let crossing = (0..4).any(|s| s != trump && theirs[s] > 0 && len(leader, s) > 0);
        let mut discards = 0;
        let mut followed = 0;
        for (suit, &cashed) in mine.iter().enumerate() {
            discards += cashed.saturating_sub(len(partner, suit));
            followed += cashed.min(len(partner, suit));
        }
        let counted: u32 = theirs.iter().sum();
        let spare = (self.left as u32).saturating_sub(counted + followed);
        let together = if crossing && discards <= spare {
            alone + counted
        } else {
            0
        };
        let ruffing = self.ruffing_plan(leader);
        let mut wins = [0; 4];
        let mut note = |seat: usize, suit: usize, cash: u32| {
            // Where the hand holds every card of the suit its rank decides nothing.
            if cash > 0 && self.rest[suit] != self.hands[seat][suit] {
                wins[suit] |= self.nth_highest(suit, cash as u8);
            }
        };
        if let Some((tricks, cashed, their_cash, trump_rank)) = ruffing
            && tricks > alone.max(together)
        {
            for suit in 0..4 {
                note(leader, suit, cashed[suit]);
                note(partner, suit, their_cash[suit]);
            }
            wins[trump] |= trump_rank;
            return (tricks.min(u32::from(self.left)) as u8, wins);
        }
        for suit in 0..4 {
            note(leader, suit, my_pins[suit]);
            if together > alone {
                note(partner, suit, their_pins[suit]);
            }
        }
        (alone.max(together).min(u32::from(self.left)) as u8, wins)
    }

    /// In a trump game, the leader's plan that crosses to partner by a ruff: the leader cashes
    /// its top cards of the side suits (no trumps drawn, so no more than an opponent with
    /// trumps follows), then leads a suit partner has none of; partner ruffs with its highest
    /// trump, which neither opponent can beat (each still follows suit, or holds no higher
    /// trump), and cashes its own top cards. The tricks, the cards cashed by each hand by suit,
    /// and the trump rank the ruff's safety rests on.
    fn ruffing_plan(&self, leader: usize) -> Option<(u32, [u32; 4], [u32; 4], Ranks)> {
        let trump = self.trump;
        if trump == NO_TRUMP {
            return None;
        }
        let partner = (leader + 2) % 4;
        let opponents = [(leader + 1) % 4, (leader + 3) % 4];
        let hands = &self.hands;
        let their_trumps = hands[partner][trump];
        if their_trumps == 0 {
            return None;
        }
        let len = |seat: usize, suit: usize| hand_len(self, seat, suit);
        let run = |seat: usize, suit: usize| self.top_run(seat, suit);
        let mut caps = [u32::MAX; 4];
        for o in opponents {
            if hands[o][trump] != 0 {
                for (suit, cap) in caps.iter_mut().enumerate() {
                    *cap = (*cap).min(len(o, suit));
                }
            }
        }
        let mut mine = [0u32; 4];
        for suit in (0..4).filter(|&s| s != trump) {
            mine[suit] = run(leader, suit).min(caps[suit]);
        }
        let highest = top(their_trumps);
        // The ruff is safe from an opponent who must still follow suit, or whose trumps are all
        // lower than partner's highest (then the ruff rests on that trump's rank).
        let ruff = |t: usize| -> Option<Ranks> {
            if t == trump || len(leader, t) <= mine[t] || len(partner, t) != 0 {
                return None;
            }
            let mut rank = 0;
            for o in opponents {
                if len(o, t) > mine[t] || hands[o][trump] == 0 {
                    continue;
                }
                if top(hands[o][trump]) > highest {
                    return None;
                }
                rank = highest;
            }
            Some(rank)
        };
        let (t, rank_used) = (0..4).find_map(|t| Some((t, ruff(t)?)))?;
        // An opponent with trumps who is out of the suit ruffed may discard on the ruff: one
        // card fewer of each suit to follow partner's winners with.
        for o in opponents {
            if hands[o][trump] != 0 && len(o, t) <= mine[t] {
                for (suit, cap) in caps.iter_mut().enumerate() {
                    *cap = (*cap).min(len(o, suit).saturating_sub(1));
                }
            }
        }
        let mut theirs = [0u32; 4];
        for suit in (0..4).filter(|&s| s != trump) {
            theirs[suit] = run(partner, suit).min(caps[suit]);
        }
        // Partner follows the leader's cashing, discarding when out of a suit, but keeps its
        // counted winners and one trump for the ruff.
        let mut discards = 0;
        let mut followed = 0;
        for (suit, &cashed) in mine.iter().enumerate() {
            discards += cashed.saturating_sub(len(partner, suit));
            followed += cashed.min(len(partner, suit));
        }
        let counted: u32 = theirs.iter().sum::<u32>() + 1;
        let spare = u32::from(self.left).saturating_sub(counted + followed);
        if discards > spare {
            return None;
        }
        let tricks = mine.iter().sum::<u32>() + counted;
        Some((tricks, mine, theirs, rank_used))
    }

    /// Tricks the side of `seat` takes whatever anyone plays: in a trump game, the trumps of
    /// one of its hands that are higher than every trump the other side holds (each wins the
    /// trick it is played to, or partner's higher one does). When the other side is on lead
    /// and holds the top card of none of the suits its leader holds (and, in a trump game, its
    /// leader's partner can ruff none of them), the first trick, or one trick for each of those
    /// suits when one hand holds all their top cards and no trumps are in play. Without trumps
    /// in play, also one trick when the other side cannot lead suits it holds the top card of
    /// as often as there are tricks left. With the ranks that rests on.
    pub(super) fn sure_tricks(&self, seat: usize) -> (u8, Wins) {
        let mut wins = [0; 4];
        let leader = self.to_act;
        // The first trick, when the other side leads.
        let mut first = 0;
        if leader % 2 != seat % 2 {
            let theirs = self.hands[leader];
            let partner = self.hands[(leader + 2) % 4];
            let trump = self.trump;
            // Partner can ruff a suit it has none of.
            let ruffs = trump != NO_TRUMP && partner[trump] != 0;
            first = 1;
            for suit in 0..4 {
                if theirs[suit] == 0 {
                    continue;
                }
                let highest = top(self.rest[suit]);
                let ruffed = ruffs && suit != trump && partner[suit] == 0;
                if (theirs[suit] | partner[suit]) & highest != 0 || ruffed {
                    first = 0;
                    wins = [0; 4];
                    break;
                }
                wins[suit] = highest;
            }
            let no_trumps = trump == NO_TRUMP || self.rest[trump] == 0;
            if no_trumps && first == 1 {
                // Every suit the leader can lead is won by the other side's top card: when one
                // hand holds them all, it wins the first trick and cashes the others.
                for hand in [seat, (seat + 2) % 4] {
                    if (0..4).all(|s| self.hands[hand][s] & wins[s] == wins[s]) {
                        first = wins.iter().filter(|&&w| w != 0).count() as u8;
                    }
                }
            } else if no_trumps {
                // Without trumps a side takes every trick only by leading, each time, a suit it
                // holds the top card of, and no more often than the longer of its hands holds
                // cards of it.
                let mut leads = 0;
                let mut tops = [0; 4];
                for suit in 0..4 {
                    if self.rest[suit] == 0 {
                        continue;
                    }
                    let highest = top(self.rest[suit]);
                    if (theirs[suit] | partner[suit]) & highest != 0 {
                        leads += hand_len(self, leader, suit).max(hand_len(
                            self,
                            (leader + 2) % 4,
                            suit,
                        ));
                    } else if self.rest[suit] & !highest != 0 {
                        tops[suit] = highest;
                    }
                }
                if leads < u32::from(self.left) {
                    first = 1;
                    wins = tops;
                }
            }
        }
        if self.trump == NO_TRUMP {
            return (first, wins);
        }
        let first_wins = wins;
        wins = [0; 4];
        let trump = self.trump;
        let opposing = self.hands[(seat + 1) % 4][trump] | self.hands[(seat + 3) % 4][trump];
        let above = if opposing == 0 {
            Ranks::MAX
        } else {
            !((top(opposing) << 1) - 1)
        };
        let mut best = 0;
        for hand in [seat, (seat + 2) % 4] {
            let masters = self.hands[hand][trump] & above;
            if masters.count_ones() > best {
                best = masters.count_ones();
                wins[trump] = masters & masters.wrapping_neg();
            }
        }
        if opposing == 0 {
            // No trump of theirs to rank above: the trumps win by being trumps, not by rank.
            wins[trump] = 0;
        }
        if best == 0 && first > 0 {
            return (first, first_wins);
        }
        (best as u8, wins)
    }

    /// Tricks the side of the second hand to a trick surely takes from here, the trick in
    /// progress first, with the ranks that rests on. The side wins that trick when one of its
    /// hands can ruff the suit led and the leader's partner cannot overruff; or when its
    /// highest card of the suit beats the card led and all of the leader's partner's, who
    /// cannot ruff. Without trumps, the hand that wins it then cashes what [`State::cashes`]
    /// counts. (The same bound for the third hand cost positions: its ranks and values are
    /// weaker than what the two plays left find, and the table keeps them.)
    pub(super) fn second_hand_tricks(&self) -> (u8, Wins) {
        let seat = self.to_act;
        let partner = (seat + 2) % 4;
        let third = (seat + 1) % 4;
        let (suit, trump) = (self.lead_suit, self.trump);
        let hands = &self.hands;
        let mut wins = [0; 4];
        let trumps_apart = trump != NO_TRUMP && suit != trump;
        let ruffs = |hand: usize| trumps_apart && hands[hand][suit] == 0 && hands[hand][trump] != 0;
        if ruffs(seat) || ruffs(partner) {
            // A ruff wins whatever its rank, unless the leader's partner overruffs: only the
            // seat's own ruff, before it, can be high enough.
            if ruffs(third) {
                let mine = if ruffs(seat) { hands[seat][trump] } else { 0 };
                if mine <= hands[third][trump] {
                    return (0, wins);
                }
                wins[trump] = top(mine);
            }
            return (1, wins);
        }
        let ours = hands[seat][suit] | hands[partner][suit];
        if ours <= (self.win_rank | hands[third][suit]) || ruffs(third) {
            return (0, wins);
        }
        wins[suit] = top(ours);
        if trump != NO_TRUMP {
            return (1, wins);
        }
        let winner = if hands[seat][suit] & top(ours) != 0 {
            seat
        } else {
            partner
        };
        let (more, cashed) = self.cashes(winner, suit, top(ours));
        for (w, c) in wins.iter_mut().zip(cashed) {
            *w |= c;
        }
        (1 + more, wins)
    }

    /// Without trumps, what `hand` cashes when it wins the trick in progress (of `suit`, with
    /// `used`, still to be played) and leads the next: the next card of the suit
    /// when it holds that too, the top card of each other suit it holds, and every card of a
    /// suit no other hand holds. With the ranks that rests on.
    fn cashes(&self, hand: usize, suit: usize, used: Ranks) -> (u8, Wins) {
        let mut wins = [0; 4];
        let mut tricks = 0;
        let cards = self.hands[hand][suit] & !used;
        let after = self.rest[suit] & !used;
        if after != 0 && cards & top(after) != 0 {
            tricks += 1;
            wins[suit] = top(after);
        }
        for other in (0..4).filter(|&s| s != suit && self.hands[hand][s] != 0) {
            let mine = self.hands[hand][other];
            if self.rest[other] == mine {
                tricks += mine.count_ones() as u8;
            } else if mine & top(self.rest[other]) != 0 {
                tricks += 1;
                wins[other] = top(self.rest[other]);
            }
        }
        (tricks, wins)
    }
}
