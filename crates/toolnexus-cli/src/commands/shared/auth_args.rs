//! How to get the authorization a server reached with `--url` asks for: the options, what a
//! kept call keeps of them, and the rules that turn them into the authorizer's options (which
//! options go with which grant is the flow's rule, worded here with the command line's own).

use std::path::PathBuf;

use toolnexus_auth::Secret;

use crate::auth;
use crate::auth::driver::grant_option;
use crate::report::Failure;

/// How to get the authorization a server reached with `--url` asks for (a 401): the MCP
/// authorization flow, with a browser sign-in the person consents to first.
#[derive(Debug, clap::Args)]
pub(crate) struct AuthArgs {
    /// --url: the OAuth client id registered for toolnexus at the server's authorization
    /// server (else a client id metadata document, else a registration).
    #[arg(long, value_name = "ID")]
    pub(crate) client_id: Option<String>,
    /// --url: the secret of --client-id. Better given in TOOLNEXUS_CLIENT_SECRET: other users
    /// can see a command line.
    #[arg(
        long,
        value_name = "SECRET",
        env = "TOOLNEXUS_CLIENT_SECRET",
        hide_env_values = true,
        value_parser = secret
    )]
    pub(crate) client_secret: Option<Secret>,
    /// --url: the authorization server (its issuer) --client-id belongs to; the client id and
    /// secret go to no other. Needed with a client secret, --client-key, --grant jwt-bearer or
    /// --grant enterprise: what they send goes to this server alone, whichever one the MCP
    /// server names.
    #[arg(long, value_name = "URL")]
    pub(crate) client_issuer: Option<String>,
    /// --url: the https URL of toolnexus's client id metadata document, used as the client id
    /// where the authorization server accepts one.
    #[arg(long, value_name = "URL")]
    pub(crate) client_metadata_url: Option<String>,
    /// --url: open the authorization link with COMMAND (split into words as a shell would,
    /// run without one, the link its last argument) instead of the system's opener.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) browser: Option<String>,
    /// --url: where to keep the authorization got: in the system's secret store (keychain:
    /// the Secret Service on Linux, the Keychain on macOS, the Credential Manager on
    /// Windows), in auth.json (file), or nowhere, using none kept (none). By default, the
    /// keychain where one answers, else the file, said once. See `auth --help`.
    #[arg(long, value_enum, value_name = "WHERE")]
    pub(crate) store: Option<StoreChoice>,
    /// The same as --store none.
    #[arg(long, hide = true, conflicts_with = "store")]
    pub(crate) no_store: bool,
    /// --url: how to get the token: a person signing in through a browser (the default),
    /// unattended, for machines, or device-code: a person signing in on any device with a
    /// code shown here (the OAuth device authorization grant, RFC 8628, beyond the MCP
    /// specification; the authorization server must offer it).
    #[arg(long, value_enum, value_name = "GRANT", default_value_t = GrantChoice::AuthorizationCode)]
    pub(crate) grant: GrantChoice,
    /// --url: authenticate --client-id with a JWT signed with this P-256 private key (a PEM
    /// file, PKCS#8 or SEC1) instead of a secret: private_key_jwt.
    #[arg(long, value_name = "FILE")]
    pub(crate) client_key: Option<PathBuf>,
    /// --grant jwt-bearer: the file holding the workload's JWT (as a platform projects it,
    /// and renews it: it is read at each command).
    #[arg(long, value_name = "FILE")]
    pub(crate) assertion_file: Option<PathBuf>,
    /// --grant enterprise: the file holding the person's ID token from the identity provider.
    #[arg(long, value_name = "FILE")]
    pub(crate) id_token_file: Option<PathBuf>,
    /// --grant enterprise: the identity provider's token endpoint, where the ID token is
    /// exchanged for an identity assertion grant.
    #[arg(long, value_name = "URL")]
    pub(crate) idp_token_endpoint: Option<String>,
    /// --grant enterprise: toolnexus's client id at the identity provider.
    #[arg(long, value_name = "ID")]
    pub(crate) idp_client_id: Option<String>,
    /// --grant enterprise: the secret of --idp-client-id.
    #[arg(
        long,
        value_name = "SECRET",
        env = "TOOLNEXUS_IDP_CLIENT_SECRET",
        hide_env_values = true,
        value_parser = secret
    )]
    pub(crate) idp_client_secret: Option<Secret>,
}

