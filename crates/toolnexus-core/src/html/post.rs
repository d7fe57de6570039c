//! The browser's post read back: the pairs of a form submission, then accept (with content read
//! by each field's own parser and validated), decline or cancel.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ACTION_NAME, HtmlOptions, NAME_PREFIX, REQUEST_NAME};
use crate::contract::{Answer, Reason, Request};
use crate::error::{Error, ErrorKind, Keyword, Violation, quote};
use crate::form::{Form, FormField, Widget, read_field_input};
use crate::json::{Limits, Map, Value, pointer};
use crate::url_review::{Verdict, review_url};

/// The name/value pairs of a form submission, in the order they were posted.
///
/// Read from the `application/x-www-form-urlencoded` body a browser sends
/// ([`FormData::from_urlencoded`]), or from the pairs a web framework already decoded
/// ([`FormData::from_pairs`]). Both keep within [`Limits`]: the body (or all names and values
/// together) at most [`max_input_bytes`](Limits::max_input_bytes), at most
/// [`max_object_members`](Limits::max_object_members) pairs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FormData {
    /// Every name and value, one after the other, in one buffer: a post of any size is two
    /// allocations, not two a pair.
    text: String,
    pairs: Vec<Span>,
}

/// Where one pair is in [`FormData::text`]: its name is `name..value`, its value `value..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    name: usize,
    value: usize,
    end: usize,
}

impl FormData {
    /// Decodes an `application/x-www-form-urlencoded` body: `&`-separated `name=value` pairs,
    /// `+` for a space and `%XX` escapes of UTF-8 bytes. Empty pieces (`a=1&&b=2`) are
    /// skipped, as browsers never write them.
    ///
    /// Errors, each at the pointer `/<name>` of the pair at fault (`""` for the whole body):
    /// [`ErrorKind::TooLarge`] for a body over the limit, [`ErrorKind::TooManyMembers`] for
    /// too many pairs, [`ErrorKind::InvalidValue`] for a `%` not followed by two hex digits,
    /// [`ErrorKind::InvalidUtf8`] for bytes that do not decode as UTF-8.
    pub fn from_urlencoded(body: &[u8], limits: &Limits) -> Result<FormData, Error> {
        if body.len() > limits.max_input_bytes() {
            return Err(too_large(body.len(), limits));
        }
        let mut data = FormData {
            text: String::with_capacity(body.len()),
            pairs: Vec::new(),
        };
        let mut scratch = Vec::new();
        for piece in body.split(|&b| b == b'&').filter(|p| !p.is_empty()) {
            if data.pairs.len() == limits.max_object_members() {
                return Err(too_many(limits));
            }
            let (name, value) = match piece.iter().position(|&b| b == b'=') {
                Some(at) => (
                    piece.get(..at).unwrap_or_default(),
                    piece.get(at + 1..).unwrap_or_default(),
                ),
                None => (piece, &[][..]),
            };
            let start = data.text.len();
            decode(name, &mut scratch, &mut data.text)
                .map_err(|(kind, message)| Error::new(kind, "", message))?;
            let middle = data.text.len();
            if let Err((kind, message)) = decode(value, &mut scratch, &mut data.text) {
                let name = data.text.get(start..middle).unwrap_or_default();
                return Err(Error::new(kind, pointer::key(name), message));
            }
            data.pairs.push(Span {
                name: start,
                value: middle,
                end: data.text.len(),
            });
        }
        Ok(data)
    }

    /// Takes pairs a web framework decoded (Starlette's `multi_items()`, Django's `lists()`
    /// flattened), in the order posted, within the same limits as
    /// [`from_urlencoded`](FormData::from_urlencoded): the names and values together, with
    /// the `=` and `&` a body would put between them, at most
    /// [`max_input_bytes`](Limits::max_input_bytes).
    pub fn from_pairs<I, N, V>(pairs: I, limits: &Limits) -> Result<FormData, Error>
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<str>,
        V: AsRef<str>,
    {
        let pairs = pairs.into_iter();
        let mut data = FormData::with_capacity(pairs.size_hint().0);
        for (name, value) in pairs {
            data.push_pair(name.as_ref(), value.as_ref(), limits)?;
        }
        Ok(data)
    }

