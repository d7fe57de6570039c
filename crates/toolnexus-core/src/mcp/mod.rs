//! MCP's side of an elicitation: the `elicitation/create` parameters, the `ElicitResult` sent
//! back, the client's elicitation capabilities, and the two mappings between MCP and the
//! contract.

mod capabilities;
mod elicit_result;
mod mapping;
mod params;

pub use capabilities::{Mode, Modes};
pub use elicit_result::{Action, ElicitResult};
pub use mapping::{answer_to_elicit_result, elicitation_into_request, elicitation_to_request};
pub use params::{ElicitRequestParams, FormParams, UrlParams};
