//! Benchmark: a round written down and read back, against reading the server's result.
//!
//! Run by `cargo xtask bench snapshot`. For each shared payload (`benches/payloads/`) the
//! server's `input_required` result holds one `elicitation/create` with the payload's params
//! and a `requestState`. Three routes are timed, taking turns over several rounds:
//!
//! - **read**: what a host does when the result arrives: `InputRequired::from_json` and
//!   `InputRound::start` (each form read, each `Request` made);
//! - **snapshot + restore**: `InputRound::snapshot(None)` then `InputRound::restore`;
//! - **sealed**: the same with a key: HMAC-SHA-256 over the document, checked on restore.
//!
//! The targets, for the form with one field of every kind: snapshot plus restore costs at
//! most what reading costs (1x), sealed at most twice that; and for every size, the cost per
//! field at 1,000 fields within 1.5 times the cost at 100. The other sizes' ratios are shown
//! beside: the 3-field form's is mostly the document's fixed cost (its options, ids and
//! request), which a larger form spreads. Each ratio is the median of the rounds' ratios. Targets are printed, never enforced; with
//! `TOOLNEXUS_BENCH_TARGETS` set to a file, each target's line is appended there.

// A benchmark stops on a payload it cannot read: that is a broken benchmark, not a figure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::hint::black_box;

use toolnexus_core::wire::mrtr::ClientRequest;
use toolnexus_core::{InputRequired, InputRound, Limits, SessionOptions};

#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;
use payloads::PAYLOADS;
use timing::{ROUNDS, median, per_call_ns, verdict};

/// The allocator of the bindings.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PLAIN_TARGET: f64 = 1.0;
const SEALED_TARGET: f64 = 2.0;
const GROWTH_TARGET: f64 = 1.5;
const KEY: &[u8] = b"a key of 32 bytes, as hosts use.";
const CALL: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register","arguments":{}}}"#;

/// Medians of each route's time and of each route's ratio to the first, the routes taking
/// turns in an order that alternates.
fn compare(routes: &[&dyn Fn()]) -> (Vec<f64>, Vec<f64>) {
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); routes.len()];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); routes.len()];
    for round in 0..ROUNDS {
        let mut order: Vec<usize> = (0..routes.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        let mut this = vec![0.0; routes.len()];
        for i in order {
            this[i] = per_call_ns(routes[i]);
        }
        for i in 0..routes.len() {
            times[i].push(this[i]);
            ratios[i].push(this[i] / this[0]);
        }
    }
    (
        times.into_iter().map(median).collect(),
        ratios.into_iter().map(median).collect(),
    )
}

fn record(what: &str, payload: &str, measured: &str, target: &str, met: bool) {
    timing::record("snapshot", what, payload, measured, target, met);
}

fn main() {
    let limits = Limits::DEFAULT.with_max_input_bytes(64 << 20);
    let call = ClientRequest::from_json(CALL, &limits).unwrap();
    let state = "s".repeat(256);
    println!("Median time per call over {ROUNDS} interleaved rounds; ratio = route / read.");
    println!(
        "| payload | fields | result bytes | snapshot bytes | read | snapshot + restore | ratio | sealed | ratio |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut per_field = Vec::new();
    for payload in &PAYLOADS {
        let result = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"form":{{"method":"elicitation/create","params":{}}}}},"requestState":"{state}"}}}}"#,
            payload.params.trim_end()
        );
        let bytes = result.as_bytes();
        let read = || {
            let input = InputRequired::from_json(bytes, &limits).unwrap();
            InputRound::start(call.clone(), input, SessionOptions::DEFAULT, 1_000).unwrap()
        };
        let (round, requests) = read();
        let fields = round
            .session()
            .form(requests[0].1.id())
            .unwrap()
            .fields()
            .len();
        let plain = round.snapshot(None).unwrap();
        let sealed = round.snapshot(Some(KEY)).unwrap();
        assert_eq!(
            InputRound::restore(&plain, &[], &limits, 2_000)
                .unwrap()
                .snapshot(None)
                .unwrap(),
            plain
        );
        let (times, ratios) = compare(&[
            &|| {
                black_box(read());
            },
            &|| {
                let written = black_box(&round).snapshot(None).unwrap();
                black_box(InputRound::restore(&written, &[], &limits, 2_000).unwrap());
            },
            &|| {
                let written = black_box(&round).snapshot(Some(KEY)).unwrap();
                black_box(InputRound::restore(&written, &[KEY], &limits, 2_000).unwrap());
            },
        ]);
        let (plain_met, sealed_met) = (ratios[1] <= PLAIN_TARGET, ratios[2] <= SEALED_TARGET);
        // The targets' form: the one with a field of every kind.
        let targeted = payload.name.starts_with("every field kind");
        let shown = |met: bool| if targeted { verdict(met) } else { "" };
        println!(
            "| {} | {fields} | {} | {} ({} sealed) | {:.2} µs | {:.2} µs | **{:.2}x** {} | {:.2} µs | **{:.2}x** {} |",
            payload.name,
            bytes.len(),
            plain.len(),
            sealed.len(),
            times[0] / 1e3,
            times[1] / 1e3,
            ratios[1],
            shown(plain_met),
            times[2] / 1e3,
            ratios[2],
            shown(sealed_met),
        );
        if targeted {
            record(
                "snapshot + restore vs reading the result",
                payload.name,
                &format!("{:.2}x", ratios[1]),
                &format!("<= {PLAIN_TARGET}x"),
                plain_met,
            );
            record(
                "sealed snapshot + restore vs reading the result",
                payload.name,
                &format!("{:.2}x", ratios[2]),
                &format!("<= {SEALED_TARGET}x"),
                sealed_met,
            );
        }
        per_field.push((
            payload.name,
            fields,
            times[1] / fields as f64,
            times[2] / fields as f64,
        ));
    }
    println!("\nCost per field, ns:");
    for (name, fields, plain, sealed) in &per_field {
        println!("  {name:<32} {fields:>5} fields  {plain:>8.0} plain  {sealed:>8.0} sealed");
    }
    let at = |n: usize| per_field.iter().find(|p| p.1 == n).copied().unwrap();
    let (hundred, thousand) = (at(100), at(1000));
    for (what, grown) in [
        ("snapshot + restore", thousand.2 / hundred.2),
        ("sealed snapshot + restore", thousand.3 / hundred.3),
    ] {
        let met = grown <= GROWTH_TARGET;
        println!(
            "  {what}: 1,000 fields against 100: {grown:.2}x ({})",
            verdict(met)
        );
        record(
            &format!("{what}: cost per field, 1,000 fields against 100"),
            "100 and 1,000 fields",
            &format!("{grown:.2}x"),
            &format!("<= {GROWTH_TARGET}x"),
            met,
        );
    }
}
