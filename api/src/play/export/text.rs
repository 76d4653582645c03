//! The text notation of an export (`docs/notation.md`): headers, one line per log entry, the
//! hands, the result; written and read back.

use std::fmt::Write as _;

use cardroom_core::GameKind;
use serde_json::Value;

use super::json::{
    Export, ExportDeal, ExportEntry, ExportHand, ExportResult, ExportSeat, FORMAT, FORMAT_VERSION,
};
use crate::model::TurnPolicy;

/// The first line of the text notation (version 3: every header and entry ends with its
/// digest).
const TEXT_MAGIC: &str = "# cardroom-game 3";
/// The first lines of the notation's earlier versions: the first carried no digests, the
/// second none on its headers.
const TEXT_MAGIC_1: &str = "# cardroom-game 1";
const TEXT_MAGIC_2: &str = "# cardroom-game 2";
/// How many hex digits of an entry's digest the notation writes.
const DIGEST_DIGITS: usize = 16;

pub(super) fn compact(value: &Value) -> String {
    value.to_string()
}

/// The actions the rules engine replays (the others record the table's life).
pub(super) const REPLAYED: [&str; 4] = ["started", "move", "deal", "resign"];

/// An entry's line without its digest: `VERSION SEAT ACTION [MOVE]`.
pub(super) fn entry_line(entry: &ExportEntry) -> String {
    let seat = entry.seat.map_or("-".to_owned(), |s| format!("s{s}"));
    let mut line = format!("{} {seat} {}", entry.version, entry.action);
    if let Some(mv) = &entry.mv {
        line.push(' ');
        line.push_str(&compact(mv));
    }
    line
}

/// What the rules did in an entry they replay, as an export records it: its events with their
/// audiences, without the service's announcements (a new deadline). None for another entry.
pub(super) fn rules_events(entry: &ExportEntry) -> Option<Value> {
    if !REPLAYED.contains(&entry.action.as_str()) {
        return None;
    }
    let mut events = entry.events.clone()?;
    if let Some(list) = events.as_array_mut() {
        list.retain(|e| !crate::events::is_announcement(&e["event"]));
    }
    Some(events)
}

/// An entry's digest: the first 16 hex digits of the `sha256` of its line (without the
/// digest), a line break, and — for an entry the rules replay — the events they produced, as
/// compact JSON with their audiences. An import replays the entry and must arrive at the same
/// digest, so an entry that was changed, even to another legal move, is refused where it is.
pub(super) fn entry_digest(line: &str, rules_events: Option<&Value>) -> String {
    let mut text = format!("{line}\n");
    if let Some(events) = rules_events {
        text.push_str(&compact(events));
    }
    let mut digest = super::json::sha256_hex(text.as_bytes());
    digest.truncate(DIGEST_DIGITS);
    digest
}

/// What seals the headers: the events the rules produced when the game started (its first
/// deal, every seat's cards among them), which only a replay of the game makes again.
pub(super) fn started_events(entries: &[ExportEntry]) -> Option<Value> {
    entries
        .iter()
        .find(|e| e.action == "started")
        .and_then(rules_events)
}

/// A header's digest: the first 16 hex digits of the `sha256` of its line (without the
/// digest), a line break, and the events of the game's start ([`started_events`]). An import
/// replays the start and must arrive at every header's digest, so a header that was changed (a
/// name, a computer's level, `Practice`, `Turn`) is refused, named.
pub(super) fn header_digest(line: &str, started: Option<&Value>) -> String {
    entry_digest(line, started)
}

/// The export in the text notation: headers, one line per log entry, the hands, the result.
pub fn to_text(export: &Export) -> String {
    let mut headers = String::new();
    write_headers(&mut headers, export);
    let started = started_events(&export.entries);
    let mut out = String::new();
    let _ = writeln!(out, "{TEXT_MAGIC}");
    for line in headers.lines() {
        let _ = writeln!(out, "{line} #{}", header_digest(line, started.as_ref()));
    }
    let _ = writeln!(out);
    for entry in &export.entries {
        let line = entry_line(entry);
        let digest = entry_digest(&line, rules_events(entry).as_ref());
        let _ = writeln!(out, "{line} #{digest}");
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

/// The header lines, without their digests.
fn write_headers(out: &mut String, export: &Export) {
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
                    .unwrap_or(crate::play::setup::DEFAULT_TAKEOVER_AFTER)
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

pub(super) fn parse_text(text: &str) -> Result<Export, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).enumerate();
    match lines.next() {
        Some((_, TEXT_MAGIC)) => {}
        Some((_, TEXT_MAGIC_1)) => {
            return Err(format!(
                "line 1: `{TEXT_MAGIC_1}` is the notation's first version, whose entries carry \
                 no digest: export the game again (`{TEXT_MAGIC}`)"
            ));
        }
        Some((_, TEXT_MAGIC_2)) => {
            return Err(format!(
                "line 1: `{TEXT_MAGIC_2}` is the notation's second version, whose headers carry \
                 no digest: export the game again (`{TEXT_MAGIC}`)"
            ));
        }
        _ => return Err(format!("line 1: the first line must be `{TEXT_MAGIC}`")),
    }
    let bad = |n: usize, what: &str| format!("line {}: {what}", n + 1);
    let mut headers: Vec<(usize, String, String)> = Vec::new();
    let mut sealed_headers = Vec::new();
    for (n, line) in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let (line, digest) = split_digest(line)
            .ok_or_else(|| bad(n, "a header ends with its digest, ` #` and 16 hex digits"))?;
        let (key, value) = line
            .split_once(": ")
            .ok_or_else(|| bad(n, "a header is `Name: value #DIGEST`"))?;
        headers.push((n, key.to_owned(), value.to_owned()));
        sealed_headers.push(super::json::SealedHeader {
            line: n + 1,
            text: line.to_owned(),
            digest,
        });
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
        let (line, digest) = split_digest(line)
            .ok_or_else(|| bad(n, "an entry ends with its digest, ` #` and 16 hex digits"))?;
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
            digest: Some(digest),
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
        analysis: None,
        sealed_headers,
    })
}

/// A line and the digest it ends with (` #` and 16 hex digits, read in lower case).
fn split_digest(line: &str) -> Option<(&str, String)> {
    line.rsplit_once(" #")
        .filter(|(_, d)| d.len() == DIGEST_DIGITS && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(|(line, digest)| (line, digest.to_ascii_lowercase()))
}
