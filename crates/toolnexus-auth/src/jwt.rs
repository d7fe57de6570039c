//! Compact JWS signing with ES256 (RFC 7515, RFC 7518 §3.4): the one way this crate writes a
//! JWT, for DPoP proofs and client assertions alike.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use toolnexus_core::json::Map;

/// The JWT of `header` and `claims` signed with `key`: base64url of each, joined by `.`,
/// then the base64url of the fixed-size (r, s) signature. Signing is deterministic
/// (RFC 6979).
pub(crate) fn sign(key: &SigningKey, header: &Map, claims: &Map) -> String {
    let signing_input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_json().as_bytes()),
        URL_SAFE_NO_PAD.encode(claims.to_json().as_bytes())
    );
    let signature: Signature = key.sign(signing_input.as_bytes());
    format!(
        "{signing_input}.{}",
        URL_SAFE_NO_PAD.encode(signature.to_bytes())
    )
}
