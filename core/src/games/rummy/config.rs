//! Rummy's variants and house rules (docs/rules.md#rummy).
//!
//! | option | variants | values | default |
//! |---|---|---|---|
//! | `rounds` | classic | 1–21 rounds | 7 |
//! | `move_cap` | both | 100–100000 moves, then the game ends with no winner | 5000 |
//!
//! `classic` seats 2 or 3 players, or 4 as the house rule docs/rules.md#rummy-classic allows.

use serde::{Deserialize, Serialize};

use crate::kind::GameKind;
use crate::level::BotLevel;
use crate::options::{
    KindInfo, LevelInfo, OptionKind, OptionReader, OptionSpec, Options, SetupError, VariantInfo,
    list_with_or,
};

use super::meld::AceRule;

/// A Rummy variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = RummyVariant))]
pub enum Variant {
    /// Basic Rummy: draw, meld, discard, to 100.
    Standard,
    /// The original seven-card exchange game: seven rounds, lowest total wins.
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

/// A validated Rummy configuration.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RummyConfig {
    pub variant: Variant,
    pub seats: u8,
    /// Rounds in a `classic` game.
    pub rounds: u8,
    /// Points that win a `standard` game.
    pub target: i32,
    pub move_cap: u32,
}

const MOVE_CAP: OptionSpec = OptionSpec {
    name: "move_cap",
    summary: "moves after which the game ends with no winner (a safety limit)",
    kind: OptionKind::Integer {
        min: 100,
        max: 100_000,
        default: 5000,
    },
};

impl RummyConfig {
    /// The options a variant accepts.
    pub fn option_specs(variant: Variant) -> Vec<OptionSpec> {
        match variant {
            Variant::Standard => vec![MOVE_CAP],
            Variant::Classic => vec![
                OptionSpec {
                    name: "rounds",
                    summary: "rounds in the game; the lowest total after the last one wins",
                    kind: OptionKind::Integer {
                        min: 1,
                        max: 21,
                        default: 7,
                    },
                },
                MOVE_CAP,
            ],
        }
    }

    /// The seat counts a variant allows.
    pub fn seat_counts(variant: Variant) -> Vec<u8> {
        match variant {
            Variant::Standard => (2..=6).collect(),
            Variant::Classic => vec![2, 3, 4],
        }
    }

