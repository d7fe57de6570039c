//! Bounds on untrusted JSON input, checked while it is read.

/// Bounds every JSON input is read within. Each one exceeded is a typed error
/// ([`ErrorKind::TooLarge`](crate::error::ErrorKind::TooLarge), `TooDeep`, `TooManyMembers`,
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
/// A value a binding builds from native objects (a Python `dict`, a Kotlin or Swift record, a
/// list of content entries) is held to the same bounds, with the same error kinds and
/// pointers: its size is the length of its compact JSON text, which [`SizeBudget`] counts as
/// the value is read, so that it stops at the limit rather than after the whole value.
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

impl Limits {
    /// Refuses a container that opens at `depth` (the outermost is 1) when that is deeper
    /// than [`max_depth`](Limits::max_depth): [`ErrorKind::TooDeep`](crate::error::ErrorKind) at
    /// `""`, the caller's containers locating it. Every reader of untrusted input, the JSON
    /// text reader and the bindings' readers of native objects, asks this one.
    pub fn check_depth(&self, depth: usize) -> Result<(), crate::error::Error> {
        at_most(
            depth,
            self.max_depth,
            crate::error::ErrorKind::TooDeep,
            |limit| alloc::format!("arrays and objects nest deeper than the limit of {limit}"),
        )
    }

    /// Refuses an object of `members` members when that is more than
    /// [`max_object_members`](Limits::max_object_members):
    /// [`ErrorKind::TooManyMembers`](crate::error::ErrorKind) at the object (`""`).
    pub fn check_members(&self, members: usize) -> Result<(), crate::error::Error> {
        at_most(
            members,
            self.max_object_members,
            crate::error::ErrorKind::TooManyMembers,
            |limit| alloc::format!("an object has more than the limit of {limit} members"),
        )
    }

    /// Refuses an array of `items` items when that is more than
    /// [`max_array_items`](Limits::max_array_items):
    /// [`ErrorKind::TooManyItems`](crate::error::ErrorKind) at the array (`""`).
    pub fn check_items(&self, items: usize) -> Result<(), crate::error::Error> {
        at_most(
            items,
            self.max_array_items,
            crate::error::ErrorKind::TooManyItems,
            |limit| alloc::format!("an array has more than the limit of {limit} items"),
        )
    }
}

/// `Ok` while `count` is at most `limit`; otherwise an error of `kind` at `""` with the
/// message made for the limit.
fn at_most(
    count: usize,
    limit: usize,
    kind: crate::error::ErrorKind,
    message: impl FnOnce(usize) -> alloc::string::String,
) -> Result<(), crate::error::Error> {
    if count > limit {
        Err(crate::error::Error::new(kind, "", message(limit)))
    } else {
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Counts the size of a value read from native objects, as the length of its compact JSON
/// text (what [`Value::to_json`](crate::json::Value::to_json) writes), against
/// [`Limits::max_input_bytes`]. Going over is [`ErrorKind::TooLarge`](crate::error::ErrorKind) at `""`,
/// the error JSON text of that size gets.
///
/// ```
/// use toolnexus_core::json::{Limits, SizeBudget};
/// use toolnexus_core::ErrorKind;
///
/// let mut budget = SizeBudget::new(&Limits::DEFAULT.with_max_input_bytes(8));
/// budget.string("ab").unwrap(); // "ab": 4 bytes
/// budget.punctuation(2).unwrap(); // {} : 6
/// assert_eq!(budget.used(), 6);
/// assert_eq!(budget.string("a\"").unwrap_err().kind(), ErrorKind::TooLarge); // "a\"" is 5
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SizeBudget {
    used: usize,
    max: usize,
}

impl SizeBudget {
    /// A budget of `limits.max_input_bytes()`, nothing used.
    pub const fn new(limits: &Limits) -> SizeBudget {
        SizeBudget {
            used: 0,
            max: limits.max_input_bytes,
        }
    }

    /// The bytes counted so far.
    pub const fn used(&self) -> usize {
        self.used
    }

    /// Counts `bytes` bytes of punctuation, a number's spelling, or a literal.
    pub fn punctuation(&mut self, bytes: usize) -> Result<(), crate::error::Error> {
        self.used = self.used.saturating_add(bytes);
        if self.used > self.max {
            Err(crate::error::Error::new(
                crate::error::ErrorKind::TooLarge,
                "",
                alloc::format!(
                    "the input takes more than {} bytes as JSON text, the limit",
                    self.max
                ),
            ))
        } else {
            Ok(())
        }
    }

    /// Counts the braces, colons and commas of an object of `members` members (its keys and
    /// values are counted apart).
    pub fn object(&mut self, members: usize) -> Result<(), crate::error::Error> {
        self.punctuation(2 + 2 * members.saturating_sub(1) + usize::from(members > 0))
    }

    /// Counts the brackets and commas of an array of `items` items (the items apart).
    pub fn array(&mut self, items: usize) -> Result<(), crate::error::Error> {
        self.punctuation(2 + items.saturating_sub(1))
    }

    /// Counts `text` written as a JSON string: its quotes, and each character as the writer
    /// escapes it.
    pub fn string(&mut self, text: &str) -> Result<(), crate::error::Error> {
        // A string longer than the whole budget needs no closer look.
        if text.len() > self.max {
            return self.punctuation(text.len());
        }
        self.punctuation(super::write::string_len(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse_str, string_len};

    #[test]
    fn string_len_is_what_the_writer_writes() {
        for text in [
            "",
            "a",
            "\"",
            "\\",
            "\u{0}",
            "\u{1f}",
            "\n\t\r\u{8}\u{c}",
            "é😀",
            "\u{7f}",
        ] {
            let written = crate::json::Value::from(text).to_json();
            assert_eq!(string_len(text), written.len(), "{text:?}");
        }
    }

    #[test]
    fn a_budget_counts_the_compact_text() {
        let value = parse_str(r#"{"a":[1,"x\n",null]}"#, &Limits::DEFAULT).unwrap();
        let mut budget = SizeBudget::new(&Limits::DEFAULT);
        budget.punctuation(2).unwrap(); // {}
        budget.string("a").unwrap();
        budget.punctuation(1).unwrap(); // :
        budget.punctuation(2 + 2).unwrap(); // [] and two commas
        budget.punctuation(1).unwrap(); // 1
        budget.string("x\n").unwrap();
        budget.punctuation(4).unwrap(); // null
        assert_eq!(budget.used(), value.to_json().len());
    }

    #[test]
    fn object_and_array_punctuation_is_the_compact_text() {
        for text in [r#"{}"#, r#"[]"#, r#"{"a":[1,"x\n",null],"b":{},"c":[[]]}"#] {
            let value = parse_str(text, &Limits::DEFAULT).unwrap();
            let mut budget = SizeBudget::new(&Limits::DEFAULT);
            count(&value, &mut budget);
            assert_eq!(budget.used(), value.to_json().len(), "{text}");
        }

        fn count(value: &crate::json::Value, budget: &mut SizeBudget) {
            match value {
                crate::json::Value::Array(items) => {
                    budget.array(items.len()).unwrap();
                    items.iter().for_each(|item| count(item, budget));
                }
                crate::json::Value::Object(map) => {
                    budget.object(map.len()).unwrap();
                    for (key, member) in map {
                        budget.string(key).unwrap();
                        count(member, budget);
                    }
                }
                other => budget.punctuation(other.to_json().len()).unwrap(),
            }
        }
    }
}
