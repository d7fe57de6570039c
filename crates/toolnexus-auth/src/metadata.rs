//! The two discovery documents, read and checked member by member: the protected resource
//! metadata (RFC 9728) and the authorization server metadata (RFC 8414, or OpenID Connect
//! Discovery).

use toolnexus_core::json::{Limits, pointer};
use url::Url;

use crate::document::Document;
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantType;
use crate::scope::is_scope_token;
use crate::urls::{endpoint, parse_web_url, resource_identifies, secure};

/// What the flow takes from a protected resource metadata document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResourceMetadata {
    /// `resource`, exactly as written: the value of every `resource` parameter.
    pub(crate) resource: String,
    /// `authorization_servers[0]`, exactly as written: the issuer expected.
    pub(crate) issuer: String,
    /// The issuer as a URL, to find its metadata.
    pub(crate) issuer_url: Url,
    /// `scopes_supported`, empty when absent.
    pub(crate) scopes_supported: Vec<String>,
}

/// Reads the protected resource metadata fetched from `url` for the server at `server`.
///
/// Refused: a `resource` that is not an absolute URL without a fragment
/// ([`AuthErrorKind::InvalidMetadata`]) or that is not the resource the location `url` was
/// made from ([`AuthErrorKind::ResourceMismatch`], see [`resource_identifies`]); no `authorization_servers`, or a first one that is
/// not an `https` (or loopback `http`) URL without query and fragment; `scopes_supported`
/// that is not a list of scope tokens.
pub(crate) fn read_resource_metadata(
    body: &[u8],
    limits: &Limits,
    url: &str,
    server: &Url,
) -> Result<ResourceMetadata, AuthError> {
    let doc = Document::read(
        body,
        limits,
        format!("the protected resource metadata at {}", quote(url)),
        AuthErrorKind::InvalidMetadata,
    )?;
    let resource = doc.required_string("resource")?;
    let resource_url = parse_web_url(resource)
        .filter(|u| u.fragment().is_none())
        .ok_or_else(|| {
            doc.error(
                "resource",
                format_args!(
                    "is {}, not an absolute http(s) URL without a fragment",
                    quote(resource)
                ),
            )
        })?;
    if !resource_identifies(&resource_url, url, server) {
        return Err(doc.error_of(
            AuthErrorKind::ResourceMismatch,
            "resource",
            format_args!(
                "is {}, which is not the server asked, {} (RFC 9728 §3.3: metadata names the \
                 resource its location was made from, the origin's at the root)",
                quote(resource),
                quote(server.as_str())
            ),
        ));
    }
    let servers = doc.strings("authorization_servers")?.unwrap_or_default();
    let Some(issuer) = servers.into_iter().next() else {
        return Err(doc.error("authorization_servers", "names no authorization server"));
    };
    let mut at = pointer::key("authorization_servers");
    pointer::push_index(&mut at, 0);
    let issuer_url = issuer_url(&issuer, &at, doc.what())?;
    let scopes_supported = scopes(&doc, "scopes_supported")?;
    Ok(ResourceMetadata {
        resource: resource.to_owned(),
        issuer,
        issuer_url,
        scopes_supported,
    })
}

/// `issuer` as an issuer identifier (RFC 8414 §2): an `https` URL (or loopback `http`) with no
/// query and no fragment.
pub(crate) fn issuer_url(issuer: &str, at: &str, what: &str) -> Result<Url, AuthError> {
    let url = parse_web_url(issuer)
        .filter(|u| u.query().is_none() && u.fragment().is_none())
        .ok_or_else(|| {
            AuthError::new(
                AuthErrorKind::InvalidMetadata,
                at,
                format!(
                    "{what}: the issuer {} is not an http(s) URL without query and fragment",
                    quote(issuer)
                ),
            )
        })?;
    secure(&url, at, what)?;
    Ok(url)
}

