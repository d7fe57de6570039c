//! How a flow obtains its token: a [`GrantType`]. The authorization code grant has a person
//! sign in; the others run unattended, for machines: the client's own credentials
//! (`client_credentials`, SEP-1046), a workload's JWT (the RFC 7523 JWT bearer grant, as
//! workload identity federation uses it, SEP-1933), and enterprise-managed authorization
//! (SEP-990: an ID token exchanged at the enterprise's identity provider for an identity
//! assertion JWT authorization grant, RFC 8693, then that grant presented with RFC 7523).
//! Beyond the MCP specification, the device authorization grant (RFC 8628) has a person sign
//! in on another device, with a code, where no browser can come back to the client.

use toolnexus_core::closed_set;
use toolnexus_core::json::Limits;

use crate::document::Document;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::http::{HttpRequest, HttpResponse, basic};
use crate::refusal::{redact, redirected, refusal};
use crate::secret::Secret;

/// `grant_type` of the RFC 7523 JWT bearer grant.
pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `grant_type` of RFC 8693 token exchange.
pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// `grant_type` of the RFC 8628 device authorization grant.
pub const DEVICE_CODE: &str = "urn:ietf:params:oauth:grant-type:device_code";
/// The token type of an OpenID Connect ID token (RFC 8693 §3).
pub const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The token type of an identity assertion JWT authorization grant (ID-JAG, SEP-990).
pub const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// How a flow obtains its token. Its `Debug` form shows no secret.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum GrantType {
    /// The authorization code grant with PKCE: a person signs in through a browser.
    #[default]
    AuthorizationCode,
    /// The client credentials grant: the pre-registered client authenticates as itself, with
    /// its secret or its [`ClientKey`](crate::ClientKey), and acts on its own behalf.
    ClientCredentials,
    /// The JWT bearer grant (RFC 7523 §2.1) with a JWT the workload's platform issued
    /// (workload identity federation): the `assertion` is the grant. A refusal is final: it is
    /// neither retried nor answered with another grant.
    JwtBearer {
        /// The workload's JWT, audience the authorization server.
        assertion: Secret,
    },
    /// Enterprise-managed authorization: `id_token` exchanged at the identity provider for an
    /// ID-JAG, which the client presents to the authorization server with the JWT bearer
    /// grant, authenticated as the pre-registered client.
    Enterprise(Enterprise),
    /// The device authorization grant (RFC 8628), beyond the MCP specification: the person
    /// opens a verification URI on any device and enters the code shown, while the client
    /// polls the token endpoint. No browser comes back to the client.
    DeviceCode,
}

/// Where and how an enterprise's identity provider exchanges a person's ID token for an
/// identity assertion JWT authorization grant. Its `Debug` form shows no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enterprise {
    /// The identity provider's token endpoint (`https`, or `http` on loopback).
    pub token_endpoint: String,
    /// The client id of this client at the identity provider.
    pub client_id: Option<String>,
    /// Its secret there, sent with HTTP Basic.
    pub client_secret: Option<Secret>,
    /// The person's ID token, issued by the identity provider to this client.
    pub id_token: Secret,
}

closed_set! {
    /// Which grant, without what it carries: the one a host asks for, and the one that
    /// obtained a token (one byte, so that a grant stays small). Its name is
    /// [`GrantType::name`], the one [`Grant::obtained_by`](crate::Grant::obtained_by) records.
    pub enum GrantKind {
        /// The authorization code grant with PKCE: a person signs in.
        AuthorizationCode => "authorization_code",
        /// The client credentials grant.
        ClientCredentials => "client_credentials",
        /// The JWT bearer grant with a workload's JWT.
        JwtBearer => "jwt_bearer",
        /// Enterprise-managed authorization.
        Enterprise => "enterprise",
        /// The device authorization grant (RFC 8628): a person signs in on another device.
        DeviceCode => "device_code",
    }
}

/// The names of the grants, as [`GrantType::name`] gives them, in declaration order.
pub const GRANT_NAMES: [&str; 5] = {
    let [code, credentials, bearer, enterprise, device] = GrantKind::ALL;
    [
        code.as_str(),
        credentials.as_str(),
        bearer.as_str(),
        enterprise.as_str(),
        device.as_str(),
    ]
};

impl GrantType {
    /// Which grant this is, as a grant records it.
    pub const fn kind(&self) -> GrantKind {
        match self {
            GrantType::AuthorizationCode => GrantKind::AuthorizationCode,
            GrantType::ClientCredentials => GrantKind::ClientCredentials,
            GrantType::JwtBearer { .. } => GrantKind::JwtBearer,
            GrantType::Enterprise(_) => GrantKind::Enterprise,
            GrantType::DeviceCode => GrantKind::DeviceCode,
        }
    }

