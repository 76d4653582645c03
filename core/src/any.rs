//! Runtime dispatch over the games: one explicit `match` per method, so that adding a game makes
//! the compiler list every place that must learn about it.

use serde::{Deserialize, Deserializer, Serialize};

use crate::bots::{self, Automatic, Controller};
use crate::game::{Events, Game, MoveError, Refusal, Refused, Resignation, Zone};
use crate::games::basra::{Basra, BasraEvent, BasraMove, BasraRejection, BasraView};
use crate::games::rummy::{Rummy, RummyEvent, RummyMove, RummyRejection, RummyView};
use crate::games::tarneeb::{Tarneeb, TarneebEvent, TarneebMove, TarneebRejection, TarneebView};
use crate::games::thirty_one::{
    ThirtyOne, ThirtyOneEvent, ThirtyOneMove, ThirtyOneRejection, ThirtyOneView,
};
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Seat, Sides, Viewer};
use crate::table::{ScoreSheet, Setup, Status, Table};

impl GameKind {
    /// The catalogue entry.
    pub fn describe(self) -> KindInfo {
        match self {
            GameKind::Basra => Basra::describe(),
            GameKind::ThirtyOne => ThirtyOne::describe(),
            GameKind::Rummy => Rummy::describe(),
            GameKind::Tarneeb => Tarneeb::describe(),
        }
    }

    /// Parses a move of this kind of game from any self-describing format (JSON in the API).
    pub fn parse_move<'de, D: Deserializer<'de>>(self, input: D) -> Result<AnyMove, D::Error> {
        match self {
            GameKind::Basra => BasraMove::deserialize(input).map(AnyMove::Basra),
            GameKind::ThirtyOne => ThirtyOneMove::deserialize(input).map(AnyMove::ThirtyOne),
            GameKind::Rummy => RummyMove::deserialize(input).map(AnyMove::Rummy),
            GameKind::Tarneeb => TarneebMove::deserialize(input).map(AnyMove::Tarneeb),
        }
    }

    /// The sides a game of this kind is played by, from how it was configured (without dealing):
    /// who wins together when a result names a side.
    pub fn sides(
        self,
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<Sides, SetupError> {
        Ok(match self {
            GameKind::Basra => Basra::configure(variant, seats, options)?.sides(),
            GameKind::ThirtyOne => {
                Sides::individual(ThirtyOne::configure(variant, seats, options)?.seats)
            }
            GameKind::Rummy => Sides::individual(Rummy::configure(variant, seats, options)?.seats),
            GameKind::Tarneeb => {
                Tarneeb::configure(variant, seats, options)?;
                Sides::partnerships(4)
            }
        })
    }
}

/// The catalogue of every game kind.
pub fn catalogue() -> Vec<KindInfo> {
    GameKind::ALL.into_iter().map(GameKind::describe).collect()
}

/// Any game's full state. Serialises as `{"kind": …, "state": …}` for storage.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "state", rename_all = "snake_case")]
pub enum AnyGame {
    Basra(Basra),
    ThirtyOne(ThirtyOne),
    Rummy(Rummy),
    Tarneeb(Tarneeb),
}

/// Any game's move.
///
/// Its schema is `anyOf` the games' (see `openapi.rs`): some moves of two games look alike.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyMove {
    Basra(BasraMove),
    ThirtyOne(ThirtyOneMove),
    Rummy(RummyMove),
    Tarneeb(TarneebMove),
}

/// Any game's view.
///
/// Its schema is `anyOf` the games' (see `openapi.rs`): some moves of two games look alike.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyView {
    Basra(BasraView),
    ThirtyOne(ThirtyOneView),
    Rummy(RummyView),
    Tarneeb(TarneebView),
}

/// Any game's own event.
///
/// Its schema is `anyOf` the games' (see `openapi.rs`): some moves of two games look alike.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyEvent {
    Basra(BasraEvent),
    ThirtyOne(ThirtyOneEvent),
    Rummy(RummyEvent),
    Tarneeb(TarneebEvent),
}

fn any_events<E>(events: Events<E>, wrap: fn(E) -> AnyEvent) -> Events<AnyEvent> {
    events.into_iter().map(|e| e.map(wrap)).collect()
}

/// Why the rules refused a move of any game: the game's own rejection, kept typed to the edge.
#[derive(Clone, PartialEq, Debug)]
pub enum AnyRejection {
    Basra(BasraRejection),
    ThirtyOne(ThirtyOneRejection),
    Rummy(RummyRejection),
    Tarneeb(TarneebRejection),
    /// A move of another game.
    WrongGame {
        game: GameKind,
        move_of: GameKind,
    },
}

