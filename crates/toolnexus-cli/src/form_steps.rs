//! The steps of answering a form, apart from any terminal: which field comes next, what each
//! holds, the review, and what is sent. The terminal drives it; unit tests drive it alone.

use toolnexus_core::form::{Form, FormField, Widget};
use toolnexus_core::{ContentOptions, Map, Value, Violation};

/// Where a person is in a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Entering the field at this index.
    Field(usize),
    /// Looking over every answer before sending.
    Review,
}

/// What a person does on the review screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Send the answers.
    Accept,
    /// Change the field at this index, then come back to the review.
    Change(usize),
    /// Say no to the server: MCP `decline`.
    Decline,
    /// Dismiss the form: MCP `cancel`.
    Cancel,
}

/// How the form ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The content to send (before the session fills defaults and validates it).
    Accept(Map),
    /// The person declined.
    Decline,
    /// The person dismissed the form.
    Cancel,
}

/// One form being answered: the value of each field so far and where the person is.
#[derive(Debug, Clone)]
pub struct FormFlow<'f> {
    form: &'f Form,
    values: Vec<Option<Value>>,
    step: Step,
    /// Set while a field is changed from the review: answering it returns there.
    changing: bool,
}

impl<'f> FormFlow<'f> {
    /// Starts at the first field (or the review, for a form without fields), every field
    /// empty: a field's default is offered when it is asked, and filled in by the session if
    /// it is left blank.
    pub fn new(form: &'f Form) -> FormFlow<'f> {
        let step = if form.fields().is_empty() {
            Step::Review
        } else {
            Step::Field(0)
        };
        FormFlow {
            form,
            values: vec![None; form.fields().len()],
            step,
            changing: false,
        }
    }

    /// The form.
    pub fn form(&self) -> &'f Form {
        self.form
    }

    /// Where the person is.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The value entered for the field at `index`, if any.
    pub fn value(&self, index: usize) -> Option<&Value> {
        self.values.get(index).and_then(Option::as_ref)
    }

    /// Records what was entered for the current field (`None`: left blank) and moves on: to the
    /// next field, or to the review after the last one or after a change from the review.
    pub fn enter(&mut self, value: Option<Value>) {
        let Step::Field(i) = self.step else {
            return;
        };
        if let Some(slot) = self.values.get_mut(i) {
            *slot = value;
        }
        let next = i + 1;
        self.step = if self.changing || next >= self.values.len() {
            self.changing = false;
            Step::Review
        } else {
            Step::Field(next)
        };
    }

    /// Goes back one field (from the review: to the last field).
    pub fn back(&mut self) {
        self.changing = false;
        self.step = match self.step {
            Step::Field(i) => Step::Field(i.saturating_sub(1)),
            Step::Review => match self.values.len() {
                0 => Step::Review,
                n => Step::Field(n - 1),
            },
        };
    }

    /// Applies a review choice: `Some(outcome)` when the form is done, `None` when it goes on.
    /// An accept is refused (the flow stays on the review) while the content breaks the form;
    /// [`problems`](FormFlow::problems) says how.
    pub fn choose(&mut self, choice: Choice) -> Option<Outcome> {
        match choice {
            Choice::Accept if self.problems().is_empty() => Some(Outcome::Accept(self.content())),
            Choice::Accept => None,
            Choice::Change(i) if i < self.values.len() => {
                self.step = Step::Field(i);
                self.changing = true;
                None
            }
            Choice::Change(_) => None,
            Choice::Decline => Some(Outcome::Decline),
            Choice::Cancel => Some(Outcome::Cancel),
        }
    }

    /// The content entered, in field order, without the fields left blank.
    pub fn content(&self) -> Map {
        self.form
            .fields()
            .iter()
            .zip(&self.values)
            .filter_map(|(f, v)| Some((String::from(f.name()), v.clone()?)))
            .collect()
    }

    /// Every way the content would break the form once defaults are filled in: what keeps the
    /// review from accepting (a required field left blank, a selection of the wrong size).
    pub fn problems(&self) -> Vec<Violation> {
        match self
            .form
            .prepare(&Value::Object(self.content()), &ContentOptions::STRICT)
        {
            Ok(_) => Vec::new(),
            Err(violations) => violations,
        }
    }

    /// How many required fields have no value and no default: "2 required left".
    pub fn required_left(&self) -> usize {
        self.form
            .fields()
            .iter()
            .zip(&self.values)
            .filter(|(f, v)| f.required() && v.is_none() && f.default_value().is_none())
            .count()
    }
}

