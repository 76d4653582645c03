//! The transposition table: results stored for patterns of positions (partition search).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::bits::Ranks;

/// A stored result's pattern, within its bucket (the positions at a trick's start with one
/// leader and one set of suit lengths): every position in which the top `counts[s]` cards of
/// each suit `s` are held by the same seats as in the position that proved the result. The
/// cards below those decided no trick by their rank in that search, so their ranks do not
/// matter: one entry stands for many positions (partition search).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Pattern {
    pub(super) counts: [u8; 4],
    /// The owner bits of the top cards (two bits a card, from the highest, each suit in 32
    /// bits as in [`pack`]) and the mask that keeps just those bits of a position's.
    mask: u128,
    value: u128,
}

/// A position's owner codes, each suit's in 32 bits of one number, so that one mask and one
/// comparison test a pattern.
pub(super) fn pack(codes: &[u32; 4]) -> u128 {
    codes.iter().enumerate().fold(0, |packed, (suit, &code)| {
        packed | u128::from(code) << (32 * suit)
    })
}

impl Pattern {
    /// The pattern of a position, given as the seats holding each suit's cards from the highest
    /// (`codes`, two bits a card) and how many there are (`all`), cut to the top `counts`.
    pub(super) fn of(codes: &[u32; 4], all: &[u8; 4], counts: [u8; 4]) -> Pattern {
        let mut mask = 0u128;
        for suit in 0..4 {
            let width = 2 * u32::from(all[suit]);
            let below = 2 * u32::from(all[suit].saturating_sub(counts[suit]));
            let top_bits = (1u64 << width) - (1u64 << below);
            mask |= u128::from(top_bits) << (32 * suit);
        }
        Pattern {
            counts,
            mask,
            value: pack(codes) & mask,
        }
    }
}

/// A bucket's entry: a pattern and what was proved for it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) pattern: Pattern,
    pub(super) bounds: Bounds,
}

/// What a lookup compares of a pattern: its mask and value, apart from the rest of the entry so
/// that a sweep of the bucket reads only these.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    mask: u128,
    value: u128,
}

/// One bucket's entries, the most useful first: the keys in one array, the pattern's counts and
/// the bounds at the same index in another.
#[derive(Debug, Default)]
struct Bucket {
    keys: Vec<Key>,
    rest: Vec<([u8; 4], Bounds)>,
}

impl Bucket {
    fn entry(&self, i: usize) -> Entry {
        let Key { mask, value } = self.keys[i];
        let (counts, bounds) = self.rest[i];
        Entry {
            pattern: Pattern {
                counts,
                mask,
                value,
            },
            bounds,
        }
    }

    fn set(&mut self, i: usize, pattern: Pattern, bounds: Bounds) {
        self.keys[i] = Key {
            mask: pattern.mask,
            value: pattern.value,
        };
        self.rest[i] = (pattern.counts, bounds);
    }

    fn push(&mut self, pattern: Pattern, bounds: Bounds) {
        self.keys.push(Key {
            mask: pattern.mask,
            value: pattern.value,
        });
        self.rest.push((pattern.counts, bounds));
    }
}

/// Entries kept in one bucket: beyond this the last (the least useful, as entries that answer
/// move to the front) gives way.
const BUCKET: usize = 2048;

/// Bounds on the tricks seats 0 and 2 take from a trick's start to the end.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    pub(super) lower: u8,
    pub(super) upper: u8,
}

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

/// The transposition table: for each bucket (a shape, as [`State::shape`] gives it: the
/// leader and every hand's suit lengths), its entries, the most useful first; and the cut-off
/// moves. A bucket's entries lie together in memory, so a lookup reads them in one sweep.
///
/// [`State::shape`]: super::state::State::shape
#[derive(Debug, Default)]
pub(super) struct Table {
    buckets: HashMap<u64, Bucket, Build>,
    pub(super) cutoffs: Cutoffs,
}

impl Table {
    pub(super) fn clear(&mut self) {
        self.buckets.clear();
        self.cutoffs.clear();
    }

