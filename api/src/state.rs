//! What every handler shares.

use cardroom_db::Pool;

use crate::auth::Keys;
use crate::hub::Hub;
use crate::metrics::Metrics;
use crate::settings::Settings;

/// The application state: the database pool, the token keys, the settings and the metrics.
/// Nothing about any game is kept here; every replica serves every game from the database.
#[derive(Debug)]
pub struct AppState {
    pub pool: Pool,
    /// Whether the database is known to be down (requests then fail fast).
    pub db_health: std::sync::Arc<cardroom_db::Health>,
    pub keys: Keys,
    pub settings: Settings,
    pub metrics: Metrics,
    pub hub: Hub,
    /// Reads shared by everyone following the same game or listing on this process.
    pub feeds: crate::shared::Feeds,
    pub auth_limiter: crate::limit::AuthLimiter,
    /// The limit on writes, per account (or credential naming none, or address).
    pub write_limiter: crate::limit::Limiter,
    /// The limit on a bot account's writes, per personal token (a tier of its own).
    pub bot_write_limiter: crate::limit::Limiter,
    /// The personal tokens (by their digest) found to be a bot account's.
    pub bot_credentials: BotCredentials,
    pub passwords: std::sync::Arc<crate::passwords::Passwords>,
    /// Who this process saw: people following games and making requests.
    pub presence: std::sync::Arc<crate::presence::Presence>,
    /// Accounts a session token named that the database has (checked once a process).
    pub known_accounts: KnownAccounts,
}

/// The credentials (digests of `Authorization` headers) that are a bot account's personal API
/// tokens, as checking them found: their writes count against the bots' own limit. A token is
/// looked up before anything else runs, so only its first write can count as anyone's. At most
/// 100,000 are kept (then forgotten, and found again).
pub type BotCredentials = Remembered<String, 100_000>;

/// The accounts this process has found in the database, by id and the stamp a session token
/// holds of its account (when it was made; none in tokens older than the stamp), so that a
/// session token (checked by its signature alone) is looked up once, not on every request: a
/// token whose account does not exist, or is another account of the same id — the database was
/// replaced, or restored to a moment before the account was made, under the same secret — is
/// refused. Accounts are never deleted, so what was found stays true for as long as the process
/// serves one database (after a failover too: a synchronous standby has every committed
/// account). At most 200,000 are kept (a few MiB).
pub type KnownAccounts = Remembered<(i64, Option<i64>), 200_000>;

/// Things this process found true once and that stay true, remembered so as not to ask the
/// database again; emptied when it holds `MOST` (they are found again as they come).
#[derive(Debug)]
pub struct Remembered<T, const MOST: usize>(std::sync::Mutex<std::collections::HashSet<T>>);

impl<T, const MOST: usize> Default for Remembered<T, MOST> {
    fn default() -> Self {
        Remembered(std::sync::Mutex::new(std::collections::HashSet::new()))
    }
}

impl<T: std::hash::Hash + Eq, const MOST: usize> Remembered<T, MOST> {
    fn set(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<T>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn contains<Q>(&self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        self.set().contains(item)
    }

    pub fn insert(&self, item: T) {
        let mut set = self.set();
        if set.len() >= MOST {
            set.clear();
        }
        set.insert(item);
    }
}
