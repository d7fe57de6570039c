//! The flow's DPoP (RFC 9449): when it proves its token requests ([`DpopUse`]), the proof
//! each request carries, and the nonce a server asks for.

use toolnexus_core::closed_set;

use crate::document::Document;
use crate::dpop::{check_nonce, derived_jti};
use crate::error::{AuthError, AuthErrorKind};
use crate::http::{HttpRequest, HttpResponse};
use crate::secret::Secret;

use super::Flow;

closed_set! {
    /// When a flow proves its token requests with DPoP (RFC 9449), which binds the token to a
    /// key the flow makes from its entropy; named as a host's option spells it.
    #[derive(Default)]
    pub enum DpopUse {
        /// When the authorization server lists `ES256` in `dpop_signing_alg_values_supported`.
        #[default]
        WhenOffered => "when-offered",
        /// Always, whatever the server's metadata says.
        Always => "always",
        /// Never: tokens are asked for as `Bearer` tokens.
        Never => "never",
    }
}

impl Flow {
    /// `request` with a fresh DPoP proof (and `nonce`, when the server asked for one), when
    /// the flow proves its token requests.
    pub(super) fn prove(
        &mut self,
        mut request: HttpRequest,
        nonce: Option<&str>,
    ) -> Result<HttpRequest, AuthError> {
        if let Some(key) = &self.dpop {
            let jti = derived_jti(self.jti_seed.expose_bytes(), self.proofs);
            self.proofs = self.proofs.saturating_add(1);
            let proof = key.proof(
                request.method.as_str(),
                &request.url,
                self.now_ms,
                &jti,
                None,
                nonce,
            )?;
            self.presented.push(Secret::from(proof.as_str()));
            request.headers.push(("dpop".into(), proof));
        }
        Ok(request)
    }

    /// The `DPoP-Nonce` a `400` with `error=use_dpop_nonce` asks for (RFC 9449 §8), when the
    /// token request was proved and not yet sent again with one.
    pub(super) fn asked_nonce(
        &self,
        response: &HttpResponse<'_>,
    ) -> Result<Option<String>, AuthError> {
        if self.dpop.is_none() || self.nonce_retried || response.status != 400 {
            return Ok(None);
        }
        let Some(nonce) = response.header("dpop-nonce") else {
            return Ok(None);
        };
        let asked = Document::read(
            response.body,
            &self.config.limits,
            String::from("the token error response"),
            AuthErrorKind::InvalidResponse,
        )
        .ok()
        .is_some_and(|doc| doc.string("error").ok().flatten() == Some("use_dpop_nonce"));
        if !asked {
            return Ok(None);
        }
        check_nonce(nonce)?;
        Ok(Some(nonce.to_owned()))
    }
}
