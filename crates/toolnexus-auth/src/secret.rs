//! [`Secret`]: every token, code, verifier, client secret, assertion and private key the crate
//! holds, behind a `Debug` form that shows none of it, no `Display`, and one accessor.

use std::fmt;

use p256::ecdsa::SigningKey;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// A value that acts for whoever holds it: an access or refresh token, an authorization code,
/// a PKCE verifier, a client secret, a JWT presented as a grant or an assertion, an ID token,
/// a DPoP proof, or a private key.
///
/// Its `Debug` form is `Secret(…)` whatever it holds, so that any type holding one derives
/// `Debug` and shows no secret; it has no `Display`. The value is read with
/// [`Secret::expose`], a name to search for. Two secrets compare in constant time, and text is
/// wiped from memory when the secret is dropped.
///
/// ```
/// use toolnexus_auth::Secret;
///
/// let token = Secret::from("tok-123");
/// assert_eq!(format!("{token:?}"), "Secret(…)");
/// assert_eq!(token.expose(), "tok-123");
/// ```
#[derive(Clone)]
pub struct Secret<T: Held = String>(T);

/// What a [`Secret`] may hold: text, a private key or 32 bytes of a seed. Sealed: only this
/// crate says what a secret holds.
pub trait Held: sealed::Sealed + Clone {
    /// Overwrites the value before its memory is freed.
    fn wipe(&mut self);
    /// Whether `self` and `other` are equal, in time that does not depend on where they differ.
    fn same(&self, other: &Self) -> bool;
}

/// Keeps [`Held`] to the kinds this module knows.
mod sealed {
    pub trait Sealed {}
    impl Sealed for String {}
    impl Sealed for Box<p256::ecdsa::SigningKey> {}
    impl Sealed for [u8; 32] {}
}

impl Held for String {
    fn wipe(&mut self) {
        self.zeroize();
    }

    fn same(&self, other: &String) -> bool {
        self.as_bytes().ct_eq(other.as_bytes()).into()
    }
}

impl Held for Box<SigningKey> {
    /// The key wipes its own scalar when dropped.
    fn wipe(&mut self) {}

    fn same(&self, other: &Box<SigningKey>) -> bool {
        (**self).ct_eq(&**other).into()
    }
}

impl Held for [u8; 32] {
    fn wipe(&mut self) {
        self.zeroize();
    }

    fn same(&self, other: &[u8; 32]) -> bool {
        self.ct_eq(other).into()
    }
}

impl<T: Held> Secret<T> {
    /// `value`, kept secret.
    pub fn new(value: T) -> Secret<T> {
        Secret(value)
    }
}

impl Secret<String> {
    /// The text: to send it where it belongs, or to store it as a secret. Never to show it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl Secret<Box<SigningKey>> {
    /// The private key, to sign with.
    pub(crate) fn expose_key(&self) -> &SigningKey {
        &self.0
    }
}

impl Secret<[u8; 32]> {
    /// The bytes.
    pub(crate) fn expose_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl<T: Held> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl<T: Held> PartialEq for Secret<T> {
    fn eq(&self, other: &Secret<T>) -> bool {
        self.0.same(&other.0)
    }
}

impl<T: Held> Eq for Secret<T> {}

impl<T: Held> Drop for Secret<T> {
    fn drop(&mut self) {
        self.0.wipe();
    }
}

impl From<String> for Secret<String> {
    fn from(text: String) -> Secret<String> {
        Secret(text)
    }
}

impl From<&str> for Secret<String> {
    fn from(text: &str) -> Secret<String> {
        Secret(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_nothing_and_expose_shows_all() {
        let secret = Secret::from("hunter2");
        assert_eq!(format!("{secret:?}"), "Secret(…)");
        assert_eq!(
            format!("{:#?}", Some(secret.clone())),
            "Some(\n    Secret(…),\n)"
        );
        assert_eq!(secret.expose(), "hunter2");
        assert_eq!(secret, Secret::from(String::from("hunter2")));
        assert_ne!(secret, Secret::from("hunter3"));
        assert_ne!(secret, Secret::from("hunter22"));
        assert_eq!(Secret::new([7; 32]).expose_bytes(), &[7; 32]);
        assert_ne!(Secret::new([7; 32]), Secret::new([8; 32]));
        assert_eq!(format!("{:?}", Secret::new([7; 32])), "Secret(…)");
    }
}
