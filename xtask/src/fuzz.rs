//! `cargo xtask fuzz`: runs the fuzz targets of the core (`crates/toolnexus-core/fuzz`), of
//! the CLI (`crates/toolnexus-cli/fuzz`) and of the authorization flow
//! (`crates/toolnexus-auth/fuzz`) with cargo-fuzz on nightly, seeded from the conformance cases
//! (the flow from the canned flows in its `fuzz/flows`), and prints per target the executions,
//! their rate, the coverage and the findings. The `fuzz` test step replays every seed and the kept corpus instead.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::ValueEnum;
use toolnexus_conformance::{Op, load_suite, suite_dir};

use super::run;

/// The triple cargo-fuzz builds for (the host's), under each fuzz crate's `target/`.
const HOST_TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// The fuzz targets; each one's doc comment is its description.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Target {
    /// the JSON reader, within the default and small limits; what it reads writes back
    JsonRead,
    /// the JSON reader against serde_json, but for the documented differences
    JsonDifferential,
    /// `Request`, `Answer` and `ElicitResult` read and written back
    Contract,
    /// `ElicitRequestParams` read, mapped to a Request and prepared as a form
    ElicitParams,
    /// the schema reader and `check_schema` agree
    Schema,
    /// a `Form`: fields, parse, validate, prepare and defaults
    Form,
    /// content validation against the `jsonschema` crate with independent format checkers
    ValidateDifferential,
    /// `review_url` on any text
    ReviewUrl,
    /// a tool's `x-mcp-header` annotations, a call's headers and the header value encoding
    ToolHeaders,
    /// the 2025 wire's `ReverseBridge` fed any messages and answers
    ReverseBridge,
    /// the 2026-07-28 readers, a round's answers and its retry
    Mrtr,
    /// a task followed in either era: polls of any status, its questions, its updates
    Task,
    /// the web form: any form and options written as HTML, any post read back and
    /// re-rendered, the URL consent of any text
    Html,
    /// arbitrary sequences of session operations against a model
    Session,
    /// snapshots restored from any bytes; a round written down and read back the same
    Snapshot,
    /// the CLI's MCP client talking to a server that sends anything
    CliClient,
    /// the CLI's event-stream reader within its cap: no event past it, `retry` clamped, the
    /// events an unbounded reading gives
    SseReader,
    /// the authorization flow fed any challenge, metadata, registration, redirect and token
    /// response: nothing insecure fetched or opened, no token in an error
    AuthFlow,
}

impl Target {
    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().replace('-', "_"))
            .unwrap_or_default()
    }

    /// The fuzz crate the target is in.
    fn dir(self, root: &Path) -> PathBuf {
        match self {
            Target::CliClient | Target::SseReader => root.join("crates/toolnexus-cli/fuzz"),
            Target::AuthFlow => root.join("crates/toolnexus-auth/fuzz"),
            _ => root.join("crates/toolnexus-core/fuzz"),
        }
    }

    /// The seed an input of a case of `op` makes for this target, if any: targets that read
    /// several things take a selector byte first.
    fn seed(self, op: Op, input: &[u8]) -> Option<Vec<u8>> {
        let with = |prefix: u8| [&[prefix][..], input].concat();
        match (self, op) {
            (Target::JsonRead, _) => Some(with(0)),
            (Target::JsonDifferential, _) => Some(input.to_vec()),
            (Target::Contract, Op::Request) => Some(with(0)),
            (Target::Contract, Op::Answer | Op::AnswerToElicitResult) => Some(with(1)),
            (Target::Contract, Op::ElicitResult) => Some(with(2)),
            (Target::Schema, Op::CheckSchema | Op::FormFields | Op::SensitiveFields) => {
                Some(with(0))
            }
            // The web form's cases, behind a byte that picks the form rather than the consent.
            (Target::Html, Op::Html) => Some(with(1)),
            (Target::ReviewUrl, Op::ReviewUrl) => serde_json::from_slice::<String>(input)
                .ok()
                .map(String::into_bytes),
            // The first snapshot a script restores, read as raw bytes (an even first byte, and
            // two for the time).
            (Target::Snapshot, Op::Snapshot) => first_restored_snapshot(input)
                .map(|snapshot| [&[0u8, 0, 0][..], snapshot.as_bytes()].concat()),
            // A schema of the cases as a tool's input schema.
            (Target::ToolHeaders, Op::CheckSchema | Op::FormFields) => {
                Some([&br#"{"name":"t","inputSchema":"#[..], input, b"}"].concat())
            }
            _ => None,
        }
    }
}

impl Target {
    /// The folder of the fuzz crate whose files are the seeds of a target no conformance case
    /// feeds: the authorization flow's canned flows, the event streams.
    fn kept_seeds(self) -> Option<&'static str> {
        match self {
            Target::AuthFlow => Some("flows"),
            Target::SseReader => Some("streams"),
            _ => None,
        }
    }
}

