//! The form on a web page, for WebView hosts: a request written as an HTML fragment (a form's
//! fields, or a URL's consent), and what the browser posted read back into an `Answer`.
//!
//! The core writes and reads every byte (`toolnexus_core::html`); this module converts the
//! options, the post and the error of a re-render. The same `HtmlOptions` serve the page and
//! its post, so that what is written is what is read.

use toolnexus_core as core;
use toolnexus_core::html::{self as core_html, FormData};

use crate::contract::{Answer, Request};
use crate::error::ToolnexusError;
use crate::form::Form;
use crate::limits::Limits;
use crate::shared::content_options;

/// A name and a value of an HTML form: a pair the browser posted, or a hidden field the form
/// carries.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct FormPair {
    /// The control's name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// What the browser posted, as the WebView gives it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum FormPost {
    /// The body of the POST, `application/x-www-form-urlencoded`: `&`-separated `name=value`
    /// pairs, `+` for a space and `%XX` escapes of UTF-8 bytes.
    Body {
        /// The body's bytes.
        bytes: Vec<u8>,
    },
    /// The pairs, already decoded, in the order they were posted.
    Pairs {
        /// Each name with its value; a name may come more than once (a group of checkboxes).
        pairs: Vec<FormPair>,
    },
}

/// How a form is written and read back: the same options serve the page and its post. The
/// defaults are the core's (`HtmlOptions::new()`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct HtmlOptions {
    /// Who asks, as the host knows it (a server name it verified, the app's name), shown above
    /// the message. Never the server's own text.
    #[uniffi(default = None)]
    pub asker: Option<String>,
    /// What every class and element id of the fragment starts with: 1 to 32 ASCII letters,
    /// digits, `-` or `_`, starting with a letter (`InvalidValue` at `/classPrefix` otherwise).
    #[uniffi(default = "tn-")]
    pub class_prefix: String,
    /// Hidden fields the form carries and the read-back skips, such as a CSRF token, in order.
    /// Each name must be its own, not empty and not starting with `tn-` (`InvalidValue` at
    /// `/hidden/<name>` otherwise).
    #[uniffi(default)]
    pub hidden: Vec<FormPair>,
    /// Where the form posts (its `action`); the page's own address when absent.
    #[uniffi(default = None)]
    pub action: Option<String>,
    /// The person's offset from UTC (`Z`, `+01:00`, `-05:30`): what a `date-time` field's local
    /// time is read back with and its default shown in (`InvalidValue` at `/utcOffset` unless
    /// an RFC 3339 offset).
    #[uniffi(default = "Z")]
    pub utc_offset: String,
    /// Whether an accepted post has the fields left empty filled from their `default` before
    /// it is checked.
    #[uniffi(default = false)]
    pub apply_defaults: bool,
    /// Whether accepted content may hold members the schema does not declare.
    #[uniffi(default = false)]
    pub allow_unknown: bool,
}

impl Default for HtmlOptions {
    fn default() -> HtmlOptions {
        let core = core_html::HtmlOptions::new();
        HtmlOptions {
            asker: core.asker().map(Into::into),
            class_prefix: core.class_prefix().into(),
            hidden: core
                .hidden()
                .iter()
                .map(|(name, value)| FormPair {
                    name: name.clone(),
                    value: value.clone(),
                })
                .collect(),
            action: core.action().map(Into::into),
            utc_offset: core.utc_offset().into(),
            apply_defaults: core.apply_defaults(),
            allow_unknown: false,
        }
    }
}

impl HtmlOptions {
    /// The core's options, each refused as the core refuses it, in the order of the fields.
    pub(crate) fn to_core(&self) -> Result<core_html::HtmlOptions, core::Error> {
        let mut options = core_html::HtmlOptions::new();
        if let Some(asker) = &self.asker {
            options = options.with_asker(asker.as_str());
        }
        options = options.with_class_prefix(&self.class_prefix)?;
        for pair in &self.hidden {
            options = options.with_hidden(&pair.name, &pair.value)?;
        }
        if let Some(action) = &self.action {
            options = options.with_action(action.as_str());
        }
        Ok(options
            .with_utc_offset(&self.utc_offset)?
            .with_apply_defaults(self.apply_defaults)
            .with_content_options(content_options(self.allow_unknown)))
    }

