//! The export of a finished game: everything needed to replay and check it, as JSON (the
//! text notation is [`super::text`]), built from the stored game by replaying its log.

use cardroom_db::GameId;
use std::collections::BTreeMap;

use cardroom_core::rng::SHUFFLE_VERSION;
use cardroom_core::{AnyGame, Card, GameKind, Seat, Status};
use cardroom_db::AnyConnection;
use cardroom_db::games::{self};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::error::{ApiError, ProblemCode};
use crate::model::TurnPolicy;
use crate::play::commit::snapshot;
use crate::play::loaded::load;

/// The export format's name and version.
pub const FORMAT: &str = "cardroom-game";
pub const FORMAT_VERSION: u32 = 1;
/// The account that owns imported games: a name no one can register (parentheses are not
/// allowed in names), without a password.
pub const IMPORT_OWNER: &str = "(import)";

/// A finished game, whole: everything needed to replay it and check it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Export {
    /// `cardroom-game`.
    pub format: String,
    /// 1.
    pub format_version: u32,
    pub kind: GameKind,
    pub variant: String,
    /// The options the game was created with.
    #[schema(value_type = std::collections::BTreeMap<String, cardroom_core::OptionValue>)]
    pub options: Value,
    pub seats: Vec<ExportSeat>,
    pub practice: bool,
    pub turn: Option<TurnPolicy>,
    /// The game's seed (64 hex digits): with the options it recreates every deal and every
    /// computer player's choice.
    pub seed: String,
    /// A practice game's explicit deck order, top card first.
    pub deck: Option<Vec<Card>>,
    /// The shuffle procedure's version (see docs/fairness.md).
    pub shuffle_version: u32,
    /// Every deal: its commitment (`sha256(seed)`, published at the deal) and its seed.
    pub deals: Vec<ExportDeal>,
    /// The move log, every entry, with every event and who saw it.
    pub entries: Vec<ExportEntry>,
    /// Each seat's cards in each hand: every card it held, in the order they came, and what
    /// was left at the end.
    pub hands: Vec<ExportHand>,
    pub result: ExportResult,
    /// Where and when it was exported (not part of the game).
    #[serde(default)]
    pub source: Option<ExportSource>,
    /// The game's analysis (`GET /games/{id}/analysis`), once made; not part of the game, and
    /// an import makes its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<cardroom_core::analysis::Analysis>)]
    pub analysis: Option<Value>,
    /// The text notation's header lines with their digests, as read from a text export
    /// (`docs/notation.md`, "Headers"): checked at import; not part of the JSON form.
    #[serde(skip)]
    #[schema(ignore)]
    pub sealed_headers: Vec<SealedHeader>,
}

/// A header line of a text export as read, and the digest it ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedHeader {
    /// Its line in the file, from 1.
    pub line: usize,
    /// The header without its digest: `Name: value`.
    pub text: String,
    pub digest: String,
}

/// A seat of an exported game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportSeat {
    pub seat: i64,
    /// The person's name.
    pub name: Option<String>,
    /// The computer player's level (with a name: it played for the person at the end).
    pub bot: Option<String>,
}

/// A deal of an exported game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportDeal {
    pub deal: i64,
    pub hand: i64,
    pub commitment: String,
    pub seed: Option<String>,
}

/// An entry of an exported game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportEntry {
    pub version: i64,
    pub seat: Option<i64>,
    /// `created`, `joined`, `started`, `move`, `deal`, `resign`, `timed_out`, …
    pub action: String,
    /// The move, in canonical form.
    #[serde(rename = "move", default)]
    #[schema(value_type = Option<cardroom_core::AnyMove>)]
    pub mv: Option<Value>,
    /// The entry's events, each with its audience (`to`).
    #[serde(default)]
    #[schema(value_type = Option<Vec<crate::events::StoredEvent>>)]
    pub events: Option<Value>,
    pub at: Option<DateTime<Utc>>,
    /// The text notation's digest of the entry (`docs/notation.md`, "Entries"), as read
    /// from a text export: not part of the JSON form, which carries the events themselves.
    #[serde(skip)]
    #[schema(ignore)]
    pub digest: Option<String>,
}

/// A seat's cards in one hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportHand {
    pub hand: i64,
    pub seat: i64,
    pub held: Vec<String>,
    pub at_end: Vec<String>,
}

/// How an exported game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportResult {
    pub status: String,
    #[schema(value_type = Option<cardroom_core::Outcome>)]
    pub outcome: Value,
    /// `sha256` of the final state as stored: an import must replay to the same digest.
    pub state_sha256: String,
}

/// Where an export came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExportSource {
    pub game_id: i64,
    pub exported_at: DateTime<Utc>,
}

pub(super) fn not_finished() -> ApiError {
    ApiError::Conflict {
        code: ProblemCode::GameNotFinished,
        detail: "only a finished game can be exported".to_owned(),
    }
}

pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    crate::play::changes::hex(&Sha256::digest(bytes))
}

