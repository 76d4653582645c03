//! Sets and runs (docs/rules.md#rummy): what makes a meld, what extends one, and every meld or lay-off a
//! hand can make.
//!
//! A set is 3 or 4 cards of one rank. A run is 3 or more consecutive cards of one suit; the ace
//! is low (`standard`: A-2-3, never Q-K-A) or low or high but never both (`classic`: A-2-3 and
//! Q-K-A, never K-A-2). A run grows at either end, a set to at most four cards; melds are never
//! rearranged.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit, pretty_cards};
use crate::cardset::CardSet;

/// Where the ace may sit in a run.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AceRule {
    /// A-2-3 only.
    Low,
    /// A-2-3 or Q-K-A, never K-A-2.
    LowOrHigh,
}

/// A meld on the table. Runs record whether their ace (if any) is high.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Meld {
    /// The meld's number, from 0 in the order melds were made: lay-offs name it.
    pub id: u16,
    pub kind: MeldKind,
    pub cards: CardSet,
    /// In a run with an ace: whether the ace is above the king.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ace_high: bool,
}

/// A set or a run.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    Set,
    Run,
}

/// Why cards are not a meld, or do not extend one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MeldError {
    TooFew(CardSet),
    Neither(CardSet),
    SetTooBig,
    WrongRank {
        card: Card,
        set: CardSet,
    },
    DoesNotExtend {
        card: Card,
        run: CardSet,
        ace_high: bool,
    },
}

impl fmt::Display for MeldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeldError::TooFew(cards) => write!(
                f,
                "a meld has at least three cards, not {} ({})",
                cards.len(),
                pretty_cards(*cards)
            ),
            MeldError::Neither(cards) => write!(
                f,
                "{} is neither a set (three or four of a rank) nor a run (three or more in \
                 sequence in one suit)",
                pretty_cards(*cards)
            ),
            MeldError::SetTooBig => f.write_str("a set holds at most four cards"),
            MeldError::WrongRank { card, set } => write!(
                f,
                "{} does not go on the set {}: it is not a {}",
                card.pretty(),
                pretty_cards(*set),
                set.first().map(|c| c.rank().label()).unwrap_or("?")
            ),
            MeldError::DoesNotExtend {
                card,
                run,
                ace_high,
            } => write!(
                f,
                "{} does not extend the run {}",
                card.pretty(),
                pretty_run(*run, *ace_high)
            ),
        }
    }
}

/// A run's cards in sequence, e.g. `Q♦ K♦ A♦`.
fn pretty_run(run: CardSet, ace_high: bool) -> String {
    let mut cards = run.to_vec();
    cards.sort_by_key(|c| position(*c, ace_high));
    pretty_cards(cards)
}

/// A card's place in a run: 1 for a low ace, 14 for a high one.
fn position(card: Card, ace_high: bool) -> u8 {
    match card.rank() {
        Rank::Ace if ace_high => 14,
        rank => rank.number(),
    }
}

/// A 15-bit mask of run positions (bit 1 = low ace … bit 14 = high ace).
fn positions(cards: CardSet, ace_high: bool) -> u16 {
    cards
        .iter()
        .fold(0, |mask, c| mask | (1 << position(c, ace_high)))
}

fn contiguous(mask: u16) -> bool {
    mask != 0 && {
        let shifted = mask >> mask.trailing_zeros();
        shifted & (shifted + 1) == 0
    }
}

/// The ace placements a run may use under `ace`.
fn placements(ace: AceRule) -> &'static [bool] {
    match ace {
        AceRule::Low => &[false],
        AceRule::LowOrHigh => &[false, true],
    }
}

/// The meld `cards` make, if any (its id is set by the table).
pub fn as_meld(cards: CardSet, ace: AceRule) -> Result<Meld, MeldError> {
    if cards.len() < 3 {
        return Err(MeldError::TooFew(cards));
    }
    let first = cards.first().ok_or(MeldError::TooFew(cards))?;
    if cards.is_subset(CardSet::rank(first.rank())) {
        return Ok(Meld {
            id: 0,
            kind: MeldKind::Set,
            cards,
            ace_high: false,
        });
    }
    if cards.is_subset(CardSet::suit(first.suit())) {
        for &ace_high in placements(ace) {
            if contiguous(positions(cards, ace_high)) {
                let has_ace = !(cards & CardSet::rank(Rank::Ace)).is_empty();
                return Ok(Meld {
                    id: 0,
                    kind: MeldKind::Run,
                    cards,
                    ace_high: ace_high && has_ace,
                });
            }
        }
    }
    Err(MeldError::Neither(cards))
}

