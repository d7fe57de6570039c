//! Where authorizations are kept between commands: `auth.json` in the user's configuration
//! folder (`$TOOLNEXUS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/toolnexus`, else
//! `~/.config/toolnexus`), readable by the user alone (the folder `0700`, the file `0600`),
//! and, where one answers, the operating system's secret store ([`Keychain`]).
//!
//! The file holds one entry per MCP server and authorization server, the newest last: the
//! server's URL as the command line gave it, and either the [`Grant`] itself (its tokens,
//! scopes, issuer and the client registered there), or, for a grant kept in the keychain,
//! the key of its item there and a summary with no secret in it (what `auth list` shows):
//!
//! ```json
//! {"version":1,"grants":[
//!   {"server":"https://a.example/mcp","grant":{…}},
//!   {"server":"https://b.example/mcp","store":"keychain","key":"…","summary":{"issuer":…}}]}
//! ```
//!
//! So the file is the index of every grant kept, wherever its secrets are, and holds no token
//! of a grant kept in the keychain. Where a new grant goes is the [`Choice`] of `--store`.
//!
//! A write replaces the whole file at once (a new file, then a rename), so a reader never sees
//! half of one, and a change (keep, forget) holds `auth.json.lock` from its read to its
//! write, so two commands at once never lose each other's grant. A grant this build cannot
//! read (written by another version) is kept as it is and left unused.
//!
//! The folder is the user's alone: made `0700`, and refused when it is a symbolic link or
//! others can write to it (they could swap the file). The file is
//! opened without following a symbolic link.

use std::env;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use toolnexus_auth::Grant;
use toolnexus_core::json::{self, Limits, Map, Value};

use super::keychain::Keychain;

/// The file's name in the configuration folder.
pub const FILE_NAME: &str = "auth.json";

/// The lock a change holds from its read to its write.
const LOCK_NAME: &str = "auth.json.lock";

/// The version of the file's layout.
const VERSION: u64 = 1;

/// The bounds of the file when it is read.
const LIMITS: Limits = Limits::DEFAULT.with_max_depth(16);

/// The `store` of an entry whose grant is in the keychain.
const IN_KEYCHAIN: &str = "keychain";

/// Where new grants are kept (`--store`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Choice {
    /// In the keychain where one answers, else in the file.
    #[default]
    Default,
    /// In the keychain; a command that cannot reach one fails.
    Keychain,
    /// In the file.
    File,
    /// Nowhere, and none kept is used.
    Nothing,
}

/// Where the secrets of one grant kept are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In the operating system's secret store.
    Keychain,
    /// In `auth.json`.
    File,
}

impl Place {
    /// The word `auth list` says it with.
    pub fn name(self) -> &'static str {
        match self {
            Place::Keychain => "keychain",
            Place::File => "file",
        }
    }
}

/// The kept authorizations of one user.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    /// Where a new grant goes: never [`Choice::Nothing`].
    choice: Choice,
    keychain: Keychain,
}

/// One authorization kept, as read back.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The MCP server's URL, as the command line gave it.
    pub server: String,
    /// Where its secrets are.
    pub place: Place,
    /// What was granted. Its `Debug` form shows no token.
    pub grant: Grant,
}

/// What is said of a grant kept without reading a secret: its place and its summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The MCP server's URL, as the command line gave it.
    pub server: String,
    /// Where its secrets are.
    pub place: Place,
    /// What `auth list` shows of it.
    pub summary: Summary,
}

/// What can be shown of a grant: no token, no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The authorization server that granted it.
    pub issuer: String,
    /// The grant type it was obtained by (`authorization_code`, …).
    pub obtained_by: String,
    /// The client it was granted to (empty: none).
    pub client_id: String,
    /// The scopes granted.
    pub scope: Option<String>,
    /// When its access token expires, in Unix milliseconds.
    pub expires_at_ms: Option<u64>,
    /// Whether it has a refresh token.
    pub refreshable: bool,
}