/// The `snapshot` of the first `restore` step of a `snapshot` case's script, if it gives one.
fn first_restored_snapshot(input: &[u8]) -> Option<String> {
    let script: serde_json::Value = serde_json::from_slice(input).ok()?;
    script
        .get("steps")?
        .as_array()?
        .iter()
        .find_map(|step| step.get("restore")?.get("snapshot")?.as_str())
        .map(str::to_owned)
}

/// Writes the seeds of `target` from the conformance cases into `dir` (the authorization
/// flow's from its canned flows and the event streams from theirs, which no case holds); how
/// many.
fn write_seeds(target: Target, dir: &Path) -> Result<usize, String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if let Some(kept) = target.kept_seeds() {
        // `dir` is `<fuzz crate>/seeds/<target>`; the kept seeds are in `<fuzz crate>/<kept>`.
        let fuzz_crate = dir.parent().and_then(Path::parent).unwrap_or(dir);
        let kept = fuzz_crate.join(kept);
        let mut written = 0;
        for entry in fs::read_dir(&kept).map_err(|e| format!("{}: {e}", kept.display()))? {
            let from = entry.map_err(|e| e.to_string())?.path();
            let to = dir.join(from.file_name().unwrap_or_default());
            fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
            written += 1;
        }
        return Ok(written);
    }
    let mut written = 0;
    for file in load_suite(&suite_dir())? {
        for case in &file.file.cases {
            let Ok(input) = case.input_bytes() else {
                continue;
            };
            // Inputs of megabytes teach a fuzzer nothing a short one does not.
            if input.len() > 64 * 1024 {
                continue;
            }
            if let Some(seed) = target.seed(case.op, &input) {
                let path = dir.join(format!("case-{}", case.id));
                fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))?;
                written += 1;
            }
        }
    }
    Ok(written)
}

/// Whether the nightly toolchain is installed; says loudly what cannot run without it.
fn has_nightly(what: &str) -> bool {
    let nightly = Command::new("cargo")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !nightly {
        eprintln!("xtask: NO NIGHTLY TOOLCHAIN: {what}");
    }
    nightly
}

/// Whether `cargo +nightly fuzz` can run here; says why not when it cannot.
fn cargo_fuzz_ready() -> bool {
    if !has_nightly("the fuzz targets cannot be built or replayed") {
        return false;
    }
    let has_fuzz = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_fuzz {
        println!("fuzz: installing cargo-fuzz");
        if !run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"])) {
            eprintln!("xtask: cargo-fuzz could not be installed: the fuzz targets cannot run");
            return false;
        }
    }
    true
}

/// `cargo fuzz run` of `target`: optimised to fuzz (`-O`), or built quickly to replay (`-D`).
fn fuzz_command(target: Target, root: &Path, profile: &str) -> Command {
    let mut command = Command::new("cargo");
    command.current_dir(target.dir(root)).args([
        "+nightly",
        "fuzz",
        "run",
        profile,
        &target.name(),
    ]);
    command
}

/// Figures read from libFuzzer's output.
#[derive(Default)]
struct Stats {
    execs: u64,
    per_sec: u64,
    cov: u64,
    ft: u64,
    rss_mb: u64,
}

fn stats(output: &str) -> Stats {
    let mut s = Stats::default();
    let number = |line: &str, key: &str| -> Option<u64> {
        let rest = line.split(key).nth(1)?;
        rest.split_whitespace()
            .next()?
            .trim_end_matches("Mb")
            .parse()
            .ok()
    };
    for line in output.lines() {
        if let Some(n) = number(line, "stat::number_of_executed_units:") {
            s.execs = n;
        }
        if let Some(n) = number(line, "stat::average_exec_per_sec:") {
            s.per_sec = n;
        }
        if let Some(n) = number(line, "stat::peak_rss_mb:") {
            s.rss_mb = n;
        }
        if line.starts_with('#') {
            if let Some(n) = number(line, "cov: ") {
                s.cov = n;
            }
            if let Some(n) = number(line, "ft: ") {
                s.ft = n;
            }
        }
    }
    s
}

