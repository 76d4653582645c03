//! What a card does when played, and what it is worth (docs/rules.md#basra-standard "Play" and "Basra", with
//! the changes of #basra-classic44 and #basra-cse231). Pure functions of the configuration, the card and the floor,
//! shared by the engine and the computer players.

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

use super::capture::{self, POINT_CARDS};
use super::config::{BasraConfig, Variant};
use super::moves::BasraRejection;

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
pub fn outcomes(config: &BasraConfig, card: Card, floor: CardSet) -> Outcomes {
    let only = |captured| Outcomes {
        first: captured,
        more: Vec::new(),
    };
    if sweeps(config, card) {
        return only(floor);
    }
    match card.rank() {
        Rank::Queen | Rank::King | Rank::Jack => only(floor & CardSet::rank(card.rank())),
        _ if config.capture_is_chosen() => {
            let mut choices = capture::choices(card, floor, config.groups());
            if choices.is_empty() {
                return only(CardSet::EMPTY);
            }
            let first = choices.remove(0);
            Outcomes {
                first,
                more: choices,
            }
        }
        _ => only(capture::preferred(card, floor, config.groups())),
    }
}

/// The captures a card may make: one, or (a `classic44` choice) several. Allocates only for
/// several, because this is on every move's path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcomes {
    first: CardSet,
    more: Vec<CardSet>,
}

impl Outcomes {
    /// The automatic or preferred capture.
    pub fn first(&self) -> CardSet {
        self.first
    }

    /// Every allowed capture, the preferred first.
    pub fn iter(&self) -> impl Iterator<Item = CardSet> + '_ {
        std::iter::once(self.first).chain(self.more.iter().copied())
    }

    /// Whether `captured` is one of them.
    pub fn contains(&self, captured: CardSet) -> bool {
        self.first == captured || self.more.contains(&captured)
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

/// Why the rules refuse to let `card` take `wanted` from `floor`, given the captures it may make.
pub fn refusal(
    config: &BasraConfig,
    floor: CardSet,
    card: Card,
    wanted: CardSet,
    allowed: &Outcomes,
) -> BasraRejection {
    if let Some(stray) = (wanted - floor).first() {
        return BasraRejection::NotOnFloor(stray);
    }
    let automatic = BasraRejection::Automatic {
        card,
        takes: allowed.first(),
    };
    if !(config.capture_is_chosen() && card.rank().is_numeral()) {
        return automatic;
    }
    let same_rank = floor & CardSet::rank(card.rank());
    let missing = same_rank - wanted;
    if !missing.is_empty() {
        return BasraRejection::MissingSameRank { card, missing };
    }
    let rest = wanted - same_rank;
    if !capture::splits_into_groups(rest, card.rank().number(), config.groups()) {
        return BasraRejection::NotSums { card, cards: rest };
    }
    match capture::extension(card, floor, wanted, config.groups()) {
        Some(group) => BasraRejection::Extendable { card, group },
        None => automatic,
    }
}
