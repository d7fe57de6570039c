//! `toolnexus auth`: the authorizations kept between commands, listed (`auth list`: server,
//! where it is kept, authorization server, how and by which client it was obtained, scope,
//! expiry; never a token, and read from `auth.json` alone, the keychain not asked) or
//! forgotten, from the file and the keychain (`auth logout [URL]`).

use toolnexus_core::id::now_ms;
use toolnexus_core::rfc3339::format_unix_ms;

use crate::auth::Store;
use crate::auth::driver::grant_option;
use crate::auth::store::Place;
use crate::note;
use crate::printer::{Output, one_line};
use crate::report::{Exit, Failure, Printed};

/// `toolnexus auth list|logout [URL]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

/// What `toolnexus auth` does.
#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List the authorizations kept: server, where (keychain or file), authorization server,
    /// scope and expiry (never a token).
    List,
    /// Forget the authorizations kept for the server at URL, or every one, from the keychain
    /// and the file.
    Logout {
        /// The server's URL, as --url gave it.
        url: Option<String>,
    },
}

/// Lists or forgets, in the store of the configuration folder.
pub fn exec(args: Args) -> Printed {
    let store = Store::locate().map_err(Failure::usage)?;
    match args.action {
        Action::List => list(&store),
        Action::Logout { url } => logout(&store, url.as_deref()),
    }
}

/// `auth list`: one block per authorization kept, oldest first.
fn list(store: &Store) -> Printed {
    let kept = store.index().map_err(Failure::usage)?;
    if kept.is_empty() {
        note!("no authorization is kept (in {})", store.path().display());
        return Ok((Output::Nothing, Exit::Done));
    }
    let now = now_ms();
    let file = store.path();
    let blocks: Vec<String> = kept
        .iter()
        .map(|kept| {
            let grant = &kept.summary;
            let expiry = match grant.expires_at_ms {
                Some(at) if now >= at => format!("{} (expired)", format_unix_ms(at)),
                Some(at) => format_unix_ms(at),
                None => String::from("not said"),
            };
            let place = match kept.place {
                Place::Keychain => String::from("keychain (the system's secret store)"),
                Place::File => format!("file ({})", one_line(&file.display().to_string())),
            };
            let mut lines = vec![
                one_line(&kept.server).into_owned(),
                format!("  kept in               {place}"),
                format!("  authorization server  {}", one_line(&grant.issuer)),
                format!(
                    "  obtained by           --grant {} (client {})",
                    grant_option(&grant.obtained_by),
                    match grant.client_id.as_str() {
                        "" => one_line("none"),
                        id => one_line(id),
                    }
                ),
                format!(
                    "  scope                 {}",
                    one_line(grant.scope.as_deref().unwrap_or("(none)"))
                ),
                format!("  expires               {expiry}"),
            ];
            if grant.refreshable {
                lines.push(String::from("  refreshable           yes"));
            }
            lines.join("\n")
        })
        .collect();
    Ok((Output::Text(blocks.join("\n")), Exit::Done))
}

/// `auth logout [URL]`: forgets what is kept for the server at `server`, or everything, in
/// the file and in the keychain. One the keychain could not forget stays kept, and is an
/// error.
fn logout(store: &Store, server: Option<&str>) -> Printed {
    let forgotten = store.forget(server).map_err(Failure::usage)?;
    let whose = server.map_or_else(String::new, |s| format!(" for {s}"));
    match forgotten.count {
        0 if forgotten.left.is_none() => note!("no authorization is kept{whose}"),
        0 => {}
        1 => note!("1 authorization forgotten{whose}"),
        n => note!("{n} authorizations forgotten{whose}"),
    }
    if let Some((left, why)) = forgotten.left {
        let (noun, verb) = if left == 1 {
            ("authorization", "is")
        } else {
            ("authorizations", "are")
        };
        return Err(Failure::usage(format!(
            "{left} {noun} kept in the keychain{whose} {verb} not forgotten: {why}"
        )));
    }
    Ok((Output::Nothing, Exit::Done))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::auth::store::tests::{folder, grant};

    #[test]
    fn the_list_names_servers_issuers_scopes_and_expiry_but_no_secret() {
        let dir = folder("list");
        let store = Store::at(&dir);
        assert_eq!(list(&store).unwrap(), (Output::Nothing, Exit::Done));
        store
            .keep(
                "http://localhost:3000/mcp",
                &grant("http://localhost:4000", "test-token-SECRET"),
            )
            .unwrap();
        let (Output::Text(text), exit) = list(&store).unwrap() else {
            panic!("auth list prints text");
        };
        assert_eq!(exit, Exit::Done);
        assert!(text.starts_with("http://localhost:3000/mcp\n"), "{text}");
        assert!(
            text.contains(&format!(
                "kept in               file ({})",
                store.path().display()
            )),
            "{text}"
        );
        assert!(text.contains("authorization server  http://localhost:4000"));
        assert!(text.contains("scope                 mcp:basic mcp:write"));
        assert!(
            text.contains("expires               2100-01-01T00:00:00"),
            "{text}"
        );
        assert!(!text.contains("SECRET"), "{text}");
        // What a server wrote is shown on its own line, never obeyed.
        store
            .keep(
                "http://localhost:3001/mcp",
                &grant(
                    r"http://localhost:4000/\u001b]0;owned\u0007\n  scope  all",
                    "t",
                ),
            )
            .unwrap();
        let (Output::Text(text), _) = list(&store).unwrap() else {
            panic!("auth list prints text");
        };
        assert!(
            !text.contains('\x1b') && !text.contains("\n  scope  all"),
            "{text}"
        );
        assert!(
            text.contains(r"\u{1b}]0;owned\u{7}\n  scope  all"),
            "{text}"
        );
        let (_, exit) = logout(&store, None).unwrap();
        assert_eq!(exit, Exit::Done);
        assert!(store.list().unwrap().is_empty());
        fs::remove_dir_all(&dir).ok();
    }
}
