//! The conversation's one source of events: what the transport delivers, and what was put
//! aside while a person answered, in order. Waiting here is the only place the server's time
//! is counted.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use toolnexus_core::wire::client::Outgoing;

use super::transport::{Event, Received, RefusedRequest, Transport};
use crate::note;
use crate::report::Failure;

/// The transport, with the events put aside and the server's time left.
pub struct Inbox {
    transport: Box<dyn Transport>,
    backlog: VecDeque<Event>,
    /// Authorizations asked for while a person answered, to get at the next wait.
    challenges: VecDeque<RefusedRequest>,
    /// The time spent getting authorizations: neither the server's time nor a wait's.
    paused: Duration,
    /// The server's time left: it runs only while the client waits for the server.
    budget: Duration,
    timeout: Duration,
}

impl Inbox {
    /// Events of `transport`, whose server has `timeout` in all.
    pub fn new(transport: Box<dyn Transport>, timeout: Duration) -> Inbox {
        Inbox {
            transport,
            backlog: VecDeque::new(),
            challenges: VecDeque::new(),
            paused: Duration::ZERO,
            budget: timeout,
            timeout,
        }
    }

    /// Sends one message.
    pub fn send(&mut self, message: &Outgoing) -> Result<(), Failure> {
        self.transport.send(message).map_err(Failure::server)
    }

    /// The next event, from the backlog first; what is not JSON-RPC is said on standard
    /// error and skipped. No event within the server's time left is a timeout failure naming
    /// `what` was awaited.
    pub fn next(&mut self, what: &str) -> Result<Event, Failure> {
        loop {
            let budget = self.budget;
            match self.next_within(budget)? {
                Some(event) => return Ok(event),
                None if self.budget.is_zero() || budget.is_zero() => {
                    return Err(Failure::server(format!(
                        "timeout: the server did not answer {what} within {} s of its own time",
                        self.timeout.as_secs()
                    )));
                }
                None => {}
            }
        }
    }

    /// The next event within `wait` (and the server's time left), or `None`.
    pub fn next_within(&mut self, wait: Duration) -> Result<Option<Event>, Failure> {
        self.wait(wait.min(self.budget), true)
    }

    /// The next event within `wait`, the backlog first, without counting the server's time:
    /// for waits that are the client's own (between a task's polls).
    pub fn idle_within(&mut self, wait: Duration) -> Result<Option<Event>, Failure> {
        self.wait(wait, false)
    }

    /// The next event within `wait`, the backlog first; the time spent counts against the
    /// server's when `counted`. An authorization the server asks for is got on the way; the
    /// time it takes (a person signs in) counts against neither the server nor `wait`.
    fn wait(&mut self, wait: Duration, counted: bool) -> Result<Option<Event>, Failure> {
        let mut deadline = Instant::now() + wait;
        while let Some(challenge) = self.challenges.pop_front() {
            deadline += self.authorize(challenge)?;
        }
        if let Some(event) = self.backlog.pop_front() {
            return Ok(Some(event));
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let started = Instant::now();
            let received = self.transport.receive(left);
            if counted {
                self.budget = self.budget.saturating_sub(started.elapsed());
            }
            match received {
                Received::Event(Event::Garbage(bytes)) => not_json_rpc(&bytes),
                Received::Event(event) => return Ok(Some(event)),
                Received::Unauthorized(challenge) => {
                    deadline += self.authorize(*challenge)?;
                    continue;
                }
                Received::Timeout => return Ok(None),
                Received::Closed(why) => return Err(Failure::server(why)),
            }
            if left.is_zero() {
                return Ok(None);
            }
        }
    }

    /// Gets the authorization `challenge` asks for: the time it took.
    fn authorize(&mut self, challenge: RefusedRequest) -> Result<Duration, Failure> {
        let started = Instant::now();
        self.transport.authorize(challenge)?;
        let spent = started.elapsed();
        self.paused += spent;
        Ok(spent)
    }

    /// The time spent getting authorizations so far, which no wait counts.
    pub fn paused(&self) -> Duration {
        self.paused
    }

    /// Whether the server's time is used up.
    pub fn out_of_time(&self) -> bool {
        self.budget.is_zero()
    }

    /// The server's time in all.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// What the transport has delivered by now, without waiting and without counting time;
    /// `None` when nothing more is there (or the server is gone, which is said).
    pub fn arrived(&mut self) -> Option<Event> {
        loop {
            match self.transport.receive(Duration::ZERO) {
                Received::Event(Event::Garbage(bytes)) => not_json_rpc(&bytes),
                Received::Event(event) => return Some(event),
                // A person may be answering: the authorization is got at the next wait.
                Received::Unauthorized(challenge) => self.challenges.push_back(*challenge),
                Received::Timeout => return None,
                Received::Closed(why) => {
                    note!("{why}");
                    return None;
                }
            }
        }
    }

    /// Puts `event` aside, to be the next one read after those already aside.
    pub fn keep(&mut self, event: Event) {
        self.backlog.push_back(event);
    }

    /// Whether the transport mirrors tool arguments into headers.
    pub fn mirrors_headers(&self) -> bool {
        self.transport.mirrors_headers()
    }

    /// Whether every request gets its own answer (see [`Transport::answers_every_request`]).
    pub fn answers_every_request(&self) -> bool {
        self.transport.answers_every_request()
    }

    /// Whether the server can be reached again from another process (see
    /// [`Transport::reachable_again`]).
    pub fn reachable_again(&self) -> bool {
        self.transport.reachable_again()
    }

    /// Leaves the session open when the conversation ends: its id (see
    /// [`Transport::keep_session`]).
    pub fn keep_session(&mut self) -> Option<String> {
        self.transport.keep_session()
    }

    /// Speaks within the session `id` (see [`Transport::join_session`]).
    pub fn join_session(&mut self, id: &str) -> Result<(), Failure> {
        self.transport.join_session(id)
    }

    /// Ends the conversation.
    pub fn close(&mut self) {
        self.transport.close();
    }
}

/// Says on standard error that the server wrote something that is not a JSON-RPC message.
fn not_json_rpc(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let shown: String = text.chars().take(120).collect();
    note!("the server wrote a line that is not a JSON-RPC message; ignored: {shown}");
}
