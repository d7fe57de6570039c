//! The elicitation session: each request a server makes paired with the answer a host gives,
//! so that the two mappings cannot be used apart or out of order.
//!
//! [`Session::begin`] turns `elicitation/create` params into a [`Request`] and remembers what
//! the answer will need: the mode, the typed schema of a form, the `elicitationId` of a URL
//! and the expiry. [`Session::resolve`] turns the host's [`Answer`] into the [`ElicitResult`]
//! to send back, and holds the rules a stateless mapping cannot:
//!
//! - The answer's `id` must name a pending request; each request resolves once. Any other id
//!   is an [`ErrorKind::UnknownRequest`] error and changes nothing.
//! - A form accepted with content that breaks its schema is an [`ErrorKind::InvalidContent`]
//!   error carrying every [violation](Error::violations); the request stays pending so the
//!   person can correct it. Nothing half-valid is ever sent. Defaults are filled in first
//!   when the options ask for it.
//! - A URL accepted means the person consented to open it: the result has no `content`. The
//!   request then waits for the server's `notifications/elicitation/complete`
//!   ([`Session::complete`]) so the host can close its UI.
//! - Decline and cancel never carry content.
//! - With a time to live, each request carries `expiresAt`; an answer after it is a cancel,
//!   and [`Session::expire`] sweeps what has lapsed.
//!
//! The session reads no clock: every call that depends on time takes `now`, in milliseconds
//! since 1970-01-01 UTC. It is bounded: beyond [`SessionOptions::max_pending`] requests,
//! `begin` refuses.
//!
//! ```
//! use toolnexus_core::session::{Session, SessionOptions};
//! use toolnexus_core::{Answer, ElicitRequestParams, ErrorKind, Limits};
//!
//! let mut session = Session::new(SessionOptions::DEFAULT);
//! let params = ElicitRequestParams::from_json(
//!     br#"{"message":"Age?","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","minimum":18}},"required":["age"]}}"#,
//!     &Limits::DEFAULT,
//! )?;
//! let request = session.begin(&params, "q1", 0)?;
//! assert_eq!(request.kind(), "input");
//!
//! let too_young = Answer::from_json(br#"{"id":"q1","ok":true,"data":{"age":17}}"#, &Limits::DEFAULT)?;
//! let err = session.resolve(&too_young, 1).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::InvalidContent);
//! assert_eq!(err.violations()[0].keyword().as_str(), "minimum");
//! assert_eq!(session.pending().len(), 1); // still waiting for a correction
//!
//! let fixed = Answer::from_json(br#"{"id":"q1","ok":true,"data":{"age":18}}"#, &Limits::DEFAULT)?;
//! assert_eq!(session.resolve(&fixed, 2)?.to_json(), r#"{"action":"accept","content":{"age":18}}"#);
//! assert_eq!(session.resolve(&fixed, 3).unwrap_err().kind(), ErrorKind::UnknownRequest);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::content::Content;
use crate::content::{self, ContentOptions};
use crate::contract::Request;
use crate::contract::{Answer, Reason};
use crate::error::{Error, ErrorKind};
use crate::form::Form;
use crate::form::secrets::SensitiveField;
use crate::mcp::ElicitRequestParams;
use crate::mcp::ElicitResult;
use crate::mcp::Modes;
use crate::mcp::elicitation_to_request;
use crate::rfc3339;

pub(crate) mod snapshot;

/// How a [`Session`] behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionOptions {
    modes: Modes,
    max_pending: usize,
    ttl_ms: Option<u64>,
    apply_defaults: bool,
    content: ContentOptions,
    reject_secrets: bool,
}

impl SessionOptions {
    /// Both modes; at most 64 pending requests; no expiry; content checked strictly as
    /// given, without filling defaults; forms that look like they ask for secrets allowed
    /// (their fields are flagged by the form model).
    pub const DEFAULT: SessionOptions = SessionOptions {
        modes: Modes::ALL,
        max_pending: 64,
        ttl_ms: None,
        apply_defaults: false,
        content: ContentOptions::STRICT,
        reject_secrets: false,
    };

