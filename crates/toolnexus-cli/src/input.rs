//! Reading what a command is given: a file or standard input, read within the core's limits,
//! and the shapes an elicitation arrives in.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use toolnexus_core::wire::mrtr::InputRequired;
use toolnexus_core::wire::rpc::{ErrorResponse, Message};
use toolnexus_core::{ElicitRequestParams, Error, ErrorKind, Limits, Value, json};

use crate::report::Failure;

/// Where input comes from: a path, or `-` for standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(String),
}

impl Source {
    /// `-` is standard input, anything else a path.
    pub fn parse(arg: &str) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(String::from(arg))
        }
    }

    /// How to name it in a message.
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin => "standard input",
            Source::File(path) => path,
        }
    }

    /// The bytes, at most one more than the input limit (the reader then reports
    /// `too_large`), so a huge input is never held whole.
    pub fn read(&self, limits: &Limits) -> Result<Vec<u8>, Failure> {
        let cap = u64::try_from(limits.max_input_bytes())
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let mut bytes = Vec::new();
        let result = match self {
            Source::Stdin => io::stdin().lock().take(cap).read_to_end(&mut bytes),
            Source::File(path) => fs::File::open(Path::new(path))
                .and_then(|file| file.take(cap).read_to_end(&mut bytes)),
        };
        result.map_err(|e| Failure::usage(format!("cannot read {}: {e}", self.name())))?;
        Ok(bytes)
    }

    /// The input read as one JSON value.
    pub fn json(&self, limits: &Limits) -> Result<Value, Failure> {
        let bytes = self.read(limits)?;
        json::parse(&bytes, limits).map_err(Failure::refused)
    }
}

/// An elicitation in one of the shapes a host meets.
#[derive(Debug)]
pub enum Elicitation {
    /// Bare `ElicitRequestParams`: answered with an `ElicitResult`.
    Params(ElicitRequestParams),
    /// A JSON-RPC message, to be an `elicitation/create` request (MCP 2025-06-18,
    /// 2025-11-25): answered with a JSON-RPC response echoing its id; one that is not a valid
    /// request is its error response.
    Rpc(Result<Message, ErrorResponse>),
    /// A 2026-07-28 `input_required` result, bare or as the `result` of a JSON-RPC response:
    /// answered with `{"inputResponses", "requestState"}`.
    InputRequired(InputRequired),
}

impl Elicitation {
    /// Tells the shape of `bytes` and reads it: a JSON-RPC message with a `method` is a
    /// request; one with a `result` (or an object with `resultType`) is an input-required
    /// result; anything else is read as `ElicitRequestParams`.
    pub fn read(bytes: &[u8], limits: &Limits) -> Result<Elicitation, Error> {
        let value = json::parse(bytes, limits)?;
        let Value::Object(map) = &value else {
            return Err(Error::new(
                ErrorKind::WrongType,
                "",
                format!(
                    "an elicitation is a JSON object (ElicitRequestParams, a JSON-RPC \
                     elicitation/create request or an input_required result), not {}",
                    value.type_name()
                ),
            ));
        };
        if map.get("jsonrpc").is_some() && map.get("method").is_some() {
            return Ok(Elicitation::Rpc(Message::from_value(value)));
        }
        if map.get("result").is_some() || map.get("resultType").is_some() {
            return InputRequired::from_value(value).map(Elicitation::InputRequired);
        }
        ElicitRequestParams::from_value(value).map(Elicitation::Params)
    }
}
