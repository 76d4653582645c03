//! Basra's variants and house rules (docs/rules.md#basra).
//!
//! | option | variants | values | default |
//! |---|---|---|---|
//! | `target` | standard, classic44 | 31–501 | 101 / 151 |
//! | `partnerships` | standard | with four players: two partnerships (true) or each for themselves | true |
//! | `double_basra` | standard | a jack taking a lone jack scores 20 (true) or 0 | true |
//! | `majority_tie` | standard | a tied majority bonus is `carry`-ed to the next deal or `void` | carry |
//! | `move_cap` | standard, classic44 | 100–100000 plays, then the game ends with no winner | 10000 |

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::deck::Deck;
use crate::kind::GameKind;
use crate::level::BotLevel;
use crate::options::{
    KindInfo, LevelInfo, OptionKind, OptionReader, OptionSpec, Options, SetupError, VariantInfo,
};
use crate::seat::Sides;

use super::capture::Groups;

/// A Basra variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = BasraVariant))]
pub enum Variant {
    /// Egyptian rules as played online: 52 cards, to 101.
    Standard,
    /// The original 44-card design: basra worth double the card, to 151.
    Classic44,
    /// The one-deck assignment game: pairs only, a single deal.
    Cse231,
}

impl Variant {
    /// Every variant, the default first.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Classic44, Variant::Cse231];

    /// The variant's name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Classic44 => "classic44",
            Variant::Cse231 => "cse231",
        }
    }
}

/// What a tied majority of cards does with its 30 points.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MajorityTie {
    /// Carried over and added to the next deal's majority bonus.
    Carry,
    /// Nobody scores it.
    Void,
}

/// A validated Basra configuration.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BasraConfig {
    pub variant: Variant,
    pub seats: u8,
    /// Four players in two partnerships (standard with four seats only).
    pub partnerships: bool,
    /// Points that win (0 in `cse231`, which is a single deal).
    pub target: i32,
    pub double_basra: bool,
    pub majority_tie: MajorityTie,
    pub move_cap: u32,
}

const TARGET_BOUNDS: (i64, i64) = (31, 501);
const MOVE_CAP: OptionSpec = OptionSpec {
    name: "move_cap",
    summary: "plays after which the game ends with no winner (a safety limit)",
    kind: OptionKind::Integer {
        min: 100,
        max: 100_000,
        default: 10_000,
    },
};

fn target(default: i64) -> OptionSpec {
    OptionSpec {
        name: "target",
        summary: "points that win, checked at the end of a deal",
        kind: OptionKind::Integer {
            min: TARGET_BOUNDS.0,
            max: TARGET_BOUNDS.1,
            default,
        },
    }
}

impl BasraConfig {
    /// The options a variant accepts, as the catalogue publishes them.
    pub fn option_specs(variant: Variant) -> Vec<OptionSpec> {
        match variant {
            Variant::Standard => vec![
                target(101),
                OptionSpec {
                    name: "partnerships",
                    summary: "with four players, play as two partnerships (seats 0+2 against 1+3); false: each for themselves",
                    kind: OptionKind::Flag { default: true },
                },
                OptionSpec {
                    name: "double_basra",
                    summary: "a jack taking a lone jack is a double basra worth 20; false: worth nothing",
                    kind: OptionKind::Flag { default: true },
                },
                OptionSpec {
                    name: "majority_tie",
                    summary: "when the most cards are tied, the 30 points are carried over to the next deal, or void",
                    kind: OptionKind::Choice {
                        values: &["carry", "void"],
                        default: "carry",
                    },
                },
                MOVE_CAP,
            ],
            Variant::Classic44 => vec![target(151), MOVE_CAP],
            Variant::Cse231 => Vec::new(),
        }
    }

    /// The seat counts a variant allows.
    pub fn seat_counts(variant: Variant) -> Vec<u8> {
        match variant {
            Variant::Standard => vec![2, 3, 4],
            Variant::Classic44 | Variant::Cse231 => vec![2],
        }
    }

