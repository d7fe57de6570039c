//! Spotting form fields that ask for a secret, which the specification forbids in form mode.
//!
//! MCP servers MUST NOT use form mode to ask for passwords, API keys, access tokens or
//! payment data; those belong in URL mode, where the person types them into the service's own
//! page and the client never sees them. A client cannot know what a field is for, so this
//! module looks at the words of its name, title and description and flags the field when
//! they name a secret:
//!
//! | [`SecretKind`] | words matched (case-insensitive; `camelCase`, `snake_case`, `kebab-case` and spaces all split into words) |
//! |---|---|
//! | `password` | password, passwd, passphrase, passcode, pwd, and the words run together (`newpassword`) |
//! | `pin` | pin, pincode |
//! | `api_key` | api key, apikey, access key, client secret, app secret |
//! | `token` | token, tokens, bearer, and run-together forms (`accesstoken`, `authtoken`) |
//! | `secret` | secret, secrets, credential, credentials |
//! | `private_key` | private key, privatekey, seed phrase, mnemonic |
//! | `card_number` | card number, cardnumber, credit card, debit card, ccnumber, pan |
//! | `card_security_code` | cvv, cvv2, cvc, cvc2, csc, security code |
//! | `ssn` | ssn, social security number |
//! | `bank_account` | iban, routing number, account number together with bank |
//!
//! [`form_fields`](crate::form::form_fields) marks such fields `sensitive` so a UI can warn;
//! [`reject_secrets`] is the stricter policy that refuses the whole form.
//!
//! # False positives and misses
//!
//! It is a word heuristic, so it errs both ways, and a host should treat it as a warning
//! unless it chose the reject policy knowingly:
//!
//! - A description that mentions a secret to reassure ("we never ask for your password") or a
//!   field about one rather than for one ("Did you forget your password?" as a yes/no) is
//!   flagged.
//! - Other meanings of the words are flagged: a map *pin*, a *token* count or a crypto token's
//!   name, a *secret* Santa, a *PAN* that is an Indian tax id, a *pwd* that is a directory.
//! - A secret asked for in other words ("the characters you were sent", a field called `x`)
//!   or in another language is missed. Only English words are matched.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, closed_set};
use crate::json::pointer;
use crate::schema::{Property, RequestedSchema};

closed_set! {
    /// The kinds of secret the heuristic recognises, named in snake case.
    #[non_exhaustive]
    pub enum SecretKind {
        /// A password, passphrase or passcode.
        Password => "password",
        /// A personal identification number.
        Pin => "pin",
        /// An API key, access key or client secret.
        ApiKey => "api_key",
        /// An access, bearer or session token.
        Token => "token",
        /// A secret or credential of another kind.
        Secret => "secret",
        /// A private key or wallet seed phrase.
        PrivateKey => "private_key",
        /// A payment card number.
        CardNumber => "card_number",
        /// A card's security code (CVV, CVC).
        CardSecurityCode => "card_security_code",
        /// A social security number.
        Ssn => "ssn",
        /// A bank account number or IBAN.
        BankAccount => "bank_account",
    }
}

impl SecretKind {
    /// How to name this kind in a sentence.
    pub const fn describe(self) -> &'static str {
        match self {
            SecretKind::Password => "a password",
            SecretKind::Pin => "a PIN",
            SecretKind::ApiKey => "an API key",
            SecretKind::Token => "an access token",
            SecretKind::Secret => "a secret or credential",
            SecretKind::PrivateKey => "a private key",
            SecretKind::CardNumber => "a payment card number",
            SecretKind::CardSecurityCode => "a card security code",
            SecretKind::Ssn => "a social security number",
            SecretKind::BankAccount => "a bank account number",
        }
    }
}

