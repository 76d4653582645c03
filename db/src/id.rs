//! A game's id: the `games.id` column and every column that refers to it, typed so that a game id
//! cannot be passed where a user's or a message's is wanted.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::BigInt;
use serde::{Deserialize, Serialize};

/// A game's id. Serialises as the plain number.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Debug,
    Serialize,
    Deserialize,
    AsExpression,
    FromSqlRow,
)]
#[diesel(sql_type = BigInt)]
#[serde(transparent)]
pub struct GameId(i64);

impl GameId {
    /// The game numbered `n` (whether it exists is for a read to say).
    pub const fn new(n: i64) -> GameId {
        GameId(n)
    }

    /// The number.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<DB> FromSql<BigInt, DB> for GameId
where
    DB: Backend,
    i64: FromSql<BigInt, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<GameId> {
        i64::from_sql(bytes).map(GameId)
    }
}

impl<DB> ToSql<BigInt, DB> for GameId
where
    DB: Backend,
    i64: ToSql<BigInt, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.0.to_sql(out)
    }
}
