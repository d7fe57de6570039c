//! The keyed seal on a document that passes through other hands: HMAC-SHA-256 over its bytes,
//! checked in constant time, with several keys accepted while they rotate.
//!
//! A sealed document is ASCII: [`SEALED_PREFIX`], the document in unpadded base64url, a dot,
//! and the 32-byte tag in unpadded base64url. The tag covers a context string naming what the
//! document is, so a tag made for one kind of document never vouches for another.
//!
//! A key is at least [`MIN_KEY_BYTES`] (32) bytes: random bytes from the operating system's
//! generator, kept as a secret of the host. A shorter key, the empty one included, is refused
//! with [`ErrorKind::InvalidValue`] wherever it is given, at `/key` to seal and at `/keys/<i>`
//! to open, before anything is read: a seal is only as strong as its key.
//!
//! ```
//! use toolnexus_core::seal::{seal, unseal};
//! use toolnexus_core::ErrorKind;
//!
//! let (previous, current) = ([1u8; 32], [2u8; 32]);
//! let sealed = seal(b"{\"a\":1}", b"input-round", &current)?;
//! // A restore given the current and the previous key accepts either.
//! let keys: [&[u8]; 2] = [&previous, &current];
//! assert_eq!(unseal(&sealed, b"input-round", &keys)?, b"{\"a\":1}");
//! // Another key, another context or a changed byte is refused.
//! assert_eq!(unseal(&sealed, b"input-round", &[&[3u8; 32]]).unwrap_err().kind(), ErrorKind::InvalidSeal);
//! assert_eq!(unseal(&sealed, b"pending-request", &keys).unwrap_err().kind(), ErrorKind::InvalidSeal);
//! // A key shorter than 32 bytes is refused where it is given.
//! let short = seal(b"{}", b"input-round", b"password").unwrap_err();
//! assert_eq!((short.kind(), short.pointer()), (ErrorKind::InvalidValue, "/key"));
//! let short = unseal(&sealed, b"input-round", &[&current, b""]).unwrap_err();
//! assert_eq!((short.kind(), short.pointer()), (ErrorKind::InvalidValue, "/keys/1"));
//! # Ok::<(), toolnexus_core::Error>(())
//! ```

use alloc::format;
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

/// The fewest bytes a key may have: as many as the tag, the strength HMAC-SHA-256 gives.
pub const MIN_KEY_BYTES: usize = 32;

type HmacSha256 = Hmac<Sha256>;

/// `document` sealed with `key` for `context` (what the document is, such as
/// `b"input-round"`): `tnseal1.<document>.<tag>`, both parts in unpadded base64url.
///
/// Refused with [`ErrorKind::InvalidValue`] at `/key` when `key` is shorter than
/// [`MIN_KEY_BYTES`].
pub fn seal(document: &[u8], context: &[u8], key: &[u8]) -> Result<Vec<u8>, Error> {
    check_key(key, "/key")?;
    let tag = tag(document, context, key).finalize().into_bytes();
    let mut out =
        String::with_capacity(SEALED_PREFIX.len() + (document.len() + TAG_BYTES) * 4 / 3 + 4);
    out.push_str(SEALED_PREFIX);
    URL_SAFE_NO_PAD.encode_string(document, &mut out);
    out.push('.');
    URL_SAFE_NO_PAD.encode_string(tag, &mut out);
    Ok(out.into_bytes())
}

/// Refuses a key shorter than [`MIN_KEY_BYTES`] with [`ErrorKind::InvalidValue`] at `pointer`
/// (`/key`, `/keys/0`…). The message gives the length, never a byte of the key.
pub fn check_key(key: &[u8], pointer: &str) -> Result<(), Error> {
    if key.len() >= MIN_KEY_BYTES {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidValue,
        pointer,
        format!(
            "a seal key must be at least {MIN_KEY_BYTES} bytes (random bytes from the \
             operating system), not {}",
            key.len()
        ),
    ))
}