    /// An empty post with room for `pairs` pairs of a typical size (at most
    /// [`Limits::DEFAULT`]'s number of members), to be filled by
    /// [`push_pair`](FormData::push_pair).
    pub fn with_capacity(pairs: usize) -> FormData {
        let pairs = pairs.min(Limits::DEFAULT.max_object_members());
        // Room for short names and values: a typical post grows no buffer.
        FormData {
            text: String::with_capacity(pairs.saturating_mul(24)),
            pairs: Vec::with_capacity(pairs),
        }
    }

    /// Adds one decoded pair after the others, as [`from_pairs`](FormData::from_pairs) does:
    /// for a host that reads pairs from its own containers one at a time. Refused, leaving
    /// the post as it was: a pair beyond [`max_object_members`](Limits::max_object_members)
    /// ([`ErrorKind::TooManyMembers`]) or one that takes the post over
    /// [`max_input_bytes`](Limits::max_input_bytes) ([`ErrorKind::TooLarge`]), counted with
    /// the `=` and `&` a body would put between names and values.
    pub fn push_pair(&mut self, name: &str, value: &str, limits: &Limits) -> Result<(), Error> {
        if self.pairs.len() >= limits.max_object_members() {
            return Err(too_many(limits));
        }
        // A body of n pairs holds n `=` and n - 1 `&`.
        let bytes = self
            .text
            .len()
            .saturating_add(name.len())
            .saturating_add(value.len())
            .saturating_add(self.pairs.len().saturating_mul(2))
            .saturating_add(1);
        if bytes > limits.max_input_bytes() {
            return Err(too_large(bytes, limits));
        }
        self.push(name, value);
        Ok(())
    }

    fn push(&mut self, name: &str, value: &str) {
        let start = self.text.len();
        self.text.push_str(name);
        let middle = self.text.len();
        self.text.push_str(value);
        self.pairs.push(Span {
            name: start,
            value: middle,
            end: self.text.len(),
        });
    }

    /// How many pairs were posted.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether nothing was posted.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The pairs, in the order posted.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.pairs.iter().map(|span| self.pair(*span))
    }

    fn pair(&self, span: Span) -> (&str, &str) {
        (
            self.text.get(span.name..span.value).unwrap_or_default(),
            self.text.get(span.value..span.end).unwrap_or_default(),
        )
    }

    /// The values posted under `name`, in order.
    pub fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs()
            .filter(move |(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The values posted for each of the first `fields` fields of a form, in one pass.
    pub(super) fn by_field(&self, fields: usize) -> ByField<'_> {
        let indexed = self
            .pairs()
            .filter_map(|(name, value)| Some((field_index(name, fields)?, value)))
            .collect();
        ByField::of(indexed)
    }
}

/// The values posted for each field of a form, in the order posted.
pub(super) struct ByField<'a> {
    /// Each value with the index of its field, in field order: one allocation for a post of
    /// any size.
    indexed: Vec<(usize, &'a str)>,
}

impl<'a> ByField<'a> {
    /// The values of `indexed` (each with its field's index), by field. The sort is stable,
    /// so each field's values keep the order they were posted in; a browser posts the controls
    /// in the page's order, which is the fields' order already.
    fn of(mut indexed: Vec<(usize, &'a str)>) -> ByField<'a> {
        if !indexed.is_sorted_by_key(|&(field, _)| field) {
            indexed.sort_by_key(|&(field, _)| field);
        }
        ByField { indexed }
    }

    /// The fields posted more than once, in the form's order.
    fn repeated(&self) -> impl Iterator<Item = usize> + '_ {
        self.indexed
            .iter()
            .zip(self.indexed.iter().skip(1))
            .filter(|(a, b)| a.0 == b.0)
            .map(|(a, _)| a.0)
    }

    /// The values of the field at `index`; none for a field the form does not have.
    pub(super) fn get(&self, index: usize) -> FieldValues<'_, 'a> {
        let start = self.indexed.partition_point(|&(field, _)| field < index);
        let end = self.indexed.partition_point(|&(field, _)| field <= index);
        FieldValues(self.indexed.get(start..end).unwrap_or_default())
    }
}

/// The values posted for one field, in the order posted.
#[derive(Clone, Copy)]
pub(super) struct FieldValues<'s, 'a>(&'s [(usize, &'a str)]);

