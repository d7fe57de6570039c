//! `Limits`: the bounds on JSON read from untrusted text.

use toolnexus_core as core;

/// Bounds on JSON input; inputs beyond them fail with `too_large`, `too_deep`,
/// `too_many_members` or `too_many_items`. The defaults suit any real elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct Limits {
    /// The longest input accepted, in bytes.
    #[uniffi(default = 4194304)]
    pub max_input_bytes: u64,
    /// How deep arrays and objects may nest (at most 512).
    #[uniffi(default = 64)]
    pub max_depth: u64,
    /// The most members one object may have.
    #[uniffi(default = 1000)]
    pub max_object_members: u64,
    /// The most items one array may have.
    #[uniffi(default = 10000)]
    pub max_array_items: u64,
}

impl Limits {
    /// The core's limits; a bound too large for this platform's `usize` means no bound.
    pub(crate) fn to_core(self) -> core::Limits {
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        core::Limits::DEFAULT
            .with_max_input_bytes(size(self.max_input_bytes))
            .with_max_depth(size(self.max_depth))
            .with_max_object_members(size(self.max_object_members))
            .with_max_array_items(size(self.max_array_items))
    }

    /// The core's limits for an optional argument: `None` is the default.
    pub(crate) fn or_default(limits: Option<Limits>) -> core::Limits {
        limits.map_or(core::Limits::DEFAULT, Limits::to_core)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        let limits = core::Limits::DEFAULT;
        let wide = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        Limits {
            max_input_bytes: wide(limits.max_input_bytes()),
            max_depth: wide(limits.max_depth()),
            max_object_members: wide(limits.max_object_members()),
            max_array_items: wide(limits.max_array_items()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults the generated Kotlin and Swift constructors use are written as literals;
    /// they must be the core's.
    #[test]
    fn declared_defaults_are_the_cores() {
        let declared = Limits {
            max_input_bytes: 4_194_304,
            max_depth: 64,
            max_object_members: 1000,
            max_array_items: 10_000,
        };
        assert_eq!(declared, Limits::default());
        assert_eq!(declared.to_core(), core::Limits::DEFAULT);
    }
}
