//! Shared pieces of the fuzz targets: limits chosen by the input, and generators that build
//! elicitation schemas, content and JSON-RPC messages from arbitrary choices, so that the
//! fuzzer spends its time past the JSON syntax.

use arbitrary::{Arbitrary, Unstructured};
use toolnexus_core::json::{Limits, Value, parse_str};

/// The limits an input is read within: the defaults, or small ones so that every bound is
/// reached by short inputs.
pub fn limits(choice: u8) -> Limits {
    match choice % 4 {
        0 | 1 => Limits::DEFAULT,
        2 => Limits::DEFAULT
            .with_max_depth(4)
            .with_max_object_members(4)
            .with_max_array_items(4),
        _ => Limits::DEFAULT.with_max_input_bytes(64),
    }
}

/// Reads text the library wrote: it must be JSON, within the default limits.
pub fn must_read(text: &str, what: &str) -> Value {
    match parse_str(text, &Limits::DEFAULT.with_max_input_bytes(usize::MAX)) {
        Ok(value) => value,
        Err(e) => panic!("{what} wrote text that is not JSON ({e}): {text}"),
    }
}

/// Takes a length-prefixed slice of the input, for targets that read several texts.
pub fn take_bytes<'a>(u: &mut Unstructured<'a>) -> &'a [u8] {
    let len = u.arbitrary_len::<u8>().unwrap_or(0);
    u.bytes(len).unwrap_or(&[])
}

/// A schema's bytes: generated from the input's choices, or the input's own bytes (all the
/// rest of it when `rest`, else a length-prefixed slice); `None` when the input ran out.
pub fn schema_bytes(u: &mut Unstructured<'_>, rest: bool) -> Option<Vec<u8>> {
    match bool::arbitrary(u) {
        Ok(true) => GenSchema::arbitrary(u)
            .ok()
            .map(|g| g.to_json().into_bytes()),
        _ if rest => Some(u.bytes(u.len()).unwrap_or(&[]).to_vec()),
        _ => Some(take_bytes(u).to_vec()),
    }
}

/// Writes `s` as a JSON string.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

const NAMES: &[&str] = &[
    "name",
    "email",
    "age",
    "ok",
    "tags",
    "password",
    "a/b",
    "~1",
    "",
    "é",
    "__proto__",
];

const TEXTS: &[&str] = &[
    "",
    "a",
    "ab",
    "abcd",
    "abcde",
    "é😀",
    "ada@example.org",
    "a b@x.org",
    "\"q\"@x.org",
    "a@localhost",
    "a@[192.0.2.1]",
    "a@[IPv6:::1]",
    "a@example.org.",
    "a@1.2.3.4",
    "urn:isbn:0451450523",
    "https://[::1]:80/p?q#f",
    "/rel",
    "//host",
    "http://a b",
    "mailto:a@b.c",
    "é:x",
    "2024-02-29",
    "2023-02-29",
    "2024-13-01",
    "2024-2-9",
    "2016-12-31T23:59:60Z",
    "2024-02-29T12:00:00",
    "2024-02-29T12:00:00Z",
    "1985-04-12t23:20:50.52-00:00",
    "2024-02-29 12:00:00Z",
    "2024-02-29T12:00:00+24:00",
    "2024-02-29T12:00:60+01:00",
    "s",
    "m",
    "x",
    "X",
    "r",
    "g",
    "\u{0}",
    "\u{2028}",
];

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "2",
    "-3",
    "2.0",
    "2.5",
    "-1.5",
    "1e2",
    "1E-7",
    "100",
    "100.5",
    "0.5",
    "3",
    "9007199254740991",
    "-2",
];

/// A string: one of the interesting ones, or anything.
#[derive(Debug)]
pub struct GenText(pub String);

impl<'a> Arbitrary<'a> for GenText {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u.ratio(3, 4)? {
            Ok(GenText(String::from(*u.choose(TEXTS)?)))
        } else {
            let s: String = u.arbitrary()?;
            Ok(GenText(s.chars().take(40).collect()))
        }
    }
}

/// A number spelling a double holds exactly or nearly, so that a validator reading doubles
/// sees the same value.
#[derive(Debug)]
pub struct GenNum(pub String);

impl<'a> Arbitrary<'a> for GenNum {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u.ratio(2, 3)? {
            Ok(GenNum(String::from(*u.choose(NUMBERS)?)))
        } else {
            let n: i32 = u.arbitrary()?;
            let frac: bool = u.arbitrary()?;
            Ok(GenNum(if frac {
                format!("{n}.5")
            } else {
                n.to_string()
            }))
        }
    }
}

/// A property name.
#[derive(Debug)]
pub struct GenName(pub String);

