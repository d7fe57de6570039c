//! Which scopes to ask for (MCP authorization, "Scope Selection Strategy"): the challenge's,
//! else every scope the resource supports, else none; on a step-up the union with the scopes
//! held already; `offline_access` added only where the authorization server offers it.

/// Whether `token` may be one scope: RFC 6749 §3.3 `scope-token`, printable ASCII but space,
/// `"` and `\`.
pub(crate) fn is_scope_token(token: &str) -> bool {
    !token.is_empty()
        && token
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

/// The scopes of a space-separated list, in order, each once.
pub(crate) fn split(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for token in list.split(' ').filter(|t| !t.is_empty()) {
        if !out.iter().any(|t| t == token) {
            out.push(token.to_owned());
        }
    }
    out
}

/// The `scope` of an authorization request, or `None` to send none.
///
/// `challenged` are the scopes of the `WWW-Authenticate` challenge, `supported` the
/// protected resource's `scopes_supported`, `held` the scopes of the grant a step-up
/// extends, `offered` the authorization server's `scopes_supported`.
pub(crate) fn choose(
    challenged: &[String],
    supported: &[String],
    held: &[String],
    offered: &[String],
) -> Option<String> {
    let wanted = if challenged.is_empty() {
        supported
    } else {
        challenged
    };
    let mut scopes: Vec<&str> = Vec::new();
    for scope in held.iter().chain(wanted) {
        if !scopes.contains(&scope.as_str()) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return None;
    }
    const OFFLINE: &str = "offline_access";
    if offered.iter().any(|s| s == OFFLINE) && !scopes.contains(&OFFLINE) {
        scopes.push(OFFLINE);
    }
    Some(scopes.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<String> {
        split(text)
    }

    #[test]
    fn the_challenge_wins_then_the_resource_then_nothing() {
        let none: Vec<String> = Vec::new();
        assert_eq!(
            choose(&list("mcp:basic"), &list("mcp:profile"), &none, &none).as_deref(),
            Some("mcp:basic")
        );
        assert_eq!(
            choose(&none, &list("mcp:basic mcp:read mcp:write"), &none, &none).as_deref(),
            Some("mcp:basic mcp:read mcp:write")
        );
        assert_eq!(choose(&none, &none, &none, &list("offline_access")), None);
    }

    #[test]
    fn a_step_up_keeps_what_was_held() {
        let none: Vec<String> = Vec::new();
        assert_eq!(
            choose(&list("mcp:write"), &none, &list("mcp:basic"), &none).as_deref(),
            Some("mcp:basic mcp:write")
        );
        assert_eq!(
            choose(&list("mcp:admin"), &none, &list("mcp:admin"), &none).as_deref(),
            Some("mcp:admin")
        );
    }

    #[test]
    fn offline_access_only_where_offered_and_once() {
        let none: Vec<String> = Vec::new();
        assert_eq!(
            choose(
                &none,
                &list("mcp:basic"),
                &none,
                &list("mcp:basic offline_access")
            )
            .as_deref(),
            Some("mcp:basic offline_access")
        );
        assert_eq!(
            choose(
                &list("offline_access a"),
                &none,
                &none,
                &list("offline_access")
            )
            .as_deref(),
            Some("offline_access a")
        );
        assert_eq!(
            choose(
                &none,
                &list("mcp:basic mcp:read"),
                &none,
                &list("mcp:basic mcp:read")
            )
            .as_deref(),
            Some("mcp:basic mcp:read")
        );
    }

    #[test]
    fn scope_tokens() {
        assert!(is_scope_token("mcp:basic"));
        assert!(is_scope_token("https://x/y!#[]~"));
        for bad in ["", "a b", "a\"b", "a\\b", "é", "a\n"] {
            assert!(!is_scope_token(bad), "{bad:?}");
        }
        assert_eq!(split("  a b  a "), ["a", "b"]);
    }
}
