//! The [`Authorizer`]: what a server reached over HTTP gets when it asks for authorization.
//!
//! - A grant kept for the server (and not expired) is sent from the first request on, when
//!   it was obtained by the grant the command asks for (`--grant`) and, for a grant for
//!   machines, by the same client.
//! - A `401` to a request that carried the token held: a refresh, once per grant, when the
//!   grant has a refresh token; else (or when the refresh fails) the whole flow again, the
//!   grant held passed along so that its client is reused at the same authorization server.
//! - A `403` with `insufficient_scope`: the flow again, the scopes held kept in the request.
//! - A request sent before the authorization now held: sent again with it, nothing asked.
//!
//! One command starts at most [`MAX_AUTHORIZATIONS`] flows. Each new grant is kept in the
//! [`Store`] unless `--store none`: in the keychain where one answers (else in the file, said
//! once), or where `--store` says. The time all this takes is the person's: the call's timeout
//! does not run meanwhile (see `call::inbox`), and each request of the flow has the call's
//! timeout of its own.

use std::time::Duration;

use toolnexus_auth::{
    AuthErrorKind, Authorization, Config, Decision, Flow, Grant, HttpRequest, HttpResponse, Next,
    Policy, Poll, Refusal,
};
use toolnexus_core::id::now_ms;
use toolnexus_core::url_review::{Verdict, review_url};

use super::Options;
use super::consent::{Consent, ask_consent};
use super::fetch::Fetcher;
use super::listener::Listener;
use super::store::{Choice, Store, Stored};
use crate::ask::Shared;
use crate::report::Failure;
use crate::{note, warning};

/// The most authorization flows one command starts, step-ups included: the flow's own
/// default, so that the cap is written once.
pub const MAX_AUTHORIZATIONS: u32 = Config::DEFAULT_MAX_AUTHORIZATIONS;

/// How long the person has to sign in once the link is opened.
const SIGN_IN_WAIT: Duration = Duration::from_secs(10 * 60);

/// The `client_name` of a registration.
const CLIENT_NAME: &str = "toolnexus";

/// The redirect URI of a configuration that redirects nowhere (a refresh, a grant for
/// machines).
const NO_REDIRECT: &str = "http://127.0.0.1/callback";

/// Gets and keeps the authorization of one MCP server.
pub struct Authorizer {
    /// The MCP server's URL, as the command line gave it.
    server: String,
    options: Options,
    /// Who consents to opening the link.
    asker: Shared,
    /// Where grants are kept, unless `--store none`.
    store: Option<Store>,
    /// Whether the command said already that a grant went to the file for want of a
    /// keychain.
    said_file: bool,
    /// The grant held: kept from an earlier command, or got by this one.
    grant: Option<Grant>,
    /// The `Authorization` header requests carry now.
    header: Option<String>,
    fetcher: Fetcher,
    /// What to do when the server refuses a request: the flow's policy, which counts the
    /// flows started under [`MAX_AUTHORIZATIONS`].
    policy: Policy,
}

impl Authorizer {
    /// The authorizer of the server at `server`, asking `asker` for consent; each request of
    /// a flow may take `patience`. The grant kept for the server is loaded (a store that
    /// cannot be read is said and left unused). With `--store keychain`, a keychain that
    /// does not answer is a usage error, before anything is sent.
    pub fn new(
        server: &str,
        options: Options,
        asker: Shared,
        patience: Duration,
    ) -> Result<Authorizer, Failure> {
        let store = match options.store {
            Choice::Nothing => None,
            choice => Store::locate()
                .map_err(|why| note!("{why}"))
                .ok()
                .map(|store| store.choosing(choice)),
        };
        if options.store == Choice::Keychain
            && let Some(store) = &store
        {
            store.keychain().vault().map_err(|why| {
                Failure::usage(format!("--store keychain: no keychain answers: {why}"))
            })?;
        }
        let grant = store.as_ref().and_then(|store| {
            store
                .grant_for(server)
                .map_err(|why| {
                    note!("{why}: no authorization kept is used");
                })
                .ok()
                .flatten()
                .filter(|grant| suits(grant, &options, server))
        });
        let header = grant
            .as_ref()
            .filter(|g| !g.is_expired(now_ms()))
            .map(Grant::authorization);
        let max_body = Config::DEFAULT_LIMITS.max_input_bytes();
        Ok(Authorizer {
            server: String::from(server),
            options,
            asker,
            store,
            said_file: false,
            grant,
            header,
            fetcher: Fetcher::new(patience, max_body),
            policy: Policy::new(MAX_AUTHORIZATIONS),
        })
    }

