//! Prometheus counters, rendered as text at `GET /metrics`.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters since the process started.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: [AtomicU64; 5],
    pub games_created: AtomicU64,
    pub moves: AtomicU64,
    pub computer_moves: AtomicU64,
    pub version_conflicts: AtomicU64,
    pub recovered_games: AtomicU64,
}

impl Metrics {
    /// Counts a response by status class (1xx…5xx).
    pub fn count_response(&self, status: u16) {
        let class = usize::from((status / 100).clamp(1, 5)) - 1;
        self.requests[class].fetch_add(1, Ordering::Relaxed);
    }

    /// Adds `n` to a counter.
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self, pool_connections: u32, pool_idle: u32) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP cardroom_http_responses_total HTTP responses by status class."
        );
        let _ = writeln!(out, "# TYPE cardroom_http_responses_total counter");
        for (i, count) in self.requests.iter().enumerate() {
            let _ = writeln!(
                out,
                "cardroom_http_responses_total{{class=\"{}xx\"}} {}",
                i + 1,
                count.load(Ordering::Relaxed)
            );
        }
        let counters = [
            (
                "cardroom_games_created_total",
                "Games created.",
                &self.games_created,
            ),
            ("cardroom_moves_total", "Moves made by people.", &self.moves),
            (
                "cardroom_computer_moves_total",
                "Moves made by computer players.",
                &self.computer_moves,
            ),
            (
                "cardroom_version_conflicts_total",
                "Writes that lost a version race.",
                &self.version_conflicts,
            ),
            (
                "cardroom_recovered_games_total",
                "Games picked up on a computer player's turn.",
                &self.recovered_games,
            ),
        ];
        for (name, help, value) in counters {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name} {}", value.load(Ordering::Relaxed));
        }
        let _ = writeln!(
            out,
            "# HELP cardroom_db_pool_connections Open database connections."
        );
        let _ = writeln!(out, "# TYPE cardroom_db_pool_connections gauge");
        let _ = writeln!(out, "cardroom_db_pool_connections {pool_connections}");
        let _ = writeln!(
            out,
            "# HELP cardroom_db_pool_idle Idle database connections."
        );
        let _ = writeln!(out, "# TYPE cardroom_db_pool_idle gauge");
        let _ = writeln!(out, "cardroom_db_pool_idle {pool_idle}");
        out
    }
}
