//! The games. Each implements [`crate::Game`].

pub mod basra;
pub mod rummy;
pub mod tarneeb;
pub mod thirty_one;