    /// The `Authorization` header value requests carry now, if any.
    pub fn header(&self) -> Option<&str> {
        self.header.as_deref()
    }

    /// The grant behind [`header`](Authorizer::header) when it is a `DPoP` token, whose
    /// requests each need a proof.
    pub fn dpop_grant(&self) -> Option<&Grant> {
        self.header
            .as_ref()
            .and(self.grant.as_ref())
            .filter(|g| g.is_dpop())
    }

    /// Answers the server's refusal of a request that carried `sent` (its `Authorization`
    /// header, if any) with `status` and `www_authenticate`: the header to send it again with.
    /// What to do is the flow's policy ([`Policy::decide`]); this moves the bytes.
    pub fn authorize(
        &mut self,
        status: u16,
        www_authenticate: Option<&str>,
        sent: Option<&str>,
    ) -> Result<String, Failure> {
        let refusal = Refusal::read(status, www_authenticate, None);
        loop {
            let decision = self
                .policy
                .decide(&refusal, sent, self.grant.as_ref(), now_ms());
            let grant = match decision {
                // No nonce is read here: the transport retries with one itself.
                Decision::Resend | Decision::RetryWithNonce(_) => {
                    return self
                        .header
                        .clone()
                        .or_else(|| self.grant.as_ref().map(Grant::authorization))
                        .ok_or_else(|| Failure::server("no authorization is held to send again"));
                }
                Decision::Refresh => {
                    let Some(held) = self.grant.clone() else {
                        self.policy.refresh_failed();
                        continue;
                    };
                    match self.refresh(&held) {
                        Ok(grant) => {
                            note!("the token was refreshed");
                            // A refreshed token the server refuses leads to a flow, which the
                            // cap counts, never to another refresh: not `holds_new_grant`.
                            return Ok(self.hold(grant));
                        }
                        Err(why) => {
                            warning!(
                                "the token could not be refreshed ({}); authorizing again",
                                shown(&why)
                            );
                            self.policy.refresh_failed();
                            continue;
                        }
                    }
                }
                Decision::Authorize(challenge) | Decision::StepUp(challenge) => {
                    if challenge.is_insufficient_scope() {
                        note!(
                            "the server asks for more scope ({}): authorizing again",
                            challenge.scope.as_deref().unwrap_or("none named")
                        );
                    } else if sent.is_some() {
                        note!("the server refused the token (HTTP {status}): authorizing again");
                    } else {
                        note!(
                            "the server asks for an authorization (HTTP {status}): finding its \
                             authorization server"
                        );
                    }
                    let grant = self.run(&challenge)?;
                    let scope = grant
                        .scope()
                        .map(|s| format!(" for the scope {s:?}"))
                        .unwrap_or_default();
                    note!("authorized by {}{scope}", grant.issuer());
                    grant
                }
                Decision::GiveUp(why) => return Err(Failure::server(why.message())),
            };
            self.policy.holds_new_grant();
            return Ok(self.hold(grant));
        }
    }

    /// Runs a whole flow for `challenge`: with a loopback listener for the browser to come
    /// back to when a person signs in, without one for a grant for machines.
    fn run(&mut self, challenge: &toolnexus_auth::Challenge) -> Result<Grant, Failure> {
        let mut listener = if self.options.grant.is_interactive() {
            Some(Listener::bind().map_err(|e| {
                Failure::server(format!(
                    "cannot listen on 127.0.0.1 for the authorization to come back: {e}"
                ))
            })?)
        } else {
            None
        };
        let redirect_uri = listener
            .as_ref()
            .map_or(NO_REDIRECT, |l| l.redirect_uri())
            .to_owned();
        let (mut flow, mut next) = Flow::start(
            &self.server,
            challenge,
            self.config(&redirect_uri),
            self.grant.as_ref(),
            entropy()?,
        )?;
        // When the device grant stops waiting for the person.
        let mut deadline = None;
        loop {
            next = match next {
                Next::Fetch(request) => self.fetch(&mut flow, &request)?,
                Next::Authorize(authorization) => {
                    let Some(listener) = listener.take() else {
                        return Err(Failure::server(
                            "the authorization flow asked for a sign-in it cannot have: a \
                             second one, or one in a grant for machines",
                        ));
                    };
                    let query = self.sign_in(&authorization, listener)?;
                    flow.on_redirect_at(&query, now_ms())?
                }
                Next::Poll(poll) => self.poll(&mut flow, &poll, &mut deadline)?,
                Next::Done(grant) => return Ok(grant),
            };
        }
    }

