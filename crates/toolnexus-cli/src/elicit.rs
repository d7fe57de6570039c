//! `toolnexus elicit`: one elicitation, in whatever shape it came, answered by an [`Asker`]
//! and replied to in the matching shape.
//!
//! Every answer goes through the core: a [`Session`] for bare parameters, a
//! [`ReverseBridge`] for a JSON-RPC request, an [`InputRound`] for an `input_required`
//! result. So what is sent has its defaults filled and is validated, and an answer the core
//! refuses is explained and asked again, never sent.

use toolnexus_core::form::Form;
use toolnexus_core::id::now_ms;
use toolnexus_core::url_review::Verdict;
use toolnexus_core::wire::mrtr::{InputRequired, InputRound};
use toolnexus_core::wire::reverse::Incoming;
use toolnexus_core::wire::rpc::{ErrorResponse, Message};
use toolnexus_core::{
    Answer, ElicitRequestParams, Error, ErrorKind, Reason, Request, ReverseBridge, Session,
    SessionOptions, UrlReview, Value, id, review_url,
};

use crate::ask::{Ask, Asker, Reply};
use crate::input::Elicitation;
use crate::report::{Exit, Failure, verdict};
use crate::{note, warning};

/// What the command prints on standard output, and how it ends.
#[derive(Debug)]
pub struct Finished {
    /// The reply, in the shape of the elicitation.
    pub reply: String,
    /// [`Exit::Done`], or [`Exit::Refused`] when an answer was missing (answers ran out, an
    /// input request of another method could not be answered).
    pub exit: Exit,
}

/// The options every elicitation's session uses: defaults filled in on accept, so what is
/// sent matches the schema.
pub(crate) fn session_options() -> SessionOptions {
    SessionOptions::DEFAULT.with_apply_defaults(true)
}

/// Answers `elicitation` with `asker`; `who` names the server when it is known.
pub fn run(
    elicitation: Elicitation,
    asker: &mut dyn Asker,
    who: Option<&str>,
) -> Result<Finished, Failure> {
    let options = session_options();
    let now = now_ms();
    match elicitation {
        Elicitation::Params(params) => answer_params(&params, options, now, asker, who),
        Elicitation::Rpc(message) => answer_rpc(message, options, now, asker, who),
        Elicitation::InputRequired(input) => answer_input_required(input, options, now, asker, who),
    }
}

/// Bare `ElicitRequestParams`, answered through a [`Session`]: the `ElicitResult`.
fn answer_params(
    params: &ElicitRequestParams,
    options: SessionOptions,
    now: u64,
    asker: &mut dyn Asker,
    who: Option<&str>,
) -> Result<Finished, Failure> {
    let mut session = Session::new(options);
    let request = session.begin(params, &id::next_id(), now)?;
    let ask = Ask::new(&request, who);
    let form = session.form(request.id()).cloned();
    let (result, exhausted) =
        answer_one(&ask, form.as_ref(), asker, |a| session.resolve(a, now_ms()))?;
    Ok(Finished {
        reply: result.to_json(),
        exit: verdict(!exhausted),
    })
}

/// A JSON-RPC message, answered through a [`ReverseBridge`]: the response to an
/// `elicitation/create` request, or the error response to a request that cannot be shown.
fn answer_rpc(
    message: Result<Message, ErrorResponse>,
    options: SessionOptions,
    now: u64,
    asker: &mut dyn Asker,
    who: Option<&str>,
) -> Result<Finished, Failure> {
    let mut bridge = ReverseBridge::new(options);
    let incoming = match message {
        Ok(message) => bridge.handle(message, now),
        Err(reply) => Incoming::Reply(reply.to_json()),
    };
    match incoming {
        Incoming::Elicit { request, .. } => {
            let ask = Ask::new(&request, who);
            let form = bridge.session().form(request.id()).cloned();
            let (reply, exhausted) =
                answer_one(&ask, form.as_ref(), asker, |a| bridge.respond(a, now_ms()))?;
            Ok(Finished {
                reply: reply.unwrap_or_default(),
                exit: verdict(!exhausted),
            })
        }
        // The request cannot be shown: its error response is the reply.
        Incoming::Reply(response) => {
            warning!(
                "the request cannot be shown; the reply is the error the \
                 server gets"
            );
            Ok(Finished {
                reply: response,
                exit: Exit::Refused,
            })
        }
        Incoming::Completed { .. } | Incoming::Withdrawn { .. } | Incoming::Ignored { .. } => {
            Err(Failure::refused(Error::new(
                ErrorKind::InvalidValue,
                "/method",
                "this message asks nothing: give an elicitation/create request",
            )))
        }
    }
}

/// A 2026-07-28 `input_required` result, each of its elicitations answered in turn through
/// an [`InputRound`]: `{"inputResponses", "requestState"}`. An input request of another
/// method is said and left out.
fn answer_input_required(
    input: InputRequired,
    options: SessionOptions,
    now: u64,
    asker: &mut dyn Asker,
    who: Option<&str>,
) -> Result<Finished, Failure> {
    let (mut round, requests) = InputRound::for_result(input, options, now)?;
    let unhandled: Vec<(String, String)> = round
        .unhandled()
        .iter()
        .map(|r| (String::from(r.key()), String::from(r.method())))
        .collect();
    for (key, method) in &unhandled {
        note!(
            "input request {key:?} asks for {method}, which is not an \
             elicitation: toolnexus elicit answers elicitation/create only, so the reply \
             leaves it out"
        );
    }
    let mut exhausted = false;
    let count = requests.len();
    for (n, (key, request)) in requests.iter().enumerate() {
        let ask = Ask::new(request, who).keyed(key).at(n + 1, count);
        let form = round.session().form(request.id()).cloned();
        let (_, ran_out) = answer_one(&ask, form.as_ref(), asker, |a| round.resolve(a, now_ms()))?;
        exhausted |= ran_out;
    }
    let responses = round.input_responses(!unhandled.is_empty())?;
    Ok(Finished {
        reply: Value::Object(responses).to_json(),
        exit: verdict(!exhausted && unhandled.is_empty()),
    })
}

