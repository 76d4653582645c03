//! Team matches (duplicate Tarneeb, teams of two pairs) over HTTP: the draw, the seating of each
//! match's two tables, byes and a team of computer players for the odd team out, and standings
//! recomputed from the stored games — each board's result for a team is its margins at both
//! tables added (`duplicate::team_board` of the games' totals), not the tournament's answer.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use cardroom_core::tournament::duplicate::team_board;
use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Client, Server};
use crate::tournament_checks::{SWEEP, enter, make, play_all_choosing, seated_once_a_round};

/// A team match of `guests` guests and `bots` bot accounts at Tarneeb (to 31), `rounds` rounds,
/// with `fill` computer players for the odd team out (or byes), played through `servers`;
/// checked against the stored games. Returns its final state.
fn team_match(
    server: &Server,
    servers: &[&Client],
    (guests, bots): (usize, usize),
    rounds: i64,
    fill: Option<&str>,
) -> Value {
    let admin = admin_token(server);
    let mut body = json!({"name": "Tarneeb teams", "format": "duplicate", "kind": "tarneeb",
        "options": {"target": 31}, "rounds": rounds, "teams": true});
    if let Some(level) = fill {
        body["fill"] = json!(level);
    }
    let made = make(server, &admin, body);
    let id = made.id;
    let entrants = enter(server, id, guests, bots);
    made.start(server, &admin);
    // Mostly the first legal move, every third a later one: the two tables of a match play the
    // board differently, so boards are won and lost, not all tied.
    let choose = |view: &Value| {
        let version = view["version"].as_u64().unwrap_or(0) as usize;
        if version.is_multiple_of(3) {
            version / 3
        } else {
            0
        }
    };
    let state = play_all_choosing(
        servers,
        &admin,
        &[id],
        &entrants,
        Duration::from_secs(300),
        &choose,
    )
    .remove(0);
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["teams"], true);
    assert_eq!(state["round"], rounds);
    seated_once_a_round(&state, 4);
    check_teams(server, &admin, &state, fill.is_some());
    state
}

/// Each entrant's team and pair, from the tournament's players.
fn teams_of(state: &Value) -> BTreeMap<i64, (i64, i64)> {
    state["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let team = p["team"].as_i64().expect("every entrant drawn into a team");
            let pair = p["pair"].as_i64().unwrap();
            (p["entrant_id"].as_i64().unwrap(), (team, pair))
        })
        .collect()
}

/// A game's totals by side (`/games/{id}/score`), and its first deal's commitment.
fn totals_and_board(server: &Client, admin: &str, game: i64) -> (Vec<i64>, String) {
    let score = server.get(&format!("/api/v1/games/{game}/score"), Some(admin));
    assert_eq!(score.status, 200, "{score:?}");
    let totals: Vec<i64> = serde_json::from_value(score.body["totals"].clone()).unwrap();
    let log = server.get(&format!("/api/v1/games/{game}/log"), Some(admin));
    let board = log.body["deals"][0]["commitment"]
        .as_str()
        .unwrap()
        .to_owned();
    (totals, board)
}