    /// The catalogue entry of a variant.
    pub fn variant_info(variant: Variant) -> VariantInfo {
        let (title, summary) = match variant {
            Variant::Standard => (
                "Basra (Egyptian)",
                "52 cards, 2 players or 4 in partnerships (3 or 4 each for themselves as a house rule). \
                 Capture floor cards of the same rank or groups adding up to your card; a jack or the \
                 7♦ sweeps the floor. Clearing the floor is a basra (10). Most cards 30, jacks and aces 1, \
                 2♣ 2, 10♦ 3. First to 101.",
            ),
            Variant::Classic44 => (
                "Basra (classic 44 cards)",
                "44 cards without queens and kings, 2 players, 5 cards a round. Where sums overlap you \
                 choose your capture. A basra is worth twice the card; jacks never make one. Jacks, aces, \
                 2♣ and 10♦ score. First to 151.",
            ),
            Variant::Cse231 => (
                "Basra (one deck)",
                "One deal of 52 cards for 2 players; seat 0 leads. Captures are same-rank cards and pairs. \
                 Basras are worth 10 (numeral), 20 (queen or king) or 30 (jack on jacks); 27 or more cards \
                 score 30. Higher score wins.",
            ),
        };
        VariantInfo {
            name: variant.name(),
            title,
            default: variant == Variant::Standard,
            seats: Self::seat_counts(variant),
            summary,
            options: Self::option_specs(variant),
        }
    }

