//! The exact capture search for numerals (docs/rules.md#basra-standard "Numeral", #basra-classic44 choices, #basra-cse231 pairs).
//!
//! A numeral takes every floor card of its rank plus a *family*: disjoint groups of floor
//! numerals, each of two or more cards (exactly two in `cse231`), each adding up to the
//! numeral's value. Faces never take part in sums.
//!
//! - [`preferred`] is the automatic capture: the family with the most cards; among those, the
//!   one with more point cards (jacks, aces, 2♣, 10♦); then the one whose sorted card codes come
//!   first (plain code order, `"2C" < "9S" < "AC" < "TD"`).
//! - [`choices`] lists every *maximal* capture for `classic44`: families that no further group
//!   from the leftover cards can extend. The preferred one comes first.
//!
//! Both enumerate families exactly: each candidate card, lowest first, is either left on the
//! floor or taken in a group whose lowest card it is. Floors are small in play, and the search
//! visits each family once.

use std::cmp::Ordering;

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// How many cards a sum group may hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Groups {
    /// Two or more cards (`standard`, `classic44`).
    AnySize,
    /// Exactly two cards (`cse231`).
    Pairs,
}

/// The cards that score points in `standard` and `classic44`: jacks, aces, 2♣, 10♦.
pub const POINT_CARDS: CardSet = CardSet::from_bits(
    CardSet::rank(Rank::Jack).bits()
        | CardSet::rank(Rank::Ace).bits()
        | CardSet::single(Card::new(Rank::Two, Suit::Clubs)).bits()
        | CardSet::single(Card::new(Rank::Ten, Suit::Diamonds)).bits(),
);

/// Ace to ten: the cards that take part in sums.
pub const NUMERALS: CardSet = CardSet::from_bits(
    CardSet::ALL.bits()
        & !CardSet::rank(Rank::Jack).bits()
        & !CardSet::rank(Rank::Queen).bits()
        & !CardSet::rank(Rank::King).bits(),
);

/// A numeral's value (ace 1, 2–10), or `None` for a face.
pub fn value(card: Card) -> Option<u8> {
    card.rank().is_numeral().then(|| card.rank().number())
}

/// The sum of the values of the numerals in `cards`.
pub fn sum(cards: CardSet) -> u32 {
    (cards & NUMERALS)
        .iter()
        .map(|c| u32::from(c.rank().number()))
        .sum()
}

/// For each rank number, every card of a lower rank.
const BELOW: [CardSet; 14] = {
    let mut table = [CardSet::EMPTY; 14];
    let mut r = 2;
    while r < 14 {
        table[r] = CardSet::from_bits(table[r - 1].bits() | (0x0001_0001_0001_0001u64 << (r - 1)));
        r += 1;
    }
    table
};

/// The floor cards a numeral of `rank` could use in a sum: numerals worth less than it.
fn candidates(rank: Rank, floor: CardSet) -> CardSet {
    floor & BELOW[usize::from(rank.number())]
}

/// Every group (two or more cards, or exactly two) of `pool` adding up to `target`.
pub fn groups(pool: CardSet, target: u8, size: Groups) -> Vec<CardSet> {
    let mut found = Vec::new();
    if pool.len() >= 2 {
        grow_groups(pool, target, CardSet::EMPTY, 0, size, &mut found);
    }
    found
}

/// Extends `group` (worth `total`) with cards of `rest`, each above every card already in it.
fn grow_groups(
    rest: CardSet,
    target: u8,
    group: CardSet,
    total: u8,
    size: Groups,
    found: &mut Vec<CardSet>,
) {
    for card in rest {
        let total = total + card.rank().number();
        if total > target {
            continue;
        }
        let group = group | CardSet::single(card);
        if total == target {
            if group.len() >= 2 {
                found.push(group);
            }
            continue;
        }
        if size == Groups::Pairs && group.len() >= 2 {
            continue;
        }
        grow_groups(rest.above(card), target, group, total, size, found);
    }
}

