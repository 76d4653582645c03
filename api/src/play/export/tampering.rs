//! Tampered records are refused where they were changed: each kind's example game (the ones in
//! `docs/examples`) with one entry changed to another legal move, one line's seat changed, two
//! seats' `Hand` lines swapping a card, the `Seed` header changed, and a name, a computer's
//! level, `Practice` or `Turn` changed. Each is refused with a reason that names the entry, the
//! `Hand` line or the header; the unchanged records import.

use cardroom_core::{AnyGame, Options, Seat, Seed, Setup};

use super::import::check;
use super::text::parse;

const KINDS: [&str; 4] = ["basra", "thirty_one", "rummy", "tarneeb"];

fn example(kind: &str) -> String {
    let path = format!("{}/../docs/examples/{kind}.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn refusal(text: &str) -> String {
    let export = parse(text).expect("the notation still reads");
    match check(&export) {
        Ok(report) => panic!("a tampered record was accepted: {report:?}"),
        Err(reason) => reason,
    }
}

/// The first `move` entry whose seat had another legal move, and that other move (compact
/// JSON): a change the rules alone cannot see.
fn another_legal_move(text: &str) -> (i64, String) {
    let export = parse(text).expect("the example reads");
    let options: Options = serde_json::from_value(export.options.clone()).expect("options");
    let setup = Setup {
        seed: Seed::from_hex(&export.seed).expect("a seed"),
        deck: export.deck.clone(),
        replay: None,
    };
    let mut game: Option<AnyGame> = None;
    for entry in &export.entries {
        match entry.action.as_str() {
            "started" => {
                let variant = Some(export.variant.as_str());
                let created =
                    AnyGame::create(export.kind, variant, export.seats.len(), &options, &setup);
                game = Some(created.expect("the example starts").0);
            }
            "move" => {
                let game = game.as_mut().expect("started");
                let seat = Seat::new(u8::try_from(entry.seat.expect("a seat")).expect("a seat"));
                let played = entry.mv.clone().expect("a move");
                let other = game
                    .legal_moves(seat)
                    .into_iter()
                    .map(|m| serde_json::to_value(m).expect("a move encodes"))
                    .find(|m| *m != played);
                if let Some(other) = other {
                    return (entry.version, other.to_string());
                }
                let mv = export.kind.parse_move(&played).expect("the move reads");
                game.play(seat, &mv).expect("the example's move is legal");
            }
            "deal" => {
                game.as_mut().expect("started").deal_next().expect("a deal");
            }
            _ => {}
        }
    }
    panic!("no entry had another legal move")
}

/// `text` with the line starting `prefix` changed by `change`.
fn with_line(text: &str, prefix: &str, change: impl Fn(&str) -> String) -> String {
    let mut found = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if !found && line.starts_with(prefix) {
                found = true;
                change(line)
            } else {
                line.to_owned()
            }
        })
        .collect();
    assert!(found, "no line starts with {prefix:?}");
    lines.join("\n") + "\n"
}

#[test]
fn every_kinds_example_imports_unchanged() {
    for kind in KINDS {
        let export = parse(&example(kind)).expect("the example reads");
        assert!(export.entries.iter().all(|e| e.digest.is_some()), "{kind}");
        check(&export).unwrap_or_else(|e| panic!("{kind}: {e}"));
    }
}

#[test]
fn an_entry_changed_to_another_legal_move_is_refused_at_that_entry() {
    for kind in KINDS {
        let text = example(kind);
        let (version, other) = another_legal_move(&text);
        let tampered = with_line(&text, &format!("{version} s"), |line| {
            let (before, digest) = line.rsplit_once(" #").expect("a digest");
            let mut parts: Vec<&str> = before.splitn(4, ' ').collect();
            parts.truncate(3);
            format!("{} {other} #{digest}", parts.join(" "))
        });
        let reason = refusal(&tampered);
        assert!(
            reason.starts_with(&format!("entry {version}: ")) && reason.contains("digest"),
            "{kind}: {reason}"
        );
    }
}

#[test]
fn a_31_draw_said_to_be_from_the_discard_pile_is_refused_at_that_entry() {
    // The change an independent check made: the hand's outcome stays the same.
    let text = example("thirty_one");
    let tampered = with_line(&text, "3 s0 move {\"from\":\"stock\"", |line| {
        line.replacen("\"from\":\"stock\"", "\"from\":\"discard\"", 1)
    });
    let reason = refusal(&tampered);
    assert!(
        reason.starts_with("entry 3: ") && reason.contains("digest"),
        "{reason}"
    );
}

