//! The game kinds by name: what the catalogue, the API and stored games call each game. The
//! games themselves are above this ([`crate::any`] gives each kind its catalogue entry and its
//! moves' parser), so anything may name a kind without knowing the games.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A game kind.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text)
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Basra,
    ThirtyOne,
    Rummy,
    Tarneeb,
}

impl GameKind {
    /// Every kind.
    pub const ALL: [GameKind; 4] = [
        GameKind::Basra,
        GameKind::ThirtyOne,
        GameKind::Rummy,
        GameKind::Tarneeb,
    ];

    /// The kind's name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Basra => "basra",
            GameKind::ThirtyOne => "thirty_one",
            GameKind::Rummy => "rummy",
            GameKind::Tarneeb => "tarneeb",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a game kind; the kinds are basra, thirty_one, rummy and tarneeb")]
pub struct UnknownKind(pub String);

impl FromStr for GameKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<GameKind, UnknownKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownKind(s.chars().take(32).collect()))
    }
}
