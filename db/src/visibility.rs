//! Who may find, join and watch a table, as the `visibility` columns store it (the text values
//! are the columns', unchanged).

use diesel::deserialize::FromSqlRow;
use diesel::expression::AsExpression;
use diesel::sql_types::Text;
use serde::{Deserialize, Serialize};

/// Who may find, join and watch a table.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    Serialize,
    AsExpression,
    FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Listed in the lobby: anyone signed in may take an open seat (no invite code) or watch.
    Public,
    /// Joined with the invite code only (the default); not listed, not watched.
    #[default]
    Unlisted,
    /// Joined with the invite code only; never watched.
    Private,
}

impl Visibility {
    /// Every visibility.
    pub const ALL: [Visibility; 3] = [
        Visibility::Public,
        Visibility::Unlisted,
        Visibility::Private,
    ];

    /// The name, as stored and answered.
    pub const fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Unlisted => "unlisted",
            Visibility::Private => "private",
        }
    }
}

crate::words::text_column!(Visibility, "visibility", not ["hidden", "Public", ""]);
