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

crate::words::text_column!(Visibility, "visibility");

#[cfg(test)]
mod tests {
    use super::Visibility;

    #[test]
    fn each_visibility_reads_back_from_its_word_and_nothing_else_does() {
        for visibility in Visibility::ALL {
            assert_eq!(
                Visibility::try_from(visibility.as_str().to_owned()).ok(),
                Some(visibility)
            );
            assert_eq!(
                serde_json::to_value(visibility).ok(),
                Some(serde_json::json!(visibility.as_str()))
            );
        }
        assert!(Visibility::try_from("hidden".to_owned()).is_err());
        assert!(Visibility::try_from("Public".to_owned()).is_err());
    }
}
