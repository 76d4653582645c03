//! The games. Each implements [`crate::Game`].

pub mod basra;
