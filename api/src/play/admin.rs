//! What only admins may do: browse every game, see any game whole (state, log, seeds), replay
//! it step by step with every hand shown, read the dashboard's statistics, promote users.
//! The caller's role is checked here, so no route can forget it.

use cardroom_db::GameId;
use chrono::{Duration, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use cardroom_core::{BotLevel, GameKind, Seat, Viewer};
use cardroom_db::GameStatus;
use cardroom_db::admin::{self, GameFilter, StatsQuery};
use cardroom_db::{AnyConnection, games, users};

use super::access::admin_only;
use super::loaded::load;
use super::seats::seat_infos;
use crate::auth::{Caller, Role};
use crate::error::{ApiError, ProblemCode};
use crate::model::{SeatInfo, UserInfo};

/// Query of `GET /admin/games`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AdminGamesQuery {
    pub kind: Option<GameKind>,
    pub variant: Option<String>,
    /// `waiting`, `active`, `hand_over`, `finished` or `abandoned`.
    #[param(pattern = "^(waiting|active|hand_over|finished|abandoned)$")]
    pub status: Option<String>,
    /// A player's name: games where they hold a seat.
    pub player: Option<String>,
    /// Only practice games (`true`) or only real ones (`false`).
    pub practice: Option<bool>,
    /// Only the games of this tournament.
    #[param(minimum = 1)]
    pub tournament: Option<i64>,
    /// Created on or after this day (`YYYY-MM-DD`, UTC).
    #[param(format = Date)]
    pub from: Option<String>,
    /// Created on or before this day (`YYYY-MM-DD`, UTC).
    #[param(format = Date)]
    pub to: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    /// 1–200, default 50.
    #[param(minimum = 1, maximum = 200)]
    pub per_page: Option<i64>,
}

/// A game in the admin's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminGameSummary {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    #[schema(value_type = crate::model::GameStatusName)]
    pub status: GameStatus,
    pub practice: bool,
    pub seats: Vec<SeatInfo>,
    pub hands: i64,
    pub moves: i64,
    pub version: i64,
    pub created_at: chrono::DateTime<Utc>,
    pub updated_at: chrono::DateTime<Utc>,
    pub finished_at: Option<chrono::DateTime<Utc>>,
    /// The winning sides, once finished.
    pub winners: Option<Vec<i64>>,
    /// The seats of each side (a side's index is its place here), so that `winners` can be
    /// told by name.
    pub sides: Vec<Vec<i64>>,
    pub end_reason: Option<String>,
    pub basras: i64,
    pub knocks: i64,
    pub thirty_ones: i64,
    pub contracts_made: i64,
    pub contracts_set: i64,
}

/// A page of the history.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminGameList {
    pub games: Vec<AdminGameSummary>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
}

/// One deal of a game, with its seed whether or not the hand is over.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminDeal {
    pub deal: i64,
    pub hand: i64,
    pub commitment: String,
    /// The deal's seed, once its hand is over and it is revealed.
    pub seed: Option<String>,
}

/// One log entry with every event, whoever could see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminLogEntry {
    pub seq: i64,
    pub seat: Option<i64>,
    pub action: String,
    #[serde(rename = "move")]
    pub payload: Option<Value>,
    /// Each event with its audience (`to`).
    pub events: Value,
    pub created_at: chrono::DateTime<Utc>,
}

/// A game whole: everything stored about it, unredacted.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminGame {
    pub game: AdminGameSummary,
    pub options: Value,
    /// The game seed (64 hex digits) from which every deal's seed is derived.
    pub seed: String,
    pub deck: Option<Value>,
    /// The full snapshot: every hand, the stock's order.
    pub state: Option<Value>,
    pub deals: Vec<AdminDeal>,
    pub log: Vec<AdminLogEntry>,
}

