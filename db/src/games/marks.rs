//! What tells that a followed game changed: its version and its newest chat row, read for many
//! games at once (the safety net that catches a change whose notice never came).

use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::schema::{chat, games};

/// What a follower of a game has seen when it has seen the game's latest: its version and its
/// newest chat row's id (0 for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub version: i64,
    pub chat_newest: i64,
}

/// The most games one statement asks about (well inside every database's limit on bound
/// parameters).
const CHUNK: usize = 1000;

/// The [`Mark`] of each of the games `ids` that exists, in two statements per thousand games.
pub fn marks(conn: &mut AnyConnection, ids: &[GameId]) -> Result<Vec<(GameId, Mark)>, DbError> {
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let versions: Vec<(GameId, i64)> = games::table
            .filter(games::id.eq_any(chunk))
            .select((games::id, games::version))
            .load(conn)?;
        let newest: Vec<(GameId, Option<i64>)> = chat::table
            .filter(chat::game_id.eq_any(chunk))
            .group_by(chat::game_id)
            .select((chat::game_id, diesel::dsl::max(chat::id)))
            .load(conn)?;
        let newest: std::collections::HashMap<GameId, i64> = newest
            .into_iter()
            .filter_map(|(id, newest)| Some((id, newest?)))
            .collect();
        found.extend(versions.into_iter().map(|(id, version)| {
            let chat_newest = newest.get(&id).copied().unwrap_or(0);
            (
                id,
                Mark {
                    version,
                    chat_newest,
                },
            )
        }));
    }
    Ok(found)
}
