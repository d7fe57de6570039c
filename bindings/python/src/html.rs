//! The form on a web page: the arguments of `Request.to_html`, `Request.answer_from_form_data`,
//! `Form.to_html` and `Form.read_form_data` translated for the core's `html` module, and
//! `html_stylesheet`.
//!
//! Every decision is the core's: this reads the options (`HtmlOptions`), the browser's post
//! (the body through `FormData::from_urlencoded`, pairs through `FormData::from_pairs`, both
//! within the call's `limits`, `Limits::DEFAULT` unless given) and an error given back for a
//! re-render (the `toolnexus.Error` a reading raised, made the core's `Error` again), then
//! calls the core with the interpreter released. Anything of the wrong Python type is a
//! `TypeError` saying what was expected.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyMapping, PyString, PyTuple, PyType};
use smallvec::SmallVec;
use toolnexus_core::content::ContentOptions;
use toolnexus_core::form::Form;
use toolnexus_core::html::{self, FormData, HtmlOptions, Submission};
use toolnexus_core::json::pointer;
use toolnexus_core::mcp::Action;
use toolnexus_core::{Answer, Error, ErrorKind, Limits, Request, Violation};

use crate::convert::map_to_python;
use crate::errors::{Fault, OrRaise, named};
use crate::text::{not_utf8, read_str, str_of};
use crate::violation::PyViolation;

/// The keyword arguments that make the `HtmlOptions` of a call, as given (`None`: the core's
/// default).
pub(crate) struct HtmlArgs<'a, 'py> {
    pub(crate) asker: Option<&'a Bound<'py, PyAny>>,
    pub(crate) class_prefix: Option<&'a Bound<'py, PyAny>>,
    pub(crate) hidden: Option<&'a Bound<'py, PyAny>>,
    pub(crate) action: Option<&'a Bound<'py, PyAny>>,
    pub(crate) utc_offset: Option<&'a Bound<'py, PyAny>>,
    pub(crate) apply_defaults: bool,
    pub(crate) allow_unknown: bool,
    /// What the post is read within.
    pub(crate) limits: Limits,
}

impl HtmlArgs<'_, '_> {
    /// The options of a call that only reads a post: what the reading uses.
    pub(crate) fn for_reading<'a, 'py>(
        hidden: Option<&'a Bound<'py, PyAny>>,
        utc_offset: Option<&'a Bound<'py, PyAny>>,
        apply_defaults: bool,
        allow_unknown: bool,
        limits: Limits,
    ) -> HtmlArgs<'a, 'py> {
        HtmlArgs {
            asker: None,
            class_prefix: None,
            hidden,
            action: None,
            utc_offset,
            apply_defaults,
            allow_unknown,
            limits,
        }
    }

    /// The core's options, each given one set in the order of the signature; a value the core
    /// refuses raises its typed error. `names_only` lets a hidden field be given by its name
    /// alone (reading a post needs no value).
    fn options(&self, names_only: bool) -> Result<HtmlOptions, Fault> {
        let mut options = HtmlOptions::new();
        if let Some(asker) = self.asker {
            options = options.with_asker(read_str(asker, "asker")?);
        }
        if let Some(prefix) = self.class_prefix {
            options = options.with_class_prefix(str_of(prefix, "class_prefix")?)?;
        }
        if let Some(hidden) = self.hidden {
            for (name, value) in hidden_fields(hidden, names_only)? {
                options = options.with_hidden(&name, &value)?;
            }
        }
        if let Some(action) = self.action {
            options = options.with_action(read_str(action, "action")?);
        }
        if let Some(offset) = self.utc_offset {
            options = options.with_utc_offset(str_of(offset, "utc_offset")?)?;
        }
        Ok(options
            .with_apply_defaults(self.apply_defaults)
            .with_content_options(ContentOptions::STRICT.allow_unknown(self.allow_unknown)))
    }
}

