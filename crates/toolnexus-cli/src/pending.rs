//! Calls that wait for answers nobody could give when the question came (`call --defer`),
//! kept in the configuration folder's `pending/` until `toolnexus resume ID` finishes them or
//! they expire.
//!
//! Each is one file, `pending/ID`, readable by the user alone (`0600`, in a `0700` folder):
//! a JSON document sealed with HMAC-SHA-256 (the core's [`seal`]) under a key of 32 random
//! bytes kept beside it in `pending/key` (`0600`). A file changed by anyone without the key is
//! refused, and left where it is. The document holds what the call needs to go on in another
//! process: how to reach the server again (the command, or the URL with its headers), the
//! tool and its arguments, the protocol version, who the server said it is, the elicitation
//! modes declared, the questions asked, and either the sealed round of a 2026-07-28
//! `input_required` result or the id of the task the server runs. A grant an HTTP server
//! needs is not in it: the resumed call uses the one kept for that server.
//!
//! A resumed id is taken at once (the file is renamed, so of two `resume`s of one id only one
//! finds it) and is gone; an expired one is removed when it is listed or resumed.

use std::fs::{self, DirBuilder, OpenOptions};
use std::io::{self, Read as _};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use toolnexus_core::json::{self, Limits, Map, Value};
use toolnexus_core::seal;

use crate::auth::store::{check_folder, write_private};

/// The folder's name in the configuration folder.
pub const FOLDER: &str = "pending";

/// The key's file name in the folder.
const KEY_FILE: &str = "key";

/// What the seal's tag names: a pending call, so no other sealed document passes for one.
const CONTEXT: &[u8] = b"toolnexus-pending-call";

/// The version of the document's layout.
const VERSION: u64 = 1;

/// The largest pending file read, sealed: a round's snapshot with its forms.
const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The bounds of the document when it is read back.
const LIMITS: Limits = Limits::DEFAULT;

/// How a resumed call reaches its server again.
#[derive(Debug, Clone, PartialEq)]
pub enum Server {
    /// A command started again and spoken to over stdio.
    Command(Vec<String>),
    /// A server over streamable HTTP, with the headers given for it.
    Url {
        /// Its URL, as the command line gave it.
        url: String,
        /// The `--header`s, as given (they may hold an API key: the file is the user's alone).
        headers: Vec<String>,
    },
}

/// What goes on once the questions are answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Waiting {
    /// A 2026-07-28 `input_required` round: its snapshot (the core's, unsealed inside the
    /// sealed file).
    Round(String),
    /// A task the server runs: the `tools/call` result that handed it over.
    Task(String),
    /// A handshake-era task's question (`elicitation/create`), to be answered within the
    /// session it came on, left open: the task's `tools/call` result, the question as it came
    /// (JSON-RPC text), and the session's id.
    Question {
        /// The `tools/call` result that handed the task over.
        task: String,
        /// The `elicitation/create` request, as JSON-RPC text.
        question: String,
        /// The `Mcp-Session-Id` of the session.
        session: String,
    },
}

/// One call waiting for answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// Its id, as `resume` takes it.
    pub id: String,
    /// How to reach the server.
    pub server: Server,
    /// The tool called.
    pub tool: String,
    /// Its arguments.
    pub arguments: Map,
    /// The protocol version spoken.
    pub protocol: String,
    /// Who the server said it is, as it said it (shown through the printer only).
    pub who: Option<String>,
    /// The elicitation modes declared (`--elicit`).
    pub elicit: String,
    /// The authorization options of the command line, as its words, secrets left out (a
    /// resumed call reads them from the environment again).
    pub auth: Vec<String>,
    /// The seconds the server may take (`--timeout`).
    pub timeout: u64,
    /// How many rounds the call may still take (`--max-rounds`).
    pub max_rounds: usize,
    /// When the questions came, in milliseconds since 1970.
    pub asked_at_ms: u64,
    /// Until when the call can be resumed.
    pub expires_at_ms: u64,
    /// The questions, each a `Request` as the contract spells it.
    pub requests: Vec<Value>,
    /// The key of each question (2026-07-28), in the same order: a resumed call asks them in
    /// this order.
    pub keys: Vec<String>,
    /// What goes on once they are answered.
    pub waiting: Waiting,
}