impl<'a> FieldValues<'_, 'a> {
    /// The first value, or `""` when none was posted (as for a blank control).
    pub(super) fn first(self) -> &'a str {
        self.0.first().map_or("", |&(_, value)| value)
    }

    pub(super) fn iter(self) -> impl Iterator<Item = &'a str> {
        self.0.iter().map(|&(_, value)| value)
    }
}

/// The index of the field a control `name` names (`tn-0`, `tn-1`…), if the form has that many.
fn field_index(name: &str, fields: usize) -> Option<usize> {
    index_below(name.strip_prefix(NAME_PREFIX)?, fields)
}

/// The index `text` spells as the form writes indices (digits, no leading zero), if it is
/// below `count`.
fn index_below(text: &str, count: usize) -> Option<usize> {
    let (&first, rest) = text.as_bytes().split_first()?;
    if !first.is_ascii_digit() || (first == b'0' && !rest.is_empty()) {
        return None;
    }
    let mut index = usize::from(first - b'0');
    for &digit in rest {
        if !digit.is_ascii_digit() {
            return None;
        }
        index = index
            .checked_mul(10)?
            .checked_add(usize::from(digit - b'0'))?;
    }
    (index < count).then_some(index)
}

/// The index of the field each content pointer's first token names, for putting violations
/// in field order and beside their fields.
pub(super) struct FieldPointers(BTreeMap<String, usize>);

impl FieldPointers {
    pub(super) fn of(fields: &[FormField]) -> FieldPointers {
        FieldPointers(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| (pointer::key(f.name()), i))
                .collect(),
        )
    }

    /// The field `at` (`/name` or below it, `/name/0`) is about.
    pub(super) fn field(&self, at: &str) -> Option<usize> {
        let first = match at.get(1..).and_then(|rest| rest.find('/')) {
            Some(end) => at.get(..end + 1)?,
            None => at,
        };
        self.0.get(first).copied()
    }
}

/// The control name of the field at `index`: `tn-0`, `tn-1`…
pub(super) fn field_name(index: usize) -> String {
    format!("{NAME_PREFIX}{index}")
}

fn too_large(bytes: usize, limits: &Limits) -> Error {
    Error::new(
        ErrorKind::TooLarge,
        "",
        format!(
            "the post is {bytes} bytes, over the limit of {}",
            limits.max_input_bytes()
        ),
    )
}

fn too_many(limits: &Limits) -> Error {
    Error::new(
        ErrorKind::TooManyMembers,
        "",
        format!(
            "the post has more than {} fields",
            limits.max_object_members()
        ),
    )
}

/// One name or value of a urlencoded body, decoded onto the end of `out` (`scratch` holds the
/// bytes meanwhile); a failure is its kind and message, for the caller to place.
fn decode(
    raw: &[u8],
    scratch: &mut Vec<u8>,
    out: &mut String,
) -> Result<(), (ErrorKind, &'static str)> {
    scratch.clear();
    let mut rest = raw.iter();
    while let Some(&b) = rest.next() {
        match b {
            b'+' => scratch.push(b' '),
            b'%' => {
                let hex = |d: Option<&u8>| d.and_then(|d| char::from(*d).to_digit(16));
                match (hex(rest.next()), hex(rest.next())) {
                    (Some(hi), Some(lo)) => scratch.push((hi * 16 + lo) as u8),
                    _ => {
                        return Err((
                            ErrorKind::InvalidValue,
                            "a % in the post is not followed by two hexadecimal digits",
                        ));
                    }
                }
            }
            b => scratch.push(b),
        }
    }
    let text = core::str::from_utf8(scratch).map_err(|_| {
        (
            ErrorKind::InvalidUtf8,
            "the post holds bytes that are not UTF-8",
        )
    })?;
    out.push_str(text);
    Ok(())
}

/// What a person did with a form: the content accepted, or declined, or cancelled.
#[derive(Debug, Clone, PartialEq)]
pub enum Submission {
    /// Accept, with the content read and validated (empty for a URL consent).
    Accept(Map),
    /// The Decline button: the person said no.
    Decline,
    /// The Cancel button: the person dismissed the question.
    Cancel,
}

