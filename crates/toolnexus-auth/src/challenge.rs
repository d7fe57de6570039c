//! Reading a `WWW-Authenticate` header (RFC 9110 §11.6.1) into the [`Challenge`] a resource
//! server made: its scheme and the auth-params MCP uses (RFC 6750 §3, RFC 9728 §5.1).

/// What a resource server's 401 or 403 asked for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    /// The response's status code.
    pub status: u16,
    /// The scheme of the challenge read, as the server spelt it: the first `Bearer` challenge,
    /// else the first `DPoP` one, else the first of any scheme (whose parameters are then not
    /// read). Empty when the response had no `WWW-Authenticate` or nothing readable in it.
    pub scheme: String,
    /// `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs, space-separated (RFC 6750 §3).
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, … (RFC 6750 §3.1).
    pub error: Option<String>,
}

impl Challenge {
    /// Whether this is a step-up challenge: a 403 with `error="insufficient_scope"`, which
    /// asks for a token with more scopes (MCP authorization, "Scope Challenge Handling").
    pub fn is_insufficient_scope(&self) -> bool {
        self.status == 403 && self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Reads the challenge of a response of status `status` whose `WWW-Authenticate` header is
/// `www_authenticate` (its values joined with `, ` when there were several).
///
/// Auth-params are read in any order, their names case-insensitively, their values quoted
/// (with `\` escapes) or bare; the first of a repeated parameter counts. Nothing here fails:
/// what cannot be read is left out.
///
/// ```
/// use toolnexus_auth::parse_challenge;
///
/// let c = parse_challenge(
///     403,
///     Some(r#"Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource""#),
/// );
/// assert_eq!(c.scheme, "Bearer");
/// assert_eq!(c.scope.as_deref(), Some("mcp:write"));
/// assert!(c.is_insufficient_scope());
/// ```
pub fn parse_challenge(status: u16, www_authenticate: Option<&str>) -> Challenge {
    let challenges = www_authenticate.map(read_all).unwrap_or_default();
    let chosen = challenges
        .iter()
        .find(|c| c.scheme.eq_ignore_ascii_case("bearer"))
        .or_else(|| {
            challenges
                .iter()
                .find(|c| c.scheme.eq_ignore_ascii_case("dpop"))
        });
    match chosen {
        Some(c) => Challenge {
            status,
            scheme: c.scheme.clone(),
            resource_metadata: c.param("resource_metadata"),
            scope: c.param("scope"),
            error: c.param("error"),
        },
        None => Challenge {
            status,
            scheme: challenges
                .first()
                .map(|c| c.scheme.clone())
                .unwrap_or_default(),
            ..Challenge::default()
        },
    }
}

/// One challenge as written: its scheme and its parameters (names lowercase).
struct Written {
    scheme: String,
    params: Vec<(String, String)>,
}

impl Written {
    fn param(&self, name: &str) -> Option<String> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

/// Every challenge of a header value, in order.
fn read_all(header: &str) -> Vec<Written> {
    let mut cursor = Cursor {
        chars: header.chars().collect(),
        at: 0,
    };
    let mut out: Vec<Written> = Vec::new();
    loop {
        cursor.skip(|c| c == ',' || is_space(c));
        if cursor.done() {
            break;
        }
        let name = cursor.token();
        if name.is_empty() {
            cursor.skip_item();
            continue;
        }
        cursor.skip(is_space);
        if cursor.eat('=') {
            // An auth-param of the challenge being read.
            let value = cursor.value();
            if let Some(current) = out.last_mut() {
                current.params.push((name.to_ascii_lowercase(), value));
            }
            cursor.skip_item();
            continue;
        }
        // A new challenge: its scheme, then a first auth-param or a token68.
        let mut challenge = Written {
            scheme: name,
            params: Vec::new(),
        };
        if !cursor.done() && cursor.peek() != Some(',') {
            let first = cursor.token();
            cursor.skip(is_space);
            if !first.is_empty() && cursor.eat('=') {
                let value = cursor.value();
                challenge.params.push((first.to_ascii_lowercase(), value));
            }
            cursor.skip_item();
        }
        out.push(challenge);
    }
    for challenge in &mut out {
        // The first of a repeated parameter counts.
        let mut seen: Vec<String> = Vec::new();
        challenge.params.retain(|(name, _)| {
            if seen.contains(name) {
                false
            } else {
                seen.push(name.clone());
                true
            }
        });
    }
    out
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

struct Cursor {
    chars: Vec<char>,
    at: usize,
}

impl Cursor {
    fn done(&self) -> bool {
        self.at >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn skip(&mut self, what: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&what) {
            self.at += 1;
        }
    }

    fn token(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek().filter(|c| is_tchar(*c)) {
            out.push(c);
            self.at += 1;
        }
        out
    }

    /// A parameter's value after its `=`: a quoted string, or bare text up to a space or a
    /// comma (lenient: a bare URL is read whole).
    fn value(&mut self) -> String {
        self.skip(is_space);
        let mut out = String::new();
        if self.eat('"') {
            while let Some(c) = self.peek() {
                self.at += 1;
                match c {
                    '"' => break,
                    '\\' => {
                        if let Some(escaped) = self.peek() {
                            out.push(escaped);
                            self.at += 1;
                        }
                    }
                    c => out.push(c),
                }
            }
        } else {
            while let Some(c) = self.peek().filter(|c| *c != ',' && !is_space(*c)) {
                out.push(c);
                self.at += 1;
            }
        }
        out
    }

    /// Skips what is left of the current item, up to the next comma outside quotes.
    fn skip_item(&mut self) {
        let mut quoted = false;
        while let Some(c) = self.peek() {
            match c {
                ',' if !quoted => break,
                '"' => quoted = !quoted,
                '\\' if quoted => self.at += 1,
                _ => {}
            }
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sdk_default_challenge() {
        let c = parse_challenge(
            401,
            Some(
                r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#,
            ),
        );
        assert_eq!(c.status, 401);
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c.scope, None);
        assert!(!c.is_insufficient_scope());
    }

    #[test]
    fn reads_params_in_any_order_quoted_or_bare() {
        let c = parse_challenge(
            403,
            Some(
                r#"bearer scope="mcp:write", resource_metadata="http://x/y", error=insufficient_scope"#,
            ),
        );
        assert_eq!(c.scheme, "bearer");
        assert_eq!(c.scope.as_deref(), Some("mcp:write"));
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert!(c.is_insufficient_scope());
        let c = parse_challenge(
            401,
            Some("Bearer scope = \"a b\" ,RESOURCE_METADATA=http://x/y"),
        );
        assert_eq!(c.scope.as_deref(), Some("a b"));
        assert_eq!(c.resource_metadata.as_deref(), Some("http://x/y"));
    }

    #[test]
    fn quoted_values_keep_commas_and_escapes() {
        let c = parse_challenge(
            401,
            Some(r#"Bearer error_description="a, \"b\"", scope="x,y", error="e\\f""#),
        );
        assert_eq!(c.scope.as_deref(), Some("x,y"));
        assert_eq!(c.error.as_deref(), Some("e\\f"));
    }

    #[test]
    fn picks_bearer_among_several_challenges() {
        let c = parse_challenge(
            401,
            Some(
                r#"Basic realm="simple", Newauth realm="apps", type=1, DPoP algs="ES256", Bearer scope="s""#,
            ),
        );
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.scope.as_deref(), Some("s"));
        let c = parse_challenge(
            401,
            Some(r#"Basic dXNlcjpwYXNz==, DPoP resource_metadata="http://m/prm""#),
        );
        assert_eq!(c.scheme, "DPoP");
        assert_eq!(c.resource_metadata.as_deref(), Some("http://m/prm"));
        let c = parse_challenge(401, Some(r#"Basic realm="x", scope="ignored""#));
        assert_eq!(c.scheme, "Basic");
        assert_eq!(c.scope, None);
    }

    #[test]
    fn bare_scheme_absent_header_and_garbage() {
        let c = parse_challenge(401, Some("Bearer"));
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.resource_metadata, None);
        let c = parse_challenge(401, None);
        assert_eq!(c.scheme, "");
        for garbage in [
            "",
            ",,,",
            "=",
            "\"",
            "Bearer \"",
            "Bearer a=\"unterminated",
            "Bearer a=\\",
            "@@@ , === , Bearer",
            "Bearer ,,, scope",
            "\u{0}\u{7f}é",
        ] {
            let _ = parse_challenge(401, Some(garbage));
        }
        let c = parse_challenge(401, Some("Bearer a=\"unterminated, scope=\"s\""));
        assert_eq!(c.scope, None);
    }

    #[test]
    fn the_first_of_a_repeated_param_counts() {
        let c = parse_challenge(401, Some(r#"Bearer scope="a", scope="b""#));
        assert_eq!(c.scope.as_deref(), Some("a"));
    }

    #[test]
    fn token68_after_the_scheme_is_skipped() {
        let c = parse_challenge(401, Some("Bearer abc/def==, scope=\"s\""));
        assert_eq!(c.scope.as_deref(), Some("s"));
    }
}
