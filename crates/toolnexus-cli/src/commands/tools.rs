//! `toolnexus tools`: the tools of a live MCP server, for a person or as JSON.

use toolnexus_core::wire::task::TaskSupport;
use toolnexus_core::{Limits, Value};

use super::shared::server_args::ServerArgs;
use super::shared::{asker, connect};
use crate::ask::{Nobody, Shared};
use crate::call::Conversation;
use crate::printer::{Output, one_line};
use crate::report::{Exit, Printed};

/// `toolnexus tools [--json] [--answers FILE|-] (-- COMMAND… | --url URL)`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the tool definitions as JSON.
    #[arg(long)]
    json: bool,
    /// Consent to the authorization the server asks for from a JSON array of answers
    /// ({"ok":true} consents) instead of asking (see `elicit --help`). Listing answers
    /// no other question.
    #[arg(long, value_name = "FILE|-")]
    answers: Option<String>,
    #[command(flatten)]
    server: ServerArgs,
}

/// Lists the tools: names, arguments, whether they run as a task, and descriptions.
pub fn exec(args: Args) -> Printed {
    let Args {
        json,
        answers,
        server,
    } = args;
    let limits = Limits::DEFAULT;
    // Listing asks nothing: a question that comes anyway is cancelled, and said. Consent to
    // an authorization the server asks for is the one question asked.
    let mut nobody = Nobody::default();
    let consent = Shared::new(asker(answers.as_deref(), &limits, false)?);
    let transport = connect(&server, &consent)?;
    let timeout = std::time::Duration::from_secs(server.timeout);
    let mut conversation = Conversation::new(transport, &mut nobody, timeout);
    conversation.declare(server.elicit);
    let outcome = conversation
        .connect(server.protocol.as_deref())
        .and_then(|()| conversation.list_tools());
    let who = conversation.who();
    conversation.close();
    let listing = outcome?;
    if json {
        let list = Value::Array(listing.tools);
        return Ok((Output::Json(list.to_json()), Exit::Done));
    }
    Ok((
        Output::Text(describe_tools(who.as_deref(), &listing.tools)),
        Exit::Done,
    ))
}

/// The tools a server lists, for a person (every piece of the server's text shown on its own
/// line by the rule): each name with its arguments (`*` required), what
/// it says about running as a task (2025-11-25 `execution.taskSupport`), and its description.
fn describe_tools(who: Option<&str>, tools: &[Value]) -> String {
    let mut out = String::new();
    if let Some(who) = who {
        out.push_str(&format!("{}: {} tools\n", one_line(who), tools.len()));
    }
    for tool in tools {
        let Some(map) = tool.as_object() else {
            continue;
        };
        let name = map.get("name").and_then(Value::as_str).unwrap_or("?");
        let schema = map.get("inputSchema").and_then(Value::as_object);
        let required: Vec<&str> = schema
            .and_then(|s| s.get("required"))
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let args: Vec<String> = schema
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| {
                p.keys()
                    .map(|k| {
                        if required.contains(&k) {
                            format!("{}*", one_line(k))
                        } else {
                            one_line(k).into_owned()
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let task = match TaskSupport::of_tool(tool) {
            TaskSupport::Required => "  [runs as a task]",
            TaskSupport::Optional => "  [may run as a task: --task]",
            TaskSupport::Forbidden => "",
        };
        out.push_str(&format!("{}({}){task}\n", one_line(name), args.join(", ")));
        if let Some(description) = map.get("description").and_then(Value::as_str) {
            for line in description.lines() {
                out.push_str(&format!("    {}\n", one_line(line)));
            }
        }
    }
    out.trim_end().to_owned()
}
