//! Configuration from environment variables, with safe defaults for local use. Every variable is
//! listed in docs/configuration.md with its default.

use std::time::Duration;

/// The service's configuration.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `CARDROOM_ADDR`: where to listen (port 0 picks a free port).
    pub addr: String,
    /// `DATABASE_URL`: `sqlite://FILE` or `postgres://…`.
    pub database_url: String,
    /// `CARDROOM_DB_POOL`: connections in the pool.
    pub db_pool: u32,
    /// `CARDROOM_DB_TIMEOUT_MS`: the longest wait for a pooled connection before answering 503.
    pub db_timeout: Duration,
    /// `CARDROOM_DB_HOLD_MS`: how long after the database went away requests still wait for it
    /// (within their own timeout) before answering 503 at once: a switchover of the primary is
    /// not seen.
    pub db_hold: Duration,
    /// `CARDROOM_ENV`: `development` or `production`; production refuses a missing secret.
    pub production: bool,
    /// `CARDROOM_JWT_SECRET`: the token signing secret.
    pub jwt_secret: String,
    /// `CARDROOM_TOKEN_TTL_SECS`: how long a token is valid.
    pub token_ttl: Duration,
    /// `CARDROOM_ADMIN`: `name:password` of an account made admin at start.
    pub admin: Option<(String, String)>,
    /// `CARDROOM_WORKERS`: HTTP worker threads (0: one per core).
    pub workers: usize,
    /// `CARDROOM_MAX_BODY_BYTES`: the largest request body accepted.
    pub max_body: usize,
    /// `CARDROOM_LONG_POLL_SECS`: the longest an events request waits for news.
    pub long_poll: Duration,
    /// `CARDROOM_SWEEP_MS`: how often to look for games left on a computer player's turn.
    pub sweep_every: Duration,
    /// `CARDROOM_ARENA_MINUTE_SECS`: how long each of an arena's minutes lasts (a minute, but
    /// in tests and demonstrations).
    pub arena_minute: chrono::Duration,
    /// `CARDROOM_MAX_STREAMS`: open event streams per process; beyond, 503.
    pub max_streams: usize,
    /// `CARDROOM_MAX_STREAMS_PER_ACCOUNT`: open event streams per account per process; beyond,
    /// 429.
    pub max_streams_per_account: usize,
    /// `CARDROOM_OPEN_TABLE_SECS`: how long a public table waits for its players before it is
    /// closed.
    pub open_table_expiry: Duration,
    /// `CARDROOM_SEEK_TIMEOUT_SECS`: how long a quick-match seek stays open without its client
    /// asking after it.
    pub seek_timeout: Duration,
    /// `CARDROOM_HEARTBEAT_SECS`: how often an idle event stream sends a heartbeat.
    pub heartbeat: Duration,
    /// `CARDROOM_RECHECK_MS`: how long a waiting event stream or long-poll goes without a change
    /// notice before it looks again.
    pub recheck: Duration,
    /// `CARDROOM_PRESENCE_SECS`: how long a person counts as connected after their last
    /// request or open stream.
    pub presence_window: Duration,
    /// `CARDROOM_CHAT_BURST`: chat messages one person may write in any ten seconds.
    pub chat_burst: u32,
    /// `CARDROOM_CHALLENGE_SECS`: how long a challenge waits for its answer.
    pub challenge_expiry: Duration,
    /// `CARDROOM_CLIENT_TIMEOUT_SECS`: how long a client has to send a request's headers, and
    /// again its body: a connection that sends them slower is answered `408` and closed.
    pub client_timeout: Duration,
    /// `CARDROOM_WRITES_PER_MINUTE`: writes (POST, PUT, DELETE, but signing in) per account
    /// (all its sessions and personal tokens together; an address without a credential) per
    /// minute on average; 0 turns the limit off.
    pub writes_per_minute: u32,
    /// `CARDROOM_WRITES_BURST`: writes allowed at once.
    pub writes_burst: u32,
    /// `CARDROOM_BOT_WRITES_PER_MINUTE`: the writes limit of a bot account's personal tokens,
    /// all of them together (a program plays at machine speed, against another); 0 turns it off.
    pub bot_writes_per_minute: u32,
    /// `CARDROOM_BOT_WRITES_BURST`: a bot account's writes allowed at once.
    pub bot_writes_burst: u32,
    /// `CARDROOM_CORS_ORIGINS`: origins whose pages may call the API from a browser
    /// (comma-separated, or `*` for any); none: no cross-origin calls.
    pub cors_origins: Vec<String>,
    /// `CARDROOM_AUTH_PER_MINUTE`: sign-ins (guest, register, login) per client address per
    /// minute, on average; 0 turns the limit off.
    pub auth_per_minute: u32,
    /// `CARDROOM_AUTH_BURST`: sign-ins per address allowed at once.
    pub auth_burst: u32,
    /// `CARDROOM_CLIENT_IP_HEADER`: a header set by the load balancer with the client's
    /// address (e.g. `X-Real-IP`); unset: the connection's peer address.
    pub client_ip_header: Option<String>,
    /// `CARDROOM_ANALYSIS`: `on` (the default) to analyse finished games in the background on
    /// this replica, `off` to leave them to the others.
    pub analysis: bool,
    /// `CARDROOM_H2C`: `on` to answer HTTP/2 spoken in cleartext with prior knowledge (h2c) as
    /// well as HTTP/1.1 on the same port, for a proxy that carries many clients' streams over a
    /// few connections; `off` (the default): HTTP/1.1 only.
    pub h2c: bool,
}

