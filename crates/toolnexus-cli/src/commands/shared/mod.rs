//! What several commands share: the options that reach a server ([`ServerArgs`], with the
//! authorization's, [`AuthArgs`](auth_args::AuthArgs)), connecting to it, and who answers
//! (`--answers` or the terminal).

pub(crate) mod auth_args;
pub(crate) mod server_args;

use toolnexus_core::Limits;

use crate::ask::{Asker, Nobody, Scripted, Shared};
use crate::auth;
use crate::call;
use crate::input::Source;
use crate::report::Failure;
use crate::terminal::Terminal;
use server_args::ServerArgs;

/// The asker: the answers given, or the terminal. Without a terminal, `elicit` cannot start
/// (asking is all it does); `call` starts with nobody to ask, and only a question ends it.
pub(crate) fn asker(
    answers: Option<&str>,
    limits: &Limits,
    terminal_needed: bool,
) -> Result<Box<dyn Asker>, Failure> {
    if let Some(answers) = answers {
        let value = Source::parse(answers).json(limits)?;
        return Ok(Box::new(Scripted::from_value(value)?));
    }
    match Terminal::open() {
        Some(terminal) => Ok(Box::new(terminal)),
        None if terminal_needed => Err(Failure::usage(
            "no terminal to ask on: run it in a terminal, or give the answers with \
             --answers FILE",
        )),
        None => Ok(Box::new(Nobody::default())),
    }
}

/// Starts or reaches the server; `asker` consents to the authorization a server reached over
/// HTTP asks for.
pub(crate) fn connect(
    server: &ServerArgs,
    asker: &Shared,
) -> Result<Box<dyn call::transport::Transport>, Failure> {
    match (&server.url, server.command.split_first()) {
        (Some(url), None) => {
            let patience = std::time::Duration::from_secs(server.timeout);
            let options = server.auth.options()?;
            let authorizer = auth::Authorizer::new(url, options, asker.clone(), patience)?;
            Ok(Box::new(
                call::http::HttpServer::new(url, &server.headers, patience)
                    .map_err(Failure::usage)?
                    .authorized_by(authorizer),
            ))
        }
        (None, Some((program, args))) => {
            let log = match &server.server_log {
                Some(path) => Some(std::fs::File::create(path).map_err(|e| {
                    Failure::usage(format!("cannot write {}: {e}", path.display()))
                })?),
                None => None,
            };
            Ok(Box::new(
                call::transport::StdioServer::spawn(program, args, log).map_err(Failure::server)?,
            ))
        }
        (Some(_), Some(_)) => Err(Failure::usage(
            "give either --url URL or -- COMMAND, not both",
        )),
        (None, None) => Err(Failure::usage(
            "which server? give -- COMMAND [ARG…] to start one, or --url URL",
        )),
    }
}