    /// The modes the host supports; a request for another is refused with
    /// [`ErrorKind::ModeNotSupported`].
    pub const fn with_modes(mut self, modes: Modes) -> SessionOptions {
        self.modes = modes;
        self
    }

    /// The most requests that may wait at once (URL requests waiting for their completion
    /// notification count too).
    pub const fn with_max_pending(mut self, max: usize) -> SessionOptions {
        self.max_pending = max;
        self
    }

    /// How long a request may wait for its answer, in milliseconds; each request then carries
    /// `expiresAt`.
    pub const fn with_ttl_ms(mut self, ttl: Option<u64>) -> SessionOptions {
        self.ttl_ms = ttl;
        self
    }

    /// Whether accepted form content has absent properties filled from their `default`
    /// before it is checked (see [`crate::content::prepare_content`]).
    pub const fn with_apply_defaults(mut self, apply: bool) -> SessionOptions {
        self.apply_defaults = apply;
        self
    }

    /// How strictly accepted form content is checked.
    pub const fn with_content_options(mut self, content: ContentOptions) -> SessionOptions {
        self.content = content;
        self
    }

    /// Whether accepted content may hold members its schema does not declare; the rest of
    /// how it is checked stays as these options have it.
    pub const fn with_allow_unknown(mut self, allow: bool) -> SessionOptions {
        self.content = self.content.allow_unknown(allow);
        self
    }

    /// Whether a form that seems to ask for a secret is refused at `begin` with
    /// [`ErrorKind::SensitiveField`] (see [`crate::form::secrets::reject_secrets`]).
    pub const fn with_reject_secrets(mut self, reject: bool) -> SessionOptions {
        self.reject_secrets = reject;
        self
    }

    /// The modes the host supports.
    pub const fn modes(&self) -> Modes {
        self.modes
    }

    /// The most requests that may wait at once.
    pub const fn max_pending(&self) -> usize {
        self.max_pending
    }

    /// How long a request may wait, in milliseconds.
    pub const fn ttl_ms(&self) -> Option<u64> {
        self.ttl_ms
    }

    /// How accepted form content is checked.
    pub const fn content_options(&self) -> ContentOptions {
        self.content
    }

    /// Whether accepted form content has absent properties filled from their `default`.
    pub const fn apply_defaults(&self) -> bool {
        self.apply_defaults
    }

    /// Whether a form that seems to ask for a secret is refused at `begin`.
    pub const fn reject_secrets(&self) -> bool {
        self.reject_secrets
    }
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions::DEFAULT
    }
}

/// What a pending request needs to judge its answer.
#[derive(Debug, Clone)]
enum Pending {
    Form(Form),
    Url { elicitation_id: Option<String> },
}

#[derive(Debug, Clone)]
struct Entry {
    request: Request,
    pending: Pending,
    expires_at_ms: Option<u64>,
}

/// A URL request the person consented to open, waiting for the server to say the
/// interaction is complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwaitingCompletion {
    request_id: String,
    elicitation_id: String,
}

impl AwaitingCompletion {
    /// The id of the request that was accepted.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// The server's `elicitationId` for it.
    pub fn elicitation_id(&self) -> &str {
        &self.elicitation_id
    }
}

/// The requests a host has been asked and not yet answered, and the rules for answering them.
#[derive(Debug, Clone)]
pub struct Session {
    options: SessionOptions,
    entries: Vec<Entry>,
    awaiting: Vec<AwaitingCompletion>,
}

impl Session {
    /// An empty session.
    pub fn new(options: SessionOptions) -> Session {
        Session {
            options,
            entries: Vec::new(),
            awaiting: Vec::new(),
        }
    }