/// Whether capture `a` is preferred to capture `b`: more cards, then more point cards, then the
/// sorted card codes that come first.
pub fn compare(a: CardSet, b: CardSet) -> Ordering {
    b.len()
        .cmp(&a.len())
        .then_with(|| (b & POINT_CARDS).len().cmp(&(a & POINT_CARDS).len()))
        .then_with(|| {
            let (ka, kb) = (code_order_key(a), code_order_key(b));
            let difference = ka ^ kb;
            if difference == 0 {
                Ordering::Equal
            } else if ka & difference & difference.wrapping_neg() != 0 {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        })
}

/// A mask with one bit per card in the order of card codes as text: rank character
/// (`2`…`9` < `A` < `J` < `K` < `Q` < `T`), then suit (`C` < `D` < `H` < `S`). The lowest
/// differing bit of two equal-sized sets tells which sorted list of codes comes first.
fn code_order_key(cards: CardSet) -> u64 {
    cards
        .iter()
        .map(|card| {
            let rank_position = match card.rank() {
                Rank::Ace => 8,
                Rank::Jack => 9,
                Rank::King => 10,
                Rank::Queen => 11,
                Rank::Ten => 12,
                numeral => numeral.number() - 2,
            };
            1u64 << (rank_position * 4 + card.suit() as u8)
        })
        .fold(0, |key, bit| key | bit)
}

/// The automatic capture of a numeral on `floor`: same rank plus the preferred family.
pub fn preferred(card: Card, floor: CardSet, size: Groups) -> CardSet {
    let same_rank = floor & CardSet::rank(card.rank());
    let pool = candidates(card.rank(), floor);
    let all_groups = groups(pool, card.rank().number(), size);
    if all_groups.is_empty() {
        return same_rank;
    }
    let mut best = CardSet::EMPTY;
    search(pool, CardSet::EMPTY, &all_groups, &mut |family| {
        if compare(family, best) == Ordering::Less {
            best = family;
        }
    });
    same_rank | best
}

/// Every maximal capture of a numeral on `floor` (distinct, the preferred first).
pub fn choices(card: Card, floor: CardSet, size: Groups) -> Vec<CardSet> {
    let same_rank = floor & CardSet::rank(card.rank());
    let pool = candidates(card.rank(), floor);
    let all_groups = groups(pool, card.rank().number(), size);
    if all_groups.is_empty() {
        return vec![same_rank];
    }
    let mut found: Vec<CardSet> = Vec::new();
    search(pool, CardSet::EMPTY, &all_groups, &mut |family| {
        let left = pool - family;
        let extendable = all_groups.iter().any(|g| g.is_subset(left));
        if !extendable && !found.contains(&family) {
            found.push(family);
        }
    });
    found.sort_by(|a, b| compare(*a, *b));
    found.into_iter().map(|family| same_rank | family).collect()
}

/// Calls `leaf` with every family of disjoint groups drawn from `available` (each once).
fn search(
    available: CardSet,
    taken: CardSet,
    all_groups: &[CardSet],
    leaf: &mut impl FnMut(CardSet),
) {
    let Some(lowest) = available.first() else {
        leaf(taken);
        return;
    };
    let rest = available - CardSet::single(lowest);
    for &group in all_groups {
        if group.first() == Some(lowest) && group.is_subset(available) {
            search(available - group, taken | group, all_groups, leaf);
        }
    }
    search(rest, taken, all_groups, leaf);
}

/// Whether `cards` split into disjoint groups that each add up to `target`.
pub fn splits_into_groups(cards: CardSet, target: u8, size: Groups) -> bool {
    let Some(lowest) = cards.first() else {
        return true;
    };
    groups(cards, target, size)
        .into_iter()
        .filter(|g| g.first() == Some(lowest))
        .any(|g| splits_into_groups(cards - g, target, size))
}

/// A group of the floor cards outside `capture` that adds up to the card's value, if any: what
/// shows a `classic44` choice is not maximal.
pub fn extension(card: Card, floor: CardSet, capture: CardSet, size: Groups) -> Option<CardSet> {
    let left = candidates(card.rank(), floor) - capture;
    groups(left, card.rank().number(), size).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn set(text: &str) -> CardSet {
        parse_cards(text).unwrap().into_iter().collect()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn point_cards_and_numerals_are_what_the_rules_say() {
        assert_eq!(POINT_CARDS.len(), 10);
        assert!(POINT_CARDS.contains(card("2C")) && !POINT_CARDS.contains(card("2D")));
        assert!(POINT_CARDS.contains(card("TD")) && !POINT_CARDS.contains(card("TC")));
        assert_eq!(NUMERALS.len(), 40);
    }

    #[test]
    fn code_order_is_the_order_of_the_codes_as_text() {
        let mut codes: Vec<String> = CardSet::ALL.iter().map(|c| c.to_string()).collect();
        codes.sort();
        let by_key: Vec<String> = {
            let mut cards = CardSet::ALL.to_vec();
            cards.sort_by_key(|&c| code_order_key(CardSet::single(c)));
            cards.iter().map(|c| c.to_string()).collect()
        };
        assert_eq!(codes, by_key);
    }

    #[test]
    fn below_holds_the_lower_ranks() {
        assert_eq!(BELOW[1], CardSet::EMPTY);
        assert_eq!(
            BELOW[3],
            CardSet::rank(Rank::Ace) | CardSet::rank(Rank::Two)
        );
        assert_eq!(BELOW[13].len(), 48);
    }

    #[test]
    fn groups_add_up_to_the_value() {
        let found = groups(set("2C 3D 4H 5S AC"), 7, Groups::AnySize);
        assert!(found.contains(&set("2C 5S")));
        assert!(found.contains(&set("3D 4H")));
        assert!(found.contains(&set("AC 2C 4H")));
        assert!(found.iter().all(|g| sum(*g) == 7 && g.len() >= 2));
        let pairs = groups(set("2C 3D 4H 5S AC"), 7, Groups::Pairs);
        assert!(pairs.iter().all(|g| g.len() == 2));
        assert_eq!(pairs.len(), 2);
    }

    /// The rules, executed literally over every subset: the reference the search must match.
    fn brute_force(card: Card, floor: CardSet, size: Groups) -> (CardSet, Vec<CardSet>) {
        let pool = candidates(card.rank(), floor);
        let target = card.rank().number();
        let cards = pool.to_vec();
        let all_groups = groups(pool, target, size);
        let mut families = Vec::new();
        for mask in 0u32..(1 << cards.len()) {
            let family: CardSet = cards
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| *c)
                .collect();
            if splits_into_groups(family, target, size) {
                families.push(family);
            }
        }
        let best = families
            .iter()
            .copied()
            .min_by(|a, b| compare(*a, *b))
            .unwrap_or_default();
        let mut maximal: Vec<CardSet> = families
            .into_iter()
            .filter(|f| !all_groups.iter().any(|g| g.is_subset(pool - *f)))
            .collect();
        maximal.sort_by(|a, b| compare(*a, *b));
        let same = floor & CardSet::rank(card.rank());
        (same | best, maximal.into_iter().map(|f| same | f).collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        #[test]
        fn the_search_finds_exactly_what_the_rules_define(
            card_index in 0usize..52,
            floor_bits in proptest::collection::vec(0usize..52, 0..11),
            pairs in proptest::bool::ANY,
        ) {
            let deck = CardSet::ALL.to_vec();
            let card = deck[card_index];
            proptest::prop_assume!(card.rank().is_numeral());
            let floor: CardSet = floor_bits.iter().map(|&i| deck[i]).collect::<CardSet>() - CardSet::single(card);
            let size = if pairs { Groups::Pairs } else { Groups::AnySize };
            let (best, maximal) = brute_force(card, floor, size);
            proptest::prop_assert_eq!(preferred(card, floor, size), best);
            proptest::prop_assert_eq!(choices(card, floor, size), maximal);
        }
    }
}
