//! The use cases behind the game endpoints: load a game, check who may do what, run the rules
//! engine, let the computer players answer, and commit everything as one versioned write.
//!
//! Everything here is synchronous and runs off the async workers. Nothing is kept in memory
//! between requests: any replica can serve any game.

use std::collections::BTreeSet;

use cardroom_core::{
    AnyEvent, AnyGame, Audience, Automatic, BotLevel, Controller, Events, GameKind, Seat, Seed,
    Status, Viewer,
};
use cardroom_db::account_events::AccountNotice;
use cardroom_db::games::{
    self, Commit, GameRecord, LogEntry, NewDeal, NewIdempotency, Reveal, SeatChange, SeatResult,
    SeatRow, Summary, Tally,
};
use cardroom_db::{AnyConnection, DbError};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::model::{EventOut, GameView, SeatInfo};

mod account;
mod act;
pub mod admin;
pub mod challenges;
pub mod chat;
pub mod export;
mod lobby;
pub mod players;
mod read;
mod recovery;
pub mod rematch;
pub mod seeks;
mod setup;
mod timers;
mod view;

pub use account::{account_events_for, account_snapshot};
pub use act::{Action, act};
pub use lobby::{expire_open_tables, lobby};
pub use read::{
    ChatWanted, EVENTS_PAGE, News, Personal, Revoked, authorize_reader, events_after, list, log,
    personal, personal_without_storage, presence, read_log, score,
};
pub use recovery::{recover, replay, snapshot_of};
pub use setup::{create, join};
pub use timers::{enforce as enforce_timers, reclaim, turn_bounds};
pub use view::view;

use view::{game_view, recent_events, status_name};

/// The format of stored snapshots (`games.state`).
pub const STATE_FORMAT: i32 = 1;
/// The most computer-player steps one request runs; a game still on a computer player's turn
/// after that is finished by the recovery sweep.
const MAX_AUTOPLAY_STEPS: usize = 2000;
/// How many versions back `recent_events` reaches.
const RECENT_VERSIONS: i64 = 12;
/// How many times a join, deal or resignation is retried after losing a version race.
const RETRIES: usize = 5;

/// A stored event with its audience.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct StoredEvent {
    to: Audience,
    event: Value,
}

fn stored<T: Serialize>(events: &[T]) -> Result<String, ApiError> {
    serde_json::to_string(events).map_err(|e| ApiError::Internal(format!("event encoding: {e}")))
}

/// Events of a log entry that `viewer` may see.
/// The events of one stored log entry (version `version`) that `viewer` may see.
pub fn visible_events(
    events_json: &str,
    viewer: Viewer,
    version: i64,
) -> Result<Vec<EventOut>, ApiError> {
    visible(events_json, viewer, version)
}

fn visible(events_json: &str, viewer: Viewer, version: i64) -> Result<Vec<EventOut>, ApiError> {
    let events: Vec<StoredEvent> = serde_json::from_str(events_json)
        .map_err(|e| ApiError::Internal(format!("stored events do not decode: {e}")))?;
    Ok(events
        .into_iter()
        .filter(|e| e.to.includes(viewer))
        .map(|e| EventOut {
            version,
            event: e.event,
        })
        .collect())
}

/// The type of the deadline announcement (see [`is_announcement`]).
const DEADLINE_EVENT: &str = "deadline";

/// Whether an event is one of the service's announcements that ride along with a change's
/// game events (a new deadline), rather than anything the rules produced.
pub fn is_announcement(event: &Value) -> bool {
    event.get("type").and_then(Value::as_str) == Some(DEADLINE_EVENT)
}

/// An event of the service itself (not of a game's rules), for everyone.
fn service_event(event: Value) -> StoredEvent {
    StoredEvent {
        to: Audience::Everyone,
        event,
    }
}

// ---------------------------------------------------------------------------------------------
// Loading and checking.

