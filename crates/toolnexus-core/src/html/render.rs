//! Writing the fragment: a form's fields, or a URL's consent, in one `<form method="post">`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::consent;
use super::out::{ElementId, IdOf, Out};
use super::post::{FieldPointers, FieldValues, FormData, no_form};
use super::{HtmlOptions, RADIO_LIMIT};
use crate::contract::Request;
use crate::error::{Error, ErrorKind, Violation};
use crate::form::{Form, FormField, Widget, range_hint};
use crate::json::Value;

/// The fragment for `form`, asked with `message`.
///
/// With `post` and the `error` reading it gave ([`read_form_post`](super::read_form_post)),
/// the re-render: the values posted kept in place (never a sensitive field's), a summary at
/// the top linking to each field at fault, and each field's message beside it. Without a post,
/// each field starts from its default.
pub fn form_html(
    form: &Form,
    message: &str,
    options: &HtmlOptions,
    post: Option<&FormData>,
    error: Option<&Error>,
) -> String {
    write_form(form, message, options, post, error, None)
}

/// The fragment for `request`: [`form_html`] for a form request (its `data.schema`),
/// [`consent_html`] for a URL request; the request's id travels in a hidden input. Fails as
/// [`answer_from_post`](super::answer_from_post) does for a request it cannot show.
pub fn request_html(
    request: &Request,
    options: &HtmlOptions,
    post: Option<&FormData>,
    error: Option<&Error>,
) -> Result<String, Error> {
    let id = Some(request.id());
    match (request.schema(), request.url()) {
        (Some(schema), _) => {
            let form = Form::from_map(schema).map_err(|e| e.within("/data/schema"))?;
            Ok(request_form_html(request, &form, options, post, error))
        }
        (None, Some(url)) => Ok(consent::write(url, request.prompt(), options, error, id)),
        (None, None) => Err(no_form()),
    }
}

/// [`request_html`] for a form request whose form is prepared already (the one a
/// [`Session`](crate::Session) keeps, or [`Form::from_map`] of its `data.schema`), so that the
/// schema is not read again for each page: the request's id and prompt, and `form`.
pub fn request_form_html(
    request: &Request,
    form: &Form,
    options: &HtmlOptions,
    post: Option<&FormData>,
    error: Option<&Error>,
) -> String {
    write_form(
        form,
        request.prompt(),
        options,
        post,
        error,
        Some(request.id()),
    )
}

/// The fragment asking the person's consent to open `url`: the full address, its host in
/// Unicode and in ASCII, every finding of [`review_url`](crate::review_url), and a link to
/// follow in a new tab. A URL the review rejects is shown as text with no link, and only
/// Decline and Cancel are offered. Accepting opens nothing by itself.
pub fn consent_html(
    url: &str,
    message: &str,
    options: &HtmlOptions,
    error: Option<&Error>,
) -> String {
    consent::write(url, message, options, error, None)
}

/// The style sheet the fragment is made for, with the classes of `options`: serve it as a
/// file (a style sheet from the page's own origin keeps `style-src 'self'`). Plain, legible,
/// and every long server string wraps.
pub fn stylesheet(options: &HtmlOptions) -> String {
    STYLESHEET.replace("tn-", options.class_prefix())
}

