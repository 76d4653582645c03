//! Exporting a finished game (JSON, or the text notation of `docs/notation.md`) and importing
//! one: the import replays every move with the rules engine, checks every deal's seed against
//! its commitment and the final state against the export's digest, and stores the game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cardroom_core::rng::SHUFFLE_VERSION;
use cardroom_core::{AnyGame, Card, GameKind, Options, Seat, Seed, Setup, Status};
use cardroom_db::AnyConnection;
use cardroom_db::games::{self, ImportedGame, LogEntry, NewDeal, NewGame, SeatChange, Summary};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{STATE_FORMAT, StoredEvent, load, random_code, snapshot};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::model::TurnPolicy;

/// The export format's name and version.
pub const FORMAT: &str = "cardroom-game";
pub const FORMAT_VERSION: u32 = 1;
/// The account that owns imported games: a name no one can register (parentheses are not
/// allowed in names), without a password.
pub const IMPORT_OWNER: &str = "(import)";

/// A finished game, whole: everything needed to replay it and check it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Export {
    /// `cardroom-game`.
    pub format: String,
    /// 1.
    pub format_version: u32,
    pub kind: GameKind,
    pub variant: String,
    /// The options the game was created with.
    #[schema(value_type = Object)]
    pub options: Value,
    pub seats: Vec<ExportSeat>,
    pub practice: bool,
    pub turn: Option<TurnPolicy>,
    /// The game's seed (64 hex digits): with the options it recreates every deal and every
    /// computer player's choice.
    pub seed: String,
    /// A practice game's explicit deck order, top card first.
    pub deck: Option<Vec<Card>>,
    /// The shuffle procedure's version (see the README, "Fairness").
    pub shuffle_version: u32,
    /// Every deal: its commitment (`sha256(seed)`, published at the deal) and its seed.
    pub deals: Vec<ExportDeal>,
    /// The move log, every entry, with every event and who saw it.
    pub entries: Vec<ExportEntry>,
    /// Each seat's cards in each hand: every card it held, in the order they came, and what
    /// was left at the end.
    pub hands: Vec<ExportHand>,
    pub result: ExportResult,
    /// Where and when it was exported (not part of the game).
    #[serde(default)]
    pub source: Option<ExportSource>,
}

/// A seat of an exported game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportSeat {
    pub seat: i64,
    /// The person's name.
    pub name: Option<String>,
    /// The computer player's level (with a name: it played for the person at the end).
    pub bot: Option<String>,
}

/// A deal of an exported game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportDeal {
    pub deal: i64,
    pub hand: i64,
    pub commitment: String,
    pub seed: Option<String>,
}

/// An entry of an exported game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportEntry {
    pub version: i64,
    pub seat: Option<i64>,
    /// `created`, `joined`, `started`, `move`, `deal`, `resign`, `timed_out`, …
    pub action: String,
    /// The move, in canonical form.
    #[serde(rename = "move", default)]
    #[schema(value_type = Option<Object>)]
    pub mv: Option<Value>,
    /// The entry's events, each with its audience (`to`).
    #[serde(default)]
    #[schema(value_type = Option<Vec<Object>>)]
    pub events: Option<Value>,
    pub at: Option<DateTime<Utc>>,
}

/// A seat's cards in one hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportHand {
    pub hand: i64,
    pub seat: i64,
    pub held: Vec<String>,
    pub at_end: Vec<String>,
}

/// How an exported game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportResult {
    pub status: String,
    #[schema(value_type = Object)]
    pub outcome: Value,
    /// `sha256` of the final state as stored: an import must replay to the same digest.
    pub state_sha256: String,
}

/// Where an export came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportSource {
    pub game_id: i64,
    pub exported_at: DateTime<Utc>,
}

