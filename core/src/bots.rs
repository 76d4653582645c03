//! Computer players: the levels, who controls each seat, and `autoplay`, which runs the
//! computer players until a person must act.
//!
//! A computer player is a function of its seat's view ([`crate::Game::bot_move`]): it is never
//! handed the state, so it cannot see more than a person in its seat. Its randomness comes
//! from the game seed's decision stream for the current move, so replays are exact.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::{Events, Game, PlayerView};
use crate::seat::{Seat, Viewer};
use crate::table::Status;

/// A computer player's strength.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BotLevel {
    /// The named scale every game offers: the original design's heuristic.
    Easy,
    /// The named scale: estimates the hidden cards and plays the odds.
    Medium,
    /// The named scale: a search over sampled deals of the hidden cards.
    Hard,
    /// A uniformly random legal move.
    Random,
    /// The heuristic of the original design.
    Greedy,
    /// Estimates the hidden cards from what is public and plays the odds.
    Strong,
    /// A numbered strength, 1 (weakest) to 10 (Rummy's scale).
    Level(u8),
}

impl BotLevel {
    /// The level's name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Medium => "medium",
            BotLevel::Hard => "hard",
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
            BotLevel::Strong => "strong",
            BotLevel::Level(n) => match n {
                1 => "1",
                2 => "2",
                3 => "3",
                4 => "4",
                5 => "5",
                6 => "6",
                7 => "7",
                8 => "8",
                9 => "9",
                _ => "10",
            },
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no computer-player level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a computer-player level; the levels are easy, medium, hard, random, greedy, strong and 1 to 10"
)]
pub struct UnknownLevel(pub String);

impl FromStr for BotLevel {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<BotLevel, UnknownLevel> {
        match s {
            "easy" => Ok(BotLevel::Easy),
            "medium" => Ok(BotLevel::Medium),
            "hard" => Ok(BotLevel::Hard),
            "random" => Ok(BotLevel::Random),
            "greedy" => Ok(BotLevel::Greedy),
            "strong" => Ok(BotLevel::Strong),
            other => match other.parse::<u8>() {
                Ok(n @ 1..=10) if !other.starts_with('0') && !other.starts_with('+') => {
                    Ok(BotLevel::Level(n))
                }
                _ => Err(UnknownLevel(other.chars().take(32).collect())),
            },
        }
    }
}

impl Serialize for BotLevel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BotLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BotLevel, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
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
    /// The next deal, when only computer players are seated (RULES.md §5), none of them
    /// standing in for a person who is away.
    Deal,
}

/// What happens next without a person, if anything.
pub fn next_automatic<G: Game>(game: &G, controllers: &[Controller]) -> Option<Automatic<G::Move>> {
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
pub fn autoplay<G: Game>(
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
