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
    /// The limit on writes, per credential or address.
    pub write_limiter: crate::limit::Limiter,
    pub passwords: std::sync::Arc<crate::passwords::Passwords>,
    /// Who this process saw: people following games and making requests.
    pub presence: std::sync::Arc<crate::presence::Presence>,
}
