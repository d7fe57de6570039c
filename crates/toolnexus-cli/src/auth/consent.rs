//! The person's consent to an authorization link, before it is opened: the link becomes a
//! `kind: "authorization"` [`Request`](toolnexus_core::Request) (the auth crate writes it),
//! reviewed by the core like every URL and answered by the asker (the terminal's consent
//! screen, or the next of `--answers`). A link the review rejects is never offered: an accept
//! of it is refused and asked again, as for a URL-mode elicitation.

use toolnexus_auth::Authorization;
use toolnexus_core::{Answer, Error, id};

use crate::ask::{Ask, Asker};
use crate::elicit::answer_with;

/// What the person said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Consent {
    /// Open the link.
    Given,
    /// Not now: `declined` or `cancelled`, or why else.
    Refused(String),
    /// Nobody could be asked (no terminal and no `--answers`, or the answers ran out).
    Unasked,
}

/// Asks `asker` to consent to opening `authorization`'s link, for `client_name` to use the MCP
/// server at `server`.
pub fn ask_consent(
    asker: &mut dyn Asker,
    client_name: &str,
    server: &str,
    authorization: &Authorization,
) -> Result<Consent, Error> {
    let request = authorization.consent_request(id::next_id(), client_name, server)?;
    let ask = Ask::new(&request, Some(server));
    let (answer, ran_out) = answer_with(
        &request,
        |review, refused| {
            let review = review?;
            asker.authorization(&ask, review, refused)
        },
        |answer: &Answer| Ok(answer.clone()),
    )?;
    Ok(if ran_out || asker.unasked() {
        Consent::Unasked
    } else if answer.ok() {
        Consent::Given
    } else {
        Consent::Refused(String::from(
            answer.reason().map_or("cancelled", |r| r.as_str()),
        ))
    })
}

#[cfg(test)]
mod tests {
    use toolnexus_core::{Limits, json};

    use super::*;
    use crate::ask::{Nobody, Scripted};

    fn answers(text: &str) -> Scripted {
        Scripted::from_value(json::parse_str(text, &Limits::DEFAULT).unwrap()).unwrap()
    }

    const SERVER: &str = "http://localhost:3000/mcp";

    fn link(url: &str) -> Authorization {
        Authorization {
            url: url.to_owned(),
            state: String::from("s"),
            redirect_uri: String::from("http://127.0.0.1:4000/callback"),
        }
    }

    #[test]
    fn the_answers_consent_decline_or_run_out() {
        let url = "https://as.example/authorize?state=s";
        let mut asker = answers(r#"[{"ok":true},{"ok":false,"reason":"declined"}]"#);
        assert_eq!(
            ask_consent(&mut asker, "toolnexus", SERVER, &link(url)).unwrap(),
            Consent::Given
        );
        assert_eq!(
            ask_consent(&mut asker, "toolnexus", SERVER, &link(url)).unwrap(),
            Consent::Refused(String::from("declined"))
        );
        assert_eq!(
            ask_consent(&mut asker, "toolnexus", SERVER, &link(url)).unwrap(),
            Consent::Unasked
        );
    }

    #[test]
    fn nobody_to_ask_is_unasked() {
        let mut nobody = Nobody::default();
        assert_eq!(
            ask_consent(
                &mut nobody,
                "toolnexus",
                SERVER,
                &link("https://as.example/a")
            )
            .unwrap(),
            Consent::Unasked
        );
    }

    #[test]
    fn a_link_the_review_rejects_is_never_consented_to() {
        // The accept is refused, and the next answer (a decline) is what counts.
        let mut asker = answers(r#"[{"ok":true},{"ok":false,"reason":"declined"}]"#);
        assert_eq!(
            ask_consent(
                &mut asker,
                "toolnexus",
                SERVER,
                &link("javascript:alert(1)")
            )
            .unwrap(),
            Consent::Refused(String::from("declined"))
        );
    }
}