impl Summary {
    /// The summary of `grant`.
    pub fn of(grant: &Grant) -> Summary {
        Summary {
            issuer: String::from(grant.issuer()),
            obtained_by: String::from(grant.obtained_by()),
            client_id: String::from(grant.client().client_id()),
            scope: grant.scope().map(String::from),
            expires_at_ms: grant.expires_at_ms(),
            refreshable: grant.refresh_token().is_some(),
        }
    }

    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("issuer", Value::from(self.issuer.as_str()));
        map.insert("obtained_by", Value::from(self.obtained_by.as_str()));
        map.insert("client_id", Value::from(self.client_id.as_str()));
        if let Some(scope) = &self.scope {
            map.insert("scope", Value::from(scope.as_str()));
        }
        if let Some(at) = self.expires_at_ms {
            map.insert("expires_at_ms", Value::from(at));
        }
        map.insert("refreshable", Value::from(self.refreshable));
        Value::Object(map)
    }

    fn from_value(value: &Value) -> Option<Summary> {
        let text = |name: &str| value.get(name).and_then(Value::as_str).map(String::from);
        Some(Summary {
            issuer: text("issuer")?,
            obtained_by: text("obtained_by")?,
            client_id: text("client_id")?,
            scope: text("scope"),
            expires_at_ms: value.get("expires_at_ms").and_then(Value::as_u64),
            refreshable: value.get("refreshable")?.as_bool()?,
        })
    }
}

/// The key of the keychain item of the grant for `server` from `issuer`.
pub fn key_of(server: &str, issuer: &str) -> String {
    format!("{server} {issuer}")
}

/// One entry of the file, as written (its grant read only when used).
#[derive(Debug, Clone)]
struct Entry {
    server: String,
    item: Value,
}

/// What an entry holds, as this build reads it.
enum Holds<'a> {
    /// The grant itself, in the file.
    Grant(&'a Value),
    /// The key of the grant's item in the keychain, and its summary.
    Keychain(&'a str, &'a Value),
}

impl Entry {
    /// What the entry holds; `None` for an entry this build cannot read.
    fn holds(&self) -> Option<Holds<'_>> {
        match self.item.get("store") {
            None => self
                .item
                .get("grant")
                .filter(|g| g.is_object())
                .map(Holds::Grant),
            Some(store) if store.as_str() == Some(IN_KEYCHAIN) => Some(Holds::Keychain(
                self.item.get("key")?.as_str()?,
                self.item.get("summary").filter(|s| s.is_object())?,
            )),
            Some(_) => None,
        }
    }

    /// The authorization server that granted it, as the entry says.
    fn issuer(&self) -> Option<&str> {
        match self.holds()? {
            Holds::Grant(grant) => grant.get("issuer")?.as_str(),
            Holds::Keychain(_, summary) => summary.get("issuer")?.as_str(),
        }
    }

    /// The key of its keychain item, when it has one.
    fn key(&self) -> Option<&str> {
        match self.holds()? {
            Holds::Keychain(key, _) => Some(key),
            Holds::Grant(_) => None,
        }
    }
}

/// Where `keep` kept a grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// Where its secrets are.
    pub place: Place,
    /// Why it is in the file for want of a keychain, when [`Choice::Default`] wanted one.
    pub instead: Option<String>,
}

/// What `forget` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forgotten {
    /// How many authorizations were forgotten.
    pub count: usize,
    /// How many are still kept because their keychain item could not be removed, and why.
    pub left: Option<(usize, String)>,
}

impl Store {
    /// The user's store: in `$TOOLNEXUS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/toolnexus` (an
    /// absolute path), else `$HOME/.config/toolnexus`. New grants go to the file until
    /// [`choosing`](Store::choosing) says otherwise.
    pub fn locate() -> Result<Store, String> {
        let set = |name: &str| {
            env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        if let Some(dir) = set("TOOLNEXUS_CONFIG_DIR") {
            return Ok(Store::at(dir));
        }
        if let Some(dir) = set("XDG_CONFIG_HOME").filter(|d| d.is_absolute()) {
            return Ok(Store::at(dir.join("toolnexus")));
        }
        match set("HOME") {
            Some(home) => Ok(Store::at(home.join(".config").join("toolnexus"))),
            None => Err(String::from(
                "there is no configuration folder to keep authorizations in: set \
                 TOOLNEXUS_CONFIG_DIR or HOME, or give --store none",
            )),
        }
    }

    /// The store in the folder `dir`, new grants going to the file, the system's keychain
    /// used for those kept there.
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store {
            dir: dir.into(),
            choice: Choice::File,
            keychain: Keychain::system(),
        }
    }

