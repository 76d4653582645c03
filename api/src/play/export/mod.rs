//! Exporting a finished game (JSON, or the text notation of `docs/notation.md`) and importing
//! one: the import replays every move with the rules engine, checks every deal's seed against
//! its commitment and the final state against the export's digest, and stores the game.

mod import;
mod json;
mod text;

#[cfg(test)]
mod tampering;

pub use import::{ImportReport, check, import};
pub use json::{
    Export, ExportDeal, ExportEntry, ExportHand, ExportResult, ExportSeat, ExportSource, FORMAT,
    FORMAT_VERSION, IMPORT_OWNER, build, export,
};
pub use text::{parse, to_text};
