//! Snapshots: what waits for a person written down as a small versioned JSON document, read
//! back elsewhere (another worker, after a restart) into an object that behaves as the one
//! written.
//!
//! A snapshot is a JSON object naming what it holds (`"snapshot": "pending-request"` or
//! `"input-round"`) and its `version` (1), with the session's options and an `expiresAtMs`
//! while something in it can lapse. It holds what the server sent and what the person
//! confirmed, never what a person has typed and not yet sent. Given a key, it is sealed (see
//! [`crate::seal`]) with its kind as the seal's context.
//!
//! It also carries, as `sensitive`, the fields of its forms that seem to ask for a secret
//! ([`crate::form::secrets`]), by name with the kind of secret; absent when there are none. A
//! restore prepares its forms with those findings and does not run the heuristic again, so a
//! form restored on a build whose heuristic changed warns, masks and refuses as the one the
//! person was shown.
//!
//! Reading one back is reading untrusted input: within [`Limits`], every member checked, a
//! typed error for anything wrong, in this order: the seal (when keys are given, a snapshot
//! must be sealed with one of them; without keys, a sealed one is refused, as it cannot be
//! checked), the JSON, the kind and version, then expiry ([`ErrorKind::Expired`]), then the
//! contents.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Session, SessionOptions};
use crate::contract::Request;
use crate::error::quote;
use crate::error::{Error, ErrorKind};
use crate::form::Form;
use crate::form::secrets::{SecretKind, SensitiveField};
use crate::json::fields::{Fields, as_object, into_object};
use crate::json::write::{write_str, write_value};
use crate::json::{self, Limits, Map, Value, pointer};
use crate::mcp::{ElicitRequestParams, Mode, Modes};
use crate::rfc3339;
use crate::seal;

/// The version of the snapshot documents this reads and writes.
pub(crate) const VERSION: u64 = 1;

/// What a snapshot of a session's pending request names itself.
pub(crate) const PENDING_REQUEST: &str = "pending-request";

/// A snapshot's document being written into `out`: `{"snapshot": kind, "version": 1` so far,
/// each [`member`](DocumentWriter::member) after, closed by
/// [`finish`](DocumentWriter::finish).
pub(crate) fn document_writer<'a>(out: &'a mut String, kind: &str) -> DocumentWriter<'a> {
    out.push_str("{\"snapshot\":");
    write_str(out, kind);
    out.push_str(",\"version\":");
    write_u64(out, VERSION);
    DocumentWriter { out }
}

/// See [`document_writer`].
pub(crate) struct DocumentWriter<'a> {
    out: &'a mut String,
}

impl DocumentWriter<'_> {
    /// The member `name`, its value written by `value`.
    pub(crate) fn member(&mut self, name: &str, value: impl FnOnce(&mut String)) {
        self.out.push(',');
        write_str(self.out, name);
        self.out.push(':');
        value(self.out);
    }

    pub(crate) fn finish(self) {
        self.out.push('}');
    }
}

/// Appends `n` as a JSON number.
pub(crate) fn write_u64(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Appends `items` as a JSON array, each written by `item`.
pub(crate) fn write_list<T>(
    out: &mut String,
    items: impl Iterator<Item = T>,
    mut item: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, value) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(out, value);
    }
    out.push(']');
}

/// Appends `pairs` of a key and a value as a JSON object, each value written by `value`.
pub(crate) fn write_pairs<'a, T: 'a + ?Sized>(
    out: &mut String,
    pairs: impl Iterator<Item = &'a (String, T)>,
    mut value: impl FnMut(&mut String, &T),
) where
    (String, T): 'a,
{
    out.push('{');
    for (i, (key, v)) in pairs.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, key);
        out.push(':');
        value(out, v);
    }
    out.push('}');
}

/// Appends the fields of a form that ask for a secret, as an object of each field's name and
/// the kind of secret ([`SecretKind`] by its name).
pub(crate) fn write_sensitive(out: &mut String, sensitive: &[SensitiveField]) {
    out.push('{');
    for (i, field) in sensitive.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, field.name());
        out.push(':');
        write_str(out, field.kind().as_str());
    }
    out.push('}');
}

/// The fields that ask for a secret in `value`, written by [`write_sensitive`] at `at`.
pub(crate) fn read_sensitive(value: &Value, at: &str) -> Result<Vec<SensitiveField>, Error> {
    let map = as_object(value, "the sensitive fields of a form").map_err(|e| e.within(at))?;
    map.iter()
        .map(|(name, kind)| {
            let at = || format!("{at}{}", pointer::key(name));
            let kind = kind.as_str().ok_or_else(|| {
                Error::new(
                    ErrorKind::WrongType,
                    at(),
                    format!(
                        "the kind of secret a field asks for is a string, not {}",
                        kind.type_name()
                    ),
                )
            })?;
            let kind = SecretKind::from_name(kind).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    at(),
                    format!("{} is not a kind of secret", quote(kind)),
                )
            })?;
            Ok(SensitiveField::new(String::from(name), kind))
        })
        .collect()
}

