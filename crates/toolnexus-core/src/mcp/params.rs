//! MCP `ElicitRequestParams`: what a server sends with `elicitation/create`.

use alloc::format;
use alloc::string::String;

use crate::json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::form::Form;
use crate::form::secrets::SensitiveField;
use crate::json;
use crate::json::Limits;
use crate::json::fields::{Fields, into_object, non_empty, take_object};
use crate::mcp::Mode;
use crate::schema::RequestedSchema;

/// Form mode: `{mode?: "form", message, requestedSchema, _meta?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct FormParams {
    message: String,
    requested_schema: Map,
    meta: Option<Map>,
}

impl FormParams {
    /// What the server asks, in human words (`""` when the server sent none).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `requestedSchema` exactly as received: every keyword, in its order, numbers as spelt.
    pub fn requested_schema(&self) -> &Map {
        &self.requested_schema
    }

    /// The typed reading of [`requested_schema`](FormParams::requested_schema).
    pub fn schema(&self) -> Result<RequestedSchema, Error> {
        RequestedSchema::from_map(&self.requested_schema).map_err(|e| e.within("/requestedSchema"))
    }

    /// The [`Form`] of [`requested_schema`](FormParams::requested_schema), prepared; errors
    /// point under `/requestedSchema`.
    pub fn form(&self) -> Result<Form, Error> {
        Form::from_map(&self.requested_schema).map_err(|e| e.within("/requestedSchema"))
    }

    /// [`FormParams::form`] with its sensitive fields given ([`Form::from_map_carried`]),
    /// or found when `sensitive` is `None`.
    pub(crate) fn form_carried(&self, sensitive: Option<&[SensitiveField]>) -> Result<Form, Error> {
        match sensitive {
            None => self.form(),
            Some(sensitive) => Form::from_map_carried(&self.requested_schema, sensitive)
                .map_err(|e| e.within("/requestedSchema")),
        }
    }

    /// The `_meta` object, if any.
    pub fn meta(&self) -> Option<&Map> {
        self.meta.as_ref()
    }

    /// The message and the `requestedSchema`, given up without a copy.
    pub(crate) fn into_message_and_schema(self) -> (String, Map) {
        (self.message, self.requested_schema)
    }
}

/// URL mode: `{mode: "url", message, url, elicitationId?, _meta?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlParams {
    message: String,
    url: String,
    elicitation_id: Option<String>,
    meta: Option<Map>,
}

impl UrlParams {
    /// What the server asks, in human words (`""` when the server sent none).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The URL the person is asked to open.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The server's id for this elicitation (MCP 2025-11-25), if any.
    pub fn elicitation_id(&self) -> Option<&str> {
        self.elicitation_id.as_deref()
    }

    /// The `_meta` object, if any.
    pub fn meta(&self) -> Option<&Map> {
        self.meta.as_ref()
    }

    /// The message and the URL, given up without a copy.
    pub(crate) fn into_message_and_url(self) -> (String, String) {
        (self.message, self.url)
    }
}

/// The parameters of an MCP `elicitation/create` request, in one of its two modes.
///
/// Keys this type does not know are ignored, so that fields added by later MCP versions do
/// not break a host; `null` counts as absent.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitRequestParams {
    /// A form to fill in.
    Form(FormParams),
    /// A URL to open.
    Url(UrlParams),
}

impl ElicitRequestParams {
    /// Form-mode parameters asking `message` with the form `requested_schema`.
    pub fn form(message: impl Into<String>, requested_schema: Map) -> ElicitRequestParams {
        ElicitRequestParams::Form(FormParams {
            message: message.into(),
            requested_schema,
            meta: None,
        })
    }

    /// URL-mode parameters asking `message` and pointing at `url`, which must not be empty.
    pub fn url(
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<ElicitRequestParams, Error> {
        let url = url.into();
        non_empty("url", &url)?;
        Ok(ElicitRequestParams::Url(UrlParams {
            message: message.into(),
            url,
            elicitation_id: None,
            meta: None,
        }))
    }

    /// Reads the parameters from JSON text within `limits`.
    pub fn from_json(input: &[u8], limits: &Limits) -> Result<ElicitRequestParams, Error> {
        ElicitRequestParams::from_value(json::parse(input, limits)?)
    }

    /// Reads the parameters from a JSON value.
    ///
    /// Refused: a `mode` other than `"form"` or `"url"`; URL mode without a `url` (or with an
    /// empty one); form mode whose `requestedSchema` is absent or not an object.
    pub fn from_value(value: Value) -> Result<ElicitRequestParams, Error> {
        let mut map = into_object(value, "elicitation params")?;
        let fields = Fields::new(&map);
        let message = String::from(fields.opt_str("message")?.unwrap_or(""));
        fields.opt_object("_meta")?;
        let mode = match fields.opt_str("mode")? {
            None => Mode::Form,
            Some(name) => Mode::from_name(name).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    "/mode",
                    format!("`mode` must be \"form\" or \"url\", not {name:?}"),
                )
            })?,
        };
        match mode {
            Mode::Form => {
                fields.object("requestedSchema")?;
                Ok(ElicitRequestParams::Form(FormParams {
                    message,
                    requested_schema: take_object(&mut map, "requestedSchema").unwrap_or_default(),
                    meta: take_object(&mut map, "_meta"),
                }))
            }
            Mode::Url => {
                let url = fields.non_empty_str("url")?.into();
                let elicitation_id = fields.opt_str("elicitationId")?.map(String::from);
                Ok(ElicitRequestParams::Url(UrlParams {
                    message,
                    url,
                    elicitation_id,
                    meta: take_object(&mut map, "_meta"),
                }))
            }
        }
    }

    /// The mode of these parameters.
    pub fn mode(&self) -> Mode {
        match self {
            ElicitRequestParams::Form(_) => Mode::Form,
            ElicitRequestParams::Url(_) => Mode::Url,
        }
    }

    /// What the server asks, in human words.
    pub fn message(&self) -> &str {
        match self {
            ElicitRequestParams::Form(p) => p.message(),
            ElicitRequestParams::Url(p) => p.message(),
        }
    }

    /// The `_meta` object, if any.
    pub fn meta(&self) -> Option<&Map> {
        match self {
            ElicitRequestParams::Form(p) => p.meta(),
            ElicitRequestParams::Url(p) => p.meta(),
        }
    }
}