impl Submission {
    /// The [`Answer`] to the request `id`: accept with the content as `data` (none for an empty
    /// map), decline with the reason `declined`, cancel with the reason `cancelled`.
    pub fn into_answer(self, id: &str) -> Result<Answer, Error> {
        match self {
            Submission::Accept(content) if content.is_empty() => Answer::new(id, true),
            Submission::Accept(content) => Answer::accept(id, content),
            Submission::Decline => Answer::refuse(id, Reason::Declined),
            Submission::Cancel => Answer::refuse(id, Reason::Cancelled),
        }
    }
}

/// Which button was pressed, and the names the form does not know refused.
struct Posted<'a> {
    action: Action,
    /// Each field's values, read from the names once.
    by_field: ByField<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Accept,
    Decline,
    Cancel,
}

/// Reads the names of `post` against a form of `fields` fields (0 for a URL consent): every
/// name is the button, the request id, a field, or one of the host's hidden fields.
fn posted<'a>(
    post: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    fields: usize,
    multi: &dyn Fn(usize) -> bool,
    options: &HtmlOptions,
    request_id: Option<&str>,
) -> Result<Posted<'a>, Error> {
    let mut action = None;
    let mut request_seen = false;
    let mut indexed: Vec<(usize, &str)> = Vec::with_capacity(post.len());
    for (name, value) in post {
        let at = || pointer::key(name);
        // Most names are fields'; no hidden field's name starts as theirs do.
        if let Some(index) = field_index(name, fields) {
            indexed.push((index, value));
        } else if name == ACTION_NAME {
            if action.is_some() {
                return Err(twice(name));
            }
            action = Some(match value {
                "accept" => Action::Accept,
                "decline" => Action::Decline,
                "cancel" => Action::Cancel,
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        at(),
                        format!(
                            "the button pressed must be accept, decline or cancel, not {}",
                            quote(other)
                        ),
                    ));
                }
            });
        } else if name == REQUEST_NAME {
            if request_seen {
                return Err(twice(name));
            }
            request_seen = true;
            match request_id {
                Some(id) if id == value => {}
                _ => {
                    return Err(Error::new(
                        ErrorKind::UnknownRequest,
                        at(),
                        format!("the post answers another request: {}", quote(value)),
                    ));
                }
            }
        } else if !options.hidden().iter().any(|(n, _)| n == name) {
            return Err(Error::new(
                ErrorKind::UnknownField,
                at(),
                format!("the form has no field named {}", quote(name)),
            ));
        }
    }
    let by_field = ByField::of(indexed);
    if let Some(index) = by_field.repeated().find(|&i| !multi(i)) {
        return Err(twice(&field_name(index)));
    }
    let action = action.ok_or_else(|| {
        Error::new(
            ErrorKind::MissingField,
            pointer::key(ACTION_NAME),
            "the post does not say which button was pressed",
        )
    })?;
    Ok(Posted { action, by_field })
}

fn twice(name: &str) -> Error {
    Error::new(
        ErrorKind::DuplicateKey,
        pointer::key(name),
        format!("{} is posted more than once", quote(name)),
    )
}

/// Reads a post of the form `form` wrote by [`form_html`](super::form_html) with `options`.
///
/// The button gives the outcome. Decline and cancel read no value: they never fail on what the
/// fields hold. Accept reads each field's values by its own parser — text as typed, numbers
/// as spelt, a checkbox group's repeated values in the options' order, a `datetime-local`
/// time with the offset of [`HtmlOptions::with_utc_offset`], an empty optional field absent —
/// fills defaults when [`HtmlOptions::with_apply_defaults`] says so, and validates the
/// content. Every value that breaks the form is one violation of one
/// [`ErrorKind::InvalidContent`] error, in field order, ready for a re-render.
///
/// Refused, whatever the button: a name the form does not have ([`ErrorKind::UnknownField`]),
/// a field of one value or the button posted twice ([`ErrorKind::DuplicateKey`]), no button
/// ([`ErrorKind::MissingField`]), a button the form never wrote ([`ErrorKind::InvalidValue`]),
/// the id of another request ([`ErrorKind::UnknownRequest`]). Refused on accept, when the
/// values are read: a choice the form never wrote ([`ErrorKind::InvalidValue`]) and a box of a
/// checkbox group posted twice ([`ErrorKind::DuplicateKey`]), at the field's pointer.
/// The host's hidden fields are skipped.
pub fn read_form_post(
    form: &Form,
    post: &FormData,
    options: &HtmlOptions,
) -> Result<Submission, Error> {
    read_form(form, post.pairs(), options, None)
}