    /// The catalogue entry of a variant.
    pub fn variant_info(variant: Variant) -> VariantInfo {
        let (title, summary) = match variant {
            Variant::Standard => (
                "Rummy",
                "2–6 players; 10 cards each with two, 7 with three or four, 6 with five or six. \
                 Draw from the stock or the discard pile, meld sets (3–4 of a rank) and runs (3+ \
                 in sequence in a suit, ace low) or lay off onto any meld, then discard. Going out \
                 scores the cards left in the other hands (faces 10), doubled for going out in \
                 one turn (rummy). First to 100.",
            ),
            Variant::Classic => (
                "Rummy (classic seven-card exchange)",
                "2 or 3 players (4 as a house rule), 7 cards, 7 rounds. Each turn: meld and lay \
                 off; then exchange a card with the face-up pile, or turn over the face-down card \
                 and keep it or pass it on; then meld again. The ace is low or high in runs. \
                 Cards left in hand count against you (J 11, Q 12, K 13); lowest total wins.",
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
    ) -> Result<RummyConfig, SetupError> {
        let variant = match variant {
            None => Variant::Standard,
            Some(name) => Variant::ALL
                .into_iter()
                .find(|v| v.name() == name)
                .ok_or_else(|| SetupError::UnknownVariant {
                    kind: GameKind::Rummy,
                    variant: name.chars().take(32).collect(),
                    known: Variant::ALL.map(Variant::name).join(", "),
                })?,
        };
        let allowed = Self::seat_counts(variant);
        let seat_count = u8::try_from(seats)
            .ok()
            .filter(|n| allowed.contains(n))
            .ok_or_else(|| SetupError::Seats {
                kind: GameKind::Rummy,
                variant: variant.name(),
                allowed: list_with_or(&allowed),
                given: seats,
            })?;
        let specs = Self::option_specs(variant);
        let read = OptionReader::new(GameKind::Rummy, variant.name(), options, &specs)?;
        Ok(RummyConfig {
            variant,
            seats: seat_count,
            rounds: read.integer("rounds", 0)? as u8,
            target: 100,
            move_cap: read.integer("move_cap", 5000)? as u32,
        })
    }

    /// Cards dealt to each player.
    pub fn hand_size(&self) -> u8 {
        match (self.variant, self.seats) {
            (Variant::Classic, _) => 7,
            (Variant::Standard, 2) => 10,
            (Variant::Standard, 3 | 4) => 7,
            (Variant::Standard, _) => 6,
        }
    }

    /// Where the ace sits in runs.
    pub fn ace(&self) -> AceRule {
        match self.variant {
            Variant::Standard => AceRule::Low,
            Variant::Classic => AceRule::LowOrHigh,
        }
    }
}

/// The numbered levels, as the catalogue lists them.
pub const LEVELS: [(&str, &str); 10] = [
    (
        "1",
        "the weakest: blunders often, plans melds greedily, remembers little",
    ),
    ("2", "blunders often, plans melds greedily"),
    ("3", "blunders now and then, plans melds greedily"),
    ("4", "plans melds exactly, blunders now and then"),
    (
        "5",
        "plans melds exactly, remembers the recent face-up cards",
    ),
    ("6", "plans melds exactly, remembers more, rarely blunders"),
    ("7", "also watches what the next player picks up"),
    ("8", "remembers every card that went past"),
    ("9", "almost never blunders"),
    (
        "10",
        "the strongest: exact planning, full memory, no blunders",
    ),
];

/// The catalogue entry: the game, its variants and its computer players' levels.
pub(super) fn catalogue_entry() -> KindInfo {
    let mut levels = vec![
        LevelInfo {
            name: "easy",
            summary: "level 3 of the original design's numbered scale: plans melds roughly, \
                      remembers the last dozen face-up cards, blunders often",
        },
        LevelInfo {
            name: "medium",
            summary: "level 6 of the numbered scale: exact meld planning, a short memory, \
                      occasional blunders",
        },
        LevelInfo {
            name: "hard",
            summary: "level 10 of the numbered scale: exact planning, full memory, no blunders",
        },
        LevelInfo {
            name: "random",
            summary: "a uniformly random legal move",
        },
        LevelInfo {
            name: "greedy",
            summary: "melds and lays off all it can, takes the face-up card when it fits a \
                      meld, and throws its highest loose card",
        },
    ];
    levels.extend(
        LEVELS
            .iter()
            .map(|(name, summary)| LevelInfo { name, summary }),
    );
    KindInfo {
        kind: GameKind::Rummy,
        title: "Rummy",
        summary: "Meld sets and runs, lay off onto any meld, and get rid of your cards.",
        variants: Variant::ALL.map(RummyConfig::variant_info).to_vec(),
        levels,
        default_level: BotLevel::Greedy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_sizes_follow_the_number_of_players() {
        let size = |v, n| {
            RummyConfig::new(Some(v), n, &Options::new())
                .unwrap()
                .hand_size()
        };
        assert_eq!(size("standard", 2), 10);
        assert_eq!(size("standard", 3), 7);
        assert_eq!(size("standard", 4), 7);
        assert_eq!(size("standard", 5), 6);
        assert_eq!(size("standard", 6), 6);
        assert_eq!(size("classic", 3), 7);
    }

    #[test]
    fn classic_plays_seven_rounds_unless_the_house_says_otherwise() {
        let config = RummyConfig::new(Some("classic"), 2, &Options::new()).unwrap();
        assert_eq!(config.rounds, 7);
        let options: Options = serde_json::from_str(r#"{"rounds": 21}"#).unwrap();
        assert_eq!(
            RummyConfig::new(Some("classic"), 2, &options)
                .unwrap()
                .rounds,
            21
        );
        let options: Options = serde_json::from_str(r#"{"rounds": 22}"#).unwrap();
        assert!(RummyConfig::new(Some("classic"), 2, &options).is_err());
        let options: Options = serde_json::from_str(r#"{"rounds": 3}"#).unwrap();
        assert!(RummyConfig::new(Some("standard"), 2, &options).is_err());
        assert!(RummyConfig::new(Some("classic"), 5, &Options::new()).is_err());
        assert!(RummyConfig::new(None, 7, &Options::new()).is_err());
    }
}
