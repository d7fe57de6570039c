//! Which options each grant needs and which are stray: one rule for every host, from the
//! options named, whatever a host calls them.
//!
//! A host's options (the CLI's flags, Python's keywords, a phone app's fields) name the same
//! things: [`AuthOption`]. A host says which it was given and which grant it asks for
//! ([`GrantKind`]); [`check_options`] answers with the first [`OptionProblem`], which the host
//! words with its own spelling of each option and grant ([`OptionProblem::message`]):
//!
//! ```
//! use toolnexus_auth::{AuthOption, GrantKind, check_options};
//!
//! let given = [AuthOption::ClientId, AuthOption::ClientSecret];
//! let problem = check_options(GrantKind::ClientCredentials, &given).unwrap_err();
//! let flag = |option: AuthOption| format!("--{}", option.as_str().replace('_', "-"));
//! let grant = |grant: GrantKind| format!("--grant {}", grant.as_str().replace('_', "-"));
//! assert_eq!(problem.option(), AuthOption::ClientIssuer);
//! assert_eq!(
//!     problem.message(flag, grant),
//!     "--client-secret is sent only to the authorization server it belongs to: bind it with \
//!      --client-issuer, that server's issuer, or the MCP server could name its own"
//! );
//! ```
//!
//! The rules, in the order they are checked:
//! - **Stray**: `assertion` is for the JWT bearer grant alone; `id_token`,
//!   `idp_token_endpoint`, `idp_client_id` and `idp_client_secret` for the enterprise grant.
//! - **Missing**: client credentials need `client_id` and `client_secret` or `client_key`; the
//!   JWT bearer grant needs `assertion`; the enterprise grant needs `client_id`, `id_token` and
//!   `idp_token_endpoint`.
//! - **Needs**: `client_secret`, `client_key` and `client_issuer` need `client_id` (the JWT
//!   bearer grant may bind an issuer without a client); `idp_client_secret` needs
//!   `idp_client_id`.
//! - **Bound**: a client secret, a client key, a workload's JWT and an enterprise exchange
//!   are confidential: they need `client_issuer`, the one authorization server they go to.

use toolnexus_core::closed_set;

pub use crate::grant_type::GrantKind;

closed_set! {
    /// An option of the authorization flow, as every host names it in its own way.
    pub enum AuthOption {
        /// A pre-registered client's id.
        ClientId => "client_id",
        /// Its secret.
        ClientSecret => "client_secret",
        /// The issuer of the authorization server it belongs to.
        ClientIssuer => "client_issuer",
        /// The URL of the client's metadata document.
        ClientMetadataUrl => "client_metadata_url",
        /// Its private key, for `private_key_jwt`.
        ClientKey => "client_key",
        /// The workload's JWT (the JWT bearer grant).
        Assertion => "assertion",
        /// The person's ID token (the enterprise grant).
        IdToken => "id_token",
        /// The identity provider's token endpoint (the enterprise grant).
        IdpTokenEndpoint => "idp_token_endpoint",
        /// The client's id at the identity provider (the enterprise grant).
        IdpClientId => "idp_client_id",
        /// Its secret there (the enterprise grant).
        IdpClientSecret => "idp_client_secret",
    }
}

impl AuthOption {
    /// Where the option is in a [`Config`](crate::Config), as a JSON pointer: the pointer of
    /// the `invalid_config` error a problem with it gives, in every host.
    pub const fn pointer(self) -> &'static str {
        match self {
            AuthOption::ClientId => "/client_id",
            AuthOption::ClientSecret => "/client_secret",
            AuthOption::ClientIssuer => "/client_issuer",
            AuthOption::ClientMetadataUrl => "/client_metadata_url",
            AuthOption::ClientKey => "/client_key",
            AuthOption::Assertion => "/grant/assertion",
            AuthOption::IdToken => "/grant/id_token",
            AuthOption::IdpTokenEndpoint => "/grant/token_endpoint",
            AuthOption::IdpClientId => "/grant/client_id",
            AuthOption::IdpClientSecret => "/grant/client_secret",
        }
    }
}

