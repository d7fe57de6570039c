//! The real MCP servers the tests start: the Python SDK's, FastMCP's and the TypeScript
//! SDK's, as `install.sh` installed them (`TOOLNEXUS_TEST_SERVERS`), over stdio (the command
//! to run) or streamable HTTP on a free port of 127.0.0.1 (stopped by its process id on drop).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The folder `install.sh` filled (a venv with `mcp`, the npm packages): set by
/// `cargo xtask test cli`. Without it these tests cannot run, and fail saying so.
pub fn installed() -> PathBuf {
    let dir = std::env::var_os("TOOLNEXUS_TEST_SERVERS").expect(
        "TOOLNEXUS_TEST_SERVERS is not set: run `cargo xtask test cli`, which installs the test \
         servers' SDKs and sets it",
    );
    PathBuf::from(dir)
}

pub fn servers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/servers")
}

pub fn python() -> String {
    let python = installed().join("python/bin/python");
    assert!(
        python.exists(),
        "{} is missing: rerun install.sh",
        python.display()
    );
    python.display().to_string()
}

/// The Python server over stdio.
pub fn py_server() -> Vec<String> {
    vec![
        python(),
        servers().join("py_server.py").display().to_string(),
        String::from("stdio"),
    ]
}

/// The Python of the venv with FastMCP and `fastmcp-tasks`.
pub fn fastmcp_python() -> String {
    let python = installed().join("fastmcp/bin/python");
    assert!(
        python.exists(),
        "{} is missing: rerun install.sh",
        python.display()
    );
    python.display().to_string()
}

/// FastMCP's server whose tools run as tasks, over stdio.
pub fn fastmcp_tasks() -> Vec<String> {
    vec![
        fastmcp_python(),
        servers()
            .join("fastmcp_tasks_server.py")
            .display()
            .to_string(),
        String::from("stdio"),
    ]
}

/// The TypeScript SDK's server whose tools run as tasks, over stdio.
pub fn ts_tasks() -> Vec<String> {
    vec![
        String::from("node"),
        servers().join("ts_tasks_server.mjs").display().to_string(),
    ]
}

/// The TypeScript server over stdio.
pub fn ts_server() -> Vec<String> {
    vec![
        String::from("node"),
        servers().join("ts_server.mjs").display().to_string(),
    ]
}

/// The Python server on streamable HTTP at a free port of 127.0.0.1, stopped on drop.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    /// The Python SDK's server.
    pub fn start() -> HttpServer {
        HttpServer::spawn(|port| {
            let mut command = Command::new(python());
            command
                .arg(servers().join("py_server.py"))
                .args(["http", &port.to_string()]);
            command
        })
    }

    /// FastMCP's server whose tools run as tasks (2026-07-28).
    pub fn fastmcp_tasks() -> HttpServer {
        HttpServer::spawn(|port| {
            let mut command = Command::new(fastmcp_python());
            command
                .arg(servers().join("fastmcp_tasks_server.py"))
                .args(["http", &port.to_string()]);
            command
        })
    }

    /// The TypeScript SDK's server whose tools run as tasks (2025-11-25).
    pub fn typescript_tasks() -> HttpServer {
        HttpServer::spawn(|port| {
            let mut command = Command::new("node");
            command
                .arg(servers().join("ts_tasks_server.mjs"))
                .args(["http", &port.to_string()])
                .env("TOOLNEXUS_NODE_DIR", installed().join("node"));
            command
        })
    }

    /// The TypeScript SDK's stateful server, whose questions travel on its GET stream.
    pub fn typescript() -> HttpServer {
        HttpServer::spawn(|port| {
            let mut command = Command::new("node");
            command
                .arg(servers().join("ts_http_server.mjs"))
                .arg(port.to_string())
                .env("TOOLNEXUS_NODE_DIR", installed().join("node"));
            command
        })
    }

    pub fn spawn(command: impl FnOnce(u16) -> Command) -> HttpServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = command(port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the HTTP server did not start"
            );
            thread::sleep(Duration::from_millis(100));
        }
        HttpServer {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
