//! Benchmark: how many allocations one mapping makes, in each phase, over the shared payloads.
//!
//! Run by `cargo xtask bench core` after `benches/core.rs`. It counts with an instrumented
//! system allocator, apart from the timings, so that counting slows no timed route: a count
//! does not depend on the allocator.

// A benchmark stops on a payload it cannot read: that is a broken benchmark, not a figure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::alloc::System;
use std::hint::black_box;

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, Stats, StatsAlloc};
use toolnexus_core::{ElicitRequestParams, Limits, Value, elicitation_into_request, json};

#[path = "payloads.rs"]
mod payloads;
use payloads::PAYLOADS;

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    println!("\nAllocations of one mapping, by phase (count, and bytes asked for):");
    println!(
        "  {:<30} {:>7} {:>14} {:>14} {:>14} {:>9}",
        "", "values", "read", "map", "write", "total"
    );
    for payload in &PAYLOADS {
        let bytes = payload.params.trim_end().as_bytes();
        let limits = Limits::DEFAULT;
        let region = Region::new(ALLOCATOR);
        let value = json::parse(bytes, &limits).unwrap();
        let read = region.change();
        let values = count_values(&value);
        let region = Region::new(ALLOCATOR);
        let params = ElicitRequestParams::from_value(value).unwrap();
        let request = elicitation_into_request(params, "elc-1").unwrap();
        let map = region.change();
        let region = Region::new(ALLOCATOR);
        let text = request.to_json();
        let write = region.change();
        black_box(text);
        let phase = |s: Stats| {
            format!(
                "{} ({} KiB)",
                s.allocations + s.reallocations,
                (s.bytes_allocated + s.bytes_reallocated.max(0) as usize) / 1024
            )
        };
        let total = read.allocations
            + read.reallocations
            + map.allocations
            + map.reallocations
            + write.allocations
            + write.reallocations;
        println!(
            "  {:<30} {:>7} {:>14} {:>14} {:>14} {:>9}",
            payload.name,
            values,
            phase(read),
            phase(map),
            phase(write),
            total
        );
    }
    println!(
        "  read: one per string (key or value) longer than the 24 bytes a Text keeps inline and\n  \
         one per non-empty object or array, each of its exact size; map: the request's own members around the schema, which it takes\n  \
         over without a copy; write: the output string growing (reallocations counted)."
    );
}

/// How many JSON values `value` holds, itself and every key included.
fn count_values(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count_values).sum(),
        Value::Object(map) => map.values().map(count_values).sum::<usize>() + map.len(),
        _ => 0,
    }
}