/// What is wrong with the options given for a grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionProblem {
    /// `option` belongs to another grant, `grant`.
    Stray {
        /// The option given.
        option: AuthOption,
        /// The grant it is for.
        grant: GrantKind,
    },
    /// `grant` needs every one of `all`, or one of `any` when `all` is empty.
    Missing {
        /// The grant asked for.
        grant: GrantKind,
        /// Options it needs each of.
        all: Vec<AuthOption>,
        /// Options it needs one of.
        any: Vec<AuthOption>,
    },
    /// `option` was given without `needs`.
    Needs {
        /// The option given.
        option: AuthOption,
        /// The option it needs.
        needs: AuthOption,
    },
    /// `option` is confidential and no `client_issuer` binds it to an authorization server.
    Unbound {
        /// The confidential option (for the JWT bearer and enterprise grants, the option
        /// that carries what they present).
        option: AuthOption,
    },
}

impl OptionProblem {
    /// The option to point at: the one given that cannot go as it is (stray, or without the
    /// option it needs), or the one to add (missing, or `client_issuer` to bind a secret).
    pub fn option(&self) -> AuthOption {
        match self {
            OptionProblem::Stray { option, .. } => *option,
            OptionProblem::Missing { all, any, .. } => all
                .first()
                .or(any.first())
                .copied()
                .unwrap_or(AuthOption::ClientId),
            OptionProblem::Needs { option, .. } => *option,
            OptionProblem::Unbound { .. } => AuthOption::ClientIssuer,
        }
    }

    /// The problem in words, each option and grant spelled as the host spells it.
    pub fn message(
        &self,
        option: impl Fn(AuthOption) -> String,
        grant: impl Fn(GrantKind) -> String,
    ) -> String {
        let list = |options: &[AuthOption], joint: &str| {
            let names: Vec<String> = options.iter().map(|o| option(*o)).collect();
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} {joint} {last}", rest.join(", "))
                }
                Some((last, _)) => last.clone(),
                None => String::new(),
            }
        };
        match self {
            OptionProblem::Stray {
                option: o,
                grant: g,
            } => {
                format!("{} is for {}", option(*o), grant(*g))
            }
            OptionProblem::Missing { grant: g, all, any } => {
                let mut needed = list(all, "and");
                if !any.is_empty() {
                    if !needed.is_empty() {
                        needed.push_str(" and ");
                    }
                    needed.push_str(&list(any, "or"));
                }
                format!("{} needs {needed}", grant(*g))
            }
            OptionProblem::Needs { option: o, needs } => {
                format!("{} needs {}", option(*o), option(*needs))
            }
            OptionProblem::Unbound { option: o } => format!(
                "{} is sent only to the authorization server it belongs to: bind it with {}, \
                 that server's issuer, or the MCP server could name its own",
                option(*o),
                option(AuthOption::ClientIssuer)
            ),
        }
    }
}

