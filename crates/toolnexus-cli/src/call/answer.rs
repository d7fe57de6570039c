//! What the conversation does with the server's own requests and notifications (handshake
//! era): `ping` is answered, `elicitation/create` is asked of the person (or the answers) and
//! replied to, a withdrawal closes the open form, completions are reported, and anything else
//! gets the protocol's error.

use std::cell::RefCell;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use toolnexus_core::form::Form;
use toolnexus_core::id::now_ms;
use toolnexus_core::wire::client::{self, PING_METHOD};
use toolnexus_core::wire::method::CANCELLED;
use toolnexus_core::wire::reverse::Incoming;
use toolnexus_core::wire::rpc::Message;
use toolnexus_core::{Request, ReverseBridge, UrlReview};

use super::Conversation;
use super::inbox::Inbox;
use super::transport::Event;
use crate::ask::{Ask, Reply};
use crate::elicit::{answer_with, ask_once};
use crate::note;
use crate::report::Failure;
use crate::terminal::{self, Terminal};

impl Conversation<'_> {
    /// A request or notification from the server.
    pub(super) fn server_message(&mut self, message: Message) -> Result<(), Failure> {
        if let Some(kept) = self.keeps(&message) {
            self.kept_question = Some((message, kept.0, kept.1));
            return Ok(());
        }
        if let Message::Request { id, method, .. } = &message
            && method == PING_METHOD
        {
            let reply = client::ping_reply(id);
            return self.send_reply(reply);
        }
        match self.bridge.handle(message, now_ms()) {
            Incoming::Elicit { request, .. } => self.elicit(&request),
            Incoming::Reply(reply) => {
                note!(
                    "the server sent a request this client cannot answer; it gets \
                     an error: {reply}"
                );
                self.send_reply(reply)
            }
            Incoming::Completed { request_id, reply } => {
                note!("the server says the interaction of {request_id} is complete");
                match reply {
                    Some(reply) => self.send_reply(reply),
                    None => Ok(()),
                }
            }
            Incoming::Withdrawn { request_id } => {
                note!("the server withdrew its question ({request_id})");
                Ok(())
            }
            Incoming::Ignored { .. } => Ok(()),
        }
    }

    /// Whether `message` is a handshake-era task's question to keep for later (`--defer`,
    /// nobody to answer, a server reached over HTTP): the request it maps to, and the id of
    /// the session it came on, which is left open from now on.
    fn keeps(&mut self, message: &Message) -> Option<(toolnexus_core::Value, String)> {
        let question =
            matches!(message, Message::Request { method, .. } if method == "elicitation/create");
        if !(question && self.following_task && self.deferring() && self.inbox.reachable_again()) {
            return None;
        }
        // What the question asks, read by a bridge of its own: the conversation's reads it
        // when it is answered.
        let mut bridge = toolnexus_core::ReverseBridge::new(self.options);
        let Incoming::Elicit { request, .. } = bridge.handle(message.clone(), now_ms()) else {
            return None;
        };
        let request = super::request_value(&request).ok()?;
        let session = self.inbox.keep_session()?;
        Some((request, session))
    }

    /// Answers an `elicitation/create` of the handshake era, unless the server withdraws it
    /// while the person answers: then nothing is sent. A person at the terminal is asked on a
    /// thread of its own while this one watches the server, so a withdrawal closes the open
    /// form at once (the abandoned prompt gives the terminal back).
    fn elicit(&mut self, request: &Request) -> Result<(), Failure> {
        self.cannot_defer(
            "a question of the 2025 era outside a task over HTTP (it is bound to this \
             connection)",
        );
        let who = self.who();
        let form = self.bridge.session().form(request.id()).cloned();
        let interactive = self.asker.interactive();
        let Conversation {
            inbox,
            bridge,
            asker,
            terminal_taken,
            ..
        } = self;
        // Both the watch while a person answers and the answer itself read the server's
        // cancellations into the bridge, one after the other.
        let watch = RefCell::new(Watch { inbox, bridge });
        let ask = Ask::new(request, who.as_deref());
        let (reply, ran_out) = answer_with(
            request,
            |review, refused| {
                if !interactive {
                    return ask_once(*asker, &ask, form.as_ref(), review, refused);
                }
                if *terminal_taken {
                    note!(
                        "the terminal is still held by a withdrawn form; this \
                         request is cancelled"
                    );
                    return Some(Reply::cancel("cancelled"));
                }
                let replied = ask_on_a_thread(&ask, form.as_ref(), review, refused);
                loop {
                    match replied.recv_timeout(Duration::from_millis(50)) {
                        Ok(reply) => return reply,
                        Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            if watch.borrow_mut().withdrawn(request.id()) {
                                terminal::restore();
                                *terminal_taken = true;
                                return Some(Reply::cancel("withdrawn"));
                            }
                        }
                    }
                }
            },
            |answer| {
                let mut watch = watch.borrow_mut();
                if watch.withdrawn(answer.id()) {
                    note!(
                        "the server withdrew its question: the form is closed and \
                         nothing is sent"
                    );
                    return Ok(None);
                }
                watch.bridge.respond(answer, now_ms())
            },
        )?;
        self.answered_all &= !ran_out;
        match reply {
            Some(reply) => self.send_reply(reply),
            None => Ok(()),
        }
    }

    /// Sends a response or notification written by the core, in the version spoken.
    fn send_reply(&mut self, text: String) -> Result<(), Failure> {
        let reply = self.client.reply(text);
        self.inbox.send(&reply)
    }
}

/// What the conversation watches while a person answers: the server's messages, read into
/// the bridge (cancellations) or kept for later (everything else).
struct Watch<'w> {
    inbox: &'w mut Inbox,
    bridge: &'w mut ReverseBridge,
}

impl Watch<'_> {
    /// Whether the server has withdrawn the request `id`, after reading what it sent so far.
    fn withdrawn(&mut self, id: &str) -> bool {
        while let Some(event) = self.inbox.arrived() {
            match event {
                Event::Server(message @ Message::Notification { .. }) if is_cancel(&message) => {
                    let _ = self.bridge.handle(message, now_ms());
                }
                other => self.inbox.keep(other),
            }
        }
        !self.bridge.session().is_pending(id)
    }
}

fn is_cancel(message: &Message) -> bool {
    matches!(message, Message::Notification { method, .. } if method == CANCELLED)
}

/// Asks the person at the terminal on a thread of its own; the reply arrives on the channel
/// returned (`None` when there is no terminal after all).
fn ask_on_a_thread(
    ask: &Ask<'_>,
    form: Option<&Form>,
    review: Option<&UrlReview>,
    refused: Option<&toolnexus_core::Error>,
) -> mpsc::Receiver<Option<Reply>> {
    let (tx, rx) = mpsc::channel();
    let (request, who) = (ask.request.clone(), ask.who.map(String::from));
    let (form, review, refused) = (form.cloned(), review.cloned(), refused.cloned());
    thread::spawn(move || {
        let reply = Terminal::open().and_then(|mut terminal| {
            let ask = Ask::new(&request, who.as_deref());
            ask_once(
                &mut terminal,
                &ask,
                form.as_ref(),
                review.as_ref(),
                refused.as_ref(),
            )
        });
        let _ = tx.send(reply);
    });
    rx
}
