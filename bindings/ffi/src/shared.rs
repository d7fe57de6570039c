//! What the stateful objects share: a lock that never panics, the clock, and their options.

use std::sync::{Mutex, PoisonError};

use toolnexus_core as core;
use toolnexus_core::content::ContentOptions;
use toolnexus_core::mcp::Mode as CoreMode;

use crate::error::ToolnexusError;
use crate::limits::Limits;
use crate::mirror::mirror_enum;

/// A core object behind a lock, so that Kotlin and Swift may call it from any thread.
pub(crate) struct Shared<T>(Mutex<T>);

impl<T> Shared<T> {
    pub(crate) fn new(value: T) -> Shared<T> {
        Shared(Mutex::new(value))
    }

    /// Runs `work` on the object, holding the lock meanwhile.
    pub(crate) fn with<R>(&self, work: impl FnOnce(&mut T) -> R) -> R {
        // A poisoned lock means a panic while it was held; the core does not panic, and each
        // of its calls changes the object only on success, so the object is whole either way.
        let mut guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        work(&mut guard)
    }
}

/// `now_ms`, or the system clock in milliseconds since 1970 when it is not given.
pub(crate) fn now_or_clock(now_ms: Option<u64>) -> u64 {
    now_ms.unwrap_or_else(core::id::now_ms)
}

/// A core restore run with the arguments every `restore` of the bindings takes: the keys as
/// slices, `limits` or the default, `now_ms` or the clock.
pub(crate) fn restore_with<T>(
    snapshot: &[u8],
    keys: &[Vec<u8>],
    limits: Option<Limits>,
    now_ms: Option<u64>,
    restore: impl FnOnce(&[u8], &[&[u8]], &core::Limits, u64) -> Result<T, core::Error>,
) -> Result<T, core::Error> {
    let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    restore(
        snapshot,
        &keys,
        &Limits::or_default(limits),
        now_or_clock(now_ms),
    )
}

/// How content is checked: strictly, except members the schema does not declare when
/// `allow_unknown`.
pub(crate) fn content_options(allow_unknown: bool) -> ContentOptions {
    ContentOptions::STRICT.allow_unknown(allow_unknown)
}

mirror_enum! {
    /// One elicitation mode, as `elicitation/create` names it.
    pub enum Mode mirrors CoreMode, else Form {
        /// A form to fill in (`requestedSchema`); also what an absent `mode` means.
        Form,
        /// A URL for the person to open.
        Url,
    }
}

/// The elicitation modes a host supports; both by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct Modes {
    /// Form mode: the server sends a `requestedSchema` to fill in.
    #[uniffi(default = true)]
    pub form: bool,
    /// URL mode: the server sends a URL to open.
    #[uniffi(default = true)]
    pub url: bool,
}

#[uniffi::export]
impl Modes {
    /// Whether `mode` is one of these.
    pub fn supports(&self, mode: Mode) -> bool {
        self.to_core().supports(mode.to_core())
    }
}

/// The modes named `name`: `"form"`, `"url"` or `"all"` (both), as options and scripts name
/// them; any other name is an `InvalidValue` error.
#[uniffi::export]
pub fn modes_from_name(name: &str) -> Result<Modes, ToolnexusError> {
    Ok(Modes::from_core(core::Modes::from_name(name)?))
}

impl Modes {
    pub(crate) fn to_core(self) -> core::Modes {
        core::Modes::new(self.form, self.url)
    }

    pub(crate) fn from_core(modes: core::Modes) -> Modes {
        Modes {
            form: modes.form(),
            url: modes.url(),
        }
    }
}

impl Default for Modes {
    fn default() -> Modes {
        Modes::from_core(core::Modes::ALL)
    }
}

/// How a session, a reverse bridge or an input round judges requests and answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct SessionOptions {
    /// The modes the host supports; a request for another fails with `ModeNotSupported`.
    #[uniffi(default)]
    pub modes: Modes,
    /// The most requests that may wait at once (URL requests waiting for their completion
    /// count too).
    #[uniffi(default = 64)]
    pub max_pending: u64,
    /// How long a request may wait for its answer, in milliseconds; each request then
    /// carries `expiresAt`. No expiry when absent.
    #[uniffi(default = None)]
    pub ttl_ms: Option<u64>,
    /// Whether accepted form content has absent properties filled from their `default`
    /// before it is checked.
    #[uniffi(default = false)]
    pub apply_defaults: bool,
    /// Whether accepted content may hold members the schema does not declare.
    #[uniffi(default = false)]
    pub allow_unknown: bool,
    /// Whether a form that seems to ask for a secret is refused with `SensitiveField`.
    #[uniffi(default = false)]
    pub reject_secrets: bool,
}

impl SessionOptions {
    /// The core's options; a bound too large for this platform's `usize` means no bound.
    pub(crate) fn to_core(self) -> core::SessionOptions {
        core::SessionOptions::DEFAULT
            .with_modes(self.modes.to_core())
            .with_max_pending(usize::try_from(self.max_pending).unwrap_or(usize::MAX))
            .with_ttl_ms(self.ttl_ms)
            .with_apply_defaults(self.apply_defaults)
            .with_allow_unknown(self.allow_unknown)
            .with_reject_secrets(self.reject_secrets)
    }
}

impl SessionOptions {
    /// The options of a core object, such as a session or round restored from a snapshot.
    pub(crate) fn from_core(options: &core::SessionOptions) -> SessionOptions {
        SessionOptions {
            modes: Modes::from_core(options.modes()),
            max_pending: u64::try_from(options.max_pending()).unwrap_or(u64::MAX),
            ttl_ms: options.ttl_ms(),
            apply_defaults: options.apply_defaults(),
            allow_unknown: options.content_options().allows_unknown(),
            reject_secrets: options.reject_secrets(),
        }
    }
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        let core = core::SessionOptions::DEFAULT;
        SessionOptions {
            modes: Modes::from_core(core.modes()),
            max_pending: u64::try_from(core.max_pending()).unwrap_or(u64::MAX),
            ttl_ms: core.ttl_ms(),
            apply_defaults: false,
            allow_unknown: false,
            reject_secrets: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults the generated constructors use are written as literals; they must be the
    /// core's.
    #[test]
    fn declared_defaults_are_the_cores() {
        let declared = SessionOptions {
            modes: Modes {
                form: true,
                url: true,
            },
            max_pending: 64,
            ttl_ms: None,
            apply_defaults: false,
            allow_unknown: false,
            reject_secrets: false,
        };
        assert_eq!(declared, SessionOptions::default());
        assert_eq!(declared.to_core(), core::SessionOptions::DEFAULT);
    }

    /// Options read back from the core are the options given, every flag included.
    #[test]
    fn options_come_back_from_the_core_as_given() {
        for bits in 0..16u8 {
            let flag = |bit: u8| bits & (1 << bit) != 0;
            let options = SessionOptions {
                modes: Modes {
                    form: !flag(3),
                    url: true,
                },
                max_pending: 7,
                ttl_ms: flag(3).then_some(500),
                apply_defaults: flag(0),
                allow_unknown: flag(1),
                reject_secrets: flag(2),
            };
            assert_eq!(SessionOptions::from_core(&options.to_core()), options);
        }
    }
}