/// Refuses carried findings that name a field the form does not have: `carried` against the
/// form prepared with them, whose sensitive fields are exactly the carried ones it has.
pub(crate) fn check_sensitive(
    carried: &[SensitiveField],
    prepared: &[SensitiveField],
    at: &str,
) -> Result<(), Error> {
    match carried
        .iter()
        .find(|c| !prepared.iter().any(|p| p.name() == c.name()))
    {
        None => Ok(()),
        Some(unknown) => Err(Error::new(
            ErrorKind::UnknownField,
            format!("{at}{}", pointer::key(unknown.name())),
            format!("the form has no field named {}", quote(unknown.name())),
        )),
    }
}

/// The id of a snapshot whose document is `text`: its SHA-256, in unpadded base64url (43
/// characters). It names the document, not its seal, so it stays the same whatever key seals
/// it, and it is the same in every process that writes the same document.
pub(crate) fn id_of(text: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(text.as_bytes()))
}

/// The document's bytes: its JSON, sealed for `kind` when a key is given; a key shorter than
/// [`seal::MIN_KEY_BYTES`] is refused at `/key`.
pub(crate) fn write(kind: &str, text: String, key: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    match key {
        Some(key) => seal::seal(text.as_bytes(), kind.as_bytes(), key),
        None => Ok(text.into_bytes()),
    }
}

/// The document inside `snapshot`, checked for its seal (against `keys`), JSON, `kind`,
/// version and expiry at `now_ms`.
pub(crate) fn read(
    snapshot: &[u8],
    kind: &str,
    keys: &[&[u8]],
    limits: &Limits,
    now_ms: u64,
) -> Result<Map, Error> {
    // The host's keys before its input: a short key is refused whatever the snapshot.
    seal::check_keys(keys)?;
    // The seal's length follows the document's: a snapshot too long to read is refused
    // before anything is decoded.
    if snapshot.len() > limits.max_input_bytes().saturating_mul(2) {
        return Err(Error::new(
            ErrorKind::TooLarge,
            "",
            format!(
                "the snapshot is {} bytes, over the limit of {}",
                snapshot.len(),
                limits.max_input_bytes()
            ),
        ));
    }
    let opened;
    let text = match (keys.is_empty(), seal::is_sealed(snapshot)) {
        (false, _) => {
            opened = seal::unseal(snapshot, kind.as_bytes(), keys)?;
            &opened[..]
        }
        (true, false) => snapshot,
        (true, true) => {
            return Err(Error::new(
                ErrorKind::InvalidSeal,
                "",
                "the snapshot is sealed, and no key was given to check its seal",
            ));
        }
    };
    let map = into_object(json::parse(text, limits)?, "a snapshot")?;
    let fields = Fields::new(&map);
    let named = fields.str("snapshot")?;
    if named != kind {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "/snapshot",
            format!("this is a snapshot of a {named:?}, not of a {kind:?}"),
        ));
    }
    let version = fields.u64("version")?;
    if version != VERSION {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "/version",
            format!(
                "snapshots of version {version} cannot be read here, only of version {VERSION}"
            ),
        ));
    }
    if let Some(at) = fields.opt_u64("expiresAtMs")?
        && now_ms > at
    {
        return Err(Error::new(
            ErrorKind::Expired,
            "/expiresAtMs",
            format!(
                "the question expired at {}: it can no longer be answered",
                rfc3339::format_unix_ms(at)
            ),
        ));
    }
    Ok(map)
}

/// The options as a snapshot writes them.
pub(crate) fn options_value(options: &SessionOptions) -> Value {
    let mut map = Map::new();
    let mut modes = Vec::new();
    for mode in [Mode::Form, Mode::Url] {
        if options.modes.supports(mode) {
            modes.push(Value::from(mode.as_str()));
        }
    }
    map.insert("modes", Value::Array(modes));
    map.insert(
        "maxPending",
        Value::from(u64::try_from(options.max_pending).unwrap_or(u64::MAX)),
    );
    if let Some(ttl) = options.ttl_ms {
        map.insert("ttlMs", Value::from(ttl));
    }
    map.insert("applyDefaults", Value::Bool(options.apply_defaults()));
    map.insert(
        "allowUnknown",
        Value::Bool(options.content.allows_unknown()),
    );
    map.insert("rejectSecrets", Value::Bool(options.reject_secrets()));
    Value::Object(map)
}

