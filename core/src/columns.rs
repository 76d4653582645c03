//! Game kinds and computer-player levels as text columns (the `diesel` feature, for the storage
//! crate): each is stored as its API name, so a row reads back as the type or not at all.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

use crate::kind::GameKind;
use crate::level::BotLevel;

impl<DB> FromSql<Text, DB> for GameKind
where
    DB: Backend,
    String: FromSql<Text, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<GameKind> {
        Ok(String::from_sql(bytes)?.parse()?)
    }
}

impl<DB> ToSql<Text, DB> for GameKind
where
    DB: Backend,
    str: ToSql<Text, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.name().to_sql(out)
    }
}

impl<DB> FromSql<Text, DB> for BotLevel
where
    DB: Backend,
    String: FromSql<Text, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<BotLevel> {
        Ok(String::from_sql(bytes)?.parse()?)
    }
}

impl<DB> ToSql<Text, DB> for BotLevel
where
    DB: Backend,
    str: ToSql<Text, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.name().to_sql(out)
    }
}
