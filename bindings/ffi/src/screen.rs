//! `Screen`: what a screen shows for one elicitation, from one call instead of several.
//!
//! Each call from Kotlin pays for its crossings (a call status, a buffer for every string,
//! record or optional argument and one for the result), whatever it does in Rust; from Swift,
//! each record it reads back. A screen that took the request, then its form, then the form's
//! fields, or a result and then its JSON, made two or three calls where one does: these are
//! those calls made at once, each the same as its parts.

use std::sync::Arc;

use toolnexus_core as core;

use crate::contract::{Answer, Request};
use crate::error::ToolnexusError;
use crate::form::{Form, FormField};
use crate::limits::Limits;
use crate::url_review::{UrlReview, review_url};

/// Everything a screen shows for one elicitation: the request, and for a form request the
/// prepared form with its fields, for a URL request the review of its URL.
///
/// In Kotlin the screen holds its form until `destroy()` (or the end of `use { … }`), or until
/// the collector frees it; keep it as long as the screen checks what is typed.
#[derive(uniffi::Record)]
pub struct Screen {
    /// The request, as `elicitationToRequest` or `session.begin` gives it.
    pub request: Request,
    /// The form of a form request (`request.form()`, or `session.form(request.id)`); `null`
    /// for a URL request.
    pub form: Option<Arc<Form>>,
    /// The form's fields (`form.fields()`); empty for a URL request.
    pub fields: Vec<FormField>,
    /// The review of a URL request's URL (`reviewUrl(request.url)`); `null` for a form
    /// request.
    pub review: Option<UrlReview>,
}

impl Screen {
    /// The screen of `request`, whose form (if any) is `form`.
    pub(crate) fn new(request: Request, form: Option<Arc<Form>>) -> Screen {
        let fields = form.as_ref().map(|form| form.fields()).unwrap_or_default();
        let review = request.url.clone().map(review_url);
        Screen {
            request,
            form,
            fields,
            review,
        }
    }
}

/// [`elicitation_to_request`](crate::elicitation_to_request) with the form prepared and its
/// fields, or the URL reviewed: a screen's whole start in one call.
///
/// Fails as `elicitationToRequest` does, and also, as `session.begin` does, when a form's
/// `requestedSchema` cannot be shown as a form (its error under `/requestedSchema`).
#[uniffi::export(default(id = None, limits = None))]
pub fn elicitation_to_screen(
    params_json: String,
    id: Option<String>,
    limits: Option<Limits>,
) -> Result<Screen, ToolnexusError> {
    let params =
        core::ElicitRequestParams::from_json(params_json.as_bytes(), &Limits::or_default(limits))?;
    let id = id.unwrap_or_else(core::id::next_id);
    let form = match &params {
        core::ElicitRequestParams::Form(form) => Some(Form::from_core(form.form()?)),
        core::ElicitRequestParams::Url(_) => None,
    };
    let request = core::elicitation_into_request(params, &id)?;
    Ok(Screen::new(Request::from_core(&request), form))
}

/// MCP's reply to `answer` as JSON text: `elicitResultToJson(answerToElicitResult(answer))` in
/// one call, with the same errors.
#[uniffi::export]
pub fn answer_to_elicit_result_json(answer: &Answer) -> Result<String, ToolnexusError> {
    Ok(core::answer_to_elicit_result(&answer.to_core()?)?.to_json())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::elicit_result_to_json;
    use crate::mapping::{answer_to_elicit_result, elicitation_to_request};

    const FORM: &str = r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#;
    const LINK: &str =
        r#"{"mode":"url","message":"Log in","url":"https://example.com/a","elicitationId":"e"}"#;

    #[test]
    fn a_screen_is_the_calls_it_stands_for() {
        let screen = elicitation_to_screen(FORM.into(), Some("r".into()), None).unwrap();
        let request = elicitation_to_request(FORM.into(), Some("r".into()), None).unwrap();
        assert_eq!(screen.request, request);
        assert_eq!(screen.fields, request.form().unwrap().fields());
        assert!(screen.form.is_some() && screen.review.is_none());

        let link = elicitation_to_screen(LINK.into(), Some("u".into()), None).unwrap();
        assert!(link.form.is_none() && link.fields.is_empty());
        assert_eq!(
            link.review,
            Some(review_url("https://example.com/a".into()))
        );
    }

    #[test]
    fn the_reply_in_one_call_is_the_reply_in_two() {
        let answer = Answer {
            id: "r".into(),
            ok: true,
            data: Some(r#"{"name":"Ada"}"#.into()),
            reason: None,
        };
        let two = elicit_result_to_json(&answer_to_elicit_result(&answer).unwrap()).unwrap();
        assert_eq!(answer_to_elicit_result_json(&answer).unwrap(), two);
    }
}