/// Asks `asker` until the core takes an answer: its result, and whether the answers ran out
/// (the request was then cancelled).
pub(crate) fn answer_one<R>(
    ask: &Ask<'_>,
    form: Option<&Form>,
    asker: &mut dyn Asker,
    resolve: impl FnMut(&Answer) -> Result<R, Error>,
) -> Result<(R, bool), Error> {
    answer_with(
        ask.request,
        |review, refused| ask_once(asker, ask, form, review, refused),
        resolve,
    )
}

/// As [`answer_one`], except that when the answers run out nothing is resolved: `None`, and
/// the question can be kept for later (`call --defer`).
pub(crate) fn answer_or_keep<R>(
    ask: &Ask<'_>,
    form: Option<&Form>,
    asker: &mut dyn Asker,
    resolve: impl FnMut(&Answer) -> Result<R, Error>,
) -> Result<Option<R>, Error> {
    let taken = answer_loop(
        ask.request,
        |review, refused| ask_once(asker, ask, form, review, refused),
        resolve,
        OnceOut::Keep,
    )?;
    Ok(taken.map(|(result, _)| result))
}

/// One ask of `asker`: the form, or the URL and its review. `refused` is what the last answer
/// got.
pub(crate) fn ask_once(
    asker: &mut dyn Asker,
    ask: &Ask<'_>,
    form: Option<&Form>,
    review: Option<&UrlReview>,
    refused: Option<&Error>,
) -> Option<Reply> {
    match (form, review) {
        (Some(form), _) => asker.form(ask, form, refused),
        (None, Some(review)) => asker.url(ask, review, refused),
        (None, None) => Some(Reply::cancel("unsupported")),
    }
}

/// The one loop behind every answer: `ask` (given the URL's review, if any, and the last
/// refusal) until `resolve` takes an answer. An accept of a URL the review rejects, and content
/// the core refuses, are asked again; `None` from `ask` (nothing more to answer with) cancels.
pub(crate) fn answer_with<R>(
    request: &Request,
    ask: impl FnMut(Option<&UrlReview>, Option<&Error>) -> Option<Reply>,
    resolve: impl FnMut(&Answer) -> Result<R, Error>,
) -> Result<(R, bool), Error> {
    answer_loop(request, ask, resolve, OnceOut::Cancel)?.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidValue,
            "",
            "the question was neither answered nor cancelled",
        )
    })
}

/// What the loop does once the answers are out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnceOut {
    /// Cancels the request.
    Cancel,
    /// Leaves it unanswered, to be kept for later.
    Keep,
}

/// [`answer_with`]'s loop; `None` only when the answers ran out and `out` keeps the request.
fn answer_loop<R>(
    request: &Request,
    mut ask: impl FnMut(Option<&UrlReview>, Option<&Error>) -> Option<Reply>,
    mut resolve: impl FnMut(&Answer) -> Result<R, Error>,
    out: OnceOut,
) -> Result<Option<(R, bool)>, Error> {
    let review = request.url().map(review_url);
    let mut refused: Option<Error> = None;
    loop {
        let Some(reply) = ask(review.as_ref(), refused.as_ref()) else {
            if out == OnceOut::Keep {
                return Ok(None);
            }
            warning!(
                "request {} is cancelled, and nothing invalid is sent",
                request.id()
            );
            let cancel = Answer::refuse(request.id(), Reason::parse("cancelled"))?;
            return Ok(Some((resolve(&cancel)?, true)));
        };
        if let Some(refusal) = refused_consent(review.as_ref(), &reply) {
            refused = Some(refusal);
            continue;
        }
        let answer = answer_of(request, reply)?;
        match resolve(&answer) {
            Ok(result) => return Ok(Some((result, false))),
            Err(e) if e.kind() == ErrorKind::InvalidContent => refused = Some(e),
            Err(e) => return Err(e),
        }
    }
}

/// The refusal of an accept for a URL whose review says reject, if `reply` is one.
fn refused_consent(review: Option<&UrlReview>, reply: &Reply) -> Option<Error> {
    (reply.ok && review.is_some_and(|r| r.verdict() == Verdict::Reject)).then(|| {
        Error::new(
            ErrorKind::InvalidValue,
            "",
            "the URL's review says reject, so it cannot be consented to: decline or cancel",
        )
    })
}

/// The answer `reply` gives to `request`.
fn answer_of(request: &Request, reply: Reply) -> Result<Answer, Error> {
    let mut answer = Answer::new(request.id(), reply.ok)?;
    if let Some(data) = reply.data {
        answer = answer.with_data(data);
    }
    if let Some(reason) = reply.reason {
        answer = answer.with_reason(Reason::parse(&reason));
    }
    Ok(answer)
}
