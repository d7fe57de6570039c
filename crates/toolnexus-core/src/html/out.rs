//! The writer of a fragment: escaped text, prefixed classes and ids, and the parts every
//! fragment shares (the opening with who asks and the message, the error summary, the
//! buttons).

use alloc::format;
use alloc::string::String;

use super::escape::{attribute, text};
use super::{ACTION_NAME, HtmlOptions, REQUEST_NAME};

/// A fragment being written, with the options' class prefix at hand.
pub(super) struct Out<'a> {
    pub(super) html: String,
    pub(super) prefix: &'a str,
}

impl Out<'_> {
    pub(super) fn raw(&mut self, s: &str) {
        self.html.push_str(s);
    }

    pub(super) fn text(&mut self, s: &str) {
        text(&mut self.html, s);
    }

    pub(super) fn attr(&mut self, s: &str) {
        attribute(&mut self.html, s);
    }

    /// ` class="<prefix>a <prefix>b"` for the class names `names`.
    pub(super) fn class(&mut self, names: &[&str]) {
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

    /// An element id: the prefix, then `rest`.
    pub(super) fn id(&self, rest: &str) -> String {
        format!("{}{rest}", self.prefix)
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
        kind: &str,
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
    pub(super) fn summary(&mut self, entries: &[(Option<String>, &str)]) {
        if entries.is_empty() {
            return;
        }
        let errors_id = self.id("errors");
        self.raw("<div");
        self.class(&["errors"]);
        self.raw(" id=\"");
        self.raw(&errors_id);
        self.raw("\" role=\"alert\" tabindex=\"-1\">\n<p");
        self.class(&["errors-title"]);
        self.raw(">");
        if entries.len() == 1 {
            self.raw("There is a problem:");
        } else {
            self.raw(&format!("There are {} problems:", entries.len()));
        }
        self.raw("</p>\n<ul>\n");
        for (target, message) in entries {
            self.raw("<li>");
            match target {
                Some(target) => {
                    self.raw("<a href=\"#");
                    self.raw(target);
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

    fn button(&mut self, value: &str, label: &str, no_validate: bool) {
        self.raw("<button type=\"submit\"");
        self.class(&["button", value]);
        self.raw(&format!(" name=\"{ACTION_NAME}\" value=\"{value}\""));
        if no_validate {
            self.raw(" formnovalidate");
        }
        self.raw(">");
        self.raw(label);
        self.raw("</button>\n");
    }
}
