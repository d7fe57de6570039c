//! The client's identity at one authorization server: a [`Client`] (pre-registered, a client
//! metadata document URL, or registered dynamically, RFC 7591), and how it authenticates at
//! the token endpoint ([`AuthMethod`]).

use toolnexus_core::closed_set;
use toolnexus_core::json::{Limits, Map, Value};

use crate::document::{Document, only_members};
use crate::error::{AuthError, AuthErrorKind, quote};
use crate::grant_type::GrantType;
use crate::http::{HttpRequest, HttpResponse, basic};
use crate::refusal::refusal;
use crate::secret::Secret;

closed_set! {
    /// How a client authenticates at the token endpoint (RFC 7591 §2,
    /// `token_endpoint_auth_method`), named as RFC 7591 names it; `from_name` knows the
    /// methods this crate implements.
    pub enum AuthMethod {
        /// `none`: a public client, which sends its `client_id` in the body.
        None => "none",
        /// `client_secret_basic`: HTTP Basic with the form-encoded id and secret.
        ClientSecretBasic => "client_secret_basic",
        /// `client_secret_post`: `client_id` and `client_secret` in the body.
        ClientSecretPost => "client_secret_post",
        /// `private_key_jwt`: a JWT signed with the client's [`ClientKey`](crate::ClientKey)
        /// in the body (RFC 7523 §2.2).
        PrivateKeyJwt => "private_key_jwt",
    }
}

impl AuthMethod {
    /// The method to use for a client with a secret or not (`has_secret`) and a
    /// [`ClientKey`](crate::ClientKey) or not (`has_key`), registered with `registered` if
    /// the server said, at a server listing `supported` (`token_endpoint_auth_methods_supported`,
    /// `None` when it lists nothing).
    ///
    /// The registered method wins when this crate implements it, the client can use it and the
    /// server lists it (or lists nothing: an absent or empty list). Otherwise a client with a
    /// key takes `private_key_jwt` if listed; one with a secret `client_secret_basic` if
    /// listed (or nothing is listed: RFC 8414's default), then `client_secret_post`; a client
    /// with a key and no secret `private_key_jwt` still; any other, `none`.
    pub(crate) fn choose(
        registered: Option<&str>,
        has_secret: bool,
        has_key: bool,
        supported: Option<&[String]>,
    ) -> AuthMethod {
        let listed = |m: AuthMethod| {
            supported.is_none_or(|l| l.is_empty() || l.iter().any(|s| s == m.as_str()))
        };
        let strictly_listed =
            |m: AuthMethod| supported.is_some_and(|l| l.iter().any(|s| s == m.as_str()));
        let usable = |m: AuthMethod| match m {
            AuthMethod::None => true,
            AuthMethod::ClientSecretBasic | AuthMethod::ClientSecretPost => has_secret,
            AuthMethod::PrivateKeyJwt => has_key,
        };
        if let Some(method) = registered.and_then(AuthMethod::from_name)
            && usable(method)
            && listed(method)
        {
            return method;
        }
        if has_key && strictly_listed(AuthMethod::PrivateKeyJwt) {
            return AuthMethod::PrivateKeyJwt;
        }
        if !has_secret {
            return if has_key {
                AuthMethod::PrivateKeyJwt
            } else {
                AuthMethod::None
            };
        }
        match supported {
            None => AuthMethod::ClientSecretBasic,
            Some(_) => [
                AuthMethod::ClientSecretBasic,
                AuthMethod::ClientSecretPost,
                AuthMethod::None,
            ]
            .into_iter()
            .find(|m| listed(*m))
            .unwrap_or(AuthMethod::ClientSecretBasic),
        }
    }
}

/// A client registration at one authorization server: stored per issuer, and never used with
/// another. Its `Debug` form shows no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub(crate) client_id: String,
    pub(crate) client_secret: Option<Secret>,
    pub(crate) auth_method: AuthMethod,
    pub(crate) issuer: String,
}

impl Client {
    /// The `client_id`: pre-registered, a client metadata document URL, or issued by
    /// registration.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The `client_secret`, for a confidential client.
    pub fn client_secret(&self) -> Option<&str> {
        self.client_secret.as_ref().map(Secret::expose)
    }

    /// How it authenticates at the token endpoint.
    pub fn auth_method(&self) -> AuthMethod {
        self.auth_method
    }

