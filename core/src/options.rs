//! House-rule options, their published bounds, and the catalogue that describes each game.
//!
//! A variant is a named preset; each house rule (docs/rules.md#house-rules) can be changed per game within the
//! bounds declared here. The same [`OptionSpec`] list validates a request and is published in
//! the catalogue, so the two cannot disagree.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::kind::GameKind;
use crate::level::BotLevel;

/// The options given for one game, by name.
pub type Options = BTreeMap<String, OptionValue>;

/// One option's value: a whole number, a flag, or a word from a fixed list.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum OptionValue {
    Integer(i64),
    Flag(bool),
    Choice(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Integer(n) => write!(f, "{n}"),
            OptionValue::Flag(b) => write!(f, "{b}"),
            OptionValue::Choice(s) => write!(f, "{s:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for OptionValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OptionValue, D::Error> {
        struct ValueVisitor;
        impl Visitor<'_> for ValueVisitor {
            type Value = OptionValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number, true or false, or one of the listed words")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<OptionValue, E> {
                Ok(OptionValue::Flag(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<OptionValue, E> {
                Ok(OptionValue::Integer(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<OptionValue, E> {
                i64::try_from(v)
                    .map(OptionValue::Integer)
                    .map_err(|_| E::custom("the number is too large"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OptionValue, E> {
                if v.len() > 64 {
                    return Err(E::custom("the word is too long"));
                }
                Ok(OptionValue::Choice(v.to_owned()))
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// What values an option takes.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    Integer {
        min: i64,
        max: i64,
        default: i64,
    },
    Flag {
        default: bool,
    },
    Choice {
        values: &'static [&'static str],
        default: &'static str,
    },
    /// A whole number from a fixed list.
    Number {
        values: &'static [i64],
        default: i64,
    },
}

/// One house-rule option as the catalogue publishes it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    pub summary: &'static str,
    #[serde(flatten)]
    pub kind: OptionKind,
}

/// Why a game could not be set up: a bad variant, option, seat count or practice deck.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{kind} has no variant `{variant}`; the variants are {known}")]
    UnknownVariant {
        kind: GameKind,
        variant: String,
        known: String,
    },
    #[error("{kind} {variant} has no option `{name}`; its options are {known}")]
    UnknownOption {
        kind: GameKind,
        variant: &'static str,
        name: String,
        known: String,
    },
    #[error("option `{name}` takes {expected}, not {given}")]
    OptionType {
        name: &'static str,
        expected: String,
        given: OptionValue,
    },
    #[error("option `{name}` must be between {min} and {max}, not {given}")]
    OptionRange {
        name: &'static str,
        min: i64,
        max: i64,
        given: i64,
    },
    #[error("{kind} {variant} is played by {allowed} players, not {given}")]
    Seats {
        kind: GameKind,
        variant: &'static str,
        allowed: String,
        given: usize,
    },
    #[error("the practice deck {0}")]
    Deck(String),
    #[error("the position {0}")]
    Position(PositionError),
}

/// Why a position set up by hand (a test's, an analysis's) cannot be a game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("needs {0} hands")]
    Hands(usize),
    #[error("needs four hands of thirteen cards")]
    TarneebHands,
    #[error("needs {hands} hands and {piles} piles")]
    HandsAndPiles { hands: usize, piles: usize },
    #[error("needs {0} totals")]
    Totals(usize),
    #[error("needs {0} lives")]
    Lives(usize),
    #[error("names a seat that is not at the table")]
    NoSuchSeat,
    #[error("puts {0} in two places")]
    Twice(Card),
    #[error("uses {0}, which is not in the deck")]
    NotInDeck(Card),
    #[error("does not place {0}")]
    Unplaced(Card),
    #[error("has a meld that is none: {reason}")]
    NotAMeld { cards: CardSet, reason: String },
    #[error("gives the seat to act no cards")]
    EmptyHandToAct,
    #[error("says a seat took cards it does not hold")]
    TookUnheld,
    #[error("must have a seat in the game with three cards to act")]
    NoSeatToAct,
}

/// Reads the given options against a variant's specs: unknown names are refused, missing ones
/// take their defaults.
#[derive(Debug)]
pub struct OptionReader<'a> {
    given: &'a Options,
    specs: &'a [OptionSpec],
}

impl<'a> OptionReader<'a> {
    /// Checks that every given option exists for this variant.
    pub fn new(
        kind: GameKind,
        variant: &'static str,
        given: &'a Options,
        specs: &'a [OptionSpec],
    ) -> Result<OptionReader<'a>, SetupError> {
        for name in given.keys() {
            if !specs.iter().any(|spec| spec.name == name) {
                let known = specs
                    .iter()
                    .map(|spec| format!("`{}`", spec.name))
                    .collect::<Vec<_>>();
                return Err(SetupError::UnknownOption {
                    kind,
                    variant,
                    name: name.chars().take(64).collect(),
                    known: if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    },
                });
            }
        }
        Ok(OptionReader { given, specs })
    }

    fn spec(&self, name: &'static str) -> Option<&OptionSpec> {
        self.specs.iter().find(|spec| spec.name == name)
    }

    /// A whole-number option within its bounds. An option the variant does not declare reads
    /// as `fallback`.
    pub fn integer(&self, name: &'static str, fallback: i64) -> Result<i64, SetupError> {
        let Some(OptionSpec {
            kind: OptionKind::Integer { min, max, default },
            ..
        }) = self.spec(name)
        else {
            return Ok(fallback);
        };
        match self.given.get(name) {
            None => Ok(*default),
            Some(OptionValue::Integer(n)) if (*min..=*max).contains(n) => Ok(*n),
            Some(OptionValue::Integer(n)) => Err(SetupError::OptionRange {
                name,
                min: *min,
                max: *max,
                given: *n,
            }),
            Some(other) => Err(SetupError::OptionType {
                name,
                expected: format!("a whole number from {min} to {max}"),
                given: other.clone(),
            }),
        }
    }

    /// A true/false option. An option the variant does not declare reads as `fallback`.
    pub fn flag(&self, name: &'static str, fallback: bool) -> Result<bool, SetupError> {
        let Some(OptionSpec {
            kind: OptionKind::Flag { default },
            ..
        }) = self.spec(name)
        else {
            return Ok(fallback);
        };
        match self.given.get(name) {
            None => Ok(*default),
            Some(OptionValue::Flag(b)) => Ok(*b),
            Some(other) => Err(SetupError::OptionType {
                name,
                expected: "true or false".to_owned(),
                given: other.clone(),
            }),
        }
    }

    /// A whole number from the option's list. An option the variant does not declare reads as
    /// `fallback`.
    pub fn number(&self, name: &'static str, fallback: i64) -> Result<i64, SetupError> {
        let Some(OptionSpec {
            kind: OptionKind::Number { values, default },
            ..
        }) = self.spec(name)
        else {
            return Ok(fallback);
        };
        let expected = || {
            let words: Vec<String> = values.iter().map(i64::to_string).collect();
            format!("one of {}", words.join(", "))
        };
        match self.given.get(name) {
            None => Ok(*default),
            Some(OptionValue::Integer(n)) if values.contains(n) => Ok(*n),
            Some(other) => Err(SetupError::OptionType {
                name,
                expected: expected(),
                given: other.clone(),
            }),
        }
    }

    /// One word from the option's list. An option the variant does not declare reads as
    /// `fallback`.
    pub fn choice(
        &self,
        name: &'static str,
        fallback: &'static str,
    ) -> Result<&'static str, SetupError> {
        let Some(OptionSpec {
            kind: OptionKind::Choice { values, default },
            ..
        }) = self.spec(name)
        else {
            return Ok(fallback);
        };
        match self.given.get(name) {
            None => Ok(default),
            Some(OptionValue::Choice(word)) => values
                .iter()
                .find(|v| **v == word)
                .copied()
                .ok_or_else(|| SetupError::OptionType {
                    name,
                    expected: format!("one of {}", values.join(", ")),
                    given: OptionValue::Choice(word.clone()),
                }),
            Some(other) => Err(SetupError::OptionType {
                name,
                expected: format!("one of {}", values.join(", ")),
                given: other.clone(),
            }),
        }
    }
}

/// `"2"`, `"2 or 3"`, `"2, 3 or 4"`.
pub fn list_with_or<T: fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(T::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// One variant in the catalogue.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    pub name: &'static str,
    pub title: &'static str,
    /// The variant used when a request names none.
    pub default: bool,
    /// The allowed numbers of seats.
    pub seats: Vec<u8>,
    pub summary: &'static str,
    pub options: Vec<OptionSpec>,
}

/// A computer-player level in the catalogue.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    pub name: &'static str,
    pub summary: &'static str,
}

