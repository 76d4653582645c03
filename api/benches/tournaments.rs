//! Pairing a round of a 1,000-entrant tournament on PostgreSQL, as the sweep runs it: the
//! pairing step — the tournament claimed, the results so far read and the standings computed,
//! the round paired, every table's game made, the seats written, each entrant told — in one
//! transaction; then the dealing of its tables, each its own versioned write (any replica may
//! deal them, and a replica that stops between the two leaves them for the next sweep).
//!
//! `scripts/with-postgres cargo bench -p cardroom-api --bench tournaments`
//!
//! For each format (a Swiss round, an arena pairing) and table size (Basra's two, Tarneeb's
//! four) it times the first round (everyone at 0) and a later one (after results recorded for
//! every game, the standings and who met whom shaping it), and checks that every entrant free
//! to play is seated exactly once. `ENTRANTS=n` changes the field's size.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark")]

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use cardroom_api::metrics::Metrics;
use cardroom_api::play::tournaments::{MINUTE, deal_tables, step_claimed};
use cardroom_core::GameKind;
use cardroom_db::AnyConnection;
use cardroom_db::tournaments::{self, Format, NewTournament, Recorded};

#[allow(
    dead_code,
    unused_imports,
    reason = "shared with the HTTP tests; the benchmark uses part of it"
)]
#[path = "../../tests/http/support/mod.rs"]
mod support;

/// A tournament of `n` fresh guests, due now.
fn field(conn: &mut AnyConnection, format: Format, kind: GameKind, seats: i32, n: usize) -> i64 {
    let maker =
        cardroom_db::users::create(conn, &format!("maker{format:?}{seats}"), None, false).unwrap();
    let row = tournaments::create(
        conn,
        &NewTournament {
            name: format!("{format:?} of {n}"),
            format,
            kind,
            variant: "standard".to_owned(),
            options: "{}".to_owned(),
            table_seats: seats,
            rounds: (format != Format::Arena).then_some(5),
            minutes: (format == Format::Arena).then_some(60),
            fill: None,
            turn_seconds: 60,
            takeover_after: 2,
            rated: true,
            code: None,
            seed: "11".repeat(32),
            created_by: maker.id,
            starts_at: cardroom_db::now(),
            teams: false,
        },
    )
    .unwrap();
    for i in 0..n {
        let user =
            cardroom_db::users::create(conn, &format!("e{}x{i}", row.id), None, true).unwrap();
        tournaments::join(conn, row.id, user.id).unwrap();
    }
    row.id
}

/// Records a result for every game of the round not yet over: the first seat's side wins.
fn finish_round(conn: &mut AnyConnection, id: i64, seats: i32) {
    let all = tournaments::seats(conn, id).unwrap();
    let games: BTreeSet<_> = all
        .iter()
        .filter(|s| s.place.is_none())
        .filter_map(|s| s.game_id)
        .collect();
    for game in games {
        let results: Vec<Recorded> = (0..seats)
            .map(|seat| {
                // Partnerships (four seats, two sides): seats 0 and 2 win.
                let won = if seats == 4 { seat % 2 == 0 } else { seat == 0 };
                Recorded {
                    seat,
                    place: i32::from(!won),
                    points: if won { 2 } else { 0 },
                    result: if won { 10 } else { 3 },
                    first: if won { 2 } else { 0 },
                }
            })
            .collect();
        tournaments::record(conn, id, game, &results).unwrap();
    }
}

/// Times one pairing step and then the dealing of its tables; checks that round `round`
/// seats each of `expected` entrants once and that every table is dealt.
fn timed_step(
    conn: &mut AnyConnection,
    id: i64,
    round: i32,
    expected: usize,
) -> (Duration, Duration) {
    let metrics = Metrics::default();
    let started = Instant::now();
    let swept = step_claimed(conn, id, cardroom_db::now(), &metrics, MINUTE).unwrap();
    let paired = started.elapsed();
    assert!(!swept.games.is_empty(), "the step paired nothing");
    let started = Instant::now();
    let dealt = deal_tables(conn, id, &metrics).unwrap();
    let dealing = started.elapsed();
    assert_eq!(dealt, swept.games.len(), "every table dealt");
    let seats = tournaments::seats(conn, id).unwrap();
    let mut seated = BTreeSet::new();
    for seat in seats.iter().filter(|s| s.round == round) {
        assert!(
            seated.insert(seat.entrant_id),
            "seated twice in round {round}"
        );
    }
    assert_eq!(
        seated.len(),
        expected,
        "everyone free is seated in round {round}"
    );
    (paired, dealing)
}

fn main() {
    let n: usize = std::env::var("ENTRANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let url = support::fresh_postgres_database();
    let pool = cardroom_db::connect(&url, 1, Duration::from_secs(10)).unwrap();
    let mut pooled = pool.get().unwrap();
    let conn: &mut AnyConnection = &mut pooled;
    cardroom_db::connection::migrate(conn).unwrap();
    println!("pairing a round of {n} entrants on PostgreSQL (games made; then dealt)");
    for (kind, seats) in [(GameKind::Basra, 2), (GameKind::Tarneeb, 4)] {
        for format in [Format::Swiss, Format::Arena] {
            let id = field(conn, format, kind, seats, n);
            let (first, first_deal) = timed_step(conn, id, 1, n);
            finish_round(conn, id, seats);
            let (later, later_deal) = timed_step(conn, id, 2, n);
            let tables = n / seats as usize;
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            println!(
                "{format:?} {kind}, {tables} tables of {seats}: paired in {:.0} ms (round 1) and \
                 {:.0} ms (round 2); dealt in {:.0} and {:.0} ms ({:.2} ms a table)",
                ms(first),
                ms(later),
                ms(first_deal),
                ms(later_deal),
                ms(later_deal) / tables as f64,
            );
        }
    }
}