    /// The session's options.
    pub fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// Starts the request `id` for `params`, received at `now_ms`: the [`Request`] to hand to
    /// the host.
    ///
    /// Refused, with nothing changed, when the mode is not one the host supports
    /// ([`ErrorKind::ModeNotSupported`] at `/mode`), `id` is pending already
    /// ([`ErrorKind::DuplicateRequest`]), the session is full ([`ErrorKind::TooManyPending`]),
    /// a form's `requestedSchema` cannot be read (its error, under `/requestedSchema`), or the
    /// reject-secrets policy refuses the form ([`ErrorKind::SensitiveField`], under
    /// `/requestedSchema`).
    pub fn begin(
        &mut self,
        params: &ElicitRequestParams,
        id: &str,
        now_ms: u64,
    ) -> Result<Request, Error> {
        let expires_at_ms = self.options.ttl_ms.map(|ttl| now_ms.saturating_add(ttl));
        self.begin_until(params, id, expires_at_ms, None).cloned()
    }

    /// [`Session::begin`] without a copy of the request for the caller, a form's sensitive
    /// fields given by a snapshot (`None`: found by the heuristic): what a restore, which
    /// hands no request out, begins its requests with.
    pub(crate) fn begin_kept(
        &mut self,
        params: &ElicitRequestParams,
        id: &str,
        now_ms: u64,
        sensitive: Option<&[SensitiveField]>,
    ) -> Result<(), Error> {
        let expires_at_ms = self.options.ttl_ms.map(|ttl| now_ms.saturating_add(ttl));
        self.begin_until(params, id, expires_at_ms, sensitive)
            .map(|_| ())
    }

    /// [`Session::begin`] with the expiry given, and a form's sensitive fields when a
    /// snapshot carries them: the request as the session keeps it.
    fn begin_until(
        &mut self,
        params: &ElicitRequestParams,
        id: &str,
        expires_at_ms: Option<u64>,
        sensitive: Option<&[SensitiveField]>,
    ) -> Result<&Request, Error> {
        let mode = params.mode();
        if !self.options.modes.supports(mode) {
            return Err(Error::new(
                ErrorKind::ModeNotSupported,
                "/mode",
                format!(
                    "the server asked for {mode} mode, but this client supports {}",
                    self.options.modes.describe()
                ),
            ));
        }
        if self.is_pending(id) || self.awaiting.iter().any(|a| a.request_id == id) {
            return Err(Error::new(
                ErrorKind::DuplicateRequest,
                "",
                format!("a request with the id {id:?} is already pending"),
            ));
        }
        if self.entries.len().saturating_add(self.awaiting.len()) >= self.options.max_pending {
            return Err(Error::new(
                ErrorKind::TooManyPending,
                "",
                format!(
                    "{} requests are waiting already, the most this session allows",
                    self.options.max_pending
                ),
            ));
        }
        let pending = match params {
            ElicitRequestParams::Form(form) => {
                // Errors reading the schema already point under `/requestedSchema`.
                let prepared = form.form_carried(sensitive)?;
                if self.options.reject_secrets {
                    prepared
                        .reject_secrets()
                        .map_err(|e| e.within("/requestedSchema"))?;
                }
                Pending::Form(prepared)
            }
            ElicitRequestParams::Url(url) => Pending::Url {
                elicitation_id: url.elicitation_id().map(String::from),
            },
        };
        let mut request = elicitation_to_request(params, id)?;
        if let Some(at) = expires_at_ms {
            request = request.with_expires_at(rfc3339::format_unix_ms(at))?;
        }
        self.entries.push(Entry {
            request,
            pending,
            expires_at_ms,
        });
        self.entries
            .last()
            .map(|entry| &entry.request)
            .ok_or_else(|| Error::new(ErrorKind::InvalidValue, "", "no request was kept"))
    }

