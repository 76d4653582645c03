//! Password hashing (argon2id, PHC strings) within a fixed budget of threads and memory.
//!
//! An argon2id hash with the recommended parameters (19 MiB, two passes, one lane) needs 19 MiB
//! of working memory. Left alone, every sign-in allocates its own, as many at once as there are
//! sign-ins, and the allocator keeps much of it after the burst: 64 concurrent logins took a
//! process from 33 MB to 2.25 GB. Here at most one hash per core runs at once (the rest wait up
//! to [`WAIT`] for a turn, then get `503 sign_in_busy` with `Retry-After`), and each running
//! hash works in one of a fixed set of buffers, allocated on first use and reused for the life
//! of the process: hashing never holds more than `cores × 19 MiB`, however many sign in.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix_web::web;
use argon2::password_hash::phc::{Output, ParamsString, Salt};
use argon2::{Algorithm, Argon2, Block, Params, PasswordHash, Version};
use rand::RngExt;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::error::{ApiError, ProblemCode};

/// How long a sign-in waits for its turn to hash before it is refused.
pub const WAIT: Duration = Duration::from_secs(3);

/// The salt's length in bytes.
const SALT_LEN: usize = 16;
/// The hash's length in bytes.
const OUTPUT_LEN: usize = 32;

/// Hashes and checks passwords, a bounded number at once.
#[derive(Debug)]
pub struct Passwords {
    params: Params,
    turns: Semaphore,
    buffers: Mutex<Vec<Vec<Block>>>,
    wait: Duration,
}

impl Passwords {
    /// At most `at_once` hashes at a time; a caller waits up to `wait` for a turn.
    pub fn new(at_once: usize, wait: Duration) -> Passwords {
        Passwords {
            params: Params::DEFAULT,
            turns: Semaphore::new(at_once.max(1)),
            buffers: Mutex::new(Vec::new()),
            wait,
        }
    }

