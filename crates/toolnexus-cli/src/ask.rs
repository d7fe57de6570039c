//! Who answers: a person at the terminal, or a script's list of answers. Both are an
//! [`Asker`]; the elicit command does not know which.

use std::sync::{Arc, Mutex, PoisonError};

use toolnexus_core::form::Form;
use toolnexus_core::{Error, ErrorKind, Map, Request, UrlReview, Value};

use crate::report;
use crate::{note, warning};

/// What is asked: the request, who asks (when known) and its place among the requests of one
/// elicitation.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// The request to resolve.
    pub request: &'a Request,
    /// The server that asks, when known.
    pub who: Option<&'a str>,
    /// Its key among several input requests (2026-07-28), if it has one.
    pub key: Option<&'a str>,
    /// Which request this is, from 1, and how many there are.
    pub position: (usize, usize),
}

impl<'a> Ask<'a> {
    /// `request`, asked by `who` when known: the one request of its elicitation, with no key.
    pub fn new(request: &'a Request, who: Option<&'a str>) -> Ask<'a> {
        Ask {
            request,
            who,
            key: None,
            position: (1, 1),
        }
    }

    /// The same ask, of the input request whose key is `key` (2026-07-28).
    pub fn keyed(self, key: &'a str) -> Ask<'a> {
        Ask {
            key: Some(key),
            ..self
        }
    }

    /// The same ask, as request `n` (from 1) of `count` asked together.
    pub fn at(self, n: usize, count: usize) -> Ask<'a> {
        Ask {
            position: (n, count),
            ..self
        }
    }
}

/// An answer in the contract's shape, before it is given the request's id.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// Accepted (`true`) or not.
    pub ok: bool,
    /// The content of an accepted form.
    pub data: Option<Map>,
    /// Why not: `"declined"` declines, anything else (or nothing) cancels.
    pub reason: Option<String>,
}

impl Reply {
    /// An accept, with the form's content (none for a URL consent).
    pub fn accept(data: Option<Map>) -> Reply {
        Reply {
            ok: true,
            data,
            reason: None,
        }
    }

    /// A decline.
    pub fn decline() -> Reply {
        Reply {
            ok: false,
            data: None,
            reason: Some(String::from("declined")),
        }
    }

    /// A cancel, saying why.
    pub fn cancel(reason: &str) -> Reply {
        Reply {
            ok: false,
            data: None,
            reason: Some(String::from(reason)),
        }
    }
}

/// Answers requests. `None` means there is nothing more to answer with (a script's answers
/// ran out): the request is then cancelled and the command fails.
pub trait Asker: Send {
    /// Whether a person answers at the terminal (a form can then be open while the server
    /// acts, and a withdrawal closes it).
    fn interactive(&self) -> bool {
        false
    }