/// `CARDROOM_RECHECK_MS` when unset: a waiting stream looks again each second without a notice.
pub const DEFAULT_RECHECK: Duration = Duration::from_millis(1000);

/// The development secret: documented, so useless in production, which refuses it.
pub const DEVELOPMENT_SECRET: &str = "cardroom-development-secret-do-not-use-in-production";

/// A configuration that cannot run.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct SettingsError(pub String);

impl Settings {
    /// Reads the environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through `lookup` (the environment, or a map in tests).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let number = |name: &str, default: u64| -> Result<u64, SettingsError> {
            match get(name) {
                None => Ok(default),
                Some(text) => text.trim().parse().map_err(|_| {
                    SettingsError(format!("{name} must be a whole number, not {text:?}"))
                }),
            }
        };
        let production = match get("CARDROOM_ENV").as_deref() {
            None | Some("development") => false,
            Some("production") => true,
            Some(other) => {
                return Err(SettingsError(format!(
                    "CARDROOM_ENV must be development or production, not {other:?}"
                )));
            }
        };
        let jwt_secret = match get("CARDROOM_JWT_SECRET") {
            Some(secret) if production && secret.len() < 32 => {
                return Err(SettingsError(
                    "CARDROOM_JWT_SECRET must be at least 32 characters in production".to_owned(),
                ));
            }
            Some(secret) if production && secret == DEVELOPMENT_SECRET => {
                return Err(SettingsError(
                    "CARDROOM_JWT_SECRET is the published development secret".to_owned(),
                ));
            }
            Some(secret) => secret,
            None if production => {
                return Err(SettingsError(
                    "CARDROOM_JWT_SECRET is required when CARDROOM_ENV=production".to_owned(),
                ));
            }
            None => DEVELOPMENT_SECRET.to_owned(),
        };
        // A tournament's page and the document say an arena lasts its `minutes`: production
        // keeps them minutes.
        let arena_minute = number("CARDROOM_ARENA_MINUTE_SECS", 60)?.clamp(1, 60);
        if production && arena_minute < 60 {
            return Err(SettingsError(
                "CARDROOM_ARENA_MINUTE_SECS shortens arenas: for tests and demonstrations, not \
                 CARDROOM_ENV=production"
                    .to_owned(),
            ));
        }
        let admin = match get("CARDROOM_ADMIN") {
            None => None,
            Some(spec) => {
                let (name, password) = spec.split_once(':').ok_or_else(|| {
                    SettingsError("CARDROOM_ADMIN must be name:password".to_owned())
                })?;
                Some((name.to_owned(), password.to_owned()))
            }
        };
        Ok(Settings {
            addr: get("CARDROOM_ADDR").unwrap_or_else(|| "127.0.0.1:8080".to_owned()),
            database_url: get("DATABASE_URL").unwrap_or_else(|| "sqlite://cardroom.db".to_owned()),
            db_pool: number("CARDROOM_DB_POOL", 16)?.clamp(1, 1000) as u32,
            db_timeout: Duration::from_millis(number("CARDROOM_DB_TIMEOUT_MS", 5000)?.max(100)),
            db_hold: Duration::from_millis(number("CARDROOM_DB_HOLD_MS", 3000)?.min(600_000)),
            production,
            jwt_secret,
            token_ttl: Duration::from_secs(
                number("CARDROOM_TOKEN_TTL_SECS", 7 * 24 * 3600)?.max(60),
            ),
            admin,
            workers: number("CARDROOM_WORKERS", 0)? as usize,
            max_body: number("CARDROOM_MAX_BODY_BYTES", 64 * 1024)?.clamp(1024, 16 << 20) as usize,
            long_poll: Duration::from_secs(number("CARDROOM_LONG_POLL_SECS", 25)?.clamp(1, 300)),
            sweep_every: Duration::from_millis(number("CARDROOM_SWEEP_MS", 2000)?.max(100)),
            arena_minute: chrono::Duration::seconds(arena_minute as i64),
            max_streams: number("CARDROOM_MAX_STREAMS", 1000)? as usize,
            seek_timeout: Duration::from_secs(
                number("CARDROOM_SEEK_TIMEOUT_SECS", 30)?.clamp(1, 3600),
            ),
            open_table_expiry: Duration::from_secs(
                number("CARDROOM_OPEN_TABLE_SECS", 1800)?.clamp(1, 7 * 24 * 3600),
            ),
            max_streams_per_account: number("CARDROOM_MAX_STREAMS_PER_ACCOUNT", 20)?.max(1)
                as usize,
            heartbeat: Duration::from_secs(number("CARDROOM_HEARTBEAT_SECS", 15)?.clamp(1, 300)),
            recheck: Duration::from_millis(
                number("CARDROOM_RECHECK_MS", DEFAULT_RECHECK.as_millis() as u64)?
                    .clamp(50, 60_000),
            ),
            presence_window: Duration::from_secs(
                number("CARDROOM_PRESENCE_SECS", 20)?.clamp(2, 3600),
            ),
            chat_burst: number("CARDROOM_CHAT_BURST", 5)?.clamp(1, 1000) as u32,
            client_timeout: Duration::from_secs(
                number("CARDROOM_CLIENT_TIMEOUT_SECS", 10)?.clamp(1, 600),
            ),
            challenge_expiry: Duration::from_secs(
                number("CARDROOM_CHALLENGE_SECS", 1800)?.clamp(1, 7 * 24 * 3600),
            ),
            writes_per_minute: number("CARDROOM_WRITES_PER_MINUTE", 600)?.min(1_000_000) as u32,
            writes_burst: number("CARDROOM_WRITES_BURST", 120)?.clamp(1, 1_000_000) as u32,
            bot_writes_per_minute: number("CARDROOM_BOT_WRITES_PER_MINUTE", 6000)?.min(1_000_000)
                as u32,
            bot_writes_burst: number("CARDROOM_BOT_WRITES_BURST", 600)?.clamp(1, 1_000_000) as u32,
            cors_origins: cors_origins(get("CARDROOM_CORS_ORIGINS"))?,
            auth_per_minute: number("CARDROOM_AUTH_PER_MINUTE", 20)?.min(1_000_000) as u32,
            auth_burst: number("CARDROOM_AUTH_BURST", 10)?.clamp(1, 1_000_000) as u32,
            client_ip_header: get("CARDROOM_CLIENT_IP_HEADER").filter(|h| !h.trim().is_empty()),
            analysis: on_off(get("CARDROOM_ANALYSIS"), "CARDROOM_ANALYSIS", true)?,
            h2c: on_off(get("CARDROOM_H2C"), "CARDROOM_H2C", false)?,
        })
    }
}

