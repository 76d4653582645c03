//! RULES.md §1, sentence by sentence: Basra `standard` (§1.1), `classic44` (§1.2) and
//! `cse231` (§1.3).
#![allow(clippy::unwrap_used, reason = "tests")]

mod classic44;
mod cse231;
mod helpers;
mod positions;
mod standard_play;
mod standard_scoring;
