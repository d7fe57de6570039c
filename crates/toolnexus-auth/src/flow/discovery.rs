//! Discovery: the protected resource metadata, then the authorization server metadata, each
//! from the well-known URLs in turn (a 2025-03-26 server without them stands for its own
//! authorization server).

use url::Url;

use crate::error::{AuthError, AuthErrorKind, quote};
use crate::http::{HttpRequest, HttpResponse};
use crate::metadata::{fallback_server, read_resource_metadata, read_server_metadata};
use crate::refusal::redirected;
use crate::urls::{origin, server_metadata_candidates};

use super::{Flow, Next, Stage};

impl Flow {
    pub(super) fn on_resource_metadata(
        &mut self,
        response: &HttpResponse<'_>,
        candidates: Vec<String>,
        at: usize,
        hinted: bool,
    ) -> Result<Next, AuthError> {
        let url = candidates.get(at).cloned().unwrap_or_default();
        match response.status {
            200..=299 => {
                let found =
                    read_resource_metadata(response.body, &self.config.limits, &url, &self.server)?;
                let candidates = server_metadata_candidates(&found.issuer_url);
                let issuer = found.issuer.clone();
                self.resource = Some(found);
                self.fetch_server_metadata(candidates, issuer, false)
            }
            300..=399 => Err(redirected(&url, response)),
            400..=499 => {
                if let Some(next) = candidates.get(at + 1).cloned() {
                    self.stage = Stage::ResourceMetadata {
                        candidates,
                        at: at + 1,
                        hinted,
                    };
                    return Ok(Next::Fetch(HttpRequest::get_json(next)));
                }
                if hinted {
                    return Err(AuthError::new(
                        AuthErrorKind::MetadataNotFound,
                        "",
                        format!(
                            "the protected resource metadata the server names, {}, answered {}",
                            quote(&url),
                            response.status
                        ),
                    ));
                }
                // No protected resource metadata: a 2025-03-26 server, its origin its own
                // authorization server.
                let issuer = origin(&self.server);
                let candidates = Url::parse(&issuer)
                    .map(|u| server_metadata_candidates(&u))
                    .unwrap_or_default();
                self.fetch_server_metadata(candidates, issuer, true)
            }
            status => Err(unexpected(&url, status)),
        }
    }

    pub(super) fn fetch_server_metadata(
        &mut self,
        candidates: Vec<String>,
        issuer: String,
        legacy: bool,
    ) -> Result<Next, AuthError> {
        let first = candidates.first().cloned().unwrap_or_default();
        self.stage = Stage::ServerMetadata {
            candidates,
            at: 0,
            issuer,
            legacy,
        };
        Ok(Next::Fetch(HttpRequest::get_json(first)))
    }

    pub(super) fn on_server_metadata(
        &mut self,
        response: &HttpResponse<'_>,
        candidates: Vec<String>,
        at: usize,
        issuer: String,
        legacy: bool,
    ) -> Result<Next, AuthError> {
        let url = candidates.get(at).cloned().unwrap_or_default();
        match response.status {
            200..=299 => {
                let found = read_server_metadata(
                    response.body,
                    &self.config.limits,
                    &url,
                    &issuer,
                    &self.config.grant,
                )?;
                self.with_server(found)
            }
            300..=399 => Err(redirected(&url, response)),
            400..=499 => {
                if let Some(next) = candidates.get(at + 1).cloned() {
                    self.stage = Stage::ServerMetadata {
                        candidates,
                        at: at + 1,
                        issuer,
                        legacy,
                    };
                    return Ok(Next::Fetch(HttpRequest::get_json(next)));
                }
                if legacy {
                    return self.with_server(fallback_server(&issuer));
                }
                Err(AuthError::new(
                    AuthErrorKind::MetadataNotFound,
                    "",
                    format!(
                        "the authorization server {} publishes no metadata at {}",
                        quote(&issuer),
                        candidates
                            .iter()
                            .map(|c| quote(c))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ))
            }
            status => Err(unexpected(&url, status)),
        }
    }
}

/// The error for a metadata URL that answered `status`, neither success, redirect nor client
/// error.
fn unexpected(url: &str, status: u16) -> AuthError {
    AuthError::new(
        AuthErrorKind::UnexpectedStatus,
        "",
        format!("{} answered {status}", quote(url)),
    )
}
