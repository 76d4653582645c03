//! The one interface every game implements, and the checks every game gets for free.
//!
//! A game is its own state. The required methods are the rules; the provided ones wrap them so
//! that every game treats turns, hand ends, the move cap and resignations the same way, and so
//! that a refused move never changes anything.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::kind::GameKind;
use crate::options::{KindInfo, Options, SetupError};
use crate::rng::CardRng;
use crate::seat::{Audience, Seat, Viewer};
use crate::table::{EndReason, ScoreSheet, Setup, Status, Table, TableEvent};

/// A proof that a call comes from inside this crate: the rules-changing methods of [`Game`]
/// take one, so outside code can only change a game through [`Game::play`], [`Game::deal_next`]
/// and [`Game::resign`], which check first.
#[derive(Clone, Copy, Debug)]
pub struct Sealed(());

impl Sealed {
    pub(crate) const fn new() -> Sealed {
        Sealed(())
    }
}

/// An event as a game emits it: common table events and the game's own.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum Event<E> {
    Table(TableEvent),
    Game(E),
}

/// An event with the audience allowed to see it.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Scoped<E> {
    pub to: Audience,
    pub event: Event<E>,
}

impl<E> Scoped<E> {
    /// A game event everyone may see.
    pub fn public(event: E) -> Scoped<E> {
        Scoped {
            to: Audience::Everyone,
            event: Event::Game(event),
        }
    }

    /// A game event only `seat` may see.
    pub fn private(seat: Seat, event: E) -> Scoped<E> {
        Scoped {
            to: Audience::Seat(seat),
            event: Event::Game(event),
        }
    }

    /// A table event (always public).
    pub fn table(event: TableEvent) -> Scoped<E> {
        Scoped {
            to: Audience::Everyone,
            event: Event::Table(event),
        }
    }

    /// Converts the game event type.
    pub fn map<F>(self, f: impl FnOnce(E) -> F) -> Scoped<F> {
        Scoped {
            to: self.to,
            event: match self.event {
                Event::Table(t) => Event::Table(t),
                Event::Game(g) => Event::Game(f(g)),
            },
        }
    }
}

/// A named place where cards lie, with who may see it: the parts of the state that card
/// conservation and redaction are checked against.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Zone {
    pub name: String,
    pub cards: Vec<Card>,
    pub seen_by: Audience,
}

/// The rule a refused move broke, as a stable code a program can branch on (a problem's
/// `detail` says it in a sentence). Codes are only ever added.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// The move is another game's (its `kind`, or its shape).
    WrongGame,
    /// The move names a card the seat does not hold.
    NotInHand,
    /// Not at this step of the turn or hand (an auction still on, a draw still to make, …).
    NotNow,
    /// A move of the other variant of the game.
    NotInVariant,
    /// The pile to draw from is empty.
    EmptyPile,
    /// A card taken from the discard pile cannot be discarded in the same turn.
    JustTaken,
    /// Basra: a named capture card is not on the floor.
    NotOnFloor,
    /// Basra: the card's capture is not a choice here; it takes exactly what the rules say.
    CaptureIsAutomatic,
    /// Basra `classic44`: a capture must take every floor card of the played card's rank.
    MustTakeSameRank,
    /// Basra `classic44`: the captured cards do not split into groups adding up to the card.
    CaptureDoesNotAddUp,
    /// Basra `classic44`: the capture must take as much as it can.
    CaptureIncomplete,
    /// 31: someone has already knocked this hand.
    AlreadyKnocked,
    /// 31: a knock comes at the start of a turn, before drawing.
    KnockAfterDrawing,
    /// The seat has drawn and must now discard.
    AlreadyDrew,
    /// The seat must draw (or knock) first.
    DrawFirst,
    /// Rummy: the cards do not make a meld, or do not extend the one named.
    InvalidMeld,
    /// Rummy: no meld on the table has that id.
    NoSuchMeld,
    /// Rummy: the move would leave only the card just taken, which may not be discarded.
    WouldKeepOnlyTaken,
    /// Rummy `classic`: the turned-over card is given away with `pass_drawn`.
    PassTheTurnedCard,
    /// Tarneeb: a bid outside 7 to 13 tricks.
    BidOutOfRange,
    /// Tarneeb: a bid that does not beat the highest bid.
    BidTooLow,
    /// Tarneeb `classic`: a bid names a suit or no-trump.
    BidNeedsDenomination,
    /// Tarneeb `standard`: a bid is tricks only; the trump is named after the auction.
    BidHasDenomination,
    /// Tarneeb: a seat must follow the suit led while it holds one.
    MustFollowSuit,
}

