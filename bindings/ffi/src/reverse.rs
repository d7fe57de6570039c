//! The MCP 2025-06-18 / 2025-11-25 wire: `ReverseBridge` turns the server's JSON-RPC
//! `elicitation/create` requests into [`Request`]s and the host's answers into the JSON-RPC
//! responses to send. JSON-RPC crosses as text, so the bytes sent are exactly the core's.

use std::sync::Arc;

use toolnexus_core as core;
use toolnexus_core::wire::reverse::IgnoreReason as CoreReason;
use toolnexus_core::wire::rpc;

use crate::contract::{Answer, Request};
use crate::error::ToolnexusError;
use crate::form::Form;
use crate::json_text::json_number;
use crate::limits::Limits;
use crate::mirror::mirror_enum;
use crate::shared::{SessionOptions, Shared, now_or_clock};

/// A JSON-RPC id: a string, or a number spelt exactly as received (`7`, `1.0`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RpcId {
    /// A string id.
    Text {
        /// The string.
        value: String,
    },
    /// A number id.
    Number {
        /// The JSON spelling of the number.
        spelling: String,
    },
}

impl RpcId {
    pub(crate) fn from_core(id: &rpc::RpcId) -> RpcId {
        match id {
            rpc::RpcId::String(value) => RpcId::Text {
                value: value.clone(),
            },
            rpc::RpcId::Number(n) => RpcId::Number {
                spelling: n.as_str().into(),
            },
        }
    }

    /// The core's id; a spelling that is not a JSON number is an `InvalidValue` error.
    pub(crate) fn to_core(&self) -> Result<rpc::RpcId, core::Error> {
        match self {
            RpcId::Text { value } => Ok(rpc::RpcId::String(value.clone())),
            RpcId::Number { spelling } => json_number(spelling).map(rpc::RpcId::Number),
        }
    }
}

/// The id as compact JSON (`"abc"`, `7`); a number spelling that is not JSON fails with
/// `InvalidValue`.
#[uniffi::export]
pub fn rpc_id_to_json(id: &RpcId) -> Result<String, ToolnexusError> {
    Ok(id.to_core()?.to_value().to_json())
}

mirror_enum! {
    /// Why a message was ignored.
    pub enum IgnoreReason mirrors CoreReason, else Notification {
        /// A response to a request of the client's own: its transport routes it.
        Response,
        /// A notification the bridge has no use for.
        Notification,
        /// A completion notification whose `elicitationId` is unknown or completed already.
        UnknownElicitation,
        /// A cancellation whose `requestId` names no pending `elicitation/create`.
        UnknownRequest,
        /// A completion or cancellation notification without the id it must carry.
        MalformedNotification,
    }
}

/// What a message from the server asks of the host.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Incoming {
    /// An `elicitation/create` to show the person; answer it with `respond` (or `fail`).
    Elicit {
        /// The server's id for the request, echoed in the response.
        rpc_id: RpcId,
        /// What to show, with the id the answer must carry.
        request: Request,
    },
    /// A JSON-RPC error response to send back at once; nothing else changed.
    Reply {
        /// The response, as JSON text.
        response: String,
    },
    /// The server says the URL interaction of `request_id` is complete: close its UI, and
    /// retry what a `-32042` error held up.
    Completed {
        /// The request that completed.
        request_id: String,
        /// The response to send when the request had not been answered yet (a cancel);
        /// `null` when there is nothing to send.
        reply: Option<String>,
    },
    /// The server withdrew the pending request `request_id` (`notifications/cancelled`):
    /// close its UI and send nothing.
    Withdrawn {
        /// The request withdrawn.
        request_id: String,
    },
    /// Not the bridge's business, or naming nothing it knows; nothing to send.
    Ignored {
        /// Why.
        why: IgnoreReason,
    },
}