    /// The configuration folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// This store, new grants going where `choice` says ([`Choice::Nothing`] is taken as the
    /// file: a command that keeps nothing has no store).
    pub fn choosing(mut self, choice: Choice) -> Store {
        self.choice = match choice {
            Choice::Nothing => Choice::File,
            other => other,
        };
        self
    }

    /// This store, with `keychain` as its secret store.
    pub fn with_keychain(mut self, keychain: Keychain) -> Store {
        self.keychain = keychain;
        self
    }

    /// Its secret store.
    pub fn keychain(&self) -> &Keychain {
        &self.keychain
    }

    /// The file the authorizations are kept in, or indexed when in the keychain.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    /// Every authorization kept, where it is and its summary, oldest first, no secret read:
    /// the keychain is not asked.
    pub fn index(&self) -> Result<Vec<Listed>, String> {
        Ok(self
            .read()?
            .into_iter()
            .filter_map(|entry| {
                let (place, summary) = match entry.holds()? {
                    Holds::Grant(grant) => (Place::File, Summary::of(&parse_grant(grant)?)),
                    Holds::Keychain(_, summary) => (Place::Keychain, Summary::from_value(summary)?),
                };
                Some(Listed {
                    server: entry.server,
                    place,
                    summary,
                })
            })
            .collect())
    }

    /// Every authorization kept that this build can read, oldest first, those in the
    /// keychain read from it (left out when it cannot give them).
    pub fn list(&self) -> Result<Vec<Kept>, String> {
        Ok(self
            .read()?
            .iter()
            .filter_map(|entry| self.grant_of(entry).ok().flatten())
            .collect())
    }

    /// The newest authorization kept for the server at `server`, if there is one; why not
    /// when its secrets cannot be read from the keychain.
    pub fn grant_for(&self, server: &str) -> Result<Option<Grant>, String> {
        let entries = self.read()?;
        for entry in entries.iter().rev().filter(|e| e.server == server) {
            if let Some(kept) = self.grant_of(entry)? {
                return Ok(Some(kept.grant));
            }
        }
        Ok(None)
    }

    /// The grant of `entry`: `None` when this build cannot read it; why not when the
    /// keychain cannot give it.
    fn grant_of(&self, entry: &Entry) -> Result<Option<Kept>, String> {
        let kept = |place, grant| Kept {
            server: entry.server.clone(),
            place,
            grant,
        };
        match entry.holds() {
            None => Ok(None),
            Some(Holds::Grant(grant)) => Ok(parse_grant(grant).map(|g| kept(Place::File, g))),
            Some(Holds::Keychain(key, _)) => {
                let unread = |why: String| {
                    format!(
                        "the authorization for {} kept in the keychain cannot be read: {why}",
                        entry.server
                    )
                };
                let secret = self
                    .keychain
                    .vault()
                    .map_err(unread)?
                    .get(key)
                    .map_err(unread)?;
                let Some(secret) = secret else {
                    return Err(unread(String::from("the keychain no longer holds it")));
                };
                let grant = Grant::from_json(secret.as_bytes(), &LIMITS)
                    .map_err(|_| unread(String::from("it is not a grant this build reads")))?;
                Ok(Some(kept(Place::Keychain, grant)))
            }
        }
    }

