//! An invitation as the person invited reads it before taking a seat: the game, its variant
//! and house rules, who invites, who sits where (partners and opponents), and the seats still
//! open — for anyone holding the table's invite code, signed in or not yet.

use cardroom_core::options::OptionKind;
use cardroom_core::{AnyGame, OptionValue, Options, Setup};
use cardroom_db::{AnyConnection, GameId, GameStatus, users};

use super::loaded::load;
use super::seats::seat_infos;
use super::setup::random_seed;
use crate::error::ApiError;
use crate::model::{Invitation, TurnPolicy};

/// `GET /games/{id}/invitation?code=…`: the table's invite code (a public table needs none).
pub fn invitation(
    conn: &mut AnyConnection,
    id: GameId,
    code: Option<&str>,
) -> Result<Invitation, ApiError> {
    let code = crate::input::link_code(code)?;
    let loaded = load(conn, id)?;
    let row = &loaded.record.game;
    let public = row.visibility == cardroom_db::Visibility::Public;
    if !public && code != Some(row.invite_code.as_str()) {
        return Err(ApiError::Forbidden(
            "this invitation's code is not this table's: ask for the link again".to_owned(),
        ));
    }
    let invited_by = users::by_id(conn, row.created_by)?
        .map(|u| u.name)
        .unwrap_or_default();
    let options: Options =
        serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?;
    let house_rules = with_defaults(row.kind, &row.variant, &options);
    let seats = seat_infos(&loaded.record.seats);
    let sides = sides(&loaded, &options)?;
    Ok(Invitation {
        id: id.get(),
        kind: row.kind,
        variant: row.variant.clone(),
        options: serde_json::to_value(&house_rules).map_err(ApiError::because("options"))?,
        invited_by,
        open_seats: seats.iter().filter(|s| s.open).map(|s| s.seat).collect(),
        seats,
        sides,
        status: row.status,
        practice: row.practice,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        tournament: loaded.tournament.is_some(),
    })
}

/// Every option of the variant with its value at the table: the one chosen, or its default.
fn with_defaults(kind: cardroom_core::GameKind, variant: &str, chosen: &Options) -> Options {
    let mut all = chosen.clone();
    let info = kind.describe();
    let specs = info
        .variants
        .iter()
        .find(|v| v.name == variant)
        .map(|v| v.options.as_slice())
        .unwrap_or_default();
    for spec in specs {
        let default = match &spec.kind {
            OptionKind::Integer { default, .. } | OptionKind::Number { default, .. } => {
                OptionValue::Integer(*default)
            }
            OptionKind::Flag { default } => OptionValue::Flag(*default),
            OptionKind::Choice { default, .. } => OptionValue::Choice((*default).to_owned()),
        };
        all.entry(spec.name.to_owned()).or_insert(default);
    }
    all
}

/// The table's sides, each its seats (partners together): the game's own, or — a table still
/// waiting for its players, dealt nothing yet — as its rules will seat them.
fn sides(loaded: &super::loaded::Loaded, options: &Options) -> Result<Vec<Vec<i64>>, ApiError> {
    let row = &loaded.record.game;
    let game = match &loaded.game {
        Some(game) => game.clone(),
        None if row.status == GameStatus::Abandoned || row.status == GameStatus::Waiting => {
            let seats = usize::try_from(row.seat_count).unwrap_or(2);
            AnyGame::create(
                row.kind,
                Some(&row.variant),
                seats,
                options,
                &Setup {
                    seed: random_seed(),
                    deck: None,
                    replay: None,
                },
            )
            .map_err(|e| ApiError::defect("the rules of a stored table", e))?
            .0
        }
        None => return Err(ApiError::internal("a started table without its state")),
    };
    Ok(game
        .table()
        .sides()
        .all()
        .into_iter()
        .map(|side| side.into_iter().map(|s| i64::from(s.number())).collect())
        .collect())
}
