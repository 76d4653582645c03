//! Glicko-2 ratings: kept per person, game kind and pool (against people, against computer
//! players), updated in the transaction that finishes a rated game, and read for profiles and
//! leaderboards.
//!
//! A rated game is a finished, real (non-practice) game. Each registered person in it is rated
//! against every seat of every opposing side: a registered person's seat counts in the pool
//! "people" (with that person's rating before the game), a computer player's in the pool
//! "computers" (with its level's anchor, `cardroom_core::rating::computer_rating`), a guest's
//! not at all. A seat a computer played while its person was away is the person's. The score
//! of a pair comes from who won (`pair_score`); each game is one rating period.

use cardroom_core::GameKind;
use std::collections::{BTreeMap, BTreeSet};

use cardroom_core::rating::{Played, Rating, TAU, computer_rating, pair_score};
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::error::DbError;
use crate::id::GameId;
use crate::rows::SeatResult;
use crate::schema::{
    games, rating_history, ratings, results, tournament_seats, tournaments, users,
};
use crate::status::GameStatus;
use crate::tournaments::{Format, TournamentStatus};
use crate::visibility::Visibility;

/// The pools a person is rated in.
pub const POOLS: [&str; 3] = ["people", "computers", "bots"];

/// A person's rating in one pool of one game kind.
#[derive(Queryable, Clone, PartialEq, Debug)]
pub struct RatingRow {
    pub user_id: i64,
    pub kind: GameKind,
    pub pool: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub updated_at: NaiveDateTime,
}

impl RatingRow {
    fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// One rated game's change to a rating.
#[derive(Queryable, Clone, PartialEq, Debug)]
pub struct HistoryRow {
    pub user_id: i64,
    pub kind: GameKind,
    pub pool: String,
    pub game_id: GameId,
    pub rating: f64,
    pub deviation: f64,
    pub before: f64,
    pub at: NaiveDateTime,
}

/// Who a rated seat played against.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Opponent {
    Person(i64),
    Computer(Rating),
}