    /// Keeps `grant` for the server at `server`, in place of any kept for that server from
    /// the same authorization server: where it was kept. With [`Choice::Default`], it goes
    /// to the file when no keychain answers or the keychain refuses it, and [`Stored`] says
    /// why.
    pub fn keep(&self, server: &str, grant: &Grant) -> Result<Stored, String> {
        let key = key_of(server, grant.issuer());
        let (place, instead) = match self.choice {
            Choice::File | Choice::Nothing => (Place::File, None),
            Choice::Keychain => {
                let vault = self
                    .keychain
                    .vault()
                    .map_err(|why| format!("no keychain answers: {why}"))?;
                vault
                    .put(&key, &grant.to_json())
                    .map_err(|why| format!("the keychain did not keep it: {why}"))?;
                (Place::Keychain, None)
            }
            Choice::Default => match self
                .keychain
                .vault()
                .map_err(|why| format!("no keychain answers ({why})"))
                .and_then(|vault| {
                    vault.put(&key, &grant.to_json()).map_err(|why| {
                        format!("the keychain did not keep the authorization ({why})")
                    })
                }) {
                Ok(()) => (Place::Keychain, None),
                Err(why) => (Place::File, Some(why)),
            },
        };
        let stored = Stored { place, instead };
        let _lock = self.lock()?;
        // A file that cannot be read is replaced: what it held could not be used anyway.
        let mut entries = self.read().unwrap_or_default();
        let (replaced, mut entries): (Vec<Entry>, Vec<Entry>) = entries
            .drain(..)
            .partition(|entry| entry.server == server && entry.issuer() == Some(grant.issuer()));
        let mut item = Map::new();
        item.insert("server", Value::from(server));
        match place {
            Place::File => {
                let written = json::parse_str(&grant.to_json(), &LIMITS)
                    .map_err(|e| format!("the grant cannot be kept: {}", e.message()))?;
                item.insert("grant", written);
            }
            Place::Keychain => {
                // Its item is written already.
                item.insert("store", Value::from(IN_KEYCHAIN));
                item.insert("key", Value::from(key.as_str()));
                item.insert("summary", Summary::of(grant).to_value());
            }
        }
        // The items of the grants replaced that the new one did not overwrite go; one the
        // keychain cannot remove now stays listed (older, so unused) for `auth logout` to
        // forget later, never left in the keychain with nothing naming it.
        for old in replaced {
            let gone = match old.key() {
                None => true,
                Some(old_key) if place == Place::Keychain && old_key == key => true,
                Some(old_key) => self
                    .keychain
                    .vault()
                    .and_then(|vault| vault.remove(old_key))
                    .is_ok(),
            };
            if !gone {
                entries.push(old);
            }
        }
        entries.push(Entry {
            server: String::from(server),
            item: Value::Object(item),
        });
        self.write(&entries)?;
        Ok(stored)
    }

    /// Forgets the authorizations kept for `server`, or every one when `None`, in the file
    /// and in the keychain. One whose keychain item cannot be removed stays kept.
    pub fn forget(&self, server: Option<&str>) -> Result<Forgotten, String> {
        let _lock = self.lock()?;
        let entries = self.read()?;
        let before = entries.len();
        let mut failed: Option<String> = None;
        let remaining: Vec<Entry> = entries
            .into_iter()
            .filter(|entry| {
                if server.is_some_and(|s| entry.server != s) {
                    return true;
                }
                let Some(key) = entry.key() else {
                    return false;
                };
                match self.keychain.vault().and_then(|vault| vault.remove(key)) {
                    Ok(_) => false,
                    Err(why) => {
                        failed.get_or_insert(why);
                        true
                    }
                }
            })
            .collect();
        let left = failed.map(|why| {
            let count = remaining
                .iter()
                .filter(|e| server.is_none_or(|s| e.server == s))
                .count();
            (count, why)
        });
        let count = before - remaining.len();
        if count > 0 {
            self.write(&remaining)?;
        }
        Ok(Forgotten { count, left })
    }

    /// Makes the folder (`0700`) when there is none, and checks it is the user's alone.
    fn folder(&self) -> Result<(), String> {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        check_folder(&self.dir)
    }

    /// Holds the store's lock until the value returned is dropped.
    fn lock(&self) -> Result<File, String> {
        self.folder()?;
        let path = self.dir.join(LOCK_NAME);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.lock()
            .map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
        Ok(file)
    }

    /// The entries of the file; none when there is no file.
    fn read(&self) -> Result<Vec<Entry>, String> {
        let path = self.path();
        match fs::symlink_metadata(&self.dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            _ => check_folder(&self.dir)?,
        }
        let opened = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path);
        let mut bytes = Vec::new();
        match opened.and_then(|mut file| file.read_to_end(&mut bytes)) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
        let unreadable = |why: &str| format!("cannot read {}: {why}", path.display());
        let document = json::parse(&bytes, &LIMITS).map_err(|e| unreadable(e.message()))?;
        if document.get("version").and_then(Value::as_u64) != Some(VERSION) {
            return Err(unreadable(&format!(
                "it is not version {VERSION} of the file toolnexus writes"
            )));
        }
        let Some(Value::Array(items)) = document.get("grants") else {
            return Err(unreadable("it has no list of grants"));
        };
        Ok(items
            .iter()
            .filter_map(|item| {
                Some(Entry {
                    server: String::from(item.get("server")?.as_str()?),
                    item: item.clone(),
                })
            })
            .filter(|entry| entry.item.get("grant").is_some() || entry.item.get("store").is_some())
            .collect())
    }

    /// Replaces the file with `entries` (removes it when there are none).
    fn write(&self, entries: &[Entry]) -> Result<(), String> {
        let path = self.path();
        if entries.is_empty() {
            return match fs::remove_file(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(format!("cannot remove {}: {e}", path.display())),
            };
        }
        let grants = entries.iter().map(|entry| entry.item.clone()).collect();
        let mut document = Map::new();
        document.insert("version", Value::from(VERSION));
        document.insert("grants", Value::Array(grants));
        let mut text = document.to_json();
        text.push('\n');
        self.folder()?;
        let temporary = self
            .dir
            .join(format!(".{FILE_NAME}.{}.tmp", std::process::id()));
        write_private(&temporary, text.as_bytes())
            .and_then(|()| fs::rename(&temporary, &path))
            .map_err(|e| {
                let _ = fs::remove_file(&temporary);
                format!("cannot write {}: {e}", path.display())
            })
    }
}

