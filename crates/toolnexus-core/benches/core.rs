//! Benchmark: the core beside its yardsticks, over the payloads every benchmark shares.
//!
//! Run by `cargo xtask bench core`. The payloads are the files of `benches/payloads/` (what a
//! server sends with `elicitation/create`, and `content/` what a person answers), which the
//! Python benchmark and the Kotlin and Swift ones read too. For each it times, side by side:
//!
//! - reading the params into a JSON value, against serde_json into its own `Value`;
//! - the whole mapping (read the params, map them onto a request, write the request as JSON)
//!   against the floor of any validating reader: serde_json checking the same bytes into
//!   `serde::de::IgnoredAny`, which builds nothing;
//! - validating the content against a prepared [`Form`], per field;
//!
//! then how the cost per field grows from 10 fields to 1,000 (`benches/allocations.rs` counts
//! the allocations of one mapping). The routes of a comparison take turns over several rounds and
//! each ratio is the median of the rounds' ratios, so that a noisy machine slows both alike.
//! serde_json reads with none of the checks untrusted input needs here (duplicate keys, exact
//! numbers, limits, JSON pointers): it is a yardstick, not an alternative.
//!
//! Targets are printed, never enforced; with `TOOLNEXUS_BENCH_TARGETS` set to a file, each
//! target's line is also appended there for the summary `cargo xtask bench` prints.

// A benchmark stops on a payload it cannot read: that is a broken benchmark, not a figure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::hint::black_box;

use toolnexus_core::content::ContentOptions;
use toolnexus_core::form::Form;
use toolnexus_core::schema::check_schema;
use toolnexus_core::{ElicitRequestParams, Limits, Value, elicitation_into_request, json};

#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;
use payloads::{PAYLOADS, Payload};
use timing::{ROUNDS, median, per_call_ns, verdict};

/// The allocator of the bindings: reading JSON is mostly allocating small strings.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The targets: the mapping within this many times the floor, validation under this many
/// nanoseconds per field, and the cost per field at 1,000 fields within this many times the
/// cost at 10.
const FLOOR_TARGET: f64 = 3.0;
const VALIDATE_NS_PER_FIELD: f64 = 60.0;
const GROWTH_TARGET: f64 = 1.5;

/// Medians of `ours` and `theirs` timed in alternating order, and the median ratio
/// theirs / ours.
fn compare(ours: &dyn Fn(), theirs: &dyn Fn()) -> (f64, f64, f64) {
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
    (median(ours_ns), median(theirs_ns), median(ratios))
}

fn alone(route: &dyn Fn()) -> f64 {
    median((0..ROUNDS).map(|_| per_call_ns(route)).collect())
}

/// Appends a target's line to the summary file, when there is one.
fn record(what: &str, payload: &str, measured: &str, target: &str, met: bool) {
    timing::record("core", what, payload, measured, target, met);
}

/// What the benchmark reads from one payload, prepared once.
struct Prepared {
    bytes: &'static [u8],
    schema: Value,
    content: Value,
    form: Form,
    fields: usize,
}

fn prepare(payload: &Payload) -> Prepared {
    let limits = Limits::DEFAULT;
    let bytes = payload.params.trim_end().as_bytes();
    let params = json::parse(bytes, &limits).unwrap();
    let schema = params.get("requestedSchema").unwrap().clone();
    let content = json::parse(payload.content.trim_end().as_bytes(), &limits).unwrap();
    let form = Form::new(&schema).unwrap();
    let found = form.validate(&content, &ContentOptions::STRICT);
    assert!(found.is_empty(), "{}: {found:?}", payload.name);
    let fields = form.fields().len();
    Prepared {
        bytes,
        schema,
        content,
        form,
        fields,
    }
}

/// The whole mapping: params read, mapped onto a request, the request written.
fn map_and_write(bytes: &[u8]) -> Option<String> {
    let params = ElicitRequestParams::from_json(bytes, &Limits::DEFAULT).ok()?;
    let request = elicitation_into_request(params, "elc-1").ok()?;
    Some(request.to_json())
}

