//! Bounds on untrusted JSON input, checked while it is read.

/// Bounds every JSON input is read within. Each one exceeded is a typed error
/// ([`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge), `TooDeep`, `TooManyMembers`,
/// `TooManyItems`), found in time and memory proportional to the limit, never to the input.
///
/// The defaults suit elicitation traffic, whose schemas are flat and small, with room to spare:
///
/// | limit | default | counts |
/// |---|---|---|
/// | [`max_input_bytes`](Limits::max_input_bytes) | 4 MiB | bytes of the whole input |
/// | [`max_depth`](Limits::max_depth) | 64 | arrays and objects open at once (`[]` is depth 1) |
/// | [`max_object_members`](Limits::max_object_members) | 1,000 | members of any one object |
/// | [`max_array_items`](Limits::max_array_items) | 10,000 | items of any one array |
///
/// The depth is capped at [`Limits::DEPTH_CEILING`] whatever is asked, so that reading,
/// writing and dropping a document can never exhaust a thread's stack: in a release build the
/// deepest document allowed needs under 256 KiB of stack (iOS gives secondary threads 512 KiB),
/// the default depth a few tens of KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    max_input_bytes: usize,
    max_depth: usize,
    max_object_members: usize,
    max_array_items: usize,
}

impl Limits {
    /// The highest nesting depth any configuration allows.
    pub const DEPTH_CEILING: usize = 512;

    /// The default limits (see the table above).
    pub const DEFAULT: Limits = Limits {
        max_input_bytes: 4 * 1024 * 1024,
        max_depth: 64,
        max_object_members: 1_000,
        max_array_items: 10_000,
    };

    /// The longest input accepted, in bytes.
    pub const fn max_input_bytes(&self) -> usize {
        self.max_input_bytes
    }

    /// The deepest nesting of arrays and objects accepted.
    pub const fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The most members one object may have.
    pub const fn max_object_members(&self) -> usize {
        self.max_object_members
    }

    /// The most items one array may have.
    pub const fn max_array_items(&self) -> usize {
        self.max_array_items
    }

    /// These limits with another input size bound.
    #[must_use]
    pub const fn with_max_input_bytes(mut self, bytes: usize) -> Limits {
        self.max_input_bytes = bytes;
        self
    }

    /// These limits with another depth bound, capped at [`Limits::DEPTH_CEILING`].
    #[must_use]
    pub const fn with_max_depth(mut self, depth: usize) -> Limits {
        self.max_depth = if depth > Limits::DEPTH_CEILING {
            Limits::DEPTH_CEILING
        } else {
            depth
        };
        self
    }

    /// These limits with another bound on the members of one object.
    #[must_use]
    pub const fn with_max_object_members(mut self, members: usize) -> Limits {
        self.max_object_members = members;
        self
    }

    /// These limits with another bound on the items of one array.
    #[must_use]
    pub const fn with_max_array_items(mut self, items: usize) -> Limits {
        self.max_array_items = items;
        self
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
