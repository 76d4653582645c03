//! Tournaments as requests make them and answers show them.

use std::collections::BTreeMap;

use cardroom_core::{GameKind, OptionValue};
use cardroom_db::tournaments::{CancelCause, Format, TournamentStatus};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{TurnPolicy, VariantName};

// (Types for the document: the service holds `cardroom_db::tournaments::{Format, TournamentStatus}`.)
/// A tournament's format.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = TournamentFormat)]
#[serde(rename_all = "lowercase")]
pub enum FormatName {
    /// A fixed time (`minutes`): whoever is free is seated at once with entrants of close score;
    /// a win is worth 2 points, 4 after two wins in a row.
    Arena,
    /// A fixed number of `rounds`: each seats entrants of equal score together, avoiding
    /// repeat meetings; points by finishing place; a bye is worth a win.
    Swiss,
    /// A fixed number of `rounds` whose tables all play the same deals; each result is scored
    /// against every result from the same seat (matchpoints, as a percentage). With `teams`, a
    /// partnership game is played as team matches instead.
    Duplicate,
}

/// Why a tournament was cancelled.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = TournamentCancelCause)]
#[serde(rename_all = "snake_case")]
pub enum CancelCauseName {
    /// Fewer entrants than it needs were in when it was to start.
    TooFewEntrants,
    /// Its maker called it off.
    ByMaker,
    /// An admin called it off.
    ByAdmin,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = TournamentStatus)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatusName {
    /// Before its start: entrants join and withdraw.
    Upcoming,
    /// Rounds are being paired and played.
    Running,
    /// Over; its standings are final.
    Finished,
    /// Called off: too few entrants when it was to start, or by its maker or an admin (see
    /// `cancelled`).
    Cancelled,
}

/// `POST /tournaments`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Friday Basra", "format": "swiss", "kind": "basra", "rounds": 3, "starts_in": 300}))]
pub struct CreateTournament {
    /// 1 to 60 characters.
    #[schema(min_length = 1, max_length = 60)]
    pub name: String,
    #[schema(value_type = FormatName)]
    pub format: Format,
    pub kind: GameKind,
    /// The variant; the kind's default when left out.
    #[schema(value_type = Option<VariantName>)]
    pub variant: Option<String>,
    /// Seats at a table (the variant's smallest table when left out).
    #[schema(minimum = 2, maximum = 8)]
    pub seats: Option<i64>,
    /// House rules, within the catalogue's bounds.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Swiss and duplicate: how many rounds, 1 to 20 (default 3).
    #[schema(minimum = 1, maximum = 20)]
    pub rounds: Option<i64>,
    /// Arena: how long pairing goes on, 1 to 1440 minutes (default 30).
    #[schema(minimum = 1, maximum = 1440)]
    pub minutes: Option<i64>,
    /// Seconds from now to the start, 0 to 2592000 (default 300); or give `starts_at`.
    #[schema(minimum = 0, maximum = 2_592_000)]
    pub starts_in: Option<i64>,
    /// When it starts: from now (a time up to 60 s ago is taken as now; earlier is refused)
    /// to 30 days ahead; instead of `starts_in`.
    pub starts_at: Option<DateTime<Utc>>,
    /// The games' turn timer (default 60 seconds, a computer player taking the seat after 2
    /// timeouts in a row): a seat whose person is away is played by the computer.
    pub turn: Option<TurnPolicy>,
    /// A computer-player level that fills the seats of a table short of entrants, so the odd
    /// ones out play instead of sitting out (Swiss and duplicate: instead of a bye; arena: at
    /// once instead of waiting). None: byes (and waiting).
    pub fill: Option<String>,
    /// Whether its games are rated (default true).
    pub rated: Option<bool>,
    /// A private tournament is not listed; entering needs its `code`. Any registered player
    /// may make a private one; only admins make public ones.
    pub private: Option<bool>,
    /// Duplicate of a partnership game (Tarneeb; Basra at four in partnerships) as team matches
    /// (default false): at the start the entrants are drawn into teams of two pairs; each round
    /// two teams meet over two tables dealt the same board, each team with one pair North–South
    /// at one and its other pair East–West at the other. A board's result for a team is its
    /// margin at both tables together, in game points; a match won is worth 1 point, tied ½, a
    /// bye 1; teams stand by points, then by the sum of their boards. A team short of four (the
    /// entrants did not divide by four) has computer players in its empty seats; an odd team
    /// out gets a bye, or with `fill` a team of computer players to meet. It starts with five
    /// entrants at least (two teams), or with `fill` two.
    pub teams: Option<bool>,
}

/// `POST /tournaments/{id}/cancel`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"reason": "The club is closed tonight"}))]
pub struct CancelTournament {
    /// Why, in a few words the entrants will read (at most 200 characters).
    #[schema(max_length = 200)]
    pub reason: Option<String>,
}

/// Why a tournament was cancelled.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentCancelled {
    #[schema(value_type = CancelCauseName)]
    pub cause: CancelCause,
    /// The words its maker or an admin gave, if any.
    pub note: Option<String>,
}

/// `POST /tournaments/{id}/join`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinTournament {
    /// A private tournament's code (from its link).
    #[schema(pattern = "^[a-z0-9]{1,32}$")]
    pub code: Option<String>,
}

