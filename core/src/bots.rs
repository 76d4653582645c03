//! Computer players' interface: what a game's computer player is ([`ComputerPlayer`]), who
//! controls each seat, and `autoplay`, which runs the computer players until a person must act.
//!
//! A computer player is a function of its seat's view ([`ComputerPlayer::bot_move`]): it is
//! never handed the state, so it cannot see more than a person in its seat. Its randomness
//! comes from the game seed's decision stream for the current move, so replays are exact.
//!
//! The rules ([`Game`]) know nothing of their computer players: each game's `bot.rs`
//! implements [`ComputerPlayer`] on top of its rules.

use serde::{Deserialize, Serialize};

use crate::game::{Events, Game, PlayerView};
use crate::level::BotLevel;
use crate::rng::CardRng;
use crate::seat::{Seat, Viewer};
use crate::table::Status;

/// A game whose seats a computer player can play.
pub trait ComputerPlayer: Game {
    /// A computer player's move, from the seat's view alone.
    fn bot_move(view: &Self::View, level: BotLevel, rng: &mut CardRng) -> Option<Self::Move>;
}

/// Who plays a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    Person,
    Computer(BotLevel),
    /// A person's seat a computer player plays while the person is away: it moves like a
    /// computer player, but the seat is still the person's, so the next hand is not dealt
    /// without them (someone at the table, or a turn timer, deals).
    Away(BotLevel),
}

/// The next thing that happens without a person.
#[derive(Clone, PartialEq, Debug)]
pub enum Automatic<M> {
    /// A computer player's move.
    Move(Seat, M),
    /// The next deal, when only computer players are seated (docs/rules.md#every-game), none of them
    /// standing in for a person who is away.
    Deal,
}

/// What happens next without a person, if anything.
pub fn next_automatic<G: ComputerPlayer>(
    game: &G,
    controllers: &[Controller],
) -> Option<Automatic<G::Move>> {
    match game.status() {
        Status::Finished => None,
        Status::HandOver => controllers
            .iter()
            .all(|c| matches!(c, Controller::Computer(_)))
            .then_some(Automatic::Deal),
        Status::Active => {
            let seat = game.to_act()?;
            let (Controller::Computer(level) | Controller::Away(level)) =
                controllers.get(seat.index())?
            else {
                return None;
            };
            let view = game.view(Viewer::Seat(seat));
            let mut rng = game.table().decision_rng();
            let mv = G::bot_move(&view, *level, &mut rng)
                .or_else(|| view.legal_moves().first().cloned())?;
            Some(Automatic::Move(seat, mv))
        }
    }
}

/// Runs computer players (and deals, when no person is seated) until a person must act, the
/// game ends, or `max_steps` steps were taken. Returns the events of every step.
pub fn autoplay<G: ComputerPlayer>(
    game: &mut G,
    controllers: &[Controller],
    max_steps: usize,
) -> Vec<Events<G::Event>> {
    let mut steps = Vec::new();
    while steps.len() < max_steps {
        let Some(next) = next_automatic(game, controllers) else {
            break;
        };
        let result = match next {
            Automatic::Move(seat, mv) => game.play(seat, &mv),
            Automatic::Deal => game.deal_next(),
        };
        match result {
            Ok(events) => steps.push(events),
            // A computer player only picks from its legal moves; if the rules still refuse,
            // stop rather than loop.
            Err(_) => break,
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print_by_name() {
        assert_eq!("greedy".parse::<BotLevel>(), Ok(BotLevel::Greedy));
        assert_eq!(BotLevel::Random.to_string(), "random");
        assert!("hard-ish".parse::<BotLevel>().is_err());
        assert_eq!("7".parse::<BotLevel>(), Ok(BotLevel::Level(7)));
        for level in [BotLevel::Easy, BotLevel::Medium, BotLevel::Hard] {
            assert_eq!(level.name().parse::<BotLevel>(), Ok(level));
        }
        assert_eq!(BotLevel::Level(10).to_string(), "10");
        for bad in ["0", "11", "07", "+5", "-1", "1.5"] {
            assert!(bad.parse::<BotLevel>().is_err(), "{bad}");
        }
        assert_eq!(
            serde_json::to_string(&Controller::Computer(BotLevel::Greedy)).unwrap(),
            r#"{"computer":"greedy"}"#
        );
    }

    #[test]
    fn an_away_persons_seat_is_played_like_a_computers_but_holds_back_the_next_deal() {
        use crate::{AnyGame, GameKind, Options, Seed, Setup};
        let setup = Setup {
            seed: Seed::from_bytes([7; 32]),
            deck: None,
            replay: None,
        };
        let (mut game, _) = AnyGame::create(
            GameKind::ThirtyOne,
            Some("classic"),
            2,
            &Options::default(),
            &setup,
        )
        .unwrap();
        let away = [
            Controller::Away(BotLevel::Easy),
            Controller::Computer(BotLevel::Easy),
        ];
        let computers = [Controller::Computer(BotLevel::Easy); 2];
        let mut moves = 0;
        while game.status() == Status::Active {
            // The same move a computer player would make in that seat.
            let next = game.next_automatic(&away);
            assert_eq!(next, game.next_automatic(&computers));
            let Some(Automatic::Move(seat, mv)) = next else {
                panic!("no move at {moves}");
            };
            game.play(seat, &mv).unwrap();
            moves += 1;
            assert!(moves < 500);
        }
        assert_eq!(game.status(), Status::HandOver);
        assert_eq!(game.next_automatic(&away), None);
        assert_eq!(game.next_automatic(&computers), Some(Automatic::Deal));
        let person = [Controller::Person, Controller::Computer(BotLevel::Easy)];
        assert_eq!(game.next_automatic(&person), None);
    }
}