struct Loaded {
    record: GameRecord,
    game: Option<AnyGame>,
    /// The log's last [`RECENT_VERSIONS`] versions, for the view's recent events.
    recent: Vec<games::RecentEntry>,
    /// People watching the game now.
    spectators: i64,
}

impl Loaded {
    fn id(&self) -> i64 {
        self.record.game.id
    }

    fn version(&self) -> i64 {
        self.record.game.version
    }

    fn kind(&self) -> Result<GameKind, ApiError> {
        self.record
            .game
            .kind
            .parse()
            .map_err(|_| ApiError::Internal(format!("stored kind {}", self.record.game.kind)))
    }

    fn seat_of(&self, caller: &Caller) -> Option<u8> {
        self.record
            .seats
            .iter()
            .find(|s| s.user_id == Some(caller.id))
            .map(|s| s.seat as u8)
    }

    /// The caller's seat, to act from: a bot account acts only through a personal API token.
    fn require_seat(&self, caller: &Caller) -> Result<u8, ApiError> {
        let seat = self
            .seat_of(caller)
            .ok_or_else(|| ApiError::Forbidden("you are not seated at this game".to_owned()))?;
        let bot_account = self
            .record
            .seats
            .iter()
            .any(|s| s.seat == i32::from(seat) && s.bot_account);
        if bot_account {
            bot_needs_token(caller)?;
        }
        Ok(seat)
    }

    /// Who the caller is at the table as a reader: their seat, or a spectator of a public
    /// table; anyone else may not read it.
    fn reader(&self, caller: &Caller) -> Result<Viewer, ApiError> {
        match self.seat_of(caller) {
            Some(seat) => Ok(Viewer::Seat(Seat::new(seat))),
            None if self.record.game.visibility == "public" => Ok(Viewer::Spectator),
            None => Err(ApiError::Forbidden(
                "you are not seated at this game, and it is not public".to_owned(),
            )),
        }
    }

    /// The same game with these changes of who plays its seats (names unchanged).
    fn with_seats(&self, changes: &[SeatChange]) -> Loaded {
        let mut seats = self.record.seats.clone();
        for change in changes {
            if let Some(row) = seats.iter_mut().find(|s| s.seat == change.seat) {
                row.user_id = change.user_id;
                row.bot = change.bot.clone();
                row.timeouts = change.timeouts;
            }
        }
        Loaded {
            record: GameRecord {
                game: self.record.game.clone(),
                seats,
            },
            game: self.game.clone(),
            recent: self.recent.clone(),
            spectators: self.spectators,
        }
    }

    fn started(&self) -> Result<&AnyGame, ApiError> {
        match (&self.game, self.record.game.status.as_str()) {
            (Some(game), _) => Ok(game),
            (None, "abandoned") => Err(ApiError::GameOver("the game was abandoned".to_owned())),
            (None, _) => Err(waiting()),
        }
    }
}

/// A bot account plays only through personal API tokens: refuses its session token.
pub(crate) fn bot_needs_token(caller: &Caller) -> Result<(), ApiError> {
    if caller.credential == crate::auth::Credential::Session {
        return Err(ApiError::Denied {
            code: "bot_needs_token",
            detail: "a bot account plays through its personal API tokens, not a session".to_owned(),
        });
    }
    Ok(())
}

/// Refuses to seat a bot account that signed this request with a session token (a person's
/// session is fine, and any personal API token is).
pub(crate) fn may_sit(conn: &mut AnyConnection, caller: &Caller) -> Result<(), ApiError> {
    if caller.credential != crate::auth::Credential::Session {
        return Ok(());
    }
    let user = cardroom_db::users::by_id(conn, caller.id)?.ok_or_else(|| {
        ApiError::Unauthorized("the account this token names no longer exists".to_owned())
    })?;
    if user.bot {
        bot_needs_token(caller)?;
    }
    Ok(())
}

fn waiting() -> ApiError {
    ApiError::Conflict {
        code: "waiting_for_players",
        detail: "the game waits for players to join".to_owned(),
    }
}