    /// A configuration from a variant name, a seat count and options.
    pub fn new(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<BasraConfig, SetupError> {
        let variant = match variant {
            None => Variant::Standard,
            Some(name) => Variant::ALL
                .into_iter()
                .find(|v| v.name() == name)
                .ok_or_else(|| SetupError::UnknownVariant {
                    kind: GameKind::Basra,
                    variant: name.chars().take(32).collect(),
                    known: Variant::ALL.map(Variant::name).join(", "),
                })?,
        };
        let allowed = Self::seat_counts(variant);
        let seat_count = u8::try_from(seats)
            .ok()
            .filter(|n| allowed.contains(n))
            .ok_or_else(|| SetupError::Seats {
                kind: GameKind::Basra,
                variant: variant.name(),
                allowed: crate::options::list_with_or(&allowed),
                given: seats,
            })?;
        let specs = Self::option_specs(variant);
        let read = OptionReader::new(GameKind::Basra, variant.name(), options, &specs)?;
        let default_target = match variant {
            Variant::Standard => 101,
            Variant::Classic44 => 151,
            Variant::Cse231 => 0,
        };
        let majority_tie = match read.choice("majority_tie", "carry")? {
            "void" => MajorityTie::Void,
            _ => MajorityTie::Carry,
        };
        // Read (and so checked) at every table, though it matters only with four seats.
        let partnerships = read.flag("partnerships", true)?;
        Ok(BasraConfig {
            variant,
            seats: seat_count,
            partnerships: seat_count == 4 && partnerships,
            target: read.integer("target", default_target)? as i32,
            double_basra: read.flag("double_basra", true)?,
            majority_tie,
            move_cap: read.integer("move_cap", 10_000)? as u32,
        })
    }

    /// The sides: partnerships or one per seat.
    pub fn sides(&self) -> Sides {
        if self.partnerships {
            Sides::partnerships(self.seats)
        } else {
            Sides::individual(self.seats)
        }
    }

    /// The deck.
    pub fn deck(&self) -> Deck {
        match self.variant {
            Variant::Classic44 => Deck::NoCourts44,
            Variant::Standard | Variant::Cse231 => Deck::Standard52,
        }
    }

    /// Cards to each player per round.
    pub fn cards_per_round(&self) -> u8 {
        match self.variant {
            Variant::Classic44 => 5,
            Variant::Standard | Variant::Cse231 => 4,
        }
    }

    /// Rounds in a deal: what is left after the floor, dealt out evenly.
    pub fn rounds(&self) -> u8 {
        let dealt = self.deck().size() - 4;
        (dealt / (usize::from(self.cards_per_round()) * usize::from(self.seats))) as u8
    }

    /// Sum groups: any size of two or more, or pairs only (`cse231`).
    pub fn groups(&self) -> Groups {
        match self.variant {
            Variant::Cse231 => Groups::Pairs,
            Variant::Standard | Variant::Classic44 => Groups::AnySize,
        }
    }

    /// Whether the 7♦ sweeps the floor like a jack (`standard`, `cse231`).
    pub fn seven_of_diamonds_sweeps(&self) -> bool {
        self.variant != Variant::Classic44
    }

    /// Whether a numeral may choose among overlapping captures (`classic44`).
    pub fn capture_is_chosen(&self) -> bool {
        self.variant == Variant::Classic44
    }

    /// Whether a card dealt to the floor goes back into the stock: jacks (not in `cse231`) and,
    /// in `standard`, the 7♦.
    pub fn returns_from_floor(&self, card: Card) -> bool {
        match self.variant {
            Variant::Standard => {
                card.rank() == Rank::Jack || card == Card::new(Rank::Seven, Suit::Diamonds)
            }
            Variant::Classic44 => card.rank() == Rank::Jack,
            Variant::Cse231 => false,
        }
    }
}

/// The catalogue entry: the game, its variants and its computer players' levels.
pub(super) fn catalogue_entry() -> KindInfo {
    KindInfo {
        kind: GameKind::Basra,
        title: "Basra",
        summary: "The Egyptian fishing game: capture floor cards with a card from your hand, \
                  and clear the floor for a basra.",
        variants: Variant::ALL.map(BasraConfig::variant_info).to_vec(),
        levels: vec![
            LevelInfo {
                name: "easy",
                summary: "the original design's heuristic (the same as `greedy`)",
            },
            LevelInfo {
                name: "medium",
                summary: "deals the unseen cards at random 10 times and plays each card \
                          out to the end of the deal with `easy` at every seat",
            },
            LevelInfo {
                name: "hard",
                summary: "the same search with 40 sampled deals per card: perfect-information \
                          Monte Carlo with greedy playouts",
            },
            LevelInfo {
                name: "random",
                summary: "plays a uniformly random legal card",
            },
            LevelInfo {
                name: "greedy",
                summary: "the original design's heuristic: a basra if it can, a jack when the floor \
                          holds points, else the most valuable capture, else the lowest card that \
                          gives no basra",
            },
        ],
        default_level: BotLevel::Greedy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: &str) -> Options {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_variants_deal_their_whole_deck_in_rounds() {
        let cases = [
            ("standard", 2, 6),
            ("standard", 3, 4),
            ("standard", 4, 3),
            ("classic44", 2, 4),
            ("cse231", 2, 6),
        ];
        for (variant, seats, rounds) in cases {
            let config = BasraConfig::new(Some(variant), seats, &Options::new()).unwrap();
            assert_eq!(config.rounds(), rounds, "{variant} with {seats}");
            let dealt =
                usize::from(config.rounds()) * usize::from(config.cards_per_round()) * seats + 4;
            assert_eq!(dealt, config.deck().size(), "{variant} with {seats}");
        }
    }

    #[test]
    fn four_players_are_partners_unless_the_house_says_otherwise() {
        let config = BasraConfig::new(None, 4, &Options::new()).unwrap();
        assert_eq!(config.sides().count(), 2);
        let config = BasraConfig::new(None, 4, &options(r#"{"partnerships": false}"#)).unwrap();
        assert_eq!(config.sides().count(), 4);
        let config = BasraConfig::new(None, 3, &Options::new()).unwrap();
        assert_eq!(config.sides().count(), 3);
    }

    #[test]
    fn each_variant_has_its_target() {
        let target = |v| {
            BasraConfig::new(Some(v), 2, &Options::new())
                .unwrap()
                .target
        };
        assert_eq!(target("standard"), 101);
        assert_eq!(target("classic44"), 151);
        let config = BasraConfig::new(Some("classic44"), 2, &options(r#"{"target": 61}"#)).unwrap();
        assert_eq!(config.target, 61);
    }

    #[test]
    fn bad_variants_seats_and_options_are_refused_with_reasons() {
        let err = BasraConfig::new(Some("turbo"), 2, &Options::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "basra has no variant `turbo`; the variants are standard, classic44, cse231"
        );
        let err = BasraConfig::new(Some("classic44"), 4, &Options::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "basra classic44 is played by 2 players, not 4"
        );
        let err = BasraConfig::new(None, 5, &Options::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "basra standard is played by 2, 3 or 4 players, not 5"
        );
        assert!(BasraConfig::new(None, 300, &Options::new()).is_err());
        let err = BasraConfig::new(Some("cse231"), 2, &options(r#"{"target": 101}"#)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "basra cse231 has no option `target`; its options are none"
        );
        let err = BasraConfig::new(
            Some("classic44"),
            2,
            &options(r#"{"majority_tie": "void"}"#),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("no option `majority_tie`"),
            "{err}"
        );
        assert!(BasraConfig::new(None, 2, &options(r#"{"target": 30}"#)).is_err());
        assert!(BasraConfig::new(None, 2, &options(r#"{"move_cap": 99}"#)).is_err());
        // `partnerships` is checked at every table, though only four seats use it.
        for seats in [2, 3, 4] {
            for bad in [r#"{"partnerships": "yes"}"#, r#"{"partnerships": 5}"#] {
                assert!(
                    BasraConfig::new(None, seats, &options(bad)).is_err(),
                    "{bad} with {seats} seats"
                );
            }
            assert!(BasraConfig::new(None, seats, &options(r#"{"partnerships": false}"#)).is_ok());
        }
    }
}
