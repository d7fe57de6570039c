//! PKCE (RFC 7636) with `S256`, and the `state` of an authorization request, both made from
//! randomness the caller gives: this crate draws none itself.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use crate::secret::Secret;

/// The secrets of one authorization request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pkce {
    /// The code verifier: 43 characters of base64url (RFC 7636 §4.1), sent to the token
    /// endpoint only.
    pub(crate) verifier: Secret,
    /// The `state` the redirect must carry back: 43 characters of base64url.
    pub(crate) state: String,
}

impl Pkce {
    /// The verifier from the first 32 bytes of `entropy` (256 bits), the state from a hash of
    /// the last 32: even entropy whose halves are equal never puts verifier bytes in the
    /// authorization URL.
    pub(crate) fn from_entropy(entropy: &[u8; 64]) -> Pkce {
        let (verifier, state) = entropy.split_at(32);
        let mut hash = Sha256::new();
        hash.update(b"toolnexus-auth state\0");
        hash.update(state);
        Pkce {
            verifier: Secret::from(URL_SAFE_NO_PAD.encode(verifier)),
            state: URL_SAFE_NO_PAD.encode(hash.finalize()),
        }
    }

    /// The code challenge: base64url of the SHA-256 of the verifier (RFC 7636 §4.2, `S256`).
    pub(crate) fn challenge(&self) -> String {
        URL_SAFE_NO_PAD.encode(Sha256::digest(self.verifier.expose().as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_7636_appendix_b() {
        // The example of RFC 7636 Appendix B: these 32 octets give this verifier and challenge.
        let octets: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let mut entropy = [0u8; 64];
        entropy[..32].copy_from_slice(&octets);
        let pkce = Pkce::from_entropy(&entropy);
        assert_eq!(
            pkce.verifier.expose(),
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        );
        assert_eq!(
            pkce.challenge(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn verifier_and_state_are_base64url_of_the_right_length() {
        let entropy: [u8; 64] = core::array::from_fn(|i| (i * 37) as u8);
        let pkce = Pkce::from_entropy(&entropy);
        for text in [pkce.verifier.expose(), &pkce.state] {
            assert_eq!(text.len(), 43);
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
        }
        assert_ne!(pkce.verifier.expose(), pkce.state);
        assert!(!format!("{pkce:?}").contains(pkce.verifier.expose()));
        let same = Pkce::from_entropy(&[9; 64]);
        assert_ne!(same.verifier.expose(), same.state);
        assert_ne!(Pkce::from_entropy(&[8; 64]).state, same.state);
    }
}
