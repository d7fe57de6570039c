//! DPoP (RFC 9449): an ES256 key made from the caller's random bytes, its public JWK and
//! thumbprint, and the proof JWTs that bind a request (and a token) to the key.
//!
//! Signing is deterministic (RFC 6979), so nothing here draws randomness: the key and each
//! proof's `jti` come from bytes the caller passes.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::SigningKey;
use sha2::{Digest, Sha256};
use toolnexus_core::json::{Map, Value};
use url::Url;

use crate::error::{AuthError, AuthErrorKind, quote};
use crate::jwt;
use crate::secret::Secret;

/// The one signing algorithm this crate uses for proofs.
pub const DPOP_ALG: &str = "ES256";

/// The longest `DPoP-Nonce` a server may ask to be echoed, in bytes.
pub const MAX_NONCE_BYTES: usize = 512;

/// The fewest random bytes a proof's `jti` is made of.
pub const MIN_JTI_BYTES: usize = 16;

/// The most random bytes a proof's `jti` is made of.
pub const MAX_JTI_BYTES: usize = 64;

/// An ES256 (P-256) key pair that proves possession of DPoP-bound tokens.
///
/// Its `Debug` form shows nothing of the key; [`DpopKey::to_secret`] writes the private key,
/// to store as a secret with the tokens bound to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DpopKey {
    /// Boxed: a grant that holds a key stays small to move.
    key: Secret<Box<SigningKey>>,
}