/// A rejection that knows the rule it stands for.
pub trait Refused {
    /// The rule's stable code.
    fn refusal(&self) -> Refusal;
}

/// Why a move was refused. Nothing changed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveError<R> {
    #[error("the game is over")]
    GameOver,
    #[error("the hand is over: deal the next hand first")]
    HandOver,
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(u8),
    #[error("it is not your turn")]
    NotYourTurn { to_act: Option<Seat> },
    #[error("{0}")]
    Illegal(R),
}

impl<R> MoveError<R> {
    /// The same error with the rejection wrapped (into any game's rejection, say).
    pub fn map_rejection<S>(self, wrap: impl FnOnce(R) -> S) -> MoveError<S> {
        match self {
            MoveError::GameOver => MoveError::GameOver,
            MoveError::HandOver => MoveError::HandOver,
            MoveError::NoSuchSeat(n) => MoveError::NoSuchSeat(n),
            MoveError::NotYourTurn { to_act } => MoveError::NotYourTurn { to_act },
            MoveError::Illegal(r) => MoveError::Illegal(wrap(r)),
        }
    }
}

/// What a resignation did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resignation {
    /// Two sides: the resigning side lost and the game is over.
    GameLost,
    /// More sides: the game goes on; a computer player of the default level takes the seat.
    SeatToComputer,
}

/// Events a game emits, each with its audience.
pub type Events<E> = Vec<Scoped<E>>;

/// What a resignation returns: its effect and its events.
pub type Resigned<E> = (Resignation, Events<E>);

/// A game of cards: its configuration, its rules and what each seat may see.
pub trait Game: Sized + Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync {
    /// Which game this is.
    const KIND: GameKind;
    /// A validated configuration: a variant with its house rules, and the number of seats.
    type Config: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A move as a client sends it.
    type Move: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// The game's own events.
    type Event: Clone + fmt::Debug + PartialEq + Serialize + Send + Sync;
    /// What one seat (or a spectator) may see, including that seat's legal moves.
    type View: PlayerView<Move = Self::Move> + Clone + fmt::Debug + Serialize + Send + Sync;
    /// Why the rules refuse a move: a sentence that names the rule (its `Display`), and the
    /// rule's stable code (its [`Refused::refusal`]).
    type Rejection: Clone + fmt::Debug + PartialEq + fmt::Display + Refused + Send + Sync;

    /// The catalogue entry: variants, seat counts, options, computer-player levels.
    fn describe() -> KindInfo;

    /// Builds a configuration from a variant (the default when `None`), a seat count and
    /// house-rule options, refusing anything outside the published bounds.
    fn configure(
        variant: Option<&str>,
        seats: usize,
        options: &Options,
    ) -> Result<Self::Config, SetupError>;

    /// Lays out the table and deals the first hand.
    fn start(
        config: Self::Config,
        setup: &Setup,
    ) -> Result<(Self, Events<Self::Event>), SetupError>;

    /// The configuration.
    fn config(&self) -> &Self::Config;

    /// The common table state.
    fn table(&self) -> &Table;

    /// The seat that must act now, if a hand is being played.
    fn to_act(&self) -> Option<Seat>;

    /// Every move the rules allow `seat` now, each in canonical form; empty when it is not
    /// `seat`'s turn or no hand is being played.
    fn legal_moves(&self, seat: Seat) -> Vec<Self::Move>;

    /// Checks a move by the seat to act against the rules and returns its canonical form (the
    /// member of [`Game::legal_moves`] it stands for). Shares its source of legality with
    /// `legal_moves`.
    fn check(&self, seat: Seat, mv: &Self::Move) -> Result<Self::Move, Self::Rejection>;

    /// What `viewer` may see. Built from the state for that viewer; never a redacted copy.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Every card's place, with who may see it.
    fn zones(&self) -> Vec<Zone>;