/// The host's hidden fields: an iterable of `(name, value)` pairs or a mapping; with
/// `names_only`, an item may also be a name alone (its value then is `""`).
fn hidden_fields(
    hidden: &Bound<'_, PyAny>,
    names_only: bool,
) -> Result<Vec<(String, String)>, Fault> {
    let what = if names_only {
        "hidden is an iterable of names or (name, value) pairs, or a mapping"
    } else {
        "hidden is an iterable of (name, value) pairs, or a mapping"
    };
    if is_text(hidden) {
        return Err(type_error(format!("{what}, not {}", type_name(hidden)?)));
    }
    let items = match hidden.cast::<PyMapping>() {
        Ok(mapping) => mapping.items()?.into_any(),
        Err(_) => hidden.clone(),
    };
    let Ok(iterator) = items.try_iter() else {
        return Err(type_error(format!("{what}, not {}", type_name(hidden)?)));
    };
    let mut fields = Vec::new();
    for item in iterator {
        let item = item?;
        if names_only && item.is_instance_of::<PyString>() {
            fields.push((read_str(&item, "a hidden field's name")?, String::new()));
            continue;
        }
        let Some((name, value)) = pair(&item)? else {
            return Err(type_error(format!(
                "each hidden field is a (name, value) pair{}, not {}",
                if names_only { " or a name" } else { "" },
                type_name(&item)?
            )));
        };
        let name = read_str(&name, "a hidden field's name")?;
        let value = read_str(&value, "a hidden field's value")?;
        fields.push((name, value));
    }
    Ok(fields)
}

/// The two items of a `tuple` or `list` of length 2; `None` for anything else.
fn pair<'py>(item: &Bound<'py, PyAny>) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    if let Ok(tuple) = item.cast::<PyTuple>() {
        if tuple.len() == 2 {
            return Ok(Some((tuple.get_item(0)?, tuple.get_item(1)?)));
        }
    } else if let Ok(list) = item.cast::<PyList>()
        && list.len() == 2
    {
        return Ok(Some((list.get_item(0)?, list.get_item(1)?)));
    }
    Ok(None)
}

/// Text that must not be taken for an iterable of items: `str`, `bytes`, `bytearray`.
fn is_text(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
        || value.is_instance_of::<PyByteArray>()
}

fn type_name(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.get_type().name()?.to_cow()?.into_owned())
}

fn type_error(message: String) -> Fault {
    Fault::Python(PyTypeError::new_err(message))
}

/// A body at least this long is decoded with the interpreter released.
const DETACH_FROM_BYTES: usize = 64 * 1024;

/// What the browser posted: the `application/x-www-form-urlencoded` body as `bytes` (or
/// `bytearray`) or `str` (its UTF-8), or an iterable of `(name, value)` pairs of `str`, as a
/// web framework decoded them; read within `limits`.
pub(crate) fn read_post(data: &Bound<'_, PyAny>, limits: Limits) -> Result<FormData, Fault> {
    let py = data.py();
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return from_body(py, bytes.as_bytes(), &limits);
    }
    if let Ok(bytes) = data.cast::<PyByteArray>() {
        // Copied, since a bytearray can change.
        return from_body(py, &bytes.to_vec(), &limits);
    }
    if let Ok(text) = data.cast::<PyString>() {
        let body = text.to_str().map_err(|e| not_utf8(py, e, "form data"))?;
        return from_body(py, body.as_bytes(), &limits);
    }
    const WHAT: &str = "form_data is the body (bytes or str) or an iterable of (name, value) pairs";
    // A list or tuple is read by index; any other iterable through its iterator, except a
    // mapping, which may keep one value per name.
    if let Ok(list) = data.cast::<PyList>() {
        let mut post = FormData::with_capacity(list.len());
        for item in list.iter() {
            push_pair(&mut post, &item, &limits)?;
        }
        return Ok(post);
    }
    if let Ok(tuple) = data.cast::<PyTuple>() {
        let mut post = FormData::with_capacity(tuple.len());
        for item in tuple.iter_borrowed() {
            push_pair(&mut post, &item, &limits)?;
        }
        return Ok(post);
    }
    if data.cast::<PyMapping>().is_ok() {
        return Err(type_error(format!(
            "{WHAT}, not a mapping ({}), which may keep one value per name: pass its pairs, \
             such as Starlette's form.multi_items()",
            type_name(data)?
        )));
    }
    let Ok(iterator) = data.try_iter() else {
        return Err(type_error(format!("{WHAT}, not {}", type_name(data)?)));
    };
    // Read one item at a time, so that a post over the limits stops there.
    let mut post = FormData::with_capacity(0);
    for item in iterator {
        push_pair(&mut post, &item?, &limits)?;
    }
    Ok(post)
}

