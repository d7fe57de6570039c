//! A server that says what a script says: the transport the conversation's tests and the fuzz
//! target drive it with, with no process and no network. Each `receive` hands out the next
//! scripted message, with `$ID` standing for the id of the client's last request; every
//! message the client sends is kept, to be looked at afterwards.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Duration;

use toolnexus_core::Limits;
use toolnexus_core::wire::client::Outgoing;

use super::transport::{Event, Received, Transport};

/// What the client sent, shared with whoever made the script.
pub type Sent = Rc<RefCell<Vec<Outgoing>>>;

/// A scripted server: its messages in order, then the end of its output.
pub struct Scripted {
    messages: VecDeque<Vec<u8>>,
    last_id: String,
    sent: Sent,
    mirrors: bool,
    /// When set, a scripted response waits until a request awaits one (see
    /// [`Scripted::paced`]); the count of requests sent and not answered yet.
    paced: Option<usize>,
    /// Whether the first wait is silent (see [`Scripted::silent_first`]).
    silent_first: bool,
}

impl Scripted {
    /// A server that will say `messages`, in order; what the client sends goes to the
    /// returned log.
    pub fn new<I, M>(messages: I) -> (Scripted, Sent)
    where
        I: IntoIterator<Item = M>,
        M: Into<Vec<u8>>,
    {
        let sent = Sent::default();
        let scripted = Scripted {
            messages: messages.into_iter().map(Into::into).collect(),
            last_id: String::from("0"),
            sent: Rc::clone(&sent),
            mirrors: false,
            paced: None,
            silent_first: false,
        };
        (scripted, sent)
    }

    /// The same server reached over streamable HTTP: tool arguments are mirrored into
    /// headers.
    pub fn over_http(self) -> Scripted {
        Scripted {
            mirrors: true,
            ..self
        }
    }
}

impl Scripted {
    /// The same server answering in turn: a scripted response comes only while a request
    /// of the client's awaits one (until then `receive` waits and times out), as a server
    /// that polls are sent to behaves. Requests and notifications come at once.
    pub fn paced(self) -> Scripted {
        Scripted {
            paced: Some(0),
            ..self
        }
    }
}

impl Scripted {
    /// The same server saying nothing for the whole of the client's first wait, as a slow or
    /// a deaf one does; then the script.
    pub fn silent_first(self) -> Scripted {
        Scripted {
            silent_first: true,
            ..self
        }
    }
}

/// Whether a scripted message is a response (no `method` at its top).
fn is_response(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes).replace("$ID", "0");
    toolnexus_core::json::parse_str(&text, &Limits::DEFAULT)
        .ok()
        .is_some_and(|message| message.get("method").is_none())
}

impl Transport for Scripted {
    fn send(&mut self, message: &Outgoing) -> Result<(), String> {
        if let Some(id) = message.id() {
            self.last_id = id.to_json();
            if let Some(waiting) = &mut self.paced {
                *waiting += 1;
            }
        }
        self.sent.borrow_mut().push(message.clone());
        Ok(())
    }

    fn receive(&mut self, wait: Duration) -> Received {
        if std::mem::take(&mut self.silent_first) {
            std::thread::sleep(wait);
            return Received::Timeout;
        }
        if let (Some(waiting), Some(next)) = (&mut self.paced, self.messages.front())
            && is_response(next)
        {
            if *waiting == 0 {
                std::thread::sleep(wait);
                return Received::Timeout;
            }
            *waiting -= 1;
        }
        match self.messages.pop_front() {
            Some(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let bytes = if text.contains("$ID") {
                    text.replace("$ID", &self.last_id).into_bytes()
                } else {
                    bytes
                };
                Received::Event(Event::read(bytes, &Limits::DEFAULT))
            }
            None => Received::Closed(String::from("the script ended")),
        }
    }

    fn close(&mut self) {}

    fn mirrors_headers(&self) -> bool {
        self.mirrors
    }

    fn reachable_again(&self) -> bool {
        self.mirrors
    }

    fn answers_every_request(&self) -> bool {
        self.mirrors
    }
}
