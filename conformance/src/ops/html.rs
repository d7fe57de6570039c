//! The `html` operation: a request written as an HTML form (or a URL consent), and the
//! browser's post read back into an `Answer`, or into the error and the form written again.

use toolnexus_core::html::{FormData, HtmlOptions, answer_from_post, request_html};
use toolnexus_core::{ContentOptions, Error, Limits, Map, Request, Value};

use super::{object, violations_value};

/// Runs `input`: `{"request", "options"?, "post"?}`. Without `post`, the output is
/// `{"html"}`; with it, `{"answer"}` when the post reads into an answer, else
/// `{"error": {"kind", "pointer", "violations"}, "html"}` with the form written again.
///
/// The request is read first, then the options in the order `asker`, `classPrefix`,
/// `hidden`, `action`, `utcOffset`, `applyDefaults`, `allowUnknown`, then the post: an error
/// of any of them is the case's error. The post is read within `limits` (the case's).
pub(crate) fn run(input: &Value, limits: &Limits) -> Result<Result<String, Error>, String> {
    let input = input
        .as_object()
        .ok_or("html: the input must be an object")?;
    for key in input.keys() {
        if !matches!(key, "request" | "options" | "post") {
            return Err(format!("html: unknown input member `{key}`"));
        }
    }
    let request = input.get("request").ok_or("html: `request` is required")?;
    let request = match Request::from_value(request.clone()) {
        Ok(request) => request,
        Err(e) => return Ok(Err(e)),
    };
    let options = match options_of(input.get("options"))? {
        Ok(options) => options,
        Err(e) => return Ok(Err(e)),
    };
    let Some(post) = input.get("post") else {
        return Ok(request_html(&request, &options, None, None)
            .map(|html| object([("html", Value::from(html))]).to_json()));
    };
    let post = match post_of(post, limits)? {
        Ok(post) => post,
        Err(e) => return Ok(Err(e)),
    };
    let error = match answer_from_post(&request, &post, &options) {
        Ok(answer) => return Ok(Ok(format!("{{\"answer\":{}}}", answer.to_json()))),
        Err(error) => error,
    };
    Ok(
        request_html(&request, &options, Some(&post), Some(&error)).map(|html| {
            let mut err = Map::new();
            err.insert("kind", Value::from(error.kind().as_str()));
            err.insert("pointer", Value::from(error.pointer()));
            err.insert("violations", violations_value(error.violations()));
            object([("error", Value::Object(err)), ("html", Value::from(html))]).to_json()
        }),
    )
}

/// The options: the runner's error for a malformed script, the core's for a refused option.
fn options_of(options: Option<&Value>) -> Result<Result<HtmlOptions, Error>, String> {
    let mut out = HtmlOptions::new();
    let Some(options) = options else {
        return Ok(Ok(out));
    };
    let options = options
        .as_object()
        .ok_or("html: `options` must be an object")?;
    for key in options.keys() {
        let known = [
            "asker",
            "classPrefix",
            "hidden",
            "action",
            "utcOffset",
            "applyDefaults",
            "allowUnknown",
        ];
        if !known.contains(&key) {
            return Err(format!("html: unknown option `{key}`"));
        }
    }
    let text = |key: &str| -> Result<Option<&str>, String> {
        options
            .get(key)
            .map(|v| {
                v.as_str()
                    .ok_or(format!("html: option `{key}` is a string"))
            })
            .transpose()
    };
    let flag = |key: &str| -> Result<bool, String> {
        match options.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(format!("html: option `{key}` is a boolean")),
        }
    };
    if let Some(asker) = text("asker")? {
        out = out.with_asker(asker);
    }
    if let Some(prefix) = text("classPrefix")? {
        out = match out.with_class_prefix(prefix) {
            Ok(out) => out,
            Err(e) => return Ok(Err(e)),
        };
    }
    if let Some(hidden) = options.get("hidden") {
        for (name, value) in pairs_of(hidden, "hidden")? {
            out = match out.with_hidden(name, value) {
                Ok(out) => out,
                Err(e) => return Ok(Err(e)),
            };
        }
    }
    if let Some(action) = text("action")? {
        out = out.with_action(action);
    }
    if let Some(offset) = text("utcOffset")? {
        out = match out.with_utc_offset(offset) {
            Ok(out) => out,
            Err(e) => return Ok(Err(e)),
        };
    }
    out = out.with_apply_defaults(flag("applyDefaults")?);
    out = out.with_content_options(ContentOptions::STRICT.allow_unknown(flag("allowUnknown")?));
    Ok(Ok(out))
}

/// The post: a urlencoded body as text, or the pairs a framework decoded.
fn post_of(post: &Value, limits: &Limits) -> Result<Result<FormData, Error>, String> {
    Ok(match post {
        Value::String(body) => FormData::from_urlencoded(body.as_str().as_bytes(), limits),
        Value::Array(_) => FormData::from_pairs(pairs_of(post, "post")?, limits),
        _ => {
            return Err(String::from(
                "html: `post` is a string or an array of pairs",
            ));
        }
    })
}

/// `[[name, value], ...]` as string pairs.
fn pairs_of<'a>(value: &'a Value, what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    let bad = || format!("html: `{what}` is an array of [name, value] string pairs");
    value
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(name), Value::String(value)]) => {
                Ok((name.as_str(), value.as_str()))
            }
            _ => Err(bad()),
        })
        .collect()
}
