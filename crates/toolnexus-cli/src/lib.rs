//! The parts of the `toolnexus` command, as a library: the binary (`src/main.rs`) parses its
//! command line (`cli`) and runs the command (`commands/`, one file each), and the fuzz
//! targets (`fuzz/`) drive its MCP client with what a server might send. Nothing here is a
//! stable API.

#[doc(hidden)]
pub mod ask;
#[doc(hidden)]
pub mod auth;
#[doc(hidden)]
pub mod call;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod commands;
#[doc(hidden)]
pub mod elicit;
#[doc(hidden)]
pub mod form_steps;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod line;
#[doc(hidden)]
pub mod pending;
#[doc(hidden)]
pub mod printer;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod sample;
#[doc(hidden)]
pub mod style;
#[doc(hidden)]
pub mod terminal;
#[doc(hidden)]
pub mod wrap;