    /// Resolves a pending request with the host's `answer`, given at `now_ms`: the
    /// [`ElicitResult`] to send to the server. See the [module](self) for the rules.
    pub fn resolve(&mut self, answer: &Answer, now_ms: u64) -> Result<ElicitResult, Error> {
        let Some((index, entry)) = self
            .entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.request.id() == answer.id())
        else {
            return Err(Error::new(
                ErrorKind::UnknownRequest,
                "/id",
                format!(
                    "no request with the id {:?} is pending: it was never begun, or it was \
                     answered, expired or cancelled already",
                    answer.id()
                ),
            ));
        };
        if entry.expires_at_ms.is_some_and(|at| now_ms > at) {
            self.entries.remove(index);
            return Ok(ElicitResult::cancel());
        }
        if !answer.ok() {
            self.entries.remove(index);
            return Ok(match answer.reason() {
                Some(Reason::Declined) => ElicitResult::decline(),
                _ => ElicitResult::cancel(),
            });
        }
        let result = match &entry.pending {
            Pending::Form(form) => ElicitResult::accept(Some(self.form_content(form, answer)?)),
            Pending::Url { elicitation_id } => {
                if let Some(eid) = elicitation_id {
                    self.awaiting.push(AwaitingCompletion {
                        request_id: String::from(answer.id()),
                        elicitation_id: eid.clone(),
                    });
                }
                // Accepting a URL means consent to open it, not that anything was entered.
                ElicitResult::accept(None)
            }
        };
        self.entries.remove(index);
        Ok(result)
    }

    /// The content to send for a form accepted with `answer`, or every violation of it.
    fn form_content(&self, form: &Form, answer: &Answer) -> Result<Content, Error> {
        let data = answer.data().cloned().unwrap_or_default();
        let content = content::check_members(
            form.schema(),
            data,
            &self.options.content,
            self.options.apply_defaults,
        )
        .map_err(invalid_content)?;
        Content::from_map(content).map_err(|e| e.within("/data"))
    }

    /// The requests waiting for an answer, in the order they began.
    pub fn pending(&self) -> Vec<&Request> {
        self.entries.iter().map(|e| &e.request).collect()
    }

    /// Whether the request `id` is waiting for an answer.
    pub fn is_pending(&self, id: &str) -> bool {
        self.entries.iter().any(|e| e.request.id() == id)
    }

    /// The form of the pending form-mode request `id`, prepared when it began: what a UI
    /// renders and checks input against, without reading the schema again.
    pub fn form(&self, id: &str) -> Option<&Form> {
        self.entries
            .iter()
            .find(|e| e.request.id() == id)
            .and_then(|e| match &e.pending {
                Pending::Form(form) => Some(form),
                Pending::Url { .. } => None,
            })
    }

    /// The pending request `id`, if there is one.
    pub fn get(&self, id: &str) -> Option<&Request> {
        self.entries
            .iter()
            .find(|e| e.request.id() == id)
            .map(|e| &e.request)
    }

    /// Ends the pending request `id` with no result to send: the server withdrew it, or the
    /// host could not handle it. Returns whether it was pending; when it was not, nothing
    /// changes (a URL request accepted and awaiting completion is no longer pending).
    pub fn withdraw(&mut self, id: &str) -> bool {
        let Some(index) = self.entries.iter().position(|e| e.request.id() == id) else {
            return false;
        };
        self.entries.remove(index);
        true
    }

    /// Whether a URL request with the server's `elicitationId` `elicitation_id` is pending or
    /// accepted and awaiting completion: a server that asks for it again is repeating itself.
    pub fn knows_elicitation(&self, elicitation_id: &str) -> bool {
        self.awaiting
            .iter()
            .any(|a| a.elicitation_id == elicitation_id)
            || self.pending_url(elicitation_id).is_some()
    }

    /// The index of the pending URL request with `elicitation_id`.
    fn pending_url(&self, elicitation_id: &str) -> Option<usize> {
        self.entries.iter().position(|e| {
            matches!(&e.pending, Pending::Url { elicitation_id: Some(eid) } if eid == elicitation_id)
        })
    }

    /// The URL requests accepted and waiting for the server's completion notification.
    pub fn awaiting_completion(&self) -> &[AwaitingCompletion] {
        &self.awaiting
    }

    /// Takes the server's `notifications/elicitation/complete` for `elicitation_id`: the id of
    /// the request it completes, so the host can close its UI, or `None` for an id that is
    /// unknown or completed already (which the specification says to ignore). A URL request
    /// still pending (not yet answered) is completed too: it leaves the session, and the host
    /// should send no answer for it.
    pub fn complete(&mut self, elicitation_id: &str) -> Option<String> {
        if let Some(i) = self
            .awaiting
            .iter()
            .position(|a| a.elicitation_id == elicitation_id)
        {
            return Some(self.awaiting.remove(i).request_id);
        }
        let i = self.pending_url(elicitation_id)?;
        Some(String::from(self.entries.remove(i).request.id()))
    }

    /// Removes every request whose time to live has lapsed at `now_ms`, each with the cancel
    /// to send for it, in the order they began.
    pub fn expire(&mut self, now_ms: u64) -> Vec<(String, ElicitResult)> {
        let (lapsed, kept): (Vec<Entry>, Vec<Entry>) = core::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| e.expires_at_ms.is_some_and(|at| now_ms > at));
        self.entries = kept;
        lapsed
            .into_iter()
            .map(|e| (String::from(e.request.id()), ElicitResult::cancel()))
            .collect()
    }

    /// Answers every pending request with cancel, for shutdown: each id with the result to
    /// send, in the order they began. URL requests waiting for completion are forgotten.
    pub fn cancel_all(&mut self) -> Vec<(String, ElicitResult)> {
        self.awaiting.clear();
        core::mem::take(&mut self.entries)
            .into_iter()
            .map(|e| (String::from(e.request.id()), ElicitResult::cancel()))
            .collect()
    }
}

