//! URL rules of the flow: which endpoints are secure enough, where the well-known metadata
//! documents are (RFC 9728 §3.1, RFC 8414 §3.1, OpenID Connect Discovery §4), and whether a
//! protected resource metadata document speaks for the server asked.

use std::net::IpAddr;

use url::{Host, Url};

use crate::error::{AuthError, AuthErrorKind, quote};

/// `raw` as an absolute `http` or `https` URL with a host, if it is one.
pub(crate) fn parse_web_url(raw: &str) -> Option<Url> {
    let url = Url::parse(raw).ok()?;
    if matches!(url.scheme(), "http" | "https") && url.host().is_some() {
        Some(url)
    } else {
        None
    }
}

/// Whether the host of `url` is the machine itself: `localhost`, `127.0.0.0/8` or `::1`.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// `raw`, the member at `pointer` of the document `what`, as an endpoint the flow may talk
/// to: an absolute `https` URL without a fragment, or `http` on a loopback host. A value that
/// is no such URL is an error of `invalid` (the document's kind);
/// plain `http` elsewhere is [`AuthErrorKind::InsecureEndpoint`].
pub(crate) fn endpoint(
    raw: &str,
    pointer: &str,
    what: &str,
    invalid: AuthErrorKind,
) -> Result<Url, AuthError> {
    let Some(url) = parse_web_url(raw) else {
        return Err(AuthError::new(
            invalid,
            pointer,
            format!("{what}: {} is not an absolute http(s) URL", quote(raw)),
        ));
    };
    if url.fragment().is_some() {
        return Err(AuthError::new(
            invalid,
            pointer,
            format!(
                "{what}: {} has a fragment, which no endpoint may have",
                quote(raw)
            ),
        ));
    }
    secure(&url, pointer, what)?;
    Ok(url)
}

/// Refuses plain `http` to a host that is not loopback: OAuth 2.1 requires TLS for every
/// endpoint but a native app's own loopback.
pub(crate) fn secure(url: &Url, pointer: &str, what: &str) -> Result<(), AuthError> {
    if url.scheme() == "http" && !is_loopback(url) {
        return Err(AuthError::new(
            AuthErrorKind::InsecureEndpoint,
            pointer,
            format!(
                "{what}: {} uses plain http on a host that is not loopback; https is required",
                quote(url.as_str())
            ),
        ));
    }
    Ok(())
}

/// Refuses a request the flow would send, for the MCP server at `server`, to `target` when
/// the server could be steering the client at the machine's own network: a remote server's
/// metadata (and the authorization server it names) may send the client only to `https` URLs
/// whose host is not loopback, link-local or private. A server on loopback is a developer's
/// own, and may use plain `http` on loopback as [`secure`] allows. (A name that resolves to
/// such an address is the caller's to refuse: the flow resolves no name.)
pub(crate) fn reachable(server: &Url, target: &Url) -> Result<(), AuthError> {
    let what = "a request of the authorization flow";
    if is_loopback(server) {
        return secure(target, "", what);
    }
    let refused = |why: &str| {
        Err(AuthError::new(
            AuthErrorKind::InsecureEndpoint,
            "",
            format!(
                "{what} would go to {}, {why}; the server {} is remote, and its metadata may \
                 send the client only to https on a public host",
                quote(target.as_str()),
                quote(server.as_str())
            ),
        ))
    };
    if target.scheme() != "https" {
        return refused("which is plain http");
    }
    if is_internal(target) {
        return refused("a loopback, link-local or private address");
    }
    Ok(())
}

/// Whether the host of `url` is the machine itself or its local network: loopback,
/// link-local, private (RFC 1918, RFC 4193), shared (RFC 6598), unspecified or broadcast,
/// IPv4 written inside IPv6 included, and the `localhost` names.
fn is_internal(url: &Url) -> bool {
    fn v4(ip: std::net::Ipv4Addr) -> bool {
        let [a, b, ..] = ip.octets();
        ip.is_loopback()
            || ip.is_private()
            || ip.is_link_local()
            || ip.is_unspecified()
            || ip.is_broadcast()
            || a == 0
            || (a == 100 && (64..128).contains(&b))
    }
    match url.host() {
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Some(Host::Ipv4(ip)) => v4(ip),
        Some(Host::Ipv6(ip)) => {
            let [first, second, ..] = ip.segments();
            ip.is_loopback()
                || ip.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || ip.to_ipv4_mapped().is_some_and(v4)
                || (first == 0x64 && second == 0xff9b)
        }
        None => true,
    }
}

