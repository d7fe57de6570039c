//! A client's own signing key for `private_key_jwt` client authentication (RFC 7523 §2.2,
//! OpenID Connect Core §9): a [`ClientKey`] read from PEM, and the client assertions it signs.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::SecretKey;
use p256::ecdsa::SigningKey;
use p256::pkcs8::DecodePrivateKey;
use toolnexus_core::json::{Map, Value};

use crate::error::{AuthError, AuthErrorKind};
use crate::jwt;
use crate::secret::Secret;

/// The `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
pub const CLIENT_ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// The one algorithm a [`ClientKey`] signs with.
pub const CLIENT_KEY_ALG: &str = "ES256";

/// How long a client assertion is valid, in seconds: long enough for a slow round trip, short
/// enough that a captured one is soon useless.
const ASSERTION_LIFETIME_S: u64 = 60;

/// The longest PEM text read, in bytes: a P-256 key is a few hundred.
const MAX_PEM_BYTES: usize = 16 * 1024;

/// A P-256 private key registered with the authorization server (its public half in the
/// client's `jwks` or `jwks_uri`), with which the client signs the JWT it authenticates with
/// at the token endpoint.
///
/// Its `Debug` form shows nothing of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientKey {
    /// Boxed: a configuration that holds a key stays small to move.
    key: Secret<Box<SigningKey>>,
}

impl ClientKey {
    /// Reads a P-256 private key from PEM: PKCS#8 (`BEGIN PRIVATE KEY`, as `openssl genpkey`
    /// writes it) or SEC1 (`BEGIN EC PRIVATE KEY`, as `openssl ecparam -genkey` does).
    ///
    /// Refused ([`AuthErrorKind::InvalidConfig`], the text itself never quoted): text over
    /// 16 KiB, text that is neither form, a key of another curve or algorithm.
    pub fn from_pem(pem: &str) -> Result<ClientKey, AuthError> {
        let refused = |why: &str| {
            AuthError::new(
                AuthErrorKind::InvalidConfig,
                "/client_key",
                format!("the client key is not usable: {why}"),
            )
        };
        if pem.len() > MAX_PEM_BYTES {
            return Err(refused("the PEM text is longer than 16 KiB"));
        }
        let pem = pem.trim();
        let key = if pem.starts_with("-----BEGIN EC PRIVATE KEY-----") {
            SecretKey::from_sec1_pem(pem)
                .map(SigningKey::from)
                .map_err(|_| refused("the SEC1 PEM text does not hold a P-256 private key"))?
        } else if pem.starts_with("-----BEGIN PRIVATE KEY-----") {
            SigningKey::from_pkcs8_pem(pem)
                .map_err(|_| refused("the PKCS#8 PEM text does not hold a P-256 (ES256) key"))?
        } else {
            return Err(refused(
                "it is not PEM text beginning with `-----BEGIN PRIVATE KEY-----` or \
                 `-----BEGIN EC PRIVATE KEY-----`",
            ));
        };
        Ok(ClientKey {
            key: Secret::new(Box::new(key)),
        })
    }

    /// The client assertion of `client_id` for the authorization server `audience` (its
    /// issuer identifier) at `now_ms`, its `jti` made of `jti_bytes`: a JWT whose `iss` and
    /// `sub` are the client id, valid for a minute.
    pub(crate) fn assertion(
        &self,
        client_id: &str,
        audience: &str,
        now_ms: u64,
        jti_bytes: &[u8],
    ) -> String {
        let now = now_ms / 1000;
        let mut header = Map::new();
        header.insert("alg", Value::from(CLIENT_KEY_ALG));
        header.insert("typ", Value::from("JWT"));
        let mut claims = Map::new();
        claims.insert("iss", Value::from(client_id));
        claims.insert("sub", Value::from(client_id));
        claims.insert("aud", Value::from(audience));
        claims.insert("iat", Value::from(now));
        claims.insert("exp", Value::from(now.saturating_add(ASSERTION_LIFETIME_S)));
        claims.insert("jti", Value::from(URL_SAFE_NO_PAD.encode(jti_bytes)));
        jwt::sign(self.key.expose_key(), &header, &claims)
    }