/// The meld grown by `cards` (a lay-off), if they extend it.
pub fn extend(meld: &Meld, cards: CardSet, ace: AceRule) -> Result<Meld, MeldError> {
    let grown = meld.cards | cards;
    match meld.kind {
        MeldKind::Set => {
            let rank = meld.cards.first().map(|c| c.rank());
            if let Some(card) = cards.iter().find(|c| Some(c.rank()) != rank) {
                return Err(MeldError::WrongRank {
                    card,
                    set: meld.cards,
                });
            }
            if grown.len() > 4 {
                return Err(MeldError::SetTooBig);
            }
            Ok(Meld {
                cards: grown,
                ..meld.clone()
            })
        }
        MeldKind::Run => {
            let suit = meld.cards.first().map(|c| c.suit());
            let stray = cards.iter().find(|c| Some(c.suit()) != suit);
            if stray.is_none() {
                let has_ace = !(meld.cards & CardSet::rank(Rank::Ace)).is_empty();
                // A run that already holds an ace keeps it where it is.
                let choices: &[bool] = if has_ace {
                    if meld.ace_high { &[true] } else { &[false] }
                } else {
                    placements(ace)
                };
                for &ace_high in choices {
                    if contiguous(positions(grown, ace_high)) {
                        let grown_has_ace = !(grown & CardSet::rank(Rank::Ace)).is_empty();
                        return Ok(Meld {
                            cards: grown,
                            ace_high: ace_high && grown_has_ace,
                            ..meld.clone()
                        });
                    }
                }
            }
            // Name the first card that does not fit on its own.
            let card = stray
                .or_else(|| {
                    (cards.len() > 1)
                        .then(|| {
                            cards
                                .iter()
                                .find(|&c| extend(meld, CardSet::single(c), ace).is_err())
                        })
                        .flatten()
                })
                .or_else(|| cards.first())
                .unwrap_or(Card::new(Rank::Ace, Suit::Clubs));
            Err(MeldError::DoesNotExtend {
                card,
                run: meld.cards,
                ace_high: meld.ace_high,
            })
        }
    }
}

/// Every meld that can be made from `hand`.
pub fn melds_in(hand: CardSet, ace: AceRule) -> Vec<CardSet> {
    let mut found = Vec::new();
    for rank in Rank::ALL {
        let same = hand & CardSet::rank(rank);
        if same.len() >= 3 {
            let cards = same.to_vec();
            for skip in 0..cards.len() {
                if cards.len() == 4 {
                    found.push(same - CardSet::single(cards[skip]));
                }
            }
            found.push(same);
        }
    }
    for suit in Suit::ALL {
        let in_suit = hand & CardSet::suit(suit);
        if in_suit.len() < 3 {
            continue;
        }
        for &ace_high in placements(ace) {
            // Runs by position: start at `low`, extend while the next position is held.
            let held = positions(in_suit, ace_high);
            for low in 1..=14u8 {
                let mut run = CardSet::EMPTY;
                for p in low..=14 {
                    if held & (1 << p) == 0 {
                        break;
                    }
                    let Some(card) = card_at(suit, p, ace_high) else {
                        break;
                    };
                    run.insert(card);
                    if run.len() >= 3 && !found.contains(&run) {
                        found.push(run);
                    }
                }
            }
        }
    }
    found
}

/// The card at a run position (`None` for an ace at the position it does not take).
fn card_at(suit: Suit, position: u8, ace_high: bool) -> Option<Card> {
    let rank = match position {
        1 if !ace_high => Rank::Ace,
        14 if ace_high => Rank::Ace,
        1 | 14 => return None,
        n => Rank::from_number(n)?,
    };
    Some(Card::new(rank, suit))
}

