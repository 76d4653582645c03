//! A round's tables made: each table's game (entrants in their seats, computer players in the
//! rest), its seats and byes written, each entrant told — and the board a duplicate round
//! deals from. Shared by every format's pairing ([`super::rounds`], [`super::teams`]).

use std::collections::BTreeMap;

use cardroom_core::Seed;
use cardroom_db::tournaments::{self, EntrantRow, Format, NewSeat, TournamentRow};
use cardroom_db::{AnyConnection, GameId, Visibility};
use sha2::{Digest, Sha256};

use super::super::setup::{HouseDeal, create_undealt, random_seed};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::model::{AccountEvent, CreateGame, SeatRequest, TurnPolicy};

/// Makes each table's game (entrants in the seats the table lists them in, computer players of
/// the fill level in the seats without one), writes the round's seats and byes, and tells each
/// entrant.
#[allow(clippy::too_many_arguments, reason = "one round's whole description")]
pub(super) fn seat_tables(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    entrants: &[EntrantRow],
    tables: &[Vec<Option<i64>>],
    byes: &[i64],
    round: i32,
    board: Option<Seed>,
    metrics: &Metrics,
) -> Result<Vec<GameId>, ApiError> {
    let users: BTreeMap<i64, i64> = entrants.iter().map(|e| (e.id, e.user_id)).collect();
    let mut new_seats = Vec::new();
    let mut notices = Vec::new();
    let mut made = Vec::new();
    for table in tables {
        let people = table
            .iter()
            .map(|e| {
                e.map(|e| {
                    users
                        .get(&e)
                        .copied()
                        .ok_or_else(|| ApiError::internal("a paired entrant who never entered"))
                })
                .transpose()
            })
            .collect::<Result<Vec<Option<i64>>, _>>()?;
        let game = make_game(conn, row, &people, board, metrics)?;
        made.push(game);
        let seated = table.iter().zip(&people).enumerate();
        for (seat, (entrant, user)) in seated.filter_map(|(s, (e, u))| Some((s, ((*e)?, (*u)?)))) {
            new_seats.push(NewSeat {
                entrant_id: entrant,
                game_id: Some(game),
                seat: Some(seat as i32),
            });
            notices.push(
                AccountEvent::TournamentGame {
                    tournament_id: row.id,
                    round: i64::from(round),
                    game_id: game.get(),
                    seat: seat as i64,
                }
                .notice(user),
            );
        }
    }
    new_seats.extend(byes.iter().map(|&entrant| NewSeat {
        entrant_id: entrant,
        game_id: None,
        seat: None,
    }));
    tournaments::seat(conn, row.id, round, &new_seats)?;
    cardroom_db::account_events::add(conn, &notices)?;
    Ok(made)
}

/// One table's game, not dealt yet: `people[seat]` the account in each seat, computer players
/// in the seats without one (and in those past the list's end); made by its first person.
fn make_game(
    conn: &mut AnyConnection,
    row: &TournamentRow,
    people: &[Option<i64>],
    board: Option<Seed>,
    metrics: &Metrics,
) -> Result<GameId, ApiError> {
    let (first_seat, first) = people
        .iter()
        .enumerate()
        .find_map(|(seat, user)| Some((seat, (*user)?)))
        .ok_or_else(|| ApiError::internal("a table of no one"))?;
    let creator = cardroom_db::users::by_id(conn, first)?
        .ok_or_else(|| ApiError::internal("an entrant without an account"))?;
    let level = fill_level(row).unwrap_or(row.kind.describe().default_level);
    let n = usize::try_from(row.table_seats).unwrap_or(2);
    let request = CreateGame {
        kind: row.kind,
        variant: Some(row.variant.clone()),
        seats: (0..n)
            .map(|seat| SeatRequest {
                bot: people
                    .get(seat)
                    .copied()
                    .flatten()
                    .is_none()
                    .then(|| level.name().to_owned()),
            })
            .collect(),
        options: serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?,
        seat: Some(first_seat as i64),
        seed: None,
        deck: None,
        turn: Some(TurnPolicy {
            seconds: i64::from(row.turn_seconds),
            takeover_after: Some(i64::from(row.takeover_after)),
        }),
        // A duplicate round's deals are the same at every table: no one watches until the
        // round is over.
        visibility: Some(if row.format == Format::Duplicate {
            Visibility::Private
        } else {
            Visibility::Public
        }),
    };
    let others: Vec<(usize, i64)> = people
        .iter()
        .enumerate()
        .filter(|&(seat, _)| seat != first_seat)
        .filter_map(|(seat, user)| Some((seat, (*user)?)))
        .collect();
    let house = HouseDeal {
        seed: board.unwrap_or_else(random_seed),
        practice: !row.rated,
    };
    create_undealt(
        conn,
        &Caller::acting_for(&creator),
        &request,
        &others,
        Some(house),
        metrics,
    )
}

/// A duplicate round's board: the seed every table of the round deals from, from the
/// tournament's secret seed and the round's number.
pub(super) fn board_seed(row: &TournamentRow, round: i32) -> Result<Seed, ApiError> {
    let secret = Seed::from_hex(&row.seed).map_err(ApiError::because("stored tournament seed"))?;
    let mut hash = Sha256::new();
    hash.update(b"cardroom board");
    hash.update(secret.to_hex().as_bytes());
    hash.update(round.to_be_bytes());
    Ok(Seed::from_bytes(hash.finalize().into()))
}

/// The computer level that completes a table short of entrants, if the tournament has one.
pub(super) fn fill_level(row: &TournamentRow) -> Option<cardroom_core::BotLevel> {
    row.fill
}