    /// One hash at a time per core, waiting up to [`WAIT`].
    pub fn for_this_machine() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Passwords::new(cores, WAIT)
    }

    /// A PHC string of an argon2id hash of `password` with a fresh salt, off the async workers
    /// and in turn.
    pub async fn hash(self: &Arc<Self>, password: String) -> Result<String, ApiError> {
        let _turn = self.turn().await?;
        let this = self.clone();
        web::block(move || this.hash_now(&password)).await?
    }

    /// Whether `password` matches the `stored` PHC string, off the async workers and in turn. A
    /// missing or unreadable `stored` is checked against a hash of no account's password, so
    /// that an unknown name takes as long as a wrong password.
    pub async fn verify(
        self: &Arc<Self>,
        password: String,
        stored: Option<String>,
    ) -> Result<bool, ApiError> {
        let _turn = self.turn().await?;
        let this = self.clone();
        Ok(web::block(move || this.verify_now(&password, stored.as_deref())).await?)
    }

    async fn turn(&self) -> Result<SemaphorePermit<'_>, ApiError> {
        match tokio::time::timeout(self.wait, self.turns.acquire()).await {
            Ok(Ok(turn)) => Ok(turn),
            _ => Err(ApiError::Busy {
                code: ProblemCode::SignInBusy,
                detail: "too many sign-ins are being checked right now; try again shortly"
                    .to_owned(),
            }),
        }
    }

    /// [`Passwords::hash`], here and now (at start, or in a test).
    pub fn hash_now(&self, password: &str) -> Result<String, ApiError> {
        let failed =
            |e: &dyn std::fmt::Display| ApiError::internal(format!("password hashing: {e}"));
        let salt: [u8; SALT_LEN] = rand::rng().random();
        let mut out = [0u8; OUTPUT_LEN];
        let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, self.params.clone());
        self.with_buffer(self.params.block_count(), |blocks| {
            argon2.hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, blocks)
        })
        .map_err(|e| failed(&e))?;
        let hash = PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(&self.params).map_err(|e| failed(&e))?,
            salt: Some(Salt::new(&salt).map_err(|e| failed(&e))?),
            hash: Some(Output::new(&out).map_err(|e| failed(&e))?),
        };
        Ok(hash.to_string())
    }

    /// [`Passwords::verify`], here and now.
    pub fn verify_now(&self, password: &str, stored: Option<&str>) -> bool {
        let parsed = stored.and_then(|text| PasswordHash::new(text).ok());
        match parsed {
            Some(hash) => self.matches(password, &hash).unwrap_or(false),
            None => {
                // Spend the same effort on a hash no password matches.
                let _ = self.hash_now(password);
                false
            }
        }
    }

    fn matches(&self, password: &str, stored: &PasswordHash) -> Option<bool> {
        let algorithm = Algorithm::try_from(stored.algorithm.as_str()).ok()?;
        let version = stored
            .version
            .map_or(Ok(Version::default()), Version::try_from)
            .ok()?;
        let params = Params::try_from(stored).ok()?;
        let salt = stored.salt.as_ref()?;
        let expected = stored.hash.as_ref()?;
        let mut out = vec![0u8; expected.len()];
        let blocks = params.block_count();
        let argon2 = Argon2::new(algorithm, version, params);
        self.with_buffer(blocks, |memory| {
            argon2.hash_password_into_with_memory(
                password.as_bytes(),
                salt.as_ref(),
                &mut out,
                memory,
            )
        })
        .ok()?;
        // `Output`'s equality is constant-time.
        Some(Output::new(&out).ok()? == *expected)
    }

    /// Runs `work` on a reused buffer of at least `blocks` blocks.
    fn with_buffer<T>(&self, blocks: usize, work: impl FnOnce(&mut [Block]) -> T) -> T {
        let taken = self
            .buffers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut buffer = taken.unwrap_or_default();
        if buffer.len() < blocks {
            buffer.resize(blocks, Block::default());
        }
        let result = work(&mut buffer[..blocks]);
        self.buffers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(buffer);
        result
    }

    /// Buffers allocated so far (at most the number of hashes allowed at once).
    pub fn buffers(&self) -> usize {
        self.buffers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let passwords = Passwords::new(1, WAIT);
        let hash = passwords.hash_now("correct horse").unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(passwords.verify_now("correct horse", Some(&hash)));
        assert!(!passwords.verify_now("wrong horse", Some(&hash)));
        assert!(!passwords.verify_now("correct horse", Some("not a hash")));
        assert!(!passwords.verify_now("correct horse", None));
        // Salted: the same password hashes differently each time.
        assert_ne!(hash, passwords.hash_now("correct horse").unwrap());
    }

    #[test]
    fn hashes_made_by_the_argon2_crate_itself_still_verify() {
        use argon2::PasswordHasher;
        let stored = Argon2::default()
            .hash_password(b"an older account")
            .unwrap()
            .to_string();
        let passwords = Passwords::new(1, WAIT);
        assert!(passwords.verify_now("an older account", Some(&stored)));
        assert!(!passwords.verify_now("another", Some(&stored)));
    }

    #[test]
    fn one_buffer_serves_hash_after_hash() {
        let passwords = Passwords::new(1, WAIT);
        for n in 0..3 {
            passwords.hash_now(&format!("password {n}")).unwrap();
        }
        assert_eq!(passwords.buffers(), 1);
    }

    #[tokio::test]
    async fn a_sign_in_that_waits_too_long_for_its_turn_is_refused() {
        let passwords = Arc::new(Passwords::new(1, Duration::from_millis(50)));
        let held = passwords.turns.acquire().await.unwrap();
        let refused = passwords.turn().await.map(|_| ()).unwrap_err();
        assert_eq!(refused.code(), ProblemCode::SignInBusy);
        drop(held);
        assert!(passwords.turn().await.is_ok());
    }
}
