//! Authorization for a server reached over HTTP (`call --url`, `tools --url`): when the server
//! answers a request with `401` (or `403` with `insufficient_scope`), the [`Authorizer`] gets a
//! token and the request is sent again with it.
//!
//! The flow is `toolnexus_auth`'s ([`toolnexus_auth::Flow`]: discovery, registration, PKCE,
//! the checks of every answer); this module owns its I/O, one concern a file:
//!
//! - [`fetch`]: the flow's HTTP requests, redirects never followed;
//! - [`consent`]: the authorization link shown to the person as a `kind: "authorization"`
//!   request, reviewed by the core, consented to at the terminal or by `--answers`;
//! - [`browser`]: the link opened once consented to (`--browser COMMAND`, or the system's
//!   opener);
//! - [`listener`]: the loopback listener the browser comes back to;
//! - [`store`]: the grants kept between commands, readable by the user alone: indexed in
//!   `auth.json`, their secrets there or in the [`keychain`] (the system's secret store);
//! - [`driver`]: the [`Authorizer`] that runs the flow with them, refreshes or starts again on a
//!   later `401`, steps up on `insufficient_scope`.
//!
//! No token, authorization code, verifier or secret is ever written to standard output, to
//! standard error or into an error message.

pub mod browser;
pub mod consent;
pub mod driver;
pub mod fetch;
pub mod keychain;
pub mod listener;
pub mod store;

pub use browser::Browser;
pub use driver::{Authorizer, check_options};
pub use store::{Choice, Store};

/// What the command line says about authorization. Its `Debug` form shows no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// A client id registered for toolnexus (`--client-id`).
    pub client_id: Option<String>,
    /// Its secret (`--client-secret`, `TOOLNEXUS_CLIENT_SECRET`).
    pub client_secret: Option<toolnexus_auth::Secret>,
    /// The authorization server (its issuer) the client id belongs to (`--client-issuer`).
    pub client_issuer: Option<String>,
    /// The URL of toolnexus's client id metadata document (`--client-metadata-url`).
    pub client_metadata_url: Option<String>,
    /// How the authorization link is opened (`--browser`).
    pub browser: Browser,
    /// Where grants are kept between commands (`--store`).
    pub store: Choice,
    /// How the token is got (`--grant` and the options of its kind).
    pub grant: toolnexus_auth::GrantType,
    /// The client's own key, for `private_key_jwt` (`--client-key`).
    pub client_key: Option<toolnexus_auth::ClientKey>,
}