impl std::fmt::Display for AnyRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyRejection::Basra(r) => r.fmt(f),
            AnyRejection::ThirtyOne(r) => r.fmt(f),
            AnyRejection::Rummy(r) => r.fmt(f),
            AnyRejection::Tarneeb(r) => r.fmt(f),
            AnyRejection::WrongGame { game, move_of } => write!(
                f,
                "this game is {}: a move of {} is not one of its moves",
                game.name(),
                move_of.name()
            ),
        }
    }
}

impl Refused for AnyRejection {
    fn refusal(&self) -> Refusal {
        match self {
            AnyRejection::Basra(r) => r.refusal(),
            AnyRejection::ThirtyOne(r) => r.refusal(),
            AnyRejection::Rummy(r) => r.refusal(),
            AnyRejection::Tarneeb(r) => r.refusal(),
            AnyRejection::WrongGame { .. } => Refusal::WrongGame,
        }
    }
}

type AnyResult<T> = Result<T, MoveError<AnyRejection>>;

fn wrong_game<T>(game: GameKind, mv: &AnyMove) -> AnyResult<T> {
    Err(MoveError::Illegal(AnyRejection::WrongGame {
        game,
        move_of: mv.kind(),
    }))
}

impl AnyMove {
    /// The game this is a move of.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyMove::Basra(_) => GameKind::Basra,
            AnyMove::ThirtyOne(_) => GameKind::ThirtyOne,
            AnyMove::Rummy(_) => GameKind::Rummy,
            AnyMove::Tarneeb(_) => GameKind::Tarneeb,
        }
    }
}

impl AnyGame {
    /// Configures and starts a game, dealing its first hand.
    pub fn create(
        kind: GameKind,
        variant: Option<&str>,
        seats: usize,
        options: &Options,
        setup: &Setup,
    ) -> Result<(AnyGame, Events<AnyEvent>), SetupError> {
        match kind {
            GameKind::Basra => {
                let config = Basra::configure(variant, seats, options)?;
                let (game, events) = Basra::start(config, setup)?;
                Ok((AnyGame::Basra(game), any_events(events, AnyEvent::Basra)))
            }
            GameKind::ThirtyOne => {
                let config = ThirtyOne::configure(variant, seats, options)?;
                let (game, events) = ThirtyOne::start(config, setup)?;
                Ok((
                    AnyGame::ThirtyOne(game),
                    any_events(events, AnyEvent::ThirtyOne),
                ))
            }
            GameKind::Rummy => {
                let config = Rummy::configure(variant, seats, options)?;
                let (game, events) = Rummy::start(config, setup)?;
                Ok((AnyGame::Rummy(game), any_events(events, AnyEvent::Rummy)))
            }
            GameKind::Tarneeb => {
                let config = Tarneeb::configure(variant, seats, options)?;
                let (game, events) = Tarneeb::start(config, setup)?;
                Ok((
                    AnyGame::Tarneeb(game),
                    any_events(events, AnyEvent::Tarneeb),
                ))
            }
        }
    }

