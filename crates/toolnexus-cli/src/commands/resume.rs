//! `toolnexus resume ID`: a call `call --defer` kept, taken (it is gone from then on), its
//! questions answered, and finished as `call` would.

use toolnexus_core::id::now_ms;
use toolnexus_core::rfc3339::format_unix_ms;
use toolnexus_core::{Error, ErrorKind, Limits};

use super::call::{self, Calling};
use super::shared::asker;
use super::shared::server_args::ServerArgs;
use crate::auth;
use crate::pending::{Folder, Pending, Refusal};
use crate::report::{Failure, Printed};

/// `toolnexus resume ID [--answers FILE|-]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The id `call --defer` printed.
    #[arg(allow_hyphen_values = true)]
    id: String,
    /// Answer from a JSON array of answers instead of asking (see `elicit --help`).
    #[arg(long, value_name = "FILE|-")]
    answers: Option<String>,
}

/// Takes the call kept and goes on with it.
pub fn exec(args: Args) -> Printed {
    let limits = Limits::DEFAULT;
    let store = auth::Store::locate().map_err(Failure::usage)?;
    let folder = Folder::in_config(store.dir());
    // The answers are read before the call is taken: a file that cannot be read changes
    // nothing.
    let asker = asker(args.answers.as_deref(), &limits, false)?;
    let kept = take(&folder, &args.id)?;
    let mut server = ServerArgs::again(&kept)?;
    server.protocol = Some(kept.protocol.clone());
    let (tool, arguments) = (kept.tool.clone(), kept.arguments.clone());
    let calling = Calling {
        task: false,
        max_rounds: kept.max_rounds,
        defer: true,
        resume: Some(kept),
    };
    call::run(&tool, arguments, asker, calling, &server)
}

/// The call kept as `id`, taken from `folder`; one expired, or whose seal does not hold, is
/// refused (and gone).
fn take(folder: &Folder, id: &str) -> Result<Pending, Failure> {
    match folder.take(id, now_ms()) {
        Ok(kept) => Ok(kept),
        Err(Refusal::Unknown(why) | Refusal::Io(why)) => Err(Failure::usage(why)),
        Err(Refusal::Expired(at)) => Err(Failure::Refused(Error::new(
            ErrorKind::Expired,
            "/expiresAtMs",
            format!(
                "the pending call {id} expired at {}; it is removed",
                format_unix_ms(at)
            ),
        ))),
        Err(Refusal::Invalid(why)) => Err(Failure::Refused(Error::new(
            ErrorKind::InvalidSeal,
            "",
            why,
        ))),
    }
}
