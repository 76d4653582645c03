//! What the tournament tests share: entering guests and bot accounts, playing every entrant's
//! turns until a tournament is over, and checking a finished tournament of each format against
//! its stored games — places, points, tie-breaks, matchpoints, streaks — recomputed here from
//! each game's score sheet, not taken from the tournament's own answer.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::programs::{api_token, through};
use crate::support::{Client, Player, Reply, Server};

/// Pairing looks every 150 ms in these tests (2 s by default).
pub(crate) const SWEEP: (&str, &str) = ("CARDROOM_SWEEP_MS", "150");

/// An arena's minutes of 15 seconds: its clock runs out, as a real one would, four times sooner
/// (a minute of play was the most of the tests that play an arena through).
pub(crate) const ARENA_MINUTE: (&str, &str) = ("CARDROOM_ARENA_MINUTE_SECS", "15");

/// An entrant: their name and how they act (a guest's session, or a bot account's API token).
pub(crate) struct Entrant {
    pub(crate) name: String,
    pub(crate) player: Player,
}

/// `guests` guests and `bots` bot accounts (playing through API tokens), all entered in `id`.
pub(crate) fn enter(server: &Server, id: i64, guests: usize, bots: usize) -> Vec<Entrant> {
    let mut entrants = Vec::new();
    for i in 0..guests + bots {
        let name = format!("entrant{id}n{i}");
        let player = if i < guests {
            server.guest(&name)
        } else {
            let account = server.register(&name);
            let became = server.post("/api/v1/account/bot", Some(&account.token), &json!({}));
            assert_eq!(became.status, 200, "{became:?}");
            let token = api_token(server, &account, &["play", "read"]);
            through(&account, &token)
        };
        let joined = server.post(
            &format!("/api/v1/tournaments/{id}/join"),
            Some(&player.token),
            &json!({}),
        );
        assert_eq!(joined.status, 200, "{joined:?}");
        assert_eq!(joined.body["joined"], true);
        entrants.push(Entrant { name, player });
    }
    entrants
}

/// A tournament made by the admin, starting in an hour until [`Upcoming::start`] brings its
/// start to now: entrants join first, however long that takes on a busy machine (a start a
/// second ahead could come before the last of them).
pub(crate) struct Upcoming {
    pub(crate) id: i64,
    terms: Value,
}

impl Upcoming {
    /// Brings the start to now (the admin changes the terms); the sweep starts it.
    pub(crate) fn start(&self, server: &Client, admin: &str) {
        start_now(server, admin, self.id, self.terms.clone());
    }
}

/// Brings tournament `id`'s start to now, as its maker (`token`) changing its `terms` (the
/// whole description, as it was made).
pub(crate) fn start_now(server: &Client, token: &str, id: i64, mut terms: Value) {
    terms["starts_in"] = json!(0);
    let changed = server.put_json(&format!("/api/v1/tournaments/{id}"), Some(token), &terms);
    assert_eq!(changed.status, 200, "{changed:?}");
}

/// Makes a tournament as the admin, starting in an hour (see [`Upcoming`]).
pub(crate) fn make(server: &Client, admin: &str, body: Value) -> Upcoming {
    let mut terms = body;
    terms["starts_in"] = json!(3600);
    let made = server.post("/api/v1/tournaments", Some(admin), &terms);
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(made.body["status"], "upcoming");
    Upcoming {
        id: made.body["id"].as_i64().unwrap(),
        terms,
    }
}

/// Plays every entrant's turns (the first legal move; dealing when a hand is over) through the
/// `servers` in turn, until the tournament is over. Returns its final state.
pub(crate) fn play_through(
    servers: &[&Client],
    admin: &str,
    id: i64,
    entrants: &[Entrant],
    limit: Duration,
) -> Value {
    play_all(servers, admin, &[id], entrants, limit).remove(0)
}

