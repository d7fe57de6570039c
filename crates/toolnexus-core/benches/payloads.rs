//! The payloads every benchmark shares, from `benches/payloads/`: params as a server sends
//! them and content a person sends back (see `payloads/generate.py`).

/// One payload: a name, the params as sent, and content a person would send back.
pub struct Payload {
    /// What the tables call it.
    pub name: &'static str,
    /// The params of `elicitation/create`, compact, as a server sends them.
    pub params: &'static str,
    /// Content valid against the params' schema, as a person would send it back.
    #[allow(
        dead_code,
        reason = "read by one benchmark of the two that share this file"
    )]
    pub content: &'static str,
}

macro_rules! payload {
    ($name:literal, $file:literal) => {
        Payload {
            name: $name,
            params: include_str!(concat!("payloads/", $file, ".json")),
            content: include_str!(concat!("payloads/content/", $file, ".json")),
        }
    };
}

/// Every payload, smallest first.
pub const PAYLOADS: [Payload; 5] = [
    payload!("contact form (3 fields)", "contact"),
    payload!("every field kind (13 fields)", "every_kind"),
    payload!("10 fields", "fields_10"),
    payload!("100 fields", "fields_100"),
    payload!("1,000 fields", "fields_1000"),
];
