//! Tarneeb's variants and house rules (docs/rules.md#tarneeb).
//!
//! | option | variants | values | default |
//! |---|---|---|---|
//! | `target` | standard | 31, 41, 51 or 61 | 41 |
//! | `move_cap` | both | 100–100000 moves (calls and cards), then the game ends with no winner | 5000 |

use serde::{Deserialize, Serialize};

use crate::kind::GameKind;
use crate::level::BotLevel;
use crate::options::{
    KindInfo, LevelInfo, OptionKind, OptionReader, OptionSpec, Options, SetupError, VariantInfo,
};

/// A Tarneeb variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = TarneebVariant))]
pub enum Variant {
    /// Levantine: bid 7–13 tricks, then name the trump; to 41.
    Standard,
    /// The original design: bridge-style bids with no-trump; to 61.
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

/// A validated Tarneeb configuration (always four seats).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TarneebConfig {
    pub variant: Variant,
    pub target: i32,
    pub move_cap: u32,
}

const MOVE_CAP: OptionSpec = OptionSpec {
    name: "move_cap",
    summary: "moves (calls and cards) after which the game ends with no winner (a safety limit)",
    kind: OptionKind::Integer {
        min: 100,
        max: 100_000,
        default: 5000,
    },
};

impl TarneebConfig {
    /// The options a variant accepts.
    pub fn option_specs(variant: Variant) -> Vec<OptionSpec> {
        match variant {
            Variant::Standard => vec![
                OptionSpec {
                    name: "target",
                    summary: "points that win, checked after each hand",
                    kind: OptionKind::Number {
                        values: &[31, 41, 51, 61],
                        default: 41,
                    },
                },
                MOVE_CAP,
            ],
            Variant::Classic => vec![MOVE_CAP],
        }
    }

    /// The catalogue entry of a variant.
    pub fn variant_info(variant: Variant) -> VariantInfo {
        let (title, summary) = match variant {
            Variant::Standard => (
                "Tarneeb",
                "Four players, partners opposite. Bid the tricks your team will take (7–13, each \
                 bid higher; a pass is final); the highest bidder names the trump and leads. \
                 Follow suit if you can. Made: the tricks taken (16 for all 13, 26 for a bid of \
                 13); failed: minus the bid, and the defenders score their tricks. First team to \
                 41.",
            ),
            Variant::Classic => (
                "Tarneeb (classic)",
                "Four players, partners opposite. Bids name a level (7–13 tricks) and a \
                 denomination, ♣ < ♦ < ♥ < ♠ < no-trump; the dealer bids first and the auction \
                 ends after three passes in a row. Made: the tricks taken; failed: the bidders \
                 lose and the defenders win the contract's tricks. First team to 61.",
            ),
        };
        VariantInfo {
            name: variant.name(),
            title,
            default: variant == Variant::Standard,
            seats: vec![4],
            summary,
            options: Self::option_specs(variant),
        }
    }

    /// A configuration from a variant name, a seat count (4) and options.
    pub fn new(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<TarneebConfig, SetupError> {
        let variant = match variant {
            None => Variant::Standard,
            Some(name) => Variant::ALL
                .into_iter()
                .find(|v| v.name() == name)
                .ok_or_else(|| SetupError::UnknownVariant {
                    kind: GameKind::Tarneeb,
                    variant: name.chars().take(32).collect(),
                    known: Variant::ALL.map(Variant::name).join(", "),
                })?,
        };
        if seats != 4 {
            return Err(SetupError::Seats {
                kind: GameKind::Tarneeb,
                variant: variant.name(),
                allowed: "4".to_owned(),
                given: seats,
            });
        }
        let specs = Self::option_specs(variant);
        let read = OptionReader::new(GameKind::Tarneeb, variant.name(), options, &specs)?;
        let target = match variant {
            Variant::Standard => read.number("target", 41)? as i32,
            Variant::Classic => 61,
        };
        Ok(TarneebConfig {
            variant,
            target,
            move_cap: read.integer("move_cap", 5000)? as u32,
        })
    }
}

/// The catalogue entry: the game, its variants and its computer players' levels.
pub(super) fn catalogue_entry() -> KindInfo {
    KindInfo {
        kind: GameKind::Tarneeb,
        title: "Tarneeb",
        summary: "The Levantine trick-taking game: bid, name the trump, and take tricks with \
                  your partner opposite.",
        variants: Variant::ALL.map(TarneebConfig::variant_info).to_vec(),
        levels: vec![
            LevelInfo {
                name: "easy",
                summary: "the original design's heuristic (the same as `greedy`)",
            },
            LevelInfo {
                name: "medium",
                summary: "deals the unseen cards 20 times consistently with the play (who \
                          showed out of which suit) and plays each card out with `greedy` (the \
                          same as `strong`)",
            },
            LevelInfo {
                name: "hard",
                summary: "24 samples dealt to fit the auction as well as the play, each \
                          solved exactly with every hand open (double dummy) from eight cards \
                          a hand; cards, trumps and bids chosen by the contract's expected \
                          score",
            },
            LevelInfo {
                name: "random",
                summary: "a uniformly random legal move",
            },
            LevelInfo {
                name: "greedy",
                summary: "bids from a count of honours and suit lengths, plays the lowest \
                          card that wins the trick or else the lowest card, and never \
                          overtakes its partner's winning card",
            },
            LevelInfo {
                name: "strong",
                summary: "samples the unseen cards consistently with what has been played \
                          (who showed out of which suit) and plays each sample out to \
                          choose its card and trump",
            },
        ],
        default_level: BotLevel::Greedy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_seats_and_each_variants_target() {
        let standard = TarneebConfig::new(None, 4, &Options::new()).unwrap();
        assert_eq!(standard.target, 41);
        let classic = TarneebConfig::new(Some("classic"), 4, &Options::new()).unwrap();
        assert_eq!(classic.target, 61);
        let options: Options = serde_json::from_str(r#"{"target": 61}"#).unwrap();
        assert_eq!(TarneebConfig::new(None, 4, &options).unwrap().target, 61);
        let options: Options = serde_json::from_str(r#"{"target": 45}"#).unwrap();
        let err = TarneebConfig::new(None, 4, &options).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option `target` takes one of 31, 41, 51, 61, not 45"
        );
        assert!(TarneebConfig::new(None, 3, &Options::new()).is_err());
    }
}
