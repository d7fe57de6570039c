//! Snapshots read back as untrusted input: any bytes restored as a round or a session's
//! pending request, sealed or not, never panic; and a round made from generated requests,
//! answered in part and written down, restores into one that writes the same snapshot, the
//! same retry and the same pending requests, while any changed byte of its sealed form is
//! refused as an invalid seal.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use toolnexus_core::json::Limits;
use toolnexus_core::wire::mrtr::ClientRequest;
use toolnexus_core::wire::rpc::RpcId;
use toolnexus_core::{
    Answer, ErrorKind, InputRequired, InputRound, Map, Reason, Session, SessionOptions,
};
use toolnexus_core_fuzz::{GenParams, limits, take_bytes};

const KEY: &[u8] = b"the fuzz key: 32 bytes or longer";
const CALL: &[u8] =
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#;

/// Restores `bytes` every way; what restores writes itself down again unchanged.
fn restore_any(bytes: &[u8], limits: &Limits, now: u64) {
    for keys in [&[][..], &[KEY][..]] {
        if let Ok(round) = InputRound::restore(bytes, keys, limits, now) {
            let again = round.snapshot(None).expect("an unsealed snapshot is always written");
            let twice = InputRound::restore(&again, &[], &Limits::DEFAULT.with_max_input_bytes(usize::MAX), now)
                .expect("a snapshot the core wrote restores");
            assert_eq!(twice.snapshot(None).ok(), Some(again), "a restored round writes another snapshot");
            assert_eq!(twice.snapshot_id(), round.snapshot_id(), "a round restored again keeps its id");
        }
        if let Ok(session) = Session::restore(bytes, keys, limits, now) {
            let pending = session.pending();
            assert_eq!(pending.len(), 1, "a restored session holds one request");
            let id = pending.first().map(|r| String::from(r.id())).unwrap_or_default();
            // Its request is pending: it is written down again unless it never expires.
            let never_expires = pending.first().is_some_and(|r| r.expires_at().is_none());
            match session.snapshot(&id, None) {
                Ok(_) => assert!(!never_expires, "a request that never expires was written"),
                Err(error) => assert!(
                    never_expires && error.kind() == ErrorKind::InvalidValue,
                    "a pending request with an expiry is written down: {error:?}"
                ),
            }
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Ok(choice) = u8::arbitrary(&mut u) else {
        return;
    };
    let now = u64::from(u16::arbitrary(&mut u).unwrap_or(0));
    if choice & 1 == 0 {
        let rest = u.take_rest();
        restore_any(rest, &limits(choice >> 1), now);
        return;
    }

    // A round of generated elicitations, answered in part.
    let Ok(entries) = Vec::<GenParams>::arbitrary(&mut u) else {
        return;
    };
    let requests: Vec<String> = entries
        .iter()
        .take(4)
        .enumerate()
        .map(|(i, p)| {
            format!(
                "\"k{i}\":{{\"method\":\"elicitation/create\",\"params\":{}}}",
                String::from_utf8_lossy(&p.to_bytes())
            )
        })
        .collect();
    let result = format!(
        "{{\"resultType\":\"input_required\",\"inputRequests\":{{{}}},\"requestState\":\"s\"}}",
        requests.join(",")
    );
    let Ok(input_required) = InputRequired::from_json(result.as_bytes(), &Limits::DEFAULT) else {
        return;
    };
    let Ok(call) = ClientRequest::from_json(CALL, &Limits::DEFAULT) else {
        return;
    };
    let ttl = Option::<u16>::arbitrary(&mut u).unwrap_or(None).map(u64::from);
    let options = SessionOptions::DEFAULT.with_ttl_ms(ttl);
    let Ok((mut round, begun)) = InputRound::start(call, input_required, options, now) else {
        return;
    };
    for (_, request) in &begun {
        let answer = match u8::arbitrary(&mut u).unwrap_or(0) % 3 {
            0 => Answer::accept(request.id(), Map::new()),
            1 => Answer::refuse(request.id(), Reason::Declined),
            _ => continue,
        };
        if let Ok(answer) = answer {
            let _ = round.resolve(&answer, now);
        }
    }
    let sealed = round.snapshot(Some(KEY)).expect("the key is long enough");
    let restored = InputRound::restore(&sealed, &[KEY], &Limits::DEFAULT.with_max_input_bytes(usize::MAX), now)
        .expect("a round the core wrote restores before it expires");
    assert_eq!(restored.snapshot(None).ok(), round.snapshot(None).ok());
    assert_eq!(restored.snapshot_id(), round.snapshot_id());
    assert_eq!(restored.pending(), round.pending());
    assert_eq!(restored.missing(), round.missing());
    let id = RpcId::from(2);
    assert_eq!(
        round.clone().retry(&id, true).map_err(|e| e.kind()),
        restored.clone().retry(&id, true).map_err(|e| e.kind())
    );
    // Any byte changed in the sealed form is refused.
    let at = usize::from(u16::arbitrary(&mut u).unwrap_or(0)) % sealed.len().max(1);
    let flip = u8::arbitrary(&mut u).unwrap_or(1).max(1);
    let mut changed = sealed.clone();
    if let Some(byte) = changed.get_mut(at) {
        *byte ^= flip;
    }
    let error = InputRound::restore(&changed, &[KEY], &Limits::DEFAULT, now)
        .expect_err("a changed snapshot is refused");
    assert_eq!(error.kind(), ErrorKind::InvalidSeal);
    let _ = take_bytes(&mut u);
});
