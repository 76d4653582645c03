//! Seeds, the named random stream, and our own shuffle — the versioned procedure behind every
//! deal (API.md, "Fairness").
//!
//! # Shuffle version 1
//! Everything here is fixed; changing any step is a new version, because stored games replay
//! from their seeds.
//!
//! 1. A game has one secret 32-byte *game seed*. Each deal `i` (0, 1, 2, … in the order the
//!    game deals them) has its own *deal seed*: the first 32 bytes of the ChaCha20 keystream
//!    with key = game seed and 64-bit stream id `0x01 << 56 | i` (rand_chacha's `ChaCha20Rng`
//!    layout: 64-bit block counter from 0, 64-bit stream id; bytes in stream order). The first
//!    dealer comes from stream `0x02 << 56`, computer players' decisions from `0x03 << 56 | n`
//!    for the `n`-th move of the game. Revealing a deal seed reveals nothing about the others.
//! 2. A deal's random numbers come from ChaCha20 with key = deal seed and stream id 0, read as
//!    little-endian 32-bit words. Extra randomness later in the same hand (31's reshuffle of
//!    the discard pile) uses stream id 1, 2, ….
//! 3. `below(n)` draws an unbiased integer in `0..n` by Lemire's multiply-and-reject method:
//!    `m = word · n` (64-bit); if the low half of `m` is less than `(2³² − n) mod n`, draw again;
//!    the answer is the high half of `m`.
//! 4. The deck is shuffled by Fisher–Yates from the back: for `i` from `len − 1` down to 1,
//!    swap positions `i` and `below(i + 1)`. It starts from the canonical order of
//!    [`crate::Deck`], and the result lists the deck top card first.
//!
//! [`CardRng`] is the only source of randomness in the engine.

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::card::Card;
use crate::deck::Deck;

/// The shuffle procedure's version, recorded with every stored game.
pub const SHUFFLE_VERSION: u32 = 1;

/// A 32-byte seed. `Debug` hides it; it serialises as 64 lower-case hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed([u8; 32]);

/// What a derived seed or stream is for: the top byte of the ChaCha20 stream id.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stream {
    /// The seed of the game's `i`-th deal.
    Deal(u32),
    /// The draw of the first dealer.
    FirstDealer,
    /// A computer player's `n`-th decision in the game.
    Decision(u64),
    /// The analysis of the game's `n`-th move, after the game is over.
    Analysis(u64),
}

impl Stream {
    const INDEX_BITS: u64 = (1 << 56) - 1;

    /// The 64-bit ChaCha20 stream id.
    pub fn id(self) -> u64 {
        match self {
            Stream::Deal(i) => (1 << 56) | u64::from(i),
            Stream::FirstDealer => 2 << 56,
            Stream::Decision(n) => (3 << 56) | (n & Self::INDEX_BITS),
            Stream::Analysis(n) => (4 << 56) | (n & Self::INDEX_BITS),
        }
    }
}

impl Seed {
    /// The seed with these bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    /// The seed's bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// 64 lower-case hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// Parses 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Result<Seed, SeedParseError> {
        let text = text.trim();
        if text.len() != 64 || !text.is_ascii() {
            return Err(SeedParseError);
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            let pair = std::str::from_utf8(pair).map_err(|_| SeedParseError)?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| SeedParseError)?;
        }
        Ok(Seed(bytes))
    }

    /// The seed derived from this one for a purpose (step 1 of the module docs).
    pub fn derive(&self, stream: Stream) -> Seed {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(stream.id());
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        Seed(bytes)
    }

    /// `sha256(seed)`: the commitment published when a deal is made.
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// The commitment as 64 lower-case hex digits.
    pub fn commitment_hex(&self) -> String {
        hex(&self.commitment())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(<secret>)")
    }
}

/// Text that is not 64 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hex digits (32 bytes)")]
pub struct SeedParseError;

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Seed::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

/// The named random stream: ChaCha20 with a seed and a stream id.
#[derive(Clone, Debug)]
pub struct CardRng(ChaCha20Rng);

impl CardRng {
    /// ChaCha20 keyed by `seed` on stream `stream`.
    pub fn new(seed: &Seed, stream: u64) -> CardRng {
        let mut rng = ChaCha20Rng::from_seed(seed.0);
        rng.set_stream(stream);
        CardRng(rng)
    }

    /// The stream for one purpose of a game seed, e.g. a computer player's decision.
    pub fn for_stream(game_seed: &Seed, stream: Stream) -> CardRng {
        CardRng::new(game_seed, stream.id())
    }

    /// The next 32-bit word of the stream.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// An unbiased integer in `0..n` (Lemire's method). `below(0)` is 0.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// An unbiased index into a slice of length `len` (`len` ≥ 1).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(u32::try_from(len).unwrap_or(u32::MAX)) as usize
    }

    /// Fisher–Yates from the back (step 4 of the module docs).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.index(items.len()))
        }
    }
}

