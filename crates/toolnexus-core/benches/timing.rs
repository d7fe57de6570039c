//! What the timed benchmarks share: a call timed over a loop long enough for the clock,
//! medians, and each target's line for the summary `cargo xtask bench` prints.

use std::fs::OpenOptions;
use std::io::Write;
use std::time::{Duration, Instant};

/// How long each timing lasts, so that the clock's resolution and the loop do not count.
pub const MEASURE: Duration = Duration::from_millis(40);
/// Interleaved rounds per comparison.
pub const ROUNDS: usize = 7;

/// Nanoseconds per call of `route`, over a loop of about [`MEASURE`].
pub fn per_call_ns(route: &dyn Fn()) -> f64 {
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

/// The median of `values` (NaN for none).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// `met` as the summary writes it.
pub fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

/// Appends a target's line (`bench`, what, payload, measured, wanted, verdict) to the
/// summary file named by `TOOLNEXUS_BENCH_TARGETS`, when there is one.
pub fn record(bench: &str, what: &str, payload: &str, measured: &str, target: &str, met: bool) {
    let Ok(path) = std::env::var("TOOLNEXUS_BENCH_TARGETS") else {
        return;
    };
    let line = format!(
        "{bench}\t{what}\t{payload}\t{measured}\t{target}\t{}\n",
        verdict(met)
    );
    if let Ok(mut file) = OpenOptions::new().create(true).append(true).open(path) {
        let _ = file.write_all(line.as_bytes());
    }
}