/// Where `--url` keeps the authorization it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StoreChoice {
    /// The system's secret store: an error when none answers.
    Keychain,
    /// auth.json in the configuration folder, readable by you alone.
    File,
    /// Nowhere; no authorization kept is used either.
    None,
}

/// How `--url` gets its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GrantChoice {
    /// A person signs in through a browser (the authorization code grant, with PKCE).
    AuthorizationCode,
    /// The client's own credentials: --client-id with a secret or --client-key.
    ClientCredentials,
    /// A workload's JWT from --assertion-file (workload identity federation).
    JwtBearer,
    /// Enterprise-managed authorization: --id-token-file exchanged at --idp-token-endpoint,
    /// then presented by --client-id.
    Enterprise,
    /// A person signs in on any device, with the code shown here (RFC 8628, the device
    /// authorization grant: beyond the MCP specification).
    DeviceCode,
}

/// A secret given on the command line or in the environment, kept as one from the start.
fn secret(text: &str) -> Result<Secret, std::convert::Infallible> {
    Ok(Secret::from(text))
}

impl AuthArgs {
    /// The options given, as command-line words, secrets left out: what a kept call
    /// (`--defer`) holds to authorize the same way when it is resumed.
    pub(crate) fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        let mut add = |flag: &str, value: Option<String>| {
            if let Some(value) = value {
                words.push(String::from(flag));
                words.push(value);
            }
        };
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        add("--client-id", self.client_id.clone());
        add("--client-issuer", self.client_issuer.clone());
        add("--client-metadata-url", self.client_metadata_url.clone());
        add("--browser", self.browser.clone());
        add(
            "--grant",
            clap::ValueEnum::to_possible_value(&self.grant).map(|v| v.get_name().to_owned()),
        );
        add("--client-key", path(&self.client_key));
        add("--assertion-file", path(&self.assertion_file));
        add("--id-token-file", path(&self.id_token_file));
        add("--idp-token-endpoint", self.idp_token_endpoint.clone());
        add("--idp-client-id", self.idp_client_id.clone());
        add(
            "--store",
            match (self.store, self.no_store) {
                (Some(choice), _) => {
                    clap::ValueEnum::to_possible_value(&choice).map(|v| v.get_name().to_owned())
                }
                (None, true) => Some(String::from("none")),
                (None, false) => None,
            },
        );
        words
    }

    /// The options of the authorizer. Which options go with which grant is the flow's rule
    /// ([`toolnexus_auth::check_options`]), worded with the command line's own options; what
    /// the files they name hold is read and checked here.
    pub(crate) fn options(&self) -> Result<auth::Options, Failure> {
        use toolnexus_auth::AuthOption as O;
        let given: Vec<O> = [
            (O::ClientId, self.client_id.is_some()),
            (O::ClientSecret, self.client_secret.is_some()),
            (O::ClientIssuer, self.client_issuer.is_some()),
            (O::ClientMetadataUrl, self.client_metadata_url.is_some()),
            (O::ClientKey, self.client_key.is_some()),
            (O::Assertion, self.assertion_file.is_some()),
            (O::IdToken, self.id_token_file.is_some()),
            (O::IdpTokenEndpoint, self.idp_token_endpoint.is_some()),
            (O::IdpClientId, self.idp_client_id.is_some()),
            (O::IdpClientSecret, self.idp_client_secret.is_some()),
        ]
        .into_iter()
        .filter_map(|(option, set)| set.then_some(option))
        .collect();
        toolnexus_auth::check_options(self.grant.kind(), &given).map_err(|problem| {
            Failure::usage(problem.message(option_flag, |grant| {
                format!("--grant {}", grant_option(grant.as_str()))
            }))
        })?;
        let client_key = match &self.client_key {
            None => None,
            Some(path) => {
                let pem = read_secret_file(path, "--client-key")?;
                Some(toolnexus_auth::ClientKey::from_pem(&pem).map_err(|e| {
                    Failure::usage(format!("--client-key {}: {}", path.display(), e.message()))
                })?)
            }
        };
        let options = auth::Options {
            client_id: self.client_id.clone(),
            client_secret: self.client_secret.clone(),
            client_issuer: self.client_issuer.clone(),
            client_metadata_url: self.client_metadata_url.clone(),
            browser: auth::Browser::parse(self.browser.as_deref()).map_err(Failure::usage)?,
            store: match (self.store, self.no_store) {
                (Some(StoreChoice::None), _) | (None, true) => auth::Choice::Nothing,
                (Some(StoreChoice::Keychain), _) => auth::Choice::Keychain,
                (Some(StoreChoice::File), _) => auth::Choice::File,
                (None, false) => auth::Choice::Default,
            },
            grant: self.grant_type()?,
            client_key,
        };
        // The values themselves (an issuer that is a URL, an endpoint that is https), before
        // anything is sent.
        auth::check_options(&options)
            .map_err(|e| Failure::usage(format!("{}: {}", option_of(e.pointer()), e.message())))?;
        Ok(options)
    }

    /// The grant `--grant` names, with what it needs read from the files its options name
    /// (which options it takes was checked already).
    fn grant_type(&self) -> Result<toolnexus_auth::GrantType, Failure> {
        use toolnexus_auth::{Enterprise, GrantType};
        Ok(match self.grant {
            GrantChoice::AuthorizationCode => GrantType::AuthorizationCode,
            GrantChoice::ClientCredentials => GrantType::ClientCredentials,
            GrantChoice::DeviceCode => GrantType::DeviceCode,
            GrantChoice::JwtBearer => GrantType::JwtBearer {
                assertion: match &self.assertion_file {
                    Some(path) => read_secret_file(path, "--assertion-file")?.into(),
                    None => Secret::from(String::new()),
                },
            },
            GrantChoice::Enterprise => GrantType::Enterprise(Enterprise {
                token_endpoint: self.idp_token_endpoint.clone().unwrap_or_default(),
                client_id: self.idp_client_id.clone(),
                client_secret: self.idp_client_secret.clone(),
                id_token: match &self.id_token_file {
                    Some(path) => read_secret_file(path, "--id-token-file")?.into(),
                    None => Secret::from(String::new()),
                },
            }),
        })
    }
}