/// `scheme://host[:port]` of `url`, without a trailing slash.
pub(crate) fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// The path of `url` without its trailing slash: `""` for `/`.
fn trimmed_path(url: &Url) -> &str {
    url.path().strip_suffix('/').unwrap_or(url.path())
}

/// Where the protected resource metadata of `server` may be, in the order to try them
/// (RFC 9728 §3.1, MCP "Protected Resource Metadata Discovery"): the path-based well-known
/// URL when the server URL has a path, then the root one.
pub(crate) fn resource_metadata_candidates(server: &Url) -> Vec<String> {
    let origin = origin(server);
    let path = trimmed_path(server);
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    if path.is_empty() {
        vec![root]
    } else {
        vec![format!("{root}{path}"), root]
    }
}

/// Where the metadata of the authorization server `issuer` may be, in the order to try them
/// (MCP "Authorization Server Metadata Discovery"): with a path P, the OAuth document with P
/// inserted, the OpenID Connect document with P inserted, then with P appended (never the
/// root OAuth document, which belongs to another issuer); without a path, the OAuth then the
/// OpenID Connect document.
pub(crate) fn server_metadata_candidates(issuer: &Url) -> Vec<String> {
    let origin = origin(issuer);
    let path = trimmed_path(issuer);
    let oauth = format!("{origin}/.well-known/oauth-authorization-server");
    let openid = format!("{origin}/.well-known/openid-configuration");
    if path.is_empty() {
        vec![oauth, openid]
    } else {
        vec![
            format!("{oauth}{path}"),
            format!("{openid}{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Whether the protected resource `resource` covers the server at `server`: the same origin,
/// and a path that is a prefix of the server's, segment by segment (`/mcp` covers `/mcp` and
/// `/mcp/x`, not `/mcpx`).
pub(crate) fn resource_covers(resource: &Url, server: &Url) -> bool {
    if resource.origin() != server.origin() {
        return false;
    }
    let with_slash = |url: &Url| {
        let path = url.path();
        if path.ends_with('/') {
            path.to_owned()
        } else {
            format!("{path}/")
        }
    };
    with_slash(server).starts_with(&with_slash(resource))
}

/// Whether the protected resource metadata fetched from `metadata_url` may name `resource`
/// for the server at `server`, as RFC 9728 §3.3 says: the resource identifier the metadata's
/// location was made from. Metadata at the root of the origin
/// (`/.well-known/oauth-protected-resource`) is the origin's, so its resource is the origin
/// (its path `/`); any other (the location with the server's path inserted, or one a `401`
/// named) names the server itself. Paths are compared whole, a trailing slash aside, and
/// queries exactly: a resource that is only a prefix of the server's URL would widen the
/// token's audience to every other server under it.
pub(crate) fn resource_identifies(resource: &Url, metadata_url: &str, server: &Url) -> bool {
    if resource.origin() != server.origin() || resource.fragment().is_some() {
        return false;
    }
    let root = format!("{}/.well-known/oauth-protected-resource", origin(server));
    if metadata_url == root {
        return trimmed_path(resource).is_empty() && resource.query().is_none();
    }
    trimmed_path(resource) == trimmed_path(server) && resource.query() == server.query()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn loopback_hosts() {
        for yes in [
            "http://localhost:1/",
            "http://LOCALHOST/",
            "http://127.0.0.1/",
            "http://127.9.9.9/",
            "http://[::1]:80/",
        ] {
            assert!(is_loopback(&url(yes)), "{yes}");
        }
        for no in [
            "http://localhost.evil.example/",
            "http://10.0.0.1/",
            "http://[::2]/",
            "http://example.com/",
        ] {
            assert!(!is_loopback(&url(no)), "{no}");
        }
    }

    #[test]
    fn endpoints_must_be_https_or_loopback_http() {
        let invalid = AuthErrorKind::InvalidMetadata;
        assert!(endpoint("https://as.example/token", "/t", "m", invalid).is_ok());
        assert!(endpoint("http://127.0.0.1:9/token", "/t", "m", invalid).is_ok());
        let e = endpoint("http://as.example/token", "/t", "m", invalid).unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::InsecureEndpoint);
        assert_eq!(e.pointer(), "/t");
        for bad in [
            "/token",
            "ftp://as.example/",
            "https://as.example/#x",
            "nope",
            "mailto:a@b",
        ] {
            let e = endpoint(bad, "/t", "m", invalid).unwrap_err();
            assert_eq!(e.kind(), invalid, "{bad}");
        }
    }

    #[test]
    fn resource_metadata_urls() {
        assert_eq!(
            resource_metadata_candidates(&url("http://localhost:5/mcp")),
            [
                "http://localhost:5/.well-known/oauth-protected-resource/mcp",
                "http://localhost:5/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            resource_metadata_candidates(&url("https://x.example/a/b/?q=1")),
            [
                "https://x.example/.well-known/oauth-protected-resource/a/b",
                "https://x.example/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            resource_metadata_candidates(&url("https://x.example:443")),
            ["https://x.example/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn server_metadata_urls() {
        assert_eq!(
            server_metadata_candidates(&url("http://localhost:7")),
            [
                "http://localhost:7/.well-known/oauth-authorization-server",
                "http://localhost:7/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            server_metadata_candidates(&url("http://localhost:7/tenant1/")),
            [
                "http://localhost:7/.well-known/oauth-authorization-server/tenant1",
                "http://localhost:7/.well-known/openid-configuration/tenant1",
                "http://localhost:7/tenant1/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn a_remote_server_sends_the_client_to_public_https_only() {
        let remote = url("https://mcp.example.com/mcp");
        for ok in [
            "https://as.example.com/token",
            "https://8.8.8.8/x",
            "https://[2001:db8::1]/",
        ] {
            assert!(reachable(&remote, &url(ok)).is_ok(), "{ok}");
        }
        for refused in [
            "http://as.example.com/token",
            "http://127.0.0.1:8080/admin?x=1",
            "https://localhost/",
            "https://LOCALHOST./",
            "https://api.localhost/",
            "https://127.0.0.1/",
            "https://10.1.2.3/",
            "https://172.16.0.1/",
            "https://192.168.1.1/",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/",
            "https://0.0.0.0/",
            "https://[::1]/",
            "https://[fe80::1]/",
            "https://[fd00::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:10.0.0.1]/",
        ] {
            let e = reachable(&remote, &url(refused)).unwrap_err();
            assert_eq!(e.kind(), AuthErrorKind::InsecureEndpoint, "{refused}");
        }
        // A server on loopback is the developer's own: plain http on loopback is allowed.
        let local = url("http://localhost:3000/mcp");
        assert!(reachable(&local, &url("http://127.0.0.1:9000/token")).is_ok());
        assert!(reachable(&local, &url("http://example.com/token")).is_err());
    }

    #[test]
    fn a_resource_is_the_one_its_metadata_location_was_made_from() {
        let server = url("http://localhost:5/mcp");
        let inserted = "http://localhost:5/.well-known/oauth-protected-resource/mcp";
        let root = "http://localhost:5/.well-known/oauth-protected-resource";
        let named = "http://localhost:5/custom/prm";
        for at in [inserted, named] {
            for yes in ["http://localhost:5/mcp", "http://localhost:5/mcp/"] {
                assert!(resource_identifies(&url(yes), at, &server), "{yes} at {at}");
            }
            for no in [
                "http://localhost:5",
                "http://localhost:5/",
                "http://localhost:5/mc",
                "http://localhost:5/mcp/deeper",
                "http://localhost:5/mcp?x=1",
                "http://localhost:6/mcp",
                "https://localhost:5/mcp",
            ] {
                assert!(!resource_identifies(&url(no), at, &server), "{no} at {at}");
            }
        }
        for yes in ["http://localhost:5", "http://localhost:5/"] {
            assert!(resource_identifies(&url(yes), root, &server), "{yes}");
        }
        for no in [
            "http://localhost:5/mcp",
            "http://localhost:5/other",
            "http://localhost:6/",
        ] {
            assert!(!resource_identifies(&url(no), root, &server), "{no}");
        }
    }

    #[test]
    fn resources_cover_their_own_paths_only() {
        let server = url("http://localhost:5/mcp");
        for yes in [
            "http://localhost:5",
            "http://localhost:5/",
            "http://localhost:5/mcp",
            "http://localhost:5/mcp/",
        ] {
            assert!(resource_covers(&url(yes), &server), "{yes}");
        }
        for no in [
            "https://evil.example.com/mcp",
            "http://localhost:6/mcp",
            "https://localhost:5/mcp",
            "http://localhost:5/mc",
            "http://localhost:5/mcp/deeper",
            "http://127.0.0.1:5/mcp",
        ] {
            assert!(!resource_covers(&url(no), &server), "{no}");
        }
        assert!(resource_covers(
            &url("http://localhost:5/mcp"),
            &url("http://localhost:5/mcp/x")
        ));
    }
}