/// [`play_through`] for several tournaments at once; their final states, in the order given.
pub(crate) fn play_all(
    servers: &[&Client],
    admin: &str,
    ids: &[i64],
    entrants: &[Entrant],
    limit: Duration,
) -> Vec<Value> {
    play_all_choosing(servers, admin, ids, entrants, limit, &|_| 0)
}

/// [`play_all`], each move the legal move at the index `choose` gives for the view (modulo the
/// number of legal moves). Each table of a round is played until nobody at it can act (its
/// game over, or a hand over and dealt by nobody yet), each move by the seat the last answer
/// named, through the next of the `servers`; then the tournament is read again.
pub(crate) fn play_all_choosing(
    servers: &[&Client],
    admin: &str,
    ids: &[i64],
    entrants: &[Entrant],
    limit: Duration,
    choose: &dyn Fn(&Value) -> usize,
) -> Vec<Value> {
    let by_name: BTreeMap<&str, &Player> = entrants
        .iter()
        .map(|e| (e.name.as_str(), &e.player))
        .collect();
    let until = Instant::now() + limit;
    let mut finals: BTreeMap<i64, Value> = BTreeMap::new();
    let mut turn = 0;
    let mut next_server = || {
        turn += 1;
        servers[turn % servers.len()]
    };
    while finals.len() < ids.len() {
        let mut progressed = false;
        let open: Vec<i64> = ids
            .iter()
            .copied()
            .filter(|id| !finals.contains_key(id))
            .collect();
        for id in open {
            let state = next_server().get(&format!("/api/v1/tournaments/{id}"), Some(admin));
            assert_eq!(state.status, 200, "{state:?}");
            let state = state.body;
            if state["status"] == "finished" || state["status"] == "cancelled" {
                finals.insert(id, state);
                continue;
            }
            for round in state["round_tables"].as_array().unwrap() {
                for table in round["tables"].as_array().unwrap() {
                    if table["over"] == true {
                        continue;
                    }
                    let game = table["game_id"].as_i64().unwrap();
                    let players: Vec<&Player> = table["seats"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|seat| by_name[seat["name"].as_str().unwrap()])
                        .collect();
                    // Whose turn it is, from the last answer (none known: every seat is asked).
                    let mut hint: Option<usize> = None;
                    let mut acts = 0u64;
                    loop {
                        assert!(
                            Instant::now() < until,
                            "tournaments {ids:?} did not finish in time: {:?}; game {game} \
                             was being played, {acts} passes in a row, its view now {}",
                            finals.keys(),
                            glance(
                                &next_server()
                                    .get(&format!("/api/v1/games/{game}"), Some(&players[0].token))
                            ),
                        );
                        acts += 1;
                        let asked: Vec<usize> = match hint {
                            Some(seat) if seat < players.len() => vec![seat],
                            _ => (0..players.len()).collect(),
                        };
                        let acted = asked
                            .into_iter()
                            .find_map(|seat| act_once(next_server(), players[seat], game, choose));
                        match acted {
                            Some(next) => {
                                progressed = true;
                                hint = next;
                            }
                            // The seat named could not act (a computer player's turn, say):
                            // ask every seat once more before leaving the table.
                            None if hint.is_some() => hint = None,
                            None => break,
                        }
                    }
                }
            }
        }
        assert!(
            Instant::now() < until,
            "tournaments {ids:?} did not finish in time: {:?}",
            finals.keys()
        );
        if !progressed && finals.len() < ids.len() {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    ids.iter().map(|id| finals.remove(id).unwrap()).collect()
}

/// What a game's view says about whose turn it is, for a test's failure message (whatever the
/// answer: a failure to read it must not hide the failure being reported).
fn glance(reply: &Reply) -> Value {
    let view = &reply.body;
    json!({"answer": reply.status, "status": view["status"], "version": view["version"],
        "to_act": view["to_act"], "your_seat": view["your_seat"],
        "legal_moves": view["legal_moves"].as_array().map(Vec::len), "code": view["code"]})
}

/// Acts once as `player` at `game` if they may: deals when a hand is over, or makes the move
/// `choose` picks on their turn. Then `Some` of the seat the answer says is to act next (`None`
/// inside it when it names nobody); `None` when the player had nothing to do.
fn act_once(
    server: &Client,
    player: &Player,
    game: i64,
    choose: &dyn Fn(&Value) -> usize,
) -> Option<Option<usize>> {
    let view = server.view(player, game);
    let reply = match view["status"].as_str() {
        Some("hand_over") => {
            let reply = server.post(
                &format!("/api/v1/games/{game}/deal"),
                Some(&player.token),
                &json!({}),
            );
            assert!(
                reply.status == 200 || reply.status == 409,
                "deal: {reply:?}"
            );
            reply
        }
        Some("active") if view["to_act"] == view["your_seat"] => {
            let legal = view["legal_moves"].as_array().map_or(1, Vec::len).max(1);
            let reply = server.play(player, &view, &view["legal_moves"][choose(&view) % legal]);
            assert!(
                reply.status == 200 || reply.body["code"] == "version_conflict",
                "move: {reply:?}"
            );
            reply
        }
        _ => return None,
    };
    let next = reply.body["view"]["to_act"]
        .as_u64()
        .and_then(|seat| usize::try_from(seat).ok());
    Some(next)
}

/// A finished game's sides, totals and winners, from the stored game (`/games/{id}/score`), and
/// its number of sides:
/// each seat's side place (winners first, then by total — lower first where `lower_wins`),
/// the points that place is worth (first of n sides n − 1, a shared place the average) and its
/// result (the side's total, negated where lower wins).
pub(crate) fn seat_results(
    server: &Client,
    token: &str,
    game: i64,
    lower_wins: bool,
) -> (Vec<(usize, f64, i64, bool)>, usize) {
    let score = server.get(&format!("/api/v1/games/{game}/score"), Some(token));
    assert_eq!(score.status, 200, "{score:?}");
    let sides: Vec<Vec<i64>> = serde_json::from_value(score.body["sides"].clone()).unwrap();
    let totals: Vec<i64> = serde_json::from_value(score.body["totals"].clone()).unwrap();
    let winners: Vec<usize> =
        serde_json::from_value(score.body["outcome"]["winners"].clone()).unwrap();
    let sign = if lower_wins { -1 } else { 1 };
    let key = |side: usize| (winners.contains(&side), sign * totals[side]);
    let n = sides.len();
    let place = |side: usize| (0..n).filter(|&o| key(o) > key(side)).count();
    let points = |side: usize| {
        let below = (0..n).filter(|&o| place(o) > place(side)).count();
        let tied = (0..n).filter(|&o| place(o) == place(side)).count() - 1;
        below as f64 + tied as f64 / 2.0
    };
    let alone_first = (0..n).filter(|&o| place(o) == 0).count() == 1;
    let mut out = vec![(0, 0.0, 0, false); sides.iter().map(Vec::len).sum()];
    for (side, seats) in sides.iter().enumerate() {
        for &seat in seats {
            out[seat as usize] = (
                place(side),
                points(side),
                sign * totals[side],
                place(side) == 0 && alone_first,
            );
        }
    }
    (out, n)
}

/// Every round seats each entrant at most once, at tables of the tournament's size.
pub(crate) fn seated_once_a_round(state: &Value, seats: usize) {
    for round in state["round_tables"].as_array().unwrap() {
        let mut seen = BTreeSet::new();
        for table in round["tables"].as_array().unwrap() {
            let at = table["seats"].as_array().unwrap();
            assert!(!at.is_empty() && at.len() <= seats, "{table}");
            for seat in at {
                assert!(seen.insert(seat["entrant_id"].as_i64().unwrap()), "{round}");
            }
        }
        for bye in round["byes"].as_array().unwrap() {
            assert!(seen.insert(bye.as_i64().unwrap()), "{round}");
        }
    }
}

/// The standings' points, by name.
pub(crate) fn points_of(state: &Value) -> BTreeMap<String, f64> {
    state["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["points"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The ranks follow the points (Swiss: then Buchholz, then Sonneborn–Berger).
pub(crate) fn ranked(state: &Value) {
    let lines = state["standings"].as_array().unwrap();
    let key = |s: &Value| {
        [
            s["points"].as_f64().unwrap(),
            s["buchholz"].as_f64().unwrap_or(0.0),
            s["sonneborn_berger"].as_f64().unwrap_or(0.0),
        ]
    };
    for pair in lines.windows(2) {
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a >= b, "{pair:?}");
        let (ra, rb) = (pair[0]["rank"].as_i64(), pair[1]["rank"].as_i64());
        assert_eq!(a == b, ra == rb, "{pair:?}");
    }
}

/// Swiss: each seat's place and result are the stored game's; the standings' points are the
/// sum of the place points (and a win's worth, `sides - 1`, a bye); Buchholz is the sum of the
/// final points of everyone sat with; ranks follow. Returns who sat together, table by table.
pub(crate) fn check_swiss(
    server: &Client,
    admin: &str,
    state: &Value,
    lower_wins: bool,
) -> Vec<Vec<String>> {
    let mut points: BTreeMap<String, f64> =
        points_of(state).keys().map(|n| (n.clone(), 0.0)).collect();
    let mut opponents: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut tables = Vec::new();
    let mut sides = 2;
    let names: BTreeMap<i64, String> = state["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["entrant_id"].as_i64().unwrap(),
                p["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for round in state["round_tables"].as_array().unwrap() {
        for table in round["tables"].as_array().unwrap() {
            let game = table["game_id"].as_i64().unwrap();
            let (results, game_sides) = seat_results(server, admin, game, lower_wins);
            sides = game_sides;
            let seated: Vec<String> = table["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["name"].as_str().unwrap().to_owned())
                .collect();
            for seat in table["seats"].as_array().unwrap() {
                let at = seat["seat"].as_u64().unwrap() as usize;
                let name = seat["name"].as_str().unwrap().to_owned();
                assert_eq!(seat["place"], results[at].0, "{table}");
                assert_eq!(seat["result"], results[at].2, "{table}");
                assert_eq!(seat["points"].as_f64(), Some(results[at].1), "{table}");
                *points.entry(name.clone()).or_default() += results[at].1;
                let others: Vec<String> = seated.iter().filter(|n| **n != name).cloned().collect();
                opponents.entry(name).or_default().extend(others);
            }
            tables.push(seated);
        }
        for bye in round["byes"].as_array().unwrap() {
            *points.get_mut(&names[&bye.as_i64().unwrap()]).unwrap() += (sides - 1) as f64;
        }
    }
    assert_eq!(
        points_of(state),
        points,
        "standings = the stored games' points"
    );
    for line in state["standings"].as_array().unwrap() {
        let name = line["name"].as_str().unwrap();
        let met = opponents.get(name).cloned().unwrap_or_default();
        let buchholz: f64 = met.iter().map(|o| points[o]).sum();
        assert_eq!(line["buchholz"].as_f64(), Some(buchholz), "{line}");
    }
    ranked(state);
    tables
}

/// Duplicate: every table of a round dealt the same first deal; each seat's matchpoints are its
/// result against the same seat at every other table of the round; the standings are each
/// entrant's average; ranks follow.
pub(crate) fn check_duplicate(server: &Client, admin: &str, state: &Value, lower_wins: bool) {
    let mut percentages: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for round in state["round_tables"].as_array().unwrap() {
        let tables = round["tables"].as_array().unwrap();
        let commitments: BTreeSet<String> = tables
            .iter()
            .map(|t| {
                let log = server.get(&format!("/api/v1/games/{}/log", t["game_id"]), Some(admin));
                log.body["deals"][0]["commitment"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(commitments.len(), 1, "one board a round: {commitments:?}");
        let mut by_seat: BTreeMap<usize, Vec<(String, i64, f64)>> = BTreeMap::new();
        for table in tables {
            let (results, _) = seat_results(
                server,
                admin,
                table["game_id"].as_i64().unwrap(),
                lower_wins,
            );
            for seat in table["seats"].as_array().unwrap() {
                let at = seat["seat"].as_u64().unwrap() as usize;
                let name = seat["name"].as_str().unwrap().to_owned();
                assert_eq!(seat["result"], results[at].2, "{table}");
                let shown = seat["matchpoints"].as_f64().unwrap();
                by_seat
                    .entry(at)
                    .or_default()
                    .push((name, results[at].2, shown));
            }
        }
        for results in by_seat.values() {
            for (name, mine, shown) in results {
                let others = results.len() - 1;
                let earned: f64 = results
                    .iter()
                    .filter(|(n, _, _)| n != name)
                    .map(|(_, theirs, _)| match mine.cmp(theirs) {
                        std::cmp::Ordering::Greater => 2.0,
                        std::cmp::Ordering::Equal => 1.0,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum();
                let expected = if others == 0 {
                    50.0
                } else {
                    100.0 * earned / (2.0 * others as f64)
                };
                assert!(
                    (expected - shown).abs() < 1e-9,
                    "{name}: {expected} vs {shown}"
                );
                percentages.entry(name.clone()).or_default().push(expected);
            }
        }
    }
    let shown = points_of(state);
    for (name, boards) in &percentages {
        let average = boards.iter().sum::<f64>() / boards.len() as f64;
        assert!(
            (shown[name] - average).abs() < 1e-9,
            "{name}: {average} vs {}",
            shown[name]
        );
    }
    ranked(state);
}

/// Arena: each game, in the order paired, is worth 2 to its lone winner (4 after two wins in a
/// row), 1 to each of a shared first place, 0 otherwise; the standings are the sums.
pub(crate) fn check_arena(server: &Client, admin: &str, state: &Value, lower_wins: bool) {
    let mut streak: BTreeMap<String, u32> = BTreeMap::new();
    let mut points: BTreeMap<String, f64> =
        points_of(state).keys().map(|n| (n.clone(), 0.0)).collect();
    for round in state["round_tables"].as_array().unwrap() {
        for table in round["tables"].as_array().unwrap() {
            let (results, _) = seat_results(
                server,
                admin,
                table["game_id"].as_i64().unwrap(),
                lower_wins,
            );
            for seat in table["seats"].as_array().unwrap() {
                let name = seat["name"].as_str().unwrap().to_owned();
                let (place, _, _, alone) = results[seat["seat"].as_u64().unwrap() as usize];
                let run = streak.entry(name.clone()).or_default();
                let gained = if alone {
                    let worth = if *run >= 2 { 4.0 } else { 2.0 };
                    *run += 1;
                    worth
                } else {
                    *run = 0;
                    if place == 0 { 1.0 } else { 0.0 }
                };
                assert_eq!(seat["points"].as_f64(), Some(gained), "{table}");
                *points.get_mut(&name).unwrap() += gained;
            }
        }
    }
    assert_eq!(points_of(state), points);
    ranked(state);
}

/// Waits (at most 10 s) until tournament table `game` is dealt: a table is paired, then dealt in
/// a write of its own, and until then it has not started (resigning from it abandons it).
pub(crate) fn until_dealt(server: &Client, game: i64, token: &str) {
    crate::support::eventually(
        Duration::from_secs(10),
        &format!("table {game} dealt"),
        || {
            let view = server.get(&format!("/api/v1/games/{game}"), Some(token));
            view.status == 200 && view.body["status"] != "waiting"
        },
    );
}

/// Waits until `done` holds of tournament `id` as the admin reads it (at most a minute);
/// returns that state.
pub(crate) fn tournament_until(
    server: &Client,
    admin: &str,
    id: i64,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let state = server
            .get(&format!("/api/v1/tournaments/{id}"), Some(admin))
            .body;
        if done(&state) {
            return state;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited on: {state}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