/// `cargo xtask fuzz [TARGET] [--time SECS]`: runs each target (or the one named) for `secs`
/// seconds, the corpus kept in `fuzz/corpus/<target>`; prints a table; `false` if a target
/// found a crash or could not run.
pub(crate) fn fuzz(root: &Path, only: Option<Target>, secs: u64) -> bool {
    if !cargo_fuzz_ready() {
        return false;
    }
    let mut rows = Vec::new();
    let mut ok = true;
    for target in Target::value_variants() {
        if only.is_some_and(|t| t != *target) {
            continue;
        }
        let dir = target.dir(root);
        let seeds = dir.join("seeds").join(target.name());
        let corpus = dir.join("corpus").join(target.name());
        if let Err(e) = write_seeds(*target, &seeds).and_then(|_| {
            fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))
        }) {
            eprintln!("xtask: {e}");
            return false;
        }
        println!("\n==> fuzz {} for {secs} s", target.name());
        let output = fuzz_command(*target, root, "-O")
            .arg(&corpus)
            .arg(&seeds)
            .args([
                "--",
                &format!("-max_total_time={secs}"),
                &format!(
                    "-dict={}",
                    root.join("crates/toolnexus-core/fuzz/json.dict").display()
                ),
                "-print_final_stats=1",
                "-rss_limit_mb=2048",
                "-timeout=10",
            ])
            // The CLI tells a person on standard error what it ignored: millions of lines.
            .args((*target == Target::CliClient).then_some("-close_fd_mask=2"))
            .output();
        let Ok(output) = output else {
            eprintln!("xtask: could not start cargo fuzz");
            return false;
        };
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let found = !output.status.success();
        if found {
            ok = false;
            // What failed (the panic and its message), then where the input was written.
            let lines: Vec<&str> = text.lines().collect();
            if let Some(at) = lines.iter().position(|l| l.contains("panicked at")) {
                for line in lines.iter().skip(at).take(12) {
                    eprintln!("{line}");
                }
            }
            for line in lines
                .iter()
                .filter(|l| l.contains("Test unit written to") || l.contains("Base64:"))
            {
                eprintln!("{line}");
            }
        }
        rows.push((target.name(), stats(&text), found));
    }
    println!(
        "\n| target | seconds | execs | execs/s | cov (edges) | ft (features) | peak RSS MB | findings |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, s, found) in rows {
        println!(
            "| {name} | {secs} | {} | {} | {} | {} | {} | {} |",
            s.execs,
            s.per_sec,
            s.cov,
            s.ft,
            s.rss_mb,
            if found { "CRASH (see above)" } else { "0" }
        );
    }
    ok
}

/// How many files are in `dir` (0 when it cannot be read).
fn count_files(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |entries| entries.filter(Result::is_ok).count())
}

/// The `fuzz` test step: replays every seed and the kept corpus of every target, and fails
/// loudly when there is no nightly toolchain to build them with.
///
/// Each fuzz crate's targets are built by one `cargo fuzz build`, unoptimised (each input runs
/// once, and an unoptimised build takes a fraction of the time), so that cargo builds them side
/// by side, into one target folder; then each target's binary replays its inputs.
pub(crate) fn replay(root: &Path) -> bool {
    if !cargo_fuzz_ready() {
        return false;
    }
    let mut crates: Vec<PathBuf> = Vec::new();
    for target in Target::value_variants() {
        let dir = target.dir(root);
        if !crates.contains(&dir) {
            crates.push(dir);
        }
    }
    // One target folder for the three crates: what they share (the core, its dependencies) is
    // built once.
    let shared = root.join("target/fuzz-replay");
    for dir in &crates {
        let built = run(Command::new("cargo")
            .current_dir(dir)
            .args(["+nightly", "fuzz", "build", "-D", "--target-dir"])
            .arg(&shared));
        if !built {
            eprintln!("fuzz: the targets of {} did not build", dir.display());
            return false;
        }
    }
    for target in Target::value_variants() {
        let dir = target.dir(root);
        let seeds = dir.join("seeds").join(target.name());
        if let Err(e) = write_seeds(*target, &seeds) {
            eprintln!("xtask: {e}");
            return false;
        }
        let binary = shared.join(HOST_TRIPLE).join("debug").join(target.name());
        let mut command = Command::new(&binary);
        command.arg(&seeds);
        let mut inputs = count_files(&seeds);
        for kept in ["corpus", "regressions"] {
            let path = dir.join(kept).join(target.name());
            if path.is_dir() {
                inputs += count_files(&path);
                command.arg(path);
            }
        }
        let Ok(output) = command.arg("-runs=0").output() else {
            eprintln!("xtask: could not start {}", binary.display());
            return false;
        };
        if !output.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&output.stderr));
            eprintln!("fuzz: {} FAILED on a kept input", target.name());
            return false;
        }
        let note = if inputs == 0 {
            " (none kept: the empty input only)"
        } else {
            ""
        };
        println!(
            "fuzz: {:<22} {inputs:>6} inputs replayed{note}",
            target.name()
        );
    }
    true
}

/// The `leaks` test step: the tests of the core and of the conformance runner (every case
/// through the core) built with LeakSanitizer, in a target folder of their own; any leak fails
/// them. Needs the nightly toolchain, and says so loudly without it.
pub(crate) fn leaks(root: &Path) -> bool {
    if !has_nightly("the tests cannot run under LeakSanitizer") {
        return false;
    }
    run(Command::new("cargo")
        .current_dir(root)
        .args([
            "+nightly",
            "test",
            "--quiet",
            "--target",
            HOST_TRIPLE,
            "--target-dir",
            "target/lsan",
            "-p",
            "toolnexus-core",
            "-p",
            "toolnexus-conformance",
            "--all-features",
            "--lib",
            "--tests",
        ])
        .env("RUSTFLAGS", "-Zsanitizer=leak")
        .env("LSAN_OPTIONS", "exitcode=23"))
}