/// The draw is teams of four then one short team (every pair with a person); every round each
/// playing team sits one pair North–South (seats 0 and 2) at one table and its other pair
/// East–West (1 and 3) at its match's other table, every table of the round dealt one board; byes (`with_computers`: none — the odd team meets computer players); each seat's
/// margin, each team's board and the standings (1 a match won, ½ tied, 1 a bye; then the
/// boards' total; ranks shared exactly when both are equal) as recomputed from the games.
pub(crate) fn check_teams(server: &Client, admin: &str, state: &Value, with_computers: bool) {
    let teams = teams_of(state);
    let mut sizes: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for &(team, pair) in teams.values() {
        sizes.entry(team).or_default().push(pair);
    }
    let mut counts: Vec<usize> = sizes.values().map(Vec::len).collect();
    counts.sort_unstable();
    let n = teams.len();
    let expected: Vec<usize> = match n % 4 {
        0 => vec![4; n / 4],
        1 => [vec![2, 3], vec![4; n / 4 - 1]].concat(),
        rest => [vec![rest], vec![4; n / 4]].concat(),
    };
    assert_eq!(counts, expected, "the draw of {n}");
    for pairs in sizes.values() {
        assert!(
            pairs.contains(&1) && pairs.contains(&2),
            "a person in each pair: {sizes:?}"
        );
    }
    // team → (points, boards added)
    let mut standing: BTreeMap<i64, (f64, i64)> = sizes.keys().map(|&t| (t, (0.0, 0))).collect();
    for round in state["round_tables"].as_array().unwrap() {
        let tables = round["tables"].as_array().unwrap();
        let byes: BTreeSet<i64> = round["byes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| teams[&b.as_i64().unwrap()].0)
            .collect();
        assert!(byes.len() <= 1, "one team sits out at most: {round}");
        assert!(!with_computers || byes.is_empty(), "{round}");
        for team in &byes {
            standing.get_mut(team).unwrap().0 += 1.0;
        }
        let games: BTreeMap<i64, &Value> = tables
            .iter()
            .map(|t| (t["game_id"].as_i64().unwrap(), t))
            .collect();
        let mut boards = BTreeSet::new();
        // team → pair → the direction it sat (0: North–South, 1: East–West)
        let mut directions: BTreeMap<i64, BTreeMap<i64, i64>> = BTreeMap::new();
        // team → [(its side's total, the other side's total, the board it recorded)]
        let mut played: BTreeMap<i64, Vec<(i64, i64, Option<i64>)>> = BTreeMap::new();
        for (&game, table) in &games {
            let partner = table["match_game_id"]
                .as_i64()
                .expect("a match's other table");
            assert_eq!(games[&partner]["match_game_id"], game, "{round}");
            let (totals, board) = totals_and_board(server, admin, game);
            boards.insert(board);
            let mut sides: BTreeMap<i64, i64> = BTreeMap::new();
            for seat in table["seats"].as_array().unwrap() {
                let at = seat["seat"].as_i64().unwrap();
                let (team, pair) = teams[&seat["entrant_id"].as_i64().unwrap()];
                directions.entry(team).or_default().insert(pair, at % 2);
                let side = (at % 2) as usize;
                let margin = totals[side] - totals[1 - side];
                assert_eq!(seat["result"], margin, "{table}");
                if sides.insert(team, at % 2).is_none() {
                    played.entry(team).or_default().push((
                        totals[side],
                        totals[1 - side],
                        seat["board"].as_i64(),
                    ));
                }
                assert_eq!(
                    sides[&team],
                    at % 2,
                    "a team is one side at a table: {table}"
                );
            }
            assert!(
                sides.len() == 2 || with_computers,
                "two teams at a table: {table}"
            );
        }
        assert_eq!(boards.len(), 1, "one board a round: {round}");
        for (team, sat) in &directions {
            // Both pairs played, the other way round from each other.
            assert_eq!(sat.len(), 2, "team {team}: {round}");
            assert_ne!(sat[&1], sat[&2], "team {team}: {round}");
        }
        for (team, at) in &played {
            // (Which table is which does not change the sum.)
            let [(own_1, other_1, shown), (own_2, other_2, also)] = at[..] else {
                panic!("team {team} at {} tables: {round}", at.len());
            };
            assert_eq!(shown, also, "{round}");
            let board = team_board(own_1, own_2, other_1, other_2);
            assert_eq!(shown, Some(board), "team {team}: {round}");
            let entry = standing.get_mut(team).unwrap();
            entry.0 += match board.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            entry.1 += board;
        }
    }
    let lines = state["standings"].as_array().unwrap();
    assert_eq!(lines.len(), n);
    for line in lines {
        let team = line["team"].as_i64().unwrap();
        assert_eq!(teams[&line["entrant_id"].as_i64().unwrap()].0, team);
        let (points, difference) = standing[&team];
        assert_eq!(line["points"].as_f64(), Some(points), "{line}");
        assert_eq!(line["difference"].as_i64(), Some(difference), "{line}");
    }
    let key = |l: &Value| {
        (
            l["points"].as_f64().unwrap(),
            l["difference"].as_i64().unwrap(),
        )
    };
    for pair in lines.windows(2) {
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a >= b, "{pair:?}");
        assert_eq!(a == b, pair[0]["rank"] == pair[1]["rank"], "{pair:?}");
    }
}

