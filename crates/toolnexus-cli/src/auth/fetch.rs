//! The HTTP requests of an authorization flow (metadata, registration, token), sent as the
//! flow writes them: never following a redirect (the flow refuses one), within the call's
//! timeout each, a body read no further than the flow's limits and one byte (so that a longer
//! one is refused as too large, not cut).

use std::io::Read;
use std::time::Duration;

use toolnexus_auth::{HttpRequest, Method};

/// A response as received: status, headers (lowercase names) and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The status code.
    pub status: u16,
    /// Header names (lowercase) and values.
    pub headers: Vec<(String, String)>,
    /// The body, up to the limit.
    pub body: Vec<u8>,
}

/// How long a connection may have been idle and still carry the next request, for every HTTP
/// client of the CLI: servers close idle connections after a few seconds (Node.js and uvicorn
/// after 5), and a request sent on one they are closing is lost to a reset.
pub(crate) const IDLE_REUSE: Duration = Duration::from_secs(3);

/// Sends the flow's requests.
#[derive(Debug, Clone)]
pub struct Fetcher {
    agent: ureq::Agent,
    max_body: u64,
}

impl Fetcher {
    /// A fetcher whose requests each take at most `patience`, reading bodies of up to
    /// `max_body` bytes.
    pub fn new(patience: Duration, max_body: usize) -> Fetcher {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .timeout_global(Some(patience))
            // As the MCP transport does: a POST sent on a connection the server is closing
            // for idleness is lost to a reset, and a token request may not be sent twice.
            .max_idle_age(IDLE_REUSE)
            .build()
            .into();
        Fetcher {
            agent,
            max_body: u64::try_from(max_body).unwrap_or(u64::MAX),
        }
    }

    /// Sends `request` and reads its response. The error says which URL could not be reached
    /// and why; it never holds the request's headers or body.
    pub fn send(&self, request: &HttpRequest) -> Result<Fetched, String> {
        let sent = match request.method {
            Method::Get => {
                let mut builder = self.agent.get(&request.url);
                for (name, value) in &request.headers {
                    builder = builder.header(name, value);
                }
                builder.call()
            }
            Method::Post => {
                let mut builder = self.agent.post(&request.url);
                for (name, value) in &request.headers {
                    builder = builder.header(name, value);
                }
                builder.send(request.body.as_slice())
            }
        };
        let response =
            sent.map_err(|e| format!("the {} of {} failed: {e}", request.method, request.url))?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((
                    String::from(name.as_str()),
                    String::from(value.to_str().ok()?),
                ))
            })
            .collect();
        let mut body = Vec::new();
        response
            .into_body()
            .into_reader()
            .take(self.max_body.saturating_add(1))
            .read_to_end(&mut body)
            .map_err(|e| format!("the answer of {} could not be read: {e}", request.url))?;
        Ok(Fetched {
            status,
            headers,
            body,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::TcpListener;
    use std::thread;

    use super::*;

    /// A server on 127.0.0.1 that answers each connection with `answer`: its URL.
    fn answering(answer: &'static str, connections: usize) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        thread::spawn(move || {
            for stream in listener.incoming().take(connections) {
                let mut stream = stream.unwrap();
                let mut head = Vec::new();
                let mut byte = [0_u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
                    head.push(byte[0]);
                }
                stream.write_all(answer.as_bytes()).unwrap();
            }
        });
        url
    }

    fn get(url: String) -> HttpRequest {
        HttpRequest {
            method: Method::Get,
            url,
            headers: vec![(String::from("accept"), String::from("application/json"))],
            body: Vec::new(),
        }
    }

    #[test]
    fn a_redirect_is_handed_back_not_followed() {
        let url = answering(
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            1,
        );
        let fetched = Fetcher::new(Duration::from_secs(10), 1024)
            .send(&get(format!("{url}/.well-known/oauth-protected-resource")))
            .unwrap();
        assert_eq!(fetched.status, 302);
        assert!(fetched.headers.contains(&(
            String::from("location"),
            String::from("http://127.0.0.1:9/elsewhere")
        )));
    }

    #[test]
    fn a_body_is_read_up_to_one_byte_past_the_limit() {
        let url = answering(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789",
            2,
        );
        let short = Fetcher::new(Duration::from_secs(10), 4)
            .send(&get(url.clone()))
            .unwrap();
        assert_eq!(short.body, b"01234");
        let whole = Fetcher::new(Duration::from_secs(10), 64)
            .send(&get(url))
            .unwrap();
        assert_eq!(
            (whole.status, whole.body.as_slice()),
            (200, &b"0123456789"[..])
        );
    }

    #[test]
    fn an_unreachable_server_is_said_with_its_url_only() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/token", listener.local_addr().unwrap());
        drop(listener);
        let request = HttpRequest {
            method: Method::Post,
            url: url.clone(),
            headers: vec![(
                String::from("authorization"),
                String::from("Basic c2VjcmV0"),
            )],
            body: b"code=the-code&code_verifier=the-verifier".to_vec(),
        };
        let why = Fetcher::new(Duration::from_secs(10), 64)
            .send(&request)
            .unwrap_err();
        assert!(why.contains(&url), "{why}");
        for secret in ["c2VjcmV0", "the-code", "the-verifier"] {
            assert!(!why.contains(secret), "{why}");
        }
    }
}