fn from_body(py: Python<'_>, body: &[u8], limits: &Limits) -> Result<FormData, Fault> {
    let read = if body.len() >= DETACH_FROM_BYTES {
        py.detach(|| FormData::from_urlencoded(body, limits))
    } else {
        FormData::from_urlencoded(body, limits)
    };
    Ok(read?)
}

/// One posted `(name, value)` pair, both `str`, added to `post` within `limits`: read in
/// place, copied once, into the post's one buffer.
fn push_pair(post: &mut FormData, item: &Bound<'_, PyAny>, limits: &Limits) -> Result<(), Fault> {
    // A tuple's items are read without taking a reference; a list of two is taken too.
    // An exact type is checked in place; a subclass through the interpreter.
    if let Ok(tuple) = item
        .cast_exact::<PyTuple>()
        .or_else(|_| item.cast::<PyTuple>())
        && tuple.len() == 2
    {
        let (name, value) = (tuple.get_borrowed_item(0)?, tuple.get_borrowed_item(1)?);
        return push_items(post, &name, &value, limits);
    }
    match pair(item)? {
        Some((name, value)) => push_items(post, &name, &value, limits),
        None => Err(type_error(format!(
            "each item of form_data is a (name, value) pair, not {}",
            type_name(item)?
        ))),
    }
}

/// The two items of a posted pair, each a `str`, added to `post`.
fn push_items(
    post: &mut FormData,
    name: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
    limits: &Limits,
) -> Result<(), Fault> {
    let py = name.py();
    let Some(name) = text_of(name) else {
        return Err(type_error(format!(
            "a name in form_data must be a str, not {}",
            type_name(name)?
        )));
    };
    let name = name
        .to_str()
        .map_err(|e| not_utf8(py, e, "a name in form_data"))?;
    let Some(value) = text_of(value) else {
        return Err(type_error(format!(
            "the value of {name:?} in form_data must be a str, not {} (a file upload has no \
             place in an elicitation form)",
            type_name(value)?
        )));
    };
    let value = value
        .to_str()
        .map_err(|e| not_utf8(py, e, "a value in form_data").within(&pointer::key(name)))?;
    Ok(post.push_pair(name, value, limits)?)
}

