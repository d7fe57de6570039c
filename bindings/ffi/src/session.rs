//! `Session`: pairs each request with its answer, safe to call from several threads.

use std::sync::Arc;

use toolnexus_core as core;

use crate::contract::{Answer, ElicitResult, Request};
use crate::error::ToolnexusError;
use crate::form::Form;
use crate::limits::Limits;
use crate::screen::Screen;
use crate::shared::{SessionOptions, Shared, now_or_clock, restore_with};

/// A URL request the person consented to open, waiting for the server to say the interaction
/// is complete.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct AwaitingCompletion {
    /// The id of the request that was accepted.
    pub request_id: String,
    /// The server's `elicitationId` for it.
    pub elicitation_id: String,
}

/// A request ended with cancel (expired, or cancelled at shutdown), with the result to send.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CancelledRequest {
    /// The request's id.
    pub id: String,
    /// The cancel to send for it.
    pub result: ElicitResult,
}

pub(crate) fn awaiting(session: &core::Session) -> Vec<AwaitingCompletion> {
    session
        .awaiting_completion()
        .iter()
        .map(|a| AwaitingCompletion {
            request_id: a.request_id().into(),
            elicitation_id: a.elicitation_id().into(),
        })
        .collect()
}

pub(crate) fn cancelled(list: Vec<(String, core::ElicitResult)>) -> Vec<CancelledRequest> {
    list.into_iter()
        .map(|(id, result)| CancelledRequest {
            id,
            result: ElicitResult::from_core(&result),
        })
        .collect()
}

/// The requests a host has been asked and not yet answered, and the rules for answering
/// them: answers must name a pending request, each resolves once, invalid content keeps the
/// request pending, URL accepts carry no content, requests expire.
///
/// Every method may be called from any thread; calls run one at a time. Times are in
/// milliseconds since 1970; a `nowMs` left out is read from the system clock.
#[derive(uniffi::Object)]
pub struct Session {
    options: SessionOptions,
    inner: Shared<core::Session>,
}

#[uniffi::export]
impl Session {
    /// An empty session following `options` (the defaults when absent).
    #[uniffi::constructor(default(options = None))]
    pub fn new(options: Option<SessionOptions>) -> Arc<Session> {
        let options = options.unwrap_or_default();
        Arc::new(Session {
            options,
            inner: Shared::new(core::Session::new(options.to_core())),
        })
    }

