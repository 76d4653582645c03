//! Prometheus counters, histograms and gauges, rendered as text at `GET /metrics`.
//!
//! Written here rather than with `prometheus-client` (the Prometheus project's Rust client),
//! deliberately. That crate writes only the OpenMetrics exposition: `# EOF` at the end, a full
//! stop added to every help text, counters typed under their name without `_total`, and the
//! OpenMetrics content type. `/metrics` is the classic text format (`text/plain;
//! version=0.0.4`), which every Prometheus-compatible scraper reads and the series table in
//! `docs/operations.md` documents line for line; switching would change what operators'
//! scrapers and dashboards already read, for no series we lack. The gauges that come from the
//! database at scrape time (absent while it is unreachable) would need a hand-written collector
//! there anyway. What a library would guarantee — a well-formed exposition — is checked
//! instead: `scripts/check-metrics` reads this output with the Prometheus project's own parser
//! after real traffic, and fails on a malformed line, a series missing from that table or not
//! in it, a histogram that is not cumulative, or a raw path as a route label.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds (the last, `+Inf`, is implicit).
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// A Prometheus histogram: cumulative counts per bucket, the sum and the count.
#[derive(Clone, Debug, Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        for (bucket, bound) in self.buckets.iter_mut().zip(BUCKETS) {
            if seconds <= bound {
                *bucket += 1;
            }
        }
        self.count += 1;
        self.sum += seconds;
    }

    /// The `_bucket`, `_sum` and `_count` lines of `name` with `labels` (`a="b",…`).
    fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (count, bound) in self.buckets.iter().zip(BUCKETS) {
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {count}");
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}",
            self.count
        );
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// Requests by method, route pattern and status, and their latency by method and route.
#[derive(Debug, Default)]
struct Routes {
    responses: BTreeMap<(String, String, u16), u64>,
    latency: BTreeMap<(String, String), Histogram>,
}

/// Escapes a label value (backslash, quote, newline).
fn label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Counters since the process started.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: [AtomicU64; 5],
    routes: Mutex<Routes>,
    /// Computer players' think time by game kind and level.
    think: Mutex<BTreeMap<(String, String), Histogram>>,
    pub games_created: AtomicU64,
    pub moves: AtomicU64,
    pub computer_moves: AtomicU64,
    pub version_conflicts: AtomicU64,
    pub recovered_games: AtomicU64,
    pub timeouts: AtomicU64,
    /// Database reads made for streams and long-polls: the shared ones (by all who follow the
    /// same game or listing) and each follower's own (their chat, their seat, their token).
    pub stream_reads: AtomicU64,
    /// Requests made again on a fresh connection because the database went away under them.
    pub db_retries: AtomicU64,
}

