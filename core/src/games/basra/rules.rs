//! What a card does when played, and what it is worth (RULES.md §1.1 "Play" and "Basra", with
//! the changes of §1.2 and §1.3). Pure functions of the configuration, the card and the floor,
//! shared by the engine and the computer players.

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

use super::capture::{self, POINT_CARDS};
use super::config::{BasraConfig, Variant};

const SEVEN_OF_DIAMONDS: Card = Card::new(Rank::Seven, Suit::Diamonds);
const TWO_OF_CLUBS: Card = Card::new(Rank::Two, Suit::Clubs);
const TEN_OF_DIAMONDS: Card = Card::new(Rank::Ten, Suit::Diamonds);

/// Whether `card` sweeps the whole floor: a jack, or the 7♦ where it has that power.
pub fn sweeps(config: &BasraConfig, card: Card) -> bool {
    card.rank() == Rank::Jack || (card == SEVEN_OF_DIAMONDS && config.seven_of_diamonds_sweeps())
}

/// The floor cards `card` may capture, one set per allowed outcome, the automatic or preferred
/// outcome first. An empty set means the card stays on the floor. Only a `classic44` numeral
/// whose sums overlap has more than one outcome.
pub fn outcomes(config: &BasraConfig, card: Card, floor: CardSet) -> Vec<CardSet> {
    if sweeps(config, card) {
        return vec![floor];
    }
    match card.rank() {
        Rank::Queen | Rank::King | Rank::Jack => vec![floor & CardSet::rank(card.rank())],
        _ if config.capture_is_chosen() => capture::choices(card, floor, config.groups()),
        _ => vec![capture::preferred(card, floor, config.groups())],
    }
}

/// The basra points of playing `card` onto `floor` and taking `captured`; 0 when it is no basra.
pub fn basra_points(config: &BasraConfig, card: Card, floor: CardSet, captured: CardSet) -> i32 {
    if captured.is_empty() || captured != floor {
        return 0;
    }
    let value = i32::from(card.rank().number());
    match (config.variant, card.rank()) {
        (Variant::Classic44, Rank::Jack) => 0,
        (Variant::Classic44, _) => 2 * value,
        (Variant::Standard, Rank::Jack) => {
            let lone_jack = floor.len() == 1 && floor.is_subset(CardSet::rank(Rank::Jack));
            if lone_jack && config.double_basra {
                20
            } else {
                0
            }
        }
        (Variant::Cse231, Rank::Jack) => {
            if floor.is_subset(CardSet::rank(Rank::Jack)) {
                30
            } else {
                0
            }
        }
        (_, _) if card == SEVEN_OF_DIAMONDS => {
            let all_numerals = floor.is_subset(capture::NUMERALS);
            if all_numerals && capture::sum(floor) <= 10 {
                10
            } else {
                0
            }
        }
        (Variant::Cse231, Rank::Queen | Rank::King) => 20,
        (Variant::Standard | Variant::Cse231, _) => 10,
    }
}

/// The named card points in a pile (`standard`, `classic44`): jacks and aces 1, 2♣ 2, 10♦ 3.
pub fn card_points(pile: CardSet) -> i32 {
    (pile & POINT_CARDS)
        .iter()
        .map(|card| match card {
            TWO_OF_CLUBS => 2,
            TEN_OF_DIAMONDS => 3,
            _ => 1,
        })
        .sum()
}
