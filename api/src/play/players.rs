//! Profiles and leaderboards: public, like the lobby's game list at any card club.

use cardroom_core::GameKind;
use cardroom_db::AnyConnection;
use cardroom_db::ratings::{self, POOLS, RatingRow};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;

/// A rating whose deviation is above this is provisional: too few games to trust it.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// How many rating changes and recent games a profile shows.
const PROFILE_HISTORY: i64 = 200;
const PROFILE_GAMES: i64 = 20;

/// `GET /players/{name}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub name: String,
    pub guest: bool,
    /// A bot account: a program playing through API tokens, rated in the `bots` pool.
    pub bot: bool,
    pub member_since: DateTime<Utc>,
    /// Finished real games per kind.
    pub records: Vec<KindStats>,
    /// Glicko-2 ratings per kind and pool (guests are not rated).
    pub ratings: Vec<RatingOut>,
    /// The rating changes, oldest first (the last 200).
    pub history: Vec<RatingChange>,
    /// The last 20 finished real games, newest first.
    pub recent_games: Vec<PlayedGameOut>,
}

/// A person's record in one game kind.
#[derive(Debug, Serialize, ToSchema)]
pub struct KindStats {
    pub kind: GameKind,
    pub games: i64,
    pub wins: i64,
    /// Wins over games, 0 to 1.
    pub win_rate: f64,
}

/// A rating in one game kind and pool.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingOut {
    pub kind: GameKind,
    /// `people` (rated games against people) or `computers` (against computer levels).
    pub pool: String,
    pub rating: f64,
    /// Glicko-2's rating deviation: about 95% sure the strength is within twice this.
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in this pool.
    pub games: i64,
    /// The deviation is still above 110.
    pub provisional: bool,
}

/// One rated game's change to a rating.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingChange {
    pub kind: GameKind,
    pub pool: String,
    pub game_id: i64,
    pub before: f64,
    pub rating: f64,
    pub deviation: f64,
    pub at: DateTime<Utc>,
}

/// A finished game in a profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayedGameOut {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub won: bool,
    pub finished_at: Option<DateTime<Utc>>,
}

/// Query of `GET /leaderboards/{kind}`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// `people` (the default), `computers`, or `bots` (bot accounts, and people's games
    /// against them).
    #[param(pattern = "^(people|computers|bots)$")]
    pub pool: Option<String>,
    /// Only people with at least this many rated games (0 to 10000, default 1).
    #[param(minimum = 0, maximum = 10000)]
    pub min_games: Option<i64>,
    /// From 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// 1–100, default 50.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// `GET /leaderboards/{kind}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    pub kind: GameKind,
    pub pool: String,
    /// Best first: by the rating less twice its deviation, a strength the board is sure of.
    pub standings: Vec<StandingOut>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
}

/// A row of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingOut {
    /// From 1, over the whole board.
    pub rank: i64,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    pub provisional: bool,
}

fn rating_out(row: RatingRow) -> RatingOut {
    RatingOut {
        provisional: row.deviation > PROVISIONAL_DEVIATION,
        kind: row.kind,
        pool: row.pool,
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
        games: i64::from(row.games),
    }
}

/// `GET /players/{name}`.
pub fn profile(conn: &mut AnyConnection, name: &str) -> Result<Profile, ApiError> {
    crate::input::text("name", name)?;
    let user = cardroom_db::users::by_name(conn, name)?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "there is no player `{}`",
            name.chars().take(32).collect::<String>()
        ))
    })?;
    let records = ratings::records(conn, user.id)?
        .into_iter()
        .map(|r| KindStats {
            win_rate: if r.games == 0 {
                0.0
            } else {
                r.wins as f64 / r.games as f64
            },
            kind: r.kind,
            games: r.games,
            wins: r.wins,
        })
        .collect();
    let history = ratings::history(conn, user.id, PROFILE_HISTORY)?
        .into_iter()
        .map(|h| RatingChange {
            kind: h.kind,
            pool: h.pool,
            game_id: h.game_id.get(),
            before: h.before,
            rating: h.rating,
            deviation: h.deviation,
            at: h.at.and_utc(),
        })
        .collect();
    let recent_games = ratings::recent_games(conn, user.id, PROFILE_GAMES)?
        .into_iter()
        .map(|g| PlayedGameOut {
            id: g.game_id.get(),
            kind: g.kind,
            variant: g.variant,
            won: g.won,
            finished_at: g.finished_at.map(|t| t.and_utc()),
        })
        .collect();
    Ok(Profile {
        name: user.name,
        guest: user.guest,
        bot: user.bot,
        member_since: user.created_at.and_utc(),
        records,
        ratings: ratings::of_user(conn, user.id)?
            .into_iter()
            .filter(|r| r.games > 0)
            .map(rating_out)
            .collect(),
        history,
        recent_games,
    })
}

/// `GET /leaderboards/{kind}`.
pub fn leaderboard(
    conn: &mut AnyConnection,
    kind: &str,
    query: &LeaderboardQuery,
) -> Result<Leaderboard, ApiError> {
    let kind: GameKind = kind.parse().map_err(|_| {
        ApiError::NotFound(format!(
            "there is no game kind `{}`; the kinds are basra, thirty_one, rummy, tarneeb",
            kind.chars().take(32).collect::<String>()
        ))
    })?;
    let pool = query.pool.as_deref().unwrap_or("people");
    let Some(pool) = POOLS.into_iter().find(|p| *p == pool) else {
        return Err(ApiError::Invalid(
            "pool must be `people`, `computers` or `bots`".to_owned(),
        ));
    };
    let min_games = query.min_games.unwrap_or(1);
    if !(0..=10_000).contains(&min_games) {
        return Err(ApiError::Invalid(
            "min_games must be from 0 to 10000".to_owned(),
        ));
    }
    let (page, per_page) = super::paging::paging(query.page, query.per_page, 50, 100)?;
    let (rows, total) = ratings::leaderboard(conn, kind, pool, min_games as i32, page, per_page)?;
    let first_rank = (page - 1) * per_page + 1;
    let standings = rows
        .into_iter()
        .zip(first_rank..)
        .map(|(standing, rank)| StandingOut {
            rank,
            name: standing.name,
            rating: standing.rating.rating,
            deviation: standing.rating.deviation,
            games: i64::from(standing.rating.games),
            provisional: standing.rating.deviation > PROVISIONAL_DEVIATION,
        })
        .collect();
    Ok(Leaderboard {
        kind,
        pool: pool.to_owned(),
        standings,
        page,
        per_page,
        total,
    })
}
