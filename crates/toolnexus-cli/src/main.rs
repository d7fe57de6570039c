//! `toolnexus`: answer an MCP elicitation in the terminal, or map and check its JSON in a
//! script.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use toolnexus_auth::Secret;
use toolnexus_core::{Limits, Modes};

use toolnexus_cli::ask::{Asker, Nobody, Scripted, Shared};
use toolnexus_cli::auth::driver::grant_option;
use toolnexus_cli::input::{Elicitation, Source};
use toolnexus_cli::printer::{self, Output};
use toolnexus_cli::report::{self, Exit, Failure};
use toolnexus_cli::terminal::Terminal;
use toolnexus_cli::{
    auth, call, commands, elicit, html, json_tools, note, pending, sample, warning,
};

const EXIT_CODES: &str = "\
Exit codes:
  0  done
  1  the input was refused, or the verdict is negative (problems, violations, a URL to
     reject, answers that ran out; for call, a tool result with isError; for call and
     tools, an authorization the server needs declined)
  2  usage: a wrong command line, or a file that cannot be read
  3  call and tools: the server failed (could not start, closed, a protocol error, a
     timeout, no mutual protocol version, an authorization that failed)
  4  call and tools: the server asked a person (a form, or consent to an authorization),
     but there was no terminal to ask on and no --answers (the question was cancelled)
  5  call --defer and resume: the server asked what nobody could answer now; the call is
     kept to be resumed (toolnexus resume ID), and {\"pending\": ID, \"requests\": […]} printed
130  call: interrupted with Ctrl-C while the tool ran as a task; the task was cancelled
     (tasks/cancel)";

/// How to reach a server, for `call` and `tools`. Its `Debug` form shows the name of each
/// `--header`, never its value (an API key, a token).
#[derive(clap::Args)]
struct ServerArgs {
    /// Connect over streamable HTTP to this URL instead of starting a command.
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// A header for every HTTP request, as 'Name: value' (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Speak this protocol version (2026-07-28, 2025-11-25, 2025-06-18) and skip the probe.
    #[arg(long, value_name = "VERSION")]
    protocol: Option<String>,
    /// The seconds the server may take in all; time a person spends answering does not count.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    timeout: u64,
    /// Write the server's standard error to this file instead of ours.
    #[arg(long, value_name = "FILE")]
    server_log: Option<PathBuf>,
    /// The elicitation modes this client declares it answers, in both eras: form,url (the
    /// default), form, url or none. A server should not ask in a mode left out.
    #[arg(long, value_name = "MODES", default_value = "form,url", value_parser = elicit_modes)]
    elicit: Modes,
    #[command(flatten)]
    auth: AuthArgs,
    /// The server to start, after `--`: the command and its arguments, spoken to over stdio.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// How to get the authorization a server reached with `--url` asks for (a 401): the MCP
/// authorization flow, with a browser sign-in the person consents to first.
#[derive(Debug, clap::Args)]
struct AuthArgs {
    /// --url: the OAuth client id registered for toolnexus at the server's authorization
    /// server (else a client id metadata document, else a registration).
    #[arg(long, value_name = "ID")]
    client_id: Option<String>,
    /// --url: the secret of --client-id. Better given in TOOLNEXUS_CLIENT_SECRET: other users
    /// can see a command line.
    #[arg(
        long,
        value_name = "SECRET",
        env = "TOOLNEXUS_CLIENT_SECRET",
        hide_env_values = true,
        value_parser = secret
    )]
    client_secret: Option<Secret>,
    /// --url: the authorization server (its issuer) --client-id belongs to; the client id and
    /// secret go to no other. Needed with a client secret, --client-key, --grant jwt-bearer or
    /// --grant enterprise: what they send goes to this server alone, whichever one the MCP
    /// server names.
    #[arg(long, value_name = "URL")]
    client_issuer: Option<String>,
    /// --url: the https URL of toolnexus's client id metadata document, used as the client id
    /// where the authorization server accepts one.
    #[arg(long, value_name = "URL")]
    client_metadata_url: Option<String>,
    /// --url: open the authorization link with COMMAND (split into words as a shell would,
    /// run without one, the link its last argument) instead of the system's opener.
    #[arg(long, value_name = "COMMAND")]
    browser: Option<String>,
    /// --url: where to keep the authorization got: in the system's secret store (keychain:
    /// the Secret Service on Linux, the Keychain on macOS, the Credential Manager on
    /// Windows), in auth.json (file), or nowhere, using none kept (none). By default, the
    /// keychain where one answers, else the file, said once. See `auth --help`.
    #[arg(long, value_enum, value_name = "WHERE")]
    store: Option<StoreChoice>,
    /// The same as --store none.
    #[arg(long, hide = true, conflicts_with = "store")]
    no_store: bool,
    /// --url: how to get the token: a person signing in through a browser (the default),
    /// unattended, for machines, or device-code: a person signing in on any device with a
    /// code shown here (the OAuth device authorization grant, RFC 8628, beyond the MCP
    /// specification; the authorization server must offer it).
    #[arg(long, value_enum, value_name = "GRANT", default_value_t = GrantChoice::AuthorizationCode)]
    grant: GrantChoice,
    /// --url: authenticate --client-id with a JWT signed with this P-256 private key (a PEM
    /// file, PKCS#8 or SEC1) instead of a secret: private_key_jwt.
    #[arg(long, value_name = "FILE")]
    client_key: Option<PathBuf>,
    /// --grant jwt-bearer: the file holding the workload's JWT (as a platform projects it,
    /// and renews it: it is read at each command).
    #[arg(long, value_name = "FILE")]
    assertion_file: Option<PathBuf>,
    /// --grant enterprise: the file holding the person's ID token from the identity provider.
    #[arg(long, value_name = "FILE")]
    id_token_file: Option<PathBuf>,
    /// --grant enterprise: the identity provider's token endpoint, where the ID token is
    /// exchanged for an identity assertion grant.
    #[arg(long, value_name = "URL")]
    idp_token_endpoint: Option<String>,
    /// --grant enterprise: toolnexus's client id at the identity provider.
    #[arg(long, value_name = "ID")]
    idp_client_id: Option<String>,
    /// --grant enterprise: the secret of --idp-client-id.
    #[arg(
        long,
        value_name = "SECRET",
        env = "TOOLNEXUS_IDP_CLIENT_SECRET",
        hide_env_values = true,
        value_parser = secret
    )]
    idp_client_secret: Option<Secret>,
}