/// Refuses the first key of `keys` shorter than [`MIN_KEY_BYTES`], at `/keys/<i>`.
pub fn check_keys(keys: &[&[u8]]) -> Result<(), Error> {
    for (i, key) in keys.iter().enumerate() {
        check_key(key, &format!("/keys/{i}"))?;
    }
    Ok(())
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
/// each comparison in constant time. Before any of that, a key shorter than
/// [`MIN_KEY_BYTES`] is refused with [`ErrorKind::InvalidValue`] at `/keys/<i>`.
pub fn unseal(sealed: &[u8], context: &[u8], keys: &[&[u8]]) -> Result<Vec<u8>, Error> {
    check_keys(keys)?;
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
    const K0: &[u8] = b"k0: thirty-two bytes or more, ok";
    const K1: &[u8] = b"k1: thirty-two bytes or more, ok";
    const K2: &[u8] = b"k2: thirty-two bytes or more, ok";

    #[test]
    fn a_sealed_document_opens_with_its_key_only() {
        let sealed = seal(b"hello", CONTEXT, K1).unwrap();
        assert!(is_sealed(&sealed));
        assert!(sealed.is_ascii());
        assert_eq!(unseal(&sealed, CONTEXT, &[K1]).unwrap(), b"hello");
        assert_eq!(unseal(&sealed, CONTEXT, &[K0, K1]).unwrap(), b"hello");
        for keys in [&[][..], &[K2][..]] {
            assert_eq!(
                unseal(&sealed, CONTEXT, keys).unwrap_err().kind(),
                ErrorKind::InvalidSeal
            );
        }
    }

    #[test]
    fn every_changed_byte_and_every_cut_is_refused() {
        let sealed = seal(br#"{"version":1}"#, CONTEXT, K0).unwrap();
        for i in 0..sealed.len() {
            let mut changed = sealed.clone();
            changed[i] ^= 0x01;
            assert!(unseal(&changed, CONTEXT, &[K0]).is_err(), "byte {i}");
            assert!(unseal(&sealed[..i], CONTEXT, &[K0]).is_err(), "cut at {i}");
        }
        let mut longer = sealed.clone();
        longer.push(b'A');
        assert!(unseal(&longer, CONTEXT, &[K0]).is_err());
    }

    #[test]
    fn the_context_is_part_of_the_tag() {
        let sealed = seal(b"x", b"ab", K0).unwrap();
        assert!(unseal(&sealed, b"a", &[K0]).is_err());
        assert!(unseal(&sealed, b"ab", &[K0]).is_ok());
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
            let error = unseal(text, CONTEXT, &[K0]).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidSeal, "{text:?}");
            assert_eq!(error.pointer(), "");
        }
    }

    #[test]
    fn a_key_shorter_than_32_bytes_is_refused_where_it_is_given() {
        let long = [7u8; MIN_KEY_BYTES];
        let sealed = seal(b"doc", b"ctx", &long).unwrap();
        for short in [&b""[..], b"k", &[7u8; MIN_KEY_BYTES - 1]] {
            let error = seal(b"doc", b"ctx", short).unwrap_err();
            assert_eq!(
                (error.kind(), error.pointer()),
                (ErrorKind::InvalidValue, "/key")
            );
            assert!(
                error
                    .message()
                    .contains(&alloc::format!("not {}", short.len()))
            );
            // Even beside a good key, and before the seal is looked at.
            let error = unseal(&sealed, b"ctx", &[&long, short]).unwrap_err();
            assert_eq!(
                (error.kind(), error.pointer()),
                (ErrorKind::InvalidValue, "/keys/1")
            );
            let error = unseal(b"not sealed", b"ctx", &[short]).unwrap_err();
            assert_eq!(
                (error.kind(), error.pointer()),
                (ErrorKind::InvalidValue, "/keys/0")
            );
        }
        assert_eq!(unseal(&sealed, b"ctx", &[&long]).unwrap(), b"doc");
    }
}
