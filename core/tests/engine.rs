//! The engine's tests, one binary: each module is a file of its own (`<game>_rules.rs`,
//! `<game>_bots.rs`, `basra_rules/` by variant, `levels.rs`, `playouts.rs`). As ten binaries,
//! each built and linked the engine's generic code again: 111 s of CPU to build, against
//! what docs/testing.md records for one.
#![allow(clippy::unwrap_used, reason = "tests")]

mod basra_bots;
#[path = "basra_rules/main.rs"]
mod basra_rules;
mod levels;
mod playouts;
mod rummy_bots;
mod rummy_rules;
mod tarneeb_bots;
mod tarneeb_rules;
mod thirty_one_bots;
mod thirty_one_rules;
