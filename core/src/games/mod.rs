//! The games. Each implements [`crate::Game`].

pub mod basra;
pub mod thirty_one;