impl<'a> Arbitrary<'a> for GenName {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u.ratio(7, 8)? {
            Ok(GenName(String::from(*u.choose(NAMES)?)))
        } else {
            let s: String = u.arbitrary()?;
            Ok(GenName(s.chars().take(12).collect()))
        }
    }
}

/// One property of a requested schema, in each of the shapes elicitation defines, plus a
/// free-form one.
#[derive(Debug, Arbitrary)]
pub enum GenProp {
    Text {
        min: Option<u8>,
        max: Option<u8>,
        format: Option<u8>,
        title: Option<GenText>,
        default: Option<GenText>,
    },
    Number {
        integer: bool,
        min: Option<GenNum>,
        max: Option<GenNum>,
        default: Option<GenNum>,
    },
    Boolean {
        default: Option<bool>,
    },
    Enum {
        values: Vec<GenText>,
        names: bool,
        default: Option<GenText>,
    },
    OneOf {
        values: Vec<GenText>,
    },
    Multi {
        values: Vec<GenText>,
        any_of: bool,
        min: Option<u8>,
        max: Option<u8>,
        default: Vec<GenText>,
    },
    Raw(GenValue),
}

const FORMATS: &[&str] = &["email", "uri", "date", "date-time", "hostname"];

fn list(items: &[GenText]) -> String {
    let items: Vec<String> = items.iter().take(6).map(|t| quote(&t.0)).collect();
    format!("[{}]", items.join(","))
}

impl GenProp {
    /// The property as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        match self {
            GenProp::Text {
                min,
                max,
                format,
                title,
                default,
            } => {
                out.push(String::from("\"type\":\"string\""));
                if let Some(m) = min {
                    out.push(format!("\"minLength\":{}", m % 8));
                }
                if let Some(m) = max {
                    out.push(format!("\"maxLength\":{}", m % 8));
                }
                if let Some(f) = format {
                    let f = FORMATS
                        .get(usize::from(*f) % FORMATS.len())
                        .unwrap_or(&"email");
                    out.push(format!("\"format\":\"{f}\""));
                }
                if let Some(t) = title {
                    out.push(format!("\"title\":{}", quote(&t.0)));
                }
                if let Some(d) = default {
                    out.push(format!("\"default\":{}", quote(&d.0)));
                }
            }
            GenProp::Number {
                integer,
                min,
                max,
                default,
            } => {
                let t = if *integer { "integer" } else { "number" };
                out.push(format!("\"type\":\"{t}\""));
                if let Some(m) = min {
                    out.push(format!("\"minimum\":{}", m.0));
                }
                if let Some(m) = max {
                    out.push(format!("\"maximum\":{}", m.0));
                }
                if let Some(d) = default {
                    out.push(format!("\"default\":{}", d.0));
                }
            }
            GenProp::Boolean { default } => {
                out.push(String::from("\"type\":\"boolean\""));
                if let Some(d) = default {
                    out.push(format!("\"default\":{d}"));
                }
            }
            GenProp::Enum {
                values,
                names,
                default,
            } => {
                out.push(String::from("\"type\":\"string\""));
                out.push(format!("\"enum\":{}", list(values)));
                if *names {
                    out.push(format!("\"enumNames\":{}", list(values)));
                }
                if let Some(d) = default {
                    out.push(format!("\"default\":{}", quote(&d.0)));
                }
            }
            GenProp::OneOf { values } => {
                out.push(String::from("\"type\":\"string\""));
                let options: Vec<String> = values
                    .iter()
                    .take(6)
                    .map(|v| format!("{{\"const\":{},\"title\":{}}}", quote(&v.0), quote(&v.0)))
                    .collect();
                out.push(format!("\"oneOf\":[{}]", options.join(",")));
            }
            GenProp::Multi {
                values,
                any_of,
                min,
                max,
                default,
            } => {
                out.push(String::from("\"type\":\"array\""));
                if *any_of {
                    let options: Vec<String> = values
                        .iter()
                        .take(6)
                        .map(|v| format!("{{\"const\":{},\"title\":\"t\"}}", quote(&v.0)))
                        .collect();
                    out.push(format!("\"items\":{{\"anyOf\":[{}]}}", options.join(",")));
                } else {
                    out.push(format!(
                        "\"items\":{{\"type\":\"string\",\"enum\":{}}}",
                        list(values)
                    ));
                }
                if let Some(m) = min {
                    out.push(format!("\"minItems\":{}", m % 4));
                }
                if let Some(m) = max {
                    out.push(format!("\"maxItems\":{}", m % 4));
                }
                if !default.is_empty() {
                    out.push(format!("\"default\":{}", list(default)));
                }
            }
            GenProp::Raw(value) => return value.to_json(),
        }
        format!("{{{}}}", out.join(","))
    }
}

