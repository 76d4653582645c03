//! What one request changes, recorded to be committed at once: log entries, seats, deals and
//! their seeds, the computer players' answers, the listing columns, and what the people at the
//! table hear on their account streams.

use std::collections::BTreeSet;

use cardroom_core::{
    AnyEvent, AnyGame, Automatic, BotLevel, Controller, Events, Seat, Status, Viewer,
};
use cardroom_db::GameStatus;
use cardroom_db::account_events::AccountNotice;
use cardroom_db::games::{
    self, Commit, LogEntry, NewDeal, Reveal, SeatChange, SeatResult, SeatRow, Summary, Tally,
};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::events::{StoredEvent, service_event, stored, visible};
use crate::metrics::Metrics;
use crate::model::{AccountEvent, AccountGame, EventOut, ServiceEvent, TakeoverReason, TurnAction};

use super::loaded::Loaded;
use super::seats::controllers;

/// The most computer-player steps one request runs; a game still on a computer player's turn
/// after that is finished by the recovery sweep.
const MAX_AUTOPLAY_STEPS: usize = 2000;

/// Everything one request changes, to be committed at once.
pub(super) struct Changes {
    pub(super) entries: Vec<LogEntry>,
    pub(super) seats: Vec<SeatChange>,
    pub(super) deals: Vec<NewDeal>,
    pub(super) reveals: Vec<Reveal>,
    pub(super) deals_known: u32,
    pub(super) revealed: BTreeSet<u32>,
    /// The notable events recorded, for the dashboard's counts.
    pub(super) tally: Tally,
    /// A person leaving for good, to be rated now.
    pub(super) leaving: Option<games::Leaving>,
}

impl Changes {
    pub(super) fn new(game: Option<&AnyGame>) -> Changes {
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
    pub(super) fn record(
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

    pub(super) fn record_service(
        &mut self,
        seat: Option<u8>,
        action: &str,
        event: ServiceEvent,
    ) -> Result<(), ApiError> {
        self.entries.push(LogEntry {
            seat: seat.map(i32::from),
            action: action.to_owned(),
            payload: None,
            events: stored(&[service_event(&event)?])?,
        });
        Ok(())
    }

    /// A computer player at `level` plays `seat` from now on, for `reason`.
    pub(super) fn record_takeover(
        &mut self,
        seat: Seat,
        level: BotLevel,
        reason: TakeoverReason,
    ) -> Result<(), ApiError> {
        self.record_service(
            Some(seat.number()),
            "seat_to_computer",
            ServiceEvent::SeatToComputer {
                seat: i64::from(seat.number()),
                level,
                reason: Some(reason),
            },
        )
    }

    /// Announces a new deadline with the last entry's events: who must act by when.
    pub(super) fn announce_deadline(&mut self, summary: &Summary) -> Result<(), ApiError> {
        let (Some(deadline), Some(last)) = (summary.deadline, self.entries.last_mut()) else {
            return Ok(());
        };
        let mut events: Vec<StoredEvent> = serde_json::from_str(&last.events)
            .map_err(ApiError::because("stored events do not decode"))?;
        events.push(service_event(&ServiceEvent::Deadline {
            seat: summary
                .to_act
                .filter(|_| summary.status == GameStatus::Active)
                .map(i64::from),
            at: deadline.and_utc(),
        })?);
        last.events = stored(&events)?;
        Ok(())
    }

    /// The events of the recorded entries that `viewer` may see, numbered from `base + 1`.
    pub(super) fn visible(&self, base: i64, viewer: Viewer) -> Result<Vec<EventOut>, ApiError> {
        let mut out = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            out.extend(visible(&entry.events, viewer, base + 1 + i as i64)?);
        }
        Ok(out)
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Lets computer players act (and deal, when no person is seated) until a person must.
pub(super) fn run_computers(
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
                let events = game
                    .play(seat, &mv)
                    .map_err(ApiError::because("a computer player's move was refused"))?;
                Metrics::add(&metrics.computer_moves, 1);
                let payload = serde_json::to_value(&mv).ok();
                changes.record(game, Some(seat.number()), "move", payload, &events)?;
            }
            Some(Automatic::Deal) => {
                let events = game
                    .deal_next()
                    .map_err(ApiError::because("the automatic deal was refused"))?;
                changes.record(game, None, "deal", None, &events)?;
            }
        }
    }
    Ok(())
}