/// `item` as a `str`: an exact `str` checked in place, a subclass through the interpreter.
fn text_of<'a, 'py>(item: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyString>> {
    item.cast_exact::<PyString>()
        .or_else(|_| item.cast::<PyString>())
        .ok()
}

/// `toolnexus.Error`, the base class of the package's exceptions.
static ERROR_CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The core's error again, from the `toolnexus.Error` a reading raised: its kind, pointer and
/// message, and for `invalid_content` its violations (by their pointer, keyword and message).
pub(crate) fn read_error(error: &Bound<'_, PyAny>) -> Result<Error, Fault> {
    let py = error.py();
    let class = ERROR_CLASS.import(py, "toolnexus._errors", "Error")?;
    if !error.is_instance(class)? {
        return Err(type_error(format!(
            "error is the toolnexus.Error that reading the post raised, not {}",
            type_name(error)?
        )));
    }
    let kind = read_str(&error.getattr("kind")?, "error.kind")?;
    let kind = named(py, &kind, ErrorKind::from_name, "a kind of error")?;
    let at = read_str(&error.getattr("pointer")?, "error.pointer")?;
    let message = read_str(&error.getattr("message")?, "error.message")?;
    let given = error.getattr("violations")?;
    let Ok(items) = given.try_iter() else {
        return Err(type_error(format!(
            "error.violations is a list of toolnexus.Violation, not {}",
            type_name(&given)?
        )));
    };
    let mut violations: Vec<Violation> = Vec::new();
    for item in items {
        let item = item?;
        let Ok(violation) = item.cast::<PyViolation>() else {
            return Err(type_error(format!(
                "error.violations holds toolnexus.Violation objects, not {}",
                type_name(&item)?
            )));
        };
        let Some(core) = violation.get().to_core() else {
            return Err(Fault::Invalid(Error::new(
                ErrorKind::InvalidValue,
                format!("/violations/{}/keyword", violations.len()),
                "a violation's keyword must be one the core names, such as required or minimum",
            )));
        };
        violations.push(core);
    }
    Ok(
        if kind == ErrorKind::InvalidContent && !violations.is_empty() {
            Error::invalid_content(at, violations)
        } else {
            Error::new(kind, at, message)
        },
    )
}

/// The post and the error of a re-render, each read when given.
fn post_and_error(
    form_data: Option<&Bound<'_, PyAny>>,
    error: Option<&Bound<'_, PyAny>>,
    limits: Limits,
) -> Result<(Option<FormData>, Option<Error>), Fault> {
    let post = form_data.map(|d| read_post(d, limits)).transpose()?;
    let error = error.map(read_error).transpose()?;
    Ok((post, error))
}

/// `request_html`: the request's form (or URL consent) as an HTML fragment; with `form`, the
/// request's form read already.
pub(crate) fn request_to_html(
    py: Python<'_>,
    request: &Request,
    form: Option<&Form>,
    form_data: Option<&Bound<'_, PyAny>>,
    error: Option<&Bound<'_, PyAny>>,
    args: &HtmlArgs<'_, '_>,
) -> PyResult<String> {
    let read = || -> Result<_, Fault> {
        let options = args.options(false)?;
        let (post, error) = post_and_error(form_data, error, args.limits)?;
        Ok((options, post, error))
    };
    let (options, post, error) = read().or_raise(py)?;
    py.detach(|| match form {
        Some(form) => Ok(html::request_form_html(
            request,
            form,
            &options,
            post.as_ref(),
            error.as_ref(),
        )),
        None => html::request_html(request, &options, post.as_ref(), error.as_ref()),
    })
    .or_raise(py)
}

/// `answer_from_post`: the request's `Answer` from what the browser posted.
pub(crate) fn request_answer(
    py: Python<'_>,
    request: &Request,
    form: Option<&Form>,
    data: &Bound<'_, PyAny>,
    args: &HtmlArgs<'_, '_>,
) -> PyResult<Answer> {
    let options = args.options(true).or_raise(py)?;
    // A short post of plain pairs is read where its strings are, with the interpreter held
    // throughout; any other is copied first, as it may be read with the interpreter released.
    if let Some(tuples) = plain_pairs(data) {
        // The strings are borrowed from their tuples, which are held: no reference to take
        // and give back per string.
        let mut strings: SmallVec<[_; SHORT_POST]> = SmallVec::new();
        for tuple in &tuples {
            match (string_at(tuple, 0), string_at(tuple, 1)) {
                (Some(name), Some(value)) => strings.push((name, value)),
                _ => break,
            }
        }
        let mut borrowed: SmallVec<[(&str, &str); SHORT_POST]> = SmallVec::new();
        for (name, value) in &strings {
            match (name.to_str(), value.to_str()) {
                (Ok(name), Ok(value)) => borrowed.push((name, value)),
                _ => break,
            }
        }
        if borrowed.len() == tuples.len() {
            let post = html::PostPairs::new(&borrowed, &args.limits).or_raise(py)?;
            return match form {
                Some(form) => html::answer_from_form_pairs(request, form, post, &options),
                None => html::answer_from_pairs(request, post, &options),
            }
            .or_raise(py);
        }
    }
    let post = read_post(data, args.limits).or_raise(py)?;
    let answer = || match form {
        Some(form) => html::answer_from_form_post(request, form, &post, &options),
        None => html::answer_from_post(request, &post, &options),
    };
    detached_if_large(py, post.pairs().len(), answer).or_raise(py)
}

/// The items of `data` when it is a list or tuple of fewer than [`DETACH_FROM_ITEMS`] items,
/// each an exact `tuple` of two items: held, so that their strings can be borrowed
/// ([`string_at`]). `None` for anything else, which [`read_post`] reads, or refuses with its
/// errors.
fn plain_pairs<'py>(
    data: &Bound<'py, PyAny>,
) -> Option<SmallVec<[Bound<'py, PyTuple>; SHORT_POST]>> {
    let pair = |item: Bound<'py, PyAny>| {
        let tuple = item.cast_into_exact::<PyTuple>().ok()?;
        (tuple.len() == 2).then_some(tuple)
    };
    let mut pairs = SmallVec::new();
    if let Ok(list) = data.cast_exact::<PyList>() {
        if list.len() >= DETACH_FROM_ITEMS {
            return None;
        }
        pairs.reserve_exact(list.len());
        for item in list.iter() {
            pairs.push(pair(item)?);
        }
    } else {
        let tuple = data.cast_exact::<PyTuple>().ok()?;
        if tuple.len() >= DETACH_FROM_ITEMS {
            return None;
        }
        pairs.reserve_exact(tuple.len());
        for item in tuple.iter() {
            pairs.push(pair(item)?);
        }
    }
    Some(pairs)
}

