//! Opening an authorization link once the person has consented: the `--browser` command,
//! split into words as a shell would but run without one, with the link as its last argument;
//! or, without it, the system's opener (`xdg-open`, `open`) where there is one, the link
//! printed first for the person to open by hand.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::note;

/// The programs that open a link in the person's browser, tried in order.
const SYSTEM_OPENERS: [&str; 2] = ["xdg-open", "open"];

/// How to open a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Browser {
    /// The `--browser` command: a program and its first arguments; the link comes last.
    Command(Vec<String>),
    /// The system's opener, if there is one.
    System,
}

impl Browser {
    /// The `--browser` command line, split into words as a shell would (quotes and
    /// backslashes), or [`Browser::System`] when there is none.
    pub fn parse(command: Option<&str>) -> Result<Browser, String> {
        let Some(command) = command else {
            return Ok(Browser::System);
        };
        match shlex::split(command) {
            Some(words) if !words.is_empty() => Ok(Browser::Command(words)),
            Some(_) => Err(String::from("--browser: the command is empty")),
            None => Err(format!(
                "--browser {command:?}: a quote is not closed, or a backslash ends it"
            )),
        }
    }

    /// Opens `url`. The system opener's failure is no error (the link was printed); a
    /// `--browser` command that cannot start is.
    pub fn open(&self, url: &str) -> Result<Opened, String> {
        match self {
            Browser::Command(words) => {
                let Some((program, args)) = words.split_first() else {
                    return Err(String::from("--browser: the command is empty"));
                };
                note!("opening the authorization link with {program}");
                let child = Command::new(program)
                    .args(args)
                    .arg(url)
                    .stdin(Stdio::null())
                    // Standard output carries the command's result alone.
                    .stdout(Stdio::null())
                    .spawn()
                    .map_err(|e| format!("--browser: {program} could not start: {e}"))?;
                Ok(Opened {
                    child: Some(child),
                    program: program.clone(),
                })
            }
            Browser::System => {
                note!("open this link in your browser to authorize: {url}");
                let child = SYSTEM_OPENERS
                    .iter()
                    .find_map(|name| on_path(name))
                    .and_then(|opener| {
                        Command::new(opener)
                            .arg(url)
                            .stdin(Stdio::null())
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .spawn()
                            .ok()
                    });
                Ok(Opened {
                    child,
                    program: String::new(),
                })
            }
        }
    }
}

/// A link being opened: the `--browser` command while it runs, to be told if it fails.
#[derive(Debug)]
pub struct Opened {
    /// The opener, until it has ended.
    child: Option<Child>,
    /// The `--browser` program, or `""` for the system's opener.
    program: String,
}

impl Opened {
    /// An error once the `--browser` command has ended in failure: the link was not opened,
    /// so waiting for it is pointless. A command still running, or done well, is fine, and
    /// so is anything the system opener does.
    pub fn check(&mut self) -> Result<(), String> {
        let Some(child) = &mut self.child else {
            return Ok(());
        };
        match child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(status)) => {
                self.child = None;
                if status.success() || self.program.is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "--browser: {} ended with {status} before the authorization came back",
                        self.program
                    ))
                }
            }
            Err(_) => {
                self.child = None;
                Ok(())
            }
        }
    }
}

/// The executable `name` in a folder of `PATH`, if there is one.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn the_command_is_split_as_a_shell_would_without_one() {
        assert_eq!(Browser::parse(None), Ok(Browser::System));
        assert_eq!(
            Browser::parse(Some("curl -s -o /dev/null -L")),
            Ok(Browser::Command(
                ["curl", "-s", "-o", "/dev/null", "-L"]
                    .map(String::from)
                    .to_vec()
            ))
        );
        assert_eq!(
            Browser::parse(Some(r#"'/opt/my browser/run' --new-window "a b""#)),
            Ok(Browser::Command(
                ["/opt/my browser/run", "--new-window", "a b"]
                    .map(String::from)
                    .to_vec()
            ))
        );
        assert!(Browser::parse(Some("  ")).is_err());
        assert!(Browser::parse(Some("open 'unclosed")).is_err());
        // `;` is only a word: nothing runs a shell.
        assert_eq!(
            Browser::parse(Some("true; rm")),
            Ok(Browser::Command(["true;", "rm"].map(String::from).to_vec()))
        );
    }

    /// Waits until `opened` has ended (or a few seconds): what `check` says then.
    fn settled(opened: &mut Opened) -> Result<(), String> {
        let until = Instant::now() + Duration::from_secs(10);
        while opened.child.is_some() && Instant::now() < until {
            opened.check()?;
            std::thread::sleep(Duration::from_millis(10));
        }
        opened.check()
    }

    #[test]
    fn the_link_is_the_last_argument_and_a_failing_command_is_told() {
        let dir = env::temp_dir().join(format!("toolnexus-browser-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("args");
        let command = format!("sh -c 'printf %s \"$1\" > {}' opener", out.display());
        let browser = Browser::parse(Some(&command)).unwrap();
        let mut opened = browser
            .open("https://as.example/authorize?a=1&b=2")
            .unwrap();
        assert_eq!(settled(&mut opened), Ok(()));
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "https://as.example/authorize?a=1&b=2"
        );
        let mut failed = Browser::parse(Some("false")).unwrap().open("x").unwrap();
        let why = settled(&mut failed).unwrap_err();
        assert!(why.contains("false ended with"), "{why}");
        let missing = Browser::parse(Some("/nonexistent/toolnexus-browser"))
            .unwrap()
            .open("x")
            .unwrap_err();
        assert!(missing.contains("could not start"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