impl GrantChoice {
    /// The grant of the flow this names.
    fn kind(self) -> toolnexus_auth::GrantKind {
        use toolnexus_auth::GrantKind as K;
        match self {
            GrantChoice::AuthorizationCode => K::AuthorizationCode,
            GrantChoice::ClientCredentials => K::ClientCredentials,
            GrantChoice::JwtBearer => K::JwtBearer,
            GrantChoice::Enterprise => K::Enterprise,
            GrantChoice::DeviceCode => K::DeviceCode,
        }
    }
}

/// The command-line option that gives `option`.
fn option_flag(option: toolnexus_auth::AuthOption) -> String {
    use toolnexus_auth::AuthOption as O;
    String::from(match option {
        O::ClientId => "--client-id",
        O::ClientSecret => "a client secret (--client-secret or TOOLNEXUS_CLIENT_SECRET)",
        O::ClientIssuer => "--client-issuer",
        O::ClientMetadataUrl => "--client-metadata-url",
        O::ClientKey => "--client-key",
        O::Assertion => "--assertion-file",
        O::IdToken => "--id-token-file",
        O::IdpTokenEndpoint => "--idp-token-endpoint",
        O::IdpClientId => "--idp-client-id",
        O::IdpClientSecret => {
            "a secret at the identity provider (--idp-client-secret or TOOLNEXUS_IDP_CLIENT_SECRET)"
        }
    })
}

/// The text of the file `path` an `option` names, which holds a secret: read whole, its
/// surrounding white space dropped, never shown. An empty or unreadable file is a usage error.
fn read_secret_file(path: &std::path::Path, option: &str) -> Result<String, Failure> {
    /// The largest file read: a key or a JWT is a few kilobytes.
    const MAX_BYTES: u64 = 64 * 1024;
    let cannot = |why: String| Failure::usage(format!("{option} {}: {why}", path.display()));
    let size = std::fs::metadata(path)
        .map_err(|e| cannot(e.to_string()))?
        .len();
    if size > MAX_BYTES {
        return Err(cannot(format!(
            "{size} bytes, more than a key or a token holds"
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|e| cannot(e.to_string()))?;
    let text = text.trim();
    if text.is_empty() {
        return Err(cannot(String::from("the file is empty")));
    }
    Ok(text.to_owned())
}

/// The command-line option for the member of the flow's configuration at `pointer`, as the
/// flow's option rule names it.
fn option_of(pointer: &str) -> String {
    toolnexus_auth::AuthOption::ALL
        .into_iter()
        .find(|option| option.pointer() == pointer)
        .map_or_else(|| format!("the value at {pointer}"), option_flag)
}