/// The write that abandons a game that never started (its one service entry in `changes`),
/// checked against the version it was loaded at.
pub(super) fn abandonment(loaded: &Loaded, changes: Changes) -> Commit {
    let summary = summary(
        None,
        Some(GameStatus::Abandoned),
        &loaded.record.seats,
        None,
    );
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
pub(super) fn account_notices(
    loaded: &Loaded,
    seats: &[SeatRow],
    summary: &Summary,
    version: i64,
) -> Vec<AccountNotice> {
    let row = &loaded.record.game;
    let before = row.status;
    let now = summary.status;
    let mut out = Vec::new();
    let game = |seat: &SeatRow| AccountGame {
        game_id: row.id.get(),
        version,
        kind: row.kind,
        variant: row.variant.clone(),
        seat: i64::from(seat.seat),
    };
    let people = || seats.iter().filter_map(|s| s.user_id.map(|u| (u, s)));
    if before == GameStatus::Waiting && now != GameStatus::Waiting && now != GameStatus::Abandoned {
        for (user, seat) in people() {
            out.push(AccountEvent::GameStarted { game: game(seat) }.notice(user));
        }
    }
    match now {
        GameStatus::Active => {
            let to_act = summary
                .to_act
                .and_then(|s| seats.iter().find(|row| row.seat == s));
            // (A person who is away has a computer playing for them.)
            if let Some(seat) = to_act.filter(|s| s.bot.is_none())
                && let Some(user) = seat.user_id
            {
                let event = AccountEvent::YourTurn {
                    game: game(seat),
                    action: TurnAction::Move,
                };
                out.push(event.notice(user));
            }
        }
        GameStatus::HandOver if !summary.bot_pending => {
            for (user, seat) in people().filter(|(_, s)| s.bot.is_none()) {
                let event = AccountEvent::YourTurn {
                    game: game(seat),
                    action: TurnAction::Deal,
                };
                out.push(event.notice(user));
            }
        }
        GameStatus::Finished | GameStatus::Abandoned if before != now => {
            let winners: Option<Vec<i64>> = summary
                .winners
                .as_deref()
                .and_then(|w| serde_json::from_str(w).ok());
            for (user, seat) in people() {
                let event = AccountEvent::GameOver {
                    game: game(seat),
                    status: now,
                    winners: winners.clone(),
                };
                out.push(event.notice(user));
            }
        }
        _ => {}
    }
    out
}

/// The status of a game whose rules say `status`.
pub(super) fn of_rules(status: Status) -> GameStatus {
    match status {
        Status::Active => GameStatus::Active,
        Status::HandOver => GameStatus::HandOver,
        Status::Finished => GameStatus::Finished,
    }
}

/// The listing columns of a game after a change; `turn_seconds` is the table's turn timer.
pub(super) fn summary(
    game: Option<&AnyGame>,
    status_override: Option<GameStatus>,
    seats: &[SeatRow],
    turn_seconds: Option<i32>,
) -> Summary {
    let Some(game) = game else {
        return Summary {
            status: status_override.unwrap_or(GameStatus::Waiting),
            hands: 0,
            moves: 0,
            winners: None,
            end_reason: None,
            finished: status_override == Some(GameStatus::Abandoned),
            to_act: None,
            bot_pending: false,
            deadline: None,
            results: Vec::new(),
        };
    };
    let table = game.table();
    let outcome = table.outcome();
    Summary {
        status: of_rules(table.status()),
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
pub(super) fn deadline(
    game: &AnyGame,
    seats: &[SeatRow],
    seconds: i32,
) -> Option<chrono::NaiveDateTime> {
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
pub(crate) fn results(game: &AnyGame, seats: &[SeatRow]) -> Vec<SeatResult> {
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
                bot: row.bot,
                side: i32::from(side),
                won: outcome.winners.contains(&side),
            })
        })
        .collect()
}
