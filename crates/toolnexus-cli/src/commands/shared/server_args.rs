//! How to reach a server, for `call` and `tools` (and a kept call, for `resume`): its command
//! or its URL, the protocol, the time it may take, the modes declared, and the authorization.

use std::path::PathBuf;

use clap::Parser;
use toolnexus_core::Modes;

use super::auth_args::AuthArgs;
use crate::pending;
use crate::report::Failure;

/// How to reach a server, for `call` and `tools`. Its `Debug` form shows the name of each
/// `--header`, never its value (an API key, a token).
#[derive(clap::Args)]
pub(crate) struct ServerArgs {
    /// Connect over streamable HTTP to this URL instead of starting a command.
    #[arg(long, value_name = "URL")]
    pub(crate) url: Option<String>,
    /// A header for every HTTP request, as 'Name: value' (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub(crate) headers: Vec<String>,
    /// Speak this protocol version (2026-07-28, 2025-11-25, 2025-06-18) and skip the probe.
    #[arg(long, value_name = "VERSION")]
    pub(crate) protocol: Option<String>,
    /// The seconds the server may take in all; time a person spends answering does not count.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub(crate) timeout: u64,
    /// Write the server's standard error to this file instead of ours.
    #[arg(long, value_name = "FILE")]
    pub(crate) server_log: Option<PathBuf>,
    /// The elicitation modes this client declares it answers, in both eras: form,url (the
    /// default), form, url or none. A server should not ask in a mode left out.
    #[arg(long, value_name = "MODES", default_value = "form,url", value_parser = elicit_modes)]
    pub(crate) elicit: Modes,
    #[command(flatten)]
    pub(crate) auth: AuthArgs,
    /// The server to start, after `--`: the command and its arguments, spoken to over stdio.
    #[arg(last = true, value_name = "COMMAND")]
    pub(crate) command: Vec<String>,
}

impl std::fmt::Debug for ServerArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|h| match h.split_once(':') {
                Some((name, _)) => format!("{}: …", name.trim()),
                None => String::from("…"),
            })
            .collect();
        f.debug_struct("ServerArgs")
            .field("url", &self.url)
            .field("headers", &headers)
            .field("protocol", &self.protocol)
            .field("timeout", &self.timeout)
            .field("server_log", &self.server_log)
            .field("elicit", &modes_name(self.elicit))
            .field("auth", &self.auth)
            .field("command", &self.command)
            .finish()
    }
}

/// The modes `--elicit` names.
fn elicit_modes(text: &str) -> Result<Modes, String> {
    match text {
        "form,url" | "url,form" => Ok(Modes::ALL),
        "form" => Ok(Modes::FORM),
        "url" => Ok(Modes::URL),
        "none" => Ok(Modes::new(false, false)),
        _ => Err(String::from("give form,url, form, url or none")),
    }
}

/// How `--elicit` names `modes`.
pub(crate) fn modes_name(modes: Modes) -> &'static str {
    match (modes.form(), modes.url()) {
        (true, true) => "form,url",
        (true, false) => "form",
        (false, true) => "url",
        (false, false) => "none",
    }
}

impl ServerArgs {
    /// How to reach the server of a kept call again: its command or its URL and headers,
    /// its timeout and modes, and the authorization options the environment gives (the grant
    /// kept for the server is used).
    pub(crate) fn again(kept: &pending::Pending) -> Result<ServerArgs, Failure> {
        /// The authorization options, read again from the words kept (and the environment).
        #[derive(Parser)]
        struct Kept {
            #[command(flatten)]
            auth: AuthArgs,
        }
        let words = std::iter::once("toolnexus").chain(kept.auth.iter().map(String::as_str));
        let options = Kept::try_parse_from(words).map_err(|e| {
            Failure::usage(format!(
                "the authorization options kept do not read: {}",
                e.kind()
            ))
        })?;
        let (url, headers, command) = match &kept.server {
            pending::Server::Command(words) => (None, Vec::new(), words.clone()),
            pending::Server::Url { url, headers } => {
                (Some(url.clone()), headers.clone(), Vec::new())
            }
        };
        Ok(ServerArgs {
            url,
            headers,
            protocol: None,
            timeout: kept.timeout,
            server_log: None,
            elicit: elicit_modes(&kept.elicit).map_err(Failure::usage)?,
            auth: options.auth,
            command,
        })
    }
}
