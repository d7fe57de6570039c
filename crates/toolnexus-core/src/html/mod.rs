//! The form on a web page: the HTML a person fills in, and the browser's post read back into
//! the [`Answer`](crate::Answer) the server gets.
//!
//! [`form_html`] and [`request_html`] write an HTML fragment — one `<form method="post">` — that
//! a host drops into its own page: a form request's fields, or a URL request's consent. Given
//! what was posted and the error reading it gave, they write the same form again with the
//! person's values kept and each problem next to its field. [`read_form_post`] and
//! [`answer_from_post`] read the post — the `application/x-www-form-urlencoded` body, or the
//! pairs a web framework decoded — into accept, decline or cancel, the accepted content read by
//! each field's own parser and validated.
//!
//! ```
//! use toolnexus_core::html::{FormData, HtmlOptions, answer_from_post, request_html};
//! use toolnexus_core::{Limits, Request, json};
//!
//! let request = Request::from_json(
//!     br#"{"id":"r1","kind":"input","prompt":"How many?","data":{"schema":{"type":"object",
//!         "properties":{"n":{"type":"integer","title":"Quantity","minimum":1}},"required":["n"]}}}"#,
//!     &Limits::DEFAULT,
//! )?;
//! let options = HtmlOptions::new();
//! let page = request_html(&request, &options, None, None)?;
//! assert!(page.contains(r#"<input type="number" id="tn-f0" name="tn-0" step="1" min="1" required"#));
//!
//! // The browser posts the field and the button pressed.
//! let post = FormData::from_urlencoded(b"tn-request=r1&tn-0=0&tn-action=accept", &Limits::DEFAULT)?;
//! let error = answer_from_post(&request, &post, &options).unwrap_err();
//! assert_eq!(error.violations()[0].message(), "Quantity must be at least 1");
//! // The same form, the value kept and the message beside it.
//! let again = request_html(&request, &options, Some(&post), Some(&error))?;
//! assert!(again.contains(r#"value="0""#) && again.contains(r#"aria-invalid="true""#));
//!
//! let post = FormData::from_urlencoded(b"tn-request=r1&tn-0=+3&tn-action=accept", &Limits::DEFAULT)?;
//! assert_eq!(answer_from_post(&request, &post, &options)?.to_json(), r#"{"id":"r1","ok":true,"data":{"n":3}}"#);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```
//!
//! # What the fragment holds
//!
//! - Who asks, when the host says (a name it verified, [`HtmlOptions::with_asker`]; never the
//!   server's own words), then the message, then the fields in schema order, then three buttons:
//!   Accept, Decline and Cancel. Only Accept validates (the other two are `formnovalidate`).
//! - Each field has a label tied by `for` (or a `<fieldset>` with a `<legend>` for a group), a
//!   hint (the description, the constraints, the format) tied by `aria-describedby`, a visible
//!   mark and the `required` attribute when required, and its constraints as the native
//!   attributes that mean the same (`minlength`/`maxlength`, `min`/`max`/`step`, the input
//!   `type`). Defaults are pre-filled.
//! - Single-selects of up to [`RADIO_LIMIT`] options are radio buttons, longer ones a
//!   `<select>`; multi-selects a group of checkboxes; booleans a Yes/No choice (and "No answer"
//!   when optional), so that a required one can be answered `false`.
//! - A `date-time` field is a `datetime-local` control: the person's wall-clock time, written
//!   back with the offset the host gives ([`HtmlOptions::with_utc_offset`], `Z` by default).
//! - A field that seems to ask for a secret is a password control, never pre-filled nor echoed,
//!   with the core's warning.
//! - After a failed accept: a summary at the top linking to each field at fault, and at each
//!   field its message, `aria-invalid` and the message in its `aria-describedby`.
//! - Every server string is escaped for its context and isolated for direction (`<bdi>`,
//!   `dir="auto"`); element ids and control names are generated (`tn-f0`, `tn-0`), never taken
//!   from property names. No inline script, style or event attribute: a host may serve the page
//!   under `Content-Security-Policy: default-src 'none'; style-src 'self'; form-action 'self'`
//!   and style it with [`stylesheet`].
//!
//! The same input gives the same bytes; the shared conformance cases pin them.
//!
//! # What the host's page does
//!
//! The fragment holds no script, so what needs one is the host's: a page that shows a
//! re-render should say so in its `<title>` (`Error: …`), which screen readers announce on
//! load, and may move focus to the summary (`#tn-errors`). The browser checks the native
//! attributes before it posts, but the read-back is what counts: `maxlength` and `minlength`
//! count UTF-16 code units where the schema counts code points (a field of at most 2
//! characters takes one emoji, not two, in the browser), and `type="email"` refuses some
//! addresses the schema's `email` format accepts (non-ASCII before the `@`).

mod consent;
mod escape;
mod out;
mod post;
mod render;
#[cfg(test)]
mod tests;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

pub use post::{
    FormData, PostPairs, Submission, answer_from_form_pairs, answer_from_form_post,
    answer_from_pairs, answer_from_post, read_consent_post, read_form_post,
};
pub use render::{consent_html, form_html, request_form_html, request_html, stylesheet};

use crate::content::ContentOptions;
use crate::error::{Error, ErrorKind};
use crate::json::Text;
use crate::json::pointer;

/// The most options a single-select shows as radio buttons; one with more is a `<select>`.
pub const RADIO_LIMIT: usize = 5;

/// The name of the submit buttons; the value says which was pressed (`accept`, `decline`,
/// `cancel`).
pub const ACTION_NAME: &str = "tn-action";