fn read_form<'a>(
    form: &Form,
    post: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    options: &HtmlOptions,
    request_id: Option<&str>,
) -> Result<Submission, Error> {
    let fields = form.fields();
    let multi = |i: usize| {
        fields
            .get(i)
            .is_some_and(|f| f.widget() == Widget::MultiSelect)
    };
    let posted = posted(post, fields.len(), &multi, options, request_id)?;
    match posted.action {
        Action::Decline => return Ok(Submission::Decline),
        Action::Cancel => return Ok(Submission::Cancel),
        Action::Accept => {}
    }
    // Each value is checked once, by its field's parser; what is left to check is what no
    // value says: a required field left empty, a default filled in, a `required` name no
    // property declares. Violations come in field order, as content validation gives them.
    let mut content = Map::with_capacity(fields.len());
    let mut violations: Vec<Violation> = Vec::new();
    let mut defaults: Vec<(&FormField, Value)> = Vec::new();
    let by_field = &posted.by_field;
    for (index, field) in fields.iter().enumerate() {
        let values = by_field.get(index);
        match read_field(field, values, options) {
            // Property names are distinct: no look-up before each member.
            Ok(Some(value)) => content.push_distinct(field.name(), value),
            Ok(None) => match field.default_value() {
                Some(default) if options.apply_defaults() => {
                    let at = pointer::key(field.name());
                    field.property().violations(&default, &at, &mut violations);
                    defaults.push((field, default));
                }
                _ if field.required() => violations.push(Violation::new(
                    pointer::key(field.name()),
                    Keyword::Required,
                    format!("{} is required", field.label()),
                )),
                _ => {}
            },
            Err(FieldError::Violation(v)) => violations.push(v),
            Err(FieldError::Refused(e)) => return Err(e),
        }
    }
    for name in form.schema().undeclared_required() {
        violations.push(Violation::new(
            pointer::key(name),
            Keyword::Required,
            format!("{name} is required"),
        ));
    }
    if !violations.is_empty() {
        return Err(Error::invalid_content("", violations));
    }
    // Defaults go last, in property order, as filling them into content puts them.
    for (field, default) in defaults {
        content.push_distinct(field.name(), default);
    }
    Ok(Submission::Accept(content))
}

enum FieldError {
    /// The value breaks the form: shown beside the field.
    Violation(Violation),
    /// The post is not one the form wrote.
    Refused(Error),
}

