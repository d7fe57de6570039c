//! `toolnexus`: answer an MCP elicitation in the terminal, or map and check its JSON in a
//! script. The command line is `toolnexus_cli::cli`; each command runs in its file under
//! `commands/`.

use std::process::ExitCode;

use clap::Parser;

use toolnexus_cli::cli::Cli;
use toolnexus_cli::printer;
use toolnexus_cli::report::{self, Exit};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && std::env::args_os().any(|a| a == "--json-errors") => {
            // A script that asked for JSON errors gets one, even for a command line clap
            // refused: its first line, without clap's "error: ".
            printer::json_errors(true);
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            let message = first.strip_prefix("error: ").unwrap_or(first);
            printer::error("usage", "", message, message);
            return Exit::Usage.into();
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Usage.into()
            } else {
                Exit::Done.into()
            };
        }
    };
    printer::json_errors(cli.json_errors);
    match cli.command.exec() {
        Ok((output, exit)) => {
            printer::stdout(&output);
            exit.into()
        }
        Err(failure) => {
            report::failure(&failure);
            failure.exit().into()
        }
    }
}
