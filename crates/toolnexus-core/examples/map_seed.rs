//! Maps the specification's sample elicitations and answers, printing the JSON on each side.
//!
//! Run with `cargo run -p toolnexus-core --features std --example map_seed`.

use toolnexus_core::{
    Answer, ElicitRequestParams, Error, Limits, answer_to_elicit_result, elicitation_to_request, id,
};

/// `elicitation/create` params a server might send: a form and a URL.
const ELICITATIONS: [(&str, &str); 2] = [
    (
        "form mode",
        r#"{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#,
    ),
    (
        "URL mode",
        r#"{"mode":"url","message":"Log in to continue","url":"https://example.com/auth"}"#,
    ),
];

/// Answers a host might give, by what they stand for.
const ANSWERS: [(&str, &str); 5] = [
    ("accepted", r#"{"id":"1","ok":true,"data":{"name":"Ada"}}"#),
    ("declined", r#"{"id":"1","ok":false,"reason":"declined"}"#),
    ("expired", r#"{"id":"1","ok":false,"reason":"expired"}"#),
    ("no reason", r#"{"id":"1","ok":false}"#),
    (
        "confirmed",
        r#"{"id":"1","ok":true,"data":{"confirm":true}}"#,
    ),
];

fn main() -> Result<(), Error> {
    let limits = Limits::DEFAULT;
    println!("elicitation/create params -> Request");
    for (label, params) in ELICITATIONS {
        let params = ElicitRequestParams::from_json(params.as_bytes(), &limits)?;
        let request = elicitation_to_request(&params, &id::next_id())?;
        println!("  {label:<10} {}", request.to_json());
    }
    println!("Answer -> ElicitResult");
    for (label, answer) in ANSWERS {
        let answer = Answer::from_json(answer.as_bytes(), &limits)?;
        let result = answer_to_elicit_result(&answer)?;
        println!("  {label:<10} {}", result.to_json());
    }
    Ok(())
}
