//! The commands, one file each, named as the command is (`check-schema` in
//! `check_schema.rs`): its arguments (`Args`, as clap reads them) and its body (`exec`).
//! `shared/` holds what several of them use. `src/cli.rs` is the command line that reaches
//! them; a test (`tests/commands.rs`) finds any command without its file.

pub mod answer;
pub mod auth;
pub mod call;
pub mod check_schema;
pub mod conformance;
pub mod elicit;
pub mod fields;
pub mod html;
pub mod map;
pub mod pending;
pub mod resume;
pub mod review_url;
pub(crate) mod shared;
pub mod tools;
pub mod validate;
