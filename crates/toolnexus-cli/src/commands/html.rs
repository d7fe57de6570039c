//! `toolnexus html`: a request written as a web page, by the core's [`request_html`]: a form
//! request's fields, or a URL request's consent, as a whole HTML document or the fragment alone.
//!
//! The page is the core's: this command reads the request, sets the options, and wraps the
//! fragment in a document with the core's [`stylesheet`]. It opens nothing and serves nothing.

use std::fs;

use toolnexus_core::html::{HtmlOptions, request_html, stylesheet};
use toolnexus_core::{
    ElicitRequestParams, Error, Limits, Request, Value, elicitation_to_request, id,
};

use crate::input::Source;
use crate::printer::Output;
use crate::report::{Exit, Failure, Printed};

/// `toolnexus html FILE [--fragment] [--asker NAME] [--class-prefix PREFIX] [--utc-offset
/// OFFSET] [--action URL] [--id ID] [-o FILE]`: what the page is made of, and where it goes.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The request or params: a file, or - for standard input.
    file: String,
    /// Write the <form> fragment alone, not a whole document.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long)]
    fragment: bool,
    /// Who asks, shown above the message: a name you trust, never the server's words.
    #[arg(long, value_name = "NAME")]
    asker: Option<String>,
    /// What every class and element id starts with (default tn-).
    #[arg(long, value_name = "PREFIX")]
    class_prefix: Option<String>,
    /// The person's offset from UTC for date-time fields: Z, +HH:MM or -HH:MM (default Z).
    #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
    utc_offset: Option<String>,
    /// Where the form posts (default: the page's own address).
    #[arg(long, value_name = "URL")]
    action: Option<String>,
    /// The request's id when the input is ElicitRequestParams (default: a fresh one).
    #[arg(long)]
    id: Option<String>,
    /// Write the page to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
}

/// Writes the page of the request.
pub fn exec(args: Args) -> Printed {
    html(&Source::parse(&args.file), &args, &Limits::DEFAULT)
}

/// Reads the request in `source` and writes its page: to standard output (what is returned),
/// or to `page.output`, with nothing printed.
fn html(source: &Source, page: &Args, limits: &Limits) -> Printed {
    let (request, from_params) = read_request(source, page.id.as_deref(), limits)?;
    let options = options(page)?;
    let fragment = request_html(&request, &options, None, None)
        .map_err(|e| if from_params { in_params(e) } else { e })?;
    let text = if page.fragment {
        fragment
    } else {
        document(&request, &options, &fragment)
    };
    match &page.output {
        Some(path) => {
            fs::write(path, &text)
                .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
            Ok((Output::Nothing, Exit::Done))
        }
        // The printer ends what it prints with a line break: the text already has its own.
        None => Ok((
            Output::Page(text.strip_suffix('\n').unwrap_or(&text).to_owned()),
            Exit::Done,
        )),
    }
}

/// A toolnexus `Request` (an object with a `kind`), or MCP `ElicitRequestParams` mapped to one
/// with `id` or a fresh id (then `true`).
fn read_request(
    source: &Source,
    request_id: Option<&str>,
    limits: &Limits,
) -> Result<(Request, bool), Failure> {
    let value = source.json(limits)?;
    let is_request = matches!(&value, Value::Object(map) if map.get("kind").is_some());
    if is_request {
        if request_id.is_some() {
            return Err(Failure::usage(
                "--id names the request made from ElicitRequestParams; this is a Request, \
                 which has its own id",
            ));
        }
        return Ok((Request::from_value(value)?, false));
    }
    let params = ElicitRequestParams::from_value(value)?;
    let request_id = request_id.map_or_else(id::next_id, String::from);
    Ok((elicitation_to_request(&params, &request_id)?, true))
}

/// An error about the schema of the request made from params, pointing into the params the
/// person gave: `/data/schema/…` is `/requestedSchema/…` there.
fn in_params(error: Error) -> Error {
    match error.pointer().strip_prefix("/data/schema") {
        Some(rest) if error.violations().is_empty() => Error::new(
            error.kind(),
            format!("/requestedSchema{rest}"),
            error.message(),
        ),
        _ => error,
    }
}

/// The core's options from the command line; the core refuses a prefix or an offset it cannot
/// use, with its kind and pointer.
fn options(page: &Args) -> Result<HtmlOptions, Failure> {
    let mut options = HtmlOptions::new();
    if let Some(asker) = &page.asker {
        options = options.with_asker(asker.as_str());
    }
    if let Some(prefix) = &page.class_prefix {
        options = options.with_class_prefix(prefix)?;
    }
    if let Some(action) = &page.action {
        options = options.with_action(action.as_str());
    }
    if let Some(offset) = &page.utc_offset {
        options = options.with_utc_offset(offset)?;
    }
    Ok(options)
}

/// The fragment in a whole document: UTF-8, a viewport for phones, a title of our own words
/// (never the server's), the core's style sheet, a policy that lets nothing but that style
/// run or load, and the fragment inside `<main>`.
fn document(request: &Request, options: &HtmlOptions, fragment: &str) -> String {
    let title = if request.schema().is_some() {
        "A form to fill in"
    } else {
        "A link to open"
    };
    let style = stylesheet(options);
    let mut out = String::with_capacity(fragment.len() + style.len() + 512);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; base-uri 'none'\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n",
    );
    out.push_str("<title>");
    out.push_str(title);
    out.push_str("</title>\n<style>\n");
    out.push_str(&style);
    out.push_str("</style>\n</head>\n<body>\n<main>\n");
    out.push_str(fragment);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}
