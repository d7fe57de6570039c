//! The HTTP exchanges the flow asks for and reads, as plain data: a [`HttpRequest`] to send and
//! the [`HttpResponse`] that came back.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The HTTP method of a [`HttpRequest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`: metadata documents.
    Get,
    /// `POST`: client registration and the token endpoint.
    Post,
}

impl Method {
    /// The method as HTTP spells it: `GET` or `POST`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request the caller sends, then hands its response to
/// [`Flow::on_response`](crate::Flow::on_response).
///
/// The caller must **not** follow redirects for these requests: a redirect is handed back as
/// it is, and the flow refuses it. Header names are lowercase. The body may hold an
/// authorization code, a verifier or a client secret, and the `authorization` header a
/// client's credentials, so the `Debug` form shows neither.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `GET` or `POST`.
    pub method: Method,
    /// The absolute URL to send it to.
    pub url: String,
    /// Header names (lowercase) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body: empty for `GET`, JSON or a form for `POST` (as `content-type` says).
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// A `GET` of a JSON document at `url`.
    pub(crate) fn get_json(url: String) -> HttpRequest {
        HttpRequest {
            method: Method::Get,
            url,
            headers: vec![("accept".into(), "application/json".into())],
            body: Vec::new(),
        }
    }

    /// A `POST` to `url` of `body`, of the media type `content_type`, answered with JSON.
    pub(crate) fn post(url: String, content_type: &str, body: Vec<u8>) -> HttpRequest {
        HttpRequest {
            method: Method::Post,
            url,
            headers: vec![
                ("content-type".into(), content_type.into()),
                ("accept".into(), "application/json".into()),
            ],
            body,
        }
    }

    /// The value of the header `name` (lowercase), if it is set.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(n, v)| {
                // A token and a DPoP proof act for whoever holds them: names only.
                if n.eq_ignore_ascii_case("authorization") || n.eq_ignore_ascii_case("dpop") {
                    (n.as_str(), "…")
                } else {
                    (n.as_str(), v.as_str())
                }
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

/// A response to a [`HttpRequest`], as the caller received it.
#[derive(Debug, Clone, Copy)]
pub struct HttpResponse<'a> {
    /// The status code.
    pub status: u16,
    /// Header names (lowercase) and values, in order.
    pub headers: &'a [(String, String)],
    /// The body as received (after any transfer or content decoding).
    pub body: &'a [u8],
}

impl HttpResponse<'_> {
    /// The value of the first header `name` (lowercase), if there is one.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The HTTP Basic `authorization` header of `client_id` and `secret`, each form-urlencoded
/// first as OAuth wants (RFC 6749 §2.3.1).
pub(crate) fn basic(client_id: &str, secret: &str) -> (String, String) {
    let user = form_encode(client_id);
    let password = form_encode(secret);
    let basic = STANDARD.encode(format!("{user}:{password}"));
    ("authorization".into(), format!("Basic {basic}"))
}

/// `text` form-urlencoded (`application/x-www-form-urlencoded`, as HTTP Basic in OAuth wants
/// the id and secret).
fn form_encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_credentials_and_bodies() {
        let mut request = HttpRequest::post(
            "https://as.example/token".into(),
            "application/x-www-form-urlencoded",
            b"code=secret-code".to_vec(),
        );
        request
            .headers
            .push(("authorization".into(), "Basic c2VjcmV0".into()));
        request
            .headers
            .push(("DPoP".into(), "eyJ0eXAiOiJkcG9wK2p3dCJ9.proof.sig".into()));
        let shown = format!("{request:?}");
        assert!(!shown.contains("c2VjcmV0"), "{shown}");
        assert!(!shown.contains("eyJ0eXAi"), "{shown}");
        assert!(shown.contains("\"DPoP\""), "{shown}");
        assert!(!shown.contains("secret-code"), "{shown}");
        assert!(shown.contains("https://as.example/token"));
        assert_eq!(request.header("accept"), Some("application/json"));
        assert_eq!(Method::Post.to_string(), "POST");
    }

    #[test]
    fn response_headers_are_found_whatever_their_case() {
        let headers = vec![("Location".to_string(), "https://x".to_string())];
        let response = HttpResponse {
            status: 302,
            headers: &headers,
            body: b"",
        };
        assert_eq!(response.header("location"), Some("https://x"));
        assert_eq!(response.header("www-authenticate"), None);
    }
}