    /// The kind of game.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Basra(_) => GameKind::Basra,
            AnyGame::ThirtyOne(_) => GameKind::ThirtyOne,
            AnyGame::Rummy(_) => GameKind::Rummy,
            AnyGame::Tarneeb(_) => GameKind::Tarneeb,
        }
    }

    /// The variant's name.
    pub fn variant(&self) -> &'static str {
        match self {
            AnyGame::Basra(g) => g.config().variant.name(),
            AnyGame::ThirtyOne(g) => g.config().variant.name(),
            AnyGame::Rummy(g) => g.config().variant.name(),
            AnyGame::Tarneeb(g) => g.config().variant.name(),
        }
    }

    /// Whether the lowest total wins (classic Rummy), for placing the sides of a finished game.
    pub fn lower_total_wins(&self) -> bool {
        matches!(self, AnyGame::Rummy(g) if g.config().variant == crate::games::rummy::Variant::Classic)
    }

    /// Each side's finishing place once the game is over (0 = first; see
    /// [`crate::tournament::side_places`]); none while it is being played.
    pub fn side_places(&self) -> Option<Vec<u8>> {
        let table = self.table();
        let outcome = table.outcome()?;
        Some(crate::tournament::side_places(
            table.totals(),
            &outcome.winners,
            self.lower_total_wins(),
        ))
    }

    /// The common table state.
    pub fn table(&self) -> &Table {
        match self {
            AnyGame::Basra(g) => g.table(),
            AnyGame::ThirtyOne(g) => g.table(),
            AnyGame::Rummy(g) => g.table(),
            AnyGame::Tarneeb(g) => g.table(),
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.table().status()
    }

    /// The seat to act.
    pub fn to_act(&self) -> Option<Seat> {
        match self {
            AnyGame::Basra(g) => g.to_act(),
            AnyGame::ThirtyOne(g) => g.to_act(),
            AnyGame::Rummy(g) => g.to_act(),
            AnyGame::Tarneeb(g) => g.to_act(),
        }
    }

    /// The seat's legal moves.
    pub fn legal_moves(&self, seat: Seat) -> Vec<AnyMove> {
        match self {
            AnyGame::Basra(g) => g
                .legal_moves(seat)
                .into_iter()
                .map(AnyMove::Basra)
                .collect(),
            AnyGame::ThirtyOne(g) => g
                .legal_moves(seat)
                .into_iter()
                .map(AnyMove::ThirtyOne)
                .collect(),
            AnyGame::Rummy(g) => g
                .legal_moves(seat)
                .into_iter()
                .map(AnyMove::Rummy)
                .collect(),
            AnyGame::Tarneeb(g) => g
                .legal_moves(seat)
                .into_iter()
                .map(AnyMove::Tarneeb)
                .collect(),
        }
    }

    /// Checks a move without playing it; returns its canonical form.
    pub fn validate(&self, seat: Seat, mv: &AnyMove) -> AnyResult<AnyMove> {
        let kind = self.kind();
        match (self, mv) {
            (AnyGame::Basra(g), AnyMove::Basra(m)) => g
                .validate(seat, m)
                .map(AnyMove::Basra)
                .map_err(|e| e.map_rejection(AnyRejection::Basra)),
            (AnyGame::ThirtyOne(g), AnyMove::ThirtyOne(m)) => g
                .validate(seat, m)
                .map(AnyMove::ThirtyOne)
                .map_err(|e| e.map_rejection(AnyRejection::ThirtyOne)),
            (AnyGame::Rummy(g), AnyMove::Rummy(m)) => g
                .validate(seat, m)
                .map(AnyMove::Rummy)
                .map_err(|e| e.map_rejection(AnyRejection::Rummy)),
            (AnyGame::Tarneeb(g), AnyMove::Tarneeb(m)) => g
                .validate(seat, m)
                .map(AnyMove::Tarneeb)
                .map_err(|e| e.map_rejection(AnyRejection::Tarneeb)),
            _ => wrong_game(kind, mv),
        }
    }

    /// Plays a move; on error nothing changes.
    pub fn play(&mut self, seat: Seat, mv: &AnyMove) -> AnyResult<Events<AnyEvent>> {
        let kind = self.kind();
        match (self, mv) {
            (AnyGame::Basra(g), AnyMove::Basra(m)) => g
                .play(seat, m)
                .map(|e| any_events(e, AnyEvent::Basra))
                .map_err(|e| e.map_rejection(AnyRejection::Basra)),
            (AnyGame::ThirtyOne(g), AnyMove::ThirtyOne(m)) => g
                .play(seat, m)
                .map(|e| any_events(e, AnyEvent::ThirtyOne))
                .map_err(|e| e.map_rejection(AnyRejection::ThirtyOne)),
            (AnyGame::Rummy(g), AnyMove::Rummy(m)) => g
                .play(seat, m)
                .map(|e| any_events(e, AnyEvent::Rummy))
                .map_err(|e| e.map_rejection(AnyRejection::Rummy)),
            (AnyGame::Tarneeb(g), AnyMove::Tarneeb(m)) => g
                .play(seat, m)
                .map(|e| any_events(e, AnyEvent::Tarneeb))
                .map_err(|e| e.map_rejection(AnyRejection::Tarneeb)),
            _ => wrong_game(kind, mv),
        }
    }

    /// Deals the next hand.
    pub fn deal_next(&mut self) -> AnyResult<Events<AnyEvent>> {
        match self {
            AnyGame::Basra(g) => g
                .deal_next()
                .map(|e| any_events(e, AnyEvent::Basra))
                .map_err(|e| e.map_rejection(AnyRejection::Basra)),
            AnyGame::ThirtyOne(g) => g
                .deal_next()
                .map(|e| any_events(e, AnyEvent::ThirtyOne))
                .map_err(|e| e.map_rejection(AnyRejection::ThirtyOne)),
            AnyGame::Rummy(g) => g
                .deal_next()
                .map(|e| any_events(e, AnyEvent::Rummy))
                .map_err(|e| e.map_rejection(AnyRejection::Rummy)),
            AnyGame::Tarneeb(g) => g
                .deal_next()
                .map(|e| any_events(e, AnyEvent::Tarneeb))
                .map_err(|e| e.map_rejection(AnyRejection::Tarneeb)),
        }
    }

    /// A seat resigns.
    pub fn resign(&mut self, seat: Seat) -> AnyResult<(Resignation, Events<AnyEvent>)> {
        match self {
            AnyGame::Basra(g) => g
                .resign(seat)
                .map(|(r, e)| (r, any_events(e, AnyEvent::Basra)))
                .map_err(|e| e.map_rejection(AnyRejection::Basra)),
            AnyGame::ThirtyOne(g) => g
                .resign(seat)
                .map(|(r, e)| (r, any_events(e, AnyEvent::ThirtyOne)))
                .map_err(|e| e.map_rejection(AnyRejection::ThirtyOne)),
            AnyGame::Rummy(g) => g
                .resign(seat)
                .map(|(r, e)| (r, any_events(e, AnyEvent::Rummy)))
                .map_err(|e| e.map_rejection(AnyRejection::Rummy)),
            AnyGame::Tarneeb(g) => g
                .resign(seat)
                .map(|(r, e)| (r, any_events(e, AnyEvent::Tarneeb)))
                .map_err(|e| e.map_rejection(AnyRejection::Tarneeb)),
        }
    }

    /// What `viewer` may see.
    pub fn view(&self, viewer: Viewer) -> AnyView {
        match self {
            AnyGame::Basra(g) => AnyView::Basra(g.view(viewer)),
            AnyGame::ThirtyOne(g) => AnyView::ThirtyOne(g.view(viewer)),
            AnyGame::Rummy(g) => AnyView::Rummy(g.view(viewer)),
            AnyGame::Tarneeb(g) => AnyView::Tarneeb(g.view(viewer)),
        }
    }

    /// The score sheet.
    pub fn scores(&self) -> ScoreSheet {
        match self {
            AnyGame::Basra(g) => g.scores(),
            AnyGame::ThirtyOne(g) => g.scores(),
            AnyGame::Rummy(g) => g.scores(),
            AnyGame::Tarneeb(g) => g.scores(),
        }
    }

    /// Every card's place.
    pub fn zones(&self) -> Vec<Zone> {
        match self {
            AnyGame::Basra(g) => g.zones(),
            AnyGame::ThirtyOne(g) => g.zones(),
            AnyGame::Rummy(g) => g.zones(),
            AnyGame::Tarneeb(g) => g.zones(),
        }
    }

    /// Redeals the cards `viewer` cannot see (see [`Game::shuffle_hidden`]).
    pub fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng) {
        match self {
            AnyGame::Basra(g) => g.shuffle_hidden(viewer, rng),
            AnyGame::ThirtyOne(g) => g.shuffle_hidden(viewer, rng),
            AnyGame::Rummy(g) => g.shuffle_hidden(viewer, rng),
            AnyGame::Tarneeb(g) => g.shuffle_hidden(viewer, rng),
        }
    }

    /// What happens next without a person.
    pub fn next_automatic(&self, controllers: &[Controller]) -> Option<Automatic<AnyMove>> {
        fn wrap<M>(a: Automatic<M>, f: fn(M) -> AnyMove) -> Automatic<AnyMove> {
            match a {
                Automatic::Move(seat, mv) => Automatic::Move(seat, f(mv)),
                Automatic::Deal => Automatic::Deal,
            }
        }
        match self {
            AnyGame::Basra(g) => {
                bots::next_automatic(g, controllers).map(|a| wrap(a, AnyMove::Basra))
            }
            AnyGame::ThirtyOne(g) => {
                bots::next_automatic(g, controllers).map(|a| wrap(a, AnyMove::ThirtyOne))
            }
            AnyGame::Rummy(g) => {
                bots::next_automatic(g, controllers).map(|a| wrap(a, AnyMove::Rummy))
            }
            AnyGame::Tarneeb(g) => {
                bots::next_automatic(g, controllers).map(|a| wrap(a, AnyMove::Tarneeb))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_named_as_serialised_and_parses_back() {
        for kind in GameKind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.name());
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(kind.describe().kind, kind);
        }
        assert!("chess".parse::<GameKind>().is_err());
    }

    #[test]
    fn every_kind_starts_and_names_its_variant() {
        let setup = Setup::seeded(crate::Seed::from_bytes([1; 32]));
        for kind in GameKind::ALL {
            let info = kind.describe();
            for variant in &info.variants {
                let seats = usize::from(variant.seats[0]);
                let (game, _) =
                    AnyGame::create(kind, Some(variant.name), seats, &Options::new(), &setup)
                        .unwrap();
                assert_eq!(game.kind(), kind);
                assert_eq!(game.variant(), variant.name);
            }
        }
    }
}
