//! The server's result to a request, told apart by `resultType`, and the input-required kind
//! read whole.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object, take_object};
use crate::json::pointer;
use crate::json::write::{write_map, write_str};
use crate::json::{Map, Value};
use crate::mcp::ElicitRequestParams;
use crate::wire::method::ELICITATION_CREATE as ELICIT_METHOD;
use crate::wire::rpc::{self, RpcId};

use super::{COMPLETE, INPUT_REQUIRED};

/// One entry of `inputRequests`: a request the server needs the client to fulfil before it
/// retries.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    key: String,
    method: String,
    params: Option<Map>,
    elicitation: Option<ElicitRequestParams>,
}

impl InputRequest {
    /// Reads an `inputRequests` map: every entry, in the order given.
    ///
    /// Each entry must be an object with a non-empty `method`; its `params`, when present,
    /// must be an object. An `elicitation/create` entry needs `params`, read as
    /// [`ElicitRequestParams`]; other methods are kept as received. Errors point into the map
    /// (`/<key>/params/mode`).
    pub fn read_all(value: Value) -> Result<Vec<InputRequest>, Error> {
        let map = into_object(value, "`inputRequests`")?;
        map.into_iter()
            .map(|(key, entry)| {
                InputRequest::read(&key, entry).map_err(|e| e.within(&pointer::key(&key)))
            })
            .collect()
    }

    fn read(key: &str, entry: Value) -> Result<InputRequest, Error> {
        let mut entry = into_object(entry, "an input request")?;
        let fields = Fields::new(&entry);
        let method = String::from(fields.non_empty_str("method")?);
        fields.opt_object("params")?;
        let elicitation = if method == ELICIT_METHOD {
            let params = fields.object("params")?;
            Some(
                ElicitRequestParams::from_value(Value::Object(params.clone()))
                    .map_err(|e| e.within("/params"))?,
            )
        } else {
            None
        };
        let params = take_object(&mut entry, "params");
        Ok(InputRequest {
            key: String::from(key),
            method,
            params,
            elicitation,
        })
    }

    /// The server's key for this request.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The method (`elicitation/create`, `sampling/createMessage`, `roots/list`, …).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The params as received, if any.
    pub fn params(&self) -> Option<&Map> {
        self.params.as_ref()
    }

    /// For an `elicitation/create` entry, its params read.
    pub fn elicitation(&self) -> Option<&ElicitRequestParams> {
        self.elicitation.as_ref()
    }
}

/// A result with `resultType: "input_required"`: what the server needs before the client
/// retries its request.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    requests: Vec<InputRequest>,
    request_state: Option<String>,
    response_id: Option<RpcId>,
    base: &'static str,
}

impl InputRequired {
    /// Reads an input-required result from JSON text within `limits`: the whole JSON-RPC
    /// response, or the result object alone (see [`ServerResult::from_value`]).
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<InputRequired, Error> {
        InputRequired::from_value(json::parse(input, limits)?)
    }

    /// Reads an input-required result from a JSON value (see [`ServerResult::from_value`]).
    ///
    /// A result whose `resultType` is absent or `"complete"`, or one this version does not
    /// know, asks for no input: an [`ErrorKind::InvalidValue`] error at `resultType`. Use
    /// [`ServerResult`] to tell the kinds apart without an error.
    pub fn from_value(value: Value) -> Result<InputRequired, Error> {
        let (result, response_id, base) = unwrap_response(value)?;
        let at = format!("{base}/resultType");
        let result_type = Fields::new(&result)
            .opt_str("resultType")
            .map_err(|e| e.within(base))?
            .map(String::from);
        match result_type.as_deref() {
            Some(INPUT_REQUIRED) => InputRequired::read(result, response_id, base),
            None => Err(Error::new(
                ErrorKind::InvalidValue,
                at,
                "the result has no `resultType`, which means \"complete\" (a server of an \
                 earlier version): it asks for no input",
            )),
            Some(other) => Err(Error::new(
                ErrorKind::InvalidValue,
                at,
                format!(
                    "the result is of type {other:?}, not \"input_required\": it asks for no input"
                ),
            )),
        }
    }

    fn read(
        mut result: Map,
        response_id: Option<RpcId>,
        base: &'static str,
    ) -> Result<InputRequired, Error> {
        let fields = Fields::new(&result);
        let request_state = fields
            .opt_str("requestState")
            .map_err(|e| e.within(base))?
            .map(String::from);
        let has_requests = fields
            .opt_object("inputRequests")
            .map_err(|e| e.within(base))?
            .is_some();
        if !has_requests && request_state.is_none() {
            return Err(Error::new(
                ErrorKind::MissingField,
                base,
                "an input-required result must hold `inputRequests` or `requestState`, and \
                 this one holds neither",
            ));
        }
        let requests = match result.remove("inputRequests") {
            Some(map @ Value::Object(_)) => InputRequest::read_all(map)
                .map_err(|e| e.within(&format!("{base}/inputRequests")))?,
            _ => Vec::new(),
        };
        Ok(InputRequired {
            requests,
            request_state,
            response_id,
            base,
        })
    }

