//! The authorization matrix: every endpoint, called by nobody, by a player seated at the game,
//! by a player who is not, by an admin, with a forged token, and with a token of an account the
//! database does not have — each gets exactly the answer
//! the policy says, and a refusal never changes the game.

use serde_json::{Value, json};

use crate::admin::{ADMIN, admin_token};
use crate::on_both_backends;
use crate::support::{Backend, Server};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Anonymous,
    Seated,
    Stranger,
    Admin,
    Forged,
    /// A well-signed token whose account this database does not have.
    Gone,
}

const ROLES: [Role; 6] = [
    Role::Anonymous,
    Role::Seated,
    Role::Stranger,
    Role::Admin,
    Role::Forged,
    Role::Gone,
];

/// What a role gets: a success status, or a problem's status and code.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Answer {
    Ok(u16),
    Problem(u16, &'static str),
}

use Answer::{Ok, Problem};

const UNAUTHORIZED: Answer = Problem(401, "unauthorized");
const FORBIDDEN: Answer = Problem(403, "forbidden");

/// The policy for an endpoint that only the game's seated players may use.
fn seated_only(seated: Answer) -> impl Fn(Role) -> Answer {
    move |role| match role {
        Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
        Role::Seated => seated,
        Role::Stranger | Role::Admin => FORBIDDEN,
    }
}

/// Any signed-in account.
fn signed_in(answer: Answer) -> impl Fn(Role) -> Answer {
    move |role| match role {
        Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
        _ => answer,
    }
}

/// Admins only.
fn admins_only(role: Role) -> Answer {
    match role {
        Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
        Role::Seated | Role::Stranger => FORBIDDEN,
        Role::Admin => Ok(200),
    }
}

/// Everyone, token or not (a forged token is not even looked at).
fn public(status: u16) -> impl Fn(Role) -> Answer {
    move |_| Ok(status)
}

