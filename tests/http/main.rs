//! Black-box tests over HTTP: each starts the real `cardroom` binary on a free port against a
//! fresh database — SQLite always, and PostgreSQL from the throwaway cluster `scripts/test`
//! starts (`CARDROOM_TEST_POSTGRES_URL`).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

mod support;

mod accounts;
mod admin;
mod analysis;
mod authorization;
mod backups;
mod challenges;
mod contract;
mod entry_races;
mod errors;
mod export;
mod failover;
mod fairness;
mod gate_matrix;
mod h2c;
mod hardening;
mod idle_streams;
mod integrity;
mod invitations;
mod lobby;
mod operations;
mod outage;
mod playing;
mod programs;
mod races;
mod ratings;
mod recovery;
mod replicas;
mod rummy;
mod sealed_boards;
mod seams;
mod seeks;
mod slow_clients;
mod table_talk;
mod tarneeb;
mod thirty_one;
mod timers;
mod tournament_checks;
mod tournament_entry;
mod tournament_kinds;
mod tournament_organising;
mod tournament_teams;
mod tournaments;
mod unwritable;
mod verification;
mod visibility;
mod write_budgets;