    /// The first entry of the bucket `shape` that holds for the position (its owner `codes`)
    /// and whose bounds `answers`; or, when none answers, whether any entry held for it.
    pub(super) fn probe(
        &mut self,
        shape: u64,
        codes: &[u32; 4],
        answers: impl Fn(&Bounds) -> bool,
    ) -> Result<Entry, bool> {
        let Some(bucket) = self.buckets.get_mut(&shape) else {
            return Err(false);
        };
        let mut matched = false;
        let packed = pack(codes);
        for i in 0..bucket.keys.len() {
            let key = bucket.keys[i];
            if packed & key.mask != key.value {
                continue;
            }
            let bounds = bucket.rest[i].1;
            if answers(&bounds) {
                let entry = bucket.entry(i);
                // Entries that answer move forward: the next lookup meets them sooner.
                if i > 0 {
                    bucket.keys.swap(i, i / 2);
                    bucket.rest.swap(i, i / 2);
                }
                return Ok(entry);
            }
            matched = true;
        }
        Err(matched)
    }

    /// The bounds stored for `pattern` in the bucket `shape`, made if there were none (and
    /// then whether they are new). `held` is false when a probe of this position just found no
    /// entry that holds for it: then no entry has this pattern, and the bucket is not searched.
    pub(super) fn entry(
        &mut self,
        shape: u64,
        pattern: Pattern,
        left: u8,
        held: bool,
    ) -> (&mut Bounds, bool) {
        let bucket = self.buckets.entry(shape).or_default();
        let key = Key {
            mask: pattern.mask,
            value: pattern.value,
        };
        let found = held
            .then(|| {
                bucket
                    .keys
                    .iter()
                    .zip(&bucket.rest)
                    .position(|(k, (counts, _))| *k == key && *counts == pattern.counts)
            })
            .flatten();
        let fresh = Bounds {
            lower: 0,
            upper: left,
        };
        let (i, new) = match found {
            Some(i) => (i, false),
            None if bucket.keys.len() < BUCKET => {
                bucket.push(pattern, fresh);
                (bucket.keys.len() - 1, true)
            }
            None => {
                let i = bucket.keys.len() - 1;
                bucket.set(i, pattern, fresh);
                (i, false)
            }
        };
        (&mut bucket.rest[i].1, new)
    }
}

/// The slots of [`Cutoffs`] (a power of two).
const CUTOFF_SLOTS: usize = 1 << 16;

/// The move that last cut a search off, by a hash of what the seat to act sees of the
/// position (its hand, or the suit led and the card winning the trick): tried first the next
/// time a similar position comes up, at any point of a trick. Only an ordering hint, so a
/// collision costs time, never a wrong answer.
#[derive(Debug, Default)]
pub(super) struct Cutoffs {
    /// A check of the hash, and the move's suit and rank bit (`u8::MAX` for none).
    slots: Vec<(u32, [u8; 2])>,
}

impl Cutoffs {
    fn clear(&mut self) {
        self.slots.clear();
    }

    /// The move stored for `key`, as a suit and a rank.
    pub(super) fn get(&self, key: u64) -> Option<(usize, Ranks)> {
        let (check, [suit, bit]) = *self.slots.get(key as usize & (CUTOFF_SLOTS - 1))?;
        (check == (key >> 32) as u32 && suit != u8::MAX).then(|| (usize::from(suit), 1 << bit))
    }

    pub(super) fn put(&mut self, key: u64, suit: usize, rank: Ranks) {
        if self.slots.is_empty() {
            self.slots = vec![(0, [u8::MAX; 2]); CUTOFF_SLOTS];
        }
        if let Some(slot) = self.slots.get_mut(key as usize & (CUTOFF_SLOTS - 1)) {
            *slot = (
                (key >> 32) as u32,
                [suit as u8, rank.trailing_zeros() as u8],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory figure in `Solver::new`'s documentation rests on this.
    #[test]
    fn an_entry_takes_38_bytes() {
        let key = std::mem::size_of::<Key>();
        let rest = std::mem::size_of::<([u8; 4], Bounds)>();
        assert_eq!(key + rest, 38);
    }
}