fn the_authorization_matrix_holds_for_every_endpoint(backend: Backend) {
    let server = Server::start_with(backend, &[ADMIN]);
    let seated = server.guest("amira");
    let stranger = server.guest("karim");
    let admin = admin_token(&server);
    // A token signed with another key: it must count for nothing.
    let forged = {
        let mut parts: Vec<String> = seated.token.split('.').map(str::to_owned).collect();
        parts[2] = parts[2].chars().rev().collect();
        parts.join(".")
    };
    // Signed with the same secret by a server on another database, for an account this one
    // never had (the database was replaced, say).
    let gone = {
        let elsewhere = Server::start(backend);
        // (Twenty accounts there: the last one's id is beyond every account here.)
        let mut ghost = elsewhere.guest("ghost");
        for n in 0..20 {
            ghost = elsewhere.guest(&format!("ghost{n}"));
        }
        ghost.token
    };
    let token = |role: Role| -> Option<String> {
        match role {
            Role::Anonymous => None,
            Role::Seated => Some(seated.token.clone()),
            Role::Stranger => Some(stranger.token.clone()),
            Role::Admin => Some(admin.clone()),
            Role::Forged => Some(forged.clone()),
            Role::Gone => Some(gone.clone()),
        }
    };
    let (id, view) = server.create(
        &seated,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}]}),
    );
    let game = format!("/api/v1/games/{id}");
    let stale = json!({"expected_version": 999_999, "move": {"type": "play", "card": "2C"}});
    let said = server.post(
        &format!("{game}/chat"),
        Some(&seated.token),
        &json!({"text": "hello"}),
    );
    assert_eq!(said.status, 201, "{said:?}");
    let message = said.body["id"].as_i64().unwrap();

    type Policy = Box<dyn Fn(Role) -> Answer>;
    let gets: Vec<(String, Policy)> = vec![
        (game.clone(), Box::new(seated_only(Ok(200)))),
        (format!("{game}/log"), Box::new(seated_only(Ok(200)))),
        (format!("{game}/score"), Box::new(seated_only(Ok(200)))),
        (
            format!("{game}/events?after=0&wait=0"),
            Box::new(seated_only(Ok(200))),
        ),
        (
            // Players and admins; the game is not finished yet.
            format!("{game}/export"),
            Box::new(|role| match role {
                Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
                Role::Stranger => FORBIDDEN,
                Role::Seated | Role::Admin => Problem(409, "game_not_finished"),
            }),
        ),
        (
            "/api/v1/games?mine=true".to_owned(),
            Box::new(signed_in(Ok(200))),
        ),
        ("/api/v1/admin/games".to_owned(), Box::new(admins_only)),
        ("/api/v1/admin/stats".to_owned(), Box::new(admins_only)),
        (format!("/api/v1/admin/games/{id}"), Box::new(admins_only)),
        (
            format!("/api/v1/admin/games/{id}/replay"),
            Box::new(admins_only),
        ),
        (format!("{game}/chat"), Box::new(seated_only(Ok(200)))),
        ("/api/v1/mutes".to_owned(), Box::new(signed_in(Ok(200)))),
        ("/api/v1/admin/chat".to_owned(), Box::new(admins_only)),
        ("/api/v1/chat/presets".to_owned(), Box::new(public(200))),
        ("/api/v1/lobby".to_owned(), Box::new(public(200))),
        ("/api/v1/games/kinds".to_owned(), Box::new(public(200))),
        ("/api/v1/players/amira".to_owned(), Box::new(public(200))),
        (
            "/api/v1/leaderboards/basra?pool=computers".to_owned(),
            Box::new(public(200)),
        ),
        ("/healthz".to_owned(), Box::new(public(200))),
        ("/readyz".to_owned(), Box::new(public(200))),
        ("/metrics".to_owned(), Box::new(public(200))),
        ("/openapi.json".to_owned(), Box::new(public(200))),
    ];
    let posts: Vec<(String, Value, Policy)> = vec![
        (
            format!("{game}/moves"),
            stale.clone(),
            Box::new(seated_only(Problem(409, "version_conflict"))),
        ),
        (
            format!("{game}/deal"),
            json!({}),
            Box::new(seated_only(Problem(409, "hand_not_over"))),
        ),
        (
            format!("{game}/reclaim"),
            json!({}),
            Box::new(seated_only(Problem(409, "not_away"))),
        ),
        (
            format!("{game}/join"),
            json!({"invite_code": "not-the-code"}),
            Box::new(signed_in(FORBIDDEN)),
        ),
        (
            "/api/v1/games".to_owned(),
            json!({"kind": "basra", "seats": [{}, {"bot": "random"}]}),
            Box::new(signed_in(Ok(201))),
        ),
        (
            "/api/v1/admin/users/karim/role".to_owned(),
            json!({"role": "player"}),
            Box::new(admins_only),
        ),
        (
            format!("{game}/chat"),
            json!({"preset": "good_luck"}),
            Box::new(seated_only(Ok(201))),
        ),
        (
            format!("{game}/rematch"),
            json!({}),
            Box::new(seated_only(Problem(409, "game_not_finished"))),
        ),
        (
            "/api/v1/admin/users/karim/mute".to_owned(),
            json!({"muted": false}),
            Box::new(admins_only),
        ),
        (
            format!("/api/v1/admin/chat/{message}/hide"),
            json!({}),
            Box::new(admins_only),
        ),
    ];
    // One's own mutes: anyone signed in (muting oneself is a conflict, lifting a mute one
    // never set is not found).
    let mutes: Vec<(&str, Policy)> = vec![
        (
            "PUT",
            Box::new(|role| match role {
                Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
                Role::Stranger => Problem(409, "self_mute"),
                Role::Seated | Role::Admin => Ok(200),
            }),
        ),
        (
            "DELETE",
            Box::new(|role| match role {
                Role::Anonymous | Role::Forged | Role::Gone => UNAUTHORIZED,
                Role::Stranger => Problem(404, "not_found"),
                Role::Seated | Role::Admin => Ok(200),
            }),
        ),
    ];

    let check = |what: &str, role: Role, reply: &crate::support::Reply, answer: Answer| match answer
    {
        Ok(status) => assert_eq!(reply.status, status, "{what} as {role:?}: {reply:?}"),
        Problem(status, code) => {
            assert_eq!(reply.status, status, "{what} as {role:?}: {reply:?}");
            assert_eq!(reply.body["code"], code, "{what} as {role:?}: {reply:?}");
        }
    };
    for role in ROLES {
        for (path, policy) in &gets {
            let reply = server.get(path, token(role).as_deref());
            check(&format!("GET {path}"), role, &reply, policy(role));
        }
        for (path, body, policy) in &posts {
            let reply = server.post(path, token(role).as_deref(), body);
            check(&format!("POST {path}"), role, &reply, policy(role));
        }
        let path = "/api/v1/mutes/karim";
        for (method, policy) in &mutes {
            let reply = match *method {
                "PUT" => server.put(path, token(role).as_deref()),
                _ => server.delete(path, token(role).as_deref()),
            };
            check(&format!("{method} {path}"), role, &reply, policy(role));
        }
        // Nothing refused (or conflicting) moved the game.
        assert_eq!(server.view(&seated, id)["version"], view["version"]);
    }

    // Resigning ends the game: last, and only the seated player may.
    let resign = format!("{game}/resign");
    for role in [
        Role::Anonymous,
        Role::Forged,
        Role::Gone,
        Role::Stranger,
        Role::Admin,
    ] {
        let reply = server.post(&resign, token(role).as_deref(), &json!({}));
        check(
            &format!("POST {resign}"),
            role,
            &reply,
            seated_only(Ok(200))(role),
        );
    }
    assert_eq!(server.view(&seated, id)["status"], view["status"]);
    let reply = server.post(&resign, Some(&seated.token), &json!({}));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.view(&seated, id)["status"], "finished");
}

on_both_backends!(the_authorization_matrix_holds_for_every_endpoint);