    /// The grant's name: `authorization_code`, `client_credentials`, `jwt_bearer`,
    /// `enterprise` or `device_code` (one of [`GRANT_NAMES`]), as [`Grant::obtained_by`](crate::Grant::obtained_by)
    /// records it.
    pub const fn name(&self) -> &'static str {
        self.kind().as_str()
    }

    /// The `grant_type` its token request to the authorization server carries: its
    /// [`name`](GrantType::name) for the authorization code and client credentials grants,
    /// [`JWT_BEARER`] for the grants that present a JWT, [`DEVICE_CODE`] for the device grant.
    pub const fn as_str(&self) -> &'static str {
        match self {
            GrantType::AuthorizationCode | GrantType::ClientCredentials => self.name(),
            GrantType::JwtBearer { .. } | GrantType::Enterprise(_) => JWT_BEARER,
            GrantType::DeviceCode => DEVICE_CODE,
        }
    }

    /// Whether a person takes part: the authorization code grant, and the device grant, where
    /// the person signs in on another device.
    pub const fn has_person(&self) -> bool {
        matches!(self, GrantType::AuthorizationCode | GrantType::DeviceCode)
    }

    /// Whether a person signs in through a browser redirected back to the client (the
    /// authorization code grant).
    pub const fn is_interactive(&self) -> bool {
        matches!(self, GrantType::AuthorizationCode)
    }

    /// The secrets it carries, kept out of every message.
    pub(crate) fn secrets(&self) -> Vec<&str> {
        match self {
            GrantType::AuthorizationCode | GrantType::ClientCredentials | GrantType::DeviceCode => {
                Vec::new()
            }
            GrantType::JwtBearer { assertion } => vec![assertion.expose()],
            GrantType::Enterprise(enterprise) => {
                let mut secrets = vec![enterprise.id_token.expose()];
                secrets.extend(enterprise.client_secret.as_ref().map(Secret::expose));
                secrets
            }
        }
    }
}

/// The token exchange request (RFC 8693 §2.1) of `enterprise` for an ID-JAG for the
/// authorization server `audience` (its issuer) and the protected resource `resource`.
pub(crate) fn exchange_request(
    enterprise: &Enterprise,
    audience: &str,
    resource: Option<&str>,
    scope: Option<&str>,
) -> HttpRequest {
    let mut form = vec![
        ("grant_type", TOKEN_EXCHANGE),
        ("requested_token_type", ID_JAG_TYPE),
        ("audience", audience),
    ];
    form.extend(resource.map(|r| ("resource", r)));
    form.extend(scope.map(|s| ("scope", s)));
    form.push(("subject_token", enterprise.id_token.expose()));
    form.push(("subject_token_type", ID_TOKEN_TYPE));
    let mut headers = Vec::new();
    match (&enterprise.client_id, &enterprise.client_secret) {
        (Some(id), Some(secret)) => headers.push(basic(id, secret.expose())),
        (Some(id), None) => form.push(("client_id", id)),
        (None, _) => {}
    }
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish();
    let mut request = HttpRequest::post(
        enterprise.token_endpoint.clone(),
        "application/x-www-form-urlencoded",
        body.into_bytes(),
    );
    request.headers.extend(headers);
    request
}

/// Reads the identity provider's answer to the token exchange: the ID-JAG.
///
/// Refused: a redirect ([`AuthErrorKind::Redirected`]); an error status ([`AuthErrorKind::TokenRefused`], with the OAuth error the
/// provider gave); an answer without `access_token`, or whose `issued_token_type` is not the
/// ID-JAG type ([`AuthErrorKind::InvalidResponse`]). No message holds a token.
pub(crate) fn read_exchange(
    response: &HttpResponse<'_>,
    limits: &Limits,
    endpoint: &str,
    secrets: &[&str],
) -> Result<Secret, AuthError> {
    if (300..400).contains(&response.status) {
        return Err(redirected(endpoint, response));
    }
    let what = format!("the token exchange response of {}", quote(endpoint));
    if !(200..300).contains(&response.status) {
        let code = refusal(response, limits, what, secrets);
        return Err(AuthError::new(
            AuthErrorKind::TokenRefused,
            "",
            format!(
                "the identity provider's token endpoint {} refused the token exchange with \
                 {}{}",
                quote(endpoint),
                response.status,
                code.map(|c| format!(" and {c}")).unwrap_or_default()
            ),
        ));
    }
    let doc = Document::read(response.body, limits, what, AuthErrorKind::InvalidResponse)?;
    let issued = doc.required_string("issued_token_type")?;
    if issued != ID_JAG_TYPE {
        return Err(doc.error(
            "issued_token_type",
            format_args!(
                "is {}, not {}",
                quote(&redact(issued, secrets)),
                quote(ID_JAG_TYPE)
            ),
        ));
    }
    let token = doc.required_string("access_token")?;
    if token.is_empty() {
        return Err(doc.error("access_token", "is empty"));
    }
    Ok(Secret::from(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_one_list() {
        let grants = [
            GrantType::AuthorizationCode,
            GrantType::ClientCredentials,
            GrantType::JwtBearer {
                assertion: "a".into(),
            },
            GrantType::Enterprise(Enterprise {
                token_endpoint: "https://idp.example/token".into(),
                client_id: None,
                client_secret: None,
                id_token: "t".into(),
            }),
            GrantType::DeviceCode,
        ];
        let names: Vec<&str> = grants.iter().map(GrantType::name).collect();
        assert_eq!(names, GRANT_NAMES);
        for grant in &grants {
            assert_eq!(GrantKind::from_name(grant.name()), Some(grant.kind()));
        }
        assert_eq!(GrantKind::from_name("password"), None);
        assert_eq!(GrantType::default(), GrantType::AuthorizationCode);
        assert!(GrantType::AuthorizationCode.is_interactive());
        assert!(!GrantType::ClientCredentials.is_interactive());
        assert!(!GrantType::DeviceCode.is_interactive());
        assert!(GrantType::DeviceCode.has_person());
        assert!(!GrantType::ClientCredentials.has_person());
        assert_eq!(GrantType::DeviceCode.as_str(), DEVICE_CODE);
    }
}
