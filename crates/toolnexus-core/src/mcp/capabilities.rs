//! Which elicitation modes a host supports, as MCP's `elicitation` client capability.
//!
//! A client advertises `{"elicitation": {"form": {}, "url": {}}}` for both modes. Since
//! 2025-11-25 an empty `{"elicitation": {}}` means form mode only (what a 2025-06-18 client
//! sends), and a server must not ask for a mode the client did not advertise.

use alloc::string::String;

use crate::error::{Error, ErrorKind, closed_set};
use crate::json::fields::{Fields, as_object};
use crate::json::{Map, Value};

closed_set! {
    /// One elicitation mode, as `ElicitRequestParams.mode` names it.
    pub enum Mode {
        /// A form to fill in (`requestedSchema`); also what an absent `mode` means.
        Form => "form",
        /// A URL for the person to open.
        Url => "url",
    }
}

impl Mode {
    /// The members `elicitation/create` params of this mode carry besides `_meta`, as the
    /// wire names them, in the order the specification lists them.
    pub const fn params_members(self) -> &'static [&'static str] {
        match self {
            Mode::Form => &["mode", "message", "requestedSchema"],
            Mode::Url => &["mode", "message", "url", "elicitationId"],
        }
    }
}

/// The elicitation modes a host supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Modes {
    form: bool,
    url: bool,
}

impl Modes {
    /// Form mode and URL mode.
    pub const ALL: Modes = Modes {
        form: true,
        url: true,
    };

    /// Form mode only.
    pub const FORM: Modes = Modes {
        form: true,
        url: false,
    };

    /// URL mode only.
    pub const URL: Modes = Modes {
        form: false,
        url: true,
    };

    /// The modes given; at least one must be supported for a host to elicit anything.
    pub const fn new(form: bool, url: bool) -> Modes {
        Modes { form, url }
    }

    /// Whether form mode is supported.
    pub const fn form(&self) -> bool {
        self.form
    }

    /// Whether URL mode is supported.
    pub const fn url(&self) -> bool {
        self.url
    }

    /// Whether `mode` is supported.
    pub const fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::Form => self.form,
            Mode::Url => self.url,
        }
    }

    /// The modes named `name`: `"form"`, `"url"` or `"all"` (both), as options and scripts
    /// name them. Any other name is an [`ErrorKind::InvalidValue`] at the root.
    pub fn from_name(name: &str) -> Result<Modes, Error> {
        match name {
            "all" => Ok(Modes::ALL),
            _ => match Mode::from_name(name) {
                Some(mode) => Ok(Modes::only(mode)),
                None => Err(Error::new(
                    ErrorKind::InvalidValue,
                    "",
                    alloc::format!(
                        "unknown modes {}: \"form\", \"url\" or \"all\"",
                        crate::error::quote(name)
                    ),
                )),
            },
        }
    }

    /// Only `mode`.
    pub const fn only(mode: Mode) -> Modes {
        match mode {
            Mode::Form => Modes::FORM,
            Mode::Url => Modes::URL,
        }
    }

    /// These modes with `mode` added.
    #[must_use]
    pub const fn with(self, mode: Mode) -> Modes {
        match mode {
            Mode::Form => Modes { form: true, ..self },
            Mode::Url => Modes { url: true, ..self },
        }
    }

    /// The value of the `elicitation` capability: `{"form": {}, "url": {}}` with a member for
    /// each supported mode, or `None` when neither is (the capability is then left out).
    pub fn to_value(&self) -> Option<Value> {
        if !self.form && !self.url {
            return None;
        }
        let mut map = Map::new();
        if self.form {
            map.insert("form", Value::Object(Map::new()));
        }
        if self.url {
            map.insert("url", Value::Object(Map::new()));
        }
        Some(Value::Object(map))
    }

    /// The client capabilities object holding only this capability:
    /// `{"elicitation": {...}}`, or `{}` when no mode is supported.
    pub fn client_capabilities(&self) -> Map {
        let mut caps = Map::new();
        if let Some(elicitation) = self.to_value() {
            caps.insert("elicitation", elicitation);
        }
        caps
    }

    /// Reads the value of an `elicitation` capability: `{}` is form mode only, otherwise each
    /// of `form` and `url` that is present (as an object) is supported. Other members are
    /// ignored, as later versions may add some.
    pub fn from_value(value: &Value) -> Result<Modes, Error> {
        let fields = Fields::new(as_object(value, "the elicitation capability")?);
        let form = fields.opt_object("form")?.is_some();
        let url = fields.opt_object("url")?.is_some();
        Ok(if !form && !url {
            Modes::FORM
        } else {
            Modes { form, url }
        })
    }

    /// How to say which modes these are, for messages.
    pub(crate) fn describe(&self) -> String {
        String::from(match (self.form, self.url) {
            (true, true) => "form and URL mode",
            (true, false) => "form mode only",
            (false, true) => "URL mode only",
            (false, false) => "no elicitation at all",
        })
    }
}

impl Default for Modes {
    fn default() -> Modes {
        Modes::ALL
    }
}
