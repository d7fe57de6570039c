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

/// The file's name in the configuration folder.
pub const FILE_NAME: &str = "auth.json";

/// The lock a change holds from its read to its write.
const LOCK_NAME: &str = "auth.json.lock";

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

    /// The configuration folder.
    pub fn dir(&self) -> &Path {
        &self.dir
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
        let _lock = self.lock()?;
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
        let _lock = self.lock()?;
        let mut entries = self.read()?;
        let before = entries.len();
        entries.retain(|entry| server.is_some_and(|s| entry.server != s));
        let forgotten = before - entries.len();
        if forgotten > 0 {
            self.write(&entries)?;
        }
        Ok(forgotten)
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
        assert_eq!(store.forget(Some("http://nowhere/mcp")).unwrap(), 0);
        assert_eq!(store.forget(Some(one)).unwrap(), 2);
        assert!(store.grant_for(one).unwrap().is_none());
        assert!(store.grant_for(two).unwrap().is_some());
        assert_eq!(store.forget(None).unwrap(), 1);
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
}
