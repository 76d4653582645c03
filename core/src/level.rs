//! Computer players' strengths by name: the named scale every game offers, the original
//! designs' names, and Rummy's numbered levels. Only names: what a level plays like is each
//! game's own computer player.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A computer player's strength.
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text)
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BotLevel {
    /// The named scale every game offers: the original design's heuristic.
    Easy,
    /// The named scale: estimates the hidden cards and plays the odds.
    Medium,
    /// The named scale: a search over sampled deals of the hidden cards.
    Hard,
    /// A uniformly random legal move.
    Random,
    /// The heuristic of the original design.
    Greedy,
    /// Estimates the hidden cards from what is public and plays the odds.
    Strong,
    /// A numbered strength, 1 (weakest) to 10 (Rummy's scale).
    Level(u8),
}

impl BotLevel {
    /// The level's name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Medium => "medium",
            BotLevel::Hard => "hard",
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
            BotLevel::Strong => "strong",
            BotLevel::Level(n) => match n {
                1 => "1",
                2 => "2",
                3 => "3",
                4 => "4",
                5 => "5",
                6 => "6",
                7 => "7",
                8 => "8",
                9 => "9",
                _ => "10",
            },
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no computer-player level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a computer-player level; the levels are easy, medium, hard, random, greedy, strong and 1 to 10"
)]
pub struct UnknownLevel(pub String);

impl FromStr for BotLevel {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<BotLevel, UnknownLevel> {
        match s {
            "easy" => Ok(BotLevel::Easy),
            "medium" => Ok(BotLevel::Medium),
            "hard" => Ok(BotLevel::Hard),
            "random" => Ok(BotLevel::Random),
            "greedy" => Ok(BotLevel::Greedy),
            "strong" => Ok(BotLevel::Strong),
            other => match other.parse::<u8>() {
                Ok(n @ 1..=10) if !other.starts_with('0') && !other.starts_with('+') => {
                    Ok(BotLevel::Level(n))
                }
                _ => Err(UnknownLevel(other.chars().take(32).collect())),
            },
        }
    }
}

impl Serialize for BotLevel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BotLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BotLevel, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