/// A requested schema.
#[derive(Debug, Arbitrary)]
pub struct GenSchema {
    pub props: Vec<(GenName, GenProp)>,
    pub required: Vec<GenName>,
    pub title: Option<GenText>,
}

impl GenSchema {
    /// The schema as JSON text (it may name a property twice: a duplicate key).
    pub fn to_json(&self) -> String {
        let props: Vec<String> = self
            .props
            .iter()
            .take(12)
            .map(|(n, p)| format!("{}:{}", quote(&n.0), p.to_json()))
            .collect();
        let mut out = vec![
            String::from("\"type\":\"object\""),
            format!("\"properties\":{{{}}}", props.join(",")),
        ];
        if !self.required.is_empty() {
            let names: Vec<String> = self.required.iter().take(6).map(|n| quote(&n.0)).collect();
            out.push(format!("\"required\":[{}]", names.join(",")));
        }
        if let Some(t) = &self.title {
            out.push(format!("\"title\":{}", quote(&t.0)));
        }
        format!("{{{}}}", out.join(","))
    }

    /// The names of its properties, for content that hits them.
    pub fn names(&self) -> Vec<&str> {
        self.props.iter().map(|(n, _)| n.0.as_str()).collect()
    }
}

/// A JSON value, shallow, made of the pieces content is made of.
#[derive(Debug, Arbitrary)]
pub enum GenValue {
    Text(GenText),
    Number(GenNum),
    Bool(bool),
    Null,
    List(Vec<GenText>),
    Mixed(Vec<GenScalar>),
    Object(Vec<(GenName, GenScalar)>),
}

/// A scalar JSON value.
#[derive(Debug, Arbitrary)]
pub enum GenScalar {
    Text(GenText),
    Number(GenNum),
    Bool(bool),
    Null,
}

impl GenScalar {
    fn to_json(&self) -> String {
        match self {
            GenScalar::Text(t) => quote(&t.0),
            GenScalar::Number(n) => n.0.clone(),
            GenScalar::Bool(b) => b.to_string(),
            GenScalar::Null => String::from("null"),
        }
    }
}

impl GenValue {
    /// The value as JSON text.
    pub fn to_json(&self) -> String {
        match self {
            GenValue::Text(t) => quote(&t.0),
            GenValue::Number(n) => n.0.clone(),
            GenValue::Bool(b) => b.to_string(),
            GenValue::Null => String::from("null"),
            GenValue::List(items) => list(items),
            GenValue::Mixed(items) => {
                let items: Vec<String> = items.iter().take(6).map(GenScalar::to_json).collect();
                format!("[{}]", items.join(","))
            }
            GenValue::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .take(6)
                    .map(|(n, v)| format!("{}:{}", quote(&n.0), v.to_json()))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }
}

/// Content for a form: members named after the schema's properties (by index) or not.
#[derive(Debug, Arbitrary)]
pub struct GenContent(pub Vec<(u8, Option<GenName>, GenValue)>);

impl GenContent {
    /// The content as a JSON object, its names drawn from `names` where it can.
    pub fn to_json(&self, names: &[&str]) -> String {
        let members: Vec<String> = self
            .0
            .iter()
            .take(14)
            .map(|(i, other, v)| {
                let name = match other {
                    Some(n) => n.0.as_str(),
                    None if names.is_empty() => "x",
                    None => names
                        .get(usize::from(*i) % names.len())
                        .copied()
                        .unwrap_or("x"),
                };
                format!("{}:{}", quote(name), v.to_json())
            })
            .collect();
        format!("{{{}}}", members.join(","))
    }
}

/// `elicitation/create` params: a form with a generated schema, a URL, or anything.
#[derive(Debug, Arbitrary)]
pub enum GenParams {
    Form {
        message: GenText,
        schema: GenSchema,
    },
    Url {
        message: GenText,
        url: GenText,
        elicitation_id: Option<u8>,
    },
    Raw(Vec<u8>),
}

impl GenParams {
    /// The params as JSON text (or raw bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            GenParams::Form { message, schema } => format!(
                "{{\"mode\":\"form\",\"message\":{},\"requestedSchema\":{}}}",
                quote(&message.0),
                schema.to_json()
            )
            .into_bytes(),
            GenParams::Url {
                message,
                url,
                elicitation_id,
            } => {
                let eid = elicitation_id
                    .map(|e| format!(",\"elicitationId\":\"e{}\"", e % 4))
                    .unwrap_or_default();
                format!(
                    "{{\"mode\":\"url\",\"message\":{},\"url\":{}{eid}}}",
                    quote(&message.0),
                    quote(&url.0)
                )
                .into_bytes()
            }
            GenParams::Raw(bytes) => bytes.clone(),
        }
    }
}