/// A tournament, as the list shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: i64,
    pub name: String,
    #[schema(value_type = FormatName)]
    pub format: Format,
    pub kind: GameKind,
    #[schema(value_type = VariantName)]
    pub variant: String,
    /// Seats at a table.
    pub seats: i64,
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: serde_json::Value,
    /// Swiss and duplicate: the rounds.
    pub rounds: Option<i64>,
    /// Arena: its length in minutes.
    pub minutes: Option<i64>,
    pub turn: TurnPolicy,
    /// The computer level that fills a table short of entrants (none: byes).
    pub fill: Option<String>,
    pub rated: bool,
    pub private: bool,
    /// Duplicate as team matches (see `CreateTournament.teams`).
    pub teams: bool,
    /// For its creator, a private tournament's code (the page's link
    /// `/#/tournament/{id}/{code}`).
    pub code: Option<String>,
    #[schema(value_type = TournamentStatusName)]
    pub status: TournamentStatus,
    /// Rounds paired so far (an arena's pairings).
    pub round: i64,
    /// Entrants who have not withdrawn.
    pub entrants: i64,
    /// Who made it.
    pub created_by: String,
    /// Whether the caller is entered (and has not withdrawn).
    pub joined: bool,
    /// Whether it takes entrants now: before its start, and an arena until its time is up.
    pub joinable: bool,
    /// Whether the caller may change it (until it starts) and cancel it (until it is over): its
    /// maker, for a private one, and admins.
    pub manageable: bool,
    /// Once cancelled: why.
    pub cancelled: Option<TournamentCancelled>,
    pub starts_at: DateTime<Utc>,
    /// Arena: when pairing stops.
    pub ends_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A tournament whole: who entered, the standings, every round's tables, and the caller's
/// table now.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Tournament {
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// Everyone who entered, in the order they joined.
    pub players: Vec<TournamentEntrant>,
    /// Best first.
    pub standings: Vec<TournamentStanding>,
    /// Every round paired, in order.
    pub round_tables: Vec<TournamentRound>,
    /// The caller's game still being played, if any.
    pub your_table: Option<TournamentYourTable>,
}

/// An entrant.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentEntrant {
    pub entrant_id: i64,
    pub name: String,
    /// A bot account (a program).
    pub bot: bool,
    pub withdrawn: bool,
    /// Team matches, once the teams are drawn: the entrant's team (from 1).
    pub team: Option<i64>,
    /// Team matches: the entrant's pair in its team, 1 or 2 (at a match's two tables the two
    /// pairs sit opposite ways, one North–South and the other East–West).
    pub pair: Option<i64>,
}

/// An entrant's place in the standings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentStanding {
    /// 1 for the first; entrants equal on every count share a rank.
    pub rank: i64,
    pub entrant_id: i64,
    pub name: String,
    /// Swiss: points by finishing place (first of n sides n−1, shared places the average; a
    /// bye a win). Arena: 2 a win, 4 on a streak, 1 a shared win. Duplicate: the average
    /// matchpoint percentage. Team matches: the team's points, 1 a match won, ½ a tie, 1 a bye.
    pub points: f64,
    /// Games finished.
    pub games: i64,
    /// Swiss: the sum of the final points of everyone met (a tie-break).
    pub buchholz: Option<f64>,
    /// Swiss: Sonneborn–Berger (the next tie-break).
    pub sonneborn_berger: Option<f64>,
    /// Arena: wins in a row now; on fire (the next win worth 4) from 2.
    pub streak: Option<i64>,
    pub withdrawn: bool,
    /// Team matches: the entrant's team (its members share one line's numbers).
    pub team: Option<i64>,
    /// Team matches: the sum of the team's board results (the tie-break).
    pub difference: Option<i64>,
}

/// One round's tables and byes.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentRound {
    pub round: i64,
    pub tables: Vec<TournamentTable>,
    /// Entrants who sat the round out (a bye).
    pub byes: Vec<i64>,
}

/// One table of a round: its game and who sat where.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentTable {
    pub game_id: i64,
    /// Whether the game is over (and its results recorded).
    pub over: bool,
    /// The entrants' seats (a seat filled by a computer player is not listed).
    pub seats: Vec<TournamentSeat>,
    /// Team matches: the match's other table (the same board, each pair the other way round).
    pub match_game_id: Option<i64>,
}

/// An entrant at a table, and once the game is over how they did.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentSeat {
    pub seat: i64,
    pub entrant_id: i64,
    pub name: String,
    /// The place of the entrant's side, from 0 for the first.
    pub place: Option<i64>,
    /// What the game was worth in the standings (Swiss: place points; arena: its points).
    pub points: Option<f64>,
    /// The side's final total (for classic Rummy, where the lowest wins, negated: higher is
    /// always better). Team matches: the side's margin, its total minus the other side's.
    pub result: Option<i64>,
    /// Duplicate: the result's matchpoints against every result from the same seat in the round
    /// (a percentage).
    pub matchpoints: Option<f64>,
    /// Team matches, once both tables are over: the team's result on the board, its margins at
    /// the two tables added.
    pub board: Option<i64>,
}

/// The caller's game being played.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentYourTable {
    pub round: i64,
    pub game_id: i64,
    pub seat: i64,
}

/// The tournaments to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentQuery {
    /// Comma-separated statuses: `upcoming`, `running`, `finished`, `cancelled` (default all).
    #[param(
        pattern = "^(upcoming|running|finished|cancelled)?(,(upcoming|running|finished|cancelled)?)*$"
    )]
    pub status: Option<String>,
}

/// `GET /tournaments`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// Upcoming ones soonest first, then running ones, then the 50 latest finished.
    pub tournaments: Vec<TournamentSummary>,
}
