//! `toolnexus`: answer an MCP elicitation in the terminal, or map and check its JSON in a
//! script.

mod ask;
mod elicit;
mod flow;
mod input;
mod report;
mod sample;
mod style;
mod terminal;
mod tools;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use toolnexus_core::Limits;

use crate::ask::{Asker, Scripted};
use crate::input::{Elicitation, Source};
use crate::report::{Exit, Failure, Reporter};
use crate::terminal::Terminal;

const EXIT_CODES: &str = "\
Exit codes:
  0  done
  1  the input was refused, or the verdict is negative (problems, violations, a URL to
     reject, answers that ran out)
  2  usage: a wrong command line, or a file that cannot be read";

/// Answer an MCP server that needs a human in the loop, from a terminal.
#[derive(Debug, Parser)]
#[command(name = "toolnexus", version, after_help = EXIT_CODES)]
struct Cli {
    /// Print errors as JSON objects {kind, pointer, message} instead of lines.
    #[arg(long, global = true)]
    json_errors: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer one elicitation in the terminal and print the reply on standard output.
    ///
    /// Reads ElicitRequestParams, a JSON-RPC elicitation/create request, or a 2026-07-28
    /// input_required result (bare or as a JSON-RPC response), and prints an ElicitResult, a
    /// JSON-RPC response echoing the id, or {"inputResponses", "requestState"}. With no
    /// input, runs a sample form with every kind of field, then a URL request.
    #[command(after_help = EXIT_CODES)]
    Elicit {
        /// The elicitation: a file, or - for standard input.
        file: Option<String>,
        /// Answer from a JSON array of answers ({"ok":true,"data":{…}}, {"ok":false,
        /// "reason":"declined"}, {"ok":false}) instead of asking: a file, or - for standard
        /// input.
        #[arg(long, value_name = "FILE|-")]
        answers: Option<String>,
        /// Name the server that asks, to show above each form.
        #[arg(long, value_name = "NAME")]
        server: Option<String>,
    },
    /// Map ElicitRequestParams to a Request.
    #[command(after_help = EXIT_CODES)]
    Map {
        /// The params: a file, or - for standard input (the default).
        file: Option<String>,
        /// The request's id (default: a fresh one).
        #[arg(long)]
        id: Option<String>,
    },
    /// Map an Answer to an ElicitResult.
    #[command(after_help = EXIT_CODES)]
    Answer {
        /// The answer: a file, or - for standard input (the default).
        file: Option<String>,
    },
    /// List every problem with a requestedSchema.
    #[command(name = "check-schema", after_help = EXIT_CODES)]
    CheckSchema {
        /// The schema: a file, or - for standard input.
        schema: String,
    },
    /// List every way content breaks a requestedSchema.
    #[command(after_help = EXIT_CODES)]
    Validate {
        /// The schema: a file, or - for standard input.
        schema: String,
        /// The content: a file, or - for standard input.
        content: String,
        /// Accept members the schema does not declare.
        #[arg(long)]
        allow_unknown: bool,
    },
    /// Print the form model of a requestedSchema: the fields a UI renders.
    #[command(after_help = EXIT_CODES)]
    Fields {
        /// The schema: a file, or - for standard input.
        schema: String,
    },
    /// Review a URL-mode link before a person opens it.
    #[command(name = "review-url", after_help = EXIT_CODES)]
    ReviewUrl {
        /// The URL.
        url: String,
    },
    /// Run the shared conformance suite through the core.
    #[command(after_help = EXIT_CODES)]
    Conformance {
        /// The suite's folder (default: the suite this binary was built with).
        dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Usage.into()
            } else {
                Exit::Done.into()
            };
        }
    };
    let reporter = Reporter::new(cli.json_errors);
    match run(cli.command, &reporter) {
        Ok((text, exit)) => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
            exit.into()
        }
        Err(failure) => {
            reporter.failure(&failure);
            failure.exit().into()
        }
    }
}

fn run(command: Command, reporter: &Reporter) -> tools::Printed {
    let limits = Limits::DEFAULT;
    let source = |file: Option<String>| Source::parse(file.as_deref().unwrap_or("-"));
    match command {
        Command::Elicit {
            file,
            answers,
            server,
        } => elicit(file, answers, server.as_deref(), reporter, &limits),
        Command::Map { file, id } => tools::map(&source(file), id.as_deref(), &limits),
        Command::Answer { file } => tools::answer(&source(file), &limits),
        Command::CheckSchema { schema } => {
            tools::check_schema_tool(&Source::parse(&schema), &limits)
        }
        Command::Validate {
            schema,
            content,
            allow_unknown,
        } => tools::validate(
            &Source::parse(&schema),
            &Source::parse(&content),
            allow_unknown,
            &limits,
        ),
        Command::Fields { schema } => tools::fields(&Source::parse(&schema), &limits),
        Command::ReviewUrl { url } => tools::review(&url),
        Command::Conformance { dir } => tools::conformance(dir),
    }
}

fn elicit(
    file: Option<String>,
    answers: Option<String>,
    server: Option<&str>,
    reporter: &Reporter,
    limits: &Limits,
) -> tools::Printed {
    if file.as_deref() == Some("-") && answers.as_deref() == Some("-") {
        return Err(Failure::usage(
            "the elicitation and --answers cannot both be standard input",
        ));
    }
    let mut asker: Box<dyn Asker> = match &answers {
        Some(answers) => {
            let value = Source::parse(answers).json(limits)?;
            Box::new(Scripted::from_value(value)?.reporting(*reporter))
        }
        None => Box::new(Terminal::open().ok_or_else(|| {
            Failure::usage(
                "no terminal to ask on: run it in a terminal, or give the answers with \
                 --answers FILE",
            )
        })?),
    };
    // No file and nothing piped in: the sample, a form and then a URL request.
    let sample = file.is_none() && std::io::stdin().is_terminal();
    if sample {
        let mut replies = Vec::new();
        let mut exit = Exit::Done;
        for text in [sample::FORM, sample::URL] {
            let elicitation = Elicitation::read(text.as_bytes(), limits)?;
            let finished = elicit::run(elicitation, asker.as_mut(), server, limits)?;
            replies.push(finished.reply);
            if finished.exit != Exit::Done {
                exit = finished.exit;
            }
        }
        return Ok((replies.join("\n"), exit));
    }
    let bytes = Source::parse(file.as_deref().unwrap_or("-")).read(limits)?;
    let elicitation = Elicitation::read(&bytes, limits)?;
    let finished = elicit::run(elicitation, asker.as_mut(), server, limits)?;
    Ok((finished.reply, finished.exit))
}