    /// Answers a form-mode request. `refused` is the error the last answer got (invalid
    /// content), to show before asking again.
    fn form(&mut self, ask: &Ask<'_>, form: &Form, refused: Option<&Error>) -> Option<Reply>;

    /// Answers a URL-mode request after its review. An accept for a URL whose verdict is
    /// `reject` is refused by the caller.
    fn url(&mut self, ask: &Ask<'_>, review: &UrlReview, refused: Option<&Error>) -> Option<Reply>;

    /// Answers the consent to an authorization link (`kind: "authorization"`) that toolnexus
    /// opens itself once consented to, to get a token for the server. It is a URL request
    /// like any other, answered the same way unless the asker shows it otherwise.
    fn authorization(
        &mut self,
        ask: &Ask<'_>,
        review: &UrlReview,
        refused: Option<&Error>,
    ) -> Option<Reply> {
        self.url(ask, review, refused)
    }

    /// Whether a question coming now would get an answer: a person at the terminal, or an
    /// answer left in `--answers`.
    fn can_answer(&self) -> bool {
        true
    }

    /// Whether a question came that nobody could be asked (and was cancelled for it).
    fn unasked(&self) -> bool {
        false
    }
}

/// One asker answering for two: the conversation, and the authorization of a server reached
/// over HTTP, which asks for consent to its link. Each ask has it in turn, so the answers of
/// `--answers` are used in the order the questions come, whoever asks.
#[derive(Clone)]
pub struct Shared(Arc<Mutex<Box<dyn Asker>>>);

impl Shared {
    /// `asker`, to be shared.
    pub fn new(asker: Box<dyn Asker>) -> Shared {
        Shared(Arc::new(Mutex::new(asker)))
    }

    fn with<R>(&self, ask: impl FnOnce(&mut dyn Asker) -> R) -> R {
        let mut asker = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        ask(asker.as_mut())
    }
}

impl Asker for Shared {
    fn interactive(&self) -> bool {
        self.with(|a| a.interactive())
    }

    fn form(&mut self, ask: &Ask<'_>, form: &Form, refused: Option<&Error>) -> Option<Reply> {
        self.with(|a| a.form(ask, form, refused))
    }

    fn url(&mut self, ask: &Ask<'_>, review: &UrlReview, refused: Option<&Error>) -> Option<Reply> {
        self.with(|a| a.url(ask, review, refused))
    }

    fn authorization(
        &mut self,
        ask: &Ask<'_>,
        review: &UrlReview,
        refused: Option<&Error>,
    ) -> Option<Reply> {
        self.with(|a| a.authorization(ask, review, refused))
    }

    fn unasked(&self) -> bool {
        self.with(|a| a.unasked())
    }

    fn can_answer(&self) -> bool {
        self.with(|a| a.can_answer())
    }
}

/// The asker of a `call` with no terminal and no `--answers`: the call runs, and a question,
/// if one comes, is cancelled and said on standard error.
#[derive(Debug, Default)]
pub struct Nobody {
    asked: bool,
}

impl Nobody {
    fn cancel(&mut self, ask: &Ask<'_>) -> Option<Reply> {
        self.asked = true;
        note!(
            "the server asks a person ({}), but there is no terminal to ask on and no \
             --answers: the question is cancelled",
            asked(ask, None)
        );
        Some(Reply::cancel("cancelled"))
    }
}

impl Asker for Nobody {
    fn form(&mut self, ask: &Ask<'_>, _: &Form, _: Option<&Error>) -> Option<Reply> {
        self.cancel(ask)
    }

    fn url(&mut self, ask: &Ask<'_>, _: &UrlReview, _: Option<&Error>) -> Option<Reply> {
        self.cancel(ask)
    }

    fn unasked(&self) -> bool {
        self.asked
    }

    fn can_answer(&self) -> bool {
        false
    }
}

/// What is asked, in a line: the kind of request, its key, its prompt, and for a URL the URL
/// in full and its host (in Unicode and, when it differs, ASCII).
fn asked(ask: &Ask<'_>, review: Option<&UrlReview>) -> String {
    let mut line = match ask.request.url() {
        Some(_) => String::from("URL consent"),
        None => String::from("form"),
    };
    if let Some(key) = ask.key {
        line.push_str(&format!(" {key:?}"));
    }
    line.push_str(&format!(" {:?}", ask.request.prompt()));
    if let Some(url) = ask.request.url() {
        line.push_str(&format!(": open {url}"));
        if let Some(host) = review.and_then(UrlReview::host) {
            line.push_str(&format!(" (host {host}"));
            if let Some(ascii) = review
                .and_then(UrlReview::host_ascii)
                .filter(|a| *a != host)
            {
                line.push_str(&format!(", ASCII {ascii}"));
            }
            line.push(')');
        }
    }
    line
}

/// What was answered, in a line: accept with its content, decline, or cancel.
fn answered(reply: &Reply) -> String {
    match (reply.ok, reply.reason.as_deref()) {
        (true, _) => match &reply.data {
            Some(data) => format!("accept {}", data.to_json()),
            None => String::from("accept"),
        },
        (false, Some("declined")) => String::from("decline"),
        (false, Some(reason)) => format!("cancel ({reason})"),
        (false, None) => String::from("cancel"),
    }
}

/// The answers of `--answers`: a JSON array of `{"ok", "data"?, "reason"?}`, used in order,
/// one per ask.
#[derive(Debug)]
pub struct Scripted {
    answers: std::vec::IntoIter<Reply>,
    used: usize,
}

impl Scripted {
    /// Reads the list; an item that is not an answer without `id` is an error pointing at it.
    pub fn from_value(value: Value) -> Result<Scripted, Error> {
        let Value::Array(items) = value else {
            return Err(Error::new(
                ErrorKind::WrongType,
                "",
                format!(
                    "--answers must be a JSON array of answers such as [{{\"ok\":true,\"data\":{{...}}}}], not {}",
                    value.type_name()
                ),
            ));
        };
        let mut answers = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let at = format!("/{i}");
            answers.push(reply_of(item).map_err(|e| e.within(&at))?);
        }
        Ok(Scripted {
            answers: answers.into_iter(),
            used: 0,
        })
    }

    /// The next answer, after saying why the last one was refused; `None`, said on standard
    /// error, when there are no more. Each answer given is said on standard error with what
    /// it answers, so that a script's log records both.
    fn next(
        &mut self,
        ask: &Ask<'_>,
        review: Option<&UrlReview>,
        refused: Option<&Error>,
    ) -> Option<Reply> {
        if let Some(error) = refused {
            note!(
                "answer {} was refused for request {}; using the next one:",
                self.used,
                ask.request.id()
            );
            report::error(error);
        }
        let Some(reply) = self.answers.next() else {
            warning!(
                "the answers ran out ({} used) before request {} was answered",
                self.used,
                ask.request.id()
            );
            return None;
        };
        self.used += 1;
        note!(
            "asked {}; answered {}",
            asked(ask, review),
            answered(&reply)
        );
        Some(reply)
    }
}

/// One item of `--answers`, read with the contract's own rules (an `id` is added to check it).
fn reply_of(item: Value) -> Result<Reply, Error> {
    let Value::Object(mut map) = item else {
        return Err(Error::new(
            ErrorKind::WrongType,
            "",
            format!(
                "an answer is an object {{\"ok\", \"data\"?, \"reason\"?}}, not {}",
                item.type_name()
            ),
        ));
    };
    if map.get("id").is_some() {
        return Err(Error::new(
            ErrorKind::UnknownField,
            "/id",
            "answers in --answers have no `id`: each is given the id of the request it answers",
        ));
    }
    map.insert("id", Value::from("answer"));
    let answer = toolnexus_core::Answer::from_value(Value::Object(map))?;
    Ok(Reply {
        ok: answer.ok(),
        data: answer.data().cloned(),
        reason: answer.reason().map(|r| String::from(r.as_str())),
    })
}

impl Asker for Scripted {
    fn form(&mut self, ask: &Ask<'_>, _: &Form, refused: Option<&Error>) -> Option<Reply> {
        self.next(ask, None, refused)
    }

    fn url(&mut self, ask: &Ask<'_>, review: &UrlReview, refused: Option<&Error>) -> Option<Reply> {
        self.next(ask, Some(review), refused)
    }

    fn can_answer(&self) -> bool {
        self.answers.len() > 0
    }
}
