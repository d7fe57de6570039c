//! Building RFC 6901 JSON pointers for error locations; the bindings locate their own errors
//! with the same escaping.

use alloc::string::String;
use core::fmt::Write;

/// Appends `/token` to `pointer`, escaping `~` as `~0` and `/` as `~1`.
pub fn push_key(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `/index` to `pointer`.
pub fn push_index(pointer: &mut String, index: usize) {
    // Writing to a String cannot fail.
    let _ = write!(pointer, "/{index}");
}

/// The pointer `/token` for a member of the root object.
pub fn key(token: &str) -> String {
    let mut p = String::new();
    push_key(&mut p, token);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_before_slash() {
        assert_eq!(key("a/b~c"), "/a~1b~0c");
        let mut p = key("list");
        push_index(&mut p, 3);
        assert_eq!(p, "/list/3");
    }
}
