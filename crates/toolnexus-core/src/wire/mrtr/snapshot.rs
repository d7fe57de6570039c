//! A round written down and read back: [`InputRound::snapshot`] and [`InputRound::restore`],
//! for a host whose next HTTP request may land on another worker, or after a restart.
//!
//! The document (see [`crate::session::snapshot`] for the envelope, the seal and the order of
//! checks) holds what the round was begun from — the request as the client first sent it, the
//! server's input-required result, the session's options, when it began and the first
//! sequence of its request ids — and what happened since: the ids sent, the responses
//! recorded (what the person confirmed, or the host supplied), the URL consents awaiting
//! completion. Restoring begins the same requests again, with the same ids and expiry, then
//! replays what happened: the round behaves as the one written, down to the retry's bytes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ClientRequest, InputRequired, InputRound, Origin};
use crate::error::{Error, ErrorKind, quote};
use crate::form::secrets::SensitiveField;
use crate::json::fields::{Fields, as_object, take_object};
use crate::json::write::{write_map, write_str, write_value};
use crate::json::{Limits, Map, Value, pointer};
use crate::seal;
use crate::session::Session;
use crate::session::snapshot::{
    check_sensitive, document_writer, id_of, options_value, read, read_options, read_sensitive,
    write, write_list, write_pairs, write_sensitive, write_u64,
};
use crate::wire::rpc::{self, RpcId};

/// What a snapshot of a round names itself.
const INPUT_ROUND: &str = "input-round";

/// How long a round's snapshot restores when nothing in it has an expiry of its own (no
/// `ttl_ms`, or nothing pending): a day after the round began. A snapshot always expires; a
/// host that wants another lifetime sets `ttl_ms`.
pub const ROUND_LIFETIME_MS: u64 = 24 * 60 * 60 * 1000;

/// The members of a round's snapshot.
const MEMBERS: &[&str] = &[
    "snapshot",
    "version",
    "options",
    "beganAtMs",
    "firstSequence",
    "request",
    "answeredId",
    "sentIds",
    "lastRetryId",
    "input",
    "requestIds",
    "sensitive",
    "responses",
    "awaiting",
    "expiresAtMs",
];

impl InputRound {
    /// The round written down: a versioned JSON document, sealed with HMAC-SHA-256 when `key`
    /// is given, that [`InputRound::restore`] reads back in another process.
    ///
    /// It holds the request as first sent, the server's result, the session's options, the
    /// ids sent, the responses recorded so far and, while a request is pending with a time to
    /// live, the earliest expiry (`expiresAtMs`), and the fields of its forms that seem to ask
    /// for a secret (`sensitive`). Nothing a person typed and did not send is in it: a request
    /// answered with invalid content is still pending, with no content.
    ///
    /// Refused with [`ErrorKind::InvalidValue`] at `/key` for a key shorter than
    /// [`crate::seal::MIN_KEY_BYTES`] (32 bytes).
    pub fn snapshot(&self, key: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        if let Some(key) = key {
            seal::check_key(key, "/key")?;
        }
        write(INPUT_ROUND, self.document(), key)
    }

    /// The stable id of the snapshot [`InputRound::snapshot`] writes now: the SHA-256 of its
    /// document, in unpadded base64url (43 characters). It does not depend on the key, and a
    /// round restored from the snapshot gives the same id again; once the round changes (an
    /// answer recorded, a retry sent) its snapshot and so its id are new.
    ///
    /// A host keeps the snapshot under this id and claims it once, atomically, when the
    /// answer comes (Redis `GETDEL`, SQLite `DELETE … RETURNING`): of two posts of one
    /// question (two tabs, a double click, two workers), one finds the snapshot and goes on,
    /// the other finds nothing.
    pub fn snapshot_id(&self) -> String {
        id_of(&self.document())
    }