    /// One poll of the device grant: the code shown on the first (its link reviewed as any
    /// link is), then, at the time the flow says, its token request sent. The person signs
    /// in elsewhere: nothing is asked here. A denial is declined; the wait is bounded by the
    /// code's expiry and by [`SIGN_IN_WAIT`].
    fn poll(
        &self,
        flow: &mut Flow,
        poll: &Poll,
        deadline: &mut Option<u64>,
    ) -> Result<Next, Failure> {
        if poll.attempt == 1 {
            show_code(poll)?;
        }
        let limit = *deadline.get_or_insert_with(|| {
            now_ms().saturating_add(u64::try_from(SIGN_IN_WAIT.as_millis()).unwrap_or(u64::MAX))
        });
        if poll.at_ms >= limit {
            return Err(Failure::server(format!(
                "nobody finished signing in within {} minutes",
                SIGN_IN_WAIT.as_secs() / 60
            )));
        }
        let wait = poll.at_ms.saturating_sub(now_ms());
        std::thread::sleep(Duration::from_millis(wait));
        self.fetch(flow, &poll.request)
            .map_err(|failure| match failure {
                Failure::Authorization(error)
                    if error.kind() == AuthErrorKind::AuthorizationDenied =>
                {
                    Failure::Declined(format!(
                        "the server needs an authorization, and the sign-in was declined: {}",
                        error.message()
                    ))
                }
                other => other,
            })
    }

    /// Sends one request of `flow` and hands it the response: what it asks for next.
    fn fetch(&self, flow: &mut Flow, request: &HttpRequest) -> Result<Next, Failure> {
        let fetched = self.fetcher.send(request).map_err(Failure::server)?;
        let response = HttpResponse {
            status: fetched.status,
            headers: &fetched.headers,
            body: &fetched.body,
        };
        Ok(flow.on_response(response, now_ms())?)
    }

    /// Refreshes `grant`: the new grant, or why not.
    fn refresh(&self, grant: &Grant) -> Result<Grant, Failure> {
        let mut seed = [0_u8; 32];
        getrandom::fill(&mut seed)
            .map_err(|e| Failure::server(format!("no randomness for the refresh: {e}")))?;
        let (mut flow, mut next) = Flow::refresh_at(
            &self.server,
            grant,
            self.config(NO_REDIRECT),
            now_ms(),
            seed,
        )?;
        loop {
            next = match next {
                Next::Fetch(request) => self.fetch(&mut flow, &request)?,
                Next::Authorize(_) | Next::Poll(_) => {
                    return Err(Failure::server("a refresh asked for a sign-in"));
                }
                Next::Done(grant) => return Ok(grant),
            };
        }
    }

    /// Has the person consent to `authorization`'s link, opens it and waits for the browser
    /// to come back to `listener`: the redirect's query.
    fn sign_in(
        &mut self,
        authorization: &Authorization,
        listener: Listener,
    ) -> Result<String, Failure> {
        let consent = ask_consent(&mut self.asker, CLIENT_NAME, &self.server, authorization)?;
        match consent {
            Consent::Given => {}
            Consent::Refused(reason) => {
                return Err(Failure::Declined(format!(
                    "the server needs an authorization, and its link was {reason}"
                )));
            }
            Consent::Unasked => {
                return Err(Failure::Unasked(String::from(
                    "the server needs an authorization, but there is no terminal to ask for \
                     consent on and no --answers: run it in a terminal, or consent with \
                     --answers",
                )));
            }
        }
        let mut opened = self
            .options
            .browser
            .open(&authorization.url)
            .map_err(Failure::usage)?;
        listener
            .wait(SIGN_IN_WAIT, &authorization.state, || opened.check())
            .map_err(Failure::server)
    }

    /// Holds `grant` from now on, and keeps it: the header it is sent with.
    fn hold(&mut self, grant: Grant) -> String {
        let header = grant.authorization();
        if let Some(store) = &self.store {
            match store.keep(&self.server, &grant) {
                Err(why) => warning!("the authorization is not kept: {why}"),
                Ok(Stored {
                    instead: Some(why), ..
                }) if !self.said_file => {
                    note!(
                        "{why}: the authorization is kept in {}, readable by you alone",
                        store.path().display()
                    );
                    self.said_file = true;
                }
                Ok(_) => {}
            }
        }
        self.grant = Some(grant);
        self.header = Some(header.clone());
        header
    }