/// The value of one field from what was posted under its name.
fn read_field(
    field: &FormField,
    values: FieldValues<'_, '_>,
    options: &HtmlOptions,
) -> Result<Option<Value>, FieldError> {
    let name = || pointer::key(field.name());
    match field.widget() {
        Widget::MultiSelect => {
            let mut chosen: Vec<usize> = Vec::new();
            for value in values.iter() {
                let index =
                    option_index(field, value).ok_or_else(|| not_an_option(field, value))?;
                if chosen.contains(&index) {
                    return Err(FieldError::Refused(Error::new(
                        ErrorKind::DuplicateKey,
                        name(),
                        format!("the option {} is posted more than once", quote(value)),
                    )));
                }
                chosen.push(index);
            }
            if chosen.is_empty() {
                // Nothing ticked reads as blank text does in the terminal: absent, or
                // missing when the field is required and has no default.
                return read_field_input(field, "").map_err(FieldError::Violation);
            }
            chosen.sort_unstable();
            let items = chosen
                .iter()
                .filter_map(|&i| field.options().get(i))
                .map(|o| Value::from(o.value()))
                .collect();
            let value = Value::Array(items);
            match field.first_violation(&value) {
                None => Ok(Some(value)),
                Some(v) => Err(FieldError::Violation(v)),
            }
        }
        Widget::SingleSelect => {
            let text = values.first();
            if text.is_empty() {
                return read_field_input(field, "").map_err(FieldError::Violation);
            }
            let index = option_index(field, text).ok_or_else(|| not_an_option(field, text))?;
            let value = field.options().get(index).map(|o| o.value()).unwrap_or("");
            // Option values are read back exactly; the parser's fallbacks never apply.
            let value = Value::from(value);
            match field.first_violation(&value) {
                None => Ok(Some(value)),
                Some(v) => Err(FieldError::Violation(v)),
            }
        }
        Widget::Toggle => match values.first() {
            "" => read_field_input(field, "").map_err(FieldError::Violation),
            "true" => Ok(Some(Value::Bool(true))),
            "false" => Ok(Some(Value::Bool(false))),
            other => Err(not_an_option(field, other)),
        },
        Widget::DateTime => {
            let text = values.first();
            let trimmed = crate::form::trim(text);
            if trimmed.is_empty() {
                return read_field_input(field, "").map_err(FieldError::Violation);
            }
            // A `datetime-local` control posts `YYYY-MM-DDTHH:MM`, with `:SS` when the seconds
            // are not zero: the seconds and the person's offset complete it.
            let mut full = String::from(trimmed);
            if full.len() == 16 {
                full.push_str(":00");
            }
            full.push_str(options.utc_offset());
            read_field_input(field, &full).map_err(FieldError::Violation)
        }
        // Text, email, uri, date, number, integer: the terminal's parser.
        _ => read_field_input(field, values.first()).map_err(FieldError::Violation),
    }
}

/// The option a select's posted value names: its index in the form, as written.
fn option_index(field: &FormField, text: &str) -> Option<usize> {
    index_below(text, field.options().len())
}

fn not_an_option(field: &FormField, text: &str) -> FieldError {
    FieldError::Refused(Error::new(
        ErrorKind::InvalidValue,
        pointer::key(field.name()),
        format!(
            "{} is not a choice the form offers for {}",
            quote(text),
            quote(field.label())
        ),
    ))
}

/// Reads a post of the URL consent [`consent_html`](super::consent_html) wrote for `url`:
/// accept (with no content), decline or cancel. Accept is refused with
/// [`ErrorKind::InvalidValue`] at `/tn-action` when the review rejects the URL, since the page
/// offered no Accept; any field is an [`ErrorKind::UnknownField`].
pub fn read_consent_post(
    url: &str,
    post: &FormData,
    options: &HtmlOptions,
) -> Result<Submission, Error> {
    read_consent(url, post.pairs(), options, None)
}

fn read_consent<'a>(
    url: &str,
    post: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    options: &HtmlOptions,
    request_id: Option<&str>,
) -> Result<Submission, Error> {
    let posted = posted(post, 0, &|_| false, options, request_id)?;
    match posted.action {
        Action::Decline => Ok(Submission::Decline),
        Action::Cancel => Ok(Submission::Cancel),
        Action::Accept if review_url(url).verdict() == Verdict::Reject => Err(Error::new(
            ErrorKind::InvalidValue,
            pointer::key(ACTION_NAME),
            "the address was rejected by its review, so it cannot be accepted",
        )),
        Action::Accept => Ok(Submission::Accept(Map::new())),
    }
}

/// Reads the post of the page [`request_html`](super::request_html) wrote for `request` into its
/// [`Answer`]: [`read_form_post`] for a form request (with `data.schema`), [`read_consent_post`]
/// for one with a `url`. The post's `tn-request`, when present, must be the request's id.
/// A request that is neither is an [`ErrorKind::MissingField`] at `/data/schema`; a schema the
/// form model cannot read gives [`Form::from_map`]'s error under `/data/schema`.
pub fn answer_from_post(
    request: &Request,
    post: &FormData,
    options: &HtmlOptions,
) -> Result<Answer, Error> {
    answer_from(request, post.pairs(), options)
}

