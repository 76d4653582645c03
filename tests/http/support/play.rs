//! Cards in a JSON document, and playing a game out through the API.

use cardroom_core::{Card, CardSet};
use serde_json::{Value, json};

use super::client::Player;
use super::server::Server;

/// Every card code in a JSON document.
pub fn cards_in(value: &Value) -> CardSet {
    match value {
        Value::String(s) if s.len() == 2 => {
            s.parse::<Card>().map(CardSet::single).unwrap_or_default()
        }
        Value::Array(items) => items
            .iter()
            .map(cards_in)
            .fold(CardSet::EMPTY, |a, b| a | b),
        Value::Object(map) => map
            .values()
            .map(cards_in)
            .fold(CardSet::EMPTY, |a, b| a | b),
        _ => CardSet::EMPTY,
    }
}

/// The cards of a view's own hand.
pub fn hand_of(view: &Value) -> CardSet {
    cards_in(&view["table"]["hand"])
}

/// Plays as `player` until the game is finished or it is nobody's (person's) turn here: picks
/// `choose(legal moves)` on the player's turn and deals when a hand is over. Returns the final
/// view. `others` are consulted for their turns too (two people at one table).
pub fn play_out(
    server: &Server,
    id: i64,
    players: &[&Player],
    choose: impl Fn(&[Value]) -> Value,
) -> Value {
    for _ in 0..5000 {
        let mut progressed = false;
        for player in players {
            let view = server.view(player, id);
            match view["status"].as_str() {
                Some("finished") => return view,
                Some("hand_over") => {
                    let reply = server.post(
                        &format!("/api/v1/games/{id}/deal"),
                        Some(&player.token),
                        &json!({}),
                    );
                    assert!(
                        reply.status == 200 || reply.body["code"] == "version_conflict",
                        "{reply:?}"
                    );
                    progressed = true;
                }
                Some("active") if view["to_act"] == view["your_seat"] => {
                    let legal = view["legal_moves"].as_array().expect("legal moves").clone();
                    assert!(!legal.is_empty(), "to act with no legal move: {view}");
                    let reply = server.play(player, &view, &choose(&legal));
                    assert_eq!(reply.status, 200, "{reply:?}");
                    progressed = true;
                }
                _ => {}
            }
        }
        assert!(progressed, "nobody could act");
    }
    panic!("the game did not finish");
}