fn not_finished() -> ApiError {
    ApiError::Conflict {
        code: "game_not_finished",
        detail: "only a finished game can be exported".to_owned(),
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    super::hex(&Sha256::digest(bytes))
}

/// `GET /games/{id}/export`: the game's seated players and admins.
pub fn export(conn: &mut AnyConnection, caller: &Caller, id: i64) -> Result<Export, ApiError> {
    let loaded = load(conn, id)?;
    if loaded.seat_of(caller).is_none() && !super::admin::is_admin(conn, caller)? {
        return Err(ApiError::Forbidden(
            "only the game's players and admins may export it".to_owned(),
        ));
    }
    build(conn, id)
}

/// Every card each seat held in each hand, and what was left at its end, as the replay goes.
#[derive(Default)]
struct HandRecorder {
    hands: BTreeMap<(u32, u8), (Vec<String>, Vec<String>)>,
}

impl HandRecorder {
    fn observe(&mut self, game: &AnyGame) {
        let table = game.table();
        let hand = table.hand_number();
        for seat in 0..table.seats() {
            let cards = super::hand_of(game, Seat::new(seat));
            let (held, at_end) = self.hands.entry((hand, seat)).or_default();
            for card in &cards {
                if !held.contains(card) {
                    held.push(card.clone());
                }
            }
            *at_end = cards;
        }
    }

    fn into_hands(self) -> Vec<ExportHand> {
        self.hands
            .into_iter()
            .map(|((hand, seat), (held, at_end))| ExportHand {
                hand: i64::from(hand),
                seat: i64::from(seat),
                held,
                at_end,
            })
            .collect()
    }
}

/// Builds the export of finished game `id` (no access check: the caller's business).
pub fn build(conn: &mut AnyConnection, id: i64) -> Result<Export, ApiError> {
    let loaded = load(conn, id)?;
    let row = &loaded.record.game;
    let stored = match &loaded.game {
        Some(game) if game.table().status() == Status::Finished => game.clone(),
        _ => return Err(not_finished()),
    };
    let mut entries = Vec::new();
    let mut recorder = HandRecorder::default();
    let replayed = super::recovery::replay_each(conn, id, |entry, game| {
        entries.push(ExportEntry {
            version: entry.seq,
            seat: entry.seat.map(i64::from),
            action: entry.action.clone(),
            mv: entry
                .payload
                .as_deref()
                .and_then(|p| serde_json::from_str(p).ok()),
            events: serde_json::from_str(&entry.events).ok(),
            at: Some(entry.created_at.and_utc()),
        });
        if let Some(game) = game {
            recorder.observe(game);
        }
        Ok(())
    })?;
    if replayed.as_ref() != Some(&stored) {
        return Err(ApiError::Internal(format!(
            "game {id} does not replay to its snapshot"
        )));
    }
    let deals = games::deals(conn, id)?
        .into_iter()
        .map(|d| ExportDeal {
            deal: i64::from(d.deal),
            hand: i64::from(d.hand),
            commitment: d.commitment,
            seed: d.seed,
        })
        .collect();
    Ok(Export {
        format: FORMAT.to_owned(),
        format_version: FORMAT_VERSION,
        kind: loaded.kind()?,
        variant: row.variant.clone(),
        options: serde_json::from_str(&row.options)
            .map_err(|e| ApiError::Internal(format!("stored options: {e}")))?,
        seats: loaded
            .record
            .seats
            .iter()
            .map(|s| ExportSeat {
                seat: i64::from(s.seat),
                name: s.name.clone(),
                bot: s.bot.clone(),
            })
            .collect(),
        practice: row.practice,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        seed: row.seed.clone(),
        deck: match &row.deck {
            None => None,
            Some(text) => Some(
                serde_json::from_str(text)
                    .map_err(|e| ApiError::Internal(format!("stored deck: {e}")))?,
            ),
        },
        shuffle_version: SHUFFLE_VERSION,
        deals,
        entries,
        hands: recorder.into_hands(),
        result: ExportResult {
            status: "finished".to_owned(),
            outcome: serde_json::to_value(stored.table().outcome())
                .map_err(|e| ApiError::Internal(format!("outcome encoding: {e}")))?,
            state_sha256: sha256_hex(snapshot(&stored)?.as_bytes()),
        },
        source: Some(ExportSource {
            game_id: id,
            exported_at: cardroom_db::now().and_utc(),
        }),
    })
}

// ---------------------------------------------------------------------------------------------
// The text notation (docs/notation.md).

/// The first line of the text notation.
const TEXT_MAGIC: &str = "# cardroom-game 1";

fn compact(value: &Value) -> String {
    value.to_string()
}

/// The export in the text notation: headers, one line per log entry, the hands, the result.
pub fn to_text(export: &Export) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{TEXT_MAGIC}");
    let _ = writeln!(out, "Kind: {}", export.kind);
    let _ = writeln!(out, "Variant: {}", export.variant);
    let _ = writeln!(out, "Options: {}", compact(&export.options));
    for seat in &export.seats {
        let who = match (&seat.name, &seat.bot) {
            (Some(name), Some(bot)) => format!("{name} (computer {bot})"),
            (Some(name), None) => name.clone(),
            (None, Some(bot)) => format!("computer {bot}"),
            (None, None) => "open".to_owned(),
        };
        let _ = writeln!(out, "Seat {}: {who}", seat.seat);
    }
    let _ = writeln!(
        out,
        "Practice: {}",
        if export.practice { "yes" } else { "no" }
    );
    match &export.turn {
        None => {
            let _ = writeln!(out, "Turn: none");
        }
        Some(turn) => {
            let _ = writeln!(
                out,
                "Turn: {}s takeover {}",
                turn.seconds,
                turn.takeover_after
                    .unwrap_or(super::setup::DEFAULT_TAKEOVER_AFTER)
            );
        }
    }
    let _ = writeln!(out, "Seed: {}", export.seed);
    if let Some(deck) = &export.deck {
        let cards: Vec<String> = deck.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "Deck: {}", cards.join(" "));
    }
    let _ = writeln!(out, "Shuffle: {}", export.shuffle_version);
    for deal in &export.deals {
        let _ = writeln!(
            out,
            "Deal {}: hand {} commitment {} seed {}",
            deal.deal,
            deal.hand,
            deal.commitment,
            deal.seed.as_deref().unwrap_or("-")
        );
    }
    let _ = writeln!(out);
    for entry in &export.entries {
        let seat = entry.seat.map_or("-".to_owned(), |s| format!("s{s}"));
        let _ = write!(out, "{} {seat} {}", entry.version, entry.action);
        if let Some(mv) = &entry.mv {
            let _ = write!(out, " {}", compact(mv));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
    for hand in &export.hands {
        let _ = write!(
            out,
            "Hand {} s{}: {} |",
            hand.hand,
            hand.seat,
            hand.held.join(" ")
        );
        if !hand.at_end.is_empty() {
            let _ = write!(out, " {}", hand.at_end.join(" "));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "Result: {}", compact(&export.result.outcome));
    let _ = writeln!(out, "State: sha256 {}", export.result.state_sha256);
    out
}

/// Reads an export: JSON (it starts with `{`) or the text notation.
pub fn parse(text: &str) -> Result<Export, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        let export: Export =
            serde_json::from_str(trimmed).map_err(|e| format!("not a Cardroom export: {e}"))?;
        if export.format != FORMAT || export.format_version != FORMAT_VERSION {
            return Err(format!(
                "format {} {} is not {FORMAT} {FORMAT_VERSION}",
                export.format, export.format_version
            ));
        }
        return Ok(export);
    }
    parse_text(trimmed)
}