/// `GET /games/{id}/export`: the game's seated players and admins.
pub fn export(conn: &mut AnyConnection, caller: &Caller, id: GameId) -> Result<Export, ApiError> {
    let loaded = load(conn, id)?;
    crate::play::gate::whole(
        conn,
        &loaded,
        Some(caller),
        crate::play::gate::Whole::Export,
    )?;
    build(conn, id)
}

/// Every card each seat held in each hand, and what was left at its end, as the replay goes.
#[derive(Default)]
pub(super) struct HandRecorder {
    hands: BTreeMap<(u32, u8), (Vec<String>, Vec<String>)>,
}

impl HandRecorder {
    pub(super) fn observe(&mut self, game: &AnyGame) {
        let table = game.table();
        let hand = table.hand_number();
        for seat in 0..table.seats() {
            let cards = crate::play::seats::hand_of(game, Seat::new(seat));
            let (held, at_end) = self.hands.entry((hand, seat)).or_default();
            for card in &cards {
                if !held.contains(card) {
                    held.push(card.clone());
                }
            }
            *at_end = cards;
        }
    }

    pub(super) fn into_hands(self) -> Vec<ExportHand> {
        self.hands
            .into_iter()
            .map(|((hand, seat), (held, at_end))| ExportHand {
                hand: i64::from(hand),
                seat: i64::from(seat),
                held,
                at_end,
            })
            .collect()
    }
}

/// The game's analysis, if made in the current format.
fn stored_analysis(conn: &mut AnyConnection, id: GameId) -> Result<Option<Value>, ApiError> {
    let row = cardroom_db::analyses::get(conn, id)?.filter(|a| {
        a.status == cardroom_db::analyses::AnalysisStatus::Done
            && a.format == cardroom_core::analysis::FORMAT as i32
    });
    match row.and_then(|a| a.body) {
        Some(body) => Ok(Some(
            serde_json::from_str(&body).map_err(ApiError::because("stored analysis"))?,
        )),
        None => Ok(None),
    }
}

/// Builds the export of finished game `id` (no access check: the caller's business).
pub fn build(conn: &mut AnyConnection, id: GameId) -> Result<Export, ApiError> {
    let loaded = load(conn, id)?;
    let row = &loaded.record.game;
    let stored = match &loaded.game {
        Some(game) if game.table().status() == Status::Finished => game.clone(),
        _ => return Err(not_finished()),
    };
    let mut entries = Vec::new();
    let mut recorder = HandRecorder::default();
    let replayed = crate::play::recovery::replay_each(conn, id, |entry, game| {
        entries.push(ExportEntry {
            version: entry.seq,
            seat: entry.seat.map(i64::from),
            action: entry.action.clone(),
            mv: entry
                .payload
                .as_deref()
                .and_then(|p| serde_json::from_str(p).ok()),
            events: serde_json::from_str(&entry.events).ok(),
            at: Some(entry.created_at.and_utc()),
            digest: None,
        });
        if let Some(game) = game {
            recorder.observe(game);
        }
        Ok(())
    })?;
    if replayed.as_ref() != Some(&stored) {
        return Err(ApiError::internal(format!(
            "game {id} does not replay to its snapshot"
        )));
    }
    let deals = games::deals(conn, id)?
        .into_iter()
        .map(|d| ExportDeal {
            deal: i64::from(d.deal),
            hand: i64::from(d.hand),
            commitment: d.commitment,
            seed: d.seed,
        })
        .collect();
    Ok(Export {
        format: FORMAT.to_owned(),
        format_version: FORMAT_VERSION,
        kind: loaded.kind(),
        variant: row.variant.clone(),
        options: serde_json::from_str(&row.options).map_err(ApiError::because("stored options"))?,
        seats: loaded
            .record
            .seats
            .iter()
            .map(|s| ExportSeat {
                seat: i64::from(s.seat),
                name: s.name.clone(),
                bot: s.bot.map(|level| level.name().to_owned()),
            })
            .collect(),
        practice: row.practice,
        turn: row.turn_seconds.map(|seconds| TurnPolicy {
            seconds: i64::from(seconds),
            takeover_after: row.takeover_after.map(i64::from),
        }),
        seed: row.seed.clone(),
        deck: match &row.deck {
            None => None,
            Some(text) => {
                Some(serde_json::from_str(text).map_err(ApiError::because("stored deck"))?)
            }
        },
        shuffle_version: SHUFFLE_VERSION,
        deals,
        entries,
        hands: recorder.into_hands(),
        result: ExportResult {
            status: "finished".to_owned(),
            outcome: serde_json::to_value(stored.table().outcome())
                .map_err(ApiError::because("outcome encoding"))?,
            state_sha256: sha256_hex(snapshot(&stored)?.as_bytes()),
        },
        source: Some(ExportSource {
            game_id: id.get(),
            exported_at: cardroom_db::now().and_utc(),
        }),
        analysis: stored_analysis(conn, id)?,
        sealed_headers: Vec::new(),
    })
}