/// One game kind in the catalogue.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct KindInfo {
    pub kind: GameKind,
    pub title: &'static str,
    pub summary: &'static str,
    pub variants: Vec<VariantInfo>,
    pub levels: Vec<LevelInfo>,
    /// The level that takes over a resigned seat in a game of more than two sides.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub default_level: BotLevel,
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "target",
            summary: "",
            kind: OptionKind::Integer {
                min: 31,
                max: 501,
                default: 101,
            },
        },
        OptionSpec {
            name: "double",
            summary: "",
            kind: OptionKind::Flag { default: true },
        },
        OptionSpec {
            name: "tie",
            summary: "",
            kind: OptionKind::Choice {
                values: &["carry", "void"],
                default: "carry",
            },
        },
    ];

    fn options(json: &str) -> Options {
        serde_json::from_str(json).unwrap()
    }

    fn reader(given: &Options) -> Result<OptionReader<'_>, SetupError> {
        OptionReader::new(GameKind::Basra, "standard", given, SPECS)
    }

    #[test]
    fn missing_options_take_their_defaults() {
        let given = options("{}");
        let r = reader(&given).unwrap();
        assert_eq!(r.integer("target", 0), Ok(101));
        assert_eq!(r.flag("double", false), Ok(true));
        assert_eq!(r.choice("tie", "x"), Ok("carry"));
        assert_eq!(r.integer("not_declared", 7), Ok(7));
    }

    #[test]
    fn given_options_are_checked_against_their_bounds() {
        let given = options(r#"{"target": 501, "double": false, "tie": "void"}"#);
        let r = reader(&given).unwrap();
        assert_eq!(r.integer("target", 0), Ok(501));
        assert_eq!(r.flag("double", true), Ok(false));
        assert_eq!(r.choice("tie", "x"), Ok("void"));

        let given = options(r#"{"target": 502}"#);
        let err = reader(&given).unwrap().integer("target", 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option `target` must be between 31 and 501, not 502"
        );
        let given = options(r#"{"target": "high", "double": 1, "tie": "maybe"}"#);
        let r = reader(&given).unwrap();
        assert!(r.integer("target", 0).is_err());
        assert!(r.flag("double", true).is_err());
        assert_eq!(
            r.choice("tie", "x").unwrap_err().to_string(),
            "option `tie` takes one of carry, void, not \"maybe\""
        );
    }

    #[test]
    fn unknown_options_are_refused_by_name() {
        let given = options(r#"{"targte": 120}"#);
        let err = reader(&given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "basra standard has no option `targte`; its options are `target`, `double`, `tie`"
        );
    }

    #[test]
    fn fractions_and_nested_values_are_not_option_values() {
        assert!(serde_json::from_str::<Options>(r#"{"target": 1.5}"#).is_err());
        assert!(serde_json::from_str::<Options>(r#"{"target": [1]}"#).is_err());
        assert!(serde_json::from_str::<Options>(r#"{"target": null}"#).is_err());
        assert!(serde_json::from_str::<Options>(r#"{"target": 18446744073709551615}"#).is_err());
    }
}
