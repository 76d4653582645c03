//! docs/rules.md#basra, sentence by sentence: Basra `standard` (#basra-standard), `classic44` (#basra-classic44) and
//! `cse231` (#basra-cse231).
#![allow(clippy::unwrap_used, reason = "tests")]

mod classic44;
mod cse231;
mod helpers;
mod positions;
mod standard_play;
mod standard_scoring;