    /// The session's options.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Starts the request `id` (a fresh `elc-…` id when absent) for the JSON parameters of an
    /// MCP `elicitation/create`, received at `now_ms`: the [`Request`] to hand to the host.
    ///
    /// Fails, with nothing changed, when the text is not valid parameters, the mode is not
    /// one the host supports (`ModeNotSupported` at `/mode`), `id` is pending already
    /// (`DuplicateRequest`), the session is full (`TooManyPending`), the form's
    /// `requestedSchema` cannot be read (its error under `/requestedSchema`), or the
    /// reject-secrets policy refuses the form (`SensitiveField`).
    #[uniffi::method(default(id = None, now_ms = None, limits = None))]
    pub fn begin(
        &self,
        params_json: String,
        id: Option<String>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Request, ToolnexusError> {
        self.begin_bytes(params_json.into_bytes(), id, now_ms, limits)
    }

    /// [`Session::begin`] for JSON bytes (UTF-8 required).
    #[uniffi::method(default(id = None, now_ms = None, limits = None))]
    pub fn begin_bytes(
        &self,
        params_json: Vec<u8>,
        id: Option<String>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Request, ToolnexusError> {
        let (request, ()) = self.begin_then(&params_json, id, now_ms, limits, |_, _| ())?;
        Ok(Request::from_core(&request))
    }

    /// [`Session::begin`] with what a screen shows, in one call: the request, the form the
    /// session prepared for it with its fields, or the review of its URL. Fails as `begin`
    /// does.
    #[uniffi::method(default(id = None, now_ms = None, limits = None))]
    pub fn begin_screen(
        &self,
        params_json: String,
        id: Option<String>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Screen, ToolnexusError> {
        // The form is the one this request began with.
        let (request, form) =
            self.begin_then(params_json.as_bytes(), id, now_ms, limits, |s, id| {
                s.form(id).cloned()
            })?;
        Ok(Screen::new(
            Request::from_core(&request),
            form.map(Form::from_core),
        ))
    }

    /// Resolves a pending request with the host's `answer`, given at `now_ms`: the
    /// [`ElicitResult`] to send to the server.
    ///
    /// Fails with `UnknownRequest` when no request with the answer's id is pending (or it
    /// expired), and with `InvalidContent`, listing every violation, when accepted form
    /// content breaks the schema; the request then stays pending for a correction.
    #[uniffi::method(default(now_ms = None))]
    pub fn resolve(
        &self,
        answer: &Answer,
        now_ms: Option<u64>,
    ) -> Result<ElicitResult, ToolnexusError> {
        let answer = answer.to_core()?;
        let now = now_or_clock(now_ms);
        let result = self.inner.with(|s| s.resolve(&answer, now))?;
        Ok(ElicitResult::from_core(&result))
    }

    /// The requests waiting for an answer, in the order they began.
    pub fn pending(&self) -> Vec<Request> {
        self.inner
            .with(|s| s.pending().into_iter().map(Request::from_core).collect())
    }

    /// Whether the request `id` is waiting for an answer.
    pub fn is_pending(&self, id: &str) -> bool {
        self.inner.with(|s| s.is_pending(id))
    }

    /// The pending request `id`, if there is one.
    pub fn get(&self, id: &str) -> Option<Request> {
        self.inner.with(|s| s.get(id).map(Request::from_core))
    }

    /// The form of the pending form-mode request `request_id`, prepared when it began: what a
    /// screen renders and checks input against, without reading the schema again. `null` for
    /// a URL request or an id that is not pending.
    pub fn form(&self, request_id: &str) -> Option<Arc<Form>> {
        let form = self.inner.with(|s| s.form(request_id).cloned());
        form.map(Form::from_core)
    }

    /// The URL requests accepted and waiting for the server's completion notification.
    pub fn awaiting_completion(&self) -> Vec<AwaitingCompletion> {
        self.inner.with(|s| awaiting(s))
    }

    /// Takes the server's `notifications/elicitation/complete` for `elicitation_id`: the id of
    /// the request it completes, so the host can close its UI, or `null` for an id that is
    /// unknown or completed already. A URL request not yet answered is completed too: it
    /// leaves the session, and the host sends no answer for it.
    pub fn complete(&self, elicitation_id: &str) -> Option<String> {
        self.inner.with(|s| s.complete(elicitation_id))
    }

    /// Removes every request whose time to live has lapsed at `now_ms`, each with the cancel
    /// to send for it, in the order they began.
    #[uniffi::method(default(now_ms = None))]
    pub fn expire(&self, now_ms: Option<u64>) -> Vec<CancelledRequest> {
        let now = now_or_clock(now_ms);
        cancelled(self.inner.with(|s| s.expire(now)))
    }

    /// Answers every pending request with cancel, for shutdown: each id with the result to
    /// send, in the order they began. URL requests waiting for completion are forgotten.
    pub fn cancel_all(&self) -> Vec<CancelledRequest> {
        cancelled(self.inner.with(core::Session::cancel_all))
    }

    /// The pending request `request_id` written down with the session's options, for
    /// `restore` in another process or after a restart: a small versioned JSON document
    /// (UTF-8), sealed with HMAC-SHA-256 when `key` is given (then ASCII; the same key gives
    /// the same bytes). It holds the request as the server asked it and its expiry, nothing a
    /// person typed. Fails with `UnknownRequest` at `/id` when `request_id` is not pending,
    /// with `InvalidValue` at `/id` when it never expires (a snapshot must: give the session a
    /// `ttlMs`), and with `InvalidValue` at `/key` for a key shorter than 32 bytes (use 32
    /// random bytes kept as the host's secret).
    #[uniffi::method(default(key = None))]
    pub fn snapshot(
        &self,
        request_id: &str,
        key: Option<Vec<u8>>,
    ) -> Result<Vec<u8>, ToolnexusError> {
        Ok(self
            .inner
            .with(|s| s.snapshot(request_id, key.as_deref()))?)
    }

    /// The stable id of the snapshot `snapshot(requestId)` writes now (43 URL-safe
    /// characters): the SHA-256 of its document, the same whatever key seals it and again
    /// after a restore. Keep the snapshot under it and claim it once when the answer comes
    /// (Redis `GETDEL`, SQLite `DELETE … RETURNING`). Fails as `snapshot` does for a
    /// `request_id` that is not pending.
    pub fn snapshot_id(&self, request_id: &str) -> Result<String, ToolnexusError> {
        Ok(self.inner.with(|session| session.snapshot_id(request_id))?)
    }

    /// A session holding the one pending request a `snapshot` wrote, with the options it was
    /// written with: the same `Request` (its expiry included), answered by the same rules.
    /// `keys`, `limits` and `now_ms` (the clock when absent) as for `InputRound.restore`,
    /// which fails the same ways; the request's own errors point under `/params`, and a
    /// session that may hold no request fails with `TooManyPending` at `/options/maxPending`.
    #[uniffi::constructor(default(keys = [], limits = None, now_ms = None))]
    pub fn restore(
        snapshot: Vec<u8>,
        keys: Vec<Vec<u8>>,
        limits: Option<Limits>,
        now_ms: Option<u64>,
    ) -> Result<Arc<Session>, ToolnexusError> {
        let session = restore_with(&snapshot, &keys, limits, now_ms, core::Session::restore)?;
        Ok(Arc::new(Session {
            options: SessionOptions::from_core(session.options()),
            inner: Shared::new(session),
        }))
    }
}

impl Session {
    /// Begins the request of `params_json`: the core's request, and what `then` takes from
    /// the session for it in the same turn of the lock.
    fn begin_then<T>(
        &self,
        params_json: &[u8],
        id: Option<String>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
        then: impl FnOnce(&core::Session, &str) -> T,
    ) -> Result<(core::Request, T), ToolnexusError> {
        let params =
            core::ElicitRequestParams::from_json(params_json, &Limits::or_default(limits))?;
        let id = id.unwrap_or_else(core::id::next_id);
        let now = now_or_clock(now_ms);
        let begun = self.inner.with(|s| {
            let request = s.begin(&params, &id, now)?;
            Ok::<_, core::Error>((request, then(s, &id)))
        })?;
        Ok(begun)
    }
}