impl Incoming {
    fn from_core(incoming: core::Incoming) -> Incoming {
        match incoming {
            core::Incoming::Elicit { rpc_id, request } => Incoming::Elicit {
                rpc_id: RpcId::from_core(&rpc_id),
                request: Request::from_core(&request),
            },
            core::Incoming::Reply(response) => Incoming::Reply { response },
            core::Incoming::Completed { request_id, reply } => {
                Incoming::Completed { request_id, reply }
            }
            core::Incoming::Withdrawn { request_id } => Incoming::Withdrawn { request_id },
            core::Incoming::Ignored { why } => Incoming::Ignored {
                why: IgnoreReason::from_core(why),
            },
        }
    }
}

/// A request waiting for the host's answer, with the server's id for it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PendingElicitation {
    /// The request.
    pub request: Request,
    /// The server's JSON-RPC id, for a request that came as `elicitation/create` (the
    /// elicitations of a `-32042` error have none).
    pub rpc_id: Option<RpcId>,
}

/// One client's end of the 2025 elicitation wire: JSON-RPC messages in, [`Request`]s out to
/// the host, [`Answer`]s in, JSON-RPC responses out.
///
/// Request ids are `format_id(nowMs, n)`, `n` counting the requests begun from 1. Every
/// method may be called from any thread; a `nowMs` left out is read from the system clock.
#[derive(uniffi::Object)]
pub struct ReverseBridge {
    options: SessionOptions,
    inner: Shared<core::ReverseBridge>,
}

#[uniffi::export]
impl ReverseBridge {
    /// A bridge with no pending requests, whose session follows `options` (the defaults
    /// when absent).
    #[uniffi::constructor(default(options = None))]
    pub fn new(options: Option<SessionOptions>) -> Arc<ReverseBridge> {
        let options = options.unwrap_or_default();
        Arc::new(ReverseBridge {
            options,
            inner: Shared::new(core::ReverseBridge::new(options.to_core())),
        })
    }

    /// The bridge's options.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// The client capabilities to declare at initialization, as compact JSON:
    /// `{"elicitation":{"form":{},"url":{}}}` with a member for each mode supported.
    pub fn capabilities(&self) -> String {
        self.inner.with(|b| b.capabilities()).to_json()
    }

