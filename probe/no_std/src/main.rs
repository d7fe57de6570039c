//! A `no_std` program that maps an elicitation and an answer, validates content and reviews
//! links with toolnexus-core.
//!
//! It only links if nothing in the core's dependency tree pulls in std: a second copy of the
//! `panic_impl` lang item fails the build with E0152. Running it proves the mappings work
//! on nothing but `core`, `alloc` and a fixed arena.

#![no_std]
#![no_main]

extern crate alloc;

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};

use toolnexus_core::content::{ContentOptions, validate_content};
use toolnexus_core::schema::RequestedSchema;
use toolnexus_core::{
    Answer, ElicitRequestParams, Limits, Verdict, answer_to_elicit_result, elicitation_to_request,
    review_url,
};

const PARAMS: &[u8] = br#"{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#;
const REQUEST: &str = r#"{"id":"probe-1","kind":"input","prompt":"Your name?","data":{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}"#;
const ANSWER: &[u8] = br#"{"id":"probe-1","ok":true,"data":{"name":"Ada","n":1.50}}"#;
const RESULT: &str = r#"{"action":"accept","content":{"name":"Ada","n":1.50}}"#;

const FORM: &[u8] = br#"{"type":"object","properties":{"name":{"type":"string","maxLength":3},"email":{"type":"string","format":"email"},"age":{"type":"integer","minimum":18}}}"#;
const GOOD_CONTENT: &str = r#"{"name":"Zoë","email":"zoe@example.org","age":18.0}"#;
const BAD_CONTENT: &str = r#"{"name":"Zoëy","email":"zoe at example.org","age":17}"#;

// The C library provides `main`'s caller, `write`, `abort` and the mem* functions `core` calls.
#[link(name = "c")]
unsafe extern "C" {
    fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    fn abort() -> !;
}

fn say(text: &str) {
    // SAFETY: `text` is a valid buffer of `text.len()` bytes for the duration of the call.
    unsafe {
        write(1, text.as_ptr(), text.len());
    }
}

fn run() -> bool {
    let limits = Limits::DEFAULT;
    let Ok(params) = ElicitRequestParams::from_json(PARAMS, &limits) else {
        return false;
    };
    let Ok(request) = elicitation_to_request(&params, "probe-1") else {
        return false;
    };
    let Ok(answer) = Answer::from_json(ANSWER, &limits) else {
        return false;
    };
    let Ok(result) = answer_to_elicit_result(&answer) else {
        return false;
    };
    let deep_refused = toolnexus_core::json::parse(&[b'['; 10_000], &limits).is_err();
    request.to_json() == REQUEST && result.to_json() == RESULT && deep_refused && checks_content()
}

/// Validates content against the form's schema: the email format, an exact integer bound and
/// a code-point length all run on `core` and `alloc` alone.
fn checks_content() -> bool {
    let limits = Limits::DEFAULT;
    let Ok(schema) = toolnexus_core::json::parse(FORM, &limits) else {
        return false;
    };
    let Ok(schema) = RequestedSchema::from_value(&schema) else {
        return false;
    };
    let (Ok(good), Ok(bad)) = (
        toolnexus_core::json::parse_str(GOOD_CONTENT, &limits),
        toolnexus_core::json::parse_str(BAD_CONTENT, &limits),
    ) else {
        return false;
    };
    let keywords: alloc::vec::Vec<&str> = validate_content(&schema, &bad, &ContentOptions::STRICT)
        .iter()
        .map(|v| v.keyword().as_str())
        .collect();
    validate_content(&schema, &good, &ContentOptions::STRICT).is_empty()
        && keywords == ["maxLength", "format", "minimum"]
        && reviews_links()
}

/// Reviews URL-mode links: WHATWG parsing and IDNA run without std too.
fn reviews_links() -> bool {
    let spoof = review_url("https://bank.example@evil.example/");
    let idn = review_url("https://bücher.example/");
    spoof.verdict() == Verdict::Reject
        && idn.host_ascii() == Some("xn--bcher-kva.example")
        && idn.verdict() == Verdict::Warn
}

#[unsafe(no_mangle)]
extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    if run() {
        say(
            "no_std probe: mapped an elicitation and an answer, validated content and reviewed links, without std\n",
        );
        0
    } else {
        say("no_std probe: the mappings gave unexpected output\n");
        1
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    say("no_std probe: panic\n");
    // SAFETY: abort takes no arguments and never returns.
    unsafe { abort() }
}

/// A bump allocator over a fixed arena: enough for a probe, and needs nothing from an OS.
struct Arena {
    memory: UnsafeCell<[u8; ARENA_BYTES]>,
    used: AtomicUsize,
}

const ARENA_BYTES: usize = 1 << 20;

// SAFETY: `used` hands out each byte of `memory` once, atomically, so no two allocations
// overlap, whichever thread asks.
unsafe impl Sync for Arena {}

// SAFETY: every block returned lies inside `memory`, is aligned as asked, and is never
// handed out twice; running out returns null as the trait requires.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let base = self.memory.get() as usize;
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let start = (base + used).next_multiple_of(layout.align()) - base;
            let end = match start.checked_add(layout.size()) {
                Some(end) if end <= ARENA_BYTES => end,
                _ => return core::ptr::null_mut(),
            };
            match self
                .used
                .compare_exchange(used, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                // SAFETY: `start..end` lies within the arena.
                Ok(_) => return unsafe { self.memory.get().cast::<u8>().add(start) },
                Err(now) => used = now,
            }
        }
    }

    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static ARENA: Arena = Arena {
    memory: UnsafeCell::new([0; ARENA_BYTES]),
    used: AtomicUsize::new(0),
};
