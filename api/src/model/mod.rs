//! The API's request and response bodies. Each is its own type (a database row is never a
//! response: it would leak the seed), documented in the OpenAPI document.

mod accounts;
mod challenges;
mod events;
mod games;
mod lobby;
mod table;
mod tournaments;

pub use accounts::{AuthResponse, Credentials, GuestRequest, UserInfo};
pub use challenges::{Challenge, DeclineReason};
pub use events::{
    AccountEvent, AccountEventOut, AccountGame, ServiceEvent, StreamEndReason, StreamEvent,
    TakeoverReason, TurnAction,
};
pub use games::{
    ActionResponse, Catalogue, ChallengeStatusName, CreateGame, DealOut, EventOut, EventsPage,
    EventsQuery, EventsResponse, GameCreated, GameList, GameStatusName, GameSummary,
    GameTournament, GameView, Health, Invitation, JoinRequest, ListQuery, LogEntryOut, LogResponse,
    MoveRequest, ScoreResponse, SeatInfo, SeatRequest, SeekStatusName, TurnBounds, TurnPolicy,
    VariantName, VisibilityName,
};
pub use lobby::{LiveTable, Lobby, LobbyQuery, LobbySeat, OpenTable, Seek, SeekQuery, SeekRequest};
pub use table::{
    ChatKind, ChatMessage, ChatPage, ChatPreset, ChatQuery, ChatRequest, ChatText, KnownPresence,
    MuteList, PresenceOut, Preset, PresetKey, Presets, RematchRequest, RematchState, Room,
};
pub use tournaments::{
    CancelCauseName, CancelTournament, CreateTournament, FormatName, JoinTournament, Tournament,
    TournamentCancelled, TournamentEntrant, TournamentList, TournamentQuery, TournamentRound,
    TournamentSeat, TournamentStanding, TournamentStatusName, TournamentSummary, TournamentTable,
    TournamentYourTable,
};