fn invalid_content(violations: Vec<crate::error::Violation>) -> Error {
    Error::invalid_content("/data", violations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Limits;

    fn url_params(elicitation_id: &str) -> ElicitRequestParams {
        let text = format!(
            r#"{{"mode":"url","message":"Log in","url":"https://example.com","elicitationId":"{elicitation_id}"}}"#
        );
        ElicitRequestParams::from_json(text.as_bytes(), &Limits::DEFAULT).unwrap()
    }

    #[test]
    fn withdraw_ends_only_a_pending_request() {
        let mut session = Session::new(SessionOptions::DEFAULT);
        session.begin(&url_params("e-1"), "a", 0).unwrap();
        session.begin(&url_params("e-2"), "b", 0).unwrap();
        let accept = Answer::from_json(br#"{"id":"b","ok":true}"#, &Limits::DEFAULT).unwrap();
        session.resolve(&accept, 0).unwrap();

        assert!(session.withdraw("a"));
        assert!(!session.withdraw("a"));
        assert!(!session.withdraw("b"), "accepted, so no longer pending");
        assert!(session.pending().is_empty());
        assert_eq!(session.awaiting_completion().len(), 1);
    }

    #[test]
    fn knows_pending_and_awaiting_elicitations() {
        let mut session = Session::new(SessionOptions::DEFAULT);
        session.begin(&url_params("e-1"), "a", 0).unwrap();
        session.begin(&url_params("e-2"), "b", 0).unwrap();
        let accept = Answer::from_json(br#"{"id":"b","ok":true}"#, &Limits::DEFAULT).unwrap();
        session.resolve(&accept, 0).unwrap();

        assert!(session.knows_elicitation("e-1"));
        assert!(session.knows_elicitation("e-2"));
        assert!(!session.knows_elicitation("e-3"));
        assert_eq!(session.complete("e-2").as_deref(), Some("b"));
        assert!(!session.knows_elicitation("e-2"));
    }
}
