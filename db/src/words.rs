//! Closed lists of words stored in text columns (a game's status, a table's visibility, a chat
//! row's kind): each reads back as its type or fails as an [`UnknownWord`], and writes as its
//! word.

/// A stored word that is none of its column's (a row written by hand, say).
#[derive(Debug, thiserror::Error)]
#[error("`{word}` is not a {column}")]
pub struct UnknownWord {
    pub column: &'static str,
    pub word: String,
}

/// Implements the text column for `$ty`, which has `ALL` and `as_str()` (and serialises as its
/// word); `$column` names it in errors. With the module, a test that every word reads back
/// and that the words given after `not` do not (named `text_column`, or `$test` for a second
/// column in one file).
macro_rules! text_column {
    ($ty:ty, $column:literal, not [$($not:literal),*]) => {
        $crate::words::text_column!($ty, $column, not [$($not),*], test text_column);
    };
    ($ty:ty, $column:literal, not [$($not:literal),*], test $test:ident) => {
        #[cfg(test)]
        mod $test {
            use super::*;

            #[test]
            fn each_word_reads_back_and_serialises_as_itself_and_nothing_else_reads() {
                for value in <$ty>::ALL {
                    assert_eq!(<$ty>::try_from(value.as_str().to_owned()).ok(), Some(value));
                    assert_eq!(
                        serde_json::to_value(value).ok(),
                        Some(serde_json::json!(value.as_str()))
                    );
                }
                for word in [$($not),*] {
                    assert!(<$ty>::try_from(word.to_owned()).is_err(), "{word}");
                }
            }
        }

        impl TryFrom<String> for $ty {
            type Error = $crate::words::UnknownWord;

            fn try_from(word: String) -> Result<$ty, $crate::words::UnknownWord> {
                <$ty>::ALL.into_iter().find(|v| v.as_str() == word).ok_or(
                    $crate::words::UnknownWord {
                        column: $column,
                        word,
                    },
                )
            }
        }

        impl<DB> diesel::deserialize::FromSql<diesel::sql_types::Text, DB> for $ty
        where
            DB: diesel::backend::Backend,
            String: diesel::deserialize::FromSql<diesel::sql_types::Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<$ty> {
                let word = <String as diesel::deserialize::FromSql<
                                                    diesel::sql_types::Text,
                                                    DB,
                                                >>::from_sql(bytes)?;
                Ok(<$ty>::try_from(word)?)
            }
        }

        impl<DB> diesel::serialize::ToSql<diesel::sql_types::Text, DB> for $ty
        where
            DB: diesel::backend::Backend,
            str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        {
            fn to_sql<'b>(
                &'b self,
                out: &mut diesel::serialize::Output<'b, '_, DB>,
            ) -> diesel::serialize::Result {
                <str as diesel::serialize::ToSql<diesel::sql_types::Text, DB>>::to_sql(
                    self.as_str(),
                    out,
                )
            }
        }
    };
}

pub(crate) use text_column;