fn load(conn: &mut AnyConnection, id: i64) -> Result<Loaded, ApiError> {
    let games::LoadedGame {
        record,
        recent,
        spectators,
    } = games::load_with_recent(conn, id, RECENT_VERSIONS, crate::presence::since())?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    let game = match &record.game.state {
        None => None,
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| ApiError::Internal(format!("game {id} snapshot: {e}")))?,
        ),
    };
    Ok(Loaded {
        record,
        game,
        recent,
        spectators,
    })
}

/// A listing's page (from 1, default 1) and page size (1 to `max`, default `default`).
fn paging(
    page: Option<i64>,
    per_page: Option<i64>,
    default: i64,
    max: i64,
) -> Result<(i64, i64), ApiError> {
    let page = page.unwrap_or(1);
    if !(1..=1_000_000).contains(&page) {
        return Err(ApiError::Invalid(
            "page must be from 1 to 1000000".to_owned(),
        ));
    }
    let per_page = per_page.unwrap_or(default);
    if !(1..=max).contains(&per_page) {
        return Err(ApiError::Invalid(format!(
            "per_page must be from 1 to {max}"
        )));
    }
    Ok((page, per_page))
}

/// Who plays each seat: a seat with a computer level and a person is the person's, played by
/// the computer while they are away.
fn controllers(seats: &[SeatRow]) -> Vec<Controller> {
    seats
        .iter()
        .map(|s| match s.bot.as_deref().map(str::parse::<BotLevel>) {
            Some(Ok(level)) if s.user_id.is_some() => Controller::Away(level),
            Some(Ok(level)) => Controller::Computer(level),
            _ => Controller::Person,
        })
        .collect()
}

