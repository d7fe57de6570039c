//! The snapshot a `snapshot` case restores without writing it first is one the core writes:
//! the round from a result alone (case 2505) is what `InputRound::for_result` writes, and the
//! sealed texts the refusal cases change are the core's seals of the documents they restore.

// A failed check is meant to stop the test: its helpers, not only its `#[test]`s, may panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use toolnexus_conformance::{Case, Op, load_suite, suite_dir};
use toolnexus_core::wire::mrtr::InputRequired;
use toolnexus_core::{InputRound, Limits, SessionOptions};

/// The case `id` of the suite.
fn case(id: u64) -> Case {
    load_suite(&suite_dir())
        .unwrap()
        .into_iter()
        .flat_map(|f| f.file.cases)
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// The script of a `snapshot` case.
fn script(case: &Case) -> serde_json::Value {
    assert_eq!(case.op, Op::Snapshot, "#{}", case.id);
    serde_json::from_slice(&case.input_bytes().unwrap()).unwrap()
}

/// The text the `restore` step `n` (counting restore steps from 0) of a script gives.
fn restored(script: &serde_json::Value, n: usize) -> String {
    let steps = script["steps"].as_array().unwrap();
    let restore = steps
        .iter()
        .filter_map(|s| s.get("restore"))
        .nth(n)
        .unwrap();
    restore["snapshot"].as_str().unwrap().to_owned()
}

/// The `start` response of the first case that starts a round: the result the suite's rounds
/// answer.
fn the_result() -> String {
    let script = script(&case(2500));
    script["steps"][0]["start"]["response"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn the_round_from_a_result_alone_is_the_one_for_result_writes() {
    let input = InputRequired::from_json(the_result().as_bytes(), &Limits::DEFAULT).unwrap();
    let (round, _) = InputRound::for_result(input, SessionOptions::DEFAULT, 1000).unwrap();
    let written = String::from_utf8(round.snapshot(None).unwrap()).unwrap();
    assert_eq!(restored(&script(&case(2505)), 0), written);
}

#[test]
fn the_changed_seals_are_changes_of_the_cores_seal() {
    // Case 2540 restores the changed text, then the core's own seal of the fresh round.
    let script = script(&case(2540));
    let (changed, sealed) = (restored(&script, 0), restored(&script, 1));
    let written = String::from_utf8(
        toolnexus_core::seal::seal(
            the_fresh_round().as_bytes(),
            b"input-round",
            b"k-2026: a seal key of 32 bytes or more",
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(sealed, written);
    let differing = changed
        .bytes()
        .zip(sealed.bytes())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!((changed.len(), differing), (sealed.len(), 1));
    // Case 2541 changes one byte of the document, 2542 cuts the same seal short.
    let document = restored(&self::script(&case(2541)), 0);
    let differing = document
        .bytes()
        .zip(sealed.bytes())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!((document.len(), differing), (sealed.len(), 1));
    let cut = restored(&self::script(&case(2542)), 0);
    assert!(sealed.starts_with(&cut) && cut.len() < sealed.len());
}

/// The unsealed snapshot of the fresh round, as case 2500 pins it.
fn the_fresh_round() -> String {
    let output: serde_json::Value =
        serde_json::from_str(case(2500).expect.output.as_deref().unwrap()).unwrap();
    output[1]["ok"].as_str().unwrap().to_owned()
}