const STYLESHEET: &str = "\
.tn-form{max-width:40rem;overflow-wrap:anywhere;line-height:1.5}
.tn-form fieldset{border:0;margin:0;padding:0;min-width:0}
.tn-form legend{padding:0}
.tn-asker{font-weight:600;margin:0 0 .25rem}
.tn-message{white-space:pre-line;font-size:1.125rem;margin:0 0 1rem}
.tn-form .tn-field{margin:0 0 1.25rem}
.tn-label{display:block;font-weight:600;margin:0 0 .25rem}
.tn-required{color:#b00020}
.tn-hint{color:#444;margin:0 0 .25rem}
.tn-hint p{margin:0;white-space:pre-line}
.tn-warning{color:#7a4b00;background:#fff4d6;border-left:4px solid #b36b00;padding:.25rem .5rem;margin:0 0 .25rem}
.tn-error{color:#b00020;font-weight:600;margin:0 0 .25rem}
.tn-invalid input,.tn-invalid select{border-color:#b00020;outline:2px solid #b00020}
.tn-form input[type=text],.tn-form input[type=email],.tn-form input[type=url],.tn-form input[type=password],.tn-form input[type=number],.tn-form input[type=date],.tn-form input[type=datetime-local],.tn-form select{box-sizing:border-box;width:100%;max-width:30rem;font:inherit;padding:.375rem .5rem;border:1px solid #555;border-radius:4px}
.tn-choice{display:flex;gap:.5rem;align-items:center;margin:.125rem 0}
.tn-choice input{width:1.125rem;height:1.125rem;margin:0}
.tn-form :focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.tn-errors{border:3px solid #b00020;padding:.5rem 1rem;margin:0 0 1.25rem}
.tn-errors-title{font-weight:700;margin:0 0 .25rem}
.tn-errors ul{margin:0;padding-left:1.25rem}
.tn-errors a{color:#b00020}
.tn-url dt{font-weight:600}
.tn-url dd{margin:0 0 .5rem;font-family:monospace}
.tn-findings{padding-left:1.25rem}
.tn-finding-reject{color:#b00020;font-weight:600}
.tn-finding-warn{color:#7a4b00}
.tn-actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
.tn-button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:2px solid #1a5fb4;background:#fff;color:#1a5fb4;cursor:pointer}
.tn-accept{background:#1a5fb4;color:#fff}
.tn-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
";

/// What the summary and each field say about an error: violations by field, and what belongs
/// to no field.
struct Problems<'e> {
    by_field: Vec<Vec<&'e Violation>>,
    general: Vec<&'e str>,
}

impl<'e> Problems<'e> {
    fn of(form: &Form, error: Option<&'e Error>) -> Problems<'e> {
        let fields = form.fields();
        let mut by_field: Vec<Vec<&Violation>> = fields.iter().map(|_| Vec::new()).collect();
        let mut general = Vec::new();
        let Some(error) = error else {
            return Problems { by_field, general };
        };
        if error.kind() != ErrorKind::InvalidContent || error.violations().is_empty() {
            general.push(error.message());
            return Problems { by_field, general };
        }
        let pointers = FieldPointers::of(fields);
        for v in error.violations() {
            match pointers
                .field(v.pointer())
                .and_then(|i| by_field.get_mut(i))
            {
                Some(list) => list.push(v),
                None => general.push(v.message()),
            }
        }
        Problems { by_field, general }
    }
}

fn write_form(
    form: &Form,
    message: &str,
    options: &HtmlOptions,
    post: Option<&FormData>,
    error: Option<&Error>,
    request_id: Option<&str>,
) -> String {
    let mut out = Out {
        html: String::with_capacity(512 + 640 * form.fields().len()),
        prefix: options.class_prefix(),
    };
    out.open(options, "elicitation", message, request_id);
    let problems = Problems::of(form, error);
    let mut entries: Vec<(Option<ElementId>, &str)> = Vec::new();
    for (index, field) in form.fields().iter().enumerate() {
        let Some(list) = problems.by_field.get(index) else {
            continue;
        };
        for v in list {
            entries.push((Some(target_id(&out, index, field)), v.message()));
        }
    }
    entries.extend(problems.general.iter().map(|m| (None, *m)));
    out.summary(&entries);
    let posted = post.map(|post| post.by_field(form.fields().len()));
    for (index, field) in form.fields().iter().enumerate() {
        let field_posted = posted.as_ref().map(|p| p.get(index));
        let values = current_values(field, field_posted, options);
        let messages: Vec<&str> = problems
            .by_field
            .get(index)
            .map(|list| list.iter().map(|v| v.message()).collect())
            .unwrap_or_default();
        write_field(&mut out, index, field, &values, &messages, options);
    }
    out.buttons(true);
    out.html
}

/// The id the summary links to: the control, or a group's first choice.
fn target_id(out: &Out<'_>, index: usize, field: &FormField) -> ElementId {
    if is_group(field) {
        out.id(IdOf::Choice(index, 0))
    } else {
        out.id(IdOf::Field(index))
    }
}

/// Whether the field is answered by choosing rather than typing.
fn is_choice(field: &FormField) -> bool {
    matches!(
        field.widget(),
        Widget::Toggle | Widget::SingleSelect | Widget::MultiSelect
    )
}

/// Whether the field is a group of radio buttons or checkboxes in a `<fieldset>`.
fn is_group(field: &FormField) -> bool {
    match field.widget() {
        Widget::Toggle | Widget::MultiSelect => true,
        Widget::SingleSelect => field.options().len() <= RADIO_LIMIT,
        _ => false,
    }
}

/// What the field's control shows: what was posted (never for a sensitive field), or else
/// its default as the control writes it.
fn current_values(
    field: &FormField,
    posted: Option<FieldValues<'_, '_>>,
    options: &HtmlOptions,
) -> Vec<String> {
    // A secret is typed again, never written back; a choice is no secret to hide.
    if field.sensitive() && !is_choice(field) {
        return Vec::new();
    }
    if let Some(posted) = posted {
        return posted.iter().map(String::from).collect();
    }
    let Some(default) = field.default_value() else {
        return Vec::new();
    };
    let option_index = |value: &Value| {
        let value = value.as_str()?;
        field
            .options()
            .iter()
            .position(|o| o.value() == value)
            .map(|i| i.to_string())
    };
    match (field.widget(), &default) {
        (Widget::MultiSelect, Value::Array(items)) => {
            items.iter().filter_map(option_index).collect()
        }
        (Widget::SingleSelect, value) => option_index(value).into_iter().collect(),
        (Widget::Toggle, Value::Bool(b)) => Vec::from([b.to_string()]),
        (Widget::Number | Widget::Integer, Value::Number(n)) => {
            Vec::from([String::from(n.as_str())])
        }
        (Widget::DateTime, Value::String(s)) => crate::rfc3339::at_offset(s, options.utc_offset())
            .into_iter()
            .collect(),
        (_, Value::String(s)) => Vec::from([String::from(s.as_str())]),
        _ => Vec::new(),
    }
}

fn write_field(
    out: &mut Out<'_>,
    index: usize,
    field: &FormField,
    values: &[String],
    messages: &[&str],
    options: &HtmlOptions,
) {
    let control = out.id(IdOf::Field(index));
    let described = Described::write_later(out, index, field, messages);
    let invalid = !messages.is_empty();
    let group = is_group(field);
    out.raw(if group { "<fieldset" } else { "<div" });
    if invalid {
        out.class(&["field", "invalid"]);
    } else {
        out.class(&["field"]);
    }
    if group {
        described.attribute(out);
    }
    out.raw(">\n");
    // The label: a legend for a group, a label tied to the control otherwise.
    if group {
        out.raw("<legend");
    } else {
        out.raw("<label");
    }
    out.class(&["label"]);
    if !group {
        out.raw(" for=\"");
        out.element_id(&control);
        out.raw("\"");
    }
    out.raw(">");
    out.isolated(field.label());
    if field.required() {
        out.raw("<span");
        out.class(&["required"]);
        out.raw(" aria-hidden=\"true\"> *</span>");
        if field.widget() == Widget::MultiSelect {
            out.raw("<span");
            out.class(&["visually-hidden"]);
            out.raw("> (required)</span>");
        }
    }
    out.raw(if group { "</legend>\n" } else { "</label>\n" });
    described.write(out, field, options);
    let shown = Shown {
        values,
        invalid,
        required: field.required(),
    };
    match field.widget() {
        Widget::Toggle => {
            let mut yes_no = Vec::from([
                (Choice::Literal("true"), "Yes"),
                (Choice::Literal("false"), "No"),
            ]);
            if !field.required() {
                yes_no.push((Choice::Literal(""), "No answer"));
            }
            choices(out, index, Group::Radio, &yes_no, &shown);
        }
        Widget::SingleSelect | Widget::MultiSelect if group => {
            let mut options: Vec<(Choice, &str)> = field
                .options()
                .iter()
                .enumerate()
                .map(|(i, o)| (Choice::Index(i), o.label()))
                .collect();
            let kind = if field.widget() == Widget::MultiSelect {
                Group::Checkbox
            } else {
                if !field.required() {
                    options.push((Choice::Literal(""), "No answer"));
                }
                Group::Radio
            };
            choices(out, index, kind, &options, &shown);
        }
        Widget::SingleSelect => select(out, &control, index, field, &shown, &described),
        _ => input(out, &control, index, field, &shown, &described),
    }
    out.raw(if group { "</fieldset>\n" } else { "</div>\n" });
}

/// The values a control shows and its state.
struct Shown<'a> {
    values: &'a [String],
    invalid: bool,
    required: bool,
}

impl Shown<'_> {
    /// A lone control's ` required`, ` aria-invalid` and ` aria-describedby`, as they apply.
    fn state(&self, out: &mut Out<'_>, described: &Described) {
        if self.required {
            out.raw(" required");
        }
        if self.invalid {
            out.raw(" aria-invalid=\"true\"");
        }
        described.attribute(out);
    }

    fn has(&self, value: &str) -> bool {
        self.values.iter().any(|v| v == value)
    }
}

/// The texts that describe a control: its hint, its secret warning, its messages; each with
/// its id, listed in `aria-describedby`.
struct Described {
    hint: Option<ElementId>,
    warning: Option<ElementId>,
    error: Option<ElementId>,
    messages: Vec<String>,
}

impl Described {
    fn write_later(out: &Out<'_>, index: usize, field: &FormField, messages: &[&str]) -> Described {
        let has_hint = field.description().is_some() || html_hint(field).is_some();
        Described {
            hint: has_hint.then(|| out.id(IdOf::Hint(index))),
            warning: field.sensitive().then(|| out.id(IdOf::Warning(index))),
            error: (!messages.is_empty()).then(|| out.id(IdOf::Error(index))),
            messages: messages.iter().map(|m| String::from(*m)).collect(),
        }
    }

    /// ` aria-describedby="…"`, when anything describes the control.
    fn attribute(&self, out: &mut Out<'_>) {
        let ids: Vec<&ElementId> = [&self.hint, &self.warning, &self.error]
            .into_iter()
            .flatten()
            .collect();
        if !ids.is_empty() {
            out.raw(" aria-describedby=\"");
            for (i, id) in ids.into_iter().enumerate() {
                if i > 0 {
                    out.raw(" ");
                }
                out.element_id(id);
            }
            out.raw("\"");
        }
    }

    /// The hint, the warning and the messages, in that order.
    fn write(&self, out: &mut Out<'_>, field: &FormField, options: &HtmlOptions) {
        if let Some(id) = &self.hint {
            out.raw("<div");
            out.class(&["hint"]);
            out.raw(" id=\"");
            out.element_id(id);
            out.raw("\">");
            if let Some(description) = field.description() {
                out.raw("<p dir=\"auto\">");
                out.text(description);
                out.raw("</p>");
            }
            if let Some(hint) = html_hint(field) {
                out.raw("<p>");
                out.text(&hint);
                if field.widget() == Widget::DateTime {
                    out.text(&format!(" (your time, UTC{})", shown_offset(options)));
                }
                out.raw("</p>");
            }
            out.raw("</div>\n");
        }
        if let Some(id) = &self.warning {
            out.raw("<p");
            out.class(&["warning"]);
            out.raw(" id=\"");
            out.element_id(id);
            out.raw("\">");
            let what = field.secret_kind().map_or("a secret", |k| k.describe());
            out.text(&format!(
                "This field seems to ask for {what}, which a form must never ask for: \
                 type it only if you trust who asks."
            ));
            out.raw("</p>\n");
        }
        if let Some(id) = &self.error {
            out.raw("<p");
            out.class(&["error"]);
            out.raw(" id=\"");
            out.element_id(id);
            out.raw("\">");
            for (i, message) in self.messages.iter().enumerate() {
                if i > 0 {
                    out.raw("<br>");
                }
                out.isolated(message);
            }
            out.raw("</p>\n");
        }
    }
}

/// The offset as people read it: `Z` is `+00:00`.
fn shown_offset(options: &HtmlOptions) -> &str {
    match options.utc_offset() {
        "Z" => "+00:00",
        other => other,
    }
}

/// What the hint says besides the description: the constraints, and the format where the
/// browser's control does not make it plain.
fn html_hint(field: &FormField) -> Option<String> {
    let range = range_hint(field.widget(), field.constraints());
    let format = match field.widget() {
        Widget::Email => Some("an email address"),
        Widget::Uri => Some("an absolute URI, like https://example.com"),
        Widget::DateTime => Some("a date and time"),
        _ => None,
    };
    match (range, format) {
        (None, None) => None,
        (Some(range), None) => Some(range),
        (None, Some(format)) => Some(String::from(format)),
        (Some(range), Some(format)) => Some(format!("{format}, {range}")),
    }
}

/// The kind of a group of choices: one of them, or any of them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Radio,
    Checkbox,
}

/// A group's inputs, each with its label: `choices` are (value, label). Radios are `required`
/// with the field, and with nothing chosen an optional group starts at its "No answer" (the
/// choice of value `""`); checkboxes are never `required`, since HTML would then ask for
/// every box.
/// The value a choice posts: one of this module's own, or an option's index.
#[derive(Debug, Clone, Copy)]
enum Choice {
    /// `true`, `false` or `""` (no answer).
    Literal(&'static str),
    /// The option at this index.
    Index(usize),
}

impl Choice {
    /// As the post carries it.
    fn posted(self) -> String {
        match self {
            Choice::Literal(text) => String::from(text),
            Choice::Index(i) => i.to_string(),
        }
    }

    /// As markup: the value attribute's text.
    fn write(self, out: &mut Out<'_>) {
        match self {
            Choice::Literal(text) => out.raw(text),
            Choice::Index(i) => out.number(i),
        }
    }
}

fn choices(
    out: &mut Out<'_>,
    index: usize,
    group: Group,
    choices: &[(Choice, &str)],
    shown: &Shown<'_>,
) {
    let nothing_chosen = !choices.iter().any(|(value, _)| shown.has(&value.posted()));
    let kind = match group {
        Group::Radio => "radio",
        Group::Checkbox => "checkbox",
    };
    out.raw("<div");
    out.class(&["choices"]);
    out.raw(">\n");
    for (i, (value, label)) in choices.iter().enumerate() {
        let id = out.id(IdOf::Choice(index, i));
        let posted = value.posted();
        out.raw("<div");
        out.class(&["choice"]);
        out.raw("><input type=\"");
        out.raw(kind);
        out.raw("\" id=\"");
        out.element_id(&id);
        out.raw("\" name=\"");
        out.field_name(index);
        out.raw("\" value=\"");
        value.write(out);
        out.raw("\"");
        if shown.has(&posted) || (group == Group::Radio && posted.is_empty() && nothing_chosen) {
            out.raw(" checked");
        }
        if group == Group::Radio && shown.required {
            out.raw(" required");
        }
        if shown.invalid {
            out.raw(" aria-invalid=\"true\"");
        }
        out.raw("><label for=\"");
        out.element_id(&id);
        out.raw("\">");
        out.isolated(label);
        out.raw("</label></div>\n");
    }
    out.raw("</div>\n");
}

fn select(
    out: &mut Out<'_>,
    control: &ElementId,
    index: usize,
    field: &FormField,
    shown: &Shown<'_>,
    described: &Described,
) {
    out.raw("<select id=\"");
    out.element_id(control);
    out.raw("\" name=\"");
    out.field_name(index);
    out.raw("\"");
    shown.state(out, described);
    out.raw(">\n<option value=\"\">");
    out.raw(if shown.required {
        "Choose…"
    } else {
        "No answer"
    });
    out.raw("</option>\n");
    for (i, option) in field.options().iter().enumerate() {
        let value = i.to_string();
        out.raw("<option value=\"");
        out.number(i);
        out.raw("\" dir=\"auto\"");
        if shown.has(&value) {
            out.raw(" selected");
        }
        out.raw(">");
        out.text(option.label());
        out.raw("</option>\n");
    }
    out.raw("</select>\n");
}

fn input(
    out: &mut Out<'_>,
    control: &ElementId,
    index: usize,
    field: &FormField,
    shown: &Shown<'_>,
    described: &Described,
) {
    let c = field.constraints();
    let kind = match field.widget() {
        _ if field.sensitive() => "password",
        Widget::Email => "email",
        Widget::Uri => "url",
        Widget::Date => "date",
        Widget::DateTime => "datetime-local",
        Widget::Number | Widget::Integer => "number",
        _ => "text",
    };
    out.raw("<input type=\"");
    out.raw(kind);
    out.raw("\" id=\"");
    out.element_id(control);
    out.raw("\" name=\"");
    out.field_name(index);
    out.raw("\"");
    match field.widget() {
        Widget::Number | Widget::Integer if !field.sensitive() => {
            let integer = field.widget() == Widget::Integer;
            out.raw(if integer {
                " step=\"1\""
            } else {
                " step=\"any\""
            });
            // An integer field's bounds are also the base of its steps: only whole ones say
            // the same thing to the browser.
            let whole = |n: &&crate::json::Number| !integer || n.as_i64().is_some();
            if let Some(min) = c.minimum().filter(whole) {
                out.raw(" min=\"");
                out.attr(min.as_str());
                out.raw("\"");
            }
            if let Some(max) = c.maximum().filter(whole) {
                out.raw(" max=\"");
                out.attr(max.as_str());
                out.raw("\"");
            }
        }
        Widget::DateTime if !field.sensitive() => out.raw(" step=\"1\""),
        _ => {
            if let Some(n) = c.min_length() {
                out.raw(" minlength=\"");
                out.number(n);
                out.raw("\"");
            }
            if let Some(n) = c.max_length() {
                out.raw(" maxlength=\"");
                out.number(n);
                out.raw("\"");
            }
        }
    }
    if field.sensitive() {
        out.raw(" autocomplete=\"off\"");
    } else if let Some(value) = shown.values.first() {
        out.raw(" value=\"");
        out.attr(value);
        out.raw("\"");
    }
    if field.widget() == Widget::Text {
        out.raw(" dir=\"auto\"");
    }
    shown.state(out, described);
    out.raw(">\n");
}
