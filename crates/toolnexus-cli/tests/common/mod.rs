//! A person at a pseudo-terminal: keys in, screen out, and the reply read from standard
//! output (a file) once the process ends. Shared by the tests that drive `toolnexus` as a
//! person does.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod servers;

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use expectrl::process::unix::WaitStatus;
use expectrl::session::OsSession;
use expectrl::{Expect, Session};

pub const ENTER: &str = "\r";
pub const DOWN: &str = "\x1b[B";
pub const UP: &str = "\x1b[A";
pub const ESC: &str = "\x1b";
pub const CTRL_C: &str = "\x03";
pub const BACKSPACE: &str = "\x7f";
pub const CTRL_D: &str = "\x04";

static RUNS: AtomicUsize = AtomicUsize::new(0);

/// A file in the temp folder, unique to this process and call.
pub fn temp(name: &str) -> PathBuf {
    let n = RUNS.fetch_add(1, Ordering::SeqCst);
    std::env::temp_dir().join(format!("toolnexus-tty-{}-{n}-{name}", std::process::id()))
}

/// One `toolnexus elicit` in a pseudo-terminal: standard output goes to a file, the terminal
/// gets everything for the person.
pub struct Run {
    pub session: OsSession,
    out: PathBuf,
    /// Every byte the screen showed up to the last [`Run::see`] (or to the end, after
    /// [`Run::finish`]).
    pub screen: Vec<u8>,
}

impl Run {
    /// Starts `toolnexus elicit` on `input` (the sample when `None`).
    pub fn start(input: Option<&str>) -> Run {
        let mut args = vec![String::from("elicit")];
        if let Some(input) = input {
            let file = temp("in.json");
            fs::write(&file, input).unwrap();
            args.push(file.display().to_string());
        }
        Run::toolnexus(&args, &[])
    }

    /// Starts `toolnexus ARGS…` with the environment `env` added.
    pub fn toolnexus(args: &[String], env: &[(&str, String)]) -> Run {
        let out = temp("out.json");
        let mut script = format!("exec '{}'", env!("CARGO_BIN_EXE_toolnexus"));
        for arg in args {
            script.push_str(&format!(" '{}'", arg.replace('\'', "'\\''")));
        }
        script.push_str(&format!(" > '{}'", out.display()));
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(script)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        for (key, value) in env {
            command.env(key, value);
        }
        let mut session = Session::spawn(command).unwrap();
        session.set_expect_timeout(Some(Duration::from_secs(30)));
        Run {
            session,
            out,
            screen: Vec::new(),
        }
    }

    /// Waits until the screen shows `text`.
    pub fn see(&mut self, text: &str) -> &mut Run {
        match self.session.expect(text) {
            Ok(found) => {
                self.screen.extend_from_slice(found.before());
                for part in found.matches() {
                    self.screen.extend_from_slice(part);
                }
            }
            Err(e) => panic!("the screen never showed {text:?}: {e}"),
        }
        self
    }

    /// Types `keys`.
    pub fn keys(&mut self, keys: &str) -> &mut Run {
        // A moment between keys lets the prompt tell a lone Esc from an escape sequence.
        std::thread::sleep(Duration::from_millis(60));
        self.session.send(keys).unwrap();
        self
    }

    /// Waits for the process to end: its exit code and what it printed on standard output.
    pub fn finish(&mut self) -> (i32, String) {
        if let Ok(rest) = self.session.expect(expectrl::Eof) {
            self.screen.extend_from_slice(rest.before());
            for part in rest.matches() {
                self.screen.extend_from_slice(part);
            }
        }
        let status = self.session.get_process().wait().unwrap();
        let code = match status {
            WaitStatus::Exited(_, code) => code,
            other => panic!("toolnexus did not exit normally: {other:?}"),
        };
        let out = fs::read_to_string(&self.out).unwrap_or_default();
        let _ = fs::remove_file(&self.out);
        (code, out)
    }
}