    /// Redeals the cards `viewer` cannot see among the places they could be, keeping every
    /// count: a state that `viewer` cannot tell apart from this one.
    fn shuffle_hidden(&mut self, viewer: Viewer, rng: &mut CardRng);

    /// Applies a canonical move that [`Game::check`] accepted.
    fn apply(&mut self, seat: Seat, mv: Self::Move, sealed: Sealed) -> Events<Self::Event>;

    /// Deals the next hand after a hand is over.
    fn deal(&mut self, sealed: Sealed) -> Events<Self::Event>;

    /// The common table state, to change.
    fn table_mut(&mut self, sealed: Sealed) -> &mut Table;

    /// Where the game stands.
    fn status(&self) -> Status {
        self.table().status()
    }

    /// Checks a move: the game must be on, it must be `seat`'s turn, and the rules must allow
    /// it. Returns the canonical move.
    fn validate(
        &self,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<Self::Move, MoveError<Self::Rejection>> {
        match self.status() {
            Status::Finished => return Err(MoveError::GameOver),
            Status::HandOver => return Err(MoveError::HandOver),
            Status::Active => {}
        }
        if seat.number() >= self.table().seats() {
            return Err(MoveError::NoSuchSeat(seat.number()));
        }
        let to_act = self.to_act();
        if to_act != Some(seat) {
            return Err(MoveError::NotYourTurn { to_act });
        }
        self.check(seat, mv).map_err(MoveError::Illegal)
    }

    /// Plays a move. On error nothing changes.
    fn play(
        &mut self,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<Events<Self::Event>, MoveError<Self::Rejection>> {
        let canonical = self.validate(seat, mv)?;
        let mut events = self.apply(seat, canonical, Sealed::new());
        let capped = self.table_mut(Sealed::new()).count_move();
        if capped && self.status() != Status::Finished {
            let over = self
                .table_mut(Sealed::new())
                .finish(Vec::new(), EndReason::MoveCap);
            events.push(Scoped::table(over));
        }
        Ok(events)
    }

    /// Deals the next hand (the "Deal next hand" button).
    fn deal_next(&mut self) -> Result<Events<Self::Event>, MoveError<Self::Rejection>> {
        match self.status() {
            Status::HandOver => Ok(self.deal(Sealed::new())),
            Status::Finished => Err(MoveError::GameOver),
            Status::Active => Err(MoveError::NotYourTurn {
                to_act: self.to_act(),
            }),
        }
    }

    /// `seat` resigns (docs/rules.md#every-game): with two sides its side loses; with more, the game goes on
    /// and the caller puts a computer player in the seat.
    fn resign(&mut self, seat: Seat) -> Result<Resigned<Self::Event>, MoveError<Self::Rejection>> {
        if self.status() == Status::Finished {
            return Err(MoveError::GameOver);
        }
        let table = self.table();
        if seat.number() >= table.seats() {
            return Err(MoveError::NoSuchSeat(seat.number()));
        }
        let sides = table.sides().count();
        let mut events = vec![Scoped::table(TableEvent::Resigned { seat })];
        if sides > 2 {
            return Ok((Resignation::SeatToComputer, events));
        }
        let loser = table.side_of(seat);
        let winners = (0..sides as u8).filter(|&s| s != loser).collect();
        let over = self
            .table_mut(Sealed::new())
            .finish(winners, EndReason::Resignation { seat });
        events.push(Scoped::table(over));
        Ok((Resignation::GameLost, events))
    }

    /// The score sheet.
    fn scores(&self) -> ScoreSheet {
        let table = self.table();
        ScoreSheet {
            sides: table.sides().all(),
            hands: table.history().to_vec(),
            initial: table.initial_total(),
            totals: table.totals().to_vec(),
            outcome: table.outcome().cloned(),
        }
    }
}

/// What every view offers a computer player or a client: whose view it is and its legal moves.
pub trait PlayerView {
    type Move;
    /// The seat the view belongs to (none for a spectator).
    fn seat(&self) -> Option<Seat>;
    /// The moves the viewer may make now.
    fn legal_moves(&self) -> &[Self::Move];
}
