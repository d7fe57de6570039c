//! The command line as clap reads it: [`Cli`] and its [`Command`]s, each run by the file of
//! its name under `commands/`, which holds its own arguments (`Args`) and body (`exec`). The
//! options several commands share are in `commands/shared/`.

use clap::{Parser, Subcommand};

use crate::commands::{
    answer, auth, call, check_schema, conformance, elicit, fields, html, map, pending, resume,
    review_url, tools, validate,
};
use crate::report::Printed;

/// What `--help` says of the exit codes, after every command's help.
const EXIT_CODES: &str = "\
Exit codes:
  0  done
  1  the input was refused, or the verdict is negative (problems, violations, a URL to
     reject, answers that ran out; for call, a tool result with isError; for call and
     tools, an authorization the server needs declined)
  2  usage: a wrong command line, or a file that cannot be read
  3  call and tools: the server failed (could not start, closed, a protocol error, a
     timeout, no mutual protocol version, an authorization that failed)
  4  call and tools: the server asked a person (a form, or consent to an authorization),
     but there was no terminal to ask on and no --answers (the question was cancelled)
  5  call --defer and resume: the server asked what nobody could answer now; the call is
     kept to be resumed (toolnexus resume ID), and {\"pending\": ID, \"requests\": […]} printed
130  call: interrupted with Ctrl-C while the tool ran as a task; the task was cancelled
     (tasks/cancel)";

/// Answer an MCP server that needs a human in the loop, from a terminal.
#[derive(Debug, Parser)]
#[command(name = "toolnexus", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// Print errors as JSON objects {kind, pointer, message} instead of lines.
    #[arg(long, global = true)]
    pub json_errors: bool,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands; each one's arguments and body are in `commands/<name>.rs`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Answer one elicitation in the terminal and print the reply on standard output.
    ///
    /// Reads ElicitRequestParams, a JSON-RPC elicitation/create request, or a 2026-07-28
    /// input_required result (bare or as a JSON-RPC response), and prints an ElicitResult, a
    /// JSON-RPC response echoing the id, or {"inputResponses", "requestState"}. With no
    /// input, runs a sample form with every kind of field, then a URL request.
    #[command(after_help = EXIT_CODES)]
    Elicit(elicit::Args),
    /// Call a tool of a live MCP server and answer its elicitations; print the CallToolResult.
    ///
    /// Starts the server (`-- COMMAND ARG…`, over stdio) or connects to it (`--url`), finds
    /// out which era of MCP it speaks (2026-07-28, or 2025-11-25 / 2025-06-18 with their
    /// handshake), calls TOOL and answers every elicitation in the terminal, or from
    /// --answers. The server's name is shown above each form. A call the server runs as a
    /// task is polled until it ends, its state said on standard error; Ctrl-C cancels it.
    #[command(after_help = EXIT_CODES)]
    Call(call::Args),
    /// List the calls kept to be resumed (`call --defer`): id, server, tool, when asked,
    /// until when.
    ///
    /// They are kept in pending/ in $TOOLNEXUS_CONFIG_DIR, else $XDG_CONFIG_HOME/toolnexus,
    /// else ~/.config/toolnexus, readable by you alone and sealed with a key kept there; one
    /// whose time is past is removed.
    #[command(after_help = EXIT_CODES)]
    Pending(pending::Args),
    /// Go on with a call kept by `call --defer`: answer its questions and finish it.
    ///
    /// Asks in the terminal, or takes --answers (one per question, as `call --answers`
    /// does), then goes on as `call` would: a 2026-07-28 round is sent again with the answers
    /// (a stdio server started again with the same command, an HTTP one reached again with
    /// the authorization kept for it), a task is polled again and answered. Same output, same
    /// exit codes, and 5 again with a new id if the server asks more with nobody to answer.
    /// A resumed or expired id is gone.
    #[command(after_help = EXIT_CODES)]
    Resume(resume::Args),
    /// List the tools of a live MCP server: names, descriptions and arguments.
    ///
    /// With --json, prints the tools as a JSON array, each tool as the server wrote it
    /// (members in its order, numbers as it spelt them). Over streamable HTTP at 2026-07-28,
    /// a tool whose x-mcp-header annotations are invalid is left out, and said on standard
    /// error.
    #[command(after_help = EXIT_CODES)]
    Tools(tools::Args),
    /// The authorizations kept for servers reached with --url: list them, or forget them.
    ///
    /// A token a server's authorization server grants is kept for the next command, with
    /// its scopes and the client registered there. Its secrets go to the system's secret
    /// store where one answers (the Secret Service on Linux, the Keychain on macOS, the
    /// Credential Manager on Windows: service "toolnexus", account the server's URL and the
    /// authorization server's), and to auth.json otherwise, which is said once; --store
    /// keychain|file|none chooses. auth.json, readable by you alone, is in
    /// $TOOLNEXUS_CONFIG_DIR, else $XDG_CONFIG_HOME/toolnexus, else ~/.config/toolnexus: it
    /// lists every authorization kept, and holds the tokens of those kept in the file alone.
    /// `auth list` says where each is; `auth logout` forgets from both.
    #[command(after_help = EXIT_CODES)]
    Auth(auth::Args),
    /// Map ElicitRequestParams to a Request.
    #[command(after_help = EXIT_CODES)]
    Map(map::Args),
    /// Map an Answer to an ElicitResult.
    #[command(after_help = EXIT_CODES)]
    Answer(answer::Args),
    /// List every problem with a requestedSchema.
    #[command(name = "check-schema", after_help = EXIT_CODES)]
    CheckSchema(check_schema::Args),
    /// List every way content breaks a requestedSchema.
    #[command(after_help = EXIT_CODES)]
    Validate(validate::Args),
    /// Print the form model of a requestedSchema: the fields a UI renders.
    #[command(after_help = EXIT_CODES)]
    Fields(fields::Args),
    /// Write a request as a web page: a form's fields, or a URL's consent.
    ///
    /// Reads a toolnexus Request (an object with a `kind`) or MCP ElicitRequestParams (mapped
    /// to a Request with --id or a fresh id) and writes the page the core makes of it: a whole
    /// HTML document with the core's style sheet, or with --fragment the <form> alone, for a
    /// host to put in its own page. Every server string is escaped; the page runs no script.
    // The help names the HTML element as people write it, not as rustdoc would have it.
    #[allow(rustdoc::invalid_html_tags)]
    #[command(after_help = EXIT_CODES)]
    Html(html::Args),
    /// Review a URL-mode link before a person opens it.
    #[command(name = "review-url", after_help = EXIT_CODES)]
    ReviewUrl(review_url::Args),
    /// Run the shared conformance suite through the core.
    #[command(after_help = EXIT_CODES)]
    Conformance(conformance::Args),
}