/// One file of the folder: the call it keeps, or its name and why it does not read.
pub type Listed = Result<Pending, (String, Refusal)>;

/// Why a pending call cannot be had.
#[derive(Debug)]
pub enum Refusal {
    /// No such id (never kept, resumed already, or removed).
    Unknown(String),
    /// Its time is past (then, in milliseconds since 1970); it is removed.
    Expired(u64),
    /// The file does not check out (changed, or not one toolnexus wrote); it is left alone.
    Invalid(String),
    /// The folder or a file cannot be read or written.
    Io(String),
}

/// The pending calls of one user.
#[derive(Debug, Clone)]
pub struct Folder {
    dir: PathBuf,
}

impl Folder {
    /// `pending/` in the configuration folder `config`.
    pub fn in_config(config: &Path) -> Folder {
        Folder {
            dir: config.join(FOLDER),
        }
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Keeps `pending` under its id.
    pub fn keep(&self, pending: &Pending) -> Result<(), String> {
        check_id(&pending.id)?;
        let key = self.key(true)?;
        let sealed = seal::seal(pending.to_json().as_bytes(), CONTEXT, &key)
            .map_err(|e| format!("cannot seal the pending call: {}", e.message()))?;
        let path = self.dir.join(&pending.id);
        let temporary = self.dir.join(format!(".{}.tmp", pending.id));
        write_private(&temporary, &sealed)
            .and_then(|()| fs::rename(&temporary, &path))
            .map_err(|e| {
                let _ = fs::remove_file(&temporary);
                format!("cannot write {}: {e}", path.display())
            })
    }

    /// Every pending call that reads, oldest first, and the refusal of each file that does
    /// not; expired ones are removed and left out.
    pub fn list(&self, now_ms: u64) -> Result<Vec<Listed>, String> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", self.dir.display())),
        };
        check_folder(&self.dir)?;
        let mut ids: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| name != KEY_FILE && check_id(name).is_ok())
            .collect();
        ids.sort();
        let key = self.key(false)?;
        let mut found = Vec::new();
        for id in ids {
            match self.read(&self.dir.join(&id), &id, &key) {
                Ok(pending) if pending.expires_at_ms <= now_ms => {
                    let _ = fs::remove_file(self.dir.join(&id));
                }
                Ok(pending) => found.push(Ok(pending)),
                Err(refusal) => found.push(Err((id, refusal))),
            }
        }
        found.sort_by_key(|item| match item {
            Ok(pending) => pending.asked_at_ms,
            Err(_) => u64::MAX,
        });
        Ok(found)
    }

    /// Takes the pending call `id`: it is gone from the folder once this returns it (or finds
    /// it expired). A file that does not check out is put back as it was.
    pub fn take(&self, id: &str, now_ms: u64) -> Result<Pending, Refusal> {
        check_id(id).map_err(Refusal::Unknown)?;
        let path = self.dir.join(id);
        let taken = self.dir.join(format!(".{id}.taken.{}", std::process::id()));
        match fs::symlink_metadata(&self.dir) {
            Ok(_) => check_folder(&self.dir).map_err(Refusal::Io)?,
            Err(_) => return Err(unknown(id)),
        }
        match fs::rename(&path, &taken) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(unknown(id)),
            Err(e) => return Err(Refusal::Io(format!("cannot take {}: {e}", path.display()))),
        }
        let key = self.key(false).map_err(Refusal::Io)?;
        match self.read(&taken, id, &key) {
            Ok(pending) => {
                let _ = fs::remove_file(&taken);
                if pending.expires_at_ms <= now_ms {
                    Err(Refusal::Expired(pending.expires_at_ms))
                } else {
                    Ok(pending)
                }
            }
            Err(refusal) => {
                // Changes nothing: the file stays as it was found.
                let _ = fs::rename(&taken, &path);
                Err(refusal)
            }
        }
    }

    /// The key the files are sealed with, made when `make` and there is none.
    fn key(&self, make: bool) -> Result<Vec<u8>, String> {
        let path = self.dir.join(KEY_FILE);
        let opened = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path);
        match opened {
            Ok(mut file) => {
                let mut key = Vec::new();
                file.read_to_end(&mut key)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                seal::check_key(&key, "/key")
                    .map_err(|e| format!("{} is not a key: {}", path.display(), e.message()))?;
                Ok(key)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound && make => {
                DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(&self.dir)
                    .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
                check_folder(&self.dir)?;
                let mut key = vec![0u8; 32];
                getrandom::fill(&mut key)
                    .map_err(|e| format!("no random bytes for the key: {e}"))?;
                // Made once: of two commands making it at once, the first one's is kept.
                let temporary = self
                    .dir
                    .join(format!(".{KEY_FILE}.{}.tmp", std::process::id()));
                write_private(&temporary, &key)
                    .map_err(|e| format!("cannot write {}: {e}", temporary.display()))?;
                let linked = fs::hard_link(&temporary, &path);
                let _ = fs::remove_file(&temporary);
                match linked {
                    Ok(()) => Ok(key),
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => self.key(false),
                    Err(e) => Err(format!("cannot write {}: {e}", path.display())),
                }
            }
            // Without a key, no file written here can be opened.
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// The pending call in the file `path`, kept as `id`.
    fn read(&self, path: &Path, id: &str, key: &[u8]) -> Result<Pending, Refusal> {
        let invalid = |why: &str| Refusal::Invalid(format!("{}: {why}", path.display()));
        let mut file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map_err(|e| Refusal::Io(format!("cannot read {}: {e}", path.display())))?;
        let mut sealed = Vec::new();
        (&mut file)
            .take(MAX_BYTES)
            .read_to_end(&mut sealed)
            .map_err(|e| Refusal::Io(format!("cannot read {}: {e}", path.display())))?;
        if key.is_empty() {
            return Err(invalid("there is no key to open it with"));
        }
        let document = seal::unseal(&sealed, CONTEXT, &[key]).map_err(|e| {
            invalid(&format!(
                "its seal does not check out ({}): it was changed, or toolnexus did not \
                 write it",
                e.message()
            ))
        })?;
        let pending = Pending::from_json(&document).map_err(|why| invalid(&why))?;
        if pending.id != id {
            return Err(invalid("it is kept under another id than its own"));
        }
        Ok(pending)
    }
}

fn unknown(id: &str) -> Refusal {
    Refusal::Unknown(format!(
        "no pending call {id:?}: it was never kept, was resumed already, or expired"
    ))
}

/// A fresh id: 16 random bytes in lower-case hex, so that it never begins with `-` (a command
/// line would take it for an option) and needs no quoting in a shell.
pub fn new_id() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes for an id: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Refuses an id that is not one `new_id` makes (it names a file: no path in it).
fn check_id(id: &str) -> Result<(), String> {
    let fine = (1..=64).contains(&id.len())
        && id != KEY_FILE
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fine {
        Ok(())
    } else {
        Err(format!(
            "{:?} is not the id of a pending call (letters, digits, - and _)",
            crate::printer::one_line(id)
        ))
    }
}

impl Pending {
    /// The document kept, before its seal.
    fn to_json(&self) -> String {
        let mut doc = Map::new();
        doc.insert("version", Value::from(VERSION));
        doc.insert("id", Value::from(self.id.as_str()));
        let mut server = Map::new();
        match &self.server {
            Server::Command(words) => {
                server.insert("command", strings(words));
            }
            Server::Url { url, headers } => {
                server.insert("url", Value::from(url.as_str()));
                server.insert("headers", strings(headers));
            }
        }
        doc.insert("server", Value::Object(server));
        doc.insert("tool", Value::from(self.tool.as_str()));
        doc.insert("arguments", Value::Object(self.arguments.clone()));
        doc.insert("protocol", Value::from(self.protocol.as_str()));
        if let Some(who) = &self.who {
            doc.insert("who", Value::from(who.as_str()));
        }
        doc.insert("elicit", Value::from(self.elicit.as_str()));
        doc.insert("auth", strings(&self.auth));
        doc.insert("timeout", Value::from(self.timeout));
        doc.insert("maxRounds", Value::from(self.max_rounds as u64));
        doc.insert("askedAtMs", Value::from(self.asked_at_ms));
        doc.insert("expiresAtMs", Value::from(self.expires_at_ms));
        doc.insert("requests", Value::Array(self.requests.clone()));
        doc.insert("keys", strings(&self.keys));
        match &self.waiting {
            Waiting::Round(snapshot) => doc.insert("round", Value::from(snapshot.as_str())),
            Waiting::Task(id) => doc.insert("task", Value::from(id.as_str())),
            Waiting::Question {
                task,
                question,
                session,
            } => {
                doc.insert("task", Value::from(task.as_str()));
                doc.insert("question", Value::from(question.as_str()));
                doc.insert("session", Value::from(session.as_str()))
            }
        };
        doc.to_json()
    }

    /// The document read back; what is wrong with it, in a sentence.
    fn from_json(bytes: &[u8]) -> Result<Pending, String> {
        let doc = json::parse(bytes, &LIMITS).map_err(|e| e.message().to_owned())?;
        if doc.get("version").and_then(Value::as_u64) != Some(VERSION) {
            return Err(format!(
                "it is not version {VERSION} of what toolnexus keeps"
            ));
        }
        let text = |name: &str| {
            doc.get(name)
                .and_then(Value::as_str)
                .map(String::from)
                .ok_or_else(|| format!("it has no {name}"))
        };
        let number = |name: &str| {
            doc.get(name)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("it has no {name}"))
        };
        let server = doc.get("server").ok_or("it has no server")?;
        let server = match (server.get("command"), server.get("url")) {
            (Some(words), None) => {
                Server::Command(list(words).ok_or("a command that is not a list of words")?)
            }
            (None, Some(Value::String(url))) => Server::Url {
                url: url.to_string(),
                headers: list(server.get("headers").unwrap_or(&Value::Array(Vec::new())))
                    .ok_or("headers that are not a list of strings")?,
            },
            _ => return Err(String::from("its server is neither a command nor a URL")),
        };
        let Some(Value::Object(arguments)) = doc.get("arguments") else {
            return Err(String::from("it has no arguments"));
        };
        let Some(Value::Array(requests)) = doc.get("requests") else {
            return Err(String::from("it has no requests"));
        };
        let waiting = match (
            doc.get("round"),
            doc.get("task"),
            doc.get("question"),
            doc.get("session"),
        ) {
            (Some(Value::String(round)), None, None, None) => Waiting::Round(round.to_string()),
            (None, Some(Value::String(task)), None, None) => Waiting::Task(task.to_string()),
            (
                None,
                Some(Value::String(task)),
                Some(Value::String(question)),
                Some(Value::String(session)),
            ) => Waiting::Question {
                task: task.to_string(),
                question: question.to_string(),
                session: session.to_string(),
            },
            _ => {
                return Err(String::from(
                    "it waits for neither a round, a task nor a task's question",
                ));
            }
        };
        Ok(Pending {
            id: text("id")?,
            server,
            tool: text("tool")?,
            arguments: arguments.clone(),
            protocol: text("protocol")?,
            who: doc.get("who").and_then(Value::as_str).map(String::from),
            elicit: text("elicit")?,
            auth: list(doc.get("auth").unwrap_or(&Value::Array(Vec::new())))
                .ok_or("authorization options that are not a list of words")?,
            timeout: number("timeout")?,
            max_rounds: usize::try_from(number("maxRounds")?).unwrap_or(usize::MAX),
            asked_at_ms: number("askedAtMs")?,
            expires_at_ms: number("expiresAtMs")?,
            requests: requests.clone(),
            keys: list(doc.get("keys").unwrap_or(&Value::Array(Vec::new())))
                .ok_or("keys that are not a list of strings")?,
            waiting,
        })
    }

    /// What `call --defer` prints: `{"pending": ID, "requests": [Request, …]}`.
    pub fn announcement(&self) -> Value {
        let mut out = Map::new();
        out.insert("pending", Value::from(self.id.as_str()));
        out.insert("requests", Value::Array(self.requests.clone()));
        Value::Object(out)
    }
}