#[test]
fn an_entry_given_to_another_seat_is_refused_at_that_entry() {
    for kind in KINDS {
        let text = example(kind);
        // The table's first line: `1 s0 created`, now said to be seat 1's.
        let tampered = with_line(&text, "1 s0 created", |line| line.replacen("s0", "s1", 1));
        let reason = refusal(&tampered);
        assert!(reason.starts_with("entry 1: "), "{kind}: {reason}");
    }
}

#[test]
fn hand_lines_that_swap_a_card_are_refused_naming_the_line() {
    for kind in KINDS {
        let text = example(kind);
        let first = |prefix: &str| -> String {
            let line = text
                .lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("{kind}: no {prefix}"));
            let cards = line.split_once(": ").expect("a hand").1;
            cards.split_whitespace().next().expect("a card").to_owned()
        };
        let (mine, theirs) = (first("Hand 1 s0:"), first("Hand 1 s1:"));
        let swap = |from: String, to: String| {
            move |line: &str| {
                let (label, cards) = line.split_once(": ").expect("a hand");
                let cards: Vec<String> = cards
                    .split(' ')
                    .map(|c| if c == from { to.clone() } else { c.to_owned() })
                    .collect();
                format!("{label}: {}", cards.join(" "))
            }
        };
        let tampered = with_line(&text, "Hand 1 s0:", swap(mine.clone(), theirs.clone()));
        let tampered = with_line(&tampered, "Hand 1 s1:", swap(theirs, mine));
        let reason = refusal(&tampered);
        assert!(reason.starts_with("`Hand 1 s0` says"), "{kind}: {reason}");
    }
}

#[test]
fn a_changed_seed_is_refused_naming_the_seed() {
    for kind in KINDS {
        let text = example(kind);
        let tampered = with_line(&text, "Seed: ", |line| {
            let last = if line.ends_with('0') { "1" } else { "0" };
            format!("{}{last}", &line[..line.len() - 1])
        });
        let reason = refusal(&tampered);
        assert!(reason.contains("the `Seed` header"), "{kind}: {reason}");
    }
}

#[test]
fn the_earlier_versions_of_the_notation_are_refused_with_what_to_do() {
    for old in ["# cardroom-game 1", "# cardroom-game 2"] {
        let text = example("basra").replacen("# cardroom-game 3", old, 1);
        let reason = parse(&text).expect_err("an earlier version is refused");
        assert!(reason.contains("export the game again"), "{old}: {reason}");
    }
}

/// `line` (a header, `Name: value #DIGEST`) with its value changed by `change`, the digest
/// kept: what a hand-edited file looks like.
fn header_changed(line: &str, change: impl Fn(&str) -> String) -> String {
    let (text, digest) = line
        .rsplit_once(" #")
        .expect("a header ends with its digest");
    format!("{} #{digest}", change(text))
}

#[test]
fn a_changed_header_is_refused_naming_it() {
    // Each example: a seat's name made `admin`, `Practice` flipped, the turn timer changed, a
    // computer player's level raised; and a header without its digest.
    for kind in KINDS {
        let text = example(kind);
        let cases = [
            (
                with_line(&text, "Seat 0: ", |line| {
                    header_changed(line, |_| "Seat 0: admin".to_owned())
                }),
                "`Seat 0`",
            ),
            (
                with_line(&text, "Practice: ", |line| {
                    header_changed(line, |h| {
                        if h.ends_with("yes") {
                            "Practice: no"
                        } else {
                            "Practice: yes"
                        }
                        .to_owned()
                    })
                }),
                "`Practice`",
            ),
            (
                with_line(&text, "Turn: ", |line| {
                    header_changed(line, |_| "Turn: 30s takeover 2".to_owned())
                }),
                "`Turn`",
            ),
            (
                with_line(&text, "Seat 1: computer medium", |line| {
                    header_changed(line, |h| h.replace("medium", "hard"))
                }),
                "`Seat 1`",
            ),
        ];
        for (tampered, named) in cases {
            let reason = refusal(&tampered);
            assert!(
                reason.contains(&format!("the {named} header is not the one recorded")),
                "{kind}: {reason}"
            );
        }
        let bare = with_line(&text, "Practice: ", |line| {
            line.rsplit_once(" #").expect("a digest").0.to_owned()
        });
        let reason = parse(&bare).expect_err("a header without its digest");
        assert!(
            reason.contains("a header ends with its digest"),
            "{kind}: {reason}"
        );
    }
}
