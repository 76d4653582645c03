//! A player never sees another hand, the stock, or a seed before its hand is over, through any
//! endpoint.

use std::time::Duration;

use cardroom_core::{CardSet, Seat, Viewer};
use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Player, Server, cards_in, hand_of};

fn everything_visible_to(server: &Server, player: &Player, id: i64) -> Vec<(String, Value)> {
    ["", "/events?after=0&wait=0", "/log", "/score"]
        .iter()
        .map(|suffix| {
            let reply = server.get(&format!("/api/v1/games/{id}{suffix}"), Some(&player.token));
            assert_eq!(reply.status, 200, "{suffix}: {reply:?}");
            (suffix.to_string(), reply.body)
        })
        .collect()
}

/// What `viewer` may know now: the cards its seat may see in the stored state's zones, plus
/// every card an event addressed to it ever named (the first set); and the cards of the zones
/// plus every card any public event ever named (the second set: a card discarded, shuffled back
/// into the stock and drawn by another player was once seen face up).
pub fn known_to(server: &Server, id: i64, viewer: Viewer) -> (CardSet, CardSet) {
    let pool = cardroom_db::connect(&server.database_url, 1, Duration::from_secs(5)).unwrap();
    let mut conn = pool.get().unwrap();
    let game = cardroom_api::play::snapshot_of(&mut conn, cardroom_db::GameId::new(id))
        .unwrap()
        .unwrap();
    let now: CardSet = game
        .zones()
        .into_iter()
        .filter(|z| z.seen_by.includes(viewer))
        .flat_map(|z| z.cards)
        .collect();
    let (mut told, mut public) = (now, now);
    for row in
        cardroom_db::games::log_after(&mut conn, cardroom_db::GameId::new(id), 0, 100_000).unwrap()
    {
        let events: Vec<Value> = serde_json::from_str(&row.events).unwrap();
        for event in events {
            let to: cardroom_core::Audience = serde_json::from_value(event["to"].clone()).unwrap();
            if to.includes(viewer) {
                told |= cards_in(&event["event"]);
            }
            if to == cardroom_core::Audience::Everyone {
                public |= cards_in(&event["event"]);
            }
        }
    }
    (told, public)
}

/// A move that keeps the game moving toward its end: melds first, stock draws rather than
/// swaps with the face-up pile; otherwise the first legal move.
pub fn steady(legal: &[Value]) -> Value {
    ["meld", "lay_off", "draw_stock", "pass_drawn", "end_turn"]
        .iter()
        .find_map(|kind| legal.iter().find(|m| m["type"] == *kind))
        .unwrap_or(&legal[0])
        .clone()
}

/// Plays `steps` steps of a two-person game (or to its end), checking every endpoint each step.
fn never_sees_the_other_hand(backend: Backend, game: Value, steps: usize) {
    let server = Server::start(backend);
    let amira = server.guest("amira");
    let karim = server.guest("karim");
    let (id, view) = server.create(&amira, game);
    server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&karim.token),
        &json!({"invite_code": view["invite_code"]}),
    );
    let players = [(&amira, Seat::new(0)), (&karim, Seat::new(1))];
    // Each player's event stream from the start, and everything it has sent so far: checked
    // with the endpoints at every step, and once more at the end.
    let streams: Vec<_> = players
        .iter()
        .map(|(p, _)| {
            server
                .stream(
                    &format!("/api/v1/games/{id}/events?after=0"),
                    &p.token,
                    None,
                )
                .unwrap()
        })
        .collect();
    let mut streamed = vec![Vec::new(), Vec::new()];
    let take = |streamed: &mut Vec<Vec<Value>>, wait: Duration| {
        for (me, events) in streams.iter().enumerate() {
            while let Ok((_, event)) = events.recv_timeout(wait) {
                streamed[me].push(event);
            }
        }
    };

    for step in 0..=steps {
        let views: Vec<Value> = players.iter().map(|(p, _)| server.view(p, id)).collect();
        let over = views[0]["status"] == "finished" || step == steps;
        take(
            &mut streamed,
            if over {
                Duration::from_secs(1)
            } else {
                Duration::ZERO
            },
        );
        // The part of each player's hand the other may not know (never face up, not shown at
        // the end of a hand) is absent from everything the other may read; and everything
        // each reads is among the cards their seat may know.
        for (me, (player, seat)) in players.iter().enumerate() {
            let (known, public) = known_to(&server, id, Viewer::Seat(*seat));
            let secret = hand_of(&views[1 - me]) - public;
            let mut visible = everything_visible_to(&server, player, id);
            visible.push((
                "the event stream".to_owned(),
                Value::from(streamed[me].clone()),
            ));
            for (endpoint, body) in visible {
                let shown = cards_in(&body);
                assert!(
                    (shown & secret).is_empty(),
                    "step {step}: {endpoint} shows seat {} the other hand's {}",
                    seat.number(),
                    shown & secret
                );
                assert!(
                    shown.is_subset(known),
                    "step {step}: {endpoint} shows {}",
                    shown - known
                );
                // No seed of a hand still being played.
                if endpoint == "/log" && views[me]["status"] == "active" {
                    let deals = body["deals"].as_array().unwrap();
                    assert!(
                        deals.last().unwrap()["seed"].is_null(),
                        "the current deal's seed leaked"
                    );
                }
            }
        }
        if over {
            assert!(
                streamed.iter().all(|events| !events.is_empty()),
                "the streams sent nothing"
            );
            return;
        }
        for (i, (player, _)) in players.iter().enumerate() {
            let view = &views[i];
            if view["status"] == "hand_over" {
                server.post(
                    &format!("/api/v1/games/{id}/deal"),
                    Some(&player.token),
                    &json!({}),
                );
                break;
            }
            if view["status"] == "active" && view["to_act"] == view["your_seat"] {
                let legal = view["legal_moves"].as_array().unwrap();
                assert_eq!(server.play(player, view, &steady(legal)).status, 200);
                break;
            }
        }
    }
}

fn a_basra_player_never_sees_the_other_hand_through_any_endpoint(backend: Backend) {
    never_sees_the_other_hand(
        backend,
        json!({"kind": "basra", "seats": [{}, {}], "options": {"target": 31}}),
        400,
    );
}

fn a_31_player_never_sees_the_other_hand_through_any_endpoint(backend: Backend) {
    never_sees_the_other_hand(
        backend,
        json!({"kind": "thirty_one", "variant": "classic", "seats": [{}, {}]}),
        400,
    );
}

fn a_rummy_player_never_sees_the_other_hand_through_any_endpoint(backend: Backend) {
    never_sees_the_other_hand(
        backend,
        json!({"kind": "rummy", "variant": "classic", "seats": [{}, {}], "options": {"rounds": 1}}),
        400,
    );
}

fn a_tarneeb_player_never_sees_another_hand_through_any_endpoint(backend: Backend) {
    never_sees_the_other_hand(
        backend,
        json!({"kind": "tarneeb", "seats": [{}, {}, {"bot": "greedy"}, {"bot": "greedy"}], "options": {"target": 31}}),
        90,
    );
}

on_both_backends!(
    a_tarneeb_player_never_sees_another_hand_through_any_endpoint,
    a_basra_player_never_sees_the_other_hand_through_any_endpoint,
    a_31_player_never_sees_the_other_hand_through_any_endpoint,
    a_rummy_player_never_sees_the_other_hand_through_any_endpoint,
);