/// The table after one log entry, every hand shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    pub seq: i64,
    pub action: String,
    pub seat: Option<i64>,
    #[serde(rename = "move")]
    pub payload: Option<Value>,
    /// The hand being played (0 before the first deal).
    pub hand: i64,
    #[schema(value_type = crate::model::GameStatusName)]
    pub status: GameStatus,
    /// Every seat's hand.
    pub hands: Vec<Vec<String>>,
    /// The table as a spectator sees it: everything public.
    pub table: Value,
    /// The events of this entry (for everyone and for each seat).
    pub events: Value,
}

/// A game replayed from its stored seed and log.
#[derive(Debug, Serialize, ToSchema)]
pub struct Replay {
    pub id: i64,
    pub kind: GameKind,
    pub variant: String,
    pub seats: Vec<SeatInfo>,
    pub deals: Vec<AdminDeal>,
    pub steps: Vec<ReplayStep>,
}

/// `POST /admin/users/{name}/role`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleRequest {
    /// `player` or `admin`.
    #[schema(pattern = "^(player|admin)$")]
    pub role: String,
}

/// Query of `GET /admin/stats`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StatsParams {
    /// First day (`YYYY-MM-DD`, UTC); default 29 days before `to`.
    #[param(format = Date)]
    pub from: Option<String>,
    /// Last day, included (`YYYY-MM-DD`, UTC); default today.
    #[param(format = Date)]
    pub to: Option<String>,
    pub kind: Option<GameKind>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayCount {
    pub day: String,
    pub kind: GameKind,
    pub games: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KindTotals {
    pub kind: GameKind,
    /// Finished real games in the range.
    pub games: i64,
    pub average_moves: f64,
    pub average_hands: f64,
    pub average_seconds: f64,
    pub basras: i64,
    pub knocks: i64,
    pub thirty_ones: i64,
    pub contracts_made: i64,
    pub contracts_set: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LevelResults {
    pub kind: GameKind,
    /// The computer level.
    #[schema(value_type = String)]
    pub level: BotLevel,
    /// Finished games with a person against this level.
    pub games: i64,
    pub human_wins: i64,
    pub computer_wins: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayPlayers {
    pub day: String,
    /// People who made at least one move that day.
    pub players: i64,
}

/// The dashboard's aggregates over a range of days; practice games never count.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stats {
    pub from: String,
    pub to: String,
    pub kind: Option<GameKind>,
    pub started: Vec<DayCount>,
    pub finished: Vec<DayCount>,
    pub kinds: Vec<KindTotals>,
    pub levels: Vec<LevelResults>,
    pub active_players: Vec<DayPlayers>,
}

fn day(text: &str, what: &str) -> Result<NaiveDate, ApiError> {
    crate::input::day(what, text)
}

fn start_of(date: NaiveDate) -> NaiveDateTime {
    date.and_hms_opt(0, 0, 0).unwrap_or_default()
}

/// A stored game's sides, from its kind, variant, seat count and options (every seat its own
/// side should the stored configuration no longer parse).
fn sides_of(row: &games::GameRow, seats: usize) -> Vec<Vec<i64>> {
    let configured = serde_json::from_str(&row.options)
        .ok()
        .and_then(|options| row.kind.sides(Some(&row.variant), seats, &options).ok());
    match configured {
        Some(sides) => sides
            .all()
            .into_iter()
            .map(|side| side.into_iter().map(|s| s.index() as i64).collect())
            .collect(),
        None => (0..seats as i64).map(|s| vec![s]).collect(),
    }
}

fn summary(row: &games::GameRow, seats: &[games::SeatRow]) -> AdminGameSummary {
    AdminGameSummary {
        id: row.id.get(),
        kind: row.kind,
        variant: row.variant.clone(),
        status: row.status,
        practice: row.practice,
        seats: seat_infos(seats),
        hands: i64::from(row.hands),
        moves: i64::from(row.moves),
        version: row.version,
        created_at: row.created_at.and_utc(),
        updated_at: row.updated_at.and_utc(),
        finished_at: row.finished_at.map(|t| t.and_utc()),
        winners: row
            .winners
            .as_deref()
            .and_then(|w| serde_json::from_str(w).ok()),
        sides: sides_of(row, seats.len()),
        end_reason: row.end_reason.clone(),
        basras: i64::from(row.basras),
        knocks: i64::from(row.knocks),
        thirty_ones: i64::from(row.thirty_ones),
        contracts_made: i64::from(row.contracts_made),
        contracts_set: i64::from(row.contracts_set),
    }
}

pub fn list(
    conn: &mut AnyConnection,
    caller: &Caller,
    query: &AdminGamesQuery,
) -> Result<AdminGameList, ApiError> {
    admin_only(conn, caller)?;
    let status = query
        .status
        .as_deref()
        .map(crate::input::status)
        .transpose()?;
    for (field, value) in [("variant", &query.variant), ("player", &query.player)] {
        if let Some(value) = value {
            crate::input::text(field, value)?;
        }
    }
    let (page, per_page) = super::paging::paging(query.page, query.per_page, 50, 200)?;
    let from = query.from.as_deref().map(|d| day(d, "from")).transpose()?;
    let to = query.to.as_deref().map(|d| day(d, "to")).transpose()?;
    let filter = GameFilter {
        kind: query.kind,
        variant: query.variant.clone(),
        status,
        player: query.player.clone(),
        practice: query.practice,
        from: from.map(start_of),
        to: to.and_then(|d| d.succ_opt()).map(start_of),
        tournament: query.tournament,
    };
    let (rows, total) = admin::list_games(conn, &filter, page, per_page)?;
    Ok(AdminGameList {
        games: rows.iter().map(|r| summary(&r.game, &r.seats)).collect(),
        page,
        per_page,
        total,
    })
}

fn admin_deals(conn: &mut AnyConnection, id: GameId) -> Result<Vec<AdminDeal>, ApiError> {
    Ok(games::deals(conn, id)?
        .into_iter()
        .map(|d| AdminDeal {
            deal: i64::from(d.deal),
            hand: i64::from(d.hand),
            commitment: d.commitment,
            seed: d.seed,
        })
        .collect())
}

fn parse_json(text: Option<&str>) -> Option<Value> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

pub fn game(conn: &mut AnyConnection, caller: &Caller, id: GameId) -> Result<AdminGame, ApiError> {
    admin_only(conn, caller)?;
    let loaded = load(conn, id)?;
    let row = &loaded.record.game;
    let deals = admin_deals(conn, id)?;
    let mut log = Vec::new();
    let mut after = 0;
    loop {
        let rows = games::log_after(conn, id, after, 1000)?;
        let Some(last) = rows.last() else { break };
        after = last.seq;
        log.extend(rows.into_iter().map(|r| AdminLogEntry {
            seq: r.seq,
            seat: r.seat.map(i64::from),
            action: r.action,
            payload: parse_json(r.payload.as_deref()),
            events: parse_json(Some(&r.events)).unwrap_or(Value::Null),
            created_at: r.created_at.and_utc(),
        }));
    }
    Ok(AdminGame {
        game: summary(row, &loaded.record.seats),
        options: parse_json(Some(&row.options)).unwrap_or(Value::Null),
        seed: row.seed.clone(),
        deck: parse_json(row.deck.as_deref()),
        state: parse_json(row.state.as_deref()),
        deals,
        log,
    })
}

/// Replays the game from its stored seed, deck and log, recording after each entry every
/// seat's hand and the public table.
pub fn replay(conn: &mut AnyConnection, caller: &Caller, id: GameId) -> Result<Replay, ApiError> {
    admin_only(conn, caller)?;
    let loaded = load(conn, id)?;
    let mut steps = Vec::new();
    super::recovery::replay_each(conn, id, |entry, game| {
        let (hand, status, hands, table) = match game {
            None => (0, GameStatus::Waiting, Vec::new(), Value::Null),
            Some(g) => (
                i64::from(g.table().hand_number()),
                super::changes::of_rules(g.table().status()),
                (0..g.table().seats())
                    .map(|s| super::seats::hand_of(g, Seat::new(s)))
                    .collect(),
                serde_json::to_value(g.view(Viewer::Spectator)).unwrap_or(Value::Null),
            ),
        };
        steps.push(ReplayStep {
            seq: entry.seq,
            action: entry.action.clone(),
            seat: entry.seat.map(i64::from),
            payload: parse_json(entry.payload.as_deref()),
            hand,
            status,
            hands,
            table,
            events: parse_json(Some(&entry.events)).unwrap_or(Value::Null),
        });
        Ok(())
    })?;
    let row = &loaded.record.game;
    let deals = admin_deals(conn, id)?;
    Ok(Replay {
        id: id.get(),
        kind: row.kind,
        variant: row.variant.clone(),
        seats: seat_infos(&loaded.record.seats),
        deals,
        steps,
    })
}

pub fn set_role(
    conn: &mut AnyConnection,
    caller: &Caller,
    name: &str,
    request: &RoleRequest,
) -> Result<UserInfo, ApiError> {
    admin_only(conn, caller)?;
    crate::input::text("name", name)?;
    let role = Role::parse(&request.role)
        .ok_or_else(|| ApiError::Invalid("role must be player or admin".to_owned()))?;
    let user = users::by_name(conn, name)?
        .ok_or_else(|| ApiError::NotFound(format!("there is no user {name:?}")))?;
    if user.id == caller.id && role != Role::Admin {
        return Err(ApiError::Conflict {
            code: ProblemCode::LastAdminGuard,
            detail: "admins cannot demote themselves; ask another admin".to_owned(),
        });
    }
    users::set_role(conn, user.id, role.name())?;
    Ok(UserInfo {
        id: user.id,
        name: user.name,
        role: role.name().to_owned(),
        guest: user.guest,
        bot: user.bot,
    })
}

pub fn stats(
    conn: &mut AnyConnection,
    caller: &Caller,
    params: &StatsParams,
) -> Result<Stats, ApiError> {
    admin_only(conn, caller)?;
    let to = match &params.to {
        Some(text) => day(text, "to")?,
        None => Utc::now().date_naive(),
    };
    let from = match &params.from {
        Some(text) => day(text, "from")?,
        None => to - Duration::days(29),
    };
    if from > to {
        return Err(ApiError::Invalid("from must not be after to".to_owned()));
    }
    if (to - from).num_days() > 3660 {
        return Err(ApiError::Invalid(
            "the range is at most ten years".to_owned(),
        ));
    }
    let kind = params.kind;
    let query = StatsQuery {
        from: start_of(from),
        to: start_of(to.succ_opt().unwrap_or(to)),
        kind,
    };
    let stats = admin::stats(conn, &query)?;
    Ok(Stats {
        from: from.to_string(),
        to: to.to_string(),
        kind,
        started: stats
            .started
            .into_iter()
            .map(|d| DayCount {
                day: d.day,
                kind: d.kind,
                games: d.games,
            })
            .collect(),
        finished: stats
            .finished
            .into_iter()
            .map(|d| DayCount {
                day: d.day,
                kind: d.kind,
                games: d.games,
            })
            .collect(),
        kinds: stats
            .kinds
            .into_iter()
            .map(|k| KindTotals {
                kind: k.kind,
                games: k.games,
                average_moves: k.average_moves.unwrap_or(0.0),
                average_hands: k.average_hands.unwrap_or(0.0),
                average_seconds: k.average_seconds.unwrap_or(0.0),
                basras: k.basras,
                knocks: k.knocks,
                thirty_ones: k.thirty_ones,
                contracts_made: k.contracts_made,
                contracts_set: k.contracts_set,
            })
            .collect(),
        levels: stats
            .levels
            .into_iter()
            .map(|l| LevelResults {
                kind: l.kind,
                level: l.level,
                games: l.games,
                human_wins: l.human_wins,
                computer_wins: l.computer_wins,
            })
            .collect(),
        active_players: stats
            .active_players
            .into_iter()
            .map(|d| DayPlayers {
                day: d.day,
                players: d.players,
            })
            .collect(),
    })
}