fn parse_text(text: &str) -> Result<Export, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).enumerate();
    match lines.next() {
        Some((_, TEXT_MAGIC)) => {}
        _ => return Err(format!("the first line must be `{TEXT_MAGIC}`")),
    }
    let bad = |n: usize, what: &str| format!("line {}: {what}", n + 1);
    let mut headers: Vec<(usize, String, String)> = Vec::new();
    for (n, line) in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let (key, value) = line
            .split_once(": ")
            .ok_or_else(|| bad(n, "a header is `Name: value`"))?;
        headers.push((n, key.to_owned(), value.to_owned()));
    }
    let header = |name: &str| -> Result<&str, String> {
        headers
            .iter()
            .find(|(_, k, _)| k == name)
            .map(|(_, _, v)| v.as_str())
            .ok_or_else(|| format!("the header `{name}` is missing"))
    };
    let kind: GameKind = header("Kind")?
        .parse()
        .map_err(|_| "Kind: not a game kind".to_owned())?;
    let options: Value =
        serde_json::from_str(header("Options")?).map_err(|e| format!("Options: {e}"))?;
    let mut seats = Vec::new();
    let mut deals = Vec::new();
    for (n, key, value) in &headers {
        if let Some(number) = key.strip_prefix("Seat ") {
            let seat: i64 = number.parse().map_err(|_| bad(*n, "a seat number"))?;
            let (name, bot) = if let Some(bot) = value.strip_prefix("computer ") {
                (None, Some(bot.to_owned()))
            } else if value == "open" {
                (None, None)
            } else if let Some((name, rest)) = value.split_once(" (computer ") {
                (
                    Some(name.to_owned()),
                    Some(rest.trim_end_matches(')').to_owned()),
                )
            } else {
                (Some(value.clone()), None)
            };
            seats.push(ExportSeat { seat, name, bot });
        } else if let Some(number) = key.strip_prefix("Deal ") {
            let deal: i64 = number.parse().map_err(|_| bad(*n, "a deal number"))?;
            let words: Vec<&str> = value.split(' ').collect();
            let ["hand", hand, "commitment", commitment, "seed", seed] = words.as_slice() else {
                return Err(bad(*n, "a deal is `hand H commitment C seed S`"));
            };
            deals.push(ExportDeal {
                deal,
                hand: hand.parse().map_err(|_| bad(*n, "a hand number"))?,
                commitment: (*commitment).to_owned(),
                seed: (*seed != "-").then(|| (*seed).to_owned()),
            });
        }
    }
    let turn = match header("Turn")? {
        "none" => None,
        value => {
            let (seconds, after) = value
                .split_once("s takeover ")
                .ok_or_else(|| "Turn: `none` or `Ns takeover K`".to_owned())?;
            Some(TurnPolicy {
                seconds: seconds.parse().map_err(|_| "Turn: seconds".to_owned())?,
                takeover_after: Some(after.parse().map_err(|_| "Turn: takeover".to_owned())?),
            })
        }
    };
    let deck = match headers.iter().find(|(_, k, _)| k == "Deck") {
        None => None,
        Some((n, _, value)) => Some(
            cardroom_core::parse_cards(value).map_err(|e| bad(*n, &format!("the deck: {e}")))?,
        ),
    };
    let mut entries = Vec::new();
    for (n, line) in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let mut parts = line.splitn(4, ' ');
        let (Some(version), Some(seat), Some(action)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad(n, "an entry is `VERSION SEAT ACTION [MOVE]`"));
        };
        let seat = match seat {
            "-" => None,
            s => Some(
                s.strip_prefix('s')
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| bad(n, "a seat is `s0`, `s1`, … or `-`"))?,
            ),
        };
        let mv = match parts.next() {
            None => None,
            Some(json) => Some(serde_json::from_str(json).map_err(|e| bad(n, &e.to_string()))?),
        };
        entries.push(ExportEntry {
            version: version.parse().map_err(|_| bad(n, "a version"))?,
            seat,
            action: action.to_owned(),
            mv,
            events: None,
            at: None,
        });
    }
    let mut hands = Vec::new();
    let mut outcome = None;
    let mut digest = None;
    for (n, line) in lines {
        if let Some(rest) = line.strip_prefix("Hand ") {
            let (label, cards) = rest
                .split_once(": ")
                .ok_or_else(|| bad(n, "a hand is `Hand H sS: HELD | AT_END`"))?;
            let (hand, seat) = label
                .split_once(" s")
                .and_then(|(h, s)| Some((h.parse().ok()?, s.parse().ok()?)))
                .ok_or_else(|| bad(n, "a hand is `Hand H sS: …`"))?;
            let (held, at_end) = cards.split_once('|').unwrap_or((cards, ""));
            let words = |s: &str| s.split_whitespace().map(str::to_owned).collect();
            hands.push(ExportHand {
                hand,
                seat,
                held: words(held),
                at_end: words(at_end),
            });
        } else if let Some(rest) = line.strip_prefix("Result: ") {
            outcome = Some(serde_json::from_str(rest).map_err(|e| bad(n, &e.to_string()))?);
        } else if let Some(rest) = line.strip_prefix("State: sha256 ") {
            digest = Some(rest.to_owned());
        } else if !line.is_empty() {
            return Err(bad(n, "expected `Hand`, `Result` or `State`"));
        }
    }
    Ok(Export {
        format: FORMAT.to_owned(),
        format_version: FORMAT_VERSION,
        kind,
        variant: header("Variant")?.to_owned(),
        options,
        seats,
        practice: header("Practice")? == "yes",
        turn,
        seed: header("Seed")?.to_owned(),
        deck,
        shuffle_version: header("Shuffle")?
            .parse()
            .map_err(|_| "Shuffle: a number".to_owned())?,
        deals,
        entries,
        hands,
        result: ExportResult {
            status: "finished".to_owned(),
            outcome: outcome.ok_or("the `Result` line is missing")?,
            state_sha256: digest.ok_or("the `State` line is missing")?,
        },
        source: None,
    })
}