/// The options a snapshot wrote, at `/options`.
pub(crate) fn read_options(document: &Fields<'_>) -> Result<SessionOptions, Error> {
    let map = document.object("options")?;
    read_options_map(map).map_err(|e| e.within("/options"))
}

fn read_options_map(map: &Map) -> Result<SessionOptions, Error> {
    let fields = Fields::new(map);
    fields.deny_unknown(
        &[
            "modes",
            "maxPending",
            "ttlMs",
            "applyDefaults",
            "allowUnknown",
            "rejectSecrets",
        ],
        "the options",
    )?;
    let (mut form, mut url) = (false, false);
    for (i, item) in fields
        .opt_array("modes")?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        match item.as_str().and_then(Mode::from_name) {
            Some(Mode::Form) => form = true,
            Some(Mode::Url) => url = true,
            None => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("/modes/{i}"),
                    "a mode is \"form\" or \"url\"",
                ));
            }
        }
    }
    let max_pending = usize::try_from(fields.u64("maxPending")?).unwrap_or(usize::MAX);
    Ok(SessionOptions::DEFAULT
        .with_modes(Modes::new(form, url))
        .with_max_pending(max_pending)
        .with_ttl_ms(fields.opt_u64("ttlMs")?)
        .with_apply_defaults(fields.bool("applyDefaults")?)
        .with_allow_unknown(fields.bool("allowUnknown")?)
        .with_reject_secrets(fields.bool("rejectSecrets")?))
}

/// The elicitation params a pending request was begun with, as far as answering it needs:
/// the message, and the schema or the URL with its `elicitationId`.
fn params_value(request: &Request, elicitation_id: Option<&str>) -> Value {
    let mut map = Map::new();
    match (request.schema(), request.url()) {
        (Some(schema), _) => {
            map.insert("mode", Value::from(Mode::Form.as_str()));
            map.insert("message", Value::from(request.prompt()));
            map.insert("requestedSchema", Value::Object(schema.clone()));
        }
        (None, url) => {
            map.insert("mode", Value::from(Mode::Url.as_str()));
            map.insert("message", Value::from(request.prompt()));
            map.insert("url", Value::from(url.unwrap_or_default()));
            if let Some(id) = elicitation_id {
                map.insert("elicitationId", Value::from(id));
            }
        }
    }
    Value::Object(map)
}

impl Session {
    /// The pending request `id` written down, with this session's options: a versioned JSON
    /// document, sealed with HMAC-SHA-256 when `key` is given, that [`Session::restore`] reads
    /// back in another process. It holds the request as the server asked it and its expiry,
    /// nothing a person typed.
    ///
    /// A snapshot must expire, so the request must have an expiry: begin it in a session with
    /// a time to live ([`SessionOptions::with_ttl_ms`]). Refused with
    /// [`ErrorKind::InvalidValue`] at `/key` for a key shorter than [`seal::MIN_KEY_BYTES`]
    /// (32 bytes), [`ErrorKind::UnknownRequest`] at `/id` when `id` is not pending, and
    /// [`ErrorKind::InvalidValue`] at `/id` when it never expires.
    pub fn snapshot(&self, id: &str, key: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        if let Some(key) = key {
            seal::check_key(key, "/key")?;
        }
        write(PENDING_REQUEST, self.document(id)?, key)
    }

    /// The stable id of the snapshot [`Session::snapshot`] writes of the pending request `id`
    /// now: the SHA-256 of its document, in unpadded base64url (43 characters). It does not
    /// depend on the key, so a sealed and an unsealed snapshot of the same request share it;
    /// a session restored from the snapshot gives the same id again.
    ///
    /// A host keeps the snapshot under this id and claims it once, atomically, when the
    /// answer comes (Redis `GETDEL`, SQLite `DELETE … RETURNING`): of two posts of one
    /// answer, one finds the snapshot and the other nothing. Refused as [`Session::snapshot`]
    /// is, for an `id` that is not pending or never expires.
    pub fn snapshot_id(&self, id: &str) -> Result<String, Error> {
        Ok(id_of(&self.document(id)?))
    }

