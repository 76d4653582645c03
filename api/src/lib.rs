//! Cardroom's HTTP service: a thin layer over the rules engine and the database. It keeps no
//! game in memory, so any number of replicas can serve one database.
//!
//! # Layers
//!
//! A module uses only modules on lower lines, never one on its own line or above (checked by
//! `scripts/check-structure`, which also finds any cycle inside a module's own files). Handlers
//! call use cases, never the other way round; authorization and running storage work sit
//! below both:
//! - `startup`, `telemetry`, `verify`, `arena`, `dd_table`, `maintenance`: the service put
//!   together, its logs; the command line's other commands
//! - `document`, `jobs`, `sentinel`: the OpenAPI document; the background jobs; the safety
//!   net that wakes followers of news whose notice was missed
//! - `routes`, `web`: the handlers, by resource; the page
//! - `streams`: live events for clients: a game's, the lobby's, a seek's, an account's
//! - `feeds`: what streams read, one read for everyone following the same thing
//! - `play`: the use cases
//! - `guards`: what stands before a handler: the caller, the scope it needs, the write limit
//! - `blocking`: running storage work off the async workers
//! - `state`: what every handler shares
//! - `hub`, `shared`, `presence`, `limit`, `passwords`, `tokens`: what the state holds; the
//!   form of personal API tokens
//! - `events`, `auth`, `input`: a game's stored events; who calls; reading input
//! - `model`, `metrics`, `settings`, `error`: the API's bodies; counters; configuration; errors

pub mod arena;
pub mod auth;
pub mod blocking;
pub mod dd_table;
pub mod document;
pub mod error;
pub mod events;
pub mod feeds;
pub mod guards;
pub mod hub;
pub mod input;
pub mod jobs;
pub mod limit;
pub mod maintenance;
pub mod metrics;
pub mod model;
pub mod passwords;
pub mod play;
pub mod presence;
pub mod routes;
pub mod sentinel;
pub mod settings;
pub mod shared;
pub mod startup;
pub mod state;
pub mod streams;
pub mod telemetry;
pub mod tokens;
pub mod verify;
pub mod web;