    /// The flow's configuration, redirected to `redirect_uri`.
    fn config(&self, redirect_uri: &str) -> Config {
        config_of(&self.options, redirect_uri)
    }
}

/// Shows the person where to sign in and the code to enter, both the authorization server's
/// text: the link reviewed by the core first (one it rejects is never shown, and its warnings
/// are), and every line through the printer, which shows any control character as an escape.
fn show_code(poll: &Poll) -> Result<(), Failure> {
    let code = &poll.code;
    let mut links = vec![code.verification_uri.as_str()];
    links.extend(code.verification_uri_complete.as_deref());
    let mut reviewed = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    for link in links {
        let review = review_url(link);
        if review.verdict() == Verdict::Reject {
            let why: Vec<&str> = review.findings().iter().map(|f| f.message()).collect();
            return Err(Failure::server(format!(
                "the authorization server's sign-in link {link:?} is not shown: {}",
                why.join("; ")
            )));
        }
        for finding in review.findings() {
            if !warnings.iter().any(|w| w == finding.message()) {
                warnings.push(finding.message().to_owned());
            }
        }
        reviewed.push(review.url().to_owned());
    }
    for warning in &warnings {
        warning!("the sign-in link: {warning}");
    }
    let seconds = code.expires_at_ms.saturating_sub(now_ms()) / 1000;
    note!(
        "to authorize, open {} on any device and enter the code {} (within {} minutes)",
        reviewed.first().map_or("", String::as_str),
        code.user_code,
        seconds.div_ceil(60)
    );
    if let Some(complete) = reviewed.get(1) {
        note!("or open {complete}, which carries the code");
    }
    note!("waiting for the sign-in at the authorization server");
    Ok(())
}

/// The flow's configuration for `options`, redirected to `redirect_uri`.
fn config_of(options: &Options, redirect_uri: &str) -> Config {
    Config {
        client_id: options.client_id.clone(),
        client_secret: options.client_secret.clone(),
        client_issuer: options.client_issuer.clone(),
        client_metadata_url: options.client_metadata_url.clone(),
        grant: options.grant.clone(),
        client_key: options.client_key.clone(),
        ..Config::new(CLIENT_NAME, redirect_uri)
    }
}

/// Runs the flow's own check of `options` before anything is sent: its error names the
/// member of the configuration at fault.
pub fn check_options(options: &Options) -> Result<(), toolnexus_auth::AuthError> {
    config_of(options, "http://127.0.0.1:1/callback").check()
}

/// Whether the kept `grant` may serve a command with `options` at `server`, by the flow's own
/// rule ([`Config::reuses`]): obtained by the grant the command asks for, so that a job that
/// runs as a machine never acts with a person's token (nor a person with a machine's), for a
/// grant for machines by the same client, from the authorization server `--client-issuer`
/// binds, for a resource that covers the server. A grant that does not is said and left
/// unused; the one this command gets replaces it.
fn suits(grant: &Grant, options: &Options, server: &str) -> bool {
    match config_of(options, NO_REDIRECT).reuses(grant, server) {
        Ok(()) => true,
        Err(why) => {
            note!(
                "{}",
                why.message(|kind| format!("--grant {}", grant_option(kind.as_str())))
            );
            false
        }
    }
}

/// A grant's name (`GrantType::name`) as `--grant` spells it: `client_credentials` is
/// `client-credentials`.
pub fn grant_option(name: &str) -> String {
    name.replace('_', "-")
}

/// 64 random bytes: the PKCE verifier and the state of one flow.
fn entropy() -> Result<[u8; 64], Failure> {
    let mut bytes = [0_u8; 64];
    getrandom::fill(&mut bytes)
        .map_err(|e| Failure::server(format!("no randomness for the authorization: {e}")))?;
    Ok(bytes)
}

/// A failure in a few words, for a line that goes on.
fn shown(failure: &Failure) -> String {
    match failure {
        Failure::Authorization(error) => error.to_string(),
        Failure::Refused(error) => error.to_string(),
        Failure::Usage(message)
        | Failure::Server(message)
        | Failure::Interrupted(message)
        | Failure::Unasked(message)
        | Failure::Declined(message) => message.clone(),
    }
}