/// Every set of cards from `hand` that can be laid off on `meld`.
pub fn lay_offs(meld: &Meld, hand: CardSet, ace: AceRule) -> Vec<CardSet> {
    let mut found = Vec::new();
    match meld.kind {
        MeldKind::Set => {
            let Some(rank) = meld.cards.first().map(|c| c.rank()) else {
                return found;
            };
            let fits = (hand & CardSet::rank(rank)).to_vec();
            let room = 4usize.saturating_sub(meld.cards.len());
            for mask in 1u32..(1 << fits.len()) {
                let cards: CardSet = fits
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, c)| *c)
                    .collect();
                if cards.len() <= room {
                    found.push(cards);
                }
            }
        }
        MeldKind::Run => {
            let Some(suit) = meld.cards.first().map(|c| c.suit()) else {
                return found;
            };
            let has_ace = !(meld.cards & CardSet::rank(Rank::Ace)).is_empty();
            let choices: &[bool] = if has_ace {
                if meld.ace_high { &[true] } else { &[false] }
            } else {
                placements(ace)
            };
            for &ace_high in choices {
                let mask = positions(meld.cards, ace_high);
                let low = mask.trailing_zeros() as u8;
                let high = 15 - mask.leading_zeros() as u8;
                let below: Vec<Card> = (1..low)
                    .rev()
                    .map_while(|p| card_at(suit, p, ace_high).filter(|c| hand.contains(*c)))
                    .collect();
                let above: Vec<Card> = (high + 1..=14)
                    .map_while(|p| card_at(suit, p, ace_high).filter(|c| hand.contains(*c)))
                    .collect();
                for take_below in 0..=below.len() {
                    for take_above in 0..=above.len() {
                        if take_below + take_above == 0 {
                            continue;
                        }
                        let cards: CardSet = below[..take_below]
                            .iter()
                            .chain(&above[..take_above])
                            .copied()
                            .collect();
                        if !found.contains(&cards) {
                            found.push(cards);
                        }
                    }
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn set(text: &str) -> CardSet {
        parse_cards(text).unwrap().into_iter().collect()
    }

    fn meld(text: &str, ace: AceRule) -> Meld {
        as_meld(set(text), ace).unwrap()
    }

    #[test]
    fn sets_are_three_or_four_of_a_rank_and_runs_three_in_sequence_of_a_suit() {
        assert_eq!(meld("7C 7D 7H", AceRule::Low).kind, MeldKind::Set);
        assert_eq!(meld("7C 7D 7H 7S", AceRule::Low).kind, MeldKind::Set);
        assert_eq!(meld("5H 6H 7H", AceRule::Low).kind, MeldKind::Run);
        assert_eq!(meld("AH 2H 3H", AceRule::Low).kind, MeldKind::Run);
        assert!(as_meld(set("5H 6H"), AceRule::Low).is_err());
        assert!(as_meld(set("5H 6H 8H"), AceRule::Low).is_err());
        assert!(as_meld(set("5H 6H 7C"), AceRule::Low).is_err());
    }

    #[test]
    fn the_ace_is_low_in_standard_and_low_or_high_in_classic_never_both() {
        assert!(as_meld(set("QH KH AH"), AceRule::Low).is_err());
        let high = meld("QH KH AH", AceRule::LowOrHigh);
        assert!(high.ace_high);
        assert!(!meld("AH 2H 3H", AceRule::LowOrHigh).ace_high);
        assert!(as_meld(set("KH AH 2H"), AceRule::LowOrHigh).is_err());
        assert!(as_meld(set("KH AH 2H"), AceRule::Low).is_err());
    }

    #[test]
    fn the_issues_vectors() {
        let classic = AceRule::LowOrHigh;
        let jqk = meld("JD QD KD", classic);
        assert!(extend(&jqk, set("TD"), classic).is_ok());
        assert!(extend(&jqk, set("AD"), classic).is_ok());
        assert!(extend(&meld("JD QD KD", AceRule::Low), set("AD"), AceRule::Low).is_err());
        assert!(extend(&meld("AD AC AS", classic), set("AH"), classic).is_ok());
        let low = meld("2H 3H 4H 5H", AceRule::Low);
        assert!(extend(&low, set("AH"), AceRule::Low).is_ok());
        assert!(extend(&low, set("6H"), AceRule::Low).is_ok());
        let three = set("3C");
        assert!(extend(&meld("3D 3H 3S", AceRule::Low), three, AceRule::Low).is_ok());
        assert!(extend(&meld("4C 5C 6C", AceRule::Low), three, AceRule::Low).is_ok());
        assert!(extend(&meld("5D 5S 5H", AceRule::Low), three, AceRule::Low).is_err());
        assert!(extend(&meld("4D 5D 6D", AceRule::Low), three, AceRule::Low).is_err());
        // No K-A-2: a high-ace run does not take a two, a low one does not take a king.
        let qka = meld("QS KS AS", classic);
        assert!(extend(&qka, set("2S"), classic).is_err());
        assert!(extend(&meld("AS 2S 3S", classic), set("KS"), classic).is_err());
    }

    #[test]
    fn rejections_say_what_does_not_fit() {
        let run = meld("6C 7C 8C", AceRule::Low);
        let err = extend(&run, set("5D"), AceRule::Low).unwrap_err();
        assert_eq!(err.to_string(), "5♦ does not extend the run 6♣ 7♣ 8♣");
        let full = meld("9C 9D 9H 9S", AceRule::Low);
        let err = extend(&full, set("TC"), AceRule::Low).unwrap_err();
        assert_eq!(
            err.to_string(),
            "10♣ does not go on the set 9♣ 9♦ 9♥ 9♠: it is not a 9"
        );
        let err = extend(&meld("QD QH QS", AceRule::Low), set("QC 2C"), AceRule::Low).unwrap_err();
        assert!(err.to_string().contains("2♣ does not go on the set"));
        assert_eq!(
            extend(
                &meld("QD KD AD", AceRule::LowOrHigh),
                set("2D"),
                AceRule::LowOrHigh
            )
            .unwrap_err()
            .to_string(),
            "2♦ does not extend the run Q♦ K♦ A♦"
        );
    }

    #[test]
    fn a_set_holds_at_most_four() {
        let four = meld("9C 9D 9H 9S", AceRule::Low);
        assert_eq!(
            MeldError::SetTooBig.to_string(),
            "a set holds at most four cards"
        );
        assert!(lay_offs(&four, set("9C 9D"), AceRule::Low).is_empty());
    }

    #[test]
    fn every_meld_in_a_hand_is_found() {
        let melds = melds_in(set("5H 6H 7H 8H 7C 7D KS"), AceRule::Low);
        for expected in ["5H 6H 7H", "6H 7H 8H", "5H 6H 7H 8H", "7C 7D 7H"] {
            assert!(melds.contains(&set(expected)), "{expected}");
        }
        assert_eq!(melds.len(), 4);
        let classic = melds_in(set("QH KH AH 2H 3H"), AceRule::LowOrHigh);
        assert!(classic.contains(&set("QH KH AH")));
        assert!(classic.contains(&set("AH 2H 3H")));
        assert!(
            !classic
                .iter()
                .any(|m| m.contains("KH".parse().unwrap()) && m.contains("2H".parse().unwrap()))
        );
    }

    #[test]
    fn lay_offs_extend_either_end_of_a_run() {
        let run = meld("5H 6H 7H", AceRule::Low);
        let options = lay_offs(&run, set("3H 4H 8H 2C"), AceRule::Low);
        for expected in ["4H", "3H 4H", "8H", "4H 8H", "3H 4H 8H"] {
            assert!(options.contains(&set(expected)), "{expected}");
        }
        assert_eq!(options.len(), 5);
        for option in options {
            assert!(extend(&run, option, AceRule::Low).is_ok());
        }
    }

    proptest::proptest! {
        #[test]
        fn enumeration_and_validation_agree(bits in proptest::collection::vec(0usize..52, 3..12), high in proptest::bool::ANY) {
            let deck = CardSet::ALL.to_vec();
            let hand: CardSet = bits.iter().map(|&i| deck[i]).collect();
            let ace = if high { AceRule::LowOrHigh } else { AceRule::Low };
            let found = melds_in(hand, ace);
            // Every listed meld is valid; every valid subset of size 3-5 is listed.
            for m in &found {
                proptest::prop_assert!(as_meld(*m, ace).is_ok());
            }
            let cards = hand.to_vec();
            for mask in 0u32..(1 << cards.len()) {
                if !(3..=5).contains(&mask.count_ones()) { continue; }
                let subset: CardSet = cards.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| *c).collect();
                if as_meld(subset, ace).is_ok() {
                    proptest::prop_assert!(found.contains(&subset), "{} missing", subset);
                }
            }
        }
    }
}