impl Command {
    /// Runs the command: what it prints, and how it ends.
    pub fn exec(self) -> Printed {
        match self {
            Command::Elicit(args) => elicit::exec(args),
            Command::Call(args) => call::exec(args),
            Command::Pending(args) => pending::exec(args),
            Command::Resume(args) => resume::exec(args),
            Command::Tools(args) => tools::exec(args),
            Command::Auth(args) => auth::exec(args),
            Command::Map(args) => map::exec(args),
            Command::Answer(args) => answer::exec(args),
            Command::CheckSchema(args) => check_schema::exec(args),
            Command::Validate(args) => validate::exec(args),
            Command::Fields(args) => fields::exec(args),
            Command::Html(args) => html::exec(args),
            Command::ReviewUrl(args) => review_url::exec(args),
            Command::Conformance(args) => conformance::exec(args),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::cli::{Cli, Command};
    use crate::commands::shared::auth_args::{GrantChoice, StoreChoice};
    use crate::commands::shared::server_args::ServerArgs;
    use crate::pending;

    #[test]
    fn debug_forms_name_headers_and_never_show_their_values() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--header",
            "X-Api-Key: key-sekrit-1",
            "--header",
            "Authorization:Bearer token-sekrit-2",
            "--header",
            "no-colon-sekrit-3",
            "--client-secret",
            "client-sekrit-4",
            "--max-rounds",
            "3",
        ])
        .unwrap();
        let shown = format!("{cli:?} {cli:#?}");
        for secret in [
            "key-sekrit-1",
            "token-sekrit-2",
            "no-colon-sekrit-3",
            "client-sekrit-4",
        ] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("X-Api-Key: …"), "{shown}");
        assert!(shown.contains("Authorization: …"), "{shown}");
        assert!(shown.contains("http://127.0.0.1:1/mcp"), "{shown}");
        let Command::Call(call) = cli.command else {
            panic!("{shown}")
        };
        assert_eq!(call.max_rounds, 3);
    }

    #[test]
    fn a_kept_call_keeps_the_authorization_options_and_no_secret() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--defer",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--grant",
            "client-credentials",
            "--client-id",
            "c",
            "--client-secret",
            "client-sekrit-7",
            "--client-issuer",
            "http://127.0.0.1:2",
            "--no-store",
        ])
        .unwrap();
        let Command::Call(call) = cli.command else {
            panic!("not a call")
        };
        let server = call.server;
        let words = server.auth.words();
        assert_eq!(
            words,
            [
                "--client-id",
                "c",
                "--client-issuer",
                "http://127.0.0.1:2",
                "--grant",
                "client-credentials",
                "--store",
                "none"
            ]
        );
        let kept = pending::Pending {
            id: String::from("x"),
            server: pending::Server::Url {
                url: String::from("http://127.0.0.1:1/mcp"),
                headers: Vec::new(),
            },
            tool: String::from("t"),
            arguments: toolnexus_core::Map::new(),
            protocol: String::from("2026-07-28"),
            who: None,
            elicit: String::from("form"),
            auth: words,
            timeout: 7,
            max_rounds: 2,
            asked_at_ms: 0,
            expires_at_ms: 1,
            requests: Vec::new(),
            keys: Vec::new(),
            waiting: pending::Waiting::Task(String::from("{}")),
        };
        let again = ServerArgs::again(&kept).unwrap();
        assert_eq!(again.auth.grant, GrantChoice::ClientCredentials);
        assert_eq!(again.auth.client_id.as_deref(), Some("c"));
        assert_eq!(
            again.auth.client_issuer.as_deref(),
            Some("http://127.0.0.1:2")
        );
        assert_eq!(again.auth.store, Some(StoreChoice::None));
        assert_eq!(again.timeout, 7);
        assert_eq!(again.elicit, toolnexus_core::Modes::FORM);
        assert_eq!(again.url.as_deref(), Some("http://127.0.0.1:1/mcp"));
    }

    #[test]
    fn the_authorizer_s_options_show_no_secret() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--grant",
            "enterprise",
            "--client-id",
            "c",
            "--client-secret",
            "client-sekrit-5",
            "--client-issuer",
            "http://127.0.0.1:2",
            "--id-token-file",
            "/nonexistent/id-token",
            "--idp-token-endpoint",
            "http://127.0.0.1:3/token",
            "--idp-client-id",
            "idp",
            "--idp-client-secret",
            "idp-sekrit-6",
        ])
        .unwrap();
        let shown = format!("{cli:?} {cli:#?}");
        for secret in ["client-sekrit-5", "idp-sekrit-6"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        let Command::Call(call) = cli.command else {
            panic!("{shown}")
        };
        let server = call.server;
        // The options the authorizer is handed, and their refusal, show none either.
        let refused = server.auth.options().unwrap_err();
        let said = format!("{refused:?}");
        assert!(said.contains("--id-token-file"), "{said}");
        for secret in ["client-sekrit-5", "idp-sekrit-6"] {
            assert!(!said.contains(secret), "{secret} in {said}");
        }
    }
}
