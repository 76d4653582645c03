//! An invitation read before sitting down: by someone with no account yet, the game, its house
//! rules, who invites and the sides; then the seat it offers taken.

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server};

fn an_invitation_says_what_the_friend_is_invited_to_and_seats_them_where_the_host_chose(
    backend: Backend,
) {
    let server = Server::start(backend);
    let host = server.guest("layla");
    // Tarneeb with two friends to come: seat 2 the host's partner, seat 1 an opponent.
    let (id, created) = server.create(
        &host,
        json!({"kind": "tarneeb", "seats": [{}, {}, {}, {"bot": "easy"}], "options": {"target": 31},
               "turn": {"seconds": 60}}),
    );
    let code = created["invite_code"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/games/{id}/invitation");
    // Read by a stranger who has only the link.
    let invitation = server.get(&format!("{path}?code={code}"), None);
    assert_eq!(invitation.status, 200, "{invitation:?}");
    let body = &invitation.body;
    assert_eq!(body["kind"], "tarneeb");
    assert_eq!(body["variant"], "standard");
    assert_eq!(body["invited_by"], "layla");
    assert_eq!(body["open_seats"], json!([1, 2]));
    assert_eq!(body["sides"], json!([[0, 2], [1, 3]]));
    assert_eq!(body["status"], "waiting");
    assert_eq!(body["options"]["target"], 31, "{body}");
    let catalogue = server.get("/api/v1/games/kinds", None).body;
    let tarneeb = catalogue["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "tarneeb")
        .unwrap();
    let options = tarneeb["variants"][0]["options"].as_array().unwrap();
    assert_eq!(
        body["options"].as_object().unwrap().len(),
        options.len(),
        "every house rule, chosen or by default: {body}"
    );
    assert_eq!(body["turn"]["seconds"], 60);
    assert_eq!(body["tournament"], false);
    assert_eq!(body["seats"][0]["name"], "layla");
    assert_eq!(body["seats"][3]["bot"], "easy");
    // No code, a wrong one, a misspelt one, a table that is not there.
    server.get(&path, None).assert_problem(403, "forbidden");
    server
        .get(&format!("{path}?code=wrong2code"), None)
        .assert_problem(403, "forbidden");
    server
        .get(&format!("{path}?code=NOT-A-CODE"), None)
        .assert_problem(422, "validation_failed");
    server
        .get("/api/v1/games/999999/invitation?code=abc", None)
        .assert_problem(404, "not_found");
    // The partner takes the seat the host kept for them.
    let partner = server.guest("samir");
    let joined = server.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&partner.token),
        &json!({"invite_code": code, "seat": 2}),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["your_seat"], 2);
    let after = server.get(&format!("{path}?code={code}"), None).body;
    assert_eq!(after["open_seats"], json!([1]), "{after}");
    assert_eq!(after["seats"][2]["name"], "samir");
    // Everyone for themselves: a side each.
    let (alone, made) = server.create(
        &host,
        json!({"kind": "thirty_one", "seats": [{}, {}, {"bot": "easy"}]}),
    );
    let solo = server.get(
        &format!(
            "/api/v1/games/{alone}/invitation?code={}",
            made["invite_code"].as_str().unwrap()
        ),
        None,
    );
    assert_eq!(solo.body["sides"], json!([[0], [1], [2]]), "{solo:?}");
    assert_eq!(solo.body["turn"], Value::Null);
    // A public table's invitation needs no code.
    let (public, _) = server.create(
        &host,
        json!({"kind": "basra", "seats": [{}, {}], "visibility": "public"}),
    );
    let open = server.get(&format!("/api/v1/games/{public}/invitation"), None);
    assert_eq!(open.status, 200, "{open:?}");
}

on_both_backends!(
    an_invitation_says_what_the_friend_is_invited_to_and_seats_them_where_the_host_chose
);