    /// Input requests read elsewhere (a task's `inputRequests`), with no state and no
    /// response id; entry pointers are `/inputRequests/<key>`.
    pub(crate) fn of_requests(requests: Vec<InputRequest>) -> InputRequired {
        InputRequired {
            requests,
            request_state: None,
            response_id: None,
            base: "",
        }
    }

    /// The input requests, in the order the server gave them.
    pub fn input_requests(&self) -> &[InputRequest] {
        &self.requests
    }

    /// The server's `requestState`, exactly as received.
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    /// The id of the JSON-RPC response the result came in, when it came in one.
    pub fn response_id(&self) -> Option<&RpcId> {
        self.response_id.as_ref()
    }

    /// Appends the result as JSON: `resultType`, the `inputRequests` as read (each entry's
    /// `method` and `params`) and the `requestState`, which [`InputRequired::from_value`]
    /// reads back the same. The response id, if any, is not part of it.
    pub(crate) fn write_json(&self, out: &mut String) {
        out.push_str("{\"resultType\":");
        write_str(out, INPUT_REQUIRED);
        out.push_str(",\"inputRequests\":{");
        for (i, request) in self.requests.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_str(out, &request.key);
            out.push_str(":{\"method\":");
            write_str(out, &request.method);
            if let Some(params) = &request.params {
                out.push_str(",\"params\":");
                write_map(out, params);
            }
            out.push('}');
        }
        out.push('}');
        if let Some(state) = &self.request_state {
            out.push_str(",\"requestState\":");
            write_str(out, state);
        }
        out.push('}');
    }

    /// The pointer of the entry `key` in the text this was read from.
    pub(super) fn entry_pointer(&self, key: &str) -> String {
        let mut at = format!("{}/inputRequests", self.base);
        pointer::push_key(&mut at, key);
        at
    }
}

/// What a server's result to a request is, by its `resultType`.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerResult {
    /// The final result (`resultType` `"complete"`, or absent: a server of an earlier
    /// version), as received.
    Complete(Map),
    /// The server needs input before the request can complete.
    InputRequired(InputRequired),
    /// A `resultType` this version does not define; the client cannot read such a result.
    Unknown {
        /// The `resultType` received.
        result_type: String,
        /// The result, as received.
        result: Map,
    },
}

impl ServerResult {
    /// Reads a result from JSON text within `limits` (see [`ServerResult::from_value`]).
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<ServerResult, Error> {
        ServerResult::from_value(json::parse(input, limits)?)
    }

    /// Reads a result from a JSON value: either the whole JSON-RPC response
    /// `{"jsonrpc": "2.0", "id", "result"}` (told apart by its `jsonrpc` member; errors then
    /// point under `/result`), or the result object alone.
    ///
    /// A JSON-RPC error response is an [`ErrorKind::InvalidValue`] error at `/error` naming
    /// its code: it holds no result. An input-required result is read whole, with its errors.
    pub fn from_value(value: Value) -> Result<ServerResult, Error> {
        let (result, response_id, base) = unwrap_response(value)?;
        let result_type = Fields::new(&result)
            .opt_str("resultType")
            .map_err(|e| e.within(base))?
            .map(String::from);
        match result_type.as_deref() {
            None | Some(COMPLETE) => Ok(ServerResult::Complete(result)),
            Some(INPUT_REQUIRED) => Ok(ServerResult::InputRequired(InputRequired::read(
                result,
                response_id,
                base,
            )?)),
            Some(_) => Ok(ServerResult::Unknown {
                result_type: result_type.unwrap_or_default(),
                result,
            }),
        }
    }
}

/// The result object of `value`, the id of the response it came in, and the pointer of the
/// result within `value`.
pub(crate) fn unwrap_response(value: Value) -> Result<(Map, Option<RpcId>, &'static str), Error> {
    let mut map = into_object(value, "a result")?;
    let fields = Fields::new(&map);
    if fields.get("jsonrpc").is_none() {
        return Ok((map, None, ""));
    }
    rpc::check_version(&fields)?;
    if let (None, Some(error)) = (fields.get("result"), fields.get("error")) {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "/error",
            format!(
                "the server answered with a JSON-RPC error{}, not a result",
                describe_rpc_error(error)
            ),
        ));
    }
    let id = rpc::required_id(&fields)?;
    fields.object("result")?;
    let result = take_object(&mut map, "result").unwrap_or_default();
    Ok((result, Some(id), "/result"))
}

fn describe_rpc_error(error: &Value) -> String {
    let code = error.get("code").and_then(Value::as_number);
    let message = error.get("message").and_then(Value::as_str);
    match (code, message) {
        (Some(code), Some(message)) => format!(" ({}: {message:?})", code.as_str()),
        (Some(code), None) => format!(" ({})", code.as_str()),
        (None, Some(message)) => format!(" ({message:?})"),
        (None, None) => String::new(),
    }
}
