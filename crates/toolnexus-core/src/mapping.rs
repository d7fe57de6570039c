//! The two mappings between MCP elicitation and the toolnexus suspension contract.

use crate::value::{Map, Value};

use crate::answer::{Answer, Reason};
use crate::elicit_result::{Content, ElicitResult};
use crate::error::Error;
use crate::params::ElicitRequestParams;
use crate::request::Request;

/// Maps `elicitation/create` parameters onto a [`Request`] with the caller's `id`.
///
/// Form mode becomes `kind: "input"` with `data.schema` the `requestedSchema` exactly as
/// received; URL mode becomes `kind: "authorization"` with `url` set and no `data`. The
/// `message` becomes the `prompt`. An empty `id` is an `invalid_value` error at `/id`.
pub fn elicitation_to_request(params: &ElicitRequestParams, id: &str) -> Result<Request, Error> {
    match params {
        ElicitRequestParams::Form(form) => {
            let mut data = Map::new();
            data.insert("schema", Value::Object(form.requested_schema().clone()));
            Ok(Request::new(id, Request::KIND_INPUT, form.message())?.with_data(data))
        }
        ElicitRequestParams::Url(url) => {
            Ok(Request::new(id, Request::KIND_AUTHORIZATION, url.message())?.with_url(url.url()))
        }
    }
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
