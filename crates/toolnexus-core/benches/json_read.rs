//! Benchmark: the bounded JSON reader against serde_json's, and the whole mapping, side by side.
//!
//! Run by `cargo xtask bench core`. Each payload is what a server sends with
//! `elicitation/create` (the Python benchmark maps the same files). Also timed, alone: the
//! whole mapping of a payload's params onto a request. The routes of a comparison
//! take turns over several rounds and each ratio is the median of the rounds' ratios, so that a
//! noisy machine slows both alike. serde_json reads into its own `Value` with none of the
//! checks untrusted input needs here (duplicate keys, exact numbers, limits, JSON pointers):
//! it is a yardstick for the reader's speed, not an alternative to it.

use std::hint::black_box;
use std::time::{Duration, Instant};

use toolnexus_core::{ElicitRequestParams, Limits, elicitation_into_request, json};

/// The allocator of the Python binding: reading JSON is mostly allocating small strings.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The payloads, by name.
const PAYLOADS: [(&str, &str); 2] = [
    (
        "contact form (3 fields)",
        include_str!("payloads/contact.json"),
    ),
    (
        "every field kind (13 fields)",
        include_str!("payloads/every_kind.json"),
    ),
];

/// How long each timing lasts, so that the clock's resolution and the loop do not count.
const MEASURE: Duration = Duration::from_millis(50);
/// Interleaved rounds per comparison.
const ROUNDS: usize = 9;

/// Nanoseconds per call of `route`, over a loop of about [`MEASURE`].
fn per_call_ns(route: &dyn Fn()) -> f64 {
    let mut calls: u32 = 1;
    loop {
        let start = Instant::now();
        for _ in 0..calls {
            route();
        }
        let elapsed = start.elapsed();
        if elapsed >= MEASURE || calls >= 1 << 30 {
            return elapsed.as_nanos() as f64 / f64::from(calls);
        }
        calls = calls.saturating_mul(2);
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Times `ours` against `theirs` in alternating order; prints both medians and the ratio.
fn compare(what: &str, ours: &dyn Fn(), theirs: &dyn Fn()) {
    let (mut ours_ns, mut theirs_ns, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let (o, t) = if round % 2 == 0 {
            let o = per_call_ns(ours);
            (o, per_call_ns(theirs))
        } else {
            let t = per_call_ns(theirs);
            (per_call_ns(ours), t)
        };
        ours_ns.push(o);
        theirs_ns.push(t);
        ratios.push(t / o);
    }
    println!(
        "  {what:<40} {:>8.2}us {:>8.2}us {:>7.2}x",
        median(ours_ns) / 1e3,
        median(theirs_ns) / 1e3,
        median(ratios)
    );
}

fn main() {
    let limits = Limits::DEFAULT;
    println!(
        "Median time per call over {ROUNDS} interleaved rounds; ratio = serde_json / toolnexus."
    );
    for (name, text) in PAYLOADS {
        let bytes = text.trim_end().as_bytes();
        println!("\n{name}: {} bytes of JSON", bytes.len());
        println!(
            "  {:<40} {:>10} {:>10} {:>8}",
            "", "toolnexus", "serde_json", "ratio"
        );
        compare(
            "read into a JSON value",
            &|| {
                black_box(json::parse(black_box(bytes), &limits).ok());
            },
            &|| {
                black_box(serde_json::from_slice::<serde_json::Value>(black_box(bytes)).ok());
            },
        );
        let map = || {
            let request = ElicitRequestParams::from_json(black_box(bytes), &limits)
                .and_then(|params| elicitation_into_request(params, "elc-1"));
            black_box(request.ok());
        };
        let mapped = median((0..ROUNDS).map(|_| per_call_ns(&map)).collect());
        println!(
            "  {:<40} {:>8.2}us",
            "params read and mapped onto a request",
            mapped / 1e3
        );
    }
}