    /// The core's options for an optional argument: `None` is the defaults.
    fn or_default(options: Option<HtmlOptions>) -> Result<core_html::HtmlOptions, core::Error> {
        options.map_or_else(|| Ok(core_html::HtmlOptions::new()), |o| o.to_core())
    }
}

impl FormPost {
    /// The core's form data, read within `limits` (`None`: the defaults): the body is held to
    /// the size and member limits before it is decoded, pairs as they are counted.
    pub(crate) fn into_core(self, limits: Option<Limits>) -> Result<FormData, core::Error> {
        let limits = Limits::or_default(limits);
        match self {
            FormPost::Body { bytes } => FormData::from_urlencoded(&bytes, &limits),
            FormPost::Pairs { pairs } => {
                FormData::from_pairs(pairs.into_iter().map(|p| (p.name, p.value)), &limits)
            }
        }
    }
}

/// The HTML fragment of `request`, one `<form method="post">` a host puts in its page: a form
/// request's fields (its `data.schema`), or a URL request's consent; the request's id travels
/// in a hidden input. The same input gives the same bytes.
///
/// For the re-render after a refused accept, pass what was posted and the error
/// [`answer_from_post`] threw: the values posted are kept (never a sensitive field's), a
/// summary at the top links to each field at fault, and each field's message is beside it.
/// An `InvalidContent` error is shown by field when it is the one this post gives with these
/// options; any other error is shown at the top with its detail.
///
/// Fails as `answerFromPost` does for a request it cannot show (`MissingField` at
/// `/data/schema` for one with neither a schema nor a URL; a schema the form model cannot read,
/// under `/data/schema`), and on options the core refuses or a post it cannot read.
#[uniffi::export(default(options = None, post = None, error = None, limits = None))]
pub fn request_html(
    request: &Request,
    options: Option<HtmlOptions>,
    post: Option<FormPost>,
    error: Option<ToolnexusError>,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    let options = HtmlOptions::or_default(options)?;
    let request = request.to_core()?;
    let post = post.map(|p| p.into_core(limits)).transpose()?;
    let error = match &error {
        Some(error) => Some(core_error(error)?),
        None => None,
    };
    Ok(core_html::request_html(
        &request,
        &options,
        post.as_ref(),
        error.as_ref(),
    )?)
}

/// The HTML fragment of `form` asked with `message`: [`request_html`] for a form already
/// prepared (`session.form(id)`), without the request's id. Its post is read back by
/// [`answer_from_post`] with the request (a post without the id is taken), and its re-render is
/// made as `requestHtml`'s.
#[uniffi::export(default(options = None, post = None, error = None, limits = None))]
pub fn form_html(
    form: &Form,
    message: &str,
    options: Option<HtmlOptions>,
    post: Option<FormPost>,
    error: Option<ToolnexusError>,
    limits: Option<Limits>,
) -> Result<String, ToolnexusError> {
    let options = HtmlOptions::or_default(options)?;
    let post = post.map(|p| p.into_core(limits)).transpose()?;
    let form = form.core();
    let error = match &error {
        Some(error) => Some(core_error(error)?),
        None => None,
    };
    Ok(core_html::form_html(
        form,
        message,
        &options,
        post.as_ref(),
        error.as_ref(),
    ))
}

/// Reads what the browser posted from the page [`request_html`] wrote for `request` into its
/// `Answer`, with the same `options`.
///
/// The button pressed gives the outcome: Decline is `ok: false` with the reason `Declined`,
/// Cancel `ok: false` with `Cancelled`; neither reads a value. Accept reads each field's values
/// with the field's own parser (a `datetime-local` time with `options.utcOffset`), fills
/// defaults when `options.applyDefaults`, and validates: every value that breaks the form is one
/// violation of one `InvalidContent` error, in field order, ready for the re-render
/// (`requestHtml(request, options, post, error)`). A URL consent's Accept is `ok: true` without
/// data.
///
/// A post the page did not write is refused whatever the button: a name the form lacks
/// (`UnknownField`), a field of one value or the button posted twice (`DuplicateKey`), no button
/// (`MissingField` at `/tn-action`), a button or option value the page never wrote
/// (`InvalidValue`), the id of another request (`UnknownRequest` at `/tn-request`), Accept on a
/// URL the review rejects (`InvalidValue` at `/tn-action`); a body over `limits` or not
/// decodable is `TooLarge`, `TooManyMembers`, `InvalidValue` or `InvalidUtf8`. The host's
/// hidden fields are skipped.
#[uniffi::export(default(options = None, limits = None))]
pub fn answer_from_post(
    request: &Request,
    post: FormPost,
    options: Option<HtmlOptions>,
    limits: Option<Limits>,
) -> Result<Answer, ToolnexusError> {
    let options = HtmlOptions::or_default(options)?;
    let request = request.to_core()?;
    let post = post.into_core(limits)?;
    let answer = core_html::answer_from_post(&request, &post, &options)?;
    Ok(Answer::from_core(&answer))
}