/// The first problem with the options `given` for `grant`, in the order the module lists the
/// rules; `Ok` when they can start a flow.
pub fn check_options(grant: GrantKind, given: &[AuthOption]) -> Result<(), OptionProblem> {
    use AuthOption as O;
    let has = |option: AuthOption| given.contains(&option);
    for (option, owner) in [
        (O::Assertion, GrantKind::JwtBearer),
        (O::IdToken, GrantKind::Enterprise),
        (O::IdpTokenEndpoint, GrantKind::Enterprise),
        (O::IdpClientId, GrantKind::Enterprise),
        (O::IdpClientSecret, GrantKind::Enterprise),
    ] {
        if has(option) && grant != owner {
            return Err(OptionProblem::Stray {
                option,
                grant: owner,
            });
        }
    }
    let missing = |all: &[AuthOption], any: &[AuthOption]| {
        let lacking: Vec<AuthOption> = all.iter().copied().filter(|o| !has(*o)).collect();
        let none_of_any = !any.is_empty() && !any.iter().any(|o| has(*o));
        if lacking.is_empty() && !none_of_any {
            return Ok(());
        }
        Err(OptionProblem::Missing {
            grant,
            all: lacking,
            any: if none_of_any {
                any.to_vec()
            } else {
                Vec::new()
            },
        })
    };
    match grant {
        GrantKind::AuthorizationCode | GrantKind::DeviceCode => Ok(()),
        GrantKind::ClientCredentials => missing(&[O::ClientId], &[O::ClientSecret, O::ClientKey]),
        GrantKind::JwtBearer => missing(&[O::Assertion], &[]),
        GrantKind::Enterprise => missing(&[O::ClientId, O::IdToken, O::IdpTokenEndpoint], &[]),
    }?;
    let issuer_alone = grant == GrantKind::JwtBearer;
    for (option, needs) in [
        (O::ClientSecret, O::ClientId),
        (O::ClientKey, O::ClientId),
        (O::ClientIssuer, O::ClientId),
        (O::IdpClientSecret, O::IdpClientId),
    ] {
        if has(option) && !has(needs) && !(option == O::ClientIssuer && issuer_alone) {
            return Err(OptionProblem::Needs { option, needs });
        }
    }
    if !has(O::ClientIssuer) {
        let confidential = [O::ClientSecret, O::ClientKey]
            .into_iter()
            .find(|o| has(*o))
            .or(match grant {
                GrantKind::JwtBearer => Some(O::Assertion),
                GrantKind::Enterprise => Some(O::IdToken),
                GrantKind::AuthorizationCode
                | GrantKind::ClientCredentials
                | GrantKind::DeviceCode => None,
            });
        if let Some(option) = confidential {
            return Err(OptionProblem::Unbound { option });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use AuthOption as O;

    fn named(option: AuthOption) -> String {
        String::from(option.as_str())
    }

    fn grant(grant: GrantKind) -> String {
        format!("grant={:?}", grant.as_str())
    }

    fn problem(kind: GrantKind, given: &[AuthOption]) -> String {
        check_options(kind, given).map_or_else(|p| p.message(named, grant), |()| String::from("ok"))
    }

    #[test]
    fn every_rule_in_its_order() {
        use GrantKind as G;
        let cases: [(G, &[AuthOption], &str); 15] = [
            (G::AuthorizationCode, &[], "ok"),
            (G::DeviceCode, &[O::ClientId], "ok"),
            (
                G::DeviceCode,
                &[O::ClientId, O::ClientSecret],
                "client_secret is sent only to the authorization server it belongs to: bind it \
                 with client_issuer, that server's issuer, or the MCP server could name its own",
            ),
            (G::AuthorizationCode, &[O::ClientId], "ok"),
            (
                G::AuthorizationCode,
                &[O::Assertion],
                r#"assertion is for grant="jwt_bearer""#,
            ),
            (
                G::ClientCredentials,
                &[O::IdpClientId],
                r#"idp_client_id is for grant="enterprise""#,
            ),
            (
                G::ClientCredentials,
                &[],
                r#"grant="client_credentials" needs client_id and client_secret or client_key"#,
            ),
            (
                G::ClientCredentials,
                &[O::ClientId],
                r#"grant="client_credentials" needs client_secret or client_key"#,
            ),
            (G::JwtBearer, &[], r#"grant="jwt_bearer" needs assertion"#),
            (
                G::Enterprise,
                &[O::ClientId],
                r#"grant="enterprise" needs id_token and idp_token_endpoint"#,
            ),
            (
                G::AuthorizationCode,
                &[O::ClientKey],
                "client_key needs client_id",
            ),
            (
                G::AuthorizationCode,
                &[O::ClientIssuer],
                "client_issuer needs client_id",
            ),
            (
                G::JwtBearer,
                &[O::Assertion],
                "assertion is sent only to the authorization server it belongs to: bind it \
                 with client_issuer, that server's issuer, or the MCP server could name its own",
            ),
            (G::JwtBearer, &[O::Assertion, O::ClientIssuer], "ok"),
            (
                G::Enterprise,
                &[
                    O::ClientId,
                    O::IdToken,
                    O::IdpTokenEndpoint,
                    O::IdpClientSecret,
                ],
                "idp_client_secret needs idp_client_id",
            ),
        ];
        for (kind, given, said) in cases {
            assert_eq!(problem(kind, given), said, "{kind} {given:?}");
        }
        assert_eq!(
            check_options(G::ClientCredentials, &[O::ClientId, O::ClientSecret])
                .unwrap_err()
                .option(),
            O::ClientIssuer
        );
    }
}
