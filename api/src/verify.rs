//! `cardroom verify-deal`: checks a game's log (`GET /games/{id}/log`, saved to a file) without
//! trusting the server that wrote it.
//!
//! For every deal whose seed has been revealed it checks `sha256(seed)` against the commitment
//! published when the hand was dealt, and recomputes the deck from the seed. Then it plays the
//! logged game again from those seeds — the same rules, the logged moves in order — and checks
//! that every event the log's reader was shown (every card dealt to them, every card turned
//! face up, every score) is exactly what the revealed seeds produce. It stops at the first deal
//! whose seed is still secret (the hand in play).

use cardroom_core::rng::{SHUFFLE_VERSION, shuffled_deck};
use cardroom_core::{
    AnyEvent, AnyGame, Card, Deck, Events, Options, Replay, Seat, Seed, Setup, Viewer,
};
use serde_json::Value;

use crate::model::{DealOut, LogResponse};

/// What the check found.
#[derive(Debug, Default)]
pub struct Report {
    /// One line per finding, in order, for a person to read.
    pub lines: Vec<String>,
    /// What does not match: empty when the log is sound.
    pub problems: Vec<String>,
    /// Deals whose seed matched its commitment.
    pub deals_checked: usize,
    /// Log entries replayed and compared.
    pub entries_checked: usize,
    /// Events compared (each one identical in the log and the replay).
    pub events_checked: usize,
}

impl Report {
    fn note(&mut self, line: String) {
        self.lines.push(line);
    }

    fn problem(&mut self, line: String) {
        self.lines.push(format!("MISMATCH: {line}"));
        self.problems.push(line);
    }

    /// Whether the log is consistent with its revealed seeds.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Reads a log (the JSON of `GET /games/{id}/log`) and checks it.
pub fn verify_text(text: &str) -> Result<Report, String> {
    let log: LogResponse = serde_json::from_str(text)
        .map_err(|e| format!("this is not a game log from GET /games/{{id}}/log: {e}"))?;
    Ok(verify(&log))
}

/// Checks a log: commitments, decks, and every event the reader was shown.
pub fn verify(log: &LogResponse) -> Report {
    let mut report = Report::default();
    report.note(format!(
        "game {}: {} ({}), {} seats, read by {}",
        log.id,
        log.kind,
        log.variant,
        log.seats,
        log.your_seat
            .map_or("a spectator".to_owned(), |s| format!("seat {s}"))
    ));
    if log.shuffle_version != SHUFFLE_VERSION {
        report.problem(format!(
            "the log uses shuffle version {}; this verifier implements version {SHUFFLE_VERSION}",
            log.shuffle_version
        ));
        return report;
    }
    let Some(rules) = Rules::of(log, &mut report) else {
        return finish(report);
    };
    let seeds = check_deals(log, rules.deck, &mut report);
    if report.ok() {
        replay(log, &rules, seeds, &mut report);
    }
    finish(report)
}

fn finish(mut report: Report) -> Report {
    report.note(if report.ok() {
        format!(
            "OK: {} deals, {} entries, {} events match their revealed seeds",
            report.deals_checked, report.entries_checked, report.events_checked
        )
    } else {
        format!("FAILED: {} problems", report.problems.len())
    });
    report
}

/// The game's rules as the log names them.
struct Rules {
    options: Options,
    seats: usize,
    deck: Deck,
    viewer: Viewer,
}

impl Rules {
    fn of(log: &LogResponse, report: &mut Report) -> Option<Rules> {
        let viewer = match log.your_seat.map(u8::try_from) {
            None => Viewer::Spectator,
            Some(Ok(seat)) => Viewer::Seat(Seat::new(seat)),
            Some(Err(_)) => {
                report.problem(format!("your_seat {:?} is not a seat", log.your_seat));
                return None;
            }
        };
        let options: Options = match serde_json::from_value(log.options.clone()) {
            Ok(options) => options,
            Err(e) => {
                report.problem(format!("options: {e}"));
                return None;
            }
        };
        let seats = usize::try_from(log.seats).unwrap_or(0);
        let probe = Setup::seeded(Seed::from_bytes([0; 32]));
        match AnyGame::create(log.kind, Some(&log.variant), seats, &options, &probe) {
            Ok((game, _)) => Some(Rules {
                deck: game.table().deck(),
                options,
                seats,
                viewer,
            }),
            Err(e) => {
                report.problem(format!("the game as logged does not start: {e}"));
                None
            }
        }
    }
}

/// Checks each revealed seed against its commitment; returns the revealed seeds, in deal order,
/// up to the first deal still secret.
fn check_deals(log: &LogResponse, deck: Deck, report: &mut Report) -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut secret_from = None;
    for (i, deal) in log.deals.iter().enumerate() {
        if usize::try_from(deal.deal).ok() != Some(i) {
            report.problem(format!("deal {i} is listed as deal {}", deal.deal));
            break;
        }
        let Some(text) = &deal.seed else {
            secret_from.get_or_insert(i);
            report.note(format!(
                "deal {i} (hand {}): seed not revealed yet (its hand is in play)",
                deal.hand
            ));
            continue;
        };
        let seed = match Seed::from_hex(text) {
            Ok(seed) => seed,
            Err(e) => {
                report.problem(format!("deal {i}: seed {text}: {e}"));
                break;
            }
        };
        if seed.commitment_hex() != deal.commitment.to_ascii_lowercase() {
            report.problem(format!(
                "deal {i}: sha256 of its seed is {}, but the commitment published at the deal \
                 was {}",
                seed.commitment_hex(),
                deal.commitment
            ));
            break;
        }
        if let Some(later) = secret_from {
            report.problem(format!(
                "deal {i} is revealed while the earlier deal {later} is not"
            ));
            break;
        }
        report.deals_checked += 1;
        report.note(format!(
            "deal {i} (hand {}): commitment ok; deck {}",
            deal.hand,
            deck_text(deck, deal, &seed)
        ));
        seeds.push(seed);
    }
    seeds
}