/// Single words that name a secret on their own.
const WORDS: &[(&str, SecretKind)] = &[
    ("password", SecretKind::Password),
    ("passwords", SecretKind::Password),
    ("passwd", SecretKind::Password),
    ("passphrase", SecretKind::Password),
    ("passcode", SecretKind::Password),
    ("pwd", SecretKind::Password),
    ("pin", SecretKind::Pin),
    ("pincode", SecretKind::Pin),
    ("apikey", SecretKind::ApiKey),
    ("accesskey", SecretKind::ApiKey),
    ("clientsecret", SecretKind::ApiKey),
    ("token", SecretKind::Token),
    ("tokens", SecretKind::Token),
    ("bearer", SecretKind::Token),
    ("secret", SecretKind::Secret),
    ("secrets", SecretKind::Secret),
    ("credential", SecretKind::Secret),
    ("credentials", SecretKind::Secret),
    ("privatekey", SecretKind::PrivateKey),
    ("mnemonic", SecretKind::PrivateKey),
    ("cardnumber", SecretKind::CardNumber),
    ("creditcard", SecretKind::CardNumber),
    ("debitcard", SecretKind::CardNumber),
    ("ccnumber", SecretKind::CardNumber),
    ("pan", SecretKind::CardNumber),
    ("cvv", SecretKind::CardSecurityCode),
    ("cvv2", SecretKind::CardSecurityCode),
    ("cvc", SecretKind::CardSecurityCode),
    ("cvc2", SecretKind::CardSecurityCode),
    ("csc", SecretKind::CardSecurityCode),
    ("ssn", SecretKind::Ssn),
    ("iban", SecretKind::BankAccount),
];

/// Pairs of consecutive words that name a secret together.
const PAIRS: &[(&str, &str, SecretKind)] = &[
    ("api", "key", SecretKind::ApiKey),
    ("access", "key", SecretKind::ApiKey),
    ("client", "secret", SecretKind::ApiKey),
    ("app", "secret", SecretKind::ApiKey),
    ("private", "key", SecretKind::PrivateKey),
    ("seed", "phrase", SecretKind::PrivateKey),
    ("card", "number", SecretKind::CardNumber),
    ("credit", "card", SecretKind::CardNumber),
    ("debit", "card", SecretKind::CardNumber),
    ("cc", "number", SecretKind::CardNumber),
    ("security", "code", SecretKind::CardSecurityCode),
    ("social", "security", SecretKind::Ssn),
    ("routing", "number", SecretKind::BankAccount),
    ("bank", "account", SecretKind::BankAccount),
];

/// Word endings that name a secret when run together with another word
/// (`newpassword`, `accesstoken`), checked only on words longer than the ending.
const ENDINGS: &[(&str, SecretKind)] = &[
    ("password", SecretKind::Password),
    ("passwd", SecretKind::Password),
    ("passphrase", SecretKind::Password),
    ("passcode", SecretKind::Password),
    ("token", SecretKind::Token),
    ("apikey", SecretKind::ApiKey),
    ("secret", SecretKind::Secret),
];

/// The kind of secret `text` names, if its words name one.
pub fn secret_in_text(text: &str) -> Option<SecretKind> {
    let words = words(text);
    let mut previous: Option<&str> = None;
    for word in &words {
        // A pair is more specific than its last word: `client secret` is an API credential,
        // not a secret of some other kind.
        if let Some(prev) = previous
            && let Some((_, _, kind)) = PAIRS.iter().find(|(a, b, _)| *a == prev && b == word)
        {
            return Some(*kind);
        }
        if let Some((_, kind)) = WORDS.iter().find(|(w, _)| w == word) {
            return Some(*kind);
        }
        if let Some((_, kind)) = ENDINGS
            .iter()
            .find(|(end, _)| word.len() > end.len() && word.ends_with(end))
        {
            return Some(*kind);
        }
        previous = Some(word);
    }
    None
}

/// The kind of secret `property` seems to ask for, judged from its name, then its title,
/// then its description.
pub fn secret_in_property(property: &Property) -> Option<SecretKind> {
    secret_in_text(property.name())
        .or_else(|| property.title().and_then(secret_in_text))
        .or_else(|| property.description().and_then(secret_in_text))
}

/// A field that seems to ask for a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SensitiveField {
    name: String,
    kind: SecretKind,
}

impl SensitiveField {
    pub(crate) fn new(name: String, kind: SecretKind) -> SensitiveField {
        SensitiveField { name, kind }
    }

    /// The property's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What kind of secret it seems to ask for.
    pub fn kind(&self) -> SecretKind {
        self.kind
    }
}

/// Every property of `schema` that seems to ask for a secret, in schema order.
pub fn sensitive_fields(schema: &RequestedSchema) -> Vec<SensitiveField> {
    schema
        .properties()
        .iter()
        .filter_map(|p| {
            Some(SensitiveField {
                name: String::from(p.name()),
                kind: secret_in_property(p)?,
            })
        })
        .collect()
}