/// The grant an entry of the file holds, when this build reads it.
fn parse_grant(grant: &Value) -> Option<Grant> {
    Grant::from_json(grant.to_json().as_bytes(), &LIMITS).ok()
}

/// Refuses a folder to keep grants in that is not the user's alone: a symbolic link, or a
/// folder its group or others can write to (a folder another user owns and this one can
/// write to is one of those).
pub(crate) fn check_folder(dir: &Path) -> Result<(), String> {
    let meta =
        fs::symlink_metadata(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let refused = |why: &str| {
        format!(
            "{} is not a folder for authorizations: {why}",
            dir.display()
        )
    };
    if meta.file_type().is_symlink() {
        return Err(refused("it is a symbolic link"));
    }
    if !meta.is_dir() {
        return Err(refused("it is not a folder"));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(refused(&format!(
            "others can write to it (mode {:o}): make it 0700",
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

/// Writes `bytes` to a new file at `path` that only its owner can read or write.
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // A file left by an earlier run that stopped half-way is not reused: it may be anyone's.
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
pub(crate) mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::Arc;

    use super::*;
    use crate::auth::keychain::tests::Memory;

    /// A grant as the flow writes it, from `issuer`, whose token is `token`.
    pub(crate) fn grant(issuer: &str, token: &str) -> Grant {
        let text = format!(
            r#"{{"version":1,"access_token":"{token}","token_type":"Bearer","refresh_token":"refresh-{token}","expires_at_ms":4102444800000,"scope":"mcp:basic mcp:write","issuer":"{issuer}","resource":"http://localhost:3000/mcp","token_endpoint":"{issuer}/token","client":{{"client_id":"client-1","client_secret":"secret-{token}","auth_method":"client_secret_basic","issuer":"{issuer}"}}}}"#
        );
        Grant::from_json(text.as_bytes(), &LIMITS).unwrap()
    }

    /// A fresh folder under the system's temporary one, not created yet.
    pub(crate) fn folder(name: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!(
            "toolnexus-store-{name}-{}-{}",
            std::process::id(),
            toolnexus_core::id::next_id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_folder_and_the_file_are_the_users_alone() {
        let dir = folder("modes").join("nested");
        let store = Store::at(&dir);
        assert!(store.list().unwrap().is_empty(), "no file is no grant");
        store
            .keep("http://localhost:3000/mcp", &grant("http://as", "token-a"))
            .unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&store.path()), 0o600);
        // Written again, it stays so, and no temporary file is left behind.
        store
            .keep("http://localhost:3000/mcp", &grant("http://as", "token-b"))
            .unwrap();
        assert_eq!(mode(&store.path()), 0o600);
        let mut names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, [FILE_NAME, LOCK_NAME]);
        assert_eq!(mode(&dir.join(LOCK_NAME)), 0o600);
        fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }

    #[test]
    fn one_grant_per_server_and_authorization_server_the_newest_used() {
        let dir = folder("keep");
        let store = Store::at(&dir);
        let (one, two) = ("http://localhost:3000/mcp", "http://localhost:3001/mcp");
        store.keep(one, &grant("http://as1", "t1")).unwrap();
        store.keep(two, &grant("http://as1", "t2")).unwrap();
        store.keep(one, &grant("http://as2", "t3")).unwrap();
        store.keep(one, &grant("http://as1", "t4")).unwrap();
        let kept: Vec<(String, String)> = store
            .list()
            .unwrap()
            .into_iter()
            .map(|k| (k.server, String::from(k.grant.access_token())))
            .collect();
        assert_eq!(
            kept,
            [
                (String::from(two), String::from("t2")),
                (String::from(one), String::from("t3")),
                (String::from(one), String::from("t4")),
            ]
        );
        let newest = store.grant_for(one).unwrap().unwrap();
        assert_eq!(newest.access_token(), "t4");
        assert!(store.grant_for("http://elsewhere/mcp").unwrap().is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn logout_forgets_a_server_or_every_one() {
        let dir = folder("forget");
        let store = Store::at(&dir);
        let (one, two) = ("http://localhost:3000/mcp", "http://localhost:3001/mcp");
        store.keep(one, &grant("http://as1", "t1")).unwrap();
        store.keep(one, &grant("http://as2", "t2")).unwrap();
        store.keep(two, &grant("http://as1", "t3")).unwrap();
        assert_eq!(store.forget(Some("http://nowhere/mcp")).unwrap().count, 0);
        assert_eq!(store.forget(Some(one)).unwrap().count, 2);
        assert!(store.grant_for(one).unwrap().is_none());
        assert!(store.grant_for(two).unwrap().is_some());
        assert_eq!(
            store.forget(None).unwrap(),
            Forgotten {
                count: 1,
                left: None
            }
        );
        assert!(!store.path().exists(), "nothing kept, no file");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_others_can_write_to_or_a_link_is_refused() {
        let dir = folder("shared");
        DirBuilder::new().mode(0o700).create(&dir).unwrap();
        let store = Store::at(&dir);
        store
            .keep("http://a/mcp", &grant("http://as", "t"))
            .unwrap();
        // Others can write to the folder: nothing is read from it, nothing written.
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(store.list().unwrap_err().contains("others can write"));
        let refused = store
            .keep("http://b/mcp", &grant("http://as", "u"))
            .unwrap_err();
        assert!(refused.contains("make it 0700"), "{refused}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(store.list().unwrap().len(), 1);
        // A folder that is a link to another.
        let link = folder("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let linked = Store::at(&link);
        assert!(linked.list().unwrap_err().contains("symbolic link"));
        assert!(
            linked
                .keep("http://b/mcp", &grant("http://as", "u"))
                .is_err()
        );
        // A file that is a link: not followed, never read through.
        let elsewhere = folder("elsewhere");
        DirBuilder::new().mode(0o700).create(&elsewhere).unwrap();
        fs::rename(store.path(), elsewhere.join(FILE_NAME)).unwrap();
        std::os::unix::fs::symlink(elsewhere.join(FILE_NAME), store.path()).unwrap();
        assert!(store.list().is_err(), "a linked file is not read");
        // Written, the link is replaced by a file of its own; the target is untouched.
        store
            .keep("http://b/mcp", &grant("http://as", "u"))
            .unwrap();
        assert!(
            !fs::symlink_metadata(store.path())
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(Store::at(&elsewhere).list().unwrap().len(), 1);
        for d in [&dir, &elsewhere] {
            fs::remove_dir_all(d).unwrap();
        }
        fs::remove_file(&link).unwrap();
    }

    #[test]
    fn two_commands_keeping_at_once_lose_no_grant() {
        let dir = folder("race");
        let store = Store::at(&dir);
        let keepers: Vec<_> = (0..8)
            .map(|n| {
                let store = store.clone();
                std::thread::spawn(move || {
                    for round in 0..5 {
                        let server = format!("http://localhost:{}/mcp", 3000 + n);
                        let token = format!("t-{n}-{round}");
                        store.keep(&server, &grant("http://as", &token)).unwrap();
                    }
                })
            })
            .collect();
        for keeper in keepers {
            keeper.join().unwrap();
        }
        let kept = store.list().unwrap();
        assert_eq!(kept.len(), 8, "one per server, none lost");
        for kept in &kept {
            assert!(kept.grant.access_token().ends_with("-4"), "the newest kept");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_this_build_cannot_read_are_kept_unused() {
        let dir = folder("unknown");
        DirBuilder::new().mode(0o700).create(&dir).unwrap();
        let store = Store::at(&dir);
        fs::write(
            store.path(),
            r#"{"version":1,"grants":[{"server":"http://a/mcp","grant":{"version":99}},{"server":"http://b/mcp"}]}"#,
        )
        .unwrap();
        assert!(store.list().unwrap().is_empty());
        store
            .keep("http://c/mcp", &grant("http://as", "t"))
            .unwrap();
        let text = fs::read_to_string(store.path()).unwrap();
        assert!(text.contains(r#""version":99"#), "{text}");
        assert_eq!(store.list().unwrap().len(), 1);
        fs::write(store.path(), "not json").unwrap();
        assert!(store.list().unwrap_err().contains("cannot read"));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A store in `dir` whose keychain is `memory`, choosing `choice`.
    fn in_memory(dir: &Path, memory: &Arc<Memory>, choice: Choice) -> Store {
        Store::at(dir)
            .with_keychain(Keychain::of(memory.clone()))
            .choosing(choice)
    }

    #[test]
    fn a_grant_in_the_keychain_leaves_only_its_summary_in_the_file() {
        let dir = folder("keychain");
        let memory = Arc::new(Memory::default());
        let store = in_memory(&dir, &memory, Choice::Keychain);
        let one = "http://localhost:3000/mcp";
        let stored = store.keep(one, &grant("http://as", "token-KC")).unwrap();
        assert_eq!(
            stored,
            Stored {
                place: Place::Keychain,
                instead: None
            }
        );
        let text = fs::read_to_string(store.path()).unwrap();
        assert!(!text.contains("token-KC"), "no token in the file: {text}");
        assert!(
            !text.contains("secret-token-KC"),
            "no secret in the file: {text}"
        );
        assert!(text.contains(r#""store":"keychain""#), "{text}");
        let key = key_of(one, "http://as");
        let item = memory.items.lock().unwrap().get(&key).cloned().unwrap();
        assert!(
            item.contains("refresh-token-KC"),
            "the whole grant is the item"
        );
        // Read back through the keychain, listed from the file alone.
        assert_eq!(
            store.grant_for(one).unwrap().unwrap().access_token(),
            "token-KC"
        );
        let listed = store.index().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].place, Place::Keychain);
        assert_eq!(
            listed[0].summary.scope.as_deref(),
            Some("mcp:basic mcp:write")
        );
        assert!(listed[0].summary.refreshable);
        let unreachable = Store::at(&dir).with_keychain(Keychain::unreachable("no bus"));
        assert_eq!(
            unreachable.index().unwrap(),
            listed,
            "listing asks no keychain"
        );
        let why = unreachable.grant_for(one).unwrap_err();
        assert!(why.contains("cannot be read: no bus"), "{why}");
        assert!(!why.contains("token-KC"));
        // Forgotten from both.
        assert_eq!(store.forget(Some(one)).unwrap().count, 1);
        assert!(memory.items.lock().unwrap().is_empty());
        assert!(!store.path().exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_grant_in_the_file_keeps_working_and_moves_to_the_keychain_when_renewed() {
        let dir = folder("move");
        let memory = Arc::new(Memory::default());
        let one = "http://localhost:3000/mcp";
        Store::at(&dir)
            .keep(one, &grant("http://as", "file-token"))
            .unwrap();
        let store = in_memory(&dir, &memory, Choice::Default);
        assert_eq!(
            store.grant_for(one).unwrap().unwrap().access_token(),
            "file-token"
        );
        assert_eq!(store.index().unwrap()[0].place, Place::File);
        assert_eq!(
            store
                .keep(one, &grant("http://as", "new-token"))
                .unwrap()
                .place,
            Place::Keychain
        );
        let text = fs::read_to_string(store.path()).unwrap();
        assert!(
            !text.contains("file-token") && !text.contains("new-token"),
            "{text}"
        );
        assert_eq!(store.list().unwrap().len(), 1);
        // Back to the file: the keychain's item goes.
        let file = in_memory(&dir, &memory, Choice::File);
        assert_eq!(
            file.keep(one, &grant("http://as", "t3")).unwrap().place,
            Place::File
        );
        assert!(memory.items.lock().unwrap().is_empty());
        assert_eq!(file.list().unwrap()[0].place, Place::File);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn with_no_keychain_the_default_is_the_file_and_the_keychain_is_refused() {
        let dir = folder("nokeychain");
        let none = Keychain::unreachable("no session bus");
        let store = Store::at(&dir).with_keychain(none.clone());
        let one = "http://localhost:3000/mcp";
        let chosen = store.clone().choosing(Choice::Keychain);
        let refused = chosen.keep(one, &grant("http://as", "t")).unwrap_err();
        assert_eq!(refused, "no keychain answers: no session bus");
        assert!(!store.path().exists(), "nothing written");
        let default = store.choosing(Choice::Default);
        assert_eq!(
            default.keep(one, &grant("http://as", "t")).unwrap(),
            Stored {
                place: Place::File,
                instead: Some(String::from("no keychain answers (no session bus)"))
            }
        );
        assert_eq!(default.list().unwrap()[0].grant.access_token(), "t");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_keychain_item_that_cannot_be_removed_stays_indexed() {
        let dir = folder("stuck");
        let memory = Arc::new(Memory::default());
        let (one, two) = ("http://localhost:3000/mcp", "http://localhost:3001/mcp");
        in_memory(&dir, &memory, Choice::Keychain)
            .keep(one, &grant("http://as", "t1"))
            .unwrap();
        Store::at(&dir)
            .keep(two, &grant("http://as", "t2"))
            .unwrap();
        let unreachable = Store::at(&dir).with_keychain(Keychain::unreachable("no bus"));
        let forgotten = unreachable.forget(None).unwrap();
        assert_eq!(
            forgotten,
            Forgotten {
                count: 1,
                left: Some((1, String::from("no bus")))
            }
        );
        let listed = unreachable.index().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].server, one);
        assert_eq!(
            in_memory(&dir, &memory, Choice::File)
                .forget(None)
                .unwrap()
                .count,
            1
        );
        assert!(memory.items.lock().unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A keychain that answers but keeps nothing (a locked one whose unlock was refused).
    struct Refusing;

    impl crate::auth::keychain::Vault for Refusing {
        fn put(&self, _: &str, _: &str) -> Result<(), String> {
            Err(String::from("the collection is locked"))
        }
        fn get(&self, _: &str) -> Result<Option<String>, String> {
            Ok(None)
        }
        fn remove(&self, _: &str) -> Result<bool, String> {
            Ok(false)
        }
    }

    #[test]
    fn a_keychain_that_refuses_the_grant_sends_the_default_to_the_file() {
        let dir = folder("refusing");
        let store = Store::at(&dir).with_keychain(Keychain::of(Arc::new(Refusing)));
        let one = "http://localhost:3000/mcp";
        let refused = store
            .clone()
            .choosing(Choice::Keychain)
            .keep(one, &grant("http://as", "t"))
            .unwrap_err();
        assert_eq!(
            refused,
            "the keychain did not keep it: the collection is locked"
        );
        assert!(!store.path().exists());
        let stored = store
            .choosing(Choice::Default)
            .keep(one, &grant("http://as", "t"))
            .unwrap();
        assert_eq!(stored.place, Place::File);
        assert_eq!(
            stored.instead.as_deref(),
            Some("the keychain did not keep the authorization (the collection is locked)")
        );
        assert!(
            fs::read_to_string(Store::at(&dir).path())
                .unwrap()
                .contains("\"t\"")
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_grant_renewed_out_of_reach_of_the_keychain_leaves_the_old_one_listed() {
        let dir = folder("away");
        let memory = Arc::new(Memory::default());
        let one = "http://localhost:3000/mcp";
        in_memory(&dir, &memory, Choice::Default)
            .keep(one, &grant("http://as", "in-keychain"))
            .unwrap();
        // Away from the keychain (no session bus): the new grant goes to the file, and the
        // old entry stays, since its item could not be removed.
        let away = Store::at(&dir)
            .with_keychain(Keychain::unreachable("no bus"))
            .choosing(Choice::Default);
        let stored = away.keep(one, &grant("http://as", "in-file")).unwrap();
        assert_eq!(stored.place, Place::File);
        let places: Vec<Place> = away.index().unwrap().iter().map(|l| l.place).collect();
        assert_eq!(places, [Place::Keychain, Place::File]);
        assert_eq!(
            away.grant_for(one).unwrap().unwrap().access_token(),
            "in-file",
            "the newest serves, the keychain not asked"
        );
        // Back in reach, a logout forgets both.
        let back = in_memory(&dir, &memory, Choice::Default);
        assert_eq!(back.forget(None).unwrap().count, 2);
        assert!(memory.items.lock().unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