/// A switch spelled `on` or `off` (spaces around it ignored); unset: `default`.
fn on_off(value: Option<String>, name: &str, default: bool) -> Result<bool, SettingsError> {
    match value.as_deref().map(str::trim) {
        None => Ok(default),
        Some("on") => Ok(true),
        Some("off") => Ok(false),
        Some(other) => Err(SettingsError(format!(
            "{name} must be on or off, not {other:?}"
        ))),
    }
}

/// `CARDROOM_CORS_ORIGINS`: origins like `https://example.com` (scheme, host, port), comma-
/// separated, or `*`.
fn cors_origins(list: Option<String>) -> Result<Vec<String>, SettingsError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut origins = Vec::new();
    for origin in list.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let origin = origin.trim_end_matches('/');
        let spelled = origin == "*"
            || ((origin.starts_with("http://") || origin.starts_with("https://"))
                && origin.parse::<actix_web::http::Uri>().is_ok_and(|uri| {
                    uri.host().is_some() && uri.path() == "/" && uri.query().is_none()
                }));
        if !spelled {
            return Err(SettingsError(format!(
                "CARDROOM_CORS_ORIGINS: {origin:?} is not an origin such as https://example.com"
            )));
        }
        origins.push(origin.to_owned());
    }
    Ok(origins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(vars: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Settings::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn the_defaults_run_locally_on_sqlite() {
        let s = settings(&[]).unwrap();
        assert_eq!(s.addr, "127.0.0.1:8080");
        assert_eq!(s.database_url, "sqlite://cardroom.db");
        assert_eq!(s.jwt_secret, DEVELOPMENT_SECRET);
        assert!(!s.production);
    }

    #[test]
    fn the_recheck_defaults_to_a_second_within_bounds() {
        assert_eq!(settings(&[]).unwrap().recheck, DEFAULT_RECHECK);
        let recheck = |ms: &str| settings(&[("CARDROOM_RECHECK_MS", ms)]).map(|s| s.recheck);
        assert_eq!(recheck("250").unwrap(), Duration::from_millis(250));
        assert_eq!(recheck("1").unwrap(), Duration::from_millis(50));
        assert_eq!(recheck("999999").unwrap(), Duration::from_secs(60));
        assert!(recheck("soon").is_err());
    }

    #[test]
    fn an_arena_minute_is_a_minute_unless_shortened() {
        let minute = |secs: &str| {
            settings(&[("CARDROOM_ARENA_MINUTE_SECS", secs)]).map(|s| s.arena_minute.num_seconds())
        };
        assert_eq!(settings(&[]).unwrap().arena_minute.num_seconds(), 60);
        assert_eq!(minute("15").unwrap(), 15);
        assert_eq!(minute("0").unwrap(), 1);
        assert_eq!(minute("3600").unwrap(), 60);
        assert!(minute("-5").is_err());
        let production = |secs: &str| {
            settings(&[
                ("CARDROOM_ENV", "production"),
                (
                    "CARDROOM_JWT_SECRET",
                    "a-production-secret-of-at-least-32-chars",
                ),
                ("CARDROOM_ARENA_MINUTE_SECS", secs),
            ])
        };
        assert!(production("60").is_ok());
        let refused = production("15").unwrap_err();
        assert!(
            refused.to_string().contains("CARDROOM_ARENA_MINUTE_SECS"),
            "{refused}"
        );
    }

    #[test]
    fn production_refuses_a_missing_weak_or_published_secret() {
        assert!(settings(&[("CARDROOM_ENV", "production")]).is_err());
        assert!(
            settings(&[
                ("CARDROOM_ENV", "production"),
                ("CARDROOM_JWT_SECRET", "short")
            ])
            .is_err()
        );
        assert!(
            settings(&[
                ("CARDROOM_ENV", "production"),
                ("CARDROOM_JWT_SECRET", DEVELOPMENT_SECRET)
            ])
            .is_err()
        );
        let ok = settings(&[
            ("CARDROOM_ENV", "production"),
            ("CARDROOM_JWT_SECRET", "0123456789abcdef0123456789abcdef"),
        ])
        .unwrap();
        assert!(ok.production);
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        let err = settings(&[("CARDROOM_DB_POOL", "many")]).unwrap_err();
        assert!(err.to_string().contains("CARDROOM_DB_POOL"), "{err}");
        assert!(settings(&[("CARDROOM_ENV", "staging")]).is_err());
        assert!(settings(&[("CARDROOM_ADMIN", "nopassword")]).is_err());
        let s = settings(&[("CARDROOM_ADMIN", "root:pa:ss")]).unwrap();
        assert_eq!(s.admin, Some(("root".to_owned(), "pa:ss".to_owned())));
    }

    #[test]
    fn switches_are_on_or_off_with_their_defaults() {
        let s = settings(&[]).unwrap();
        assert!(s.analysis);
        assert!(!s.h2c);
        let s = settings(&[("CARDROOM_H2C", " on "), ("CARDROOM_ANALYSIS", "off")]).unwrap();
        assert!(s.h2c);
        assert!(!s.analysis);
        for name in ["CARDROOM_H2C", "CARDROOM_ANALYSIS"] {
            let err = settings(&[(name, "yes")]).unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
    }

    #[test]
    fn cors_origins_are_origins_or_a_star() {
        assert_eq!(cors_origins(None).unwrap(), Vec::<String>::new());
        assert_eq!(
            cors_origins(Some(
                " https://a.example/, http://localhost:3000 ".to_owned()
            ))
            .unwrap(),
            vec!["https://a.example", "http://localhost:3000"]
        );
        assert_eq!(cors_origins(Some("*".to_owned())).unwrap(), vec!["*"]);
        for bad in [
            "a.example",
            "https://a.example/path",
            "ftp://a.example",
            "https://",
        ] {
            assert!(cors_origins(Some(bad.to_owned())).is_err(), "{bad}");
        }
    }
}