/// What the flow takes from an authorization server's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServerMetadata {
    /// `issuer`, equal to the one the resource named.
    pub(crate) issuer: String,
    /// `authorization_endpoint`.
    pub(crate) authorization_endpoint: String,
    /// `token_endpoint`.
    pub(crate) token_endpoint: String,
    /// `registration_endpoint`, if dynamic client registration is offered.
    pub(crate) registration_endpoint: Option<String>,
    /// `authorization_response_iss_parameter_supported` (RFC 9207), `false` when absent.
    pub(crate) iss_supported: bool,
    /// `token_endpoint_auth_methods_supported`, `None` when absent.
    pub(crate) auth_methods: Option<Vec<String>>,
    /// `scopes_supported`, empty when absent.
    pub(crate) scopes_supported: Vec<String>,
    /// `client_id_metadata_document_supported`, `false` when absent.
    pub(crate) client_metadata_supported: bool,
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1), empty when absent.
    pub(crate) dpop_algs: Vec<String>,
    /// `token_endpoint_auth_signing_alg_values_supported`, `None` when absent.
    pub(crate) signing_algs: Option<Vec<String>>,
    /// `device_authorization_endpoint` (RFC 8628 §4), read for the device grant alone.
    pub(crate) device_authorization_endpoint: Option<String>,
}

/// Reads the authorization server metadata fetched from `url`, whose issuer must be
/// `expected_issuer` exactly, for a flow of the grant `grant`.
///
/// Refused, in this order: an `issuer` other than expected ([`AuthErrorKind::IssuerMismatch`]);
/// `grant_types_supported` without the grant's type, and for the authorization code grant
/// `response_types_supported` without `code` ([`AuthErrorKind::GrantNotSupported`]); for the
/// authorization code grant, no `S256` in `code_challenge_methods_supported`, or no such
/// member at all ([`AuthErrorKind::PkceNotSupported`]); an endpoint that is not an `https`
/// (or loopback `http`) URL; for the device grant, no `device_authorization_endpoint`
/// ([`AuthErrorKind::GrantNotSupported`]); any other member used of the wrong type. The other
/// grants need no `authorization_endpoint`.
pub(crate) fn read_server_metadata(
    body: &[u8],
    limits: &Limits,
    url: &str,
    expected_issuer: &str,
    grant: &GrantType,
) -> Result<ServerMetadata, AuthError> {
    let interactive = grant.is_interactive();
    let doc = Document::read(
        body,
        limits,
        format!("the authorization server metadata at {}", quote(url)),
        AuthErrorKind::InvalidMetadata,
    )?;
    let issuer = doc.required_string("issuer")?;
    if issuer != expected_issuer {
        return Err(doc.error_of(
            AuthErrorKind::IssuerMismatch,
            "issuer",
            format_args!(
                "is {}, not {}, the authorization server the resource names",
                quote(issuer),
                quote(expected_issuer)
            ),
        ));
    }
    if let Some(types) = doc.strings("response_types_supported")?
        && interactive
        && !types.iter().any(|t| t == "code")
    {
        return Err(doc.error_of(
            AuthErrorKind::GrantNotSupported,
            "response_types_supported",
            "does not list `code`: the server offers no authorization code flow",
        ));
    }
    if let Some(grants) = doc.strings("grant_types_supported")?
        && !grants.iter().any(|g| g == grant.as_str())
    {
        return Err(doc.error_of(
            AuthErrorKind::GrantNotSupported,
            "grant_types_supported",
            format_args!("does not list `{}`", grant.as_str()),
        ));
    }
    let pkce = doc.strings("code_challenge_methods_supported")?;
    if interactive && !pkce.is_some_and(|methods| methods.iter().any(|m| m == "S256")) {
        return Err(doc.error_of(
            AuthErrorKind::PkceNotSupported,
            "code_challenge_methods_supported",
            "does not list `S256`: without PKCE the flow may not proceed",
        ));
    }
    let endpoint_at = |key: &str| -> Result<String, AuthError> {
        let raw = doc.required_string(key)?;
        endpoint(
            raw,
            &pointer::key(key),
            doc.what(),
            AuthErrorKind::InvalidMetadata,
        )?;
        Ok(raw.to_owned())
    };
    let authorization_endpoint = match doc.string("authorization_endpoint")? {
        None if !interactive => String::new(),
        _ => endpoint_at("authorization_endpoint")?,
    };
    let token_endpoint = endpoint_at("token_endpoint")?;
    let registration_endpoint = match doc.string("registration_endpoint")? {
        None => None,
        Some(_) => Some(endpoint_at("registration_endpoint")?),
    };
    let device_authorization_endpoint = match doc.string("device_authorization_endpoint")? {
        _ if *grant != GrantType::DeviceCode => None,
        None => {
            return Err(doc.error_of(
                AuthErrorKind::GrantNotSupported,
                "device_authorization_endpoint",
                "is missing: the authorization server does not offer the device authorization \
                 grant (RFC 8628)",
            ));
        }
        Some(_) => Some(endpoint_at("device_authorization_endpoint")?),
    };
    Ok(ServerMetadata {
        issuer: issuer.to_owned(),
        authorization_endpoint,
        token_endpoint,
        registration_endpoint,
        iss_supported: doc
            .boolean("authorization_response_iss_parameter_supported")?
            .unwrap_or(false),
        auth_methods: doc.strings("token_endpoint_auth_methods_supported")?,
        scopes_supported: scopes(&doc, "scopes_supported")?,
        client_metadata_supported: doc
            .boolean("client_id_metadata_document_supported")?
            .unwrap_or(false),
        dpop_algs: doc
            .strings("dpop_signing_alg_values_supported")?
            .unwrap_or_default(),
        signing_algs: doc.strings("token_endpoint_auth_signing_alg_values_supported")?,
        device_authorization_endpoint,
    })
}

