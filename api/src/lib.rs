//! Cardroom's HTTP service: a thin layer over the rules engine and the database. It keeps no
//! game in memory, so any number of replicas can serve one database.

pub mod arena;
pub mod auth;
pub mod dd_table;
pub mod document;
pub mod error;
pub mod feeds;
pub mod input;
pub mod limit;
pub mod live;
pub mod metrics;
pub mod model;
pub mod passwords;
pub mod play;
pub mod presence;
pub mod routes;
pub mod settings;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod tokens;
pub mod verify;
pub mod web;
