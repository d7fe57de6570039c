//! The two mappings between MCP elicitation and the toolnexus suspension contract.

use alloc::string::String;

use crate::json::{Map, Value};

use crate::content::Content;
use crate::contract::Request;
use crate::contract::{Answer, Reason};
use crate::error::Error;
use crate::mcp::ElicitRequestParams;
use crate::mcp::ElicitResult;

/// Maps `elicitation/create` parameters onto a [`Request`] with the caller's `id`.
///
/// Form mode becomes `kind: "input"` with `data.schema` the `requestedSchema` exactly as
/// received; URL mode becomes `kind: "authorization"` with `url` set and no `data`. The
/// `message` becomes the `prompt`. An empty `id` is an `invalid_value` error at `/id`.
///
/// The request gets a copy of the schema; [`elicitation_into_request`] moves it instead.
pub fn elicitation_to_request(params: &ElicitRequestParams, id: &str) -> Result<Request, Error> {
    match params {
        ElicitRequestParams::Form(form) => {
            form_request(id, form.message(), form.requested_schema().clone())
        }
        ElicitRequestParams::Url(url) => url_request(id, url.message(), url.url()),
    }
}

/// [`elicitation_to_request`] for parameters that are no longer needed: the message, the
/// schema and the URL move into the request, so nothing is copied however large the form.
pub fn elicitation_into_request(params: ElicitRequestParams, id: &str) -> Result<Request, Error> {
    match params {
        ElicitRequestParams::Form(form) => {
            let (message, schema) = form.into_message_and_schema();
            form_request(id, message, schema)
        }
        ElicitRequestParams::Url(url) => {
            let (message, url) = url.into_message_and_url();
            url_request(id, message, url)
        }
    }
}

fn form_request(id: &str, message: impl Into<String>, schema: Map) -> Result<Request, Error> {
    let mut data = Map::new();
    data.insert("schema", Value::Object(schema));
    Ok(Request::new(id, Request::KIND_INPUT, message)?.with_data(data))
}

fn url_request(
    id: &str,
    message: impl Into<String>,
    url: impl Into<String>,
) -> Result<Request, Error> {
    Ok(Request::new(id, Request::KIND_AUTHORIZATION, message)?.with_url(url))
}

/// Maps a resolved [`Answer`] onto an MCP [`ElicitResult`].
///
/// `ok` becomes accept, with `content` from `data` (no data: `{}`); `ok: false` with reason
/// `"declined"` becomes decline; any other or no reason becomes cancel. Decline and cancel
/// never carry `content`, even when the answer had data. On accept every data value must be
/// a string, number, boolean or list of strings; otherwise the error is `wrong_type` at
/// `/data/<name>`.
pub fn answer_to_elicit_result(answer: &Answer) -> Result<ElicitResult, Error> {
    if answer.ok() {
        let data = answer.data().cloned().unwrap_or_default();
        let content = Content::from_map(data).map_err(|e| e.within("/data"))?;
        Ok(ElicitResult::accept(Some(content)))
    } else if answer.reason() == Some(&Reason::Declined) {
        Ok(ElicitResult::decline())
    } else {
        Ok(ElicitResult::cancel())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::json::Limits;

    fn params(text: &str) -> ElicitRequestParams {
        ElicitRequestParams::from_value(json::parse_str(text, &Limits::DEFAULT).unwrap()).unwrap()
    }

    #[test]
    fn moving_and_borrowing_map_alike() {
        for text in [
            r#"{"message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"number","minimum":1.50}}}}"#,
            r#"{"mode":"url","message":"Log in","url":"https://example.com/a","elicitationId":"e1"}"#,
            r#"{"requestedSchema":{"type":"object","properties":{}}}"#,
        ] {
            let params = params(text);
            let borrowed = elicitation_to_request(&params, "r-1").unwrap();
            assert_eq!(elicitation_into_request(params, "r-1").unwrap(), borrowed);
        }
        let empty_id = elicitation_into_request(params(r#"{"mode":"url","url":"u"}"#), "");
        assert_eq!(empty_id.unwrap_err().pointer(), "/id");
    }
}
