//! Rate limits: token buckets, one a key. `sign_ins` counts guest creation, registration and
//! login per client address, so passwords cannot be guessed at speed and names cannot be
//! squatted in bulk; `writes` counts every other write (POST, PUT, DELETE) per account (its
//! sessions and personal tokens together), per credential that names no account, or per
//! address without one, and tells each client where it stands in `RateLimit-Policy` and
//! `RateLimit` headers (the IETF HTTPAPI draft's fields).
//!
//! Per process: behind a load balancer each replica keeps its own buckets, so a client gets
//! at most `replicas ×` the rate. The client's address is the connection's peer, or — only
//! when `CARDROOM_CLIENT_IP_HEADER` names one — the right-most address in that header, which
//! is the one the nearest proxy (ours) saw; a client cannot forge it past that proxy.
//!
//! Why our own buckets and not `governor`'s keyed limiter: a bucket here is the draft's model
//! itself (the tokens, and when they were counted), so `remaining` and `reset` are read straight
//! off it, and a refusal's `RateLimit` is answered by a look that takes nothing
//! ([`Limiter::standing`]). governor admits the same requests (its GCRA is a token bucket seen
//! from the other side), but both figures would be rebuilt from its theoretical arrival time
//! through its state-information middleware, and it would bring a concurrent map, its own clock
//! and the futures crates for what is here one short lock a write.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::HttpRequest;

use crate::error::ApiError;

/// Below this many buckets none is dropped.
const PRUNE_ABOVE: usize = 10_000;

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// A limit named `name`: `per_minute` requests a key on average, `burst` at once; `per_minute`
/// 0 turns it off.
#[derive(Debug)]
pub struct Limiter {
    name: &'static str,
    per_minute: u32,
    burst: u32,
    header: Option<String>,
    buckets: Mutex<Buckets>,
}

/// The buckets by key, and the size at which the full (idle) ones are next dropped: twice what
/// the last pass kept, so that when most keys are busy a pass that drops nothing is not made
/// again on every request (each costs a look at every bucket).
#[derive(Debug)]
struct Buckets {
    map: HashMap<String, Bucket>,
    prune_at: usize,
}

/// Where a key stands after a request it was allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quota {
    /// Requests left at once.
    pub remaining: u32,
    /// Seconds until the bucket is full again.
    pub reset: u64,
}

/// The sign-in limit (its old name).
pub type AuthLimiter = Limiter;

impl Limiter {
    /// The sign-in limit.
    pub fn new(per_minute: u32, burst: u32, header: Option<String>) -> Limiter {
        Limiter::named("sign_ins", per_minute, burst, header)
    }

    /// A limit named `name` (the name a 429's problem and the headers give).
    pub fn named(
        name: &'static str,
        per_minute: u32,
        burst: u32,
        header: Option<String>,
    ) -> Limiter {
        Limiter {
            name,
            per_minute,
            burst: burst.max(1),
            header,
            buckets: Mutex::new(Buckets {
                map: HashMap::new(),
                prune_at: PRUNE_ABOVE,
            }),
        }
    }

    /// Whether the limit is on.
    pub fn is_on(&self) -> bool {
        self.per_minute > 0
    }

    /// `RateLimit-Policy`: the limit's name, its quota and window (a minute).
    pub fn policy(&self) -> String {
        format!("\"{}\";q={};w=60", self.name, self.per_minute)
    }

    /// `RateLimit`: what is left now and when the bucket is full again.
    pub fn state(&self, quota: Quota) -> String {
        format!("\"{}\";r={};t={}", self.name, quota.remaining, quota.reset)
    }

    /// The address a request comes from, as this limiter counts it.
    pub fn client(&self, req: &HttpRequest) -> String {
        if let Some(name) = &self.header
            && let Some(value) = req
                .headers()
                .get(name.as_str())
                .and_then(|v| v.to_str().ok())
            && let Some(last) = value.rsplit(',').map(str::trim).find(|s| !s.is_empty())
        {
            return last.chars().take(64).collect();
        }
        req.peer_addr()
            .map(|addr| addr.ip().to_string())
            .unwrap_or_else(|| "unknown".to_owned())
    }

    /// Takes one token for `client`, or says how long to wait for one.
    pub fn check(&self, client: &str) -> Result<(), ApiError> {
        self.take_at(client, Instant::now()).map(|_| ())
    }

    /// Takes one token for `key`: where it stands then, or how long to wait.
    pub fn take(&self, key: &str) -> Result<Quota, ApiError> {
        self.take_at(key, Instant::now())
    }

    /// Where `key` stands now, taking nothing: what is left, and (as after a request it was
    /// allowed) the seconds until its bucket is full again. A refusal's `RateLimit` says this,
    /// so that `t` means the same on every answer.
    pub fn standing(&self, key: &str) -> Quota {
        self.standing_at(key, Instant::now())
    }

