//! Where authorizations are kept between commands: `auth.json` in the user's configuration
//! folder (`$TOOLNEXUS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/toolnexus`, else
//! `~/.config/toolnexus`), readable by the user alone (the folder `0700`, the file `0600`).
//!
//! The file holds one entry per MCP server and authorization server: the server's URL as the
//! command line gave it, and the [`Grant`] (its tokens, scopes, issuer and the client
//! registered there), the newest last:
//!
//! ```json
//! {"version":1,"grants":[{"server":"https://mcp.example/mcp","grant":{…}}]}
//! ```
//!
//! A write replaces the whole file at once (a new file, then a rename), so a reader never sees
//! half of one. A grant this build cannot read (written by another version) is kept as it is
//! and left unused.

use std::env;
use std::fs::{self, DirBuilder, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use toolnexus_auth::Grant;
use toolnexus_core::json::{self, Limits, Map, Value};

/// The file's name in the configuration folder.
pub const FILE_NAME: &str = "auth.json";

/// The version of the file's layout.
const VERSION: u64 = 1;

/// The bounds of the file when it is read.
const LIMITS: Limits = Limits::DEFAULT.with_max_depth(16);

/// The kept authorizations of one user.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// One authorization kept, as read back.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The MCP server's URL, as the command line gave it.
    pub server: String,
    /// What was granted. Its `Debug` form shows no token.
    pub grant: Grant,
}

/// One entry of the file, its grant as written (read only when used).
#[derive(Debug, Clone)]
struct Entry {
    server: String,
    grant: Value,
}

impl Store {
    /// The user's store: in `$TOOLNEXUS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/toolnexus` (an
    /// absolute path), else `$HOME/.config/toolnexus`.
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
                 TOOLNEXUS_CONFIG_DIR or HOME, or give --no-store",
            )),
        }
    }

    /// The store in the folder `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The file the authorizations are kept in.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    /// Every authorization kept that this build can read, oldest first.
    pub fn list(&self) -> Result<Vec<Kept>, String> {
        Ok(self
            .read()?
            .into_iter()
            .filter_map(|entry| {
                let grant = Grant::from_json(entry.grant.to_json().as_bytes(), &LIMITS).ok()?;
                Some(Kept {
                    server: entry.server,
                    grant,
                })
            })
            .collect())
    }

    /// The newest authorization kept for the server at `server`, if there is one.
    pub fn grant_for(&self, server: &str) -> Result<Option<Grant>, String> {
        Ok(self
            .list()?
            .into_iter()
            .rev()
            .find(|kept| kept.server == server)
            .map(|kept| kept.grant))
    }

    /// Keeps `grant` for the server at `server`, in place of any kept for that server from
    /// the same authorization server.
    pub fn keep(&self, server: &str, grant: &Grant) -> Result<(), String> {
        // A file that cannot be read is replaced: what it held could not be used anyway.
        let mut entries = self.read().unwrap_or_default();
        entries.retain(|entry| {
            entry.server != server
                || entry.grant.get("issuer").and_then(Value::as_str) != Some(grant.issuer())
        });
        let written = json::parse_str(&grant.to_json(), &LIMITS)
            .map_err(|e| format!("the grant cannot be kept: {}", e.message()))?;
        entries.push(Entry {
            server: String::from(server),
            grant: written,
        });
        self.write(&entries)
    }

    /// Forgets the authorizations kept for `server`, or every one when `None`: how many there
    /// were.
    pub fn forget(&self, server: Option<&str>) -> Result<usize, String> {
        let mut entries = self.read()?;
        let before = entries.len();
        entries.retain(|entry| server.is_some_and(|s| entry.server != s));
        let forgotten = before - entries.len();
        if forgotten > 0 {
            self.write(&entries)?;
        }
        Ok(forgotten)
    }

    /// The entries of the file; none when there is no file.
    fn read(&self) -> Result<Vec<Entry>, String> {
        let path = self.path();
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
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
                    grant: item.get("grant").filter(|g| g.is_object())?.clone(),
                })
            })
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
        let grants = entries
            .iter()
            .map(|entry| {
                let mut item = Map::new();
                item.insert("server", Value::from(entry.server.as_str()));
                item.insert("grant", entry.grant.clone());
                Value::Object(item)
            })
            .collect();
        let mut document = Map::new();
        document.insert("version", Value::from(VERSION));
        document.insert("grants", Value::Array(grants));
        let mut text = document.to_json();
        text.push('\n');
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
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

/// Writes `bytes` to a new file at `path` that only its owner can read or write.
fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
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

    use super::*;

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
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [FILE_NAME]);
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
        assert_eq!(store.forget(Some("http://nowhere/mcp")).unwrap(), 0);
        assert_eq!(store.forget(Some(one)).unwrap(), 2);
        assert!(store.grant_for(one).unwrap().is_none());
        assert!(store.grant_for(two).unwrap().is_some());
        assert_eq!(store.forget(None).unwrap(), 1);
        assert!(!store.path().exists(), "nothing kept, no file");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_this_build_cannot_read_are_kept_unused() {
        let dir = folder("unknown");
        fs::create_dir_all(&dir).unwrap();
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
}
