//! Compact JSON output, written by serde_json.

use alloc::string::String;

use serde::Serialize;

/// `value` as compact JSON.
///
/// The types given here serialize only strings, booleans, JSON values and string-keyed maps,
/// for which serde_json's writer into a `String` cannot fail; should that ever change, the
/// output is the empty string, which no conformance case accepts.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
