//! toolnexus-auth: MCP authorization (OAuth 2.1: the authorization code with PKCE, and the
//! grants for machines) as a sans-I/O state machine.
//!
//! An MCP server that answers 401 (or 403 with `insufficient_scope`) wants a token. A [`Flow`]
//! works out how to get one, as the MCP authorization specification (2025-11-25 and
//! 2026-07-28, with the 2025-03-26 fallbacks) requires: it says which URL to fetch next, checks
//! every document it is given, builds the PKCE pair, the authorization URL and the token
//! requests, and reads the answers. It never does I/O, never reads a clock (the caller passes
//! `now_ms`) and never draws randomness (the caller passes 64 random bytes). The caller sends
//! the requests with any HTTP client, **without following redirects**, and has a person open
//! the authorization URL.
//!
//! ```no_run
//! use toolnexus_auth::{Config, Flow, HttpRequest, HttpResponse, Next, parse_challenge};
//!
//! # fn send(_: &HttpRequest) -> (u16, Vec<(String, String)>, Vec<u8>) { unimplemented!() }
//! # fn open_and_wait_for_redirect(_: &str) -> String { unimplemented!() }
//! # fn random_bytes() -> [u8; 64] { [0; 64] }
//! # fn now_ms() -> u64 { 0 }
//! # fn show(_: &str, _: &str) {}
//! # fn sleep_until(_: u64) {}
//! # fn main() -> Result<(), toolnexus_auth::AuthError> {
//! let server = "https://mcp.example.com/mcp";
//! // The server answered 401 with this header:
//! let challenge = parse_challenge(401, Some(r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#));
//! let config = Config::new("toolnexus", "http://127.0.0.1:53682/callback");
//! let (mut flow, mut next) = Flow::start(server, &challenge, config, None, random_bytes())?;
//! let grant = loop {
//!     next = match next {
//!         Next::Fetch(request) => {
//!             let (status, headers, body) = send(&request);
//!             flow.on_response(HttpResponse { status, headers: &headers, body: &body }, now_ms())?
//!         }
//!         Next::Authorize(authorization) => {
//!             // Show authorization.url; the loopback listener at redirect_uri gets the query.
//!             let query = open_and_wait_for_redirect(&authorization.url);
//!             flow.on_redirect(&query)?
//!         }
//!         Next::Poll(poll) => {
//!             // The device grant (RFC 8628): show the code once, then poll when it says.
//!             if poll.attempt == 1 {
//!                 show(poll.code.link(), &poll.code.user_code);
//!             }
//!             sleep_until(poll.at_ms);
//!             let (status, headers, body) = send(&poll.request);
//!             flow.on_response(HttpResponse { status, headers: &headers, body: &body }, now_ms())?
//!         }
//!         Next::Done(grant) => break grant,
//!     };
//! };
//! // Send `Authorization: <grant.authorization()>`; store `grant.to_json()` as a secret.
//! # let _ = grant;
//! # Ok(())
//! # }
//! ```
//!
//! A workload with nobody to sign in sets [`Config::grant`] to a grant for machines
//! ([`GrantType`]): client credentials (with the client's secret, or a JWT signed with its
//! [`ClientKey`]), the JWT bearer grant with a workload's JWT, or enterprise-managed
//! authorization (an ID token exchanged at the identity provider, then presented). Discovery
//! and its checks are the same; no [`Next::Authorize`] comes.
//!
//! Beyond the MCP specification, which knows only the grants above, [`GrantType::DeviceCode`]
//! is the OAuth 2.0 device authorization grant (RFC 8628), for a client no browser can come
//! back to: where the authorization server's metadata has a `device_authorization_endpoint`,
//! the flow asks it for a code, and each [`Next::Poll`] carries what the person is shown (a
//! [`DeviceCode`]: the verification URI and the code to enter there) and when to send the
//! next token request. The flow slows down on `slow_down` and stops on `access_denied`
//! ([`AuthErrorKind::AuthorizationDenied`]) or when the code expires
//! ([`AuthErrorKind::DeviceCodeExpired`]); it still never sleeps nor reads a clock.
//!
//! When the authorization server lists `ES256` in `dpop_signing_alg_values_supported` (or
//! [`Config::dpop`] says [`DpopUse::Always`]), the token requests carry a DPoP proof (RFC
//! 9449) made with a [`DpopKey`] drawn from the flow's entropy, a `400 use_dpop_nonce` is
//! answered once with the server's nonce, and a `DPoP` token is kept in the [`Grant`] with its
//! key: each request to the MCP server then carries `Authorization: DPoP <token>` and a
//! fresh [`Grant::proof`] in its `DPoP` header.
//!
//! Every error is an [`AuthError`] with a stable [`AuthErrorKind`], a JSON pointer into the
//! document at fault and a message that never holds a token, a code, a secret or a verifier.
//! Every secret the crate holds, given or made (tokens, codes, the verifier, client secrets,
//! assertions, ID tokens, DPoP proofs, private keys), is a [`Secret`]: its `Debug` form is
//! `Secret(…)`, it has no `Display`, and [`Secret::expose`] reads it, so every type here
//! derives `Debug` and shows none.
//! Documents are read by the core's bounded JSON reader within [`Config::limits`].

#![forbid(unsafe_code)]

// The layers, bottom up: a module uses only the layers at or above it here
// (`toolnexus-core`'s `tests/architecture.rs` holds every crate that declares layers to them;
// ARCHITECTURE.md draws them).

// 0. Leaves: the error, HTTP exchanges as data, JWS signing, PKCE, scope lists, secrets.
mod error;
mod http;
mod jwt;
mod pkce;
mod scope;
mod secret;

// 1. Reading what a server sends: the challenge, JSON documents, URLs and their rules.
mod challenge;
mod document;
mod urls;

// 2. Keys and refusals: the client's key, DPoP keys and proofs, a refusal's message redacted.
mod client_key;
mod dpop;
mod refusal;

// 3. How a token is obtained, and by which client.
mod client;
mod grant_type;

// 4. What the servers publish, what an authorization yields, and which options a grant takes.
mod grant;
mod metadata;
mod options;

// 5. The flow: the state machine over all of the above; the policy on a refused request.
mod flow;
mod policy;

pub use challenge::{Challenge, parse_challenge};
pub use client::{AuthMethod, Client};
pub use client_key::{CLIENT_ASSERTION_TYPE, CLIENT_KEY_ALG, ClientKey};
pub use dpop::{
    DPOP_ALG, DpopKey, MAX_JTI_BYTES, MAX_NONCE_BYTES, MIN_JTI_BYTES, ath, check_nonce,
};
pub use error::{AuthError, AuthErrorKind};
pub use flow::{Authorization, Config, DeviceCode, DpopUse, Flow, Next, NotReused, Poll};
pub use grant::Grant;
pub use grant_type::{
    DEVICE_CODE, Enterprise, GRANT_NAMES, GrantType, ID_JAG_TYPE, ID_TOKEN_TYPE, JWT_BEARER,
    TOKEN_EXCHANGE,
};
pub use http::{HttpRequest, HttpResponse, Method};
pub use options::{AuthOption, GrantKind, OptionProblem, check_options};
pub use policy::{Decision, Policy, REFRESH_AGAIN_AFTER_MS, Refusal};
pub use secret::{Held, Secret};
pub use toolnexus_core::json::Limits;
