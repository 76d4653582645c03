//! A game's seats: who controls each, how a client sees them, and what a seat holds.

use cardroom_core::{AnyGame, Controller, Seat, Viewer};
use cardroom_db::games::SeatRow;
use serde_json::Value;

use crate::model::SeatInfo;

/// Who plays each seat: a seat with a computer level and a person is the person's, played by
/// the computer while they are away.
pub(super) fn controllers(seats: &[SeatRow]) -> Vec<Controller> {
    seats
        .iter()
        .map(|s| match s.bot {
            Some(level) if s.user_id.is_some() => Controller::Away(level),
            Some(level) => Controller::Computer(level),
            None => Controller::Person,
        })
        .collect()
}

pub(super) fn seat_infos(seats: &[SeatRow]) -> Vec<SeatInfo> {
    seats
        .iter()
        .map(|s| SeatInfo {
            seat: i64::from(s.seat),
            name: s.name.clone(),
            bot: s.bot,
            open: s.user_id.is_none() && s.bot.is_none() && s.name.is_none(),
            away: s.user_id.is_some() && s.bot.is_some(),
            timeouts: i64::from(s.timeouts),
            connected: s.connected,
            bot_account: s.bot_account,
        })
        .collect()
}

/// The cards in `seat`'s hand, as that seat's view shows them.
pub(super) fn hand_of(game: &AnyGame, seat: Seat) -> Vec<String> {
    let view = serde_json::to_value(game.view(Viewer::Seat(seat))).unwrap_or(Value::Null);
    view.get("hand")
        .and_then(Value::as_array)
        .map(|cards| {
            cards
                .iter()
                .filter_map(|c| c.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