fn strings(words: &[String]) -> Value {
    Value::Array(words.iter().map(|w| Value::from(w.as_str())).collect())
}

fn list(value: &Value) -> Option<Vec<String>> {
    let Value::Array(items) = value else {
        return None;
    };
    items
        .iter()
        .map(|item| item.as_str().map(String::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn folder(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!(
            "toolnexus-pending-{name}-{}-{}",
            std::process::id(),
            toolnexus_core::id::next_id()
        ));
        let _ = fs::remove_dir_all(&dir);
        Folder::in_config(&dir)
    }

    fn pending(id: &str, expires_at_ms: u64) -> Pending {
        let mut arguments = Map::new();
        arguments.insert("city", Value::from("Oslo"));
        Pending {
            id: String::from(id),
            server: Server::Url {
                url: String::from("http://127.0.0.1:9/mcp"),
                headers: vec![String::from("X-Key: k")],
            },
            tool: String::from("book_trip"),
            arguments,
            protocol: String::from("2026-07-28"),
            who: Some(String::from("srv\u{1b}[31m 1.0")),
            elicit: String::from("form,url"),
            auth: vec![String::from("--client-id"), String::from("c")],
            timeout: 60,
            max_rounds: 16,
            asked_at_ms: 1_000,
            expires_at_ms,
            requests: vec![Value::from("r")],
            keys: vec![String::from("k")],
            waiting: Waiting::Task(String::from("task-1")),
        }
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_kept_call_is_taken_once_and_is_then_gone() {
        let folder = folder("once");
        let kept = pending(&new_id().unwrap(), 10_000);
        folder.keep(&kept).unwrap();
        assert_eq!(mode(folder.path()), 0o700);
        assert_eq!(mode(&folder.path().join(&kept.id)), 0o600);
        assert_eq!(mode(&folder.path().join(KEY_FILE)), 0o600);
        let listed = folder.list(2_000).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].as_ref().unwrap(), &kept);
        assert_eq!(folder.take(&kept.id, 2_000).unwrap(), kept);
        assert!(matches!(
            folder.take(&kept.id, 2_000),
            Err(Refusal::Unknown(_))
        ));
        assert!(folder.list(2_000).unwrap().is_empty());
    }

    #[test]
    fn an_expired_call_is_removed() {
        let folder = folder("expired");
        let kept = pending("a-1", 5_000);
        folder.keep(&kept).unwrap();
        assert!(matches!(
            folder.take("a-1", 5_000),
            Err(Refusal::Expired(_))
        ));
        assert!(!folder.path().join("a-1").exists());
        folder.keep(&kept).unwrap();
        assert!(folder.list(6_000).unwrap().is_empty());
        assert!(!folder.path().join("a-1").exists());
    }

    #[test]
    fn a_changed_file_is_refused_and_left_as_it_was() {
        let here = folder("tampered");
        let kept = pending("b-2", 10_000);
        here.keep(&kept).unwrap();
        let path = here.path().join("b-2");
        let sealed = fs::read(&path).unwrap();
        // The document is base64url between the prefix and the dot: change one character.
        let mut changed = sealed.clone();
        let at = seal::SEALED_PREFIX.len() + 5;
        changed[at] = if changed[at] == b'A' { b'B' } else { b'A' };
        fs::write(&path, &changed).unwrap();
        assert!(matches!(here.take("b-2", 2_000), Err(Refusal::Invalid(_))));
        assert_eq!(fs::read(&path).unwrap(), changed);
        // Another folder's key opens nothing here either.
        let other = folder("other");
        other.keep(&pending("c-3", 10_000)).unwrap();
        fs::copy(other.path().join("c-3"), here.path().join("c-3")).unwrap();
        assert!(matches!(here.take("c-3", 2_000), Err(Refusal::Invalid(_))));
        let listed = here.list(2_000).unwrap();
        assert_eq!(listed.len(), 2);
        assert!(listed.iter().all(Result::is_err));
    }

    #[test]
    fn an_id_is_never_a_path() {
        let folder = folder("ids");
        for id in ["", "../key", "a/b", "key\n", &"x".repeat(65)] {
            assert!(
                matches!(folder.take(id, 0), Err(Refusal::Unknown(_))),
                "{id:?}"
            );
        }
        let id = new_id().unwrap();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(check_id(&id).is_ok());
    }

    #[test]
    fn a_file_kept_under_another_name_is_refused() {
        let folder = folder("renamed");
        folder.keep(&pending("d-4", 10_000)).unwrap();
        fs::rename(folder.path().join("d-4"), folder.path().join("e-5")).unwrap();
        assert!(matches!(
            folder.take("e-5", 2_000),
            Err(Refusal::Invalid(_))
        ));
    }
}