/// The reject policy: `Ok` when no property seems to ask for a secret, else an
/// [`ErrorKind::SensitiveField`] error at the first such property
/// (`/properties/<name>`), for a host that refuses such forms outright rather than warn.
pub fn reject_secrets(schema: &RequestedSchema) -> Result<(), Error> {
    match schema
        .properties()
        .iter()
        .find_map(|p| Some((p.name(), secret_in_property(p)?)))
    {
        None => Ok(()),
        Some((name, kind)) => Err(sensitive_error(name, Some(kind))),
    }
}

/// The [`ErrorKind::SensitiveField`] error for the field `name`, at `/properties/<name>`.
pub(crate) fn sensitive_error(name: &str, kind: Option<SecretKind>) -> Error {
    let mut at = String::from("/properties");
    pointer::push_key(&mut at, name);
    Error::new(
        ErrorKind::SensitiveField,
        at,
        alloc::format!(
            "the field {:?} seems to ask for {}; secrets must not be requested in a form (the \
             server should use a URL-mode elicitation instead)",
            name,
            kind.map_or("a secret", SecretKind::describe)
        ),
    )
}

/// The lowercase words of `text`: letters and digits, split at everything else and where a
/// lowercase letter or digit meets an uppercase one (`apiKey`, `APIKey` → `api`, `key`).
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    let mut previous: Option<char> = None;
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut words, &mut current);
            previous = None;
            continue;
        }
        if let Some(p) = previous {
            let lower_to_upper = (p.is_lowercase() || p.is_numeric()) && c.is_uppercase();
            // The last capital of a run starts the next word: `APIKey` is `API` + `Key`.
            let acronym_end = p.is_uppercase()
                && c.is_uppercase()
                && chars.peek().is_some_and(|n| n.is_lowercase());
            if lower_to_upper || acronym_end {
                flush(&mut words, &mut current);
            }
        }
        current.extend(c.to_lowercase());
        previous = Some(c);
    }
    flush(&mut words, &mut current);
    words
}

fn flush(words: &mut Vec<String>, current: &mut String) {
    if !current.is_empty() {
        words.push(core::mem::take(current));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<&'static str> {
        secret_in_text(text).map(SecretKind::as_str)
    }

    #[test]
    fn splits_every_naming_style_into_words() {
        assert_eq!(words("apiKey"), ["api", "key"]);
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("api_key-v2 Name"), ["api", "key", "v2", "name"]);
        assert_eq!(words("cardNumber2"), ["card", "number2"]);
        assert_eq!(words("  "), Vec::<String>::new());
    }

    #[test]
    fn names_secrets_in_names_titles_and_sentences() {
        assert_eq!(kind("password"), Some("password"));
        assert_eq!(kind("newPassword"), Some("password"));
        assert_eq!(kind("new_password_confirm"), Some("password"));
        assert_eq!(kind("Your PIN"), Some("pin"));
        assert_eq!(kind("OPENAI_API_KEY"), Some("api_key"));
        assert_eq!(kind("githubAccessToken"), Some("token"));
        assert_eq!(kind("accesstoken"), Some("token"));
        assert_eq!(kind("Card number"), Some("card_number"));
        assert_eq!(kind("CVV"), Some("card_security_code"));
        assert_eq!(kind("SSN"), Some("ssn"));
        assert_eq!(kind("Social Security Number"), Some("ssn"));
        assert_eq!(kind("IBAN"), Some("bank_account"));
        assert_eq!(kind("client_secret"), Some("api_key"));
    }

    #[test]
    fn leaves_ordinary_fields_alone() {
        for text in [
            "name",
            "email",
            "Spinach",
            "opinion",
            "company",
            "keyboard layout",
            "tokenizer",
            "passport country",
            "Your favourite colour",
            "",
        ] {
            assert_eq!(kind(text), None, "{text:?}");
        }
    }

    #[test]
    fn documented_false_positives_are_flagged() {
        assert_eq!(kind("We never ask for your password"), Some("password"));
        assert_eq!(kind("Drop a pin on the map"), Some("pin"));
    }
}