/// Ten entrants (eight guests, two bot accounts): teams of four, four and two; three teams, so
/// each round one match of two tables and one team's bye — three rounds give each team one.
fn ten_entrants_play_three_teams_with_a_bye_a_round(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let state = team_match(&server, &[&server], (8, 2), 3, None);
    let mut byes: Vec<i64> = Vec::new();
    let teams = teams_of(&state);
    for round in state["round_tables"].as_array().unwrap() {
        assert_eq!(round["tables"].as_array().unwrap().len(), 2, "{round}");
        let team: BTreeSet<i64> = round["byes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| teams[&b.as_i64().unwrap()].0)
            .collect();
        byes.extend(team);
    }
    byes.sort_unstable();
    assert_eq!(byes, [1, 2, 3], "each team sits out once");
}

/// Nine entrants with a fill level: teams of four, three and two (never a lone person), the odd
/// team out meeting a team of computer players, a short team's empty seats computer players
/// too. Then withdrawing after the draw: a member of a full team is replaced by a computer
/// player (the team plays on, three people at its two tables); a short team that loses the only
/// person of a pair is no longer paired (neither seated nor given a bye), and its standing stays
/// as it was.
fn a_member_who_withdraws_is_played_by_the_computer_or_the_team_leaves(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN, SWEEP]);
    let admin = admin_token(&server);
    // Nine: teams of four, three and two, with computer players for the odd team out. (Each
    // board ends at its move cap, a hand or two in: what is checked is who plays the seats of
    // those who left, and the team results as the boards' margins, not whole games, which
    // `ten_entrants_play_three_teams_with_a_bye_a_round` plays.)
    let made = make(
        &server,
        &admin,
        json!({"name": "Teams, withdrawn", "format": "duplicate", "kind": "tarneeb",
               "options": {"target": 31, "move_cap": 100}, "rounds": 2, "teams": true, "fill": "easy"}),
    );
    let id = made.id;
    let entrants = enter(&server, id, 9, 0);
    made.start(&server, &admin);
    let state = loop {
        let state = server
            .get(&format!("/api/v1/tournaments/{id}"), Some(&admin))
            .body;
        if state["round"] == 1 {
            break state;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let teams = teams_of(&state);
    // Three teams and computer players for the odd one: two matches, four tables, no bye.
    assert_eq!(
        state["round_tables"][0]["tables"].as_array().unwrap().len(),
        4,
        "{state}"
    );
    assert!(
        state["round_tables"][0]["byes"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let size = |team: i64| teams.values().filter(|(t, _)| *t == team).count();
    let name_of = |entrant: i64| {
        state["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["entrant_id"] == entrant)
            .unwrap()["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let in_team = |team: i64| -> Vec<i64> {
        teams
            .iter()
            .filter(|(_, (t, _))| *t == team)
            .map(|(e, _)| *e)
            .collect()
    };
    let full = (1..=3).find(|&t| size(t) == 4).unwrap();
    let short = (1..=3).find(|&t| size(t) == 2).unwrap();
    let leaving = [in_team(full)[0], in_team(short)[0]];
    for entrant in leaving {
        let name = name_of(entrant);
        let who = entrants.iter().find(|e| e.name == name).unwrap();
        let left = server.post(
            &format!("/api/v1/tournaments/{id}/withdraw"),
            Some(&who.player.token),
            &json!({}),
        );
        assert_eq!(left.status, 200, "{left:?}");
    }
    let state = crate::tournament_checks::play_through(
        &[&server],
        &admin,
        id,
        &entrants,
        Duration::from_secs(300),
    );
    assert_eq!(state["status"], "finished", "{state}");
    check_teams(&server, &admin, &state, true);
    let round_two = &state["round_tables"][1];
    let seated: BTreeMap<i64, i64> = round_two["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["seats"].as_array().unwrap().clone())
        .map(|s| {
            let entrant = s["entrant_id"].as_i64().unwrap();
            (entrant, teams[&entrant].0)
        })
        .collect();
    assert!(
        round_two["byes"].as_array().unwrap().is_empty(),
        "{round_two}"
    );
    let count = |team: i64| seated.values().filter(|&&t| t == team).count();
    assert_eq!(
        count(full),
        3,
        "the full team plays on, a computer player for one: {round_two}"
    );
    assert_eq!(count(short), 0, "the short team is out: {round_two}");
    assert_eq!(
        round_two["tables"].as_array().unwrap().len(),
        2,
        "two teams left, one match: {round_two}"
    );
    for entrant in leaving {
        assert!(!seated.contains_key(&entrant));
    }
    // The short team's line: what its first round was worth, no more.
    let lines = state["standings"].as_array().unwrap();
    let line = lines
        .iter()
        .find(|l| l["entrant_id"] == in_team(short)[1])
        .unwrap();
    assert_eq!(line["games"], 1, "{line}");
}

on_both_backends!(
    ten_entrants_play_three_teams_with_a_bye_a_round,
    a_member_who_withdraws_is_played_by_the_computer_or_the_team_leaves,
);

/// Two replicas on one PostgreSQL pair a team match at once, its moves through both: each
/// round's two matches are made once (eight tables in all), and the standings are as
/// recomputed.
#[test]
fn two_replicas_pair_a_team_match_once() {
    let a = Server::start_with(Backend::Postgres, &[ADMIN, SWEEP]);
    let b = a.replica(&[ADMIN, SWEEP]);
    let state = team_match(&a, &[&b, &a], (8, 0), 2, None);
    let tables: usize = state["round_tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tables"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        tables, 4,
        "two teams of four: one match of two tables a round"
    );
    let pool = cardroom_db::connect(&a.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut pooled = pool.get().unwrap();
    let conn: &mut cardroom_db::AnyConnection = &mut pooled;
    use diesel::prelude::*;
    let games: i64 = cardroom_db::schema::games::table
        .count()
        .get_result(conn)
        .unwrap();
    assert_eq!(games, 4, "nothing beyond the rounds' tables");
}
