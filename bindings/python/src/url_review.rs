//! URL mode: `review_url`, with `UrlReview` and `UrlFinding`, says what to show a person
//! before they consent to open a link.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use toolnexus_core::url_review::{self, FindingCode, UrlReview};

use crate::classes::hash_json;
use crate::convert::to_python;
use crate::errors::{OrRaise, named};
use crate::plain::plain_data;
use crate::repr::Repr;
use crate::text::read_str;

/// Reviews `url` before consent: the URL as it will be opened, its scheme, its host as a
/// person reads it and as it goes on the wire, its port, and what to warn about.
///
/// Never raises for a bad URL: an unusable one is a review with an `invalid_url` finding and
/// the verdict `"reject"`. Only an argument that is not a `str` (`TypeError`) or holds a lone
/// surrogate (`LoneSurrogateError`) raises.
#[pyfunction]
pub(crate) fn review_url(url: &Bound<'_, PyAny>) -> PyResult<PyUrlReview> {
    let url = read_str(url, "url").or_raise(url.py())?;
    Ok(PyUrlReview(url_review::review_url(&url)))
}

/// What a client shows a person before they consent to open a URL; made by `review_url`.
///
/// `verdict` is `"ok"` (nothing found), `"warn"` (show the findings with the URL) or
/// `"reject"` (do not offer to open it).
#[pyclass(frozen, eq, module = "toolnexus", name = "UrlReview")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyUrlReview(UrlReview);

#[pymethods]
impl PyUrlReview {
    /// The URL as it will be opened (the WHATWG-serialised `href`), or the text as given when
    /// it is not a valid URL.
    #[getter]
    fn url(&self) -> &str {
        self.0.url()
    }

    /// The scheme, in lower case; `None` for an invalid URL.
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.0.scheme()
    }

    /// The host as a person reads it (internationalised labels in Unicode, an IPv6 address in
    /// brackets); `None` for an invalid URL and for a scheme that is not allowed.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.0.host()
    }

    /// The host as it goes on the wire, internationalised labels in punycode.
    #[getter]
    fn host_ascii(&self) -> Option<&str> {
        self.0.host_ascii()
    }

    /// The port the URL connects to: the one written, or the scheme's default.
    #[getter]
    fn port(&self) -> Option<u16> {
        self.0.port()
    }

    /// `"reject"` when any finding rejects, else `"warn"` when there is any finding, else
    /// `"ok"`.
    #[getter]
    fn verdict(&self) -> &'static str {
        self.0.verdict().as_str()
    }

    /// What the review found, in the core's order of codes.
    #[getter]
    fn findings(&self) -> Vec<PyUrlFinding> {
        self.0
            .findings()
            .iter()
            .map(|f| PyUrlFinding::of(f.code(), f.message().to_owned()))
            .collect()
    }

    /// Whether a finding of `code` was reported (`False` for a code the core does not have).
    fn has(&self, code: &str) -> bool {
        FindingCode::from_name(code).is_some_and(|code| self.0.has(code))
    }

    /// The review as the core's JSON object: `{"url", "scheme"?, "host"?, "hostAscii"?,
    /// "port"?, "verdict", "findings": [{"code", "severity", "message"}]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.0.to_value())
    }

    /// [`to_dict`] as compact JSON: the exact text of the core.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    fn __hash__(&self) -> u64 {
        hash_json(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let codes: Vec<&str> = self
            .0
            .findings()
            .iter()
            .map(|f| f.code().as_str())
            .collect();
        Ok(Repr::new("UrlReview")
            .field("url", self.0.url(), py)?
            .field("verdict", self.0.verdict().as_str(), py)?
            .field("findings", codes, py)?
            .finish())
    }
}

/// One thing a review found: a stable `code` (`"invalid_url"`, `"scheme_not_allowed"`,
/// `"userinfo"`, `"not_https"`, `"ip_literal"`, `"local_host"`, `"punycode_host"`,
/// `"mixed_script_host"`), its `severity` (`"warn"` or `"reject"`, fixed per code) and a
/// `message` for people, which may change: match on the code.
#[pyclass(frozen, eq, hash, get_all, module = "toolnexus", name = "UrlFinding")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyUrlFinding {
    /// What the finding is about (see `CODES`).
    code: &'static str,
    /// How serious it is: `"warn"` (the person may still consent) or `"reject"`.
    severity: &'static str,
    /// What was found, in words a person can read.
    message: String,
}

impl PyUrlFinding {
    fn of(code: FindingCode, message: String) -> PyUrlFinding {
        PyUrlFinding {
            code: code.as_str(),
            severity: code.severity().as_str(),
            message,
        }
    }
}

plain_data! {
    PyUrlFinding as "UrlFinding",
    fields = [code, severity, message],
    args = [code, message];

    /// A finding of `code` (one the core reports, see `CODES`); its severity follows from it.
    #[new]
    fn new(py: Python<'_>, code: &str, message: String) -> PyResult<PyUrlFinding> {
        let code = named(py, code, FindingCode::from_name, "a code of a URL finding")?;
        Ok(PyUrlFinding::of(code, message))
    }

    /// The code of every finding, in the order a review reports them.
    #[classattr]
    #[pyo3(name = "CODES")]
    fn codes(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, FindingCode::ALL.map(FindingCode::as_str))
    }
}
