//! Secrets in forms: `sensitive_fields` flags fields that seem to ask for one, and
//! `reject_secrets` refuses such a form outright.

use toolnexus_core::form::Form as CoreForm;
use toolnexus_core::form::secrets::{self, SecretKind as CoreKind};

use crate::error::ToolnexusError;
use crate::json_text::read_form;
use crate::limits::Limits;
use crate::mirror::mirror_enum;

mirror_enum! {
    /// The kinds of secret the heuristic recognises.
    pub enum SecretKind mirrors CoreKind, else Secret {
        /// A password, passphrase or passcode.
        Password,
        /// A personal identification number.
        Pin,
        /// An API key, access key or client secret.
        ApiKey,
        /// An access, bearer or session token.
        Token,
        /// A secret or credential of another kind.
        Secret,
        /// A private key or wallet seed phrase.
        PrivateKey,
        /// A payment card number.
        CardNumber,
        /// A card's security code (CVV, CVC).
        CardSecurityCode,
        /// A social security number.
        Ssn,
        /// A bank account number or IBAN.
        BankAccount,
    }
}

/// A field that seems to ask for a secret, which servers must not do in a form.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SensitiveField {
    /// The property's name.
    pub name: String,
    /// What kind of secret it seems to ask for.
    pub kind: SecretKind,
}

/// Every property of the `requestedSchema` `schema_json` that seems to ask for a secret,
/// judged from its name, then its title, then its description; in schema order.
#[uniffi::export(default(limits = None))]
pub fn sensitive_fields(
    schema_json: String,
    limits: Option<Limits>,
) -> Result<Vec<SensitiveField>, ToolnexusError> {
    Ok(sensitive(&read_form(&schema_json, limits)?))
}

/// The form's sensitive fields as records.
pub(crate) fn sensitive(form: &CoreForm) -> Vec<SensitiveField> {
    form.sensitive_fields()
        .iter()
        .map(|f: &secrets::SensitiveField| SensitiveField {
            name: f.name().into(),
            kind: SecretKind::from_core(f.kind()),
        })
        .collect()
}

/// The reject policy: returns when no property seems to ask for a secret, else fails with
/// `SensitiveField` at the first such property (`/properties/<name>`).
#[uniffi::export(default(limits = None))]
pub fn reject_secrets(schema_json: String, limits: Option<Limits>) -> Result<(), ToolnexusError> {
    Ok(read_form(&schema_json, limits)?.reject_secrets()?)
}

#[uniffi::export]
impl SecretKind {
    /// How to name this kind in a sentence (`a password`, `an API key`, …).
    pub fn describe(&self) -> String {
        self.to_core().describe().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_keeps_its_core_name() {
        let names = [
            (SecretKind::Password, "password"),
            (SecretKind::Pin, "pin"),
            (SecretKind::ApiKey, "api_key"),
            (SecretKind::Token, "token"),
            (SecretKind::Secret, "secret"),
            (SecretKind::PrivateKey, "private_key"),
            (SecretKind::CardNumber, "card_number"),
            (SecretKind::CardSecurityCode, "card_security_code"),
            (SecretKind::Ssn, "ssn"),
            (SecretKind::BankAccount, "bank_account"),
        ];
        for (kind, name) in names {
            assert_eq!(kind.as_str(), name);
            assert_eq!(SecretKind::from_core(kind.to_core()), kind);
        }
    }
}
