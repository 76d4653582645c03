//! Spawning the real `cardroom` binary on a free port against a fresh database, and a small
//! HTTP client for it.

mod client;
mod cluster;
mod observe;
mod play;
mod server;
mod stream;

pub use client::{Client, Player, Reply};
pub use cluster::Cluster;
pub use play::{cards_in, hand_of, play_out};
pub use server::{Backend, SECRET, Server, fresh_postgres_database};
pub use stream::{RawStream, SseEvent};

/// Polls every 100 ms until `done` holds, for at most `wait` (failing with `what`); how long it
/// took.
pub fn eventually(
    wait: std::time::Duration,
    what: &str,
    mut done: impl FnMut() -> bool,
) -> std::time::Duration {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < wait, "{what}: not within {wait:?}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    start.elapsed()
}

/// Generates one test per backend from a scenario `fn(Backend)`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn sqlite() {
                    super::$name($crate::support::Backend::Sqlite);
                }
                #[test]
                fn postgres() {
                    super::$name($crate::support::Backend::Postgres);
                }
            }
        )*
    };
}
