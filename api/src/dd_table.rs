//! `cardroom dd-table`: the double-dummy table of each deal read from standard input, by
//! [`cardroom_core::double_dummy`]. `scripts/dd-oracle` checks it against an independent solver
//! and times both.
//!
//! Input: one deal a line in PBN form, `N:AKQ.JT9.8765.432 …`: the first hand's seat (`N`, `E`,
//! `S` or `W`), then the four hands clockwise, each as its spades, hearts, diamonds and clubs
//! separated by dots (`-` or nothing for a void). Seats 0–3 are N, E, S and W; N and S are
//! partners, as seats 0 and 2 are at a Tarneeb table.
//!
//! Output: one JSON object a line, `{"tricks": [[…4]×5], "micros": N}`: for each trump (spades,
//! hearts, diamonds, clubs, no-trump) and each declarer (N, E, S, W), the tricks the declarer's
//! side takes when the seat after the declarer leads; the microseconds the table took, and the
//! positions the solver visited for it.

use std::io::{BufRead, Write};
use std::time::Instant;

use cardroom_core::double_dummy::{Position, Solver};
use cardroom_core::{Card, CardSet, Rank, Seat, Suit};

pub const USAGE: &str = "usage: cardroom dd-table < DEALS\n\
  reads deals in PBN form (`N:hand hand hand hand`, each hand spades.hearts.diamonds.clubs),\n\
  one a line, and prints each deal's double-dummy table as a line of JSON: tricks[trump][declarer]\n\
  for trumps S, H, D, C, NT and declarers N, E, S, W, and the microseconds it took";

/// The trumps in the table's order.
const TRUMPS: [Option<Suit>; 5] = [
    Some(Suit::Spades),
    Some(Suit::Hearts),
    Some(Suit::Diamonds),
    Some(Suit::Clubs),
    None,
];

/// A deal in PBN form: the four hands by seat (N, E, S, W).
pub fn parse_pbn(text: &str) -> Result<[CardSet; 4], String> {
    let text = text.trim();
    let (first, hands) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` is not a PBN deal (`N:hand hand hand hand`)"))?;
    let first = match first.trim() {
        "N" | "n" => 0,
        "E" | "e" => 1,
        "S" | "s" => 2,
        "W" | "w" => 3,
        other => return Err(format!("`{other}` is no seat (N, E, S or W)")),
    };
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(format!("a deal has four hands, not {}", hands.len()));
    }
    let mut deal = [CardSet::EMPTY; 4];
    let mut seen = CardSet::EMPTY;
    for (i, hand) in hands.iter().enumerate() {
        let suits: Vec<&str> = hand.split('.').collect();
        if suits.len() != 4 {
            return Err(format!("`{hand}` does not have four suits"));
        }
        let seat = (first + i) % 4;
        for (suit, ranks) in [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
            .into_iter()
            .zip(suits)
        {
            for letter in ranks.chars().filter(|&c| c != '-') {
                let rank = match letter.to_ascii_uppercase() {
                    'A' => Rank::Ace,
                    'K' => Rank::King,
                    'Q' => Rank::Queen,
                    'J' => Rank::Jack,
                    'T' => Rank::Ten,
                    d @ '2'..='9' => Rank::from_number(d as u8 - b'0')
                        .ok_or_else(|| format!("`{d}` is no rank"))?,
                    other => return Err(format!("`{other}` is no rank (AKQJT98765432)")),
                };
                let card = Card::new(rank, suit);
                if !seen.insert(card) {
                    return Err(format!("{card} is dealt twice"));
                }
                deal[seat].insert(card);
            }
        }
    }
    if deal.iter().any(|hand| hand.len() != 13) {
        return Err("every hand has thirteen cards".to_owned());
    }
    Ok(deal)
}

/// The table of one deal: `tricks[trump][declarer]`.
pub fn table(solver: &mut Solver, hands: [CardSet; 4]) -> Result<[[u8; 4]; 5], String> {
    let mut table = [[0u8; 4]; 5];
    for (row, trump) in table.iter_mut().zip(TRUMPS) {
        for declarer in 0..4 {
            let leader = Seat::new(((declarer + 1) % 4) as u8);
            let position = Position {
                hands,
                trick: Vec::new(),
                to_act: leader,
                trump,
            };
            // The last declarer's tricks are the defence's guess: the next lead is made from
            // the last declarer's side, and the answers are usually equal or one off.
            let defence = match declarer {
                0 => solver.tricks(&position),
                _ => solver.tricks_near(&position, row[declarer - 1]),
            }
            .map_err(|e| e.to_string())?;
            row[declarer] = 13 - defence;
        }
    }
    Ok(table)
}

/// Reads deals from standard input and prints their tables; the exit code's number.
pub fn run() -> u8 {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut solver = Solver::new();
    for (n, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("cardroom dd-table: cannot read standard input");
            return 2;
        };
        if line.trim().is_empty() {
            continue;
        }
        let hands = match parse_pbn(&line) {
            Ok(hands) => hands,
            Err(error) => {
                eprintln!("cardroom dd-table: line {}: {error}", n + 1);
                return 2;
            }
        };
        let started = Instant::now();
        let nodes_before = solver.nodes();
        let table = match table(&mut solver, hands) {
            Ok(table) => table,
            Err(error) => {
                eprintln!("cardroom dd-table: line {}: {error}", n + 1);
                return 2;
            }
        };
        let micros = started.elapsed().as_micros();
        let nodes = solver.nodes() - nodes_before;
        let line = serde_json::json!({ "tricks": table, "micros": micros, "nodes": nodes });
        if writeln!(stdout, "{line}").is_err() {
            return 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pbn_deal_reads_by_seat_and_bad_ones_are_refused() {
        let deal =
            parse_pbn("E:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT")
                .unwrap();
        // The first hand is East's.
        assert!(deal[1].contains("9S".parse().unwrap()));
        assert!(deal[2].contains("KS".parse().unwrap()));
        assert!(deal[0].contains("TS".parse().unwrap()));
        for bad in [
            "",
            "N:",
            "X:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT",
            "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4",
            "N:974.AJ3.63.AK96 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT3",
            "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJX",
            "N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852",
        ] {
            assert!(parse_pbn(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_deal_from_the_literature_solves_to_its_published_table() {
        // A deal from endplay's tutorial, and the table DDS gives for it (through endplay).
        let deal =
            parse_pbn("N:974.AJ3.63.AK963 K83.K9752.7.8752 AQJ5.T864.KJ94.4 T62.Q.AQT852.QJT")
                .unwrap();
        let mut solver = Solver::new();
        assert_eq!(
            table(&mut solver, deal).unwrap(),
            [
                [9, 4, 9, 3],
                [8, 4, 9, 3],
                [8, 5, 8, 4],
                [8, 4, 9, 3],
                [9, 4, 9, 3]
            ]
        );
    }
}
