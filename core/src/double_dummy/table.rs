//! The transposition table: results stored for patterns of positions (partition search).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::bits::Ranks;

/// A stored result's pattern: every position at a trick's start with this leader and these
/// suit lengths (`shape`) in which the top `counts[s]` cards of each suit `s` are held as in
/// `owners[s]`. The cards below those decided no trick by their rank in the search that proved
/// the result, so their ranks do not matter: one entry stands for many positions (partition
/// search).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Pattern {
    pub(super) shape: u64,
    pub(super) counts: [u8; 4],
    /// The seats holding the top cards, two bits a card from the highest, right-aligned.
    pub(super) owners: [u32; 4],
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
pub(super) struct Bounds {
    pub(super) lower: u8,
    pub(super) upper: u8,
    /// The lead's suit (`NO_MOVE` for none) and how many cards still out in that suit rank
    /// above it.
    pub(super) best_suit: u8,
    pub(super) best_above: u8,
}

/// No move, in [`Bounds::best_suit`].
pub(super) const NO_MOVE: u8 = u8::MAX;

/// For each suit, the ranks that decided a trick by being higher than another card of the suit:
/// only cards at or above the lowest of them need to be where they are for a result to hold.
pub(super) type Wins = [Ranks; 4];

/// Passes on keys that are already hashed.
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct KeyHasher(u64);

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

pub(super) type Build = BuildHasherDefault<KeyHasher>;

/// The transposition table: results by pattern, and for each shape the pattern sizes
/// (`counts`) stored for it, so a lookup probes one pattern a size.
#[derive(Debug, Default)]
pub(super) struct Table {
    pub(super) results: HashMap<Pattern, Bounds, Build>,
    pub(super) sizes: HashMap<u64, Vec<[u8; 4]>, Build>,
}

impl Table {
    pub(super) fn clear(&mut self) {
        self.results.clear();
        self.sizes.clear();
    }
}
