//! Importing an export: every move replayed with the rules engine, every deal's seed checked
//! against its commitment and the final state against the export's digest, then stored as a
//! practice game.

use cardroom_core::rng::SHUFFLE_VERSION;
use cardroom_core::{AnyGame, Options, Seat, Seed, Setup, Status};
use cardroom_db::AnyConnection;
use cardroom_db::GameId;
use cardroom_db::GameStatus;
use cardroom_db::games::{self, ImportedGame, LogEntry, NewDeal, NewGame, SeatChange, Summary};
use serde_json::{Value, json};

use super::json::{Export, ExportHand, HandRecorder, IMPORT_OWNER, sha256_hex};
use super::text::{entry_digest, entry_line, header_digest};
use crate::events::StoredEvent;
use crate::model::ServiceEvent;
use crate::play::commit::STATE_FORMAT;
use crate::play::setup::random_code;

/// What an import found and stored.
#[derive(Debug)]
pub struct ImportReport {
    pub id: i64,
    pub moves: usize,
    pub deals: usize,
    pub state_sha256: String,
}

/// Checks what the replay does not: the seats are numbered in order, with names a player could
/// have and levels the game has; entries name seats of the table; the turn timer is within its
/// bounds; the deals are numbered in order, each in a hand of the game.
pub(super) fn check_table(export: &Export) -> Result<(), String> {
    let levels: Vec<&str> = export
        .kind
        .describe()
        .levels
        .iter()
        .map(|l| l.name)
        .collect();
    for (i, seat) in export.seats.iter().enumerate() {
        if seat.seat != i as i64 {
            return Err(format!("seat {i} is numbered {}", seat.seat));
        }
        if let Some(name) = &seat.name {
            let fits =
                (1..=32).contains(&name.chars().count()) && crate::input::spelled_as_name(name);
            if !fits {
                return Err(format!(
                    "seat {i}: a name is 1 to 32 letters (Latin or Arabic, not both), digits, \
                     `_`, `-` or `.`"
                ));
            }
        }
        if let Some(bot) = &seat.bot
            && !levels.contains(&bot.as_str())
        {
            return Err(format!(
                "seat {i}: `{bot}` is not a computer-player level here"
            ));
        }
    }
    let seats = export.seats.len() as i64;
    if let Some(entry) = export
        .entries
        .iter()
        .find(|e| e.seat.is_some_and(|s| !(0..seats).contains(&s)))
    {
        return Err(format!("entry {}: there is no such seat", entry.version));
    }
    if let Some(turn) = &export.turn {
        use crate::play::setup::{TAKEOVER_AFTER, TURN_SECONDS};
        if !TURN_SECONDS.contains(&turn.seconds)
            || !turn
                .takeover_after
                .is_none_or(|n| TAKEOVER_AFTER.contains(&n))
        {
            return Err("the turn timer is out of bounds".to_owned());
        }
    }
    let mut last_hand = 1;
    for (i, deal) in export.deals.iter().enumerate() {
        if deal.deal != i as i64 || deal.hand < last_hand || deal.hand > i64::from(u16::MAX) {
            return Err(format!("deal {i}: numbered out of order"));
        }
        last_hand = deal.hand;
    }
    Ok(())
}

/// The deals the replay has made so far are the ones the export lists, in order: a changed
/// `Seed` (or `Deck`) makes other deals from the first, and is named as such.
fn check_deals(export: &Export, game: &AnyGame) -> Result<(), String> {
    let table = game.table();
    for i in 0..table.deals() {
        let made = table
            .commitment(i)
            .map(|c| crate::play::changes::hex(&c))
            .unwrap_or_default();
        let Some(listed) = export.deals.get(i as usize) else {
            return Err(format!(
                "the replay deals a deal {i} (committed as {made}) that no `Deal {i}` line lists"
            ));
        };
        if made == listed.commitment {
            continue;
        }
        let listed_holds = listed
            .seed
            .as_deref()
            .and_then(|s| Seed::from_hex(s).ok())
            .map(|s| s.commitment_hex())
            .as_deref()
            == Some(listed.commitment.as_str());
        return Err(if i == 0 && listed_holds {
            format!(
                "the `Seed` header does not make the listed deals: its deal 0 is committed as \
                 {made}, the `Deal 0` line says {}",
                listed.commitment
            )
        } else {
            format!(
                "`Deal {i}`: its commitment {} is not the replay's deal {i} ({made})",
                listed.commitment
            )
        });
    }
    Ok(())
}

