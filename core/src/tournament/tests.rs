use std::collections::BTreeSet;

use proptest::prelude::*;

use super::arena::{self, Finish, Free, Score};
use super::duplicate::{matchpoints, session, team_board};
use super::swiss::{self, Entry};
use super::teams;
use super::{EntrantId, Met, TableResult, place_points, side_places, standings};

fn entries(n: u32) -> Vec<Entry> {
    (0..n)
        .map(|i| Entry {
            entrant: i,
            points: 0,
            rating: 1500.0 + f64::from(i % 7) * 10.0,
            byes: 0,
        })
        .collect()
}

/// Plays `rounds` Swiss rounds where the best-rated at each table always wins; returns the
/// rounds and the meetings.
fn simulate(n: u32, seats: usize, rounds: usize) -> (Vec<swiss::Round>, Met) {
    let mut field = entries(n);
    let mut met = Met::default();
    let mut played = Vec::new();
    for _ in 0..rounds {
        let round = swiss::pair(&field, seats, &met);
        for table in &round.tables {
            met.table(table);
            let places = table
                .iter()
                .map(|e| {
                    let r = field[*e as usize].rating;
                    table
                        .iter()
                        .filter(|o| field[**o as usize].rating > r)
                        .count() as u8
                })
                .collect::<Vec<_>>();
            for (e, p) in table.iter().zip(place_points(&places)) {
                field[*e as usize].points += p;
            }
        }
        for &e in &round.byes {
            field[e as usize].points += 2 * (seats as u32 - 1);
            field[e as usize].byes += 1;
        }
        played.push(round);
    }
    (played, met)
}

proptest! {
    #[test]
    fn a_swiss_round_seats_everyone_once_at_full_tables_or_gives_a_bye(
        n in 0u32..120,
        seats in 2usize..9,
        points in proptest::collection::vec(0u32..20, 120),
        byes in proptest::collection::vec(0u32..3, 120),
    ) {
        let field: Vec<Entry> = (0..n)
            .map(|i| Entry {
                entrant: i,
                points: points[i as usize],
                rating: 1500.0,
                byes: byes[i as usize],
            })
            .collect();
        let round = swiss::pair(&field, seats, &Met::default());
        let mut seen = BTreeSet::new();
        for table in &round.tables {
            prop_assert_eq!(table.len(), seats);
            for e in table {
                prop_assert!(seen.insert(*e), "seated twice: {}", e);
            }
        }
        prop_assert_eq!(round.byes.len(), n as usize % seats);
        for e in &round.byes {
            prop_assert!(seen.insert(*e), "a bye and a seat: {}", e);
        }
        prop_assert_eq!(seen.len(), n as usize);
        // Nobody with more byes gets one while someone with fewer goes without.
        let most = round.byes.iter().map(|e| byes[*e as usize]).max();
        if let Some(most) = most {
            for t in round.tables.iter().flatten() {
                prop_assert!(byes[*t as usize] >= most);
            }
        }
    }

    #[test]
    fn an_arena_pairing_seats_each_free_entrant_at_most_once_never_with_their_last_table(
        n in 0u32..80,
        seats in 2usize..7,
        points in proptest::collection::vec(0u32..30, 80),
        last_tables in proptest::collection::vec(0u32..40, 80),
    ) {
        // Each entrant just left a table (numbered at random, a few share one), or none.
        let table_of = |i: u32| last_tables[i as usize];
        let free: Vec<Free> = (0..n)
            .map(|i| Free {
                entrant: i,
                points: points[i as usize],
                rating: 1500.0,
                since: u64::from(i),
                last: (0..n)
                    .filter(|&j| j != i && table_of(i) < 20 && table_of(j) == table_of(i))
                    .collect(),
            })
            .collect();
        let tables = arena::pair(&free, seats);
        prop_assert!(tables.len() <= n as usize / seats);
        let mut seen = BTreeSet::new();
        for table in &tables {
            prop_assert_eq!(table.len(), seats);
            for e in table {
                prop_assert!(seen.insert(*e));
            }
            for a in table {
                for b in table {
                    prop_assert!(a == b || !arena::just_played(&free[*a as usize], &free[*b as usize]),
                        "{} and {} just played together: {:?}", a, b, table);
                }
            }
        }
        // Whoever waits could not have been seated with a table's worth of the others waiting.
        let waiting: Vec<&Free> = free.iter().filter(|f| !seen.contains(&f.entrant)).collect();
        let strangers = waiting.iter().all(|a| waiting.iter().all(|b| !arena::just_played(a, b)));
        if strangers {
            prop_assert!(waiting.len() < seats, "{} wait, all strangers: {:?}", waiting.len(), tables);
        }
    }

    #[test]
    fn matchpoints_share_out_half_the_top_on_average(results in proptest::collection::vec(-50i64..50, 1..30)) {
        let mp = matchpoints(&results);
        let average = session(&mp);
        prop_assert!((average - 50.0).abs() < 1e-9, "{average}");
        for (i, a) in results.iter().enumerate() {
            for (j, b) in results.iter().enumerate() {
                if a > b {
                    prop_assert!(mp[i] > mp[j]);
                }
                if a == b {
                    prop_assert!((mp[i] - mp[j]).abs() < 1e-9);
                }
            }
        }
    }
}