/// The deck order of a deal, top card first: the canonical order of `deck` shuffled with the
/// deal seed (steps 2–4 of the module docs). Returns the generator too, positioned after the
/// shuffle, for the rest of the deal's randomness.
pub fn shuffled_deck(deck: Deck, deal_seed: &Seed) -> (Vec<Card>, CardRng) {
    let mut rng = CardRng::new(deal_seed, 0);
    let mut cards = deck.canonical_order();
    rng.shuffle(&mut cards);
    (cards, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_seed() -> Seed {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = i as u8;
        }
        Seed::from_bytes(bytes)
    }

    #[test]
    fn the_stream_is_chacha20_as_published() {
        // The original ChaCha20 test vector: all-zero key and nonce, first keystream block.
        let mut rng = CardRng::new(&Seed::from_bytes([0; 32]), 0);
        let mut block = [0u8; 32];
        for chunk in block.chunks_mut(4) {
            chunk.copy_from_slice(&rng.next_u32().to_le_bytes());
        }
        assert_eq!(
            hex(&block),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        );
    }

    #[test]
    fn a_fixed_seed_gives_a_fixed_deck_order() {
        // Golden: if this changes, stored games no longer replay. Bump SHUFFLE_VERSION instead.
        let deal_seed = counting_seed().derive(Stream::Deal(0));
        let (deck, _) = shuffled_deck(Deck::Standard52, &deal_seed);
        let order = deck
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(order, GOLDEN_ORDER);
    }

    /// Also what `scripts/verify-deck.py --game-seed 000102…1f --deal 0` prints: an independent
    /// implementation of the same procedure.
    const GOLDEN_ORDER: &str = "TC 8C JC 9S 5C 2S KC 3S JH 3C QH 4S TS TH 9C KS 8S AC 7S 4D AD QS KD AS \
                                5D 9H JD 8H 6H 4H 7D TD 8D 6C 9D 2C AH 4C 2D 7H 5S 5H 6D QC 6S QD KH \
                                7C 2H 3D 3H JS";

    #[test]
    fn derived_seeds_differ_per_purpose_and_per_index() {
        let seed = counting_seed();
        let a = seed.derive(Stream::Deal(0));
        let b = seed.derive(Stream::Deal(1));
        let c = seed.derive(Stream::FirstDealer);
        let d = seed.derive(Stream::Decision(0));
        let e = seed.derive(Stream::Analysis(0));
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert_ne!(c, d);
        assert_ne!(d, e);
        assert_ne!(a, e);
        assert_eq!(a, seed.derive(Stream::Deal(0)));
    }

    #[test]
    fn below_is_unbiased_for_a_small_range() {
        // 3 does not divide 2^32, so a naive `word % 3` would be biased (slightly); a chi-square
        // test over 300 000 draws with 2 degrees of freedom stays under 13.8 (p = 0.001).
        let mut rng = CardRng::new(&counting_seed(), 7);
        let mut counts = [0u32; 3];
        for _ in 0..300_000 {
            counts[rng.below(3) as usize] += 1;
        }
        let expected = 100_000.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 13.8, "{counts:?} chi2 = {chi2}");
    }

    #[test]
    fn below_stays_in_range_including_the_extremes() {
        let mut rng = CardRng::new(&counting_seed(), 9);
        for n in [1u32, 2, 3, 52, 1 << 31, u32::MAX] {
            for _ in 0..1000 {
                assert!(rng.below(n) < n);
            }
        }
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn the_shuffle_reaches_every_order_of_four_equally_often() {
        // 24 orders, 240 000 shuffles: chi-square with 23 degrees of freedom under 49.7 (p = 0.001).
        let mut rng = CardRng::new(&counting_seed(), 11);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..240_000 {
            let mut items = [0u8, 1, 2, 3];
            rng.shuffle(&mut items);
            *counts.entry(items).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 24);
        let expected = 10_000.0;
        let chi2: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 49.7, "chi2 = {chi2}");
    }

    #[test]
    fn seeds_print_as_hex_and_never_in_debug_output() {
        let seed = counting_seed();
        assert_eq!(&seed.to_hex()[..8], "00010203");
        assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed));
        assert_eq!(Seed::from_hex(&seed.to_hex().to_uppercase()), Ok(seed));
        assert!(Seed::from_hex("00").is_err());
        assert!(Seed::from_hex(&"zz".repeat(32)).is_err());
        assert!(Seed::from_hex(&"é".repeat(32)).is_err());
        assert_eq!(format!("{seed:?}"), "Seed(<secret>)");
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), seed);
    }

    #[test]
    fn the_commitment_is_sha256_of_the_seed_bytes() {
        // sha256 of 32 zero bytes.
        assert_eq!(
            Seed::from_bytes([0; 32]).commitment_hex(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