/// Every `Hand` line is the replay's: the cards each seat held in each hand, in the order they
/// came, and what it had left at the end.
fn check_hands(recorded: &[ExportHand], replayed: Vec<ExportHand>) -> Result<(), String> {
    let cards = |hand: &ExportHand| format!("{} | {}", hand.held.join(" "), hand.at_end.join(" "));
    for mine in &replayed {
        let label = format!("Hand {} s{}", mine.hand, mine.seat);
        match recorded
            .iter()
            .find(|h| h.hand == mine.hand && h.seat == mine.seat)
        {
            None => return Err(format!("`{label}` is missing")),
            Some(theirs) if theirs != mine => {
                return Err(format!(
                    "`{label}` says `{}`; the replay's is `{}`",
                    cards(theirs),
                    cards(mine)
                ));
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = recorded.iter().find(|h| {
        !replayed
            .iter()
            .any(|m| m.hand == h.hand && m.seat == h.seat)
    }) {
        return Err(format!(
            "`Hand {} s{}`: the replay has no such hand",
            extra.hand, extra.seat
        ));
    }
    Ok(())
}

/// Replays an export with the rules engine; returns the final game and each replayed entry's
/// events (stored form). Refuses any mismatch with what the export says.
pub(super) fn replay(export: &Export) -> Result<(AnyGame, Vec<Option<String>>), String> {
    check_table(export)?;
    if export.shuffle_version != SHUFFLE_VERSION {
        return Err(format!(
            "shuffle version {} is not this server's {SHUFFLE_VERSION}",
            export.shuffle_version
        ));
    }
    let options: Options =
        serde_json::from_value(export.options.clone()).map_err(|e| format!("options: {e}"))?;
    let seed = Seed::from_hex(&export.seed).map_err(|e| format!("seed: {e}"))?;
    let setup = Setup {
        seed,
        deck: export.deck.clone(),
        replay: None,
    };
    let mut game: Option<AnyGame> = None;
    let mut hands = HandRecorder::default();
    let mut events = Vec::with_capacity(export.entries.len());
    let mut last_version = 0;
    for entry in &export.entries {
        let at = |what: String| format!("entry {}: {what}", entry.version);
        if entry.version != last_version + 1 {
            return Err(at("versions must count up from 1".to_owned()));
        }
        last_version = entry.version;
        let seat = || {
            entry
                .seat
                .and_then(|s| u8::try_from(s).ok())
                .map(Seat::new)
                .ok_or_else(|| at("names no seat".to_owned()))
        };
        let produced = match (entry.action.as_str(), game.as_mut()) {
            ("started", None) => {
                let (started, produced) = AnyGame::create(
                    export.kind,
                    Some(&export.variant),
                    export.seats.len(),
                    &options,
                    &setup,
                )
                .map_err(|e| at(e.to_string()))?;
                game = Some(started);
                Some(produced)
            }
            ("move", Some(g)) => {
                let payload = entry.mv.clone().unwrap_or(Value::Null);
                let mv = export
                    .kind
                    .parse_move(&payload)
                    .map_err(|e| at(format!("move: {e}")))?;
                Some(g.play(seat()?, &mv).map_err(|e| at(e.to_string()))?)
            }
            ("deal", Some(g)) => Some(g.deal_next().map_err(|e| at(e.to_string()))?),
            ("resign", Some(g)) => Some(g.resign(seat()?).map_err(|e| at(e.to_string()))?.1),
            ("started", Some(_)) => return Err(at("a second start".to_owned())),
            ("move" | "deal" | "resign", None) => {
                return Err(at("comes before the deal".to_owned()));
            }
            _ => None,
        };
        let produced = match produced {
            None => None,
            Some(produced) => {
                Some(serde_json::to_string(&produced).map_err(|e| at(e.to_string()))?)
            }
        };
        // The deals so far are the listed ones (a changed `Seed` is found here, by name).
        if let Some(game) = &game {
            check_deals(export, game).map_err(at)?;
            hands.observe(game);
        }
        // A text export's entry carries the digest of its line and of what the rules did.
        if let Some(recorded) = &entry.digest {
            let replayed: Option<Value> = match &produced {
                Some(text) => Some(serde_json::from_str(text).map_err(|e| at(e.to_string()))?),
                None => None,
            };
            // Its headers are sealed by the game's start: each must be the one recorded.
            if entry.action == "started" {
                check_headers(export, replayed.as_ref())?;
            }
            let digest = entry_digest(&entry_line(entry), replayed.as_ref());
            if &digest != recorded {
                return Err(at(format!(
                    "`{}` is not the entry that was recorded: its digest #{recorded} is not the \
                     replay's #{digest} (its seat, action or move was changed, or the game \
                     before it)",
                    entry_line(entry)
                )));
            }
        }
        // An export with events must have recorded exactly what the rules produce (besides
        // the service's own announcements, such as a new deadline).
        if let (Some(mine), Some(theirs)) = (&produced, &entry.events) {
            let mine: Value = serde_json::from_str(mine).map_err(|e| at(e.to_string()))?;
            let mut theirs = theirs.clone();
            if let Some(list) = theirs.as_array_mut() {
                list.retain(|e| !crate::events::is_announcement(&e["event"]));
            }
            if mine != theirs {
                return Err(at("its events are not what the rules produce".to_owned()));
            }
        }
        events.push(produced);
    }
    let game = game.ok_or("the game never started")?;
    check_hands(&export.hands, hands.into_hands())?;
    // Every deal's seed matches its commitment and the deals the replay made.
    let table = game.table();
    if export.deals.len() != table.deals() as usize {
        return Err(format!(
            "the export lists {} deals; the replay made {}",
            export.deals.len(),
            table.deals()
        ));
    }
    for (i, deal) in export.deals.iter().enumerate() {
        let made = table
            .commitment(i as u32)
            .map(|c| crate::play::changes::hex(&c))
            .unwrap_or_default();
        if made != deal.commitment {
            return Err(format!("deal {i}: the commitment is not the replay's"));
        }
        match &deal.seed {
            Some(seed)
                if Seed::from_hex(seed).map(|s| s.commitment_hex()).as_deref()
                    == Ok(deal.commitment.as_str()) => {}
            _ => return Err(format!("deal {i}: the seed does not match its commitment")),
        }
    }
    if game.table().status() != Status::Finished {
        return Err("the moves do not finish the game".to_owned());
    }
    let outcome = serde_json::to_value(game.table().outcome()).map_err(|e| e.to_string())?;
    if outcome != export.result.outcome {
        return Err("the replay ends with another result".to_owned());
    }
    let digest = sha256_hex(
        serde_json::to_string(&game)
            .map_err(|e| e.to_string())?
            .as_bytes(),
    );
    if digest != export.result.state_sha256 {
        return Err(format!(
            "the replay's final state (sha256 {digest}) is not the export's"
        ));
    }
    Ok((game, events))
}

/// Replays an export and checks it, storing nothing (`cardroom import --dry-run`); the report's
/// `id` is 0. Errors are for a person to read.
/// Every header of a text export is the one its digest seals (with the events of the game's
/// start, as the replay made them): a changed name, level, `Practice` or `Turn` is refused,
/// named.
fn check_headers(export: &Export, started: Option<&Value>) -> Result<(), String> {
    let changed: Vec<_> = export
        .sealed_headers
        .iter()
        .map(|header| (header, header_digest(&header.text, started)))
        .filter(|(header, digest)| *digest != header.digest)
        .collect();
    match changed.as_slice() {
        [] => Ok(()),
        // (None sealed by this start: the start itself is not the recorded one.)
        all if all.len() == export.sealed_headers.len() && all.len() > 1 => Err(
            "the game's start is not the one its headers were sealed with: its seed, seats or \
             options were changed"
                .to_owned(),
        ),
        [(header, digest), ..] => {
            let name = header.text.split_once(": ").map_or("", |(name, _)| name);
            Err(format!(
                "line {}: the `{name}` header is not the one recorded: `{}` has the digest \
                 #{}, not #{digest} (it was changed)",
                header.line, header.text, header.digest
            ))
        }
    }
}

pub fn check(export: &Export) -> Result<ImportReport, String> {
    replay(export)?;
    Ok(report(export, GameId::new(0)))
}

pub(super) fn report(export: &Export, id: GameId) -> ImportReport {
    ImportReport {
        id: id.get(),
        moves: export.entries.iter().filter(|e| e.action == "move").count(),
        deals: export.deals.len(),
        state_sha256: export.result.state_sha256.clone(),
    }
}

/// Replays an export, checks it, and stores it as a practice game owned by [`IMPORT_OWNER`].
/// Errors are for a person to read.
pub fn import(conn: &mut AnyConnection, export: &Export) -> Result<ImportReport, String> {
    let (game, events) = replay(export)?;
    let owner = match cardroom_db::users::by_name(conn, IMPORT_OWNER).map_err(|e| e.to_string())? {
        Some(user) => user,
        None => {
            cardroom_db::users::create(conn, IMPORT_OWNER, None, true).map_err(|e| e.to_string())?
        }
    };
    let seats = export
        .seats
        .iter()
        .map(|s| {
            let bot = s.bot.as_deref().map(str::parse).transpose();
            Ok(SeatChange {
                seat: s.seat as i32,
                user_id: None,
                bot: bot.map_err(|e| format!("seat {}: {e}", s.seat))?,
                timeouts: 0,
                label: s.name.clone(),
            })
        })
        .collect::<Result<Vec<SeatChange>, String>>()?;
    let now = cardroom_db::now();
    let mut log = Vec::with_capacity(export.entries.len());
    for (entry, produced) in export.entries.iter().zip(events) {
        let events = match (produced, &entry.events) {
            // (Checked against the replay above.)
            (_, Some(events)) => events.to_string(),
            (Some(produced), None) => produced,
            // (The text notation carries no events: the entry says what happened.)
            (None, None) => serde_json::to_string(&[StoredEvent {
                to: cardroom_core::Audience::Everyone,
                event: serde_json::to_value(ServiceEvent::Imported {
                    action: entry.action.clone(),
                    seat: entry.seat,
                })
                .map_err(|e| e.to_string())?,
            }])
            .map_err(|e| e.to_string())?,
        };
        log.push((
            entry.version,
            LogEntry {
                seat: entry.seat.map(|s| s as i32),
                action: entry.action.clone(),
                payload: entry.mv.as_ref().map(Value::to_string),
                events,
            },
            entry.at.map_or(now, |t| t.naive_utc()),
        ));
    }
    let table = game.table();
    let outcome = table.outcome();
    let state = serde_json::to_string(&game).map_err(|e| e.to_string())?;
    let imported = ImportedGame {
        game: NewGame {
            kind: export.kind,
            variant: game.variant().to_owned(),
            options: export.options.to_string(),
            seed: export.seed.clone(),
            deck: match &export.deck {
                None => None,
                Some(deck) => Some(serde_json::to_string(deck).map_err(|e| e.to_string())?),
            },
            practice: true,
            invite_code: random_code(10),
            created_by: owner.id,
            state_format: STATE_FORMAT,
            turn_seconds: export.turn.as_ref().map(|t| t.seconds as i32),
            takeover_after: export.turn.as_ref().map(|t| {
                t.takeover_after
                    .unwrap_or(crate::play::setup::DEFAULT_TAKEOVER_AFTER) as i32
            }),
            visibility: cardroom_db::Visibility::Unlisted,
            seats,
        },
        state,
        summary: Summary {
            status: GameStatus::Finished,
            hands: table.hand_number() as i32,
            moves: table.moves() as i32,
            winners: outcome.map(|o| json!(o.winners).to_string()),
            end_reason: outcome.map(|o| o.reason.name().to_owned()),
            finished: true,
            to_act: None,
            bot_pending: false,
            deadline: None,
            results: Vec::new(),
        },
        log,
        deals: export
            .deals
            .iter()
            .map(|d| {
                (
                    NewDeal {
                        deal: d.deal as i32,
                        hand: d.hand as i32,
                        commitment: d.commitment.clone(),
                    },
                    d.seed.clone().unwrap_or_default(),
                )
            })
            .collect(),
        created_at: export
            .entries
            .first()
            .and_then(|e| e.at)
            .map_or(now, |t| t.naive_utc()),
        finished_at: export
            .entries
            .last()
            .and_then(|e| e.at)
            .map(|t| t.naive_utc()),
    };
    let row = games::import(conn, &imported).map_err(|e| e.to_string())?;
    Ok(report(export, row.id))
}