    fn standing_at(&self, key: &str, now: Instant) -> Quota {
        if self.per_minute == 0 {
            return Quota {
                remaining: self.burst,
                reset: 0,
            };
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = f64::from(self.burst);
        let buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let tokens = buckets.map.get(key).map_or(burst, |b| {
            (b.tokens + now.duration_since(b.at).as_secs_f64() * rate).min(burst)
        });
        Quota {
            remaining: tokens.floor() as u32,
            reset: ((burst - tokens) / rate).ceil() as u64,
        }
    }

    fn take_at(&self, client: &str, now: Instant) -> Result<Quota, ApiError> {
        if self.per_minute == 0 {
            return Ok(Quota {
                remaining: self.burst,
                reset: 0,
            });
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = f64::from(self.burst);
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.map.len() >= buckets.prune_at {
            buckets
                .map
                .retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < burst);
            buckets.prune_at = (buckets.map.len() * 2).max(PRUNE_ABOVE);
        }
        let bucket = buckets.map.entry(client.to_owned()).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        bucket.tokens =
            (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(Quota {
                remaining: bucket.tokens.floor() as u32,
                reset: ((burst - bucket.tokens) / rate).ceil() as u64,
            })
        } else {
            let wait = Duration::from_secs_f64((1.0 - bucket.tokens) / rate);
            Err(ApiError::RateLimited {
                retry_after: wait.as_secs().max(1),
                limit: self.name,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reset_means_time_to_a_full_bucket_whether_allowed_or_refused() {
        let limiter = Limiter::named("writes", 60, 3, None);
        let t0 = Instant::now();
        let allowed: Vec<Quota> = (0..3).map(|_| limiter.take_at("k", t0).unwrap()).collect();
        assert_eq!(allowed.last().map(|q| (q.remaining, q.reset)), Some((0, 3)));
        assert!(limiter.take_at("k", t0).is_err());
        // Refused: nothing left, and the same three seconds until the bucket is full.
        let refused = limiter.standing_at("k", t0);
        assert_eq!((refused.remaining, refused.reset), (0, 3));
        // A key never seen is full.
        let fresh = limiter.standing_at("other", t0);
        assert_eq!((fresh.remaining, fresh.reset), (3, 0));
    }

    #[test]
    fn a_burst_passes_then_the_rate_holds_and_addresses_are_apart() {
        let limiter = AuthLimiter::new(60, 3, None);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.take_at("10.0.0.1", t0).is_ok());
        }
        match limiter.take_at("10.0.0.1", t0) {
            Err(ApiError::RateLimited { retry_after, limit }) => {
                assert_eq!((retry_after, limit), (1, "sign_ins"));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            limiter.take_at("10.0.0.2", t0).is_ok(),
            "another address has its own bucket"
        );
        // One a second comes back.
        assert!(
            limiter
                .take_at("10.0.0.1", t0 + Duration::from_millis(1000))
                .is_ok()
        );
        assert!(
            limiter
                .take_at("10.0.0.1", t0 + Duration::from_millis(1000))
                .is_err()
        );
    }

    #[test]
    fn idle_buckets_are_forgotten_and_busy_ones_kept_without_a_pass_a_request() {
        let limiter = Limiter::named("writes", 60, 3, None);
        let t0 = Instant::now();
        let size = |limiter: &Limiter| {
            let buckets = limiter.buckets.lock().unwrap();
            (buckets.map.len(), buckets.prune_at)
        };
        // As many busy keys as the threshold (each took a token: not full).
        for i in 0..PRUNE_ABOVE {
            limiter.take_at(&format!("busy{i}"), t0).unwrap();
        }
        assert_eq!(size(&limiter), (PRUNE_ABOVE, PRUNE_ABOVE));
        // The next request passes over every bucket, drops none, and the next pass waits until
        // the map has doubled — not on every request while the keys stay busy.
        limiter.take_at("one more", t0).unwrap();
        assert_eq!(size(&limiter), (PRUNE_ABOVE + 1, 2 * PRUNE_ABOVE));
        limiter.take_at("and another", t0).unwrap();
        assert_eq!(size(&limiter), (PRUNE_ABOVE + 2, 2 * PRUNE_ABOVE));
        // A busy key kept its standing.
        assert_eq!(limiter.standing_at("busy7", t0).remaining, 2);
        // Five seconds on, the first keys are full again (three tokens at one a second); new
        // keys, busy, fill the map to the doubled size, and the next request's pass forgets the
        // full ones and keeps the busy ones.
        let later = t0 + Duration::from_secs(5);
        for i in 0..(PRUNE_ABOVE - 2) {
            limiter.take_at(&format!("late{i}"), later).unwrap();
        }
        assert_eq!(size(&limiter), (2 * PRUNE_ABOVE, 2 * PRUNE_ABOVE));
        limiter.take_at("last", later).unwrap();
        assert_eq!(
            size(&limiter),
            (PRUNE_ABOVE - 1, 2 * (PRUNE_ABOVE - 2)),
            "the late keys and the last kept, the threshold twice what the pass kept"
        );
        let buckets = limiter.buckets.lock().unwrap();
        assert!(!buckets.map.contains_key("busy7") && buckets.map.contains_key("late7"));
    }

    #[test]
    fn zero_turns_it_off() {
        let limiter = AuthLimiter::new(0, 1, None);
        let t0 = Instant::now();
        for _ in 0..100 {
            assert!(limiter.take_at("10.0.0.1", t0).is_ok());
        }
    }
}