/// The deal's deck, top card first, recomputed from its seed (or the practice deck given).
fn deck_text(deck: Deck, deal: &DealOut, seed: &Seed) -> String {
    match &deal.practice_deck {
        Some(cards) => format!("{} (practice deck, not shuffled)", cards_text(cards)),
        None => cards_text(&shuffled_deck(deck, seed).0),
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays the logged game again from the revealed seeds and compares every visible event.
fn replay(log: &LogResponse, rules: &Rules, seeds: Vec<Seed>, report: &mut Report) {
    let revealed = seeds.len();
    if revealed == 0 {
        report.note("no deal is revealed yet: nothing to replay".to_owned());
        return;
    }
    let first_dealer = log.entries.iter().find_map(|entry| {
        entry.events.iter().find_map(|e| {
            (e.event.get("type")? == "hand_started" && e.event.get("deal")? == 0)
                .then(|| e.event.get("dealer")?.as_u64())
                .flatten()
        })
    });
    let Some(first_dealer) = first_dealer.and_then(|d| u8::try_from(d).ok()) else {
        report.problem("the log shows no first deal".to_owned());
        return;
    };
    let practice: Vec<Card> = log
        .deals
        .iter()
        .map_while(|d| d.practice_deck.clone())
        .flatten()
        .collect();
    let setup = Setup {
        // Never used: every deal replayed here has its own revealed seed.
        seed: Seed::from_bytes([0; 32]),
        deck: (!practice.is_empty()).then_some(practice),
        replay: Some(Replay {
            first_dealer: Seat::new(first_dealer),
            deal_seeds: seeds,
        }),
    };
    let mut game: Option<AnyGame> = None;
    for entry in &log.entries {
        let at = entry.version;
        let outcome = match (entry.action.as_str(), game.as_mut()) {
            ("started", _) => AnyGame::create(
                log.kind,
                Some(&log.variant),
                rules.seats,
                &rules.options,
                &setup,
            )
            .map(|(g, events)| {
                game = Some(g);
                events
            })
            .map_err(|e| e.to_string()),
            ("move", Some(g)) => seat_of(entry.seat).and_then(|seat| {
                let payload = entry.mv.clone().unwrap_or(Value::Null);
                let mv = log.kind.parse_move(payload).map_err(|e| e.to_string())?;
                g.play(seat, &mv).map_err(|e| e.to_string())
            }),
            ("deal", Some(g)) => g.deal_next().map_err(|e| e.to_string()),
            ("resign", Some(g)) => seat_of(entry.seat).and_then(|seat| {
                g.resign(seat)
                    .map(|(_, events)| events)
                    .map_err(|e| e.to_string())
            }),
            ("move" | "deal" | "resign", None) => Err("it comes before the first deal".to_owned()),
            // The service's own entries (created, joined, abandoned) carry no game events.
            _ => continue,
        };
        let events = match outcome {
            Ok(events) => events,
            Err(e) => {
                report.problem(format!(
                    "version {at} ({}): the rules refuse it: {e}",
                    entry.action
                ));
                return;
            }
        };
        if game
            .as_ref()
            .is_some_and(|g| g.table().deals() as usize > revealed)
        {
            report.note(format!(
                "version {at}: deal {revealed} begins, its seed not revealed yet: stopping here"
            ));
            return;
        }
        let expected = match visible(&events, rules.viewer) {
            Ok(expected) => expected,
            Err(e) => {
                report.problem(format!("version {at}: {e}"));
                return;
            }
        };
        // (The service's announcements, such as a new deadline, ride along with the rules'.)
        let shown: Vec<&Value> = entry
            .events
            .iter()
            .map(|e| &e.event)
            .filter(|e| !crate::events::is_announcement(e))
            .collect();
        if expected.iter().collect::<Vec<_>>() != shown {
            report.problem(format!(
                "version {at} ({}): the log shows {} but the revealed seeds give {}",
                entry.action,
                abbreviate(&Value::from(shown.into_iter().cloned().collect::<Vec<_>>())),
                abbreviate(&Value::from(expected))
            ));
            return;
        }
        report.entries_checked += 1;
        report.events_checked += entry.events.len();
    }
}

fn seat_of(seat: Option<i64>) -> Result<Seat, String> {
    seat.and_then(|s| u8::try_from(s).ok())
        .map(Seat::new)
        .ok_or_else(|| "it names no seat".to_owned())
}

/// The events `viewer` may see, as the log shows them.
fn visible(events: &Events<AnyEvent>, viewer: Viewer) -> Result<Vec<Value>, String> {
    events
        .iter()
        .filter(|e| e.to.includes(viewer))
        .map(|e| serde_json::to_value(&e.event).map_err(|e| e.to_string()))
        .collect()
}

fn abbreviate(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