/// [`answer_from_post`] over any pairs.
fn answer_from<'a>(
    request: &Request,
    post: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    options: &HtmlOptions,
) -> Result<Answer, Error> {
    let id = request.id();
    let submission = match (request.schema(), request.url()) {
        (Some(schema), _) => {
            let form = Form::from_map(schema).map_err(|e| e.within("/data/schema"))?;
            read_form(&form, post, options, Some(id))?
        }
        (None, Some(url)) => read_consent(url, post, options, Some(id))?,
        (None, None) => return Err(no_form()),
    };
    submission.into_answer(id)
}

/// [`answer_from_post`] for a form request whose form is prepared already (the one a
/// [`Session`](crate::Session) keeps, or [`Form::from_map`] of its `data.schema`), so that the
/// schema is not read again for each post.
pub fn answer_from_form_post(
    request: &Request,
    form: &Form,
    post: &FormData,
    options: &HtmlOptions,
) -> Result<Answer, Error> {
    read_form(form, post.pairs(), options, Some(request.id()))?.into_answer(request.id())
}

/// A post's pairs as the caller holds them (the strings a binding borrows from its host's
/// objects), read in place: [`FormData`] without its copy. Made within the limits
/// [`FormData::push_pair`] applies, with the same errors.
#[derive(Debug, Clone, Copy)]
pub struct PostPairs<'a> {
    pairs: &'a [(&'a str, &'a str)],
}

impl<'a> PostPairs<'a> {
    /// `pairs`, in the order posted, refused as [`FormData::push_pair`] refuses the pair that
    /// takes a post over `limits`: [`ErrorKind::TooManyMembers`] or [`ErrorKind::TooLarge`].
    pub fn new(pairs: &'a [(&'a str, &'a str)], limits: &Limits) -> Result<PostPairs<'a>, Error> {
        // Most posts are well within the limits: one sum tells. Over them, the pairs are
        // counted again one by one, so that the error is the one the first pair over gives.
        let text: usize = pairs.iter().fold(0, |sum, (n, v)| {
            sum.saturating_add(n.len()).saturating_add(v.len())
        });
        let body = text
            .saturating_add(pairs.len().saturating_mul(2))
            .saturating_sub(1);
        if pairs.len() <= limits.max_object_members() && body <= limits.max_input_bytes() {
            return Ok(PostPairs { pairs });
        }
        let mut text = 0usize;
        for (i, (name, value)) in pairs.iter().enumerate() {
            if i >= limits.max_object_members() {
                return Err(too_many(limits));
            }
            text = text.saturating_add(name.len()).saturating_add(value.len());
            // As a body: n `=` and n - 1 `&` for n pairs.
            let bytes = text.saturating_add(i.saturating_mul(2)).saturating_add(1);
            if bytes > limits.max_input_bytes() {
                return Err(too_large(bytes, limits));
            }
        }
        Ok(PostPairs { pairs })
    }

    /// The pairs, in the order posted.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> + use<'a> {
        self.pairs.iter().copied()
    }
}

/// [`answer_from_post`] for pairs read in place.
pub fn answer_from_pairs(
    request: &Request,
    post: PostPairs<'_>,
    options: &HtmlOptions,
) -> Result<Answer, Error> {
    answer_from(request, post.pairs(), options)
}

/// [`answer_from_form_post`] for pairs read in place.
pub fn answer_from_form_pairs(
    request: &Request,
    form: &Form,
    post: PostPairs<'_>,
    options: &HtmlOptions,
) -> Result<Answer, Error> {
    read_form(form, post.pairs(), options, Some(request.id()))?.into_answer(request.id())
}

pub(super) fn no_form() -> Error {
    Error::new(
        ErrorKind::MissingField,
        "/data/schema",
        "the request has neither a form (data.schema) nor a url to show",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_read_only_as_the_form_writes_them() {
        assert_eq!(index_below("0", 1), Some(0));
        assert_eq!(index_below("12", 13), Some(12));
        for refused in [
            "",
            "01",
            "00",
            "+1",
            "-1",
            "1a",
            " 1",
            "1 ",
            "١",
            "12",
            "99999999999999999999999",
        ] {
            assert_eq!(index_below(refused, 12), None, "{refused:?}");
        }
        assert_eq!(field_index("tn-3", 4), Some(3));
        assert_eq!(field_index("tn-4", 4), None);
        assert_eq!(field_index("tn-", 4), None);
        assert_eq!(field_index("x-1", 4), None);
    }
}