/// The endpoints a 2025-03-26 client falls back to when an authorization server publishes no
/// metadata: `/authorize`, `/token` and `/register` at `origin`.
pub(crate) fn fallback_server(origin: &str) -> ServerMetadata {
    ServerMetadata {
        issuer: origin.to_owned(),
        authorization_endpoint: format!("{origin}/authorize"),
        token_endpoint: format!("{origin}/token"),
        registration_endpoint: Some(format!("{origin}/register")),
        iss_supported: false,
        auth_methods: None,
        scopes_supported: Vec::new(),
        client_metadata_supported: false,
        dpop_algs: Vec::new(),
        signing_algs: None,
        device_authorization_endpoint: None,
    }
}

/// The member `key` as a list of scope tokens, empty when absent.
fn scopes(doc: &Document, key: &str) -> Result<Vec<String>, AuthError> {
    let scopes = doc.strings(key)?.unwrap_or_default();
    if let Some((index, bad)) = scopes.iter().enumerate().find(|(_, s)| !is_scope_token(s)) {
        let mut at = pointer::key(key);
        pointer::push_index(&mut at, index);
        return Err(AuthError::new(
            AuthErrorKind::InvalidMetadata,
            at,
            format!("{}: {} is not a scope", doc.what(), quote(bad)),
        ));
    }
    Ok(scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AS: &str = r#"{"issuer":"http://localhost:9","authorization_endpoint":"http://localhost:9/authorize","token_endpoint":"http://localhost:9/token","registration_endpoint":"http://localhost:9/register","response_types_supported":["code"],"grant_types_supported":["authorization_code","refresh_token"],"code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true,"token_endpoint_auth_methods_supported":["none"]}"#;

    fn server() -> Url {
        Url::parse("http://localhost:5/mcp").unwrap()
    }

    fn prm(text: &str) -> Result<ResourceMetadata, AuthError> {
        prm_at("http://localhost:5/prm", text)
    }

    fn prm_at(url: &str, text: &str) -> Result<ResourceMetadata, AuthError> {
        read_resource_metadata(text.as_bytes(), &Limits::DEFAULT, url, &server())
    }

    fn asm(text: &str) -> Result<ServerMetadata, AuthError> {
        asm_for(text, &GrantType::AuthorizationCode)
    }

    fn asm_for(text: &str, grant: &GrantType) -> Result<ServerMetadata, AuthError> {
        read_server_metadata(
            text.as_bytes(),
            &Limits::DEFAULT,
            "http://localhost:9/m",
            "http://localhost:9",
            grant,
        )
    }

    #[test]
    fn a_machine_grant_needs_its_grant_type_and_nothing_of_a_browser() {
        use AuthErrorKind::{GrantNotSupported, InsecureEndpoint, PkceNotSupported};
        const MACHINE: &str = r#"{"issuer":"http://localhost:9","token_endpoint":"http://localhost:9/token","grant_types_supported":["client_credentials"],"token_endpoint_auth_methods_supported":["private_key_jwt"],"token_endpoint_auth_signing_alg_values_supported":["ES256"]}"#;
        let m = asm_for(MACHINE, &GrantType::ClientCredentials).unwrap();
        assert_eq!(m.authorization_endpoint, "");
        assert_eq!(m.signing_algs, Some(vec!["ES256".to_owned()]));
        let bearer = GrantType::JwtBearer {
            assertion: "a.b.c".into(),
        };
        assert_eq!(
            fails(asm_for(MACHINE, &bearer)),
            (GrantNotSupported, "/grant_types_supported".to_owned())
        );
        assert_eq!(
            fails(asm(MACHINE)),
            (GrantNotSupported, "/grant_types_supported".to_owned())
        );
        // No grant_types_supported: RFC 8414's default is authorization_code and implicit,
        // but a server that says nothing is taken at its word for any grant asked of it.
        let silent = MACHINE.replace(r#""grant_types_supported":["client_credentials"],"#, "");
        assert!(asm_for(&silent, &bearer).is_ok());
        assert_eq!(
            fails(asm(&silent)),
            (
                PkceNotSupported,
                "/code_challenge_methods_supported".to_owned()
            )
        );
        // An authorization endpoint that is given is checked all the same.
        let insecure = silent.replace(
            r#""token_endpoint""#,
            r#""authorization_endpoint":"http://example.com/a","token_endpoint""#,
        );
        assert_eq!(
            fails(asm_for(&insecure, &bearer)),
            (InsecureEndpoint, "/authorization_endpoint".to_owned())
        );
    }

    fn fails(result: Result<impl std::fmt::Debug, AuthError>) -> (AuthErrorKind, String) {
        let e = result.unwrap_err();
        (e.kind(), e.pointer().to_owned())
    }

    #[test]
    fn a_resource_document_is_kept_verbatim() {
        // The root's metadata names the origin.
        let root = "http://localhost:5/.well-known/oauth-protected-resource";
        let m = prm_at(root, r#"{"resource":"http://localhost:5","authorization_servers":["http://localhost:9/tenant1"],"scopes_supported":["a","b"]}"#).unwrap();
        assert_eq!(m.resource, "http://localhost:5");
        assert_eq!(m.issuer, "http://localhost:9/tenant1");
        assert_eq!(m.scopes_supported, ["a", "b"]);
    }

    #[test]
    fn resource_documents_are_checked_member_by_member() {
        use AuthErrorKind::*;
        let cases = [
            (
                r#"{"authorization_servers":["http://localhost:9"]}"#,
                (InvalidMetadata, "/resource"),
            ),
            (
                r#"{"resource":5,"authorization_servers":["http://localhost:9"]}"#,
                (InvalidMetadata, "/resource"),
            ),
            (
                r#"{"resource":"mcp","authorization_servers":["http://localhost:9"]}"#,
                (InvalidMetadata, "/resource"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp#f","authorization_servers":["http://localhost:9"]}"#,
                (InvalidMetadata, "/resource"),
            ),
            (
                r#"{"resource":"https://evil.example.com/mcp","authorization_servers":["http://localhost:9"]}"#,
                (ResourceMismatch, "/resource"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp"}"#,
                (InvalidMetadata, "/authorization_servers"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp","authorization_servers":[]}"#,
                (InvalidMetadata, "/authorization_servers"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp","authorization_servers":[7]}"#,
                (InvalidMetadata, "/authorization_servers/0"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp","authorization_servers":["http://as.example"]}"#,
                (InsecureEndpoint, "/authorization_servers/0"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp","authorization_servers":["https://as.example/?a=b"]}"#,
                (InvalidMetadata, "/authorization_servers/0"),
            ),
            (
                r#"{"resource":"http://localhost:5/mcp","authorization_servers":["https://as.example"],"scopes_supported":["a b"]}"#,
                (InvalidMetadata, "/scopes_supported/0"),
            ),
            (r#"[]"#, (InvalidMetadata, "")),
        ];
        for (text, (kind, at)) in cases {
            assert_eq!(fails(prm(text)), (kind, at.to_owned()), "{text}");
        }
    }

    #[test]
    fn a_server_document_is_read() {
        let m = asm(AS).unwrap();
        assert_eq!(m.issuer, "http://localhost:9");
        assert_eq!(m.token_endpoint, "http://localhost:9/token");
        assert_eq!(
            m.registration_endpoint.as_deref(),
            Some("http://localhost:9/register")
        );
        assert!(m.iss_supported);
        assert!(!m.client_metadata_supported);
        assert_eq!(m.auth_methods, Some(vec!["none".to_owned()]));
    }

    #[test]
    fn server_documents_are_checked_member_by_member() {
        use AuthErrorKind::*;
        let with = |key: &str, value: &str| {
            let mut map = match toolnexus_core::json::parse_str(AS, &Limits::DEFAULT).unwrap() {
                toolnexus_core::Value::Object(map) => map,
                _ => unreachable!(),
            };
            if value.is_empty() {
                map.remove(key);
            } else {
                map.insert(
                    key,
                    toolnexus_core::json::parse_str(value, &Limits::DEFAULT).unwrap(),
                );
            }
            map.to_json()
        };
        let cases = [
            (
                with("issuer", r#""https://attacker.example.com""#),
                (IssuerMismatch, "/issuer"),
            ),
            (
                with("issuer", r#""http://localhost:9/""#),
                (IssuerMismatch, "/issuer"),
            ),
            (with("issuer", ""), (InvalidMetadata, "/issuer")),
            (
                with("response_types_supported", r#"["token"]"#),
                (GrantNotSupported, "/response_types_supported"),
            ),
            (
                with("grant_types_supported", r#"["client_credentials"]"#),
                (GrantNotSupported, "/grant_types_supported"),
            ),
            (
                with("code_challenge_methods_supported", ""),
                (PkceNotSupported, "/code_challenge_methods_supported"),
            ),
            (
                with("code_challenge_methods_supported", r#"["plain"]"#),
                (PkceNotSupported, "/code_challenge_methods_supported"),
            ),
            (
                with("authorization_endpoint", ""),
                (InvalidMetadata, "/authorization_endpoint"),
            ),
            (
                with("authorization_endpoint", r#""http://as.example/authorize""#),
                (InsecureEndpoint, "/authorization_endpoint"),
            ),
            (
                with("token_endpoint", r#""/token""#),
                (InvalidMetadata, "/token_endpoint"),
            ),
            (
                with("registration_endpoint", r#""http://10.0.0.1/register""#),
                (InsecureEndpoint, "/registration_endpoint"),
            ),
            (
                with("authorization_response_iss_parameter_supported", r#""yes""#),
                (
                    InvalidMetadata,
                    "/authorization_response_iss_parameter_supported",
                ),
            ),
            (
                with("token_endpoint_auth_methods_supported", r#""none""#),
                (InvalidMetadata, "/token_endpoint_auth_methods_supported"),
            ),
            (
                with("scopes_supported", r#"["ok","b\"ad"]"#),
                (InvalidMetadata, "/scopes_supported/1"),
            ),
            (
                with("client_id_metadata_document_supported", "1"),
                (InvalidMetadata, "/client_id_metadata_document_supported"),
            ),
        ];
        for (text, (kind, at)) in cases {
            assert_eq!(fails(asm(&text)), (kind, at.to_owned()), "{text}");
        }
    }

    #[test]
    fn the_fallback_endpoints_are_at_the_origin() {
        let m = fallback_server("http://localhost:5");
        assert_eq!(m.authorization_endpoint, "http://localhost:5/authorize");
        assert_eq!(m.token_endpoint, "http://localhost:5/token");
        assert_eq!(
            m.registration_endpoint.as_deref(),
            Some("http://localhost:5/register")
        );
        assert!(!m.iss_supported);
    }
}
