//! The commands whose bodies stand in a file of their own, one file a command (`auth`); the
//! command line that reaches them is `src/main.rs`.

pub mod auth;
