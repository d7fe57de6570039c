//! The four string formats of an elicitation schema: `email`, `uri`, `date`, `date-time`.
//!
//! (Skeleton: signatures only; filled in by the format work.)

use crate::schema::StringFormat;

/// Whether `text` is an email address (an RFC 5322 addr-spec `local@domain`, no spaces).
pub fn is_email(text: &str) -> bool {
    !text.is_empty()
}

/// Whether `text` is an absolute URI (RFC 3986 `URI`: a scheme and no fragment-only form).
pub fn is_uri(text: &str) -> bool {
    !text.is_empty()
}

/// Whether `text` is in `format`.
pub fn matches(format: StringFormat, text: &str) -> bool {
    match format {
        StringFormat::Email => is_email(text),
        StringFormat::Uri => is_uri(text),
        StringFormat::Date => crate::rfc3339::is_full_date(text),
        StringFormat::DateTime => crate::rfc3339::is_date_time(text),
    }
}
