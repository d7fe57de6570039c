//! A tool definition's `x-mcp-header` annotations and the headers of a call: never a panic;
//! every header a valid tool mirrors is named `Mcp-Param-` and an HTTP token, and its value is
//! plain printable ASCII without outer spaces or the sentinel form; any text encoded as a
//! header value reads back to itself.
#![no_main]

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::{Limits, Value, parse};
use toolnexus_core::wire::client::headers::{PARAM_PREFIX, ParamHeaders, encode_value};

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let encoded = encode_value(&text);
    assert!(encoded.bytes().all(|b| (0x20..0x7f).contains(&b)), "{encoded:?}");
    match encoded
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(inner) if encoded != text => {
            let decoded = STANDARD.decode(inner).expect("the sentinel holds base64");
            assert_eq!(String::from_utf8(decoded).as_deref(), Ok(text.as_ref()));
        }
        _ => assert_eq!(encoded, text),
    }
    let Ok(tool) = parse(data, &Limits::DEFAULT) else {
        return;
    };
    let Ok(mirrored) = ParamHeaders::of_tool(&tool) else {
        return;
    };
    let Some(Value::Object(arguments)) = tool.get("arguments") else {
        return;
    };
    for (name, value) in mirrored.headers(arguments) {
        let param = name.strip_prefix(PARAM_PREFIX).expect("Mcp-Param-");
        assert!(is_token(param), "{name:?}");
        assert!(!value.starts_with(' ') && !value.ends_with(' '), "{value:?}");
        assert!(value.bytes().all(|b| (0x20..0x7f).contains(&b)), "{value:?}");
    }
});