    /// The public key, uncompressed SEC1 bytes: what a test or a registration compares.
    pub fn public_key_sec1(&self) -> Vec<u8> {
        self.key
            .expose_key()
            .verifying_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::{Signature, VerifyingKey};

    /// A P-256 key in PKCS#8 PEM (made for these tests with `openssl genpkey`).
    const PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgonwAeLdCrIpcSy4R
g/VfNpdd61z5sCWDj1nEvXZVYRehRANCAAR/Mo/opqpum8FrPwClOYszWP1vOzab
e4YpwVR5FuPw0ICfZLuezVUyPsKngNuLKahQlDOVI9NTEBDzu0chvUQy
-----END PRIVATE KEY-----";

    fn decode(part: &str) -> Value {
        let bytes = URL_SAFE_NO_PAD.decode(part).unwrap_or_default();
        toolnexus_core::json::parse(&bytes, &toolnexus_core::json::Limits::DEFAULT)
            .unwrap_or(Value::Null)
    }

    #[test]
    fn signs_a_verifiable_assertion() {
        let key = ClientKey::from_pem(PKCS8).expect("a PKCS#8 P-256 key");
        let jwt = key.assertion(
            "client-7",
            "https://as.example",
            1_700_000_000_500,
            &[7; 16],
        );
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        assert_eq!(
            decode(parts.first().copied().unwrap_or_default()).to_json(),
            r#"{"alg":"ES256","typ":"JWT"}"#
        );
        assert_eq!(
            decode(parts.get(1).copied().unwrap_or_default()).to_json(),
            r#"{"iss":"client-7","sub":"client-7","aud":"https://as.example","iat":1700000000,"exp":1700000060,"jti":"BwcHBwcHBwcHBwcHBwcHBw"}"#
        );
        let verifying =
            VerifyingKey::from_sec1_bytes(&key.public_key_sec1()).expect("a public key");
        let signature = URL_SAFE_NO_PAD
            .decode(parts.get(2).copied().unwrap_or_default())
            .ok()
            .and_then(|b| Signature::from_slice(&b).ok())
            .expect("a 64-byte signature");
        let input = jwt.rsplit_once('.').map(|(i, _)| i).unwrap_or_default();
        assert!(verifying.verify(input.as_bytes(), &signature).is_ok());
    }

    #[test]
    fn reads_sec1_as_the_same_key() {
        let pkcs8 = ClientKey::from_pem(PKCS8).expect("a PKCS#8 key");
        let sec1 = p256::SecretKey::from_pkcs8_pem(PKCS8)
            .and_then(|k| {
                k.to_sec1_pem(p256::pkcs8::LineEnding::LF)
                    .map_err(|_| p256::pkcs8::Error::KeyMalformed)
            })
            .expect("SEC1 PEM");
        assert_eq!(ClientKey::from_pem(&sec1), Ok(pkcs8));
    }

    #[test]
    fn refuses_what_is_not_a_p256_key() {
        for text in [
            "",
            "not pem",
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----\n!!\n-----END EC PRIVATE KEY-----",
            &"A".repeat(MAX_PEM_BYTES + 1),
        ] {
            let error = ClientKey::from_pem(text).expect_err("refused");
            assert_eq!(error.kind(), AuthErrorKind::InvalidConfig);
            assert_eq!(error.pointer(), "/client_key");
        }
    }

    #[test]
    fn debug_shows_nothing_of_the_key() {
        let key = ClientKey::from_pem(PKCS8).expect("a key");
        assert_eq!(format!("{key:?}"), "ClientKey { key: Secret(…) }");
    }
}