// ---------------------------------------------------------------------------------------------
// Import.

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
fn check_table(export: &Export) -> Result<(), String> {
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
            let fits = (1..=32).contains(&name.chars().count())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
            if !fits {
                return Err(format!(
                    "seat {i}: a name is 1 to 32 letters, digits, `_`, `-` or `.`"
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
        use super::setup::{TAKEOVER_AFTER, TURN_SECONDS};
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

/// Replays an export with the rules engine; returns the final game and each replayed entry's
/// events (stored form). Refuses any mismatch with what the export says.
fn replay(export: &Export) -> Result<(AnyGame, Vec<Option<String>>), String> {
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
        // An export with events must have recorded exactly what the rules produce (besides
        // the service's own announcements, such as a new deadline).
        if let (Some(mine), Some(theirs)) = (&produced, &entry.events) {
            let mine: Value = serde_json::from_str(mine).map_err(|e| at(e.to_string()))?;
            let mut theirs = theirs.clone();
            if let Some(list) = theirs.as_array_mut() {
                list.retain(|e| !super::is_announcement(&e["event"]));
            }
            if mine != theirs {
                return Err(at("its events are not what the rules produce".to_owned()));
            }
        }
        events.push(produced);
    }
    let game = game.ok_or("the game never started")?;
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
            .map(|c| super::hex(&c))
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
pub fn check(export: &Export) -> Result<ImportReport, String> {
    replay(export)?;
    Ok(report(export, 0))
}

fn report(export: &Export, id: i64) -> ImportReport {
    ImportReport {
        id,
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
    let seats: Vec<SeatChange> = export
        .seats
        .iter()
        .map(|s| SeatChange {
            seat: s.seat as i32,
            user_id: None,
            bot: s.bot.clone(),
            timeouts: 0,
            label: s.name.clone(),
        })
        .collect();
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
                event: json!({"type": entry.action, "seat": entry.seat}),
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
            kind: export.kind.name().to_owned(),
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
                    .unwrap_or(super::setup::DEFAULT_TAKEOVER_AFTER) as i32
            }),
            visibility: crate::model::Visibility::Unlisted.name().to_owned(),
            seats,
        },
        state,
        summary: Summary {
            status: "finished".to_owned(),
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