    /// Takes one message from the server (JSON-RPC text), received at `now_ms`, read within
    /// `limits`. Never fails: whatever is wrong with the message is a `Reply` to send, or it
    /// is `Ignored`.
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn receive(
        &self,
        message: String,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Incoming {
        self.receive_bytes(message.into_bytes(), now_ms, limits)
    }

    /// [`ReverseBridge::receive`] for the message's bytes (bytes that are not UTF-8 are a
    /// parse error `Reply`).
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn receive_bytes(
        &self,
        message: Vec<u8>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Incoming {
        let now = now_or_clock(now_ms);
        let limits = Limits::or_default(limits);
        Incoming::from_core(self.inner.with(|b| b.receive(&message, now, &limits)))
    }

    /// Answers the pending request `answer.id` with what the person did, at `now_ms`: the
    /// JSON-RPC response to send, or `null` for an elicitation of a `-32042` error, which
    /// gets none. Fails as `Session.resolve` does, with nothing changed.
    #[uniffi::method(default(now_ms = None))]
    pub fn respond(
        &self,
        answer: &Answer,
        now_ms: Option<u64>,
    ) -> Result<Option<String>, ToolnexusError> {
        let answer = answer.to_core()?;
        let now = now_or_clock(now_ms);
        Ok(self.inner.with(|b| b.respond(&answer, now))?)
    }

    /// Reports that the host could not handle the pending request `request_id`: the request
    /// ends, and the `-32603` error response carrying `message` (a generic one when absent or
    /// empty) is returned to send, or `null` for an elicitation of a `-32042` error.
    /// `UnknownRequest` when no such request is pending.
    #[uniffi::method(default(message = None))]
    pub fn fail(
        &self,
        request_id: &str,
        message: Option<String>,
    ) -> Result<Option<String>, ToolnexusError> {
        let message = message.unwrap_or_default();
        Ok(self.inner.with(|b| b.fail(request_id, &message))?)
    }

    /// Reads a `-32042` URL-elicitation-required error response the host received for one
    /// of its own requests, at `now_ms`, and begins a [`Request`] for each URL elicitation
    /// it carries that is not begun already, in order. They get no response of their own:
    /// once they complete, the host retries its request. Fails with nothing begun; pointers
    /// locate the fault in the error response.
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn url_required(
        &self,
        error_response: String,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Vec<Request>, ToolnexusError> {
        self.url_required_bytes(error_response.into_bytes(), now_ms, limits)
    }

    /// [`ReverseBridge::url_required`] for the response's bytes (UTF-8 required).
    #[uniffi::method(default(now_ms = None, limits = None))]
    pub fn url_required_bytes(
        &self,
        error_response: Vec<u8>,
        now_ms: Option<u64>,
        limits: Option<Limits>,
    ) -> Result<Vec<Request>, ToolnexusError> {
        let now = now_or_clock(now_ms);
        let limits = Limits::or_default(limits);
        let begun = self
            .inner
            .with(|b| b.url_required(&error_response, now, &limits))?;
        Ok(begun.iter().map(Request::from_core).collect())
    }

    /// Answers every pending request with cancel, for shutdown: the responses to send, in
    /// the order the requests began. URL requests awaiting completion are forgotten.
    pub fn cancel_all(&self) -> Vec<String> {
        self.inner.with(core::ReverseBridge::cancel_all)
    }

    /// Ends every request whose time to live has lapsed at `now_ms` with a cancel: the
    /// responses to send, in the order the requests began.
    #[uniffi::method(default(now_ms = None))]
    pub fn expire(&self, now_ms: Option<u64>) -> Vec<String> {
        let now = now_or_clock(now_ms);
        self.inner.with(|b| b.expire(now))
    }

    /// The requests waiting for an answer, in the order they began, each with the server's
    /// id for it.
    pub fn pending(&self) -> Vec<PendingElicitation> {
        self.inner.with(|b| {
            b.session()
                .pending()
                .into_iter()
                .map(|request| PendingElicitation {
                    rpc_id: b.rpc_id(request.id()).map(RpcId::from_core),
                    request: Request::from_core(request),
                })
                .collect()
        })
    }

    /// The server's JSON-RPC id for the pending request `request_id`, if it came as an
    /// `elicitation/create`.
    pub fn rpc_id(&self, request_id: &str) -> Option<RpcId> {
        self.inner
            .with(|b| b.rpc_id(request_id).map(RpcId::from_core))
    }

    /// The URL requests accepted and waiting for the server's completion notification.
    pub fn awaiting_completion(&self) -> Vec<crate::session::AwaitingCompletion> {
        self.inner.with(|b| crate::session::awaiting(b.session()))
    }

    /// The form of the pending form-mode request `request_id`, prepared when its
    /// `elicitation/create` arrived; `null` for a URL request or an id that is not pending.
    pub fn form(&self, request_id: &str) -> Option<Arc<Form>> {
        let form = self.inner.with(|b| b.session().form(request_id).cloned());
        form.map(Form::from_core)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_keeps_its_core_name() {
        let names = [
            (IgnoreReason::Response, "response"),
            (IgnoreReason::Notification, "notification"),
            (IgnoreReason::UnknownElicitation, "unknown_elicitation"),
            (IgnoreReason::UnknownRequest, "unknown_request"),
            (
                IgnoreReason::MalformedNotification,
                "malformed_notification",
            ),
        ];
        for (reason, name) in names {
            assert_eq!(reason.as_str(), name);
            assert_eq!(IgnoreReason::from_core(reason.to_core()), reason);
        }
    }
}