    /// Until when (that millisecond included) [`InputRound::restore`] takes the snapshot
    /// [`InputRound::snapshot`] writes now, in milliseconds since the Unix epoch: the earliest expiry of a pending request
    /// (the snapshot's `expiresAtMs`), else [`ROUND_LIFETIME_MS`] after the round began. A
    /// host that keeps the snapshot keeps it until then.
    pub fn restorable_until_ms(&self) -> u64 {
        self.session
            .earliest_expiry()
            .unwrap_or_else(|| self.began_at_ms.saturating_add(ROUND_LIFETIME_MS))
    }

    /// The JSON document of the round's snapshot, unsealed.
    fn document(&self) -> String {
        // Written straight into one string: nothing of the round is copied on the way.
        let mut out = String::new();
        let mut doc = document_writer(&mut out, INPUT_ROUND);
        doc.member("options", |out| {
            write_value(out, &options_value(self.session.options()));
        });
        doc.member("beganAtMs", |out| write_u64(out, self.began_at_ms));
        doc.member("firstSequence", |out| write_u64(out, self.first_sequence));
        if let Some(request) = &self.request {
            doc.member("request", |out| write_map(out, request.message()));
        }
        doc.member("answeredId", |out| {
            write_value(out, &self.answered_id.to_value());
        });
        doc.member("sentIds", |out| {
            write_list(out, self.sent_ids.iter(), |out, id| {
                write_value(out, &id.to_value());
            });
        });
        if let Some(id) = &self.last_retry_id {
            doc.member("lastRetryId", |out| write_value(out, &id.to_value()));
        }
        doc.member("input", |out| self.input.write_json(out));
        doc.member("requestIds", |out| {
            write_pairs(out, self.request_ids.iter(), |out, id| write_str(out, id));
        });
        if !self.sensitive.is_empty() {
            doc.member("sensitive", |out| {
                write_pairs(out, self.sensitive.iter(), |out, fields| {
                    write_sensitive(out, fields);
                });
            });
        }
        doc.member("responses", |out| {
            write_pairs(out, self.responses.iter(), write_value);
        });
        let awaiting = self.session.awaiting_completion();
        if !awaiting.is_empty() {
            doc.member("awaiting", |out| {
                write_list(out, awaiting.iter(), |out, a| {
                    out.push_str("{\"requestId\":");
                    write_str(out, a.request_id());
                    out.push_str(",\"elicitationId\":");
                    write_str(out, a.elicitation_id());
                    out.push('}');
                });
            });
        }
        if let Some(at) = self.session.earliest_expiry() {
            doc.member("expiresAtMs", |out| write_u64(out, at));
        }
        doc.finish();
        out
    }

