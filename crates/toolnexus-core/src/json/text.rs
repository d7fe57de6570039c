//! The text of a JSON string, a key or a number's spelling: short ones are kept inline.
//!
//! Most strings of an elicitation are short (keys, titles, options, enum values, numbers), so
//! [`Text`] keeps up to 24 bytes in place, in the value itself, and only longer text on the
//! heap. A form of 1,000 fields is read with a fraction of the allocations a `String` per
//! string would cost. The type is the core's own, so that the public API names no dependency.

use alloc::borrow::Cow;
use alloc::string::String;
use core::borrow::Borrow;
use core::fmt;
use core::ops::Deref;

use compact_str::CompactString;

/// The text of a JSON string, key or number spelling: immutable, kept inline up to 24 bytes.
///
/// It reads as a `&str` everywhere (`Deref`, `AsRef`, `Borrow`), compares with `str` and
/// `String`, and converts from and into `String` (a long `String` keeps its allocation).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(CompactString);

impl Text {
    /// The empty text.
    pub const fn new() -> Text {
        Text(CompactString::const_new(""))
    }

    /// The text as a `str`.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The text as a `String` (a long one keeps its allocation).
    pub fn into_string(self) -> String {
        self.0.into_string()
    }

    /// Whether the text is kept on the heap rather than inline.
    #[cfg(test)]
    fn is_heap_allocated(&self) -> bool {
        self.0.is_heap_allocated()
    }
}

impl Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Text {
    #[inline]
    fn from(text: &str) -> Text {
        Text(CompactString::new(text))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(CompactString::from(text))
    }
}

impl From<Cow<'_, str>> for Text {
    #[inline]
    fn from(text: Cow<'_, str>) -> Text {
        match text {
            Cow::Borrowed(text) => Text::from(text),
            Cow::Owned(text) => Text::from(text),
        }
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.into_string()
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn short_text_is_inline_and_long_text_keeps_its_allocation() {
        let short = Text::from("a".repeat(24).as_str());
        assert!(!short.is_heap_allocated());
        let long = "b".repeat(25);
        let text = Text::from(long.clone());
        assert!(text.is_heap_allocated());
        assert_eq!(text, long);
        assert_eq!(text.clone().into_string(), long);
        assert_eq!(Text::new(), "");
        assert_eq!(Text::from("é😀").to_string(), "é😀");
        assert_eq!(alloc::format!("{:?}", Text::from("a\"b")), "\"a\\\"b\"");
    }
}
