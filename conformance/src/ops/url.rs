//! The `review_url` operation: the review of a URL-mode link, findings without their messages.

use toolnexus_core::url_review::review_url;
use toolnexus_core::{Error, ErrorKind, Value};

/// Runs `review_url` on the URL given as a JSON string.
///
/// A JSON string lets a case write control characters as escapes. Messages are wording, not
/// contract, so they are dropped from the output.
pub(crate) fn run(value: &Value) -> Result<Result<String, Error>, String> {
    let Some(url) = value.as_str() else {
        return Ok(Err(Error::new(
            ErrorKind::WrongType,
            "",
            "review_url takes the URL as a JSON string",
        )));
    };
    let mut review = review_url(url).to_value();
    drop_messages(&mut review)?;
    Ok(Ok(review.to_json()))
}

fn drop_messages(review: &mut Value) -> Result<(), String> {
    let Value::Object(map) = review else {
        return Err("the review is not a JSON object".into());
    };
    let Some(Value::Array(findings)) = map.get_mut("findings") else {
        return Err("the review has no findings array".into());
    };
    for finding in findings {
        let Value::Object(finding) = finding else {
            return Err("a finding is not a JSON object".into());
        };
        finding.remove("message");
    }
    Ok(())
}