    /// The JSON document of the snapshot of the pending request `id`, unsealed.
    fn document(&self, id: &str) -> Result<String, Error> {
        let Some(entry) = self.entries.iter().find(|e| e.request.id() == id) else {
            return Err(Error::new(
                ErrorKind::UnknownRequest,
                "/id",
                format!("no request with the id {id:?} is pending"),
            ));
        };
        // A snapshot must expire: one kept or leaked could be answered for ever otherwise.
        let Some(expires_at_ms) = entry.expires_at_ms else {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "/id",
                format!(
                    "the request {id:?} never expires, and a snapshot must: begin it in a \
                     session with a time to live (ttl_ms)"
                ),
            ));
        };
        let (elicitation_id, sensitive) = match &entry.pending {
            super::Pending::Url { elicitation_id } => (elicitation_id.as_deref(), Vec::new()),
            super::Pending::Form(form) => (None, form.sensitive_fields()),
        };
        let mut out = String::new();
        let mut doc = document_writer(&mut out, PENDING_REQUEST);
        doc.member("options", |out| {
            write_value(out, &options_value(&self.options))
        });
        doc.member("id", |out| write_str(out, id));
        doc.member("params", |out| {
            write_value(out, &params_value(&entry.request, elicitation_id));
        });
        if !sensitive.is_empty() {
            doc.member("sensitive", |out| write_sensitive(out, &sensitive));
        }
        doc.member("expiresAtMs", |out| write_u64(out, expires_at_ms));
        doc.finish();
        Ok(out)
    }

    /// A session holding the one pending request a [`Session::snapshot`] wrote, with the
    /// options it was written with: the same [`Request`] (its expiry included), answered by
    /// the same rules.
    ///
    /// `keys` are the keys a sealed snapshot may be sealed with (the current one and those
    /// being retired); with none, the snapshot must be unsealed. Refused, each with nothing
    /// made: [`ErrorKind::InvalidValue`] at `/keys/<i>` for a key shorter than
    /// [`seal::MIN_KEY_BYTES`], before the snapshot is read; [`ErrorKind::InvalidSeal`] for a seal that does not check out (or a sealed
    /// snapshot without keys, or an unsealed one with keys); a JSON error within `limits`;
    /// [`ErrorKind::InvalidValue`] at `/snapshot` or `/version` for another kind of snapshot or
    /// a version this does not read; [`ErrorKind::Expired`] when `now_ms` is past the
    /// request's expiry; the errors of reading its members and beginning the request again
    /// (under `/params` for the request's own).
    pub fn restore(
        snapshot: &[u8],
        keys: &[&[u8]],
        limits: &Limits,
        now_ms: u64,
    ) -> Result<Session, Error> {
        let mut map = read(snapshot, PENDING_REQUEST, keys, limits, now_ms)?;
        let fields = Fields::new(&map);
        fields.deny_unknown(
            &[
                "snapshot",
                "version",
                "options",
                "id",
                "params",
                "sensitive",
                "expiresAtMs",
            ],
            "a snapshot of a pending request",
        )?;
        let options = read_options(&fields)?;
        let id = String::from(fields.non_empty_str("id")?);
        fields.object("params")?;
        let expires_at_ms = fields.opt_u64("expiresAtMs")?;
        let sensitive = match fields.get("sensitive") {
            Some(value) => read_sensitive(value, "/sensitive")?,
            None => Vec::new(),
        };
        // The params move out of the document: nothing else reads them.
        let params = ElicitRequestParams::from_value(map.remove("params").unwrap_or_default())
            .map_err(|e| e.within("/params"))?;
        let mut session = Session::new(options);
        // The findings written are the form's: the heuristic is not run again, so that the
        // request warns as it did where it began, whatever this build's heuristic finds.
        session
            .begin_until(&params, &id, expires_at_ms, Some(&sensitive))
            .map(|_| ())
            .map_err(|e| match e.kind() {
                // A session that may hold no request at all.
                ErrorKind::TooManyPending => {
                    Error::new(e.kind(), "/options/maxPending", e.message())
                }
                // The request's own errors point into its params.
                _ => e.within("/params"),
            })?;
        let prepared = session
            .form(&id)
            .map(Form::sensitive_fields)
            .unwrap_or_default();
        check_sensitive(&sensitive, &prepared, "/sensitive")?;
        Ok(session)
    }

    /// The earliest time a pending request lapses, if any can.
    pub(crate) fn earliest_expiry(&self) -> Option<u64> {
        self.entries.iter().filter_map(|e| e.expires_at_ms).min()
    }

    /// Records a URL request accepted before a snapshot was written, still waiting for the
    /// server's completion notification.
    pub(crate) fn restore_awaiting(&mut self, request_id: &str, elicitation_id: &str) {
        self.awaiting.push(super::AwaitingCompletion {
            request_id: String::from(request_id),
            elicitation_id: String::from(elicitation_id),
        });
    }
}

#[cfg(test)]
mod tests;