fn seat_infos(seats: &[SeatRow]) -> Vec<SeatInfo> {
    seats
        .iter()
        .map(|s| SeatInfo {
            seat: i64::from(s.seat),
            name: s.name.clone(),
            bot: s.bot.clone(),
            open: s.user_id.is_none() && s.bot.is_none() && s.name.is_none(),
            away: s.user_id.is_some() && s.bot.is_some(),
            timeouts: i64::from(s.timeouts),
            connected: s.connected,
            bot_account: s.bot_account,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Recording changes.

/// Everything one request changes, to be committed at once.
struct Changes {
    entries: Vec<LogEntry>,
    seats: Vec<SeatChange>,
    deals: Vec<NewDeal>,
    reveals: Vec<Reveal>,
    deals_known: u32,
    revealed: BTreeSet<u32>,
    /// The notable events recorded, for the dashboard's counts.
    tally: Tally,
    /// A person leaving for good, to be rated now.
    leaving: Option<games::Leaving>,
}

impl Changes {
    fn new(game: Option<&AnyGame>) -> Changes {
        let (deals_known, revealed) = match game {
            None => (0, BTreeSet::new()),
            Some(g) => {
                let table = g.table();
                let revealed = (0..table.deals())
                    .filter(|&i| table.revealed_seed(i).is_some())
                    .collect();
                (table.deals(), revealed)
            }
        };
        Changes {
            entries: Vec::new(),
            seats: Vec::new(),
            deals: Vec::new(),
            reveals: Vec::new(),
            deals_known,
            revealed,
            tally: Tally::default(),
            leaving: None,
        }
    }

    /// Logs one change; publishes new deals' commitments and ended deals' seeds.
    fn record(
        &mut self,
        game: &AnyGame,
        seat: Option<u8>,
        action: &str,
        payload: Option<Value>,
        events: &Events<AnyEvent>,
    ) -> Result<(), ApiError> {
        let table = game.table();
        for i in self.deals_known..table.deals() {
            if let Some(commitment) = table.commitment(i) {
                self.deals.push(NewDeal {
                    deal: i as i32,
                    hand: table.hand_number() as i32,
                    commitment: hex(&commitment),
                });
            }
        }
        self.deals_known = table.deals();
        for i in 0..table.deals() {
            if let Some(seed) = table.revealed_seed(i)
                && self.revealed.insert(i)
            {
                self.reveals.push(Reveal {
                    deal: i as i32,
                    seed: seed.to_hex(),
                });
            }
        }
        let events = stored(events)?;
        count_notable(&events, &mut self.tally);
        self.entries.push(LogEntry {
            seat: seat.map(i32::from),
            action: action.to_owned(),
            payload: payload.map(|p| p.to_string()),
            events,
        });
        Ok(())
    }

    fn record_service(
        &mut self,
        seat: Option<u8>,
        action: &str,
        event: Value,
    ) -> Result<(), ApiError> {
        self.entries.push(LogEntry {
            seat: seat.map(i32::from),
            action: action.to_owned(),
            payload: None,
            events: stored(&[service_event(event)])?,
        });
        Ok(())
    }

    /// Announces a new deadline with the last entry's events: who must act by when.
    fn announce_deadline(&mut self, summary: &Summary) -> Result<(), ApiError> {
        let (Some(deadline), Some(last)) = (summary.deadline, self.entries.last_mut()) else {
            return Ok(());
        };
        let mut events: Vec<StoredEvent> = serde_json::from_str(&last.events)
            .map_err(|e| ApiError::Internal(format!("stored events do not decode: {e}")))?;
        events.push(service_event(json!({
            "type": DEADLINE_EVENT,
            "seat": summary.to_act.filter(|_| summary.status == "active"),
            "at": deadline.and_utc(),
        })));
        last.events = stored(&events)?;
        Ok(())
    }

    /// The events of the recorded entries that `viewer` may see, numbered from `base + 1`.
    fn visible(&self, base: i64, viewer: Viewer) -> Result<Vec<EventOut>, ApiError> {
        let mut out = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            out.extend(visible(&entry.events, viewer, base + 1 + i as i64)?);
        }
        Ok(out)
    }
}

/// The cards in `seat`'s hand, as that seat's view shows them.
pub(crate) fn hand_of(game: &AnyGame, seat: Seat) -> Vec<String> {
    let view = serde_json::to_value(game.view(Viewer::Seat(seat))).unwrap_or(Value::Null);
    view.get("hand")
        .and_then(Value::as_array)
        .map(|cards| {
            cards
                .iter()
                .filter_map(|c| c.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Lets computer players act (and deal, when no person is seated) until a person must.
fn run_computers(
    game: &mut AnyGame,
    seats: &[SeatRow],
    changes: &mut Changes,
    metrics: &Metrics,
) -> Result<(), ApiError> {
    let controllers = controllers(seats);
    for _ in 0..MAX_AUTOPLAY_STEPS {
        let started = std::time::Instant::now();
        match game.next_automatic(&controllers) {
            None => break,
            Some(Automatic::Move(seat, mv)) => {
                if let Some(Controller::Computer(level) | Controller::Away(level)) =
                    controllers.get(seat.index())
                {
                    metrics.observe_think(game.kind().name(), level.name(), started.elapsed());
                }
                let events = game.play(seat, &mv).map_err(|e| {
                    ApiError::Internal(format!("a computer player's move was refused: {e}"))
                })?;
                Metrics::add(&metrics.computer_moves, 1);
                let payload = serde_json::to_value(&mv).ok();
                changes.record(game, Some(seat.number()), "move", payload, &events)?;
            }
            Some(Automatic::Deal) => {
                let events = game.deal_next().map_err(|e| {
                    ApiError::Internal(format!("the automatic deal was refused: {e}"))
                })?;
                changes.record(game, None, "deal", None, &events)?;
            }
        }
    }
    Ok(())
}

/// The write that abandons a game that never started (its one service entry in `changes`),
/// checked against the version it was loaded at.
fn abandonment(loaded: &Loaded, changes: Changes) -> Commit {
    let summary = summary(None, Some("abandoned"), &loaded.record.seats, None);
    let version = loaded.version() + changes.entries.len() as i64;
    let notices = account_notices(loaded, &loaded.record.seats, &summary, version);
    Commit {
        game_id: loaded.id(),
        expected_version: loaded.version(),
        state: None,
        summary,
        entries: changes.entries,
        seats: Vec::new(),
        deals: Vec::new(),
        reveals: Vec::new(),
        idempotency: None,
        tally: changes.tally,
        leaving: None,
        notices,
    }
}

/// What the people at a table hear on their account streams after a change of the game as
/// `loaded` (seated as `seats` after it) to `summary` at `version`: that it started, that it
/// is their turn (to move, or to deal the next hand), that it is over.
fn account_notices(
    loaded: &Loaded,
    seats: &[SeatRow],
    summary: &Summary,
    version: i64,
) -> Vec<AccountNotice> {
    let row = &loaded.record.game;
    let before = row.status.as_str();
    let now = summary.status.as_str();
    let mut out = Vec::new();
    let mut tell = |user_id: i64, event: Value| {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        out.push(AccountNotice {
            user_id,
            kind,
            data: event.to_string(),
        });
    };
    let game = |kind: &str| {
        json!({"type": kind, "game_id": row.id, "version": version, "kind": row.kind,
               "variant": row.variant})
    };
    let people = || seats.iter().filter_map(|s| s.user_id.map(|u| (u, s)));
    if before == "waiting" && matches!(now, "active" | "hand_over" | "finished") {
        for (user, seat) in people() {
            let mut event = game("game_started");
            event["seat"] = json!(seat.seat);
            tell(user, event);
        }
    }
    match now {
        "active" => {
            let to_act = summary
                .to_act
                .and_then(|s| seats.iter().find(|row| row.seat == s));
            // (A person who is away has a computer playing for them.)
            if let Some(seat) = to_act.filter(|s| s.bot.is_none())
                && let Some(user) = seat.user_id
            {
                let mut event = game("your_turn");
                event["seat"] = json!(seat.seat);
                event["action"] = json!("move");
                tell(user, event);
            }
        }
        "hand_over" if !summary.bot_pending => {
            for (user, seat) in people().filter(|(_, s)| s.bot.is_none()) {
                let mut event = game("your_turn");
                event["seat"] = json!(seat.seat);
                event["action"] = json!("deal");
                tell(user, event);
            }
        }
        "finished" | "abandoned" if before != now => {
            for (user, seat) in people() {
                let mut event = game("game_over");
                event["seat"] = json!(seat.seat);
                event["status"] = json!(now);
                event["winners"] = summary
                    .winners
                    .as_deref()
                    .and_then(|w| serde_json::from_str(w).ok())
                    .unwrap_or(Value::Null);
                tell(user, event);
            }
        }
        _ => {}
    }
    out
}

/// The listing columns of a game after a change; `turn_seconds` is the table's turn timer.
fn summary(
    game: Option<&AnyGame>,
    status_override: Option<&str>,
    seats: &[SeatRow],
    turn_seconds: Option<i32>,
) -> Summary {
    let Some(game) = game else {
        return Summary {
            status: status_override.unwrap_or("waiting").to_owned(),
            hands: 0,
            moves: 0,
            winners: None,
            end_reason: None,
            finished: status_override == Some("abandoned"),
            to_act: None,
            bot_pending: false,
            deadline: None,
            results: Vec::new(),
        };
    };
    let table = game.table();
    let status = match table.status() {
        Status::Active => "active",
        Status::HandOver => "hand_over",
        Status::Finished => "finished",
    };
    let outcome = table.outcome();
    Summary {
        status: status.to_owned(),
        hands: table.hand_number() as i32,
        moves: table.moves() as i32,
        winners: outcome.map(|o| json!(o.winners).to_string()),
        end_reason: outcome.map(|o| o.reason.name().to_owned()),
        finished: table.status() == Status::Finished,
        to_act: game.to_act().map(|s| i32::from(s.number())),
        bot_pending: game.next_automatic(&controllers(seats)).is_some(),
        deadline: turn_seconds.and_then(|seconds| deadline(game, seats, seconds)),
        results: results(game, seats),
    }
}

/// When a timed table's person runs out of time: `seconds` from now, while a person is to act
/// (or, between hands, to deal); none while the computers are to act or the game is over.
fn deadline(game: &AnyGame, seats: &[SeatRow], seconds: i32) -> Option<chrono::NaiveDateTime> {
    let controllers = controllers(seats);
    let waits_for_person = match game.table().status() {
        Status::Finished => false,
        // (Cheap between hands: no computer player thinks.)
        Status::HandOver => game.next_automatic(&controllers).is_none(),
        Status::Active => game
            .to_act()
            .is_some_and(|seat| controllers.get(seat.index()) == Some(&Controller::Person)),
    };
    waits_for_person.then(|| cardroom_db::now() + chrono::TimeDelta::seconds(i64::from(seconds)))
}

/// Adds the notable events among `events_json` (stored events) to `tally`: basras, knocks,
/// hands ended by 31, Tarneeb contracts made and set.
fn count_notable(events_json: &str, tally: &mut Tally) {
    let Ok(events) = serde_json::from_str::<Vec<StoredEvent>>(events_json) else {
        return;
    };
    for StoredEvent { event, .. } in events {
        match event.get("type").and_then(Value::as_str) {
            Some("played") if event.get("basra").is_some() => tally.basras += 1,
            Some("knocked") => tally.knocks += 1,
            Some("showdown")
                if event
                    .get("thirty_one")
                    .and_then(Value::as_array)
                    .is_some_and(|seats| !seats.is_empty()) =>
            {
                tally.thirty_ones += 1
            }
            Some("hand_scored") => {
                let lines = event.get("lines").and_then(Value::as_array);
                let contract = lines
                    .into_iter()
                    .flatten()
                    .find(|line| line.get("item").and_then(Value::as_str) == Some("contract"));
                match contract
                    .and_then(|line| line.get("made"))
                    .and_then(Value::as_bool)
                {
                    Some(true) => tally.contracts_made += 1,
                    Some(false) => tally.contracts_set += 1,
                    None => {}
                }
            }
            _ => {}
        }
    }
}

/// Every seat's result once a game is finished: its side, and whether that side won.
fn results(game: &AnyGame, seats: &[SeatRow]) -> Vec<SeatResult> {
    let table = game.table();
    let Some(outcome) = table.outcome() else {
        return Vec::new();
    };
    seats
        .iter()
        .filter_map(|row| {
            let seat = Seat::new(u8::try_from(row.seat).ok()?);
            let side = table.sides().side_of(seat);
            Some(SeatResult {
                seat: row.seat,
                user_id: row.user_id,
                bot: row.bot.clone(),
                side: i32::from(side),
                won: outcome.winners.contains(&side),
            })
        })
        .collect()
}

fn snapshot(game: &AnyGame) -> Result<String, ApiError> {
    serde_json::to_string(game).map_err(|e| ApiError::Internal(format!("snapshot encoding: {e}")))
}

fn with_retries<T>(
    metrics: &Metrics,
    mut attempt: impl FnMut() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut last = None;
    for _ in 0..RETRIES {
        match attempt() {
            Err(ApiError::VersionConflict { current }) => {
                Metrics::add(&metrics.version_conflicts, 1);
                last = Some(current);
            }
            other => return other,
        }
    }
    Err(ApiError::VersionConflict {
        current: last.unwrap_or(0),
    })
}

/// Commits the changes to `loaded` and builds the view `viewer` gets back. On a lost race,
/// `VersionConflict` with the game's current version.
fn commit_and_view(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    game: AnyGame,
    changes: Changes,
    idempotency: Option<(i64, String, String)>,
    viewer: Viewer,
    metrics: &Metrics,
) -> Result<(Vec<EventOut>, GameView), ApiError> {
    let mut changes = changes;
    let base = loaded.version();
    let new_version = base + changes.entries.len() as i64;
    let summary = summary(
        Some(&game),
        None,
        &loaded.record.seats,
        loaded.record.game.turn_seconds,
    );
    changes.announce_deadline(&summary)?;
    let events = changes.visible(base, viewer)?;
    let recent = recent_events(loaded, viewer, events.clone())?;
    let status = status_name(&loaded.record, Some(&game));
    let mut view = game_view(
        loaded,
        &loaded.record.seats,
        Some(&game),
        &status,
        viewer,
        new_version,
        recent,
        summary.deadline,
    )?;
    if status == "finished" {
        // The game ends with this change: nobody has asked for a rematch yet.
        view.rematch = Some(rematch::state_from(&[], &loaded.record.seats));
    }
    let idempotency = match idempotency {
        None => None,
        Some((user_id, key, request_hash)) => {
            let body = action_body(&events, &view)?;
            Some(NewIdempotency {
                user_id,
                key,
                request_hash,
                status: 200,
                body,
            })
        }
    };
    let notices = account_notices(loaded, &loaded.record.seats, &summary, new_version);
    let change = Commit {
        game_id: loaded.id(),
        expected_version: base,
        state: Some(snapshot(&game)?),
        summary,
        entries: changes.entries,
        seats: changes.seats,
        deals: changes.deals,
        reveals: changes.reveals,
        idempotency,
        tally: changes.tally,
        leaving: changes.leaving,
        notices,
    };
    match games::commit(conn, &change) {
        Ok(_) => Ok((events, view)),
        Err(DbError::VersionConflict) => {
            Metrics::add(&metrics.version_conflicts, 1);
            let current = games::version(conn, loaded.id())?.unwrap_or(base);
            Err(ApiError::VersionConflict { current })
        }
        Err(other) => Err(other.into()),
    }
}

/// Commits a change made in the background (computers answering, a timeout) to the game as
/// `loaded`, with the seats as they are after it: the summary, the deadline's announcement and
/// the versioned write. A lost race is `VersionConflict`.
fn commit_background(
    conn: &mut AnyConnection,
    loaded: &Loaded,
    game: &AnyGame,
    seats: &[SeatRow],
    mut changes: Changes,
) -> Result<(), ApiError> {
    let summary = summary(Some(game), None, seats, loaded.record.game.turn_seconds);
    changes.announce_deadline(&summary)?;
    let version = loaded.version() + changes.entries.len() as i64;
    let notices = account_notices(loaded, seats, &summary, version);
    let change = Commit {
        game_id: loaded.id(),
        expected_version: loaded.version(),
        state: Some(snapshot(game)?),
        summary,
        entries: changes.entries,
        seats: changes.seats,
        deals: changes.deals,
        reveals: changes.reveals,
        idempotency: None,
        tally: changes.tally,
        leaving: changes.leaving,
        notices,
    };
    match games::commit(conn, &change) {
        Ok(_) => Ok(()),
        Err(DbError::VersionConflict) => Err(ApiError::VersionConflict {
            current: loaded.version(),
        }),
        Err(other) => Err(other.into()),
    }
}

/// The body of the answer to an action: its events and the new view, encoded straight from
/// them (not through a `Value` tree).
fn action_body(events: &[EventOut], view: &GameView) -> Result<String, ApiError> {
    #[derive(serde::Serialize)]
    struct Body<'a> {
        events: &'a [EventOut],
        view: &'a GameView,
    }
    serde_json::to_string(&Body { events, view })
        .map_err(|e| ApiError::Internal(format!("response encoding: {e}")))
}

/// A random code of `length` letters and digits (no look-alikes).
pub fn random_code(length: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..length)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn random_seed() -> Seed {
    let mut bytes = [0u8; 32];
    rand::rng().fill(&mut bytes);
    Seed::from_bytes(bytes)
}