    /// The round a [`InputRound::snapshot`] wrote, restored at `now_ms`: the same
    /// [`pending`](InputRound::pending) requests (ids and expiry included), the same
    /// [`missing`](InputRound::missing) keys, the same answers and refusals, the same retry.
    ///
    /// `keys` are the keys a sealed snapshot may be sealed with (the current one and those
    /// being retired); with none, the snapshot must be unsealed. Refused, with nothing made:
    /// [`ErrorKind::InvalidValue`] at `/keys/<i>` for a key shorter than
    /// [`crate::seal::MIN_KEY_BYTES`], before the snapshot is read; [`ErrorKind::InvalidSeal`] for a seal that does not check out (or a sealed snapshot
    /// without keys, or an unsealed one with keys); a JSON error within `limits`;
    /// [`ErrorKind::InvalidValue`] at `/snapshot` or `/version` for another kind of snapshot or
    /// a version this does not read; [`ErrorKind::Expired`] at `/expiresAtMs` when `now_ms`
    /// is past the earliest expiry of a pending request, and at `/beganAtMs` when the snapshot
    /// has no expiry of its own and `now_ms` is more than [`ROUND_LIFETIME_MS`] (a day) after
    /// the round began; then the errors of reading each
    /// member, at its pointer: a member of the wrong type, a request or result that does not
    /// read (under `/request` or `/input`), request ids that its input would not give
    /// ([`ErrorKind::InvalidValue`] at `/requestIds`), sensitive fields for a key with no
    /// form or a field its form does not have ([`ErrorKind::UnknownField`] at
    /// `/sensitive/<key>[/<field>]`), a response for a key no input request has
    /// ([`ErrorKind::UnknownField`] at `/responses/<key>`).
    ///
    /// The forms are prepared with the sensitive fields written, not found again by the
    /// heuristic: a restored form warns, masks and refuses as the form the person was shown,
    /// whatever the build restoring it finds.
    pub fn restore(
        snapshot: &[u8],
        keys: &[&[u8]],
        limits: &Limits,
        now_ms: u64,
    ) -> Result<InputRound, Error> {
        let mut map = read(snapshot, INPUT_ROUND, keys, limits, now_ms)?;
        let fields = Fields::new(&map);
        fields.deny_unknown(MEMBERS, "a snapshot of a round")?;
        let options = read_options(&fields)?;
        let began_at_ms = fields.u64("beganAtMs")?;
        // With no expiry of its own, the round's snapshot lapses a day after it began.
        let lapses_at = began_at_ms.saturating_add(ROUND_LIFETIME_MS);
        if fields.get("expiresAtMs").is_none() && now_ms > lapses_at {
            return Err(Error::new(
                ErrorKind::Expired,
                "/beganAtMs",
                format!(
                    "the round began at {} and had no expiry of its own: its snapshot \
                     lapsed a day later",
                    crate::rfc3339::format_unix_ms(began_at_ms)
                ),
            ));
        }
        let first_sequence = fields.u64("firstSequence")?;
        let has_request = fields.opt_object("request")?.is_some();
        let answered_id = read_member_id(&fields, "answeredId")?;
        let sent_ids = read_ids(&fields, "sentIds")?;
        let last_retry_id = match fields.get("lastRetryId") {
            Some(value) => Some(rpc::read_id(value, "/lastRetryId")?),
            None => None,
        };
        fields.object("input")?;
        let sensitive = read_carried(&fields)?;
        // The request and the result are taken out of the document, not copied.
        let request = match map.remove("request") {
            Some(message) if has_request => {
                Some(ClientRequest::from_value(message).map_err(|e| e.within("/request"))?)
            }
            _ => None,
        };
        let input = InputRequired::from_value(map.remove("input").unwrap_or_default())
            .map_err(|e| e.within("/input"))?;
        let fields = Fields::new(&map);
        let (mut round, _) = InputRound::begin(
            request,
            answered_id,
            sent_ids,
            input,
            Session::new(options),
            first_sequence,
            began_at_ms,
            Origin::Snapshot(&sensitive),
        )
        .map_err(|e| e.within("/input"))?;
        round.check_request_ids(fields.object("requestIds")?)?;
        round.check_carried(&sensitive)?;
        fields.object("responses")?;
        // The responses move into the round: the document is not needed after.
        round.replay_responses(take_object(&mut map, "responses").unwrap_or_default())?;
        let fields = Fields::new(&map);
        round.replay_awaiting(fields.opt_array("awaiting")?.unwrap_or_default())?;
        round.last_retry_id = last_retry_id;
        Ok(round)
    }