    /// The issuer of the authorization server it belongs to.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Adds this client's authentication to a token request: its `form` fields or its
    /// `headers` (RFC 6749 §2.3.1); for `private_key_jwt`, the signed `assertion` the flow
    /// made (RFC 7523 §2.2). A client with no id (an unauthenticated JWT bearer grant) adds
    /// nothing. Every value of a token request's form is held as a [`Secret`].
    pub(crate) fn authenticate(
        &self,
        form: &mut Vec<(&'static str, Secret)>,
        headers: &mut Vec<(String, String)>,
        assertion: Option<Secret>,
    ) {
        match (self.auth_method, &self.client_secret, assertion) {
            (AuthMethod::PrivateKeyJwt, _, Some(assertion)) => {
                form.push(("client_id", Secret::from(self.client_id.as_str())));
                form.push((
                    "client_assertion_type",
                    Secret::from(crate::client_key::CLIENT_ASSERTION_TYPE),
                ));
                form.push(("client_assertion", assertion));
            }
            (AuthMethod::ClientSecretBasic, Some(secret), _) => {
                headers.push(basic(&self.client_id, secret.expose()));
            }
            (AuthMethod::ClientSecretPost, Some(secret), _) => {
                form.push(("client_id", Secret::from(self.client_id.as_str())));
                form.push(("client_secret", secret.clone()));
            }
            _ if self.client_id.is_empty() => {}
            _ => form.push(("client_id", Secret::from(self.client_id.as_str()))),
        }
    }

    /// The client as a JSON object, for storage.
    pub(crate) fn to_map(&self) -> Map {
        let mut map = Map::new();
        map.insert("client_id", Value::from(self.client_id.as_str()));
        if let Some(secret) = &self.client_secret {
            map.insert("client_secret", Value::from(secret.expose()));
        }
        map.insert("auth_method", Value::from(self.auth_method.as_str()));
        map.insert("issuer", Value::from(self.issuer.as_str()));
        map
    }

    /// The client stored as `doc` (see [`Client::to_map`]).
    pub(crate) fn from_document(doc: &Document) -> Result<Client, AuthError> {
        only_members(
            doc,
            &["client_id", "client_secret", "auth_method", "issuer"],
        )?;
        let method = doc.required_string("auth_method")?;
        let auth_method = AuthMethod::from_name(method).ok_or_else(|| {
            doc.error(
                "auth_method",
                format_args!("is {}, not a method this crate knows", quote(method)),
            )
        })?;
        Ok(Client {
            client_id: doc.required_string("client_id")?.to_owned(),
            client_secret: doc.string("client_secret")?.map(Secret::from),
            auth_method,
            issuer: doc.required_string("issuer")?.to_owned(),
        })
    }
}

/// The dynamic client registration request (RFC 7591 §3.1) to `endpoint`: a native public
/// client named `client_name` that may refresh its tokens; for the authorization code grant,
/// redirected to `redirect_uri`; for the device grant (`device`), without redirect URIs or
/// response types, as RFC 8628 needs none.
pub(crate) fn registration_request(
    endpoint: &str,
    client_name: &str,
    redirect_uri: &str,
    device: bool,
) -> HttpRequest {
    let strings = |items: &[&str]| Value::Array(items.iter().map(|s| Value::from(*s)).collect());
    let mut body = Map::new();
    body.insert("client_name", Value::from(client_name));
    if device {
        body.insert("redirect_uris", strings(&[]));
        body.insert(
            "grant_types",
            strings(&[GrantType::DeviceCode.as_str(), "refresh_token"]),
        );
        body.insert("response_types", strings(&[]));
    } else {
        body.insert("redirect_uris", strings(&[redirect_uri]));
        body.insert(
            "grant_types",
            strings(&[GrantType::AuthorizationCode.as_str(), "refresh_token"]),
        );
        body.insert("response_types", strings(&["code"]));
    }
    body.insert(
        "token_endpoint_auth_method",
        Value::from(AuthMethod::None.as_str()),
    );
    body.insert("application_type", Value::from("native"));
    HttpRequest::post(
        endpoint.to_owned(),
        "application/json",
        body.to_json().into_bytes(),
    )
}

/// Reads the answer of the registration endpoint `url` of the server `issuer`, which lists
/// `supported` token endpoint auth methods.
pub(crate) fn read_registration(
    response: &HttpResponse<'_>,
    limits: &Limits,
    url: &str,
    issuer: &str,
    supported: Option<&[String]>,
) -> Result<Client, AuthError> {
    let what = format!("the client registration response of {}", quote(url));
    if !(200..300).contains(&response.status) {
        let code = refusal(response, limits, what, &[]);
        return Err(AuthError::new(
            AuthErrorKind::RegistrationFailed,
            "",
            format!(
                "the registration endpoint {} answered {}{}",
                quote(url),
                response.status,
                code.map(|c| format!(" with {c}")).unwrap_or_default()
            ),
        ));
    }
    let doc = Document::read(response.body, limits, what, AuthErrorKind::InvalidResponse)?;
    let client_id = doc.required_string("client_id")?;
    let client_secret = doc.string("client_secret")?.filter(|s| !s.is_empty());
    let registered = doc.string("token_endpoint_auth_method")?;
    Ok(Client {
        client_id: client_id.to_owned(),
        client_secret: client_secret.map(Secret::from),
        auth_method: AuthMethod::choose(registered, client_secret.is_some(), false, supported),
        issuer: issuer.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn method_choice() {
        use AuthMethod::{ClientSecretBasic, ClientSecretPost};
        const NONE: AuthMethod = AuthMethod::None;
        let basic = list(&["client_secret_basic"]);
        let post = list(&["client_secret_post"]);
        let none = list(&["none"]);
        let both = list(&["client_secret_post", "client_secret_basic"]);
        let jwt = list(&["private_key_jwt"]);
        type Case<'a> = (Option<&'a str>, bool, Option<&'a [String]>, AuthMethod);
        let cases: [Case; 12] = [
            (
                Some("client_secret_basic"),
                true,
                Some(&basic),
                ClientSecretBasic,
            ),
            (
                Some("client_secret_post"),
                true,
                Some(&post),
                ClientSecretPost,
            ),
            (Some("none"), false, Some(&none), NONE),
            (None, true, Some(&none), NONE),
            (None, true, Some(&basic), ClientSecretBasic),
            (None, true, Some(&both), ClientSecretBasic),
            (None, true, Some(&post), ClientSecretPost),
            (None, true, None, ClientSecretBasic),
            (None, false, Some(&basic), NONE),
            (Some("client_secret_post"), false, Some(&post), NONE),
            (
                Some("client_secret_post"),
                true,
                Some(&basic),
                ClientSecretBasic,
            ),
            (Some("private_key_jwt"), true, Some(&jwt), ClientSecretBasic),
        ];
        for (registered, secret, supported, expected) in cases {
            assert_eq!(
                AuthMethod::choose(registered, secret, false, supported),
                expected,
                "{registered:?} {secret} {supported:?}"
            );
        }
        assert_eq!(
            AuthMethod::choose(Some("none"), true, false, Some(&[] as &[String])),
            NONE
        );
        // A client with a key: private_key_jwt where listed, or where nothing else applies.
        let jwt_or_basic = list(&["client_secret_basic", "private_key_jwt"]);
        let key_cases: [Case; 6] = [
            (None, false, Some(&jwt), AuthMethod::PrivateKeyJwt),
            (None, true, Some(&jwt_or_basic), AuthMethod::PrivateKeyJwt),
            (None, false, None, AuthMethod::PrivateKeyJwt),
            (None, true, Some(&basic), ClientSecretBasic),
            (None, true, None, ClientSecretBasic),
            (
                Some("client_secret_basic"),
                true,
                Some(&jwt_or_basic),
                ClientSecretBasic,
            ),
        ];
        for (registered, secret, supported, expected) in key_cases {
            assert_eq!(
                AuthMethod::choose(registered, secret, true, supported),
                expected,
                "with a key: {registered:?} {secret} {supported:?}"
            );
        }
        for m in AuthMethod::ALL {
            assert_eq!(AuthMethod::from_name(m.as_str()), Some(m));
            assert_eq!(m.to_string(), m.as_str());
        }
    }

    fn client(method: AuthMethod, secret: Option<&str>) -> Client {
        Client {
            client_id: "id:é/+".into(),
            client_secret: secret.map(Secret::from),
            auth_method: method,
            issuer: "https://as.example".into(),
        }
    }

    #[test]
    fn authentication_by_method() {
        let mut form = Vec::new();
        let mut headers = Vec::new();
        client(AuthMethod::ClientSecretBasic, Some("s e:c")).authenticate(
            &mut form,
            &mut headers,
            None,
        );
        assert!(form.is_empty());
        let (name, value) = &headers[0];
        assert_eq!(name, "authorization");
        let decoded = STANDARD
            .decode(value.strip_prefix("Basic ").unwrap())
            .unwrap();
        assert_eq!(
            String::from_utf8(decoded).unwrap(),
            "id%3A%C3%A9%2F%2B:s+e%3Ac"
        );

        let mut form = Vec::new();
        let mut headers = Vec::new();
        client(AuthMethod::ClientSecretPost, Some("sec")).authenticate(
            &mut form,
            &mut headers,
            None,
        );
        assert!(headers.is_empty());
        assert_eq!(
            form,
            [
                ("client_id", Secret::from("id:é/+")),
                ("client_secret", Secret::from("sec"))
            ]
        );

        let mut form = Vec::new();
        client(AuthMethod::None, Some("sec")).authenticate(&mut form, &mut headers, None);
        assert_eq!(form, [("client_id", Secret::from("id:é/+"))]);

        let mut form = Vec::new();
        client(AuthMethod::PrivateKeyJwt, None).authenticate(
            &mut form,
            &mut headers,
            Some("h.c.s".into()),
        );
        assert_eq!(
            form,
            [
                ("client_id", Secret::from("id:é/+")),
                (
                    "client_assertion_type",
                    Secret::from(crate::client_key::CLIENT_ASSERTION_TYPE)
                ),
                ("client_assertion", Secret::from("h.c.s")),
            ]
        );

        // A client without an id (an unauthenticated JWT bearer grant) adds nothing.
        let mut form = Vec::new();
        let anonymous = Client {
            client_id: String::new(),
            ..client(AuthMethod::None, None)
        };
        anonymous.authenticate(&mut form, &mut headers, None);
        assert!(form.is_empty());
        assert!(headers.is_empty());
    }

    #[test]
    fn debug_hides_the_secret() {
        let shown = format!(
            "{:?}",
            client(AuthMethod::ClientSecretPost, Some("hunter2"))
        );
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn the_registration_request() {
        let request = registration_request(
            "https://as.example/register",
            "toolnexus",
            "http://127.0.0.1:1/callback",
            false,
        );
        assert_eq!(request.url, "https://as.example/register");
        assert_eq!(request.header("content-type"), Some("application/json"));
        assert_eq!(
            String::from_utf8(request.body).unwrap(),
            r#"{"client_name":"toolnexus","redirect_uris":["http://127.0.0.1:1/callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none","application_type":"native"}"#
        );
        let device = registration_request("https://as.example/register", "toolnexus", "", true);
        assert_eq!(
            String::from_utf8(device.body).unwrap(),
            r#"{"client_name":"toolnexus","redirect_uris":[],"grant_types":["urn:ietf:params:oauth:grant-type:device_code","refresh_token"],"response_types":[],"token_endpoint_auth_method":"none","application_type":"native"}"#
        );
    }

    fn answer(status: u16, body: &str) -> Result<Client, AuthError> {
        let headers = Vec::new();
        let response = HttpResponse {
            status,
            headers: &headers,
            body: body.as_bytes(),
        };
        read_registration(
            &response,
            &Limits::DEFAULT,
            "https://as.example/register",
            "https://as.example",
            Some(&list(&["client_secret_basic"])),
        )
    }

    #[test]
    fn registration_responses() {
        let c = answer(201, r#"{"client_id":"c1","client_secret":"s1","token_endpoint_auth_method":"client_secret_basic"}"#).unwrap();
        assert_eq!(
            (
                c.client_id(),
                c.client_secret(),
                c.auth_method(),
                c.issuer()
            ),
            (
                "c1",
                Some("s1"),
                AuthMethod::ClientSecretBasic,
                "https://as.example"
            )
        );
        let c = answer(200, r#"{"client_id":"c2","client_secret":""}"#).unwrap();
        assert_eq!(
            (c.client_secret(), c.auth_method()),
            (None, AuthMethod::None)
        );
        let e = answer(201, r#"{"client_secret":"s"}"#).unwrap_err();
        assert_eq!(
            (e.kind(), e.pointer()),
            (AuthErrorKind::InvalidResponse, "/client_id")
        );
        assert!(!e.message().contains("\"s\""));
        let e = answer(201, r#"{"client_id":1}"#).unwrap_err();
        assert_eq!(e.pointer(), "/client_id");
        let e = answer(
            400,
            r#"{"error":"invalid_redirect_uri","error_description":"no\u0007"}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::RegistrationFailed);
        assert!(
            e.message().contains("invalid_redirect_uri") && e.message().contains("400"),
            "{}",
            e.message()
        );
        assert!(!e.message().contains('\u{7}'));
        let e = answer(500, "<html>").unwrap_err();
        assert_eq!(e.kind(), AuthErrorKind::RegistrationFailed);
    }
}
