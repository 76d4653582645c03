//! A game as a request loads it: its row and seats, its state, its recent log and spectators,
//! and who the caller is at its table.

use cardroom_core::{AnyGame, GameKind, Seat, Viewer};
use cardroom_db::GameId;
use cardroom_db::Visibility;
use cardroom_db::games::{self, GameRecord, SeatChange};
use cardroom_db::{AnyConnection, GameStatus};

use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};

use super::access::bot_needs_token;

/// How many versions back `recent_events` reaches.
pub(super) const RECENT_VERSIONS: i64 = 12;

/// A game as one request loaded it.
pub(super) struct Loaded {
    pub(super) record: GameRecord,
    pub(super) game: Option<AnyGame>,
    /// The log's last [`RECENT_VERSIONS`] versions, for the view's recent events.
    pub(super) recent: Vec<games::RecentEntry>,
    /// People watching the game now.
    pub(super) spectators: i64,
    /// The tournament whose round the game is, if any.
    pub(super) tournament: Option<games::TournamentOf>,
}

impl Loaded {
    pub(super) fn id(&self) -> GameId {
        self.record.game.id
    }

    pub(super) fn version(&self) -> i64 {
        self.record.game.version
    }

    pub(super) fn kind(&self) -> GameKind {
        self.record.game.kind
    }

    pub(super) fn seat_of(&self, caller: &Caller) -> Option<u8> {
        self.record
            .seats
            .iter()
            .find(|s| s.user_id == Some(caller.id))
            .map(|s| s.seat as u8)
    }

    /// The caller's seat, to act from: a bot account acts only through a personal API token.
    pub(super) fn require_seat(&self, caller: &Caller) -> Result<Seat, ApiError> {
        let seat = self
            .seat_of(caller)
            .ok_or_else(|| ApiError::Forbidden("you are not seated at this game".to_owned()))?;
        let bot_account = self
            .record
            .seats
            .iter()
            .any(|s| s.seat == i32::from(seat) && s.bot_account);
        if bot_account {
            bot_needs_token(caller)?;
        }
        Ok(Seat::new(seat))
    }

    /// Who the caller is at the table as a reader: their seat, or a spectator of a public
    /// table (a stranger — no caller — included); anyone else may not read it (a stranger is
    /// told to sign in, anyone else that it is not theirs).
    pub(super) fn reader(&self, caller: Option<&Caller>) -> Result<Viewer, ApiError> {
        match caller.and_then(|caller| self.seat_of(caller)) {
            Some(seat) => Ok(Viewer::Seat(Seat::new(seat))),
            None if self.record.game.visibility == Visibility::Public => Ok(Viewer::Spectator),
            // (Without a token: signing in as one of its players would let one read it.)
            None if caller.is_none() => Err(ApiError::Unauthorized(
                "this game is not public: sign in as one of its players to read it".to_owned(),
            )),
            None => Err(ApiError::Forbidden(
                "you are not seated at this game, and it is not public".to_owned(),
            )),
        }
    }

    /// The same game with these changes of who plays its seats: a seat keeps its person's
    /// name while the person keeps it (a computer player standing in for them), and loses it
    /// with them (a computer player's seat now).
    pub(super) fn with_seats(&self, changes: &[SeatChange]) -> Loaded {
        let mut seats = self.record.seats.clone();
        for change in changes {
            if let Some(row) = seats.iter_mut().find(|s| s.seat == change.seat) {
                if change.user_id != row.user_id {
                    row.name = None;
                }
                row.user_id = change.user_id;
                row.bot = change.bot;
                row.timeouts = change.timeouts;
            }
        }
        Loaded {
            record: GameRecord {
                game: self.record.game.clone(),
                seats,
            },
            game: self.game.clone(),
            recent: self.recent.clone(),
            spectators: self.spectators,
            tournament: self.tournament.clone(),
        }
    }

    pub(super) fn started(&self) -> Result<&AnyGame, ApiError> {
        match (&self.game, self.record.game.status) {
            (Some(game), _) => Ok(game),
            (None, GameStatus::Abandoned) => {
                Err(ApiError::GameOver("the game was abandoned".to_owned()))
            }
            (None, _) => Err(waiting()),
        }
    }
}

pub(super) fn waiting() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::WaitingForPlayers,
        detail: "the game waits for players to join".to_owned(),
    }
}

pub(super) fn load(conn: &mut AnyConnection, id: GameId) -> Result<Loaded, ApiError> {
    let games::LoadedGame {
        record,
        recent,
        spectators,
        tournament,
    } = games::load_with_recent(conn, id, RECENT_VERSIONS, crate::presence::since())?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    let game = match &record.game.state {
        None => None,
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| ApiError::defect(format!("game {id} snapshot"), e))?,
        ),
    };
    Ok(Loaded {
        record,
        game,
        recent,
        spectators,
        tournament,
    })
}
