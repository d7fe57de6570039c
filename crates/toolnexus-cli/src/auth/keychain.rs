//! The operating system's secret store, where a grant's secrets are kept when one answers:
//! the Secret Service on Linux and the BSDs (GNOME Keyring, KeePassXC, KWallet), the Keychain
//! on macOS, the Credential Manager on Windows.
//!
//! Each grant is one item of service [`SERVICE`], its account the key the index in
//! `auth.json` names it by, its secret the grant's JSON. The store is reached once per
//! command, when first needed: a command that uses a grant kept in the file never asks it.
//! [`Vault`] is what the grant store needs of it, so that its rules are tested without one.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// The service every item toolnexus keeps is filed under.
pub const SERVICE: &str = "toolnexus";

/// A store of secrets by key. Errors say why in words that hold no secret.
pub trait Vault: Send + Sync {
    /// Keeps `secret` under `key`, in place of what was there.
    fn put(&self, key: &str, secret: &str) -> Result<(), String>;
    /// The secret under `key`, if there is one.
    fn get(&self, key: &str) -> Result<Option<String>, String>;
    /// Removes the secret under `key`: whether there was one.
    fn remove(&self, key: &str) -> Result<bool, String>;
}

/// How a keychain is opened.
type Opener = fn() -> Result<Arc<dyn Vault>, String>;

/// The secret store of one command, opened when first needed, and then once.
#[derive(Clone)]
pub struct Keychain {
    open: Opener,
    opened: Arc<OnceLock<Result<Arc<dyn Vault>, String>>>,
}

impl Keychain {
    /// The operating system's secret store.
    pub fn system() -> Keychain {
        Keychain {
            open: open_system,
            opened: Arc::default(),
        }
    }

    /// A keychain that is `vault`, already open.
    pub fn of(vault: Arc<dyn Vault>) -> Keychain {
        let opened = OnceLock::new();
        let _ = opened.set(Ok(vault));
        Keychain {
            open: open_system,
            opened: Arc::new(opened),
        }
    }

    /// A keychain that does not answer, for `why`.
    pub fn unreachable(why: &str) -> Keychain {
        let opened = OnceLock::new();
        let _ = opened.set(Err(String::from(why)));
        Keychain {
            open: open_system,
            opened: Arc::new(opened),
        }
    }

    /// The store, opened on the first call; why not when it does not answer.
    pub fn vault(&self) -> Result<&Arc<dyn Vault>, String> {
        self.opened
            .get_or_init(self.open)
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl fmt::Debug for Keychain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.opened.get() {
            None => "not opened",
            Some(Ok(_)) => "open",
            Some(Err(_)) => "unreachable",
        };
        f.debug_struct("Keychain").field("state", &state).finish()
    }
}

/// Opens the operating system's secret store (on Linux, a connection to the Secret Service
/// on the session's D-Bus).
fn open_system() -> Result<Arc<dyn Vault>, String> {
    match keyring::Entry::store_status() {
        Ok(()) => Ok(Arc::new(System)),
        Err(e) => Err(describe(e)),
    }
}

/// The operating system's secret store, through the `keyring` crate.
struct System;

impl System {
    fn entry(key: &str) -> Result<keyring::Entry, String> {
        keyring::Entry::new(SERVICE, key).map_err(|e| describe(&e))
    }
}

impl Vault for System {
    fn put(&self, key: &str, secret: &str) -> Result<(), String> {
        System::entry(key)?
            .set_secret(secret.as_bytes())
            .map_err(|e| describe(&e))
    }

    fn get(&self, key: &str) -> Result<Option<String>, String> {
        match System::entry(key)?.get_secret() {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| String::from("the item the keychain holds is not text")),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(describe(&e)),
        }
    }

    fn remove(&self, key: &str) -> Result<bool, String> {
        match System::entry(key)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(describe(&e)),
        }
    }
}

/// Why the secret store failed, in words that never carry the secret (an item that is not
/// text is not quoted).
fn describe(error: &keyring::Error) -> String {
    match error {
        keyring::Error::BadEncoding(_) => String::from("the item the keychain holds is not text"),
        keyring::Error::BadDataFormat(..) => {
            String::from("the item the keychain holds is not in a form it can read")
        }
        keyring::Error::NoEntry => String::from("the keychain holds no such item"),
        other => other.to_string(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use super::*;

    /// A vault in memory, for the store's tests.
    #[derive(Debug, Default)]
    pub(crate) struct Memory {
        pub(crate) items: Mutex<BTreeMap<String, String>>,
    }

    impl Vault for Memory {
        fn put(&self, key: &str, secret: &str) -> Result<(), String> {
            self.items
                .lock()
                .map_err(|_| String::from("poisoned"))?
                .insert(String::from(key), String::from(secret));
            Ok(())
        }

        fn get(&self, key: &str) -> Result<Option<String>, String> {
            Ok(self
                .items
                .lock()
                .map_err(|_| String::from("poisoned"))?
                .get(key)
                .cloned())
        }

        fn remove(&self, key: &str) -> Result<bool, String> {
            Ok(self
                .items
                .lock()
                .map_err(|_| String::from("poisoned"))?
                .remove(key)
                .is_some())
        }
    }

    #[test]
    fn a_keychain_is_opened_once_and_its_debug_form_holds_nothing_kept() {
        let memory = Arc::new(Memory::default());
        let keychain = Keychain::of(memory.clone());
        keychain.vault().unwrap().put("k", "secret-value").unwrap();
        assert_eq!(
            keychain.vault().unwrap().get("k").unwrap().as_deref(),
            Some("secret-value")
        );
        let shown = format!("{keychain:?}");
        assert_eq!(shown, r#"Keychain { state: "open" }"#);
        let none = Keychain::unreachable("no session bus");
        assert_eq!(none.vault().err().as_deref(), Some("no session bus"));
        assert!(format!("{none:?}").contains("unreachable"));
    }
}
