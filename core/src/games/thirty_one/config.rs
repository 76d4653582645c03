//! 31's variants and house rules (docs/rules.md#thirty-one).
//!
//! | option | variants | values | default |
//! |---|---|---|---|
//! | `three_of_a_kind` | both | three of a kind counts 30½ | false |
//! | `move_cap` | both | 100–100000 moves (draws, discards, knocks), then the game ends with no winner | 5000 |

use serde::{Deserialize, Serialize};

use crate::kind::GameKind;
use crate::level::BotLevel;
use crate::options::{
    KindInfo, LevelInfo, OptionKind, OptionReader, OptionSpec, Options, SetupError, VariantInfo,
    list_with_or,
};

/// A 31 variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = ThirtyOneVariant))]
pub enum Variant {
    /// 2–8 players with three lives and the bus.
    Standard,
    /// The original two-player design: tokens and a last-chance token.
    Classic,
}

impl Variant {
    /// Every variant, the default first.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Classic];

    /// The variant's name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Classic => "classic",
        }
    }
}

/// A validated 31 configuration.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ThirtyOneConfig {
    pub variant: Variant,
    pub seats: u8,
    /// Three of a kind counts 30½.
    pub three_of_a_kind: bool,
    /// Lives (or tokens) before the bus (the last-chance token).
    pub lives: i32,
    pub move_cap: u32,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        name: "three_of_a_kind",
        summary: "three cards of one rank count 30½",
        kind: OptionKind::Flag { default: false },
    },
    OptionSpec {
        name: "move_cap",
        summary: "moves after which the game ends with no winner (a safety limit)",
        kind: OptionKind::Integer {
            min: 100,
            max: 100_000,
            default: 5000,
        },
    },
];

impl ThirtyOneConfig {
    /// The seat counts a variant allows.
    pub fn seat_counts(variant: Variant) -> Vec<u8> {
        match variant {
            Variant::Standard => (2..=8).collect(),
            Variant::Classic => vec![2],
        }
    }

    /// The catalogue entry of a variant.
    pub fn variant_info(variant: Variant) -> VariantInfo {
        let (title, summary) = match variant {
            Variant::Standard => (
                "31 (Scat)",
                "2–8 players, 3 cards each. Draw from the stock or the discard pile and discard, \
                 aiming for the highest total in one suit (ace 11, faces 10; 31 is best). Knock \
                 when you think you are not lowest: everyone else has one more turn, then the \
                 lowest hand loses a life (a knocker alone lowest loses two). Holding 31 ends the \
                 hand: everyone else loses a life. Three lives, then the bus; the last player in \
                 wins.",
            ),
            Variant::Classic => (
                "31 (classic)",
                "Two players; seat 1 always deals and seat 0 starts. Three tokens and a \
                 last-chance token. At a showdown the lower hand loses one token and a tie costs \
                 nothing; the knocker never loses more than one.",
            ),
        };
        VariantInfo {
            name: variant.name(),
            title,
            default: variant == Variant::Standard,
            seats: Self::seat_counts(variant),
            summary,
            options: SPECS.to_vec(),
        }
    }

    /// A configuration from a variant name, a seat count and options.
    pub fn new(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<ThirtyOneConfig, SetupError> {
        let variant = match variant {
            None => Variant::Standard,
            Some(name) => Variant::ALL
                .into_iter()
                .find(|v| v.name() == name)
                .ok_or_else(|| SetupError::UnknownVariant {
                    kind: GameKind::ThirtyOne,
                    variant: name.chars().take(32).collect(),
                    known: Variant::ALL.map(Variant::name).join(", "),
                })?,
        };
        let allowed = Self::seat_counts(variant);
        let seat_count = u8::try_from(seats)
            .ok()
            .filter(|n| allowed.contains(n))
            .ok_or_else(|| SetupError::Seats {
                kind: GameKind::ThirtyOne,
                variant: variant.name(),
                allowed: match (allowed.first(), allowed.last()) {
                    (Some(low), Some(high)) if low != high => format!("{low} to {high}"),
                    _ => list_with_or(&allowed),
                },
                given: seats,
            })?;
        let read = OptionReader::new(GameKind::ThirtyOne, variant.name(), options, SPECS)?;
        Ok(ThirtyOneConfig {
            variant,
            seats: seat_count,
            three_of_a_kind: read.flag("three_of_a_kind", false)?,
            lives: 3,
            move_cap: read.integer("move_cap", 5000)? as u32,
        })
    }
}

/// The catalogue entry: the game, its variants and its computer players' levels.
pub(super) fn catalogue_entry() -> KindInfo {
    KindInfo {
        kind: GameKind::ThirtyOne,
        title: "31",
        summary: "Scat: three cards, one suit, as close to 31 as you can; knock when you are \
                  not the lowest.",
        variants: Variant::ALL.map(ThirtyOneConfig::variant_info).to_vec(),
        levels: vec![
            LevelInfo {
                name: "easy",
                summary: "the original design's heuristic (the same as `greedy`)",
            },
            LevelInfo {
                name: "medium",
                summary: "estimates what the others hold from the cards it has seen (the same \
                          as `strong`)",
            },
            LevelInfo {
                name: "hard",
                summary: "`medium`, checked by a search: deals the unseen cards 48 times (the \
                          cards each player took from the discard pile stay in its hand, and \
                          each hand is improved by as many draws as its owner has had turns), \
                          plays every move out to the end of the hand with `easy` at every \
                          seat, and changes `medium`'s move only where another wins clearly",
            },
            LevelInfo {
                name: "random",
                summary: "a uniformly random legal move",
            },
            LevelInfo {
                name: "greedy",
                summary: "the original design: knocks above 26, takes the discard when it \
                          improves the hand, otherwise draws, and discards the card that \
                          costs least",
            },
            LevelInfo {
                name: "strong",
                summary: "estimates what the others hold from the cards it has seen: knocks \
                          when it is unlikely to be lowest, and weighs the discard against \
                          the stock",
            },
        ],
        default_level: BotLevel::Greedy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_seats_two_to_eight_and_classic_two() {
        for n in 2..=8 {
            assert!(ThirtyOneConfig::new(None, n, &Options::new()).is_ok());
        }
        let err = ThirtyOneConfig::new(None, 9, &Options::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "thirty_one standard is played by 2 to 8 players, not 9"
        );
        let err = ThirtyOneConfig::new(Some("classic"), 3, &Options::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "thirty_one classic is played by 2 players, not 3"
        );
    }

    #[test]
    fn three_of_a_kind_is_a_house_rule() {
        let options: Options = serde_json::from_str(r#"{"three_of_a_kind": true}"#).unwrap();
        assert!(
            ThirtyOneConfig::new(None, 3, &options)
                .unwrap()
                .three_of_a_kind
        );
        assert!(
            !ThirtyOneConfig::new(None, 3, &Options::new())
                .unwrap()
                .three_of_a_kind
        );
    }
}