/// The most pairs a post's vectors hold on the stack: a form of a dozen fields, its request
/// and its button.
const SHORT_POST: usize = 16;

/// Item `index` of `tuple` when it is an exact `str`, borrowed: a tuple cannot change, so its
/// items live as long as it is held.
fn string_at<'a, 'py>(
    tuple: &'a Bound<'py, PyTuple>,
    index: usize,
) -> Option<Borrowed<'a, 'py, PyString>> {
    tuple
        .get_borrowed_item(index)
        .ok()?
        .cast_exact::<PyString>()
        .ok()
}

/// The most pairs (or fields) read or written with the interpreter held: below this, releasing
/// it costs more than the work it would let other threads do beside.
const DETACH_FROM_ITEMS: usize = 64;

/// `work` on `items` pairs or fields, with the interpreter released when there are enough of
/// them for that to pay.
fn detached_if_large<T: Send>(py: Python<'_>, items: usize, work: impl FnOnce() -> T + Send) -> T {
    if items >= DETACH_FROM_ITEMS {
        py.detach(work)
    } else {
        work()
    }
}

/// `form_html`: the form, asked with `message` (none: `""`), as an HTML fragment.
pub(crate) fn form_to_html(
    py: Python<'_>,
    form: &Form,
    message: Option<&Bound<'_, PyAny>>,
    form_data: Option<&Bound<'_, PyAny>>,
    error: Option<&Bound<'_, PyAny>>,
    args: &HtmlArgs<'_, '_>,
) -> PyResult<String> {
    let read = || -> Result<_, Fault> {
        let message = match message {
            Some(message) => read_str(message, "message")?,
            None => String::new(),
        };
        let options = args.options(false)?;
        let (post, error) = post_and_error(form_data, error, args.limits)?;
        Ok((message, options, post, error))
    };
    let (message, options, post, error) = read().or_raise(py)?;
    Ok(py.detach(|| html::form_html(form, &message, &options, post.as_ref(), error.as_ref())))
}

/// `read_form_post`: what the person did, as `(action, content)`: `("accept", {...})`,
/// `("decline", None)` or `("cancel", None)`.
pub(crate) fn form_submission<'py>(
    py: Python<'py>,
    form: &Form,
    data: &Bound<'py, PyAny>,
    args: &HtmlArgs<'_, 'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let read = || -> Result<_, Fault> { Ok((args.options(true)?, read_post(data, args.limits)?)) };
    let (options, post) = read().or_raise(py)?;
    let submission = detached_if_large(py, post.pairs().len(), || {
        html::read_form_post(form, &post, &options)
    })
    .or_raise(py)?;
    let (action, content) = match &submission {
        Submission::Accept(content) => (Action::Accept, map_to_python(py, content)?.into_any()),
        Submission::Decline => (Action::Decline, py.None().into_bound(py)),
        Submission::Cancel => (Action::Cancel, py.None().into_bound(py)),
    };
    let action = PyString::new(py, action.as_str()).into_any();
    PyTuple::new(py, [action, content])
}

/// The style sheet the fragment is made for, its classes starting with `class_prefix` (by
/// default the core's, `tn-`): serve it as a file of the page's own origin.
#[pyfunction]
#[pyo3(signature = (class_prefix = None), text_signature = "(class_prefix='tn-')")]
pub(crate) fn html_stylesheet(
    py: Python<'_>,
    class_prefix: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut options = HtmlOptions::new();
    if let Some(prefix) = class_prefix {
        let prefix = read_str(prefix, "class_prefix").or_raise(py)?;
        options = options.with_class_prefix(&prefix).or_raise(py)?;
    }
    Ok(html::stylesheet(&options))
}
