//! `toolnexus pending`: the calls `call --defer` kept to be resumed, as lines or as JSON.

use toolnexus_core::id::now_ms;
use toolnexus_core::rfc3339::format_unix_ms;
use toolnexus_core::{Map, Value};

use crate::auth;
use crate::pending::{Folder, Pending, Refusal, Server};
use crate::printer::{self, Output};
use crate::report::{Exit, Failure, Printed};
use crate::{note, warning};

/// `toolnexus pending [--json]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as a JSON array of {id, server, tool, askedAt, expiresAt, requests}.
    #[arg(long)]
    json: bool,
}

/// Lists the calls kept: one line each, or one JSON array; one that cannot be read is said.
pub fn exec(args: Args) -> Printed {
    let store = auth::Store::locate().map_err(Failure::usage)?;
    let folder = Folder::in_config(store.dir());
    let found = folder.list(now_ms()).map_err(Failure::usage)?;
    let mut items = Vec::new();
    let mut lines = String::new();
    for item in found {
        match item {
            Ok(kept) => {
                let (item, line) = listed(kept);
                items.push(item);
                lines.push_str(&line);
            }
            Err((id, refusal)) => {
                let why = match refusal {
                    Refusal::Invalid(why) | Refusal::Io(why) | Refusal::Unknown(why) => why,
                    Refusal::Expired(_) => String::from("expired"),
                };
                warning!("the pending call {id} cannot be read: {why}");
            }
        }
    }
    if args.json {
        let list = Value::Array(items);
        return Ok((Output::Json(list.to_json()), Exit::Done));
    }
    if lines.is_empty() {
        note!("no call waits for answers");
        return Ok((Output::Nothing, Exit::Done));
    }
    // The printer ends the text with a line break of its own.
    lines.pop();
    Ok((Output::Text(lines), Exit::Done))
}

/// A call kept, as an item of the JSON array and as a line for a person.
fn listed(kept: Pending) -> (Value, String) {
    let server = match &kept.server {
        Server::Command(words) => words.join(" "),
        Server::Url { url, .. } => url.clone(),
    };
    let line = format!(
        "{}  {}  {}  asked {}  until {}\n",
        kept.id,
        printer::one_line(&server),
        printer::one_line(&kept.tool),
        format_unix_ms(kept.asked_at_ms),
        format_unix_ms(kept.expires_at_ms)
    );
    let mut map = Map::new();
    map.insert("id", Value::from(kept.id.as_str()));
    map.insert("server", Value::from(server.as_str()));
    map.insert("tool", Value::from(kept.tool.as_str()));
    map.insert("askedAt", Value::from(format_unix_ms(kept.asked_at_ms)));
    map.insert("expiresAt", Value::from(format_unix_ms(kept.expires_at_ms)));
    map.insert("requests", Value::Array(kept.requests));
    (Value::Object(map), line)
}