/// Where `--url` keeps the authorization it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StoreChoice {
    /// The system's secret store: an error when none answers.
    Keychain,
    /// auth.json in the configuration folder, readable by you alone.
    File,
    /// Nowhere; no authorization kept is used either.
    None,
}

/// How `--url` gets its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GrantChoice {
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

impl std::fmt::Debug for ServerArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|h| match h.split_once(':') {
                Some((name, _)) => format!("{}: …", name.trim()),
                None => String::from("…"),
            })
            .collect();
        f.debug_struct("ServerArgs")
            .field("url", &self.url)
            .field("headers", &headers)
            .field("protocol", &self.protocol)
            .field("timeout", &self.timeout)
            .field("server_log", &self.server_log)
            .field("elicit", &modes_name(self.elicit))
            .field("auth", &self.auth)
            .field("command", &self.command)
            .finish()
    }
}

/// The modes `--elicit` names.
fn elicit_modes(text: &str) -> Result<Modes, String> {
    match text {
        "form,url" | "url,form" => Ok(Modes::ALL),
        "form" => Ok(Modes::FORM),
        "url" => Ok(Modes::URL),
        "none" => Ok(Modes::new(false, false)),
        _ => Err(String::from("give form,url, form, url or none")),
    }
}

/// How `--elicit` names `modes`.
fn modes_name(modes: Modes) -> &'static str {
    match (modes.form(), modes.url()) {
        (true, true) => "form,url",
        (true, false) => "form",
        (false, true) => "url",
        (false, false) => "none",
    }
}

/// A secret given on the command line or in the environment, kept as one from the start.
fn secret(text: &str) -> Result<Secret, std::convert::Infallible> {
    Ok(Secret::from(text))
}

impl ServerArgs {
    /// How to reach the server of a kept call again: its command or its URL and headers,
    /// its timeout and modes, and the authorization options the environment gives (the grant
    /// kept for the server is used).
    fn again(kept: &pending::Pending) -> Result<ServerArgs, Failure> {
        /// The authorization options, read again from the words kept (and the environment).
        #[derive(Parser)]
        struct Kept {
            #[command(flatten)]
            auth: AuthArgs,
        }
        let words = std::iter::once("toolnexus").chain(kept.auth.iter().map(String::as_str));
        let options = Kept::try_parse_from(words).map_err(|e| {
            Failure::usage(format!(
                "the authorization options kept do not read: {}",
                e.kind()
            ))
        })?;
        let (url, headers, command) = match &kept.server {
            pending::Server::Command(words) => (None, Vec::new(), words.clone()),
            pending::Server::Url { url, headers } => {
                (Some(url.clone()), headers.clone(), Vec::new())
            }
        };
        Ok(ServerArgs {
            url,
            headers,
            protocol: None,
            timeout: kept.timeout,
            server_log: None,
            elicit: elicit_modes(&kept.elicit).map_err(Failure::usage)?,
            auth: options.auth,
            command,
        })
    }
}

