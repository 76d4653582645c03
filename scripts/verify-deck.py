#!/usr/bin/env python3
"""Re-derive a Cardroom deck from a revealed seed, independently of the server (shuffle version 1).

Usage:
  scripts/verify-deck.py DEAL_SEED_HEX [--deck 52|44] [--commitment HEX]
  scripts/verify-deck.py --game-seed GAME_SEED_HEX --deal N [--deck 52|44]

Prints the deck top card first, as the hand's deal started from it, and checks the published
commitment sha256(seed) when one is given. The procedure (core/src/rng.rs, "Shuffle version 1"):
ChaCha20 keyed by the deal seed on stream 0, words read little-endian; Lemire's unbiased
bounded integers; Fisher-Yates from the back over the canonical order (clubs, diamonds, hearts,
spades; ace to king). Basra then returns a jack or 7D dealt to the floor into the stock at a
depth drawn from the same stream: the order printed is the shuffled deck before that step.
Only the Python standard library is used.
"""
import argparse
import hashlib
import struct
import sys

MASK = 0xFFFFFFFF


def _rotl(v, c):
    return ((v << c) & MASK) | (v >> (32 - c))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 7)


class ChaCha20:
    """ChaCha20 with a 64-bit block counter and a 64-bit stream id (the original layout)."""

    def __init__(self, key: bytes, stream: int):
        self.key = list(struct.unpack("<8I", key))
        self.stream = [stream & MASK, stream >> 32]
        self.counter = 0
        self.buffer = []

    def _block(self):
        c = self.counter
        state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + self.key + [c & MASK, c >> 32] + self.stream
        s = list(state)
        for _ in range(10):
            _quarter(s, 0, 4, 8, 12); _quarter(s, 1, 5, 9, 13); _quarter(s, 2, 6, 10, 14); _quarter(s, 3, 7, 11, 15)
            _quarter(s, 0, 5, 10, 15); _quarter(s, 1, 6, 11, 12); _quarter(s, 2, 7, 8, 13); _quarter(s, 3, 4, 9, 14)
        self.counter += 1
        return [(x + y) & MASK for x, y in zip(s, state)]

    def next_u32(self):
        if not self.buffer:
            self.buffer = self._block()
        return self.buffer.pop(0)

    def below(self, n):
        """Lemire's multiply-and-reject: an unbiased integer in 0..n."""
        m = self.next_u32() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next_u32() * n
                low = m & MASK
        return m >> 32


def derive_deal_seed(game_seed: bytes, deal: int) -> bytes:
    rng = ChaCha20(game_seed, (1 << 56) | deal)
    return b"".join(struct.pack("<I", rng.next_u32()) for _ in range(8))


def canonical(size):
    ranks = "A23456789TJQK" if size == 52 else "A23456789TJ"
    return [r + s for s in "CDHS" for r in ranks]


def shuffled(deal_seed: bytes, size: int):
    rng = ChaCha20(deal_seed, 0)
    cards = canonical(size)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed", nargs="?", help="the deal seed revealed in the log (64 hex digits)")
    parser.add_argument("--game-seed", help="a game seed (practice games) instead of a deal seed")
    parser.add_argument("--deal", type=int, default=0, help="with --game-seed: the deal index, from 0")
    parser.add_argument("--deck", type=int, choices=(52, 44), default=52)
    parser.add_argument("--commitment", help="the sha256 published when the hand was dealt")
    args = parser.parse_args()
    if args.game_seed:
        seed = derive_deal_seed(bytes.fromhex(args.game_seed), args.deal)
    elif args.seed:
        seed = bytes.fromhex(args.seed)
    else:
        parser.error("give a deal seed or --game-seed")
    if len(seed) != 32:
        parser.error("a seed is 32 bytes (64 hex digits)")
    if args.commitment:
        ok = hashlib.sha256(seed).hexdigest() == args.commitment.lower()
        print("commitment", "matches" if ok else "DOES NOT MATCH", file=sys.stderr)
        if not ok:
            sys.exit(1)
    print(" ".join(shuffled(seed, args.deck)))


if __name__ == "__main__":
    main()
