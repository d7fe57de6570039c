//! The keyed seal on a document that passes through other hands: HMAC-SHA-256 over its bytes,
//! checked in constant time, with several keys accepted while they rotate.
//!
//! A sealed document is ASCII: [`SEALED_PREFIX`], the document in unpadded base64url, a dot,
//! and the 32-byte tag in unpadded base64url. It fits a cookie, a hidden form field or a
//! cache value as it is. The tag covers a context string naming what the document is, so a
//! tag made for one kind of document never vouches for another.
//!
//! ```
//! use toolnexus_core::seal::{seal, unseal};
//! use toolnexus_core::ErrorKind;
//!
//! let sealed = seal(b"{\"a\":1}", b"input-round", b"key 2");
//! // A restore given the current and the previous key accepts either.
//! let keys: [&[u8]; 2] = [b"key 1", b"key 2"];
//! assert_eq!(unseal(&sealed, b"input-round", &keys)?, b"{\"a\":1}");
//! // Another key, another context or a changed byte is refused.
//! assert_eq!(unseal(&sealed, b"input-round", &[b"key 3"]).unwrap_err().kind(), ErrorKind::InvalidSeal);
//! assert_eq!(unseal(&sealed, b"pending-request", &keys).unwrap_err().kind(), ErrorKind::InvalidSeal);
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::error::{Error, ErrorKind};

/// What a sealed document starts with: the scheme's name and version.
pub const SEALED_PREFIX: &str = "tnseal1.";

/// The length of a tag, in bytes.
const TAG_BYTES: usize = 32;

type HmacSha256 = Hmac<Sha256>;

/// `document` sealed with `key` for `context` (what the document is, such as
/// `b"input-round"`): `tnseal1.<document>.<tag>`, both parts in unpadded base64url.
pub fn seal(document: &[u8], context: &[u8], key: &[u8]) -> Vec<u8> {
    let tag = tag(document, context, key).finalize().into_bytes();
    let mut out =
        String::with_capacity(SEALED_PREFIX.len() + (document.len() + TAG_BYTES) * 4 / 3 + 4);
    out.push_str(SEALED_PREFIX);
    URL_SAFE_NO_PAD.encode_string(document, &mut out);
    out.push('.');
    URL_SAFE_NO_PAD.encode_string(tag, &mut out);
    out.into_bytes()
}

/// Whether `bytes` has the form of a sealed document (its tag unchecked).
pub fn is_sealed(bytes: &[u8]) -> bool {
    bytes.starts_with(SEALED_PREFIX.as_bytes())
}

/// The document inside `sealed`, once its tag checks out against one of `keys` for `context`.
///
/// Refused with [`ErrorKind::InvalidSeal`] at `""`, the same way whatever went wrong, so the
/// error tells an attacker nothing: no keys given, a text that is not a sealed document, a
/// document or tag that is not base64url, a tag of the wrong length, and a tag that none of
/// the keys made (a changed byte, a truncation, another key or context). Every key is tried,
/// each comparison in constant time.
pub fn unseal(sealed: &[u8], context: &[u8], keys: &[&[u8]]) -> Result<Vec<u8>, Error> {
    let refused = || {
        Error::new(
            ErrorKind::InvalidSeal,
            "",
            "the seal does not check out: the snapshot was changed, cut short or sealed with \
             another key",
        )
    };
    let body = sealed
        .strip_prefix(SEALED_PREFIX.as_bytes())
        .ok_or_else(refused)?;
    let dot = body.iter().rposition(|&b| b == b'.').ok_or_else(refused)?;
    let (encoded, encoded_tag) = (
        body.get(..dot).ok_or_else(refused)?,
        body.get(dot + 1..).ok_or_else(refused)?,
    );
    let document = URL_SAFE_NO_PAD.decode(encoded).map_err(|_| refused())?;
    let given = URL_SAFE_NO_PAD.decode(encoded_tag).map_err(|_| refused())?;
    if given.len() != TAG_BYTES {
        return Err(refused());
    }
    // Every key is tried, so the time taken does not say which one matched.
    let mut matched = false;
    for key in keys {
        matched |= tag(&document, context, key).verify_slice(&given).is_ok();
    }
    if matched {
        Ok(document)
    } else {
        Err(refused())
    }
}

/// The HMAC of `document` under `key`, over the context's length, the context and the document.
fn tag(document: &[u8], context: &[u8], key: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length.
    let mut mac = match HmacSha256::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => HmacSha256::new(&Default::default()),
    };
    mac.update(
        &u64::try_from(context.len())
            .unwrap_or(u64::MAX)
            .to_be_bytes(),
    );
    mac.update(context);
    mac.update(document);
    mac
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTEXT: &[u8] = b"test";

    #[test]
    fn a_sealed_document_opens_with_its_key_only() {
        let sealed = seal(b"hello", CONTEXT, b"k1");
        assert!(is_sealed(&sealed));
        assert!(sealed.is_ascii());
        assert_eq!(unseal(&sealed, CONTEXT, &[b"k1"]).unwrap(), b"hello");
        assert_eq!(unseal(&sealed, CONTEXT, &[b"k0", b"k1"]).unwrap(), b"hello");
        for keys in [&[][..], &[&b"k2"[..]][..], &[&b""[..]][..]] {
            assert_eq!(
                unseal(&sealed, CONTEXT, keys).unwrap_err().kind(),
                ErrorKind::InvalidSeal
            );
        }
    }

    #[test]
    fn every_changed_byte_and_every_cut_is_refused() {
        let sealed = seal(br#"{"version":1}"#, CONTEXT, b"key");
        for i in 0..sealed.len() {
            let mut changed = sealed.clone();
            changed[i] ^= 0x01;
            assert!(unseal(&changed, CONTEXT, &[b"key"]).is_err(), "byte {i}");
            assert!(
                unseal(&sealed[..i], CONTEXT, &[b"key"]).is_err(),
                "cut at {i}"
            );
        }
        let mut longer = sealed.clone();
        longer.push(b'A');
        assert!(unseal(&longer, CONTEXT, &[b"key"]).is_err());
    }

    #[test]
    fn the_context_is_part_of_the_tag() {
        let sealed = seal(b"x", b"ab", b"key");
        assert!(unseal(&sealed, b"a", &[b"key"]).is_err());
        assert!(unseal(&sealed, b"ab", &[b"key"]).is_ok());
    }

    #[test]
    fn anything_that_is_not_a_sealed_document_is_refused_alike() {
        for text in [
            &b""[..],
            b"{}",
            b"tnseal1.",
            b"tnseal1..",
            b"tnseal1.e30",
            b"tnseal1.e30.",
            b"tnseal1.e30.!!!!",
            b"tnseal1.e30.AAAA",
        ] {
            let error = unseal(text, CONTEXT, &[b"key"]).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidSeal, "{text:?}");
            assert_eq!(error.pointer(), "");
        }
    }
}