impl AuthArgs {
    /// The options given, as command-line words, secrets left out: what a kept call
    /// (`--defer`) holds to authorize the same way when it is resumed.
    fn words(&self) -> Vec<String> {
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
    fn options(&self) -> Result<auth::Options, Failure> {
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

/// Answer an MCP server that needs a human in the loop, from a terminal.
#[derive(Debug, Parser)]
#[command(name = "toolnexus", version, after_help = EXIT_CODES)]
struct Cli {
    /// Print errors as JSON objects {kind, pointer, message} instead of lines.
    #[arg(long, global = true)]
    json_errors: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer one elicitation in the terminal and print the reply on standard output.
    ///
    /// Reads ElicitRequestParams, a JSON-RPC elicitation/create request, or a 2026-07-28
    /// input_required result (bare or as a JSON-RPC response), and prints an ElicitResult, a
    /// JSON-RPC response echoing the id, or {"inputResponses", "requestState"}. With no
    /// input, runs a sample form with every kind of field, then a URL request.
    #[command(after_help = EXIT_CODES)]
    Elicit {
        /// The elicitation: a file, or - for standard input.
        file: Option<String>,
        /// Answer from a JSON array of answers ({"ok":true,"data":{…}}, {"ok":false,
        /// "reason":"declined"}, {"ok":false}) instead of asking: a file, or - for standard
        /// input.
        #[arg(long, value_name = "FILE|-")]
        answers: Option<String>,
        /// Name the server that asks, to show above each form.
        #[arg(long, value_name = "NAME")]
        server: Option<String>,
    },
    /// Call a tool of a live MCP server and answer its elicitations; print the CallToolResult.
    ///
    /// Starts the server (`-- COMMAND ARG…`, over stdio) or connects to it (`--url`), finds
    /// out which era of MCP it speaks (2026-07-28, or 2025-11-25 / 2025-06-18 with their
    /// handshake), calls TOOL and answers every elicitation in the terminal, or from
    /// --answers. The server's name is shown above each form. A call the server runs as a
    /// task is polled until it ends, its state said on standard error; Ctrl-C cancels it.
    #[command(after_help = EXIT_CODES)]
    Call {
        /// The tool to call.
        tool: String,
        /// The tool's arguments, a JSON object.
        #[arg(long, value_name = "JSON", default_value = "{}")]
        args: String,
        /// Answer from a JSON array of answers instead of asking (see `elicit --help`).
        #[arg(long, value_name = "FILE|-")]
        answers: Option<String>,
        /// Run the tool as a task where it may run either way (2025-11-25: a tool whose
        /// execution.taskSupport is "optional"). A tool that requires it always runs as a
        /// task; at 2026-07-28 the server decides.
        #[arg(long)]
        task: bool,
        /// How many rounds of questions one call may take: input_required rounds
        /// (2026-07-28) or URL interactions (2025-11-25) before the call is given up.
        #[arg(long, value_name = "N", default_value_t = call::MAX_ROUNDS)]
        max_rounds: usize,
        /// When a question comes that nobody can answer now (no terminal and no --answers,
        /// or answers that ran out), keep the call to be resumed later, from any process
        /// (`toolnexus resume ID`), print {"pending": ID, "requests": [...]} and exit with 5.
        /// It works for what outlives the connection: a 2026-07-28 input_required round, and
        /// a task over HTTP at 2026-07-28; a question bound to the connection (the 2025 era
        /// outside a task, a task over stdio) is handled as without --defer, and said.
        #[arg(long)]
        defer: bool,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// List the calls kept to be resumed (`call --defer`): id, server, tool, when asked,
    /// until when.
    ///
    /// They are kept in pending/ in $TOOLNEXUS_CONFIG_DIR, else $XDG_CONFIG_HOME/toolnexus,
    /// else ~/.config/toolnexus, readable by you alone and sealed with a key kept there; one
    /// whose time is past is removed.
    #[command(after_help = EXIT_CODES)]
    Pending {
        /// Print them as a JSON array of {id, server, tool, askedAt, expiresAt, requests}.
        #[arg(long)]
        json: bool,
    },
    /// Go on with a call kept by `call --defer`: answer its questions and finish it.
    ///
    /// Asks in the terminal, or takes --answers (one per question, as `call --answers`
    /// does), then goes on as `call` would: a 2026-07-28 round is sent again with the answers
    /// (a stdio server started again with the same command, an HTTP one reached again with
    /// the authorization kept for it), a task is polled again and answered. Same output, same
    /// exit codes, and 5 again with a new id if the server asks more with nobody to answer.
    /// A resumed or expired id is gone.
    #[command(after_help = EXIT_CODES)]
    Resume {
        /// The id `call --defer` printed.
        #[arg(allow_hyphen_values = true)]
        id: String,
        /// Answer from a JSON array of answers instead of asking (see `elicit --help`).
        #[arg(long, value_name = "FILE|-")]
        answers: Option<String>,
    },
    /// List the tools of a live MCP server: names, descriptions and arguments.
    ///
    /// With --json, prints the tools as a JSON array, each tool as the server wrote it
    /// (members in its order, numbers as it spelt them). Over streamable HTTP at 2026-07-28,
    /// a tool whose x-mcp-header annotations are invalid is left out, and said on standard
    /// error.
    #[command(after_help = EXIT_CODES)]
    Tools {
        /// Print the tool definitions as JSON.
        #[arg(long)]
        json: bool,
        /// Consent to the authorization the server asks for from a JSON array of answers
        /// ({"ok":true} consents) instead of asking (see `elicit --help`). Listing answers
        /// no other question.
        #[arg(long, value_name = "FILE|-")]
        answers: Option<String>,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// The authorizations kept for servers reached with --url: list them, or forget them.
    ///
    /// A token a server's authorization server grants is kept for the next command, with
    /// its scopes and the client registered there. Its secrets go to the system's secret
    /// store where one answers (the Secret Service on Linux, the Keychain on macOS, the
    /// Credential Manager on Windows: service "toolnexus", account the server's URL and the
    /// authorization server's), and to auth.json otherwise, which is said once; --store
    /// keychain|file|none chooses. auth.json, readable by you alone, is in
    /// $TOOLNEXUS_CONFIG_DIR, else $XDG_CONFIG_HOME/toolnexus, else ~/.config/toolnexus: it
    /// lists every authorization kept, and holds the tokens of those kept in the file alone.
    /// `auth list` says where each is; `auth logout` forgets from both.
    #[command(after_help = EXIT_CODES)]
    Auth {
        #[command(subcommand)]
        action: AuthAction,
    },
    /// Map ElicitRequestParams to a Request.
    #[command(after_help = EXIT_CODES)]
    Map {
        /// The params: a file, or - for standard input (the default).
        file: Option<String>,
        /// The request's id (default: a fresh one).
        #[arg(long)]
        id: Option<String>,
    },
    /// Map an Answer to an ElicitResult.
    #[command(after_help = EXIT_CODES)]
    Answer {
        /// The answer: a file, or - for standard input (the default).
        file: Option<String>,
    },
    /// List every problem with a requestedSchema.
    #[command(name = "check-schema", after_help = EXIT_CODES)]
    CheckSchema {
        /// The schema: a file, or - for standard input.
        schema: String,
    },
    /// List every way content breaks a requestedSchema.
    #[command(after_help = EXIT_CODES)]
    Validate {
        /// The schema: a file, or - for standard input.
        schema: String,
        /// The content: a file, or - for standard input.
        content: String,
        /// Accept members the schema does not declare.
        #[arg(long)]
        allow_unknown: bool,
    },
    /// Print the form model of a requestedSchema: the fields a UI renders.
    #[command(after_help = EXIT_CODES)]
    Fields {
        /// The schema: a file, or - for standard input.
        schema: String,
    },
    /// Write a request as a web page: a form's fields, or a URL's consent.
    ///
    /// Reads a toolnexus Request (an object with a `kind`) or MCP ElicitRequestParams (mapped
    /// to a Request with --id or a fresh id) and writes the page the core makes of it: a whole
    /// HTML document with the core's style sheet, or with --fragment the <form> alone, for a
    /// host to put in its own page. Every server string is escaped; the page runs no script.
    #[command(after_help = EXIT_CODES)]
    Html {
        /// The request or params: a file, or - for standard input.
        file: String,
        /// Write the <form> fragment alone, not a whole document.
        #[arg(long)]
        fragment: bool,
        /// Who asks, shown above the message: a name you trust, never the server's words.
        #[arg(long, value_name = "NAME")]
        asker: Option<String>,
        /// What every class and element id starts with (default tn-).
        #[arg(long, value_name = "PREFIX")]
        class_prefix: Option<String>,
        /// The person's offset from UTC for date-time fields: Z, +HH:MM or -HH:MM (default Z).
        #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
        utc_offset: Option<String>,
        /// Where the form posts (default: the page's own address).
        #[arg(long, value_name = "URL")]
        action: Option<String>,
        /// The request's id when the input is ElicitRequestParams (default: a fresh one).
        #[arg(long)]
        id: Option<String>,
        /// Write the page to FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
    },
    /// Review a URL-mode link before a person opens it.
    #[command(name = "review-url", after_help = EXIT_CODES)]
    ReviewUrl {
        /// The URL.
        url: String,
    },
    /// Run the shared conformance suite through the core.
    #[command(after_help = EXIT_CODES)]
    Conformance {
        /// The suite's folder: `conformance/v1` in a checkout of toolnexus.
        dir: PathBuf,
    },
}

/// What `toolnexus auth` does.
#[derive(Debug, Subcommand)]
enum AuthAction {
    /// List the authorizations kept: server, where (keychain or file), authorization server,
    /// scope and expiry (never a token).
    List,
    /// Forget the authorizations kept for the server at URL, or every one, from the keychain
    /// and the file.
    Logout {
        /// The server's URL, as --url gave it.
        url: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && std::env::args_os().any(|a| a == "--json-errors") => {
            // A script that asked for JSON errors gets one, even for a command line clap
            // refused: its first line, without clap's "error: ".
            printer::json_errors(true);
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            let message = first.strip_prefix("error: ").unwrap_or(first);
            printer::error("usage", "", message, message);
            return Exit::Usage.into();
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Usage.into()
            } else {
                Exit::Done.into()
            };
        }
    };
    printer::json_errors(cli.json_errors);
    match run(cli.command) {
        Ok((output, exit)) => {
            printer::stdout(&output);
            exit.into()
        }
        Err(failure) => {
            report::failure(&failure);
            failure.exit().into()
        }
    }
}

fn run(command: Command) -> json_tools::Printed {
    let limits = Limits::DEFAULT;
    let source = |file: Option<String>| Source::parse(file.as_deref().unwrap_or("-"));
    match command {
        Command::Elicit {
            file,
            answers,
            server,
        } => elicit(file, answers, server.as_deref(), &limits),
        Command::Call {
            tool,
            args,
            answers,
            task,
            max_rounds,
            defer,
            server,
        } => {
            let arguments = match toolnexus_core::json::parse_str(&args, &limits)? {
                toolnexus_core::Value::Object(map) => map,
                other => {
                    return Err(Failure::usage(format!(
                        "--args must be a JSON object, not {}",
                        other.type_name()
                    )));
                }
            };
            let calling = Calling {
                task,
                max_rounds,
                defer,
                resume: None,
            };
            let asker = asker(answers.as_deref(), &limits, false)?;
            call(&tool, arguments, asker, calling, &server)
        }
        Command::Pending { json } => list_pending(json),
        Command::Resume { id, answers } => resume(&id, answers, &limits),
        Command::Tools {
            json,
            answers,
            server,
        } => list_tools(&server, json, answers, &limits),
        Command::Auth { action } => {
            let store = auth::Store::locate().map_err(Failure::usage)?;
            match action {
                AuthAction::List => commands::auth::list(&store),
                AuthAction::Logout { url } => commands::auth::logout(&store, url.as_deref()),
            }
        }
        Command::Map { file, id } => json_tools::map(&source(file), id.as_deref(), &limits),
        Command::Answer { file } => json_tools::answer(&source(file), &limits),
        Command::CheckSchema { schema } => {
            json_tools::check_schema_tool(&Source::parse(&schema), &limits)
        }
        Command::Validate {
            schema,
            content,
            allow_unknown,
        } => json_tools::validate(
            &Source::parse(&schema),
            &Source::parse(&content),
            allow_unknown,
            &limits,
        ),
        Command::Fields { schema } => json_tools::fields(&Source::parse(&schema), &limits),
        Command::ReviewUrl { url } => json_tools::review(&url),
        Command::Html {
            file,
            fragment,
            asker,
            class_prefix,
            utc_offset,
            action,
            id,
            output,
        } => {
            let page = html::Page {
                fragment,
                asker,
                class_prefix,
                utc_offset,
                action,
                id,
                output,
            };
            html::html(&Source::parse(&file), &page, &limits)
        }
        Command::Conformance { dir } => json_tools::conformance(dir),
    }
}

/// The asker: the answers given, or the terminal. Without a terminal, `elicit` cannot start
/// (asking is all it does); `call` starts with nobody to ask, and only a question ends it.
fn asker(
    answers: Option<&str>,
    limits: &Limits,
    terminal_needed: bool,
) -> Result<Box<dyn Asker>, Failure> {
    if let Some(answers) = answers {
        let value = Source::parse(answers).json(limits)?;
        return Ok(Box::new(Scripted::from_value(value)?));
    }
    match Terminal::open() {
        Some(terminal) => Ok(Box::new(terminal)),
        None if terminal_needed => Err(Failure::usage(
            "no terminal to ask on: run it in a terminal, or give the answers with \
             --answers FILE",
        )),
        None => Ok(Box::new(Nobody::default())),
    }
}

/// Starts or reaches the server; `asker` consents to the authorization a server reached over
/// HTTP asks for.
fn connect(
    server: &ServerArgs,
    asker: &Shared,
) -> Result<Box<dyn call::transport::Transport>, Failure> {
    match (&server.url, server.command.split_first()) {
        (Some(url), None) => {
            let patience = std::time::Duration::from_secs(server.timeout);
            let options = server.auth.options()?;
            let authorizer = auth::Authorizer::new(url, options, asker.clone(), patience)?;
            Ok(Box::new(
                call::http::HttpServer::new(url, &server.headers, patience)
                    .map_err(Failure::usage)?
                    .authorized_by(authorizer),
            ))
        }
        (None, Some((program, args))) => {
            let log = match &server.server_log {
                Some(path) => Some(std::fs::File::create(path).map_err(|e| {
                    Failure::usage(format!("cannot write {}: {e}", path.display()))
                })?),
                None => None,
            };
            Ok(Box::new(
                call::transport::StdioServer::spawn(program, args, log).map_err(Failure::server)?,
            ))
        }
        (Some(_), Some(_)) => Err(Failure::usage(
            "give either --url URL or -- COMMAND, not both",
        )),
        (None, None) => Err(Failure::usage(
            "which server? give -- COMMAND [ARG…] to start one, or --url URL",
        )),
    }
}

/// How `call` calls: `--task`, `--max-rounds`, `--defer`, and what a resumed call goes on
/// with.
struct Calling {
    task: bool,
    max_rounds: usize,
    defer: bool,
    resume: Option<pending::Pending>,
}

fn call(
    tool: &str,
    arguments: toolnexus_core::Map,
    asker: Box<dyn Asker>,
    calling: Calling,
    server: &ServerArgs,
) -> json_tools::Printed {
    // Where a deferred call is kept, found before the server is started.
    let folder = if calling.defer {
        let store = auth::Store::locate().map_err(Failure::usage)?;
        Some(pending::Folder::in_config(store.dir()))
    } else {
        None
    };
    // One asker for the conversation's questions and the consent to an authorization, so
    // that --answers are used in the order the questions come.
    let asker = Shared::new(asker);
    let transport = connect(server, &asker)?;
    let timeout = std::time::Duration::from_secs(server.timeout);
    let mut conversing = asker.clone();
    let mut conversation = call::Conversation::new(transport, &mut conversing, timeout);
    conversation.declare(server.elicit);
    conversation.prefer_task(calling.task);
    conversation.max_rounds(calling.max_rounds);
    conversation.defer(calling.defer);
    if let Some(kept) = &calling.resume {
        conversation.said_to_be(kept.who.as_deref());
    }
    let outcome = match calling.resume.as_ref().map(|kept| (kept, &kept.waiting)) {
        None => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.call_tool(tool, arguments.clone())),
        Some((kept, pending::Waiting::Round(snapshot))) => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.resume_round(tool, arguments.clone(), snapshot, &kept.id)),
        Some((kept, pending::Waiting::Task(created))) => conversation
            .connect(server.protocol.as_deref())
            .and_then(|()| conversation.resume_task(created, &kept.keys)),
        // The question belongs to the session it came on: no new handshake.
        Some((
            kept,
            pending::Waiting::Question {
                task,
                question,
                session,
            },
        )) => conversation
            .rejoin(&kept.protocol, session)
            .and_then(|()| conversation.resume_question(task, question)),
    };
    let answered_all = conversation.answered_all();
    let (version, who) = (conversation.version().to_owned(), conversation.who());
    conversation.close();
    let result = match outcome? {
        call::Called::Result(result) => result,
        call::Called::Deferred(deferral) => {
            let Some(folder) = folder else {
                return Err(Failure::server("a call was deferred without --defer"));
            };
            let kept = pending::Pending {
                id: pending::new_id().map_err(Failure::server)?,
                server: match (&server.url, &server.command) {
                    (Some(url), _) => pending::Server::Url {
                        url: url.clone(),
                        headers: server.headers.clone(),
                    },
                    (None, command) => pending::Server::Command(command.clone()),
                },
                tool: String::from(tool),
                arguments,
                protocol: version,
                who,
                elicit: String::from(modes_name(server.elicit)),
                auth: server.auth.words(),
                timeout: server.timeout,
                max_rounds: calling.max_rounds,
                asked_at_ms: toolnexus_core::id::now_ms(),
                expires_at_ms: deferral.expires_at_ms,
                requests: deferral.requests,
                keys: deferral.keys,
                waiting: deferral.waiting,
            };
            folder.keep(&kept).map_err(Failure::usage)?;
            note!(
                "the call waits for answers: toolnexus resume {} (until {})",
                kept.id,
                toolnexus_core::rfc3339::format_unix_ms(kept.expires_at_ms)
            );
            return Ok((Output::Json(kept.announcement().to_json()), Exit::Pending));
        }
    };
    let is_error = matches!(
        result.get("isError"),
        Some(toolnexus_core::Value::Bool(true))
    );
    let exit = if asker.unasked() {
        Exit::Unasked
    } else {
        json_tools::verdict(!is_error && answered_all)
    };
    Ok((
        Output::Json(toolnexus_core::Value::Object(result).to_json()),
        exit,
    ))
}

/// `toolnexus pending`: the calls kept, as lines or as JSON.
fn list_pending(json: bool) -> json_tools::Printed {
    let store = auth::Store::locate().map_err(Failure::usage)?;
    let folder = pending::Folder::in_config(store.dir());
    let found = folder
        .list(toolnexus_core::id::now_ms())
        .map_err(Failure::usage)?;
    let time = toolnexus_core::rfc3339::format_unix_ms;
    let mut items = Vec::new();
    let mut lines = String::new();
    for item in found {
        match item {
            Ok(kept) => {
                let server = match &kept.server {
                    pending::Server::Command(words) => words.join(" "),
                    pending::Server::Url { url, .. } => url.clone(),
                };
                let mut map = toolnexus_core::Map::new();
                map.insert("id", toolnexus_core::Value::from(kept.id.as_str()));
                map.insert("server", toolnexus_core::Value::from(server.as_str()));
                map.insert("tool", toolnexus_core::Value::from(kept.tool.as_str()));
                map.insert(
                    "askedAt",
                    toolnexus_core::Value::from(time(kept.asked_at_ms)),
                );
                map.insert(
                    "expiresAt",
                    toolnexus_core::Value::from(time(kept.expires_at_ms)),
                );
                map.insert("requests", toolnexus_core::Value::Array(kept.requests));
                items.push(toolnexus_core::Value::Object(map));
                lines.push_str(&format!(
                    "{}  {}  {}  asked {}  until {}\n",
                    kept.id,
                    printer::one_line(&server),
                    printer::one_line(&kept.tool),
                    time(kept.asked_at_ms),
                    time(kept.expires_at_ms)
                ));
            }
            Err((id, refusal)) => {
                let why = match refusal {
                    pending::Refusal::Invalid(why) | pending::Refusal::Io(why) => why,
                    pending::Refusal::Unknown(why) => why,
                    pending::Refusal::Expired(_) => String::from("expired"),
                };
                warning!("the pending call {id} cannot be read: {why}");
            }
        }
    }
    if json {
        let list = toolnexus_core::Value::Array(items);
        return Ok((Output::Json(list.to_json()), Exit::Done));
    }
    if lines.is_empty() {
        note!("no call waits for answers");
        return Ok((Output::Nothing, Exit::Done));
    }
    // The printer ends the text with a line break of its own.
    lines.pop();
    Ok((Output::Text(lines), Exit::Done))
}

/// `toolnexus resume ID`: the call kept, taken (it is gone from now on) and finished as
/// `call` would.
fn resume(id: &str, answers: Option<String>, limits: &Limits) -> json_tools::Printed {
    use toolnexus_core::{Error, ErrorKind};
    let store = auth::Store::locate().map_err(Failure::usage)?;
    let folder = pending::Folder::in_config(store.dir());
    // The answers are read before the call is taken: a file that cannot be read changes
    // nothing.
    let asker = asker(answers.as_deref(), limits, false)?;
    let kept = match folder.take(id, toolnexus_core::id::now_ms()) {
        Ok(kept) => kept,
        Err(pending::Refusal::Unknown(why) | pending::Refusal::Io(why)) => {
            return Err(Failure::usage(why));
        }
        Err(pending::Refusal::Expired(at)) => {
            return Err(Failure::Refused(Error::new(
                ErrorKind::Expired,
                "/expiresAtMs",
                format!(
                    "the pending call {id} expired at {}; it is removed",
                    toolnexus_core::rfc3339::format_unix_ms(at)
                ),
            )));
        }
        Err(pending::Refusal::Invalid(why)) => {
            return Err(Failure::Refused(Error::new(
                ErrorKind::InvalidSeal,
                "",
                why,
            )));
        }
    };
    let mut server = ServerArgs::again(&kept)?;
    server.protocol = Some(kept.protocol.clone());
    let calling = Calling {
        task: false,
        max_rounds: kept.max_rounds,
        defer: true,
        resume: Some(kept.clone()),
    };
    call(&kept.tool, kept.arguments.clone(), asker, calling, &server)
}

fn list_tools(
    server: &ServerArgs,
    json: bool,
    answers: Option<String>,
    limits: &Limits,
) -> json_tools::Printed {
    // Listing asks nothing: a question that comes anyway is cancelled, and said. Consent to
    // an authorization the server asks for is the one question asked.
    let mut nobody = Nobody::default();
    let consent = Shared::new(asker(answers.as_deref(), limits, false)?);
    let transport = connect(server, &consent)?;
    let timeout = std::time::Duration::from_secs(server.timeout);
    let mut conversation = call::Conversation::new(transport, &mut nobody, timeout);
    conversation.declare(server.elicit);
    let outcome = conversation
        .connect(server.protocol.as_deref())
        .and_then(|()| conversation.list_tools());
    let who = conversation.who();
    conversation.close();
    let listing = outcome?;
    if json {
        let list = toolnexus_core::Value::Array(listing.tools);
        return Ok((Output::Json(list.to_json()), Exit::Done));
    }
    Ok((
        Output::Text(json_tools::describe_tools(who.as_deref(), &listing.tools)),
        Exit::Done,
    ))
}

fn elicit(
    file: Option<String>,
    answers: Option<String>,
    server: Option<&str>,
    limits: &Limits,
) -> json_tools::Printed {
    if file.as_deref() == Some("-") && answers.as_deref() == Some("-") {
        return Err(Failure::usage(
            "the elicitation and --answers cannot both be standard input",
        ));
    }
    let mut asker = asker(answers.as_deref(), limits, true)?;
    // No file and nothing piped in: the sample, a form and then a URL request.
    let sample = file.is_none() && std::io::stdin().is_terminal();
    if sample {
        let mut replies = Vec::new();
        let mut exit = Exit::Done;
        for text in [sample::FORM, sample::URL] {
            let elicitation = Elicitation::read(text.as_bytes(), limits)?;
            let finished = elicit::run(elicitation, asker.as_mut(), server)?;
            replies.push(finished.reply);
            if finished.exit != Exit::Done {
                exit = finished.exit;
            }
        }
        return Ok((Output::Json(replies.join("\n")), exit));
    }
    let bytes = Source::parse(file.as_deref().unwrap_or("-")).read(limits)?;
    let elicitation = Elicitation::read(&bytes, limits)?;
    let finished = elicit::run(elicitation, asker.as_mut(), server)?;
    Ok((Output::Json(finished.reply), finished.exit))
}

/// The command-line option for the member of the flow's configuration at `pointer`, as the
/// flow's option rule names it.
fn option_of(pointer: &str) -> String {
    toolnexus_auth::AuthOption::ALL
        .into_iter()
        .find(|option| option.pointer() == pointer)
        .map_or_else(|| format!("the value at {pointer}"), option_flag)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, Command};

    #[test]
    fn debug_forms_name_headers_and_never_show_their_values() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--header",
            "X-Api-Key: key-sekrit-1",
            "--header",
            "Authorization:Bearer token-sekrit-2",
            "--header",
            "no-colon-sekrit-3",
            "--client-secret",
            "client-sekrit-4",
            "--max-rounds",
            "3",
        ])
        .unwrap();
        let shown = format!("{cli:?} {cli:#?}");
        for secret in [
            "key-sekrit-1",
            "token-sekrit-2",
            "no-colon-sekrit-3",
            "client-sekrit-4",
        ] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("X-Api-Key: …"), "{shown}");
        assert!(shown.contains("Authorization: …"), "{shown}");
        assert!(shown.contains("http://127.0.0.1:1/mcp"), "{shown}");
        let Command::Call { max_rounds, .. } = cli.command else {
            panic!("{shown}")
        };
        assert_eq!(max_rounds, 3);
    }

    #[test]
    fn a_kept_call_keeps_the_authorization_options_and_no_secret() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--defer",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--grant",
            "client-credentials",
            "--client-id",
            "c",
            "--client-secret",
            "client-sekrit-7",
            "--client-issuer",
            "http://127.0.0.1:2",
            "--no-store",
        ])
        .unwrap();
        let Command::Call { server, .. } = cli.command else {
            panic!("not a call")
        };
        let words = server.auth.words();
        assert_eq!(
            words,
            [
                "--client-id",
                "c",
                "--client-issuer",
                "http://127.0.0.1:2",
                "--grant",
                "client-credentials",
                "--store",
                "none"
            ]
        );
        let kept = super::pending::Pending {
            id: String::from("x"),
            server: super::pending::Server::Url {
                url: String::from("http://127.0.0.1:1/mcp"),
                headers: Vec::new(),
            },
            tool: String::from("t"),
            arguments: toolnexus_core::Map::new(),
            protocol: String::from("2026-07-28"),
            who: None,
            elicit: String::from("form"),
            auth: words,
            timeout: 7,
            max_rounds: 2,
            asked_at_ms: 0,
            expires_at_ms: 1,
            requests: Vec::new(),
            keys: Vec::new(),
            waiting: super::pending::Waiting::Task(String::from("{}")),
        };
        let again = super::ServerArgs::again(&kept).unwrap();
        assert_eq!(again.auth.grant, super::GrantChoice::ClientCredentials);
        assert_eq!(again.auth.client_id.as_deref(), Some("c"));
        assert_eq!(
            again.auth.client_issuer.as_deref(),
            Some("http://127.0.0.1:2")
        );
        assert_eq!(again.auth.store, Some(super::StoreChoice::None));
        assert_eq!(again.timeout, 7);
        assert_eq!(again.elicit, toolnexus_core::Modes::FORM);
        assert_eq!(again.url.as_deref(), Some("http://127.0.0.1:1/mcp"));
    }

    #[test]
    fn the_authorizer_s_options_show_no_secret() {
        let cli = Cli::try_parse_from([
            "toolnexus",
            "call",
            "t",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--grant",
            "enterprise",
            "--client-id",
            "c",
            "--client-secret",
            "client-sekrit-5",
            "--client-issuer",
            "http://127.0.0.1:2",
            "--id-token-file",
            "/nonexistent/id-token",
            "--idp-token-endpoint",
            "http://127.0.0.1:3/token",
            "--idp-client-id",
            "idp",
            "--idp-client-secret",
            "idp-sekrit-6",
        ])
        .unwrap();
        let shown = format!("{cli:?} {cli:#?}");
        for secret in ["client-sekrit-5", "idp-sekrit-6"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        let Command::Call { server, .. } = cli.command else {
            panic!("{shown}")
        };
        // The options the authorizer is handed, and their refusal, show none either.
        let refused = server.auth.options().unwrap_err();
        let said = format!("{refused:?}");
        assert!(said.contains("--id-token-file"), "{said}");
        for secret in ["client-sekrit-5", "idp-sekrit-6"] {
            assert!(!said.contains(secret), "{secret} in {said}");
        }
    }
}
