#!/usr/bin/env python3
"""Re-derive a Cardroom deck from a revealed seed, independently of the server (shuffle version 1).

Usage:
  scripts/verify-deck.py DEAL_SEED_HEX [--deck 52|44] [--commitment HEX]
  scripts/verify-deck.py --game-seed GAME_SEED_HEX --deal N [--deck 52|44]
  ... --kind KIND --variant VARIANT --seats N --dealer SEAT [--out SEATS] [--reshuffle CARDS]

Prints the deck top card first, as the hand's deal started from it, and checks the published
commitment sha256(seed) when one is given. The procedure (core/src/rng.rs, "Shuffle version 1"):
ChaCha20 keyed by the deal seed on stream 0, words read little-endian; Lemire's unbiased
bounded integers; Fisher-Yates from the back over the canonical order (clubs, diamonds, hearts,
spades; ace to king). With --kind, it then deals as the game does (docs/fairness.md) and prints
what each seat was dealt (sorted, as the `dealt` events list them) and every card turned up:
Basra's floor (with each jack or 7D sent back into the stock, and where), the face-up card of
31 and Rummy. For 31, --reshuffle takes the discard pile under its top card when the stock ran
out (bottom first) and prints the stock it was shuffled into, next card first. --out lists
the seats of a 31 game that are out (fewer than no lives: a seat on its last life, "on the
bus", still plays) and are dealt nothing. Only the
Python standard library is used.
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


def first_dealer(game_seed: bytes, seats: int) -> int:
    """A drawn first dealer: below(seats) from the game seed's stream 0x02 << 56."""
    return ChaCha20(game_seed, 2 << 56).below(seats)


def derive_deal_seed(game_seed: bytes, deal: int) -> bytes:
    rng = ChaCha20(game_seed, (1 << 56) | deal)
    return b"".join(struct.pack("<I", rng.next_u32()) for _ in range(8))


def canonical(size):
    ranks = "A23456789TJQK" if size == 52 else "A23456789TJ"
    return [r + s for s in "CDHS" for r in ranks]


def fisher_yates(rng, cards):
    """Shuffles `cards` in place from the back: for i from len - 1 down to 1, swap i and
    below(i + 1)."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled_with_rng(deal_seed: bytes, size: int):
    """The shuffled deck (top card first) and the stream, positioned after the shuffle."""
    rng = ChaCha20(deal_seed, 0)
    return fisher_yates(rng, canonical(size)), rng


def shuffled(deal_seed: bytes, size: int):
    return shuffled_with_rng(deal_seed, size)[0]


SUITS = "CDHS"
RANKS = "A23456789TJQK"


def sort_key(card):
    """The order the server lists a seat's cards in: by suit, then ace to king."""
    return SUITS.index(card[1]) * 16 + RANKS.index(card[0])


def in_order(cards):
    return sorted(cards, key=sort_key)


def returns_from_floor(variant, card):
    """Basra: the cards a variant sends back into the stock when they turn up on the floor."""
    if variant == "standard":
        return card[0] == "J" or card == "7D"
    if variant == "classic44":
        return card[0] == "J"
    return False


MAX_FLOOR_RETURNS = 1000


def deal_basra(deck, rng, variant, seats, dealer):
    """Basra: every round, `each` cards to each seat from the dealer's left (cse231: a seat's
    cards together; the others one at a time around the table); after the first round, the
    floor: cards turned up one by one until four lie there, a card the variant sends back
    going into the stock with `1 + below(len(stock))` cards above it (at most 1000 times)."""
    stock = list(reversed(deck))  # the top card last, as the engine pops it
    each = 5 if variant == "classic44" else 4
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    rounds = (len(deck) - 4) // (each * seats)
    out = []
    for round_number in range(1, rounds + 1):
        hands = {seat: [] for seat in order}
        if variant == "cse231":
            for seat in order:
                hands[seat] += [stock.pop() for _ in range(each)]
        else:
            for _ in range(each):
                for seat in order:
                    hands[seat].append(stock.pop())
        for seat in order:
            out.append(f"round {round_number} seat {seat}: {' '.join(in_order(hands[seat]))}")
        if round_number == 1:
            floor, returns = [], 0
            while len(floor) < 4 and stock:
                card = stock.pop()
                if returns_from_floor(variant, card) and stock and returns < MAX_FLOOR_RETURNS:
                    above = 1 + rng.below(len(stock))
                    stock.insert(len(stock) - above, card)
                    returns += 1
                    out.append(f"returned to the stock: {card}, {above} cards above it")
                else:
                    floor.append(card)
            out.append(f"floor: {' '.join(in_order(floor))}")
    return out


