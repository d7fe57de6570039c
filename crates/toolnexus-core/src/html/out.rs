//! The writer of a fragment: escaped text, prefixed classes and ids, and the parts every
//! fragment shares (the opening with who asks and the message, the error summary, the
//! buttons).
//!
//! The compiler holds the rule that server text never becomes markup (invariant 12): markup
//! goes in only as `&'static str` ([`Out::raw`]), element ids only as an [`ElementId`] made
//! from an [`IdOf`], numbers only as integers ([`Out::number`]); anything else a server or a
//! person wrote can only go through the escaping writers ([`Out::text`], [`Out::attr`]).

use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

use super::escape::{attribute, text};
use super::{ACTION_NAME, HtmlOptions, NAME_PREFIX, REQUEST_NAME};

/// An element id: the class prefix (checked when the options were made), then what names the
/// element. Made only by [`Out::id`] from an [`IdOf`], so it holds nothing a server wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ElementId(String);

/// What an element id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IdOf {
    /// The error summary.
    Errors,
    /// The control of the field at this index.
    Field(usize),
    /// A choice of a field: the field's index, the choice's.
    Choice(usize, usize),
    /// A field's hint.
    Hint(usize),
    /// A field's warning that it seems to ask for a secret.
    Warning(usize),
    /// A field's error messages.
    Error(usize),
}

/// The integer types whose decimal digits [`Out::number`] writes as they are.
pub(super) trait Integer: core::fmt::Display {}
impl Integer for usize {}
impl Integer for u64 {}

/// A fragment being written, with the options' class prefix at hand.
pub(super) struct Out<'a> {
    pub(super) html: String,
    pub(super) prefix: &'a str,
}

impl Out<'_> {
    /// Markup of this module's own: a literal, never text from elsewhere.
    pub(super) fn raw(&mut self, s: &'static str) {
        self.html.push_str(s);
    }

    /// An integer, in decimal digits.
    pub(super) fn number(&mut self, n: impl Integer) {
        let _ = write!(self.html, "{n}");
    }

    /// An element id made by [`Out::id`].
    pub(super) fn element_id(&mut self, id: &ElementId) {
        self.html.push_str(&id.0);
    }

    /// The name the control of the field at `index` posts under: [`NAME_PREFIX`], then the
    /// index.
    pub(super) fn field_name(&mut self, index: usize) {
        self.raw(NAME_PREFIX);
        self.number(index);
    }

    pub(super) fn text(&mut self, s: &str) {
        text(&mut self.html, s);
    }

    pub(super) fn attr(&mut self, s: &str) {
        attribute(&mut self.html, s);
    }

    /// ` class="<prefix>a <prefix>b"` for the class names `names`.
    pub(super) fn class(&mut self, names: &[&'static str]) {
        self.html.push_str(" class=\"");
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                self.html.push(' ');
            }
            self.html.push_str(self.prefix);
            self.html.push_str(name);
        }
        self.html.push('"');
    }

    /// The id of the element `of` names: the prefix, then its name.
    pub(super) fn id(&self, of: IdOf) -> ElementId {
        let prefix = self.prefix;
        ElementId(match of {
            IdOf::Errors => format!("{prefix}errors"),
            IdOf::Field(n) => format!("{prefix}f{n}"),
            IdOf::Choice(n, i) => format!("{prefix}f{n}-{i}"),
            IdOf::Hint(n) => format!("{prefix}f{n}-hint"),
            IdOf::Warning(n) => format!("{prefix}f{n}-warning"),
            IdOf::Error(n) => format!("{prefix}f{n}-error"),
        })
    }

    /// Server text in an isolate of its own: `<bdi>text</bdi>`.
    pub(super) fn isolated(&mut self, s: &str) {
        self.raw("<bdi>");
        self.text(s);
        self.raw("</bdi>");
    }

    /// `<form …>`, the host's hidden fields and the request's id, who asks and the message.
    pub(super) fn open(
        &mut self,
        options: &HtmlOptions,
        kind: &'static str,
        message: &str,
        request_id: Option<&str>,
    ) {
        self.raw("<form");
        self.class(&["form", kind]);
        self.raw(" method=\"post\" accept-charset=\"utf-8\"");
        if let Some(action) = options.action() {
            self.raw(" action=\"");
            self.attr(action);
            self.raw("\"");
        }
        self.raw(">\n");
        for (name, value) in options.hidden() {
            self.hidden(name, value);
        }
        if let Some(id) = request_id {
            self.hidden(REQUEST_NAME, id);
        }
        if let Some(asker) = options.asker() {
            self.raw("<p");
            self.class(&["asker"]);
            self.raw(">");
            self.isolated(asker);
            self.raw(" asks:</p>\n");
        }
        if !message.is_empty() {
            self.raw("<p");
            self.class(&["message"]);
            self.raw(" dir=\"auto\">");
            self.text(message);
            self.raw("</p>\n");
        }
    }

    fn hidden(&mut self, name: &str, value: &str) {
        self.raw("<input type=\"hidden\" name=\"");
        self.attr(name);
        self.raw("\" value=\"");
        self.attr(value);
        self.raw("\">\n");
    }

    /// The summary of what went wrong: each entry a message, linked to its field's control
    /// when it has one.
    pub(super) fn summary(&mut self, entries: &[(Option<ElementId>, &str)]) {
        if entries.is_empty() {
            return;
        }
        let errors_id = self.id(IdOf::Errors);
        self.raw("<div");
        self.class(&["errors"]);
        self.raw(" id=\"");
        self.element_id(&errors_id);
        self.raw("\" role=\"alert\" tabindex=\"-1\">\n<p");
        self.class(&["errors-title"]);
        self.raw(">");
        if entries.len() == 1 {
            self.raw("There is a problem:");
        } else {
            self.raw("There are ");
            self.number(entries.len());
            self.raw(" problems:");
        }
        self.raw("</p>\n<ul>\n");
        for (target, message) in entries {
            self.raw("<li>");
            match target {
                Some(target) => {
                    self.raw("<a href=\"#");
                    self.element_id(target);
                    self.raw("\">");
                    self.isolated(message);
                    self.raw("</a>");
                }
                None => self.isolated(message),
            }
            self.raw("</li>\n");
        }
        self.raw("</ul>\n</div>\n");
    }

    /// The three buttons, or Decline and Cancel alone; only Accept validates.
    pub(super) fn buttons(&mut self, accept: bool) {
        self.raw("<div");
        self.class(&["actions"]);
        self.raw(">\n");
        if accept {
            self.button("accept", "Accept", false);
        }
        self.button("decline", "Decline", true);
        self.button("cancel", "Cancel", true);
        self.raw("</div>\n</form>\n");
    }

    fn button(&mut self, value: &'static str, label: &'static str, no_validate: bool) {
        self.raw("<button type=\"submit\"");
        self.class(&["button", value]);
        self.raw(" name=\"");
        self.raw(ACTION_NAME);
        self.raw("\" value=\"");
        self.raw(value);
        self.raw("\"");
        if no_validate {
            self.raw(" formnovalidate");
        }
        self.raw(">");
        self.raw(label);
        self.raw("</button>\n");
    }
}
