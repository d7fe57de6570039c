//! `toolnexus call --url` and `tools --url` against a server that asks for authorization: a
//! scripted MCP server and authorization server on 127.0.0.1, signed in through
//! `tests/conformance/browser.py` as `--browser`. The token is got, sent, kept (`0600` in a
//! `0700` folder) and used by the next command; `--no-store` keeps nothing; `auth list` and
//! `auth logout` manage what is kept; and no token, code, verifier or secret is ever printed.
//! Grants go to a real Secret Service (GNOME Keyring in a D-Bus session bus each such test
//! starts, read back with `secret-tool`), and the file holds none of their secrets; with no
//! session bus the default is the file, said once; `--store file|none|keychain` choose.
//! Every other test runs with no session bus.
//! The grants for machines (`--grant client-credentials`, `--grant jwt-bearer`) get their
//! token with nobody asked and no listener, and their options are checked before anything
//! is sent. The device grant (`--grant device-code`) shows its link and code, escaped, and
//! polls until the token comes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::{env, fs, thread};

const ACCESS_TOKEN: &str = "access-token-7f3a";
const REFRESH_TOKEN: &str = "refresh-token-9c1d";
const CODE: &str = "authorization-code-2b8e";
const CLIENT_SECRET: &str = "client-secret-5e0f";
const DEVICE_CODE: &str = "device-code-4d2a";
const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    verb: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name` in the query.
    fn param(&self, name: &str) -> Option<String> {
        self.query.split('&').find_map(|pair| {
            let (n, v) = pair.split_once('=')?;
            (n == name).then(|| decode(v))
        })
    }

    fn id(&self) -> String {
        let start = self.body.find("\"id\":").map(|i| i + 5).unwrap_or(0);
        self.body[start..]
            .chars()
            .take_while(|c| *c != ',' && *c != '}')
            .collect()
    }
}

/// Percent-decoding, enough for the values the client sends.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// The MCP server and its authorization server, on one origin.
struct Server {
    origin: String,
    log: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let log: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let (shared, at) = (Arc::clone(&log), origin.clone());
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, origin) = (Arc::clone(&shared), at.clone());
                thread::spawn(move || serve(stream, &origin, &log));
            }
        });
        Server { origin, log }
    }

    fn url(&self) -> String {
        format!("{}/mcp", self.origin)
    }

    fn log(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }

    fn count(&self, verb: &str, path: &str) -> usize {
        self.log()
            .iter()
            .filter(|s| s.verb == verb && s.path == path)
            .count()
    }
}

fn serve(stream: TcpStream, origin: &str, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split(' ');
    let verb = parts.next().unwrap_or("").to_owned();
    let target = parts.next().unwrap_or("").to_owned();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap();
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let seen = Seen {
        verb,
        path: path.to_owned(),
        query: query.to_owned(),
        headers,
        body: String::from_utf8(body).unwrap(),
    };
    let polls = {
        let mut log = log.lock().unwrap();
        log.push(seen.clone());
        log.iter()
            .filter(|s| s.body.contains("device_code="))
            .count()
    };
    let (status, extra, body) = if seen.path == "/token" && polls == 1 {
        // The first poll of the device grant: the person has not finished yet.
        (
            400,
            String::new(),
            String::from(r#"{"error":"authorization_pending"}"#),
        )
    } else {
        answer(&seen, origin)
    };
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

/// Status, extra header lines and body for `seen`.
fn answer(seen: &Seen, origin: &str) -> (u16, String, String) {
    let json = |status: u16, body: String| (status, String::new(), body);
    match (seen.verb.as_str(), seen.path.as_str()) {
        ("POST", "/mcp") => {
            if seen.header("authorization") != Some(&format!("Bearer {ACCESS_TOKEN}")) {
                let challenge = format!(
                    "WWW-Authenticate: Bearer error=\"invalid_token\", resource_metadata=\"{origin}/.well-known/oauth-protected-resource/mcp\"\r\n"
                );
                return (401, challenge, String::from(r#"{"error":"invalid_token"}"#));
            }
            let result = if seen.body.contains("\"initialize\"") {
                r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"guarded","version":"1"}}"#
            } else if seen.body.contains("\"tools/list\"") {
                r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#
            } else if seen.body.contains("\"tools/call\"") {
                r#"{"content":[{"type":"text","text":"inside"}]}"#
            } else {
                return json(202, String::new());
            };
            json(
                200,
                format!(
                    r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
                    seen.id()
                ),
            )
        }
        // A server that refuses every token, the refreshed ones too.
        ("POST", "/refusing/mcp") => (
            401,
            format!(
                "WWW-Authenticate: Bearer error=\"invalid_token\", resource_metadata=\"{origin}/.well-known/oauth-protected-resource/refusing/mcp\"\r\n"
            ),
            String::from(r#"{"error":"invalid_token"}"#),
        ),
        ("GET", "/.well-known/oauth-protected-resource/refusing/mcp") => json(
            200,
            format!(
                r#"{{"resource":"{origin}/refusing/mcp","authorization_servers":["{origin}"]}}"#
            ),
        ),
        // A server whose metadata names the whole origin for its own path: a resource that
        // would widen the token's audience to every server there.
        ("POST", "/narrow/mcp") => (
            401,
            format!(
                "WWW-Authenticate: Bearer resource_metadata=\"{origin}/.well-known/oauth-protected-resource/narrow/mcp\"\r\n"
            ),
            String::from(r#"{"error":"invalid_token"}"#),
        ),
        ("GET", "/.well-known/oauth-protected-resource/narrow/mcp") => json(
            200,
            format!(r#"{{"resource":"{origin}","authorization_servers":["{origin}"]}}"#),
        ),
        ("GET", "/.well-known/oauth-protected-resource/mcp") => json(
            200,
            format!(r#"{{"resource":"{origin}/mcp","authorization_servers":["{origin}"]}}"#),
        ),
        ("GET", "/.well-known/oauth-authorization-server") => json(
            200,
            format!(
                r#"{{"issuer":"{origin}","authorization_endpoint":"{origin}/authorize","token_endpoint":"{origin}/token","registration_endpoint":"{origin}/register","response_types_supported":["code"],"device_authorization_endpoint":"{origin}/device/auth","grant_types_supported":["authorization_code","refresh_token","client_credentials","urn:ietf:params:oauth:grant-type:jwt-bearer","{DEVICE_GRANT}"],"code_challenge_methods_supported":["S256"],"token_endpoint_auth_methods_supported":["client_secret_post"],"authorization_response_iss_parameter_supported":true}}"#
            ),
        ),
        ("POST", "/register") => json(
            201,
            format!(
                r#"{{"client_id":"registered-client","client_secret":"{CLIENT_SECRET}","token_endpoint_auth_method":"client_secret_post"}}"#
            ),
        ),
        // The user code carries an escape sequence: it must reach the terminal shown, not obeyed.
        ("POST", "/device/auth") => json(
            200,
            format!(
                r#"{{"device_code":"{DEVICE_CODE}","user_code":"WDJB\u001b[2J-MJHT","verification_uri":"{origin}/device","expires_in":60,"interval":1}}"#
            ),
        ),
        ("GET", "/authorize") => {
            let redirect = seen.param("redirect_uri").unwrap();
            let state = seen.param("state").unwrap();
            let iss = origin.replace(':', "%3A").replace('/', "%2F");
            let location = format!("Location: {redirect}?code={CODE}&state={state}&iss={iss}\r\n");
            (302, location, String::new())
        }
        ("POST", "/token") => json(
            200,
            format!(
                r#"{{"access_token":"{ACCESS_TOKEN}","token_type":"Bearer","expires_in":3600,"refresh_token":"{REFRESH_TOKEN}","scope":"mcp"}}"#
            ),
        ),
        _ => json(404, String::from(r#"{"error":"not_found"}"#)),
    }
}

/// The browser of these tests: `tests/conformance/browser.py`, run by python3.
fn browser() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/browser.py");
    format!("python3 '{}'", script.display())
}

/// A configuration folder of its own, not created yet (toolnexus creates it).
fn config_dir(name: &str) -> PathBuf {
    let dir = env::temp_dir().join(format!(
        "toolnexus-authorization-{name}-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    dir.join("toolnexus")
}

/// Runs toolnexus with `args`, the configuration in `config`, `stdin` as its input, no
/// secret store within reach (no session bus): grants go to the file.
fn toolnexus(config: &Path, args: &[&str], stdin: &str) -> Output {
    toolnexus_with(config, args, stdin, &[])
}

/// [`toolnexus`] with the variables `vars` set too (a session bus, to reach a keychain).
fn toolnexus_with(
    config: &Path,
    args: &[&str],
    stdin: &str,
    vars: &[(&str, std::ffi::OsString)],
) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolnexus"))
        .args(args)
        .env("TOOLNEXUS_CONFIG_DIR", config)
        .env_remove("TOOLNEXUS_CLIENT_SECRET")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env(
            "XDG_RUNTIME_DIR",
            config.with_file_name("no-runtime-folder"),
        )
        .envs(vars.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Everything a command printed.
fn printed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Fails if `text` holds any secret of the flow: the tokens, the code, the client secret, or
/// the verifier the client sent.
fn holds_no_secret(text: &str, server: &Server) {
    let verifiers: Vec<String> = server
        .log()
        .iter()
        .filter(|s| s.path == "/token")
        .filter_map(|s| {
            s.body
                .split('&')
                .find_map(|p| p.strip_prefix("code_verifier=").map(decode))
        })
        .collect();
    assert!(!verifiers.is_empty(), "no verifier was sent");
    for secret in [ACCESS_TOKEN, REFRESH_TOKEN, CODE, CLIENT_SECRET]
        .into_iter()
        .chain(verifiers.iter().map(String::as_str))
    {
        assert!(!text.contains(secret), "{secret:?} was printed:\n{text}");
    }
}

/// `call t` on the server at `url`, signed in through `browser`, consent read from stdin.
fn signed_in_call<'a>(url: &'a str, browser: &'a str) -> [&'a str; 10] {
    [
        "call",
        "t",
        "--url",
        url,
        "--protocol",
        "2025-11-25",
        "--browser",
        browser,
        "--answers",
        "-",
    ]
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_token_is_got_once_kept_for_the_user_alone_and_never_shown() {
    let server = Server::start();
    let config = config_dir("kept");
    let url = server.url();
    let browser = browser();
    let call = signed_in_call(&url, &browser);
    let out = toolnexus(&config, &call, r#"[{"ok":true}]"#);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("inside"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("answered accept"),
        "the consent is said: {stderr}"
    );
    assert_eq!(server.count("GET", "/authorize"), 1);
    assert_eq!(server.count("POST", "/token"), 1);
    let token = server
        .log()
        .into_iter()
        .find(|s| s.path == "/token")
        .unwrap();
    assert!(token.body.contains("client_secret="), "{}", token.body);
    holds_no_secret(&printed(&out), &server);

    // Kept: the folder and the file are the user's alone.
    let file = config.join("auth.json");
    assert_eq!(mode(&config), 0o700);
    assert_eq!(mode(&file), 0o600);
    assert!(fs::read_to_string(&file).unwrap().contains(ACCESS_TOKEN));

    // The next command sends the kept token: nothing is asked, nobody signs in.
    let tools = ["tools", "--url", &url, "--protocol", "2025-11-25"];
    let out = toolnexus(&config, &tools, "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(server.count("GET", "/authorize"), 1);
    holds_no_secret(&printed(&out), &server);

    // `auth list` names it without its secrets; `auth logout` forgets it.
    let out = toolnexus(&config, &["auth", "list"], "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.starts_with(&url), "{listed}");
    assert!(listed.contains(&server.origin), "{listed}");
    assert!(listed.contains("scope                 mcp"), "{listed}");
    assert!(
        listed.contains(
            "obtained by           --grant authorization-code (client registered-client)"
        ),
        "{listed}"
    );
    holds_no_secret(&printed(&out), &server);
    let out = toolnexus(&config, &["auth", "logout", &url], "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(!file.exists());

    // With nothing kept and nobody to consent, the command ends unasked (exit 4).
    let out = toolnexus(&config, &tools, "");
    assert_eq!(out.status.code(), Some(4), "{}", printed(&out));
    assert_eq!(
        server.count("GET", "/authorize"),
        1,
        "nothing opened unconsented"
    );
    holds_no_secret(&printed(&out), &server);
    fs::remove_dir_all(config.parent().unwrap()).unwrap();
}

#[test]
fn no_store_keeps_nothing_and_a_decline_ends_the_command() {
    let server = Server::start();
    let config = config_dir("no-store");
    let url = server.url();
    let browser = browser();
    let mut tools = vec![
        "tools",
        "--url",
        &url,
        "--protocol",
        "2025-11-25",
        "--browser",
        &browser,
        "--answers",
        "-",
    ];
    let out = toolnexus(&config, &tools, r#"[{"ok":false,"reason":"declined"}]"#);
    assert_eq!(out.status.code(), Some(1), "{}", printed(&out));
    assert_eq!(
        server.count("GET", "/authorize"),
        0,
        "a declined link is not opened"
    );

    tools.push("--no-store");
    let out = toolnexus(&config, &tools, r#"[{"ok":true}]"#);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(server.count("GET", "/authorize"), 1);
    holds_no_secret(&printed(&out), &server);
    assert!(!config.exists(), "--no-store writes nothing");
    let _ = fs::remove_dir_all(config.parent().unwrap());
}

/// The form of the one token request `server` saw.
fn token_form(server: &Server) -> Vec<(String, String)> {
    let requests: Vec<Seen> = server
        .log()
        .into_iter()
        .filter(|s| s.verb == "POST" && s.path == "/token")
        .collect();
    assert_eq!(requests.len(), 1, "{requests:?}");
    requests[0]
        .body
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| (name.to_owned(), decode(value)))
        .collect()
}

#[test]
fn a_grant_for_machines_asks_nobody_and_opens_nothing() {
    let server = Server::start();
    let config = config_dir("machine");
    let url = server.url();
    let secret = format!("--client-secret={CLIENT_SECRET}");
    let call = [
        "call",
        "t",
        "--url",
        &url,
        "--protocol",
        "2025-11-25",
        "--grant",
        "client-credentials",
        "--client-id",
        "machine-1",
        &secret,
        "--client-issuer",
        &server.origin,
        "--no-store",
    ];
    // No --answers and no terminal: a sign-in would end the command unasked (exit 4).
    let out = toolnexus(&config, &call, "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("inside"));
    assert_eq!(server.count("GET", "/authorize"), 0);
    assert_eq!(server.count("POST", "/register"), 0);
    assert_eq!(
        token_form(&server),
        [
            ("grant_type", "client_credentials"),
            ("resource", url.as_str()),
            ("client_id", "machine-1"),
            ("client_secret", CLIENT_SECRET),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    let text = printed(&out);
    for secret in [ACCESS_TOKEN, CLIENT_SECRET] {
        assert!(!text.contains(secret), "{secret:?} was printed:\n{text}");
    }

    // The workload's JWT, read from its file, is the grant.
    let server = Server::start();
    let url = server.url();
    let dir = config.parent().unwrap().to_owned();
    fs::create_dir_all(&dir).unwrap();
    let jwt_file = dir.join("workload.jwt");
    let workload_jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln";
    fs::write(&jwt_file, format!("{workload_jwt}\n")).unwrap();
    let out = toolnexus(
        &config,
        &[
            "call",
            "t",
            "--url",
            &url,
            "--protocol",
            "2025-11-25",
            "--grant",
            "jwt-bearer",
            "--assertion-file",
            jwt_file.to_str().unwrap(),
            "--client-issuer",
            &server.origin,
            "--no-store",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(
        token_form(&server),
        [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
            ("assertion", workload_jwt),
            ("resource", url.as_str()),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    assert!(!printed(&out).contains(workload_jwt));
}

#[test]
fn the_options_of_a_grant_are_checked_before_anything_is_sent() {
    let server = Server::start();
    let config = config_dir("grant-usage");
    let dir = config.parent().unwrap().to_owned();
    fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("not-a-key.pem");
    fs::write(
        &garbage,
        "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    let empty = dir.join("empty.jwt");
    fs::write(&empty, "\n").unwrap();
    let url = server.url();
    let garbage = garbage.to_str().unwrap();
    let empty = empty.to_str().unwrap();
    let jwt = dir.join("workload.jwt");
    fs::write(&jwt, "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln\n").unwrap();
    let jwt = jwt.to_str().unwrap();
    let cases: [(&[&str], &str); 10] = [
        (
            &["--assertion-file", empty],
            "--assertion-file is for --grant jwt-bearer",
        ),
        (
            &["--grant", "client-credentials"],
            "--grant client-credentials needs --client-id",
        ),
        (
            &["--grant", "client-credentials", "--client-id", "c"],
            "--grant client-credentials needs a client secret (--client-secret or \
             TOOLNEXUS_CLIENT_SECRET) or --client-key",
        ),
        (
            &["--grant", "jwt-bearer"],
            "--grant jwt-bearer needs --assertion-file",
        ),
        (
            &[
                "--grant",
                "jwt-bearer",
                "--assertion-file",
                empty,
                "--client-issuer",
                "https://as.example",
            ],
            "the file is empty",
        ),
        (
            &["--grant", "enterprise", "--client-id", "c"],
            "--grant enterprise needs --id-token-file and --idp-token-endpoint",
        ),
        (&["--client-key", garbage], "--client-key needs --client-id"),
        (
            &[
                "--client-id",
                "c",
                "--client-key",
                garbage,
                "--client-issuer",
                "https://as.example",
            ],
            "does not hold a P-256 (ES256) key",
        ),
        // Confidential credentials go only to the authorization server they are bound to,
        // never to whichever one the MCP server names.
        (
            &["--client-id", "c", "--client-secret", "s3cret"],
            "a client secret (--client-secret or TOOLNEXUS_CLIENT_SECRET) is sent only to the \
             authorization server it belongs to: bind it with --client-issuer",
        ),
        (
            &["--grant", "jwt-bearer", "--assertion-file", jwt],
            "--assertion-file is sent only to the authorization server it belongs to: bind it \
             with --client-issuer",
        ),
    ];
    for (options, said) in cases {
        let mut args = vec!["call", "t", "--url", &url, "--no-store"];
        args.extend_from_slice(options);
        let out = toolnexus(&config, &args, "");
        assert_eq!(out.status.code(), Some(2), "{options:?}: {}", printed(&out));
        let text = printed(&out);
        assert!(text.contains(said), "{options:?}: {text}");
        assert!(
            !text.contains("c2VjcmV0LWJ5dGVz"),
            "the key is not shown: {text}"
        );
    }
    assert!(server.log().is_empty(), "nothing was sent");
}

/// The grant types of the token requests `server` saw, in order.
fn grant_types(server: &Server) -> Vec<String> {
    server
        .log()
        .iter()
        .filter(|s| s.verb == "POST" && s.path == "/token")
        .filter_map(|s| {
            s.body
                .split('&')
                .find_map(|p| p.strip_prefix("grant_type=").map(decode))
        })
        .collect()
}

#[test]
fn a_kept_grant_serves_only_the_grant_and_the_client_that_got_it() {
    let server = Server::start();
    let config = config_dir("kinds");
    let url = server.url();
    let browser = browser();
    let person = signed_in_call(&url, &browser);
    let out = toolnexus(&config, &person, r#"[{"ok":true}]"#);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(server.count("GET", "/authorize"), 1);

    // A job that runs as a machine does not act with the person's token.
    let secret = format!("--client-secret={CLIENT_SECRET}");
    let machine = |client: &'static str| {
        [
            "call",
            "t",
            "--url",
            url.as_str(),
            "--protocol",
            "2025-11-25",
            "--grant",
            "client-credentials",
            "--client-id",
            client,
            secret.as_str(),
            "--client-issuer",
            server.origin.as_str(),
        ]
        .map(str::to_owned)
    };
    let run = |args: &[String], stdin: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        toolnexus(&config, &args, stdin)
    };
    let out = run(&machine("machine-1"), "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "obtained by --grant authorization-code, and this command asks for --grant \
             client-credentials"
        ),
        "{stderr}"
    );
    assert_eq!(
        grant_types(&server),
        ["authorization_code", "client_credentials"]
    );

    let out = toolnexus(&config, &["auth", "list"], "");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("obtained by           --grant client-credentials (client machine-1)"),
        "{listed}"
    );
    // Its own grant, kept now, serves it again without a token request...
    let out = run(&machine("machine-1"), "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(grant_types(&server).len(), 2);
    // ...but not another client.
    let out = run(&machine("machine-2"), "");
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another client's"));
    assert_eq!(grant_types(&server).len(), 3);

    // A person's command does not act with the machine's token: the person signs in.
    let out = toolnexus(&config, &person, r#"[{"ok":true}]"#);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(server.count("GET", "/authorize"), 2);
    assert_eq!(
        grant_types(&server).last().map(String::as_str),
        Some("authorization_code")
    );
}

#[test]
fn metadata_naming_more_than_the_server_is_refused_before_any_sign_in() {
    let server = Server::start();
    let config = config_dir("narrow");
    let url = format!("{}/narrow/mcp", server.origin);
    let out = toolnexus(
        &config,
        &[
            "call",
            "t",
            "--url",
            &url,
            "--protocol",
            "2025-11-25",
            "--answers",
            "-",
        ],
        r#"[{"ok":true}]"#,
    );
    assert_eq!(out.status.code(), Some(3), "{}", printed(&out));
    assert!(
        printed(&out).contains("resource_mismatch"),
        "{}",
        printed(&out)
    );
    // Nothing past the resource's metadata: no authorization server asked, no sign-in.
    let paths: Vec<String> = server.log().iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/narrow/mcp",
            "/.well-known/oauth-protected-resource/narrow/mcp"
        ]
    );
}

/// The password the keyring of these tests is unlocked with.
const KEYRING_PASSWORD: &str = "keyring-password-4d2a";

/// A D-Bus session bus of its own, with GNOME Keyring's Secret Service on it, unlocked, its
/// home and data in a temporary folder: the keychain of a Linux desktop, headless. Stopped
/// and removed when dropped.
struct Keyring {
    dir: PathBuf,
    bus: std::process::Child,
    daemon: std::process::Child,
    address: String,
}

impl Keyring {
    fn start(name: &str) -> Keyring {
        for program in [
            "dbus-daemon",
            "gnome-keyring-daemon",
            "secret-tool",
            "dbus-send",
        ] {
            let found = Command::new("sh")
                .args(["-c", &format!("command -v {program}")])
                .output()
                .is_ok_and(|out| out.status.success());
            assert!(
                found,
                "the keychain tests need {program}: apt-get install gnome-keyring \
                 libsecret-tools dbus (`cargo xtask test cli` installs them)"
            );
        }
        let dir = env::temp_dir().join(format!("toolnexus-keyring-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let run = dir.join("run");
        fs::create_dir_all(&run).unwrap();
        fs::set_permissions(&run, fs::Permissions::from_mode(0o700)).unwrap();
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .arg(format!("--address=unix:path={}", run.join("bus").display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = String::from(address.trim());
        if !address.starts_with("unix:") {
            let _ = bus.kill();
            let _ = bus.wait();
            panic!("dbus-daemon gave no address: {address:?}");
        }
        let vars = session_vars(&dir, &address);
        let mut daemon = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--unlock", "--components=secrets"])
            .envs(vars)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        daemon
            .stdin
            .take()
            .unwrap()
            .write_all(KEYRING_PASSWORD.as_bytes())
            .unwrap();
        let keyring = Keyring {
            dir,
            bus,
            daemon,
            address,
        };
        // Up when the Secret Service's name has its owner on the bus.
        let started = std::time::Instant::now();
        loop {
            let out = keyring
                .command("dbus-send")
                .args([
                    "--session",
                    "--print-reply",
                    "--dest=org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner",
                    "string:org.freedesktop.secrets",
                ])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).contains("boolean true") {
                break;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(10),
                "gnome-keyring-daemon did not start its Secret Service"
            );
            thread::sleep(std::time::Duration::from_millis(20));
        }
        keyring
    }

    /// The variables a command needs to reach this keychain, and only it.
    fn vars(&self) -> Vec<(&'static str, std::ffi::OsString)> {
        session_vars(&self.dir, &self.address)
    }

    /// `program` in this keychain's session.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.envs(self.vars());
        command
    }

    /// The secret of the item (service `toolnexus`, account `key`), as `secret-tool` reads
    /// it from the Secret Service; `None` when there is none.
    fn lookup(&self, key: &str) -> Option<String> {
        let out = self
            .command("secret-tool")
            .args(["lookup", "service", "toolnexus", "username", key])
            .output()
            .unwrap();
        let secret = String::from_utf8(out.stdout).unwrap();
        (out.status.success() && !secret.is_empty()).then_some(secret)
    }
}

/// The variables of a session whose bus is at `address` and whose home is `dir`.
fn session_vars(dir: &Path, address: &str) -> Vec<(&'static str, std::ffi::OsString)> {
    vec![
        ("DBUS_SESSION_BUS_ADDRESS", address.into()),
        ("HOME", dir.into()),
        ("XDG_DATA_HOME", dir.join("data").into()),
        ("XDG_CONFIG_HOME", dir.join("config").into()),
        ("XDG_RUNTIME_DIR", dir.join("run").into()),
    ]
}

impl Drop for Keyring {
    fn drop(&mut self) {
        for child in [&mut self.daemon, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// `call t` on the server at `server`, with its token got by `--grant client-credentials`
/// (nobody signs in), and `extra` options.
fn machine_call(server: &Server, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "call",
        "t",
        "--url",
        &server.url(),
        "--protocol",
        "2025-11-25",
        "--grant",
        "client-credentials",
        "--client-id",
        "machine-1",
        &format!("--client-secret={CLIENT_SECRET}"),
        "--client-issuer",
        &server.origin,
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|a| String::from(*a)));
    args
}

/// The words saying that a grant went to the file for want of a keychain.
const NO_KEYCHAIN: &str = "no keychain answers";

#[test]
fn a_grant_is_kept_in_the_secret_service_and_the_file_holds_none_of_its_secrets() {
    let keyring = Keyring::start("kept");
    let server = Server::start();
    let config = config_dir("keychain");
    let vars = keyring.vars();
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        toolnexus_with(&config, &args, "", &vars)
    };
    let call = machine_call(&server, &[]);
    let out = run(&call);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("inside"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains(NO_KEYCHAIN), "{stderr}");
    assert_eq!(grant_types(&server), ["client_credentials"]);

    // The Secret Service holds the grant, read back by another program...
    let key = format!("{} {}", server.url(), server.origin);
    let item = keyring.lookup(&key).expect("an item in the Secret Service");
    assert!(item.contains(ACCESS_TOKEN), "the grant is the item");
    assert!(item.contains(REFRESH_TOKEN), "the grant is the item");
    // ...and the file indexes it without a secret.
    let file = config.join("auth.json");
    assert_eq!(mode(&file), 0o600);
    let text = fs::read_to_string(&file).unwrap();
    for secret in [ACCESS_TOKEN, REFRESH_TOKEN, CLIENT_SECRET] {
        assert!(!text.contains(secret), "{secret} in the file: {text}");
    }
    assert!(text.contains(r#""store":"keychain""#), "{text}");

    // The next command sends the token read from the keychain: no token is asked for.
    let out = run(&call);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(grant_types(&server).len(), 1, "the kept grant is used");
    assert!(!printed(&out).contains(ACCESS_TOKEN));

    // `auth list` says where it is; `auth logout` forgets it from both.
    let out = toolnexus_with(&config, &["auth", "list"], "", &vars);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("kept in               keychain (the system's secret store)"),
        "{listed}"
    );
    assert!(!listed.contains(ACCESS_TOKEN), "{listed}");
    // Out of the session the keychain cannot forget it: an error, and it stays listed.
    let out = toolnexus(&config, &["auth", "logout"], "");
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("1 authorization kept in the keychain is not forgotten"),
        "{}",
        printed(&out)
    );
    assert!(keyring.lookup(&key).is_some());
    let out = toolnexus(&config, &["auth", "list"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("kept in               keychain"));
    let out = toolnexus_with(&config, &["auth", "logout"], "", &vars);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 authorization forgotten"));
    assert_eq!(keyring.lookup(&key), None, "the item is gone");
    assert!(!file.exists());

    // A grant the file holds (kept by an earlier version) still serves, and moves to the
    // keychain when the next is kept.
    let out = run(&machine_call(&server, &["--store", "file"]));
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(
        keyring.lookup(&key),
        None,
        "--store file leaves the keychain alone"
    );
    assert!(fs::read_to_string(&file).unwrap().contains(ACCESS_TOKEN));
    let out = toolnexus_with(&config, &["auth", "list"], "", &vars);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains(&format!("kept in               file ({})", file.display())),
        "{listed}"
    );
    let out = run(&call);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(grant_types(&server).len(), 2, "the file's grant is used");
    let _ = fs::remove_dir_all(config.parent().unwrap());
}

#[test]
fn store_none_keeps_nothing_and_without_a_secret_service_the_file_is_said_once() {
    let server = Server::start();
    let config = config_dir("no-keychain");
    let run = |extra: &[&str]| {
        let args = machine_call(&server, extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        toolnexus(&config, &args, "")
    };
    // --store none: nothing written.
    let out = run(&["--store", "none"]);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert!(!config.exists(), "--store none writes nothing");
    assert!(!printed(&out).contains(NO_KEYCHAIN));

    // --store keychain with no session bus: refused before anything is sent.
    let out = run(&["--store", "keychain"]);
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--store keychain: no keychain answers"),
        "{stderr}"
    );
    assert_eq!(grant_types(&server).len(), 1, "no token asked for");

    // The default: the file, said once.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches(NO_KEYCHAIN).count(), 1, "{stderr}");
    let file = config.join("auth.json");
    assert!(
        stderr.contains(&format!("kept in {}", file.display())),
        "{stderr}"
    );
    assert_eq!(mode(&file), 0o600);
    assert!(fs::read_to_string(&file).unwrap().contains(ACCESS_TOKEN));
    assert!(!printed(&out).contains(ACCESS_TOKEN));
    // Used by the next command, nothing said.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    assert_eq!(grant_types(&server).len(), 2);
    assert!(!printed(&out).contains(NO_KEYCHAIN), "{}", printed(&out));
    let _ = fs::remove_dir_all(config.parent().unwrap());
}

#[test]
fn the_device_grant_shows_the_code_escaped_and_polls_until_the_token_comes() {
    let server = Server::start();
    let config = config_dir("device");
    let url = server.url();
    let call = [
        "call",
        "t",
        "--url",
        &url,
        "--protocol",
        "2025-11-25",
        "--grant",
        "device-code",
        "--client-id",
        "cli",
        "--no-store",
    ];
    // No --answers and no terminal: nothing is asked here, the person signs in elsewhere.
    let out = toolnexus(&config, &call, "");
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("inside"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "open {}/device on any device and enter the code WDJB\\u{{1b}}[2J-MJHT",
            server.origin
        )),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "an escape reached the terminal");
    assert_eq!(server.count("GET", "/authorize"), 0);
    assert_eq!(server.count("POST", "/register"), 0);
    let device = server
        .log()
        .into_iter()
        .find(|s| s.path == "/device/auth")
        .unwrap();
    assert!(device.body.contains("client_id=cli"), "{}", device.body);
    let polls: Vec<Vec<(String, String)>> = server
        .log()
        .into_iter()
        .filter(|s| s.path == "/token")
        .map(|s| {
            s.body
                .split('&')
                .filter_map(|pair| pair.split_once('='))
                .map(|(name, value)| (name.to_owned(), decode(value)))
                .collect()
        })
        .collect();
    assert_eq!(polls.len(), 2, "one pending, then the token");
    assert_eq!(polls[0], polls[1], "the same request polled again");
    assert_eq!(
        polls[1],
        [
            ("grant_type", DEVICE_GRANT),
            ("device_code", DEVICE_CODE),
            ("resource", url.as_str()),
            ("client_id", "cli"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    for secret in [ACCESS_TOKEN, REFRESH_TOKEN, DEVICE_CODE] {
        assert!(!text.contains(secret), "{secret:?} was printed:\n{text}");
    }
}

#[test]
fn a_server_that_refuses_every_token_ends_the_command_and_refreshes_do_not_go_on_for_ever() {
    let server = Server::start();
    let config = config_dir("refusing");
    let url = format!("{}/refusing/mcp", server.origin);
    let mut args = machine_call(&server, &["--store", "none", "--timeout", "20"]);
    if let Some(at) = args.iter().position(|a| *a == server.url()) {
        args[at] = url;
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = toolnexus(&config, &args, "");
    assert_eq!(out.status.code(), Some(3), "{}", printed(&out));
    assert!(
        printed(&out).contains("still refuses after 3 authorization(s)"),
        "{}",
        printed(&out)
    );
    // Three flows, each token refreshed once: a refreshed token refused leads to a flow,
    // which the cap counts, never to another refresh.
    let grants = grant_types(&server);
    assert_eq!(
        grants,
        [
            "client_credentials",
            "refresh_token",
            "client_credentials",
            "refresh_token",
            "client_credentials",
            "refresh_token"
        ],
        "{}",
        printed(&out)
    );
    let _ = fs::remove_dir_all(config.parent().unwrap());
}