fn main() {
    let limits = Limits::DEFAULT;
    println!(
        "Median time per call over {ROUNDS} interleaved rounds; ratio = yardstick / toolnexus."
    );
    let prepared: Vec<Prepared> = PAYLOADS.iter().map(prepare).collect();
    for (payload, p) in PAYLOADS.iter().zip(&prepared) {
        let bytes = p.bytes;
        println!(
            "\n{}: {} bytes of params, {} bytes of content",
            payload.name,
            bytes.len(),
            payload.content.trim_end().len()
        );
        println!(
            "  {:<36} {:>10} {:>12} {:>10} {:>8}  target",
            "", "toolnexus", "yardstick", "", "ratio"
        );
        let (ours, theirs, ratio) = compare(
            &|| {
                black_box(json::parse(black_box(bytes), &limits).ok());
            },
            &|| {
                black_box(serde_json::from_slice::<serde_json::Value>(black_box(bytes)).ok());
            },
        );
        println!(
            "  {:<36} {:>8.2}us {:>10.2}us {:>10} {:>7.2}x",
            "read into a JSON value",
            ours / 1e3,
            theirs / 1e3,
            "Value",
            ratio
        );
        let (ours, floor, ratio) = compare(
            &|| {
                black_box(map_and_write(black_box(bytes)));
            },
            &|| {
                black_box(
                    serde_json::from_slice::<serde::de::IgnoredAny>(black_box(bytes)).is_ok(),
                );
            },
        );
        let times_floor = 1.0 / ratio;
        let met = times_floor <= FLOOR_TARGET;
        println!(
            "  {:<36} {:>8.2}us {:>10.2}us {:>10} {:>7.2}x  {:.1}x the floor, <= {FLOOR_TARGET}x {}",
            "read + map + write",
            ours / 1e3,
            floor / 1e3,
            "IgnoredAny",
            ratio,
            times_floor,
            verdict(met)
        );
        record(
            "read + map + write, times the IgnoredAny floor",
            payload.name,
            &format!("{times_floor:.1}x"),
            &format!("<= {FLOOR_TARGET}x"),
            met,
        );
        let options = ContentOptions::STRICT;
        let validate = alone(&|| {
            black_box(p.form.validate(black_box(&p.content), &options));
        });
        let per_field = validate / p.fields as f64;
        let met = per_field < VALIDATE_NS_PER_FIELD;
        println!(
            "  {:<36} {:>8.2}us {:>34.0} ns per field, < {VALIDATE_NS_PER_FIELD} {}",
            "validate content (prepared Form)",
            validate / 1e3,
            per_field,
            verdict(met)
        );
        record(
            "validation in Rust, per field",
            payload.name,
            &format!("{per_field:.0} ns"),
            &format!("< {VALIDATE_NS_PER_FIELD} ns"),
            met,
        );
    }
    growth(&prepared);
}

/// The cost per field of each job at the largest form against the form of 10 fields.
fn growth(prepared: &[Prepared]) {
    let small = &prepared[2];
    let large = &prepared[4];
    println!(
        "\nCost per field at {} fields against {} fields (target: within {GROWTH_TARGET}x):",
        large.fields, small.fields
    );
    println!(
        "  {:<36} {:>12} {:>12} {:>8}",
        "", "ns/field", "ns/field", "growth"
    );
    type Job = fn(&Prepared);
    let jobs: [(&str, Job); 4] = [
        ("read the params", |p| {
            black_box(json::parse(black_box(p.bytes), &Limits::DEFAULT).ok());
        }),
        ("check_schema", |p| {
            black_box(check_schema(black_box(&p.schema)));
        }),
        ("the form model (Form::new)", |p| {
            black_box(Form::new(black_box(&p.schema)).ok());
        }),
        ("validate content", |p| {
            black_box(
                p.form
                    .validate(black_box(&p.content), &ContentOptions::STRICT),
            );
        }),
    ];
    for (what, job) in jobs {
        let (small_ns, large_ns, _) = compare(&|| job(small), &|| job(large));
        let (a, b) = (
            small_ns / small.fields as f64,
            large_ns / large.fields as f64,
        );
        let growth = b / a;
        let met = growth <= GROWTH_TARGET;
        println!(
            "  {what:<36} {a:>12.1} {b:>12.1} {growth:>7.2}x  {}",
            verdict(met)
        );
        record(
            &format!("{what}: cost per field, 1,000 fields against 10"),
            "10 and 1,000 fields",
            &format!("{growth:.2}x"),
            &format!("<= {GROWTH_TARGET}x"),
            met,
        );
    }
}