    /// Refuses a snapshot whose request ids are not those its input begins again: the
    /// document was written by something else, or edited.
    fn check_request_ids(&self, written: &Map) -> Result<(), Error> {
        let same = written.len() == self.request_ids.len()
            && self
                .request_ids
                .iter()
                .zip(written.iter())
                .all(|((key, id), (k, v))| key == k && v.as_str() == Some(id.as_str()));
        if same {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::InvalidValue,
                "/requestIds",
                "the request ids are not those the round's input begins again",
            ))
        }
    }

    /// Refuses sensitive fields written for a key that has no form, or for a field its form
    /// does not have.
    fn check_carried(&self, carried: &[(String, Vec<SensitiveField>)]) -> Result<(), Error> {
        for (key, fields) in carried {
            let at = format!("/sensitive{}", pointer::key(key));
            let has_form = self
                .request_ids
                .iter()
                .any(|(k, id)| k == key && self.session.form(id).is_some());
            if !has_form && !fields.is_empty() {
                return Err(Error::new(
                    ErrorKind::UnknownField,
                    at,
                    format!("no form of the round has the key {}", quote(key)),
                ));
            }
            let prepared = self
                .sensitive
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&[][..], |(_, found)| found.as_slice());
            check_sensitive(fields, prepared, &at)?;
        }
        Ok(())
    }

    /// Records each response written, in its order; an elicitation answered leaves the
    /// session, as it did when it was answered.
    fn replay_responses(&mut self, responses: Map) -> Result<(), Error> {
        for (key, result) in responses {
            let key = key.as_str();
            let at = || format!("/responses{}", pointer::key(key));
            if !self.input.input_requests().iter().any(|r| r.key() == key) {
                return Err(Error::new(
                    ErrorKind::UnknownField,
                    at(),
                    format!("no input request of the round has the key {key:?}"),
                ));
            }
            as_object(&result, "a response").map_err(|e| e.within(&at()))?;
            if let Some((_, id)) = self.request_ids.iter().find(|(k, _)| k == key) {
                self.session.withdraw(id);
            }
            self.record(key, result);
        }
        Ok(())
    }

    /// The URL consents awaiting the server's completion notification.
    fn replay_awaiting(&mut self, items: &[Value]) -> Result<(), Error> {
        for (i, item) in items.iter().enumerate() {
            let at = format!("/awaiting/{i}");
            let item = as_object(item, "an awaited completion").map_err(|e| e.within(&at))?;
            let fields = Fields::new(item);
            fields
                .deny_unknown(&["requestId", "elicitationId"], "an awaited completion")
                .map_err(|e| e.within(&at))?;
            let request_id = fields
                .non_empty_str("requestId")
                .map_err(|e| e.within(&at))?;
            let elicitation_id = fields
                .non_empty_str("elicitationId")
                .map_err(|e| e.within(&at))?;
            if !self.request_ids.iter().any(|(_, id)| id == request_id) {
                return Err(Error::new(
                    ErrorKind::UnknownRequest,
                    format!("{at}/requestId"),
                    format!("no request of the round has the id {request_id:?}"),
                ));
            }
            self.session.restore_awaiting(request_id, elicitation_id);
        }
        Ok(())
    }
}

/// The sensitive fields written for each form (`sensitive`), by its key.
fn read_carried(fields: &Fields<'_>) -> Result<Vec<(String, Vec<SensitiveField>)>, Error> {
    let Some(written) = fields.opt_object("sensitive")? else {
        return Ok(Vec::new());
    };
    written
        .iter()
        .map(|(key, value)| {
            let at = format!("/sensitive{}", pointer::key(key));
            Ok((String::from(key), read_sensitive(value, &at)?))
        })
        .collect()
}

/// The id in the member `name`.
fn read_member_id(fields: &Fields<'_>, name: &str) -> Result<RpcId, Error> {
    let at = pointer::key(name);
    let value = fields.get(name).ok_or_else(|| {
        Error::new(
            ErrorKind::MissingField,
            at.as_str(),
            format!("`{name}` is required and must be a string or an integer"),
        )
    })?;
    rpc::read_id(value, &at)
}

/// The ids in the array member `name`.
fn read_ids(fields: &Fields<'_>, name: &str) -> Result<Vec<RpcId>, Error> {
    let items = fields.opt_array(name)?.unwrap_or_default();
    items
        .iter()
        .enumerate()
        .map(|(i, value)| rpc::read_id(value, &format!("/{name}/{i}")))
        .collect()
}

#[cfg(test)]
mod tests;