impl Metrics {
    /// Counts a response by status class (1xx…5xx).
    fn count_response(&self, status: u16) {
        let class = usize::from((status / 100).clamp(1, 5)) - 1;
        self.requests[class].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a response to `method` on the route `pattern` (the route's template, such as
    /// `/api/v1/games/{id}`, never the raw path, so the series stay few), and its latency.
    pub fn observe_request(&self, method: &str, pattern: &str, status: u16, elapsed: Duration) {
        self.count_response(status);
        // Any token is an HTTP method; a client inventing new ones must not invent new series.
        let method = match method {
            "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" => method,
            _ => "other",
        };
        if let Ok(mut routes) = self.routes.lock() {
            *routes
                .responses
                .entry((method.to_owned(), pattern.to_owned(), status))
                .or_default() += 1;
            routes
                .latency
                .entry((method.to_owned(), pattern.to_owned()))
                .or_default()
                .observe(elapsed.as_secs_f64());
        }
    }

    /// Records how long a computer player of `level` took to choose a move in `kind`.
    pub fn observe_think(&self, kind: &str, level: &str, elapsed: Duration) {
        if let Ok(mut think) = self.think.lock() {
            think
                .entry((kind.to_owned(), level.to_owned()))
                .or_default()
                .observe(elapsed.as_secs_f64());
        }
    }

    /// Adds `n` to a counter.
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// The Prometheus text exposition; `games` is the number of stored games by status, when
    /// the database answered; `stream_wakes` the hub's count of waiting requests woken.
    pub fn render(
        &self,
        pool_connections: u32,
        pool_idle: u32,
        games: Option<&[(String, i64)]>,
        stream_wakes: u64,
    ) -> String {
        let mut out = String::new();
        if let Ok(routes) = self.routes.lock() {
            let _ = writeln!(
                out,
                "# HELP cardroom_http_requests_total HTTP responses by method, route and status."
            );
            let _ = writeln!(out, "# TYPE cardroom_http_requests_total counter");
            for ((method, route, status), count) in &routes.responses {
                let _ = writeln!(
                    out,
                    "cardroom_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {count}",
                    label(method),
                    label(route)
                );
            }
            let _ = writeln!(
                out,
                "# HELP cardroom_http_request_duration_seconds Time to answer, by method and route."
            );
            let _ = writeln!(
                out,
                "# TYPE cardroom_http_request_duration_seconds histogram"
            );
            for ((method, route), histogram) in &routes.latency {
                let labels = format!("method=\"{}\",route=\"{}\"", label(method), label(route));
                histogram.render(&mut out, "cardroom_http_request_duration_seconds", &labels);
            }
        }
        if let Ok(think) = self.think.lock() {
            let _ = writeln!(
                out,
                "# HELP cardroom_bot_think_seconds Time a computer player took to choose a move."
            );
            let _ = writeln!(out, "# TYPE cardroom_bot_think_seconds histogram");
            for ((kind, level), histogram) in think.iter() {
                let labels = format!("kind=\"{}\",level=\"{}\"", label(kind), label(level));
                histogram.render(&mut out, "cardroom_bot_think_seconds", &labels);
            }
        }
        if let Some(games) = games {
            let _ = writeln!(out, "# HELP cardroom_games Stored games by status.");
            let _ = writeln!(out, "# TYPE cardroom_games gauge");
            for (status, count) in games {
                let _ = writeln!(
                    out,
                    "cardroom_games{{status=\"{}\"}} {count}",
                    label(status)
                );
            }
        }
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
            (
                "cardroom_turn_timeouts_total",
                "Moves the server made for a person out of time (and deals between hands).",
                &self.timeouts,
            ),
            (
                "cardroom_stream_reads_total",
                "Database reads for streams and long-polls: a game's news, its presence and a \
                 lobby listing, each shared by everyone following it on this process, the \
                 safety net's read of what this process's streams follow, and a follower's own \
                 (chat, seat, token) when it needs one.",
                &self.stream_reads,
            ),
            (
                "cardroom_db_retries_total",
                "Requests made again on a fresh connection because the database went away under \
                 them (a switchover within CARDROOM_DB_HOLD_MS): reads, keyed moves and new \
                 games, deals, joins.",
                &self.db_retries,
            ),
        ];
        let wakes = (
            "cardroom_stream_wakes_total",
            "Times a waiting stream or long-poll woke to look again: news of what it follows, \
             a recheck, or its caller's next check. A game's change wakes its followers; a \
             lobby listing's followers wake only when their listing changed.",
            stream_wakes,
        );
        let counters = counters
            .into_iter()
            .map(|(name, help, value)| (name, help, value.load(Ordering::Relaxed)))
            .chain([wakes]);
        for (name, help, value) in counters {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name} {value}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_are_cumulative_and_labels_escaped() {
        let metrics = Metrics::default();
        for ms in [0.5, 3.0, 3.0, 40.0, 20_000.0] {
            metrics.observe_request(
                "GET",
                "/api/v1/games/{id}",
                200,
                Duration::from_secs_f64(ms / 1000.0),
            );
        }
        metrics.observe_request("POST", "a \"quoted\"\\route", 404, Duration::ZERO);
        metrics.observe_request("BREW", "unmatched", 404, Duration::ZERO);
        metrics.observe_request("PROPFIND", "unmatched", 404, Duration::ZERO);
        metrics.observe_think("basra", "hard", Duration::from_millis(7));
        let games = [("active".to_owned(), 3), ("finished".to_owned(), 5)];
        let text = metrics.render(4, 2, Some(&games), 9);
        let line = |needle: &str| {
            text.lines()
                .find(|l| l.starts_with(needle))
                .unwrap_or_else(|| panic!("no {needle} in\n{text}"))
                .rsplit(' ')
                .next()
                .map(str::to_owned)
                .unwrap_or_default()
        };
        let route = "method=\"GET\",route=\"/api/v1/games/{id}\"";
        assert_eq!(
            line(&format!(
                "cardroom_http_requests_total{{{route},status=\"200\"}}"
            )),
            "5"
        );
        let bucket = |le: &str| {
            line(&format!(
                "cardroom_http_request_duration_seconds_bucket{{{route},le=\"{le}\"}}"
            ))
        };
        assert_eq!(bucket("0.001"), "1");
        assert_eq!(bucket("0.005"), "3");
        assert_eq!(bucket("0.05"), "4");
        assert_eq!(bucket("10"), "4");
        assert_eq!(bucket("+Inf"), "5");
        assert_eq!(
            line(&format!(
                "cardroom_http_request_duration_seconds_count{{{route}}}"
            )),
            "5"
        );
        assert!(
            text.contains("route=\"a \\\"quoted\\\"\\\\route\",status=\"404\"} 1"),
            "{text}"
        );
        assert_eq!(
            line("cardroom_bot_think_seconds_bucket{kind=\"basra\",level=\"hard\",le=\"0.01\"}"),
            "1"
        );
        assert_eq!(line("cardroom_games{status=\"finished\"}"), "5");
        assert_eq!(line("cardroom_http_responses_total{class=\"4xx\"}"), "3");
        assert_eq!(line("cardroom_stream_wakes_total "), "9");
        assert_eq!(
            line(
                "cardroom_http_requests_total{method=\"other\",route=\"unmatched\",status=\"404\"}"
            ),
            "2"
        );
        assert!(!text.contains("BREW"), "{text}");
    }
}