#[test]
fn a_small_swiss_avoids_repeat_opponents_while_it_can() {
    // Sixteen players: four rounds at tables of two, then two rounds at tables of four.
    let (rounds, _) = simulate(16, 2, 4);
    let mut met = Met::default();
    for round in &rounds {
        for table in &round.tables {
            assert_eq!(
                met.repeats(table[1], &table[..1]),
                0,
                "{table:?} met before"
            );
        }
        for table in &round.tables {
            met.table(table);
        }
    }
    let (rounds, _) = simulate(16, 4, 2);
    let mut met = Met::default();
    for round in &rounds {
        for table in &round.tables {
            for (i, e) in table.iter().enumerate() {
                assert_eq!(met.repeats(*e, &table[..i]), 0, "{table:?}");
            }
        }
        for table in &round.tables {
            met.table(table);
        }
    }
}

#[test]
fn the_first_round_seats_by_standing_and_byes_go_to_the_bottom() {
    let mut field = entries(7);
    for e in &mut field {
        e.points = 10 - e.entrant;
    }
    let round = swiss::pair(&field, 2, &Met::default());
    assert_eq!(round.tables, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
    assert_eq!(round.byes, vec![6]);
    // The last-placed already had a bye: the next one up gets it.
    field[6].byes = 1;
    let round = swiss::pair(&field, 2, &Met::default());
    assert_eq!(round.byes, vec![5]);
    assert_eq!(round.tables, vec![vec![0, 1], vec![2, 3], vec![4, 6]]);
}

#[test]
fn places_are_worth_one_point_for_each_seat_below_and_ties_share() {
    assert_eq!(place_points(&[0, 1]), vec![2, 0]);
    assert_eq!(place_points(&[1, 0, 3, 2]), vec![4, 6, 0, 2]);
    assert_eq!(place_points(&[0, 0]), vec![1, 1]);
    assert_eq!(place_points(&[0, 0, 2]), vec![3, 3, 0]);
}

#[test]
fn standings_break_ties_by_buchholz_then_sonneborn_berger() {
    let game = |a: EntrantId, b: EntrantId| TableResult {
        seats: vec![(a, 2), (b, 0)],
    };
    // 0 beat 1 and 2; 3 beat 2 and lost to 1; 1 beat 3. Points: 0: 4, 1: 2, 3: 2, 2: 0.
    let games = [game(0, 1), game(0, 2), game(3, 2), game(1, 3)];
    let table = standings(&[0, 1, 2, 3], &games, &[], 2);
    let order: Vec<EntrantId> = table.iter().map(|s| s.entrant).collect();
    // 1 and 3 both have 2; 1 met 0 (4) and 3 (2): Buchholz 6; 3 met 2 (0) and 1 (2): 2.
    assert_eq!(order, vec![0, 1, 3, 2]);
    assert_eq!(table[1].buchholz, 6);
    assert_eq!(table[2].buchholz, 2);
    assert_eq!(
        table.iter().map(|s| s.rank).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    // A bye is a win's points; equal on everything is an equal rank.
    let table = standings(&[5, 6], &[], &[5, 6], 2);
    assert_eq!(table[0].points, 2);
    assert_eq!((table[0].rank, table[1].rank), (1, 1));
}

#[test]
fn two_wins_in_a_row_set_an_arena_entrant_on_fire_until_a_game_is_not_won() {
    let mut score = Score::default();
    let gained: Vec<u32> = [
        Finish::Won,
        Finish::Won,
        Finish::Won,
        Finish::Won,
        Finish::Tied,
        Finish::Won,
        Finish::Lost,
        Finish::Won,
    ]
    .into_iter()
    .map(|f| score.record(f))
    .collect();
    assert_eq!(gained, vec![2, 2, 4, 4, 1, 2, 0, 2]);
    assert_eq!(score.points, 17);
}

#[test]
fn the_arena_does_not_seat_the_same_two_again_at_once_when_another_can_sit() {
    let free = |entrant: EntrantId, points: u32, last: Vec<EntrantId>| Free {
        entrant,
        points,
        rating: 1500.0,
        since: 0,
        last,
    };
    let tables = arena::pair(
        &[
            free(0, 10, vec![1]),
            free(1, 9, vec![0]),
            free(2, 8, vec![]),
            free(3, 1, vec![]),
        ],
        2,
    );
    assert_eq!(tables, vec![vec![0, 2], vec![1, 3]]);
    // When only the two of them are free, they wait for someone else rather than play again.
    let tables = arena::pair(&[free(0, 10, vec![1]), free(1, 9, vec![0])], 2);
    assert_eq!(tables, Vec::<Vec<EntrantId>>::new());
    // The leader who just played everyone free waits; the others still play.
    let tables = arena::pair(
        &[
            free(0, 10, vec![1, 2, 3]),
            free(1, 9, vec![0]),
            free(2, 8, vec![0]),
            free(3, 1, vec![0]),
        ],
        2,
    );
    assert_eq!(tables, vec![vec![1, 2]]);
}

#[test]
fn a_board_is_scored_against_the_same_seat_only() {
    assert_eq!(matchpoints(&[10, 5, 5, 0]), vec![100.0, 50.0, 50.0, 0.0]);
    assert_eq!(matchpoints(&[3]), vec![50.0]);
    assert!(matchpoints(&[]).is_empty());
    assert_eq!(team_board(9, -4, 4, -9), 10);
}

#[test]
fn a_repeat_left_at_the_bottom_is_swapped_with_the_table_above() {
    // 0, 1, 2, 3 in standing order; only 2 and 3 have met.
    let mut field = entries(4);
    for e in &mut field {
        e.points = 10 - e.entrant;
    }
    let mut met = Met::default();
    met.table(&[2, 3]);
    // Greedy from the top: [0, 1], then [2, 3] (all that is left) repeats; a swap mends it.
    let round = swiss::pair(&field, 2, &met);
    assert_eq!(round.tables, vec![vec![1, 2], vec![0, 3]]);
    let seated: BTreeSet<EntrantId> = round.tables.iter().flatten().copied().collect();
    assert_eq!(seated.len(), 4);
    // When every arrangement repeats, the round is still whole.
    met.table(&[0, 1]);
    met.table(&[0, 2]);
    met.table(&[0, 3]);
    met.table(&[1, 2]);
    met.table(&[1, 3]);
    let round = swiss::pair(&field, 2, &met);
    assert_eq!(round.tables.iter().flatten().count(), 4);
}

#[test]
fn sides_are_placed_winners_first_then_by_total_in_the_games_direction() {
    // Basra: the winner first, the others by their totals; equal totals tie.
    assert_eq!(
        side_places(&[40, 101, 40, 77], &[1], false),
        vec![2, 0, 2, 1]
    );
    // Classic Rummy: the lowest total wins and the rest follow lowest first.
    assert_eq!(side_places(&[30, 12, 55], &[1], true), vec![1, 0, 2]);
    // Two winners share first place; a game stopped by the move cap is placed by totals.
    assert_eq!(side_places(&[5, 5, 1], &[0, 1], false), vec![0, 0, 2]);
    assert_eq!(side_places(&[3, 9], &[], false), vec![1, 0]);
}

proptest! {
    /// Every entrant is in exactly one team; every pair of every team holds a person; no team
    /// has more than four.
    #[test]
    fn teams_take_everyone_once_with_a_person_in_every_pair(n in 2u32..60) {
        let order: Vec<EntrantId> = (0..n).map(|i| i * 7 + 3).collect();
        let formed = teams::form(&order);
        let members: Vec<EntrantId> = formed.iter().flatten().flatten().copied().collect();
        prop_assert_eq!(members.len(), order.len());
        prop_assert_eq!(members.iter().collect::<BTreeSet<_>>().len(), order.len());
        for team in &formed {
            prop_assert!(team[0].is_some() || team[1].is_some(), "{:?}", team);
            prop_assert!(team[2].is_some() || team[3].is_some(), "{:?}", team);
        }
        // Only the last team or two may be short.
        let short = formed.iter().filter(|t| t.iter().any(Option::is_none)).count();
        prop_assert!(short <= 2);
    }
}

#[test]
fn teams_are_fours_then_a_short_one_spread_over_both_pairs() {
    assert!(teams::form(&[7]).is_empty());
    assert_eq!(teams::form(&[1, 2]), vec![[Some(1), None, Some(2), None]]);
    assert_eq!(
        teams::form(&[1, 2, 3, 4, 5, 6]),
        vec![
            [Some(1), Some(3), Some(2), Some(4)],
            [Some(5), None, Some(6), None]
        ]
    );
    // Five: a three and a two, never a lone person with three computer players.
    assert_eq!(
        teams::form(&[1, 2, 3, 4, 5]),
        vec![
            [Some(1), Some(3), Some(2), None],
            [Some(4), None, Some(5), None]
        ]
    );
}

#[test]
fn a_match_seats_each_pair_the_other_way_round_at_the_other_table() {
    let a = [Some(1), Some(2), Some(3), Some(4)];
    let b = [Some(5), Some(6), Some(7), None];
    let [first, second] = teams::match_tables(&a, &b);
    // Seats 0 and 2 are North–South, 1 and 3 East–West.
    assert_eq!(first, [Some(1), Some(5), Some(2), Some(6)]);
    assert_eq!(second, [Some(7), Some(3), None, Some(4)]);
    // A's first pair North–South at one table, its second pair East–West at the other.
    assert_eq!((first[0], first[2]), (a[0], a[1]));
    assert_eq!((second[1], second[3]), (a[2], a[3]));
}

#[test]
fn team_standings_rank_by_match_points_then_by_the_boards_total() {
    use teams::Outcome::{Bye, Played};
    // A team's board result is its margin at both tables: 12 − 30 at one, 41 − 8 at the other.
    assert_eq!(team_board(12, 41, 30, 8), 15);
    let outcomes = [
        (1, vec![Played(15), Played(-3)]),
        (2, vec![Played(-15), Bye]),
        (3, vec![Played(3), Played(0)]),
        (4, vec![Bye, Played(-40)]),
        (5, vec![]),
    ]
    .into_iter()
    .collect();
    let table = teams::standings(&outcomes);
    let lines: Vec<(u32, u32, i64, u32)> = table
        .iter()
        .map(|s| (s.team, s.points, s.difference, s.rank))
        .collect();
    assert_eq!(
        lines,
        vec![
            (3, 3, 3, 1),
            (1, 2, 12, 2),
            (2, 2, -15, 3),
            (4, 2, -40, 4),
            (5, 0, 0, 5)
        ]
    );
    // Equal on both counts: one rank.
    let tied = [(1, vec![Played(5)]), (2, vec![Played(5)])]
        .into_iter()
        .collect();
    let ranks: Vec<u32> = teams::standings(&tied).iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 1]);
}