/// The name of the hidden input that carries the request's id.
pub const REQUEST_NAME: &str = "tn-request";

/// What every control name of the fragment starts with; a host's own hidden fields may not.
pub const NAME_PREFIX: &str = "tn-";

/// How a form is written and read back. The same options serve both, so that what is written
/// is what is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlOptions {
    asker: Option<String>,
    // The defaults are written in, so options made for each post allocate nothing for them.
    prefix: Cow<'static, str>,
    hidden: Vec<(String, String)>,
    action: Option<String>,
    /// Short enough to be kept inline: no allocation.
    utc_offset: Text,
    apply_defaults: bool,
    content: ContentOptions,
}

impl Default for HtmlOptions {
    fn default() -> HtmlOptions {
        HtmlOptions::new()
    }
}

impl HtmlOptions {
    /// No asker, the class and id prefix `tn-`, no hidden fields, no `action` (the form posts
    /// to the page's own address), the offset `Z`, content checked strictly as posted.
    pub fn new() -> HtmlOptions {
        HtmlOptions {
            asker: None,
            prefix: Cow::Borrowed("tn-"),
            hidden: Vec::new(),
            action: None,
            utc_offset: Text::from("Z"),
            apply_defaults: false,
            content: ContentOptions::STRICT,
        }
    }

    /// Who asks, as the host knows it (a server name it verified, an app's name): shown above
    /// the message. Never pass the server's own text.
    pub fn with_asker(mut self, asker: impl Into<String>) -> HtmlOptions {
        self.asker = Some(asker.into());
        self
    }

    /// What every class and element id of the fragment starts with: ASCII letters, digits,
    /// `-` and `_`, starting with a letter, at most 32 bytes. Refused otherwise with
    /// [`ErrorKind::InvalidValue`] at `/classPrefix`.
    pub fn with_class_prefix(mut self, prefix: &str) -> Result<HtmlOptions, Error> {
        let well_formed = prefix.len() <= 32
            && prefix.starts_with(|c: char| c.is_ascii_alphabetic())
            && prefix
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/classPrefix",
                "a class prefix is 1 to 32 ASCII letters, digits, - or _, starting with a letter",
            ));
        }
        self.prefix = Cow::Owned(String::from(prefix));
        Ok(self)
    }

    /// A hidden field the form carries and the read-back ignores, such as a CSRF token. Its
    /// name may not be empty nor start with [`NAME_PREFIX`], nor be given twice: refused with
    /// [`ErrorKind::InvalidValue`] at `/hidden/<name>`.
    pub fn with_hidden(mut self, name: &str, value: &str) -> Result<HtmlOptions, Error> {
        let taken = name.is_empty()
            || name.starts_with(NAME_PREFIX)
            || self.hidden.iter().any(|(n, _)| n == name);
        if taken {
            let mut at = String::from("/hidden");
            pointer::push_key(&mut at, name);
            return Err(Error::new(
                ErrorKind::InvalidValue,
                at,
                alloc::format!(
                    "a hidden field needs a name of its own, not empty, not starting with \
                     {NAME_PREFIX:?} and not given twice: {}",
                    crate::error::quote(name)
                ),
            ));
        }
        self.hidden.push((String::from(name), String::from(value)));
        Ok(self)
    }

    /// Where the form posts (its `action`); by default, the page's own address.
    pub fn with_action(mut self, action: impl Into<String>) -> HtmlOptions {
        self.action = Some(action.into());
        self
    }

    /// The person's offset from UTC (`Z`, `+01:00`, `-05:30`): what a `date-time` field's local
    /// time is read back with, and what its default is shown in. Refused with
    /// [`ErrorKind::InvalidValue`] at `/utcOffset` unless it is an RFC 3339 offset.
    pub fn with_utc_offset(mut self, offset: &str) -> Result<HtmlOptions, Error> {
        if !crate::rfc3339::is_offset(offset) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/utcOffset",
                alloc::format!(
                    "a UTC offset is Z or +HH:MM or -HH:MM, not {}",
                    crate::error::quote(offset)
                ),
            ));
        }
        self.utc_offset = Text::from(if offset.eq_ignore_ascii_case("z") {
            "Z"
        } else {
            offset
        });
        Ok(self)
    }

    /// Whether an accepted post has the fields left empty filled from their `default` before it
    /// is checked, as [`SessionOptions::with_apply_defaults`](crate::SessionOptions::with_apply_defaults)
    /// does.
    pub fn with_apply_defaults(mut self, apply: bool) -> HtmlOptions {
        self.apply_defaults = apply;
        self
    }

    /// How strictly accepted content is checked.
    pub fn with_content_options(mut self, content: ContentOptions) -> HtmlOptions {
        self.content = content;
        self
    }

    /// Who asks, if the host said.
    pub fn asker(&self) -> Option<&str> {
        self.asker.as_deref()
    }

    /// The class and id prefix.
    pub fn class_prefix(&self) -> &str {
        &self.prefix
    }

    /// The host's hidden fields, in the order given.
    pub fn hidden(&self) -> &[(String, String)] {
        &self.hidden
    }

    /// Where the form posts, if not to the page's own address.
    pub fn action(&self) -> Option<&str> {
        self.action.as_deref()
    }

    /// The person's offset from UTC.
    pub fn utc_offset(&self) -> &str {
        &self.utc_offset
    }

    /// Whether defaults fill fields left empty.
    pub fn apply_defaults(&self) -> bool {
        self.apply_defaults
    }

    /// How strictly content is checked.
    pub fn content_options(&self) -> &ContentOptions {
        &self.content
    }
}
