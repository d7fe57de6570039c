//! The JSON tools for scripts: each reads JSON, runs one function of the core and prints one
//! line of JSON on standard output.

use std::path::PathBuf;

use toolnexus_conformance::{check, load_suite};
use toolnexus_core::form::Form;
use toolnexus_core::url_review::Verdict;
use toolnexus_core::wire::task::TaskSupport;
use toolnexus_core::{
    Answer, ContentOptions, ElicitRequestParams, Limits, Value, answer_to_elicit_result,
    check_schema, elicitation_to_request, id, review_url,
};

use crate::input::Source;
use crate::printer::{self, Output, one_line};
use crate::report::{Exit, Failure};

/// What a tool prints and how it ends.
pub type Printed = Result<(Output, Exit), Failure>;

fn done(json: String) -> Printed {
    Ok((Output::Json(json), Exit::Done))
}

/// [`Exit::Done`] when the verdict is positive, else [`Exit::Refused`].
pub fn verdict(positive: bool) -> Exit {
    if positive { Exit::Done } else { Exit::Refused }
}

/// `map`: `ElicitRequestParams` to a `Request`, with `id` or a fresh one.
pub fn map(source: &Source, request_id: Option<&str>, limits: &Limits) -> Printed {
    let params = ElicitRequestParams::from_value(source.json(limits)?)?;
    let request_id = request_id.map_or_else(id::next_id, String::from);
    done(elicitation_to_request(&params, &request_id)?.to_json())
}

/// `answer`: an `Answer` to an `ElicitResult`.
pub fn answer(source: &Source, limits: &Limits) -> Printed {
    let answer = Answer::from_value(source.json(limits)?)?;
    done(answer_to_elicit_result(&answer)?.to_json())
}

/// `check-schema`: every problem, `[{kind, pointer, message}]`; refused when there is any.
pub fn check_schema_tool(source: &Source, limits: &Limits) -> Printed {
    let problems = check_schema(&source.json(limits)?);
    let exit = verdict(problems.is_empty());
    let list = Value::Array(problems.iter().map(|p| p.to_value()).collect());
    Ok((Output::Json(list.to_json()), exit))
}

/// `validate`: every violation of `content` against `schema`, `[{pointer, keyword,
/// message}]`; refused when there is any.
pub fn validate(
    schema: &Source,
    content: &Source,
    allow_unknown: bool,
    limits: &Limits,
) -> Printed {
    if schema == &Source::Stdin && content == &Source::Stdin {
        return Err(Failure::usage(
            "SCHEMA and CONTENT cannot both be standard input: give one of them as a file",
        ));
    }
    let form = Form::new(&schema.json(limits)?)?;
    let options = ContentOptions::STRICT.allow_unknown(allow_unknown);
    let violations = form.validate(&content.json(limits)?, &options);
    let exit = verdict(violations.is_empty());
    let list = Value::Array(violations.iter().map(|v| v.to_value()).collect());
    Ok((Output::Json(list.to_json()), exit))
}

/// `fields`: the form model, as the fields a UI renders.
pub fn fields(source: &Source, limits: &Limits) -> Printed {
    let form = Form::new(&source.json(limits)?)?;
    done(Value::Array(form.fields().iter().map(|f| f.to_value()).collect()).to_json())
}

/// `review-url`: the review of a URL; refused when its verdict is `reject`.
pub fn review(url: &str) -> Printed {
    let review = review_url(url);
    let exit = verdict(review.verdict() != Verdict::Reject);
    Ok((Output::Json(review.to_json()), exit))
}

/// `conformance`: the shared suite through the core, a line per area with its counts, then
/// `N passed, N failed`; each failure is named on standard error.
pub fn conformance(dir: PathBuf) -> Printed {
    let files = load_suite(&dir)
        .map_err(|e| Failure::usage(format!("cannot load the suite in {}: {e}", dir.display())))?;
    let mut areas: Vec<(String, usize, usize)> = Vec::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    for loaded in &files {
        let area = loaded
            .path
            .split('/')
            .next()
            .unwrap_or(&loaded.path)
            .to_owned();
        let index = match areas.iter().position(|(a, _, _)| *a == area) {
            Some(i) => i,
            None => {
                areas.push((area, 0, 0));
                areas.len() - 1
            }
        };
        for case in &loaded.file.cases {
            let ok = match check(case) {
                Ok(()) => true,
                Err(why) => {
                    printer::text_line(&format!(
                        "FAIL #{} {} ({})",
                        case.id, case.description, loaded.path
                    ));
                    printer::text_line(&format!("    {why}"));
                    false
                }
            };
            if let Some(row) = areas.get_mut(index) {
                if ok {
                    row.1 += 1;
                } else {
                    row.2 += 1;
                }
            }
            if ok {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    let mut out = format!("{:<12} {:>7} {:>7}\n", "area", "passed", "failed");
    for (area, p, f) in &areas {
        out.push_str(&format!("{area:<12} {p:>7} {f:>7}\n"));
    }
    out.push_str(&format!("{passed} passed, {failed} failed"));
    let exit = verdict(failed == 0 && passed > 0);
    Ok((Output::Text(out), exit))
}

/// The tools a server lists, for a person (every piece of the server's text shown on its own
/// line by the rule): each name with its arguments (`*` required), what
/// it says about running as a task (2025-11-25 `execution.taskSupport`), and its description.
pub fn describe_tools(who: Option<&str>, tools: &[Value]) -> String {
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