def deal_around(deck, seats, first, size, receivers=None):
    """Cards one at a time around the table from `first`, `size` each; the receivers in order."""
    receivers = receivers or [(first + i) % seats for i in range(seats)]
    hands = {seat: [] for seat in receivers}
    position = 0
    for _ in range(size):
        for seat in receivers:
            hands[seat].append(deck[position])
            position += 1
    return hands, position


def deal_thirty_one(deck, seats, dealer, out_seats):
    """31: three cards each, one at a time, from the first seat after the dealer still in the
    game; then one card turned face up to start the discard pile."""
    playing = [s for s in range(seats) if s not in out_seats]
    first = next(((dealer + i) % seats for i in range(1, seats + 1) if (dealer + i) % seats in playing),
                 dealer)
    start = playing.index(first)
    receivers = playing[start:] + playing[:start]
    hands, used = deal_around(deck, seats, first, 3, receivers)
    lines = [f"seat {seat}: {' '.join(in_order(hands[seat]))}" for seat in receivers]
    lines.append(f"face up: {deck[used]}")
    return lines


def deal_rummy(deck, variant, seats, dealer):
    """Rummy: the hand size (classic 7; standard 10 with two players, 7 with three or four, 6
    with more) one at a time from the dealer's left; then one card face up."""
    size = 7 if variant == "classic" else {2: 10, 3: 7, 4: 7}.get(seats, 6)
    hands, used = deal_around(deck, seats, (dealer + 1) % seats, size)
    lines = [f"seat {seat}: {' '.join(in_order(hands[seat]))}" for seat in sorted(hands)]
    lines.append(f"face up: {deck[used]}")
    return lines


def deal_tarneeb(deck, dealer):
    """Tarneeb: thirteen cards each, one at a time, from the dealer's right-hand opponent (the
    next seat); nothing is turned up."""
    hands, _ = deal_around(deck, 4, (dealer + 1) % 4, 13)
    return [f"seat {seat}: {' '.join(in_order(hands[seat]))}" for seat in sorted(hands)]


def reshuffled(deal_seed: bytes, pile):
    """31's one reshuffle a hand: the discard pile under its top card (bottom first) shuffled
    with stream 1 of the deal seed by the same Fisher-Yates; the result's last card is drawn
    first. Returns the stock, next card first."""
    return list(reversed(fisher_yates(ChaCha20(deal_seed, 1), list(pile))))


def what_was_dealt(deal_seed: bytes, kind, variant, seats, dealer, out_seats=()):
    """The lines `--kind` prints: every seat's cards and every card turned up."""
    size = 44 if (kind, variant) == ("basra", "classic44") else 52
    deck, rng = shuffled_with_rng(deal_seed, size)
    if kind == "basra":
        return deal_basra(deck, rng, variant, seats, dealer)
    if kind == "thirty_one":
        return deal_thirty_one(deck, seats, dealer, set(out_seats))
    if kind == "rummy":
        return deal_rummy(deck, variant, seats, dealer)
    if kind == "tarneeb":
        return deal_tarneeb(deck, dealer)
    raise ValueError(f"no such kind: {kind}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed", nargs="?", help="the deal seed revealed in the log (64 hex digits)")
    parser.add_argument("--game-seed", help="a game seed (practice games) instead of a deal seed")
    parser.add_argument("--deal", type=int, default=0, help="with --game-seed: the deal index, from 0")
    parser.add_argument("--deck", type=int, choices=(52, 44), default=52)
    parser.add_argument("--commitment", help="the sha256 published when the hand was dealt")
    parser.add_argument("--kind", choices=("basra", "thirty_one", "rummy", "tarneeb"),
                        help="deal as this game does, and print what each seat got")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--seats", type=int, help="with --kind: how many seats")
    parser.add_argument("--dealer", type=int, help="with --kind: the dealer (the log's hand_started)")
    parser.add_argument("--out", default="", help="31: the seats out of the game, e.g. 0,2")
    parser.add_argument("--reshuffle", help="31: the discard pile under its top card, bottom first")
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
    if args.kind is None:
        print(" ".join(shuffled(seed, args.deck)))
        return
    if args.seats is None or args.dealer is None:
        parser.error("--kind needs --seats and --dealer")
    size = 44 if (args.kind, args.variant) == ("basra", "classic44") else 52
    print("deck:", " ".join(shuffled(seed, size)))
    out_seats = [int(s) for s in args.out.split(",") if s]
    for line in what_was_dealt(seed, args.kind, args.variant, args.seats, args.dealer, out_seats):
        print(line)
    if args.reshuffle:
        print("reshuffled stock:", " ".join(reshuffled(seed, args.reshuffle.split())))


if __name__ == "__main__":
    main()