/// The style sheet the fragment is made for, its classes starting with `class_prefix` (the
/// options' `classPrefix`): serve it as a file of the page's own origin, which keeps a
/// `Content-Security-Policy` of `style-src 'self'`. Fails as `HtmlOptions.classPrefix` does.
#[uniffi::export(default(class_prefix = "tn-"))]
pub fn html_stylesheet(class_prefix: &str) -> Result<String, ToolnexusError> {
    let options = core_html::HtmlOptions::new().with_class_prefix(class_prefix)?;
    Ok(core_html::stylesheet(&options))
}

/// The core's error for the `error` a re-render is given: the same kind, pointer and message,
/// and for `InvalidContent` each violation with its keyword read by the core's names. `Other`
/// (a kind newer than this binding) has no core kind: `InvalidValue` at `/kind`; a keyword
/// the core does not name is `InvalidValue` at `/violations/<i>/keyword`.
fn core_error(error: &ToolnexusError) -> Result<core::Error, core::Error> {
    let ToolnexusError::Failed {
        kind,
        pointer,
        detail,
        violations,
    } = error;
    let Some(core_kind) = kind.to_core() else {
        return Err(core::Error::new(
            core::ErrorKind::InvalidValue,
            "/kind",
            format!(
                "an error of a kind this binding does not know ({}) cannot be shown",
                kind.as_str()
            ),
        ));
    };
    if core_kind != core::ErrorKind::InvalidContent || violations.is_empty() {
        return Ok(core::Error::new(
            core_kind,
            pointer.as_str(),
            detail.as_str(),
        ));
    }
    let violations = violations
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let keyword = core::Keyword::from_name(&v.keyword).ok_or_else(|| {
                core::Error::new(
                    core::ErrorKind::InvalidValue,
                    format!("/violations/{i}/keyword"),
                    format!("{:?} is not a keyword of a violation", v.keyword),
                )
            })?;
            Ok(core::Violation::new(
                v.pointer.as_str(),
                keyword,
                v.message.as_str(),
            ))
        })
        .collect::<Result<Vec<_>, core::Error>>()?;
    Ok(core::Error::invalid_content(pointer.as_str(), violations))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorKind, Violation};

    fn request() -> Request {
        Request {
            id: "r1".into(),
            kind: "input".into(),
            prompt: "How many?".into(),
            url: None,
            data: Some(
                r#"{"schema":{"type":"object","properties":{"n":{"type":"integer","title":"Quantity","minimum":1}},"required":["n"]}}"#
                    .into(),
            ),
            expires_at: None,
        }
    }

    fn body(text: &str) -> FormPost {
        FormPost::Body {
            bytes: text.as_bytes().to_vec(),
        }
    }

    /// The defaults the generated Kotlin and Swift constructors use are written as literals;
    /// they must be the core's.
    #[test]
    fn declared_defaults_are_the_cores() {
        let declared = HtmlOptions {
            asker: None,
            class_prefix: "tn-".into(),
            hidden: Vec::new(),
            action: None,
            utc_offset: "Z".into(),
            apply_defaults: false,
            allow_unknown: false,
        };
        assert_eq!(declared, HtmlOptions::default());
        assert_eq!(declared.to_core().unwrap(), core_html::HtmlOptions::new());
    }

    #[test]
    fn options_are_refused_as_the_core_refuses_them() {
        let cases = [
            (
                HtmlOptions {
                    class_prefix: "9x".into(),
                    ..HtmlOptions::default()
                },
                "/classPrefix",
            ),
            (
                HtmlOptions {
                    hidden: vec![FormPair {
                        name: "tn-x".into(),
                        value: "1".into(),
                    }],
                    ..HtmlOptions::default()
                },
                "/hidden/tn-x",
            ),
            (
                HtmlOptions {
                    utc_offset: "+1".into(),
                    ..HtmlOptions::default()
                },
                "/utcOffset",
            ),
        ];
        for (options, at) in cases {
            let Err(ToolnexusError::Failed { kind, pointer, .. }) =
                request_html(&request(), Some(options), None, None, None)
            else {
                panic!("options refused by the core were taken ({at})");
            };
            assert_eq!((kind, pointer.as_str()), (ErrorKind::InvalidValue, at));
        }
    }

    /// The re-render with the binding's error is the core's re-render with its own.
    #[test]
    fn a_re_render_is_the_cores() {
        let core_request = request().to_core().unwrap();
        let options = core_html::HtmlOptions::new();
        let post = FormData::from_urlencoded(
            b"tn-request=r1&tn-0=0&tn-action=accept",
            &core::Limits::DEFAULT,
        )
        .unwrap();
        let theirs = core_html::answer_from_post(&core_request, &post, &options).unwrap_err();
        let want =
            core_html::request_html(&core_request, &options, Some(&post), Some(&theirs)).unwrap();

        let post = body("tn-request=r1&tn-0=0&tn-action=accept");
        let mine = answer_from_post(&request(), post.clone(), None, None).unwrap_err();
        assert_eq!(mine, ToolnexusError::from(theirs));
        let page = request_html(
            &request(),
            None,
            Some(post.clone()),
            Some(mine.clone()),
            None,
        );
        assert_eq!(page.unwrap(), want);

        // Any error the app holds is shown by field, whoever made it; an unknown keyword is
        // refused with its place.
        let made = |keyword: &str| ToolnexusError::Failed {
            kind: ErrorKind::InvalidContent,
            pointer: String::new(),
            detail: "the content breaks the form".into(),
            violations: vec![Violation {
                pointer: "/n".into(),
                keyword: keyword.into(),
                message: "Quantity must be at most 9".into(),
            }],
        };
        let page = request_html(
            &request(),
            None,
            Some(post.clone()),
            Some(made("maximum")),
            None,
        )
        .unwrap();
        assert!(
            page.contains(
                r#"<p class="tn-error" id="tn-f0-error"><bdi>Quantity must be at most 9</bdi></p>"#
            ),
            "{page}"
        );
        let Err(ToolnexusError::Failed { kind, pointer, .. }) =
            request_html(&request(), None, Some(post), Some(made("maxim")), None)
        else {
            panic!("a keyword the core does not name was taken");
        };
        assert_eq!(
            (kind, pointer.as_str()),
            (ErrorKind::InvalidValue, "/violations/0/keyword")
        );
    }

    #[test]
    fn a_kind_newer_than_the_binding_is_refused() {
        let newer = ToolnexusError::Failed {
            kind: ErrorKind::Other,
            pointer: String::new(),
            detail: "?".into(),
            violations: Vec::new(),
        };
        let Err(ToolnexusError::Failed { kind, pointer, .. }) =
            request_html(&request(), None, None, Some(newer), None)
        else {
            panic!("an error of no core kind was shown");
        };
        assert_eq!((kind, pointer.as_str()), (ErrorKind::InvalidValue, "/kind"));
    }

    #[test]
    fn pairs_and_body_read_alike() {
        let pairs = FormPost::Pairs {
            pairs: [
                ("tn-request", "r1"),
                ("tn-0", " 3"),
                ("tn-action", "accept"),
            ]
            .into_iter()
            .map(|(name, value)| FormPair {
                name: name.into(),
                value: value.into(),
            })
            .collect(),
        };
        let from_pairs = answer_from_post(&request(), pairs, None, None).unwrap();
        let from_body = answer_from_post(
            &request(),
            body("tn-request=r1&tn-0=+3&tn-action=accept"),
            None,
            None,
        )
        .unwrap();
        assert_eq!(from_pairs, from_body);
        assert_eq!(from_body.data.as_deref(), Some(r#"{"n":3}"#));
    }

    #[test]
    fn the_stylesheet_takes_the_prefix() {
        assert!(html_stylesheet("my-").unwrap().contains(".my-form{"));
        assert_eq!(
            html_stylesheet("tn-").unwrap(),
            core_html::stylesheet(&core_html::HtmlOptions::new())
        );
        assert!(html_stylesheet("").is_err());
    }
}