impl DpopKey {
    /// The key whose private scalar is `bytes` (32 random bytes, big-endian).
    ///
    /// Refused ([`AuthErrorKind::InvalidDpop`]): bytes that are not a P-256 scalar (zero, or
    /// not below the group order; for random bytes, this practically never happens).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<DpopKey, AuthError> {
        SigningKey::from_bytes(&(*bytes).into())
            .map(|key| DpopKey {
                key: Secret::new(Box::new(key)),
            })
            .map_err(|_| {
                AuthError::new(
                    AuthErrorKind::InvalidDpop,
                    "",
                    "the bytes given are not a P-256 private key",
                )
            })
    }

    /// The private key as base64url (no padding), for storage; read back by
    /// [`DpopKey::from_secret`].
    pub fn to_secret(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.key.expose_key().to_bytes())
    }

    /// Reads a key [`DpopKey::to_secret`] wrote.
    ///
    /// Refused ([`AuthErrorKind::InvalidDpop`]): text that is not the base64url of 32 bytes
    /// making a P-256 private key.
    pub fn from_secret(secret: &str) -> Result<DpopKey, AuthError> {
        let bytes: [u8; 32] = URL_SAFE_NO_PAD
            .decode(secret)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| {
                AuthError::new(
                    AuthErrorKind::InvalidDpop,
                    "",
                    "the stored DPoP key is not the base64url of 32 bytes",
                )
            })?;
        DpopKey::from_bytes(&bytes)
    }

    /// The public key as a JWK (RFC 7517), members in the order of RFC 7638:
    /// `{"crv":"P-256","kty":"EC","x":…,"y":…}`.
    pub fn public_jwk(&self) -> Map {
        let point = self
            .key
            .expose_key()
            .verifying_key()
            .to_encoded_point(false);
        let coordinate = |c: Option<&p256::FieldBytes>| {
            c.map(|bytes| URL_SAFE_NO_PAD.encode(bytes))
                .unwrap_or_default()
        };
        let mut jwk = Map::new();
        jwk.insert("crv", Value::from("P-256"));
        jwk.insert("kty", Value::from("EC"));
        jwk.insert("x", Value::from(coordinate(point.x())));
        jwk.insert("y", Value::from(coordinate(point.y())));
        jwk
    }

    /// The JWK thumbprint (RFC 7638) of the public key: base64url SHA-256 of its canonical
    /// JWK. An authorization server binds tokens to it (`cnf.jkt`, `dpop_jkt`).
    pub fn thumbprint(&self) -> String {
        URL_SAFE_NO_PAD.encode(Sha256::digest(self.public_jwk().to_json().as_bytes()))
    }

    /// A DPoP proof (the value of a `DPoP` header) for a `method` request to `url` at
    /// `now_ms`, with the `jti` made of `jti_bytes`; with `ath` when it carries
    /// `access_token`, and `nonce` when the server asked for one.
    ///
    /// `htu` is `url` without its query and fragment. Refused
    /// ([`AuthErrorKind::InvalidDpop`]): a method that is not an HTTP token, a `url` that is
    /// not absolute, fewer than [`MIN_JTI_BYTES`] or more than [`MAX_JTI_BYTES`] `jti`
    /// bytes, a nonce [`check_nonce`] refuses.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        now_ms: u64,
        jti_bytes: &[u8],
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, AuthError> {
        let invalid = |message: String| AuthError::new(AuthErrorKind::InvalidDpop, "", message);
        if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(invalid(format!(
                "the method {} is not an HTTP method in capitals",
                quote(method)
            )));
        }
        if !(MIN_JTI_BYTES..=MAX_JTI_BYTES).contains(&jti_bytes.len()) {
            return Err(invalid(format!(
                "a proof's jti is made of {MIN_JTI_BYTES} to {MAX_JTI_BYTES} random bytes, not {}",
                jti_bytes.len()
            )));
        }
        if let Some(nonce) = nonce {
            check_nonce(nonce)?;
        }
        let htu = htu(url).ok_or_else(|| {
            invalid(format!(
                "the URL {} of a DPoP proof is not absolute",
                quote(url)
            ))
        })?;
        let mut header = Map::new();
        header.insert("typ", Value::from("dpop+jwt"));
        header.insert("alg", Value::from(DPOP_ALG));
        header.insert("jwk", Value::Object(self.public_jwk()));
        let mut claims = Map::new();
        claims.insert("jti", Value::from(URL_SAFE_NO_PAD.encode(jti_bytes)));
        claims.insert("htm", Value::from(method));
        claims.insert("htu", Value::from(htu));
        claims.insert("iat", Value::from(now_ms / 1000));
        if let Some(token) = access_token {
            claims.insert("ath", Value::from(ath(token)));
        }
        if let Some(nonce) = nonce {
            claims.insert("nonce", Value::from(nonce));
        }
        Ok(jwt::sign(self.key.expose_key(), &header, &claims))
    }
}

/// `ath`: base64url SHA-256 of the access token (RFC 9449 §4.2).
pub fn ath(access_token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(access_token.as_bytes()))
}

/// `url` without its query and fragment, as a proof's `htu`; `None` when it is not an
/// absolute URL.
fn htu(url: &str) -> Option<String> {
    let mut parsed = Url::parse(url).ok()?;
    if parsed.cannot_be_a_base() {
        return None;
    }
    parsed.set_query(None);
    parsed.set_fragment(None);
    Some(parsed.into())
}

/// Checks a `DPoP-Nonce` a server sent before it is echoed in a proof: 1 to
/// [`MAX_NONCE_BYTES`] characters, each printable ASCII other than space, `"` and `\`
/// (RFC 9449 §8.1, `NQCHAR`).
///
/// Refused: [`AuthErrorKind::InvalidDpop`], the nonce itself left out of the message.
pub fn check_nonce(nonce: &str) -> Result<(), AuthError> {
    let usable = !nonce.is_empty()
        && nonce.len() <= MAX_NONCE_BYTES
        && nonce
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E));
    if usable {
        Ok(())
    } else {
        Err(AuthError::new(
            AuthErrorKind::InvalidDpop,
            "",
            format!(
                "the server's DPoP-Nonce ({} bytes) is empty, longer than {MAX_NONCE_BYTES} \
                 bytes or holds characters a nonce may not",
                nonce.len()
            ),
        ))
    }
}