/// The results each registered person's rating is updated from, by person and pool: the
/// opponent and the score. A bot account (a program) is rated only in the pool `bots`, and a
/// person's games against bot accounts count there too, so that programs never move the
/// people's scale. Pure, for the tests.
fn pairings(
    results: &[SeatResult],
    registered: &BTreeSet<i64>,
    bot_accounts: &BTreeSet<i64>,
) -> BTreeMap<(i64, &'static str), Vec<(Opponent, f64)>> {
    let mut out: BTreeMap<(i64, &'static str), Vec<(Opponent, f64)>> = BTreeMap::new();
    for mine in results {
        let Some(me) = mine.user_id.filter(|id| registered.contains(id)) else {
            continue;
        };
        let i_am_a_bot = bot_accounts.contains(&me);
        for theirs in results.iter().filter(|r| r.side != mine.side) {
            let Some(score) = pair_score(mine.won, theirs.won) else {
                continue;
            };
            let (pool, opponent) = match (theirs.user_id, theirs.bot) {
                (Some(id), _) if registered.contains(&id) => {
                    let pool = if i_am_a_bot || bot_accounts.contains(&id) {
                        "bots"
                    } else {
                        "people"
                    };
                    (pool, Opponent::Person(id))
                }
                (Some(_), _) => continue,
                (None, Some(level)) => (
                    if i_am_a_bot { "bots" } else { "computers" },
                    Opponent::Computer(computer_rating(level)),
                ),
                (None, None) => continue,
            };
            out.entry((me, pool)).or_default().push((opponent, score));
        }
    }
    out
}

/// Rates a finished game's registered players (or, with `only`, that one person: one who
/// leaves before the end); call inside the transaction that writes the result. Does nothing
/// for a practice game.
pub(crate) fn rate_game(
    conn: &mut AnyConnection,
    game_id: GameId,
    results: &[SeatResult],
    only: Option<i64>,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let (kind, practice): (GameKind, bool) = games::table
        .find(game_id)
        .select((games::kind, games::practice))
        .first(conn)?;
    if practice {
        return Ok(());
    }
    let people: Vec<i64> = results.iter().filter_map(|r| r.user_id).collect();
    let accounts: Vec<(i64, bool)> = users::table
        .filter(users::id.eq_any(&people))
        .filter(users::guest.eq(false))
        .select((users::id, users::bot))
        .load(conn)?;
    let registered: BTreeSet<i64> = accounts.iter().map(|&(id, _)| id).collect();
    let bot_accounts: BTreeSet<i64> = accounts
        .iter()
        .filter(|&&(_, bot)| bot)
        .map(|&(id, _)| id)
        .collect();
    let mut pairings = pairings(results, &registered, &bot_accounts);
    if let Some(user_id) = only {
        pairings.retain(|(id, _), _| *id == user_id);
    }
    if pairings.is_empty() {
        return Ok(());
    }
    // Every rating the update reads: the rated people's, and their opponents' in the same pool.
    let mut needed: BTreeSet<(i64, &str)> = pairings.keys().copied().collect();
    for ((_, pool), list) in &pairings {
        for (opponent, _) in list {
            if let Opponent::Person(id) = opponent {
                needed.insert((*id, *pool));
            }
        }
    }
    let fresh = Rating::default();
    for &(user_id, pool) in &needed {
        let insert = diesel::insert_into(ratings::table)
            .values((
                ratings::user_id.eq(user_id),
                ratings::kind.eq(kind),
                ratings::pool.eq(pool),
                ratings::rating.eq(fresh.rating),
                ratings::deviation.eq(fresh.deviation),
                ratings::volatility.eq(fresh.volatility),
                ratings::games.eq(0),
                ratings::updated_at.eq(now),
            ))
            .on_conflict_do_nothing();
        match conn {
            AnyConnection::Postgresql(c) => insert.execute(c)?,
            AnyConnection::Sqlite(c) => insert.execute(c)?,
        };
    }
    let ids: Vec<i64> = needed.iter().map(|(id, _)| *id).collect();
    let query = ratings::table
        .filter(ratings::user_id.eq_any(ids))
        .filter(ratings::kind.eq(kind))
        .order((ratings::user_id.asc(), ratings::pool.asc()));
    // On PostgreSQL the rows stay locked until the commit (in one order, so two games finishing
    // with the same people wait for each other rather than deadlock): no update is lost.
    let rows: Vec<RatingRow> = match conn {
        AnyConnection::Postgresql(pg) => query.for_update().load(pg)?,
        AnyConnection::Sqlite(c) => query.load(c)?,
    };
    let before: BTreeMap<(i64, &str), Rating> = rows
        .iter()
        .filter_map(|row| {
            let pool = POOLS.into_iter().find(|p| *p == row.pool)?;
            Some(((row.user_id, pool), row.glicko()))
        })
        .collect();
    for ((user_id, pool), list) in &pairings {
        let Some(&old) = before.get(&(*user_id, *pool)) else {
            return Err(DbError::Corrupt(format!("the rating of user {user_id}")));
        };
        let played: Vec<Played> = list
            .iter()
            .map(|(opponent, score)| Played {
                opponent: match opponent {
                    Opponent::Person(id) => before.get(&(*id, *pool)).copied().unwrap_or_default(),
                    Opponent::Computer(rating) => *rating,
                },
                score: *score,
            })
            .collect();
        let new = old.after(&played, TAU);
        diesel::update(ratings::table.find((*user_id, kind, *pool)))
            .set((
                ratings::rating.eq(new.rating),
                ratings::deviation.eq(new.deviation),
                ratings::volatility.eq(new.volatility),
                ratings::games.eq(ratings::games + 1),
                ratings::updated_at.eq(now),
            ))
            .execute(conn)?;
        diesel::insert_into(rating_history::table)
            .values((
                rating_history::user_id.eq(*user_id),
                rating_history::kind.eq(kind),
                rating_history::pool.eq(*pool),
                rating_history::game_id.eq(game_id),
                rating_history::rating.eq(new.rating),
                rating_history::deviation.eq(new.deviation),
                rating_history::before.eq(old.rating),
                rating_history::at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A person's ratings, every kind and pool.
pub fn of_user(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<RatingRow>, DbError> {
    ratings::table
        .filter(ratings::user_id.eq(user_id))
        .order((ratings::kind.asc(), ratings::pool.asc()))
        .load(conn)
        .map_err(DbError::from)
}

/// The ratings of these people in one game kind and pool, by user.
pub fn of_users(
    conn: &mut AnyConnection,
    users: &[i64],
    kind: GameKind,
    pool: &str,
) -> Result<Vec<RatingRow>, DbError> {
    ratings::table
        .filter(ratings::user_id.eq_any(users))
        .filter(ratings::kind.eq(kind))
        .filter(ratings::pool.eq(pool))
        .load(conn)
        .map_err(DbError::from)
}

/// A person's rating history, oldest first, at most the last `limit` changes.
pub fn history(
    conn: &mut AnyConnection,
    user_id: i64,
    limit: i64,
) -> Result<Vec<HistoryRow>, DbError> {
    let mut rows: Vec<HistoryRow> = rating_history::table
        .filter(rating_history::user_id.eq(user_id))
        .order((rating_history::at.desc(), rating_history::game_id.desc()))
        .limit(limit)
        .load(conn)?;
    rows.reverse();
    Ok(rows)
}

/// A person's finished real games of one kind: how many, how many won.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct KindRecord {
    pub kind: GameKind,
    pub games: i64,
    pub wins: i64,
}

/// A person's record per game kind, over finished real (non-practice) games.
pub fn records(conn: &mut AnyConnection, user_id: i64) -> Result<Vec<KindRecord>, DbError> {
    let rows: Vec<(GameKind, bool)> = results::table
        .inner_join(games::table)
        .filter(results::user_id.eq(user_id))
        .filter(games::practice.eq(false))
        .filter(games::status.eq(GameStatus::Finished))
        .filter(not_sealed())
        .select((games::kind, results::won))
        .load(conn)?;
    let mut by_kind: BTreeMap<&'static str, KindRecord> = BTreeMap::new();
    for (kind, won) in rows {
        let record = by_kind.entry(kind.name()).or_insert(KindRecord {
            kind,
            games: 0,
            wins: 0,
        });
        record.games += 1;
        record.wins += i64::from(won);
    }
    Ok(by_kind.into_values().collect())
}

/// Not a table of a duplicate round still sealed: such a table stays private until every table
/// of its round is over, and its result is told with theirs (a profile's record and recent
/// games leave it out until then, as the ratings wait for it).
#[diesel::dsl::auto_type]
fn sealed_out(duplicate: Format, public: Visibility) -> _ {
    let duplicate_tables = tournament_seats::table
        .inner_join(tournaments::table.on(tournaments::id.eq(tournament_seats::tournament_id)))
        .filter(tournaments::format.eq(duplicate))
        .filter(tournament_seats::game_id.is_not_null())
        .select(tournament_seats::game_id.assume_not_null());
    games::visibility
        .eq(public)
        .or(games::id.ne_all(duplicate_tables))
}

fn not_sealed() -> sealed_out {
    sealed_out(Format::Duplicate, Visibility::Public)
}

/// One of a person's finished real games.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedGame {
    pub game_id: GameId,
    pub kind: GameKind,
    pub variant: String,
    pub won: bool,
    pub finished_at: Option<NaiveDateTime>,
}

/// A person's last `limit` finished real games, newest first.
pub fn recent_games(
    conn: &mut AnyConnection,
    user_id: i64,
    limit: i64,
) -> Result<Vec<PlayedGame>, DbError> {
    let rows: Vec<(GameId, GameKind, String, bool, Option<NaiveDateTime>)> = results::table
        .inner_join(games::table)
        .filter(results::user_id.eq(user_id))
        .filter(games::practice.eq(false))
        .filter(games::status.eq(GameStatus::Finished))
        .filter(not_sealed())
        .order((games::finished_at.desc(), games::id.desc()))
        .limit(limit)
        .select((
            games::id,
            games::kind,
            games::variant,
            results::won,
            games::finished_at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(game_id, kind, variant, won, finished_at)| PlayedGame {
            game_id,
            kind,
            variant,
            won,
            finished_at,
        })
        .collect())
}

/// A leaderboard's row: a rating and its person's name.
#[derive(Clone, PartialEq, Debug)]
pub struct Standing {
    pub name: String,
    pub rating: RatingRow,
}

/// A page of a kind's leaderboard in one pool, best first (by the rating less twice its
/// deviation: a rating the board is sure of), only people with at least `min_games` rated
/// games; and how many qualify.
pub fn leaderboard(
    conn: &mut AnyConnection,
    kind: GameKind,
    pool: &str,
    min_games: i32,
    page: i64,
    per_page: i64,
) -> Result<(Vec<Standing>, i64), DbError> {
    let filtered = || {
        ratings::table
            .inner_join(users::table)
            .filter(ratings::kind.eq(kind))
            .filter(ratings::pool.eq(pool.to_owned()))
            .filter(ratings::games.ge(min_games))
            .into_boxed()
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let rows: Vec<(RatingRow, String)> = filtered()
        .order((
            (ratings::rating - ratings::deviation - ratings::deviation).desc(),
            ratings::user_id.asc(),
        ))
        .offset(page.saturating_sub(1).saturating_mul(per_page))
        .limit(per_page)
        .select((ratings::all_columns, users::name))
        .load(conn)?;
    Ok((
        rows.into_iter()
            .map(|(rating, name)| Standing { name, rating })
            .collect(),
        total,
    ))
}

// ---- A duplicate round's tables are rated together, once the round is over: rated as each
// ended, a player's new rating (on their profile, on the leaderboard) would tell the other
// tables of the round how the board went before they have played it.

/// Whether finished game `id` is rated with its round rather than at once: a table of a
/// duplicate tournament not called off.
pub(crate) fn waits_for_round(conn: &mut AnyConnection, id: GameId) -> Result<bool, DbError> {
    let tables: i64 = tournament_seats::table
        .inner_join(tournaments::table.on(tournaments::id.eq(tournament_seats::tournament_id)))
        .filter(tournament_seats::game_id.eq(id))
        .filter(tournaments::format.eq(Format::Duplicate))
        .filter(tournaments::status.ne(TournamentStatus::Cancelled))
        .count()
        .get_result(conn)?;
    Ok(tables > 0)
}

/// Rates every finished game of round `round` of duplicate tournament `id`, whose ratings
/// waited for the round (the step that closes the round calls this once, in its transaction;
/// so does calling the tournament off, for the games already over).
pub fn rate_round(
    conn: &mut AnyConnection,
    id: i64,
    round: i32,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let finished: Vec<GameId> = tournament_seats::table
        .inner_join(games::table.on(games::id.nullable().eq(tournament_seats::game_id)))
        .filter(tournament_seats::tournament_id.eq(id))
        .filter(tournament_seats::round.eq(round))
        .filter(games::status.eq(GameStatus::Finished))
        .select(games::id)
        .distinct()
        .load(conn)?;
    for game in finished {
        let results = stored_results(conn, game)?;
        rate_game(conn, game, &results, None, now)?;
    }
    Ok(())
}

/// A finished game's stored results (one row a seat), by seat: what its rating was made from.
pub(crate) fn stored_results(
    conn: &mut AnyConnection,
    game: GameId,
) -> Result<Vec<SeatResult>, DbError> {
    Ok(results::table
        .filter(results::game_id.eq(game))
        .order(results::seat)
        .select((
            results::seat,
            results::user_id,
            results::bot,
            results::side,
            results::won,
        ))
        .load::<(i32, Option<i64>, Option<cardroom_core::BotLevel>, i32, bool)>(conn)?
        .into_iter()
        .map(|(seat, user_id, bot, side, won)| SeatResult {
            seat,
            user_id,
            bot,
            side,
            won,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardroom_core::BotLevel;

    fn seat(seat: i32, user: Option<i64>, bot: Option<&str>, side: i32, won: bool) -> SeatResult {
        SeatResult {
            seat,
            user_id: user,
            bot: bot.map(|level| level.parse().expect("a level")),
            side,
            won,
        }
    }

    #[test]
    fn partnerships_rate_each_person_against_each_opposing_seat_by_pool() {
        // Tarneeb: 1 and 3 (registered) beat 2 (registered) and a hard computer.
        let results = [
            seat(0, Some(1), None, 0, true),
            seat(1, Some(2), None, 1, false),
            seat(2, Some(3), None, 0, true),
            seat(3, None, Some("hard"), 1, false),
        ];
        let registered = BTreeSet::from([1, 2, 3]);
        let pairs = pairings(&results, &registered, &BTreeSet::new());
        let hard = computer_rating(BotLevel::Hard);
        assert_eq!(pairs[&(1, "people")], vec![(Opponent::Person(2), 1.0)]);
        assert_eq!(
            pairs[&(1, "computers")],
            vec![(Opponent::Computer(hard), 1.0)]
        );
        assert_eq!(
            pairs[&(2, "people")],
            vec![(Opponent::Person(1), 0.0), (Opponent::Person(3), 0.0)]
        );
        assert!(
            !pairs.contains_key(&(2, "computers")),
            "partners are no opponents"
        );
        assert_eq!(pairs.len(), 5);
    }

    #[test]
    fn guests_are_neither_rated_nor_opponents_and_losers_are_not_ranked_among_themselves() {
        // 31 with four: 1 wins; 2 (registered), 9 (a guest) and an easy computer lose.
        let results = [
            seat(0, Some(1), None, 0, true),
            seat(1, Some(2), None, 1, false),
            seat(2, Some(9), None, 2, false),
            seat(3, None, Some("easy"), 3, false),
        ];
        let registered = BTreeSet::from([1, 2]);
        let pairs = pairings(&results, &registered, &BTreeSet::new());
        assert_eq!(pairs[&(1, "people")], vec![(Opponent::Person(2), 1.0)]);
        assert_eq!(pairs[&(2, "people")], vec![(Opponent::Person(1), 0.0)]);
        assert_eq!(pairs[&(1, "computers")].len(), 1);
        assert!(!pairs.contains_key(&(2, "computers")));
        assert!(!pairs.keys().any(|(id, _)| *id == 9));
    }

    #[test]
    fn an_away_seat_is_its_persons() {
        let results = [
            seat(0, Some(1), Some("easy"), 0, false),
            seat(1, Some(2), None, 1, true),
        ];
        let pairs = pairings(&results, &BTreeSet::from([1, 2]), &BTreeSet::new());
        assert_eq!(pairs[&(1, "people")], vec![(Opponent::Person(2), 0.0)]);
        assert_eq!(pairs[&(2, "people")], vec![(Opponent::Person(1), 1.0)]);
    }

    #[test]
    fn a_bot_account_is_rated_among_bots_and_so_are_peoples_games_against_it() {
        // 7 is a bot account: it beats person 1 and loses to person 2 and to a computer.
        let results = [
            seat(0, Some(7), None, 0, true),
            seat(1, Some(1), None, 1, false),
        ];
        let bots = BTreeSet::from([7]);
        let pairs = pairings(&results, &BTreeSet::from([1, 7]), &bots);
        assert_eq!(pairs[&(7, "bots")], vec![(Opponent::Person(1), 1.0)]);
        assert_eq!(pairs[&(1, "bots")], vec![(Opponent::Person(7), 0.0)]);
        assert!(
            !pairs.contains_key(&(1, "people")),
            "the people's scale is untouched"
        );
        let against_computer = [
            seat(0, Some(7), None, 0, false),
            seat(1, None, Some("hard"), 1, true),
        ];
        let pairs = pairings(&against_computer, &BTreeSet::from([7]), &bots);
        assert_eq!(pairs.keys().collect::<Vec<_>>(), vec![&(7, "bots")]);
    }
}