/// A value as a person reads it: text as is, numbers as spelt, yes/no, options by label.
pub fn show(field: &FormField, value: &Value) -> String {
    let label_of = |v: &str| {
        field
            .options()
            .iter()
            .find(|o| o.value() == v)
            .map_or_else(|| String::from(v), |o| String::from(o.label()))
    };
    match value {
        Value::String(s) if field.widget() == Widget::SingleSelect => label_of(s),
        Value::String(s) => s.to_string(),
        Value::Bool(true) => String::from("yes"),
        Value::Bool(false) => String::from("no"),
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map_or_else(|| item.to_json(), label_of))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_json(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolnexus_core::{Limits, json};

    fn form(text: &str) -> Form {
        Form::new(&json::parse_str(text, &Limits::DEFAULT).unwrap()).unwrap()
    }

    const CONTACT: &str = r#"{"type":"object","properties":{
        "name":{"type":"string","title":"Name","minLength":2,"maxLength":100},
        "age":{"type":"integer","minimum":1,"maximum":9,"default":3},
        "tags":{"type":"array","maxItems":3,"items":{"enum":["a","b","c","d"]}}},
        "required":["name"]}"#;

    #[test]
    fn fields_come_in_order_then_the_review() {
        let form = form(CONTACT);
        let mut flow = FormFlow::new(&form);
        assert_eq!(flow.step(), Step::Field(0));
        flow.enter(Some(Value::from("Ada")));
        assert_eq!(flow.step(), Step::Field(1));
        flow.back();
        assert_eq!(flow.step(), Step::Field(0));
        flow.enter(Some(Value::from("Ada")));
        flow.enter(None);
        flow.enter(None);
        assert_eq!(flow.step(), Step::Review);
        assert_eq!(Value::Object(flow.content()).to_json(), r#"{"name":"Ada"}"#);
        assert!(flow.problems().is_empty());
        assert_eq!(
            flow.choose(Choice::Accept),
            Some(Outcome::Accept(flow.content()))
        );
    }

    #[test]
    fn a_change_from_the_review_returns_to_it() {
        let form = form(CONTACT);
        let mut flow = FormFlow::new(&form);
        for _ in 0..3 {
            flow.enter(Some(Value::from("Ada")));
        }
        assert_eq!(flow.step(), Step::Review);
        assert_eq!(flow.choose(Choice::Change(0)), None);
        assert_eq!(flow.step(), Step::Field(0));
        flow.enter(Some(Value::from("Grace")));
        assert_eq!(flow.step(), Step::Review);
        assert_eq!(flow.value(0), Some(&Value::from("Grace")));
    }

    #[test]
    fn accept_waits_for_a_required_field() {
        let form = form(CONTACT);
        let mut flow = FormFlow::new(&form);
        flow.enter(None);
        flow.enter(None);
        flow.enter(None);
        assert_eq!(flow.required_left(), 1);
        assert_eq!(flow.choose(Choice::Accept), None);
        assert_eq!(flow.problems()[0].pointer(), "/name");
        assert_eq!(flow.choose(Choice::Decline), Some(Outcome::Decline));
        assert_eq!(flow.choose(Choice::Cancel), Some(Outcome::Cancel));
    }

    #[test]
    fn a_form_without_fields_starts_at_the_review() {
        let form = form(r#"{"type":"object","properties":{}}"#);
        let flow = FormFlow::new(&form);
        assert_eq!(flow.step(), Step::Review);
    }

    #[test]
    fn hints_say_the_constraints() {
        let contact = form(CONTACT);
        let hints: Vec<_> = contact.fields().iter().map(FormField::hint).collect();
        assert_eq!(
            hints,
            [
                Some(String::from("2–100 characters")),
                Some(String::from("a whole number, 1–9")),
                Some(String::from("choose up to 3")),
            ]
        );
        let other = form(
            r#"{"type":"object","properties":{"e":{"type":"string","format":"email"},"m":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["a","b"]}}}}"#,
        );
        assert_eq!(
            other.fields()[0].hint().as_deref(),
            Some("an email address")
        );
        assert_eq!(other.fields()[1].hint().as_deref(), Some("choose 1–2"));
    }

    #[test]
    fn values_are_shown_by_label() {
        let form = form(
            r#"{"type":"object","properties":{"s":{"type":"string","oneOf":[{"const":"s","title":"Small"}]},"m":{"type":"array","items":{"anyOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"}]}},"t":{"type":"boolean"}}}"#,
        );
        let fields = form.fields();
        assert_eq!(show(&fields[0], &Value::from("s")), "Small");
        let both = Value::Array(vec![Value::from("a"), Value::from("b")]);
        assert_eq!(show(&fields[1], &both), "Alpha, Beta");
        assert_eq!(show(&fields[2], &Value::Bool(true)), "yes");
    }
}