/// The next `jti` bytes of a flow: SHA-256 of `seed` and `counter`, cut to 16 bytes.
pub(crate) fn derived_jti(seed: &[u8; 32], counter: u64) -> [u8; 16] {
    let mut hasher = Sha256::new();
    hasher.update(b"toolnexus-auth dpop jti");
    hasher.update(seed);
    hasher.update(counter.to_be_bytes());
    let digest = hasher.finalize();
    let mut jti = [0_u8; 16];
    for (to, from) in jti.iter_mut().zip(digest.iter()) {
        *to = *from;
    }
    jti
}

/// 32 bytes derived from a flow's `entropy` for `purpose` (a key, a jti seed).
pub(crate) fn derive(entropy: &[u8], purpose: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"toolnexus-auth dpop ");
    hasher.update(purpose.as_bytes());
    hasher.update([0]);
    hasher.update(entropy);
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::Signature;
    use p256::ecdsa::signature::Verifier;

    fn key() -> DpopKey {
        DpopKey::from_bytes(&[7; 32]).unwrap()
    }

    #[test]
    fn keys_round_trip_and_hide_themselves() {
        let k = key();
        let back = DpopKey::from_secret(&k.to_secret()).unwrap();
        assert_eq!(back, k);
        assert!(!format!("{k:?}").contains(&k.to_secret()));
        assert_eq!(k.thumbprint().len(), 43);
        assert!(DpopKey::from_bytes(&[0; 32]).is_err());
        assert!(DpopKey::from_bytes(&[0xff; 32]).is_err());
        assert!(DpopKey::from_secret("nope").is_err());
        assert!(DpopKey::from_secret("").is_err());
    }

    #[test]
    fn a_proof_is_signed_and_says_what_it_proves() {
        let k = key();
        let proof = k
            .proof(
                "POST",
                "https://as.example/token?x=1#f",
                1_700_000_000_999,
                &[1; 16],
                Some("tok"),
                Some("n-1"),
            )
            .unwrap();
        let parts: Vec<&str> = proof.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims = String::from_utf8(URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(
            claims,
            format!(
                r#"{{"jti":"AQEBAQEBAQEBAQEBAQEBAQ","htm":"POST","htu":"https://as.example/token","iat":1700000000,"ath":"{}","nonce":"n-1"}}"#,
                ath("tok")
            )
        );
        let sig = Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        let input = format!("{}.{}", parts[0], parts[1]);
        k.key
            .expose_key()
            .verifying_key()
            .verify(input.as_bytes(), &sig)
            .unwrap();
    }

    #[test]
    fn hostile_nonces_and_inputs_are_refused() {
        let k = key();
        for nonce in ["", "a b", "a\"b", "a\\b", "é", "a\nb", &"n".repeat(513)] {
            assert!(check_nonce(nonce).is_err(), "{nonce:?}");
            let e = k
                .proof("POST", "https://a/", 0, &[1; 16], None, Some(nonce))
                .unwrap_err();
            assert_eq!(e.kind(), AuthErrorKind::InvalidDpop);
        }
        assert!(check_nonce(&"n".repeat(512)).is_ok());
        assert!(
            k.proof("post", "https://a/", 0, &[1; 16], None, None)
                .is_err()
        );
        assert!(
            k.proof("POST", "/relative", 0, &[1; 16], None, None)
                .is_err()
        );
        assert!(
            k.proof("POST", "https://a/", 0, &[1; 15], None, None)
                .is_err()
        );
        assert!(
            k.proof("POST", "https://a/", 0, &[1; 65], None, None)
                .is_err()
        );
    }

    #[test]
    fn derived_jtis_differ() {
        assert_ne!(derived_jti(&[1; 32], 0), derived_jti(&[1; 32], 1));
        assert_ne!(derive(b"e", "key"), derive(b"e", "jti"));
    }
}
