//! Games: the versioned snapshot row, its seats, the append-only log, the deals' seed
//! commitments and idempotency keys — read (`read.rs`), written (`write.rs`) and changed by one
//! versioned commit (`commit.rs`), whose statements are written by hand (`statements.rs`).

mod commit;
mod marks;
mod read;
mod statements;
mod write;

pub use crate::rows::{
    Commit, DealRow, GameRecord, GameRow, IdempotencyRow, Leaving, LogEntry, LogRow, NewDeal,
    NewGame, NewIdempotency, Reveal, SeatChange, SeatResult, SeatRow, Summary, Tally,
};
pub use commit::commit;
pub use marks::{Mark, marks};
pub(crate) use read::seats_of_games;
pub use read::{
    GameNews, LoadedGame, RecentEntry, TournamentOf, bot_pending, deals, entries_of,
    idempotent_answer, list_for_user, live_public, load, load_with_recent, lobby, log_after,
    news_since, past_deadline, seat_held_by, stale_open_tables, version, version_and_status,
};
pub use write::{
    Claim, ImportedGame, append_service, clear_deadline, create, import, with_claimed_game,
};
