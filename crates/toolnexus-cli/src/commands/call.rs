//! `toolnexus call`: a tool of a live MCP server called, its elicitations answered, its
//! `CallToolResult` printed; with `--defer`, a question nobody can answer now keeps the call
//! for `toolnexus resume`.

use toolnexus_core::{Limits, Map, Value};

use super::shared::server_args::{ServerArgs, modes_name};
use super::shared::{asker, connect};
use crate::ask::{Asker, Shared};
use crate::auth;
use crate::call::{Called, Conversation, Deferral, MAX_ROUNDS};
use crate::note;
use crate::pending;
use crate::printer::Output;
use crate::report::{Exit, Failure, Printed, verdict};

/// `toolnexus call TOOL [--args JSON] [--answers FILE|-] [--task] [--max-rounds N] [--defer]
/// (-- COMMAND… | --url URL)`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool to call.
    pub(crate) tool: String,
    /// The tool's arguments, a JSON object.
    #[arg(long, value_name = "JSON", default_value = "{}")]
    pub(crate) args: String,
    /// Answer from a JSON array of answers instead of asking (see `elicit --help`).
    #[arg(long, value_name = "FILE|-")]
    pub(crate) answers: Option<String>,
    /// Run the tool as a task where it may run either way (2025-11-25: a tool whose
    /// execution.taskSupport is "optional"). A tool that requires it always runs as a
    /// task; at 2026-07-28 the server decides.
    #[arg(long)]
    pub(crate) task: bool,
    /// How many rounds of questions one call may take: input_required rounds
    /// (2026-07-28) or URL interactions (2025-11-25) before the call is given up.
    #[arg(long, value_name = "N", default_value_t = MAX_ROUNDS)]
    pub(crate) max_rounds: usize,
    /// When a question comes that nobody can answer now (no terminal and no --answers,
    /// or answers that ran out), keep the call to be resumed later, from any process
    /// (`toolnexus resume ID`), print {"pending": ID, "requests": [...]} and exit with 5.
    /// It works for what outlives the connection: a 2026-07-28 input_required round, and
    /// a task over HTTP at 2026-07-28; a question bound to the connection (the 2025 era
    /// outside a task, a task over stdio) is handled as without --defer, and said.
    #[arg(long)]
    pub(crate) defer: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

/// Calls the tool with the arguments given.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let arguments = match toolnexus_core::json::parse_str(&args.args, &limits)? {
        Value::Object(map) => map,
        other => {
            return Err(Failure::usage(format!(
                "--args must be a JSON object, not {}",
                other.type_name()
            )));
        }
    };
    let calling = Calling {
        task: args.task,
        max_rounds: args.max_rounds,
        defer: args.defer,
        resume: None,
    };
    let asker = asker(args.answers.as_deref(), &limits, false)?;
    run(&args.tool, arguments, asker, calling, &args.server)
}

/// How `call` calls: `--task`, `--max-rounds`, `--defer`, and what a resumed call goes on
/// with.
pub(crate) struct Calling {
    pub(crate) task: bool,
    pub(crate) max_rounds: usize,
    pub(crate) defer: bool,
    pub(crate) resume: Option<pending::Pending>,
}

