//! Where a game stands, as the `games.status` column stores it (the text values are the
//! column's, unchanged).

use diesel::deserialize::FromSqlRow;
use diesel::expression::AsExpression;
use diesel::sql_types::Text;
use serde::{Deserialize, Serialize};

/// Where a game stands. Read and written as the column's text on either database.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, AsExpression, FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Seats are still open: nothing has been dealt.
    Waiting,
    /// A hand is being played.
    Active,
    /// A hand is over; the next waits to be dealt.
    HandOver,
    /// The game ended by its rules (or a resignation).
    Finished,
    /// The table closed before it started.
    Abandoned,
}

impl GameStatus {
    /// Every status, in the order a game goes through them.
    pub const ALL: [GameStatus; 5] = [
        GameStatus::Waiting,
        GameStatus::Active,
        GameStatus::HandOver,
        GameStatus::Finished,
        GameStatus::Abandoned,
    ];

    /// The stored (and answered) word.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Active => "active",
            GameStatus::HandOver => "hand_over",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }

    /// The status a stored word names.
    pub fn parse(word: &str) -> Option<GameStatus> {
        GameStatus::ALL.into_iter().find(|s| s.as_str() == word)
    }

    /// Whether the game has ended (finished or abandoned): nothing more happens at it.
    pub const fn is_over(self) -> bool {
        matches!(self, GameStatus::Finished | GameStatus::Abandoned)
    }

    /// Whether the game is being played (a hand in play or between hands).
    pub const fn is_playing(self) -> bool {
        matches!(self, GameStatus::Active | GameStatus::HandOver)
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::words::text_column!(GameStatus, "game status", not ["paused", "Active", ""]);

#[cfg(test)]
mod columns {
    use cardroom_core::{BotLevel, GameKind};
    use diesel::prelude::*;
    use diesel::sql_types::Text;
    use diesel::sqlite::SqliteConnection;

    fn read<T>(conn: &mut SqliteConnection, word: &str) -> QueryResult<T>
    where
        T: diesel::deserialize::FromSqlRow<Text, diesel::sqlite::Sqlite> + 'static,
    {
        diesel::select(word.into_sql::<Text>()).get_result(conn)
    }

    #[test]
    fn kinds_and_levels_read_back_from_their_words_and_nothing_else_does() {
        let mut conn = SqliteConnection::establish(":memory:").expect("an in-memory database");
        for kind in GameKind::ALL {
            let read_back = read::<GameKind>(&mut conn, kind.name());
            assert_eq!(read_back.as_ref().ok(), Some(&kind), "{read_back:?}");
            let written: String = diesel::select(kind.into_sql::<Text>())
                .get_result(&mut conn)
                .expect("a kind writes as text");
            assert_eq!(written, kind.name());
        }
        let levels = [
            "easy", "medium", "hard", "random", "greedy", "strong", "1", "10",
        ];
        for word in levels {
            let level = read::<BotLevel>(&mut conn, word).expect("a level reads back");
            assert_eq!(level.name(), word);
        }
        for word in ["chess", "Basra", ""] {
            assert!(read::<GameKind>(&mut conn, word).is_err(), "{word}");
        }
        for word in ["grandmaster", "0", "11", "01"] {
            assert!(read::<BotLevel>(&mut conn, word).is_err(), "{word}");
        }
    }
}