/// Calls `tool` (or goes on with the call `calling` resumes) on `server`, `asker` answering;
/// a call deferred is kept in the pending folder.
pub(crate) fn run(
    tool: &str,
    arguments: Map,
    asker: Box<dyn Asker>,
    calling: Calling,
    server: &ServerArgs,
) -> Printed {
    // Where a deferred call is kept, found before the server is started.
    let folder = if calling.defer {
        let store = auth::Store::locate().map_err(Failure::usage)?;
        Some(pending::Folder::in_config(store.dir()))
    } else {
        None
    };
    // One asker for the conversation's questions and the consent to an authorization, so
    // that --answers are used in the order the questions come.
    let asker = Shared::new(asker);
    let transport = connect(server, &asker)?;
    let timeout = std::time::Duration::from_secs(server.timeout);
    let mut conversing = asker.clone();
    let mut conversation = Conversation::new(transport, &mut conversing, timeout);
    conversation.declare(server.elicit);
    conversation.prefer_task(calling.task);
    conversation.max_rounds(calling.max_rounds);
    conversation.defer(calling.defer);
    if let Some(kept) = &calling.resume {
        conversation.said_to_be(kept.who.as_deref());
    }
    let outcome = converse(&mut conversation, tool, &arguments, &calling, server);
    let answered_all = conversation.answered_all();
    let (version, who) = (conversation.version().to_owned(), conversation.who());
    conversation.close();
    let result = match outcome? {
        Called::Result(result) => result,
        Called::Deferred(deferral) => {
            let Some(folder) = folder else {
                return Err(Failure::server("a call was deferred without --defer"));
            };
            let kept = written_down(tool, arguments, server, &calling, deferral, (version, who))?;
            return keep(&folder, &kept);
        }
    };
    let is_error = matches!(result.get("isError"), Some(Value::Bool(true)));
    let exit = if asker.unasked() {
        Exit::Unasked
    } else {
        verdict(!is_error && answered_all)
    };
    Ok((Output::Json(Value::Object(result).to_json()), exit))
}

/// The call `deferral` defers, written down to be resumed: how to reach the server again
/// (`said`: the version it speaks and the name it gave), the call, and what waits.
fn written_down(
    tool: &str,
    arguments: Map,
    server: &ServerArgs,
    calling: &Calling,
    deferral: Deferral,
    (version, who): (String, Option<String>),
) -> Result<pending::Pending, Failure> {
    Ok(pending::Pending {
        id: pending::new_id().map_err(Failure::server)?,
        server: match (&server.url, &server.command) {
            (Some(url), _) => pending::Server::Url {
                url: url.clone(),
                headers: server.headers.clone(),
            },
            (None, command) => pending::Server::Command(command.clone()),
        },
        tool: String::from(tool),
        arguments,
        protocol: version,
        who,
        elicit: String::from(modes_name(server.elicit)),
        auth: server.auth.words(),
        timeout: server.timeout,
        max_rounds: calling.max_rounds,
        asked_at_ms: toolnexus_core::id::now_ms(),
        expires_at_ms: deferral.expires_at_ms,
        requests: deferral.requests,
        keys: deferral.keys,
        waiting: deferral.waiting,
    })
}

/// Connects and calls, or goes on with what the call resumed waits for: a round sent again,
/// a task polled again, or a question answered on the session it came on.
fn converse(
    conversation: &mut Conversation<'_>,
    tool: &str,
    arguments: &Map,
    calling: &Calling,
    server: &ServerArgs,
) -> Result<Called, Failure> {
    match calling.resume.as_ref().map(|kept| (kept, &kept.waiting)) {
        None => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.call_tool(tool, arguments.clone())),
        Some((kept, pending::Waiting::Round(snapshot))) => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.resume_round(tool, arguments.clone(), snapshot, &kept.id)),
        Some((kept, pending::Waiting::Task(created))) => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.resume_task(created, &kept.keys)),
        // The question belongs to the session it came on: no new handshake.
        Some((
            kept,
            pending::Waiting::Question {
                task,
                question,
                session,
            },
        )) => conversation
            .rejoin(&kept.protocol, session)
            .and_then(|()| conversation.resume_question(task, question)),
    }
}

/// Keeps the deferred call `kept` in `folder`, says how to resume it, and prints its
/// announcement: `{"pending": ID, "requests": […]}`.
fn keep(folder: &pending::Folder, kept: &pending::Pending) -> Printed {
    folder.keep(kept).map_err(Failure::usage)?;
    note!(
        "the call waits for answers: toolnexus resume {} (until {})",
        kept.id,
        toolnexus_core::rfc3339::format_unix_ms(kept.expires_at_ms)
    );
    Ok((Output::Json(kept.announcement().to_json()), Exit::Pending))
}
