//! A real SMTP server for the email tests: `tests/it/mail/sink.py` (aiosmtpd) on a free port,
//! with STARTTLS under a throwaway certificate authority, AUTH, and scripted answers. A sink
//! that cannot start fails the test unless the part is skipped by name
//! (`SIGNET_TEST_SKIP=mail`).

use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::servers::free_port;

#[derive(Default, Clone)]
pub struct SinkOptions {
    /// STARTTLS required, under a certificate for 127.0.0.1 from a throwaway authority.
    pub tls: bool,
    /// AUTH required with this user and password.
    pub auth: Option<(String, String)>,
    /// Answer 451 to the first N messages.
    pub fail_first: u32,
    /// Answer 550 to these recipients.
    pub reject: Vec<String>,
    /// Milliseconds each message takes to be accepted.
    pub delay_ms: u32,
}

pub struct Sink {
    pub port: u16,
    pub dir: PathBuf,
    /// The authority's certificate (PEM) when `tls`.
    pub ca_file: Option<PathBuf>,
    _child: crate::harness::Process,
    _tmp: tempfile::TempDir,
}

/// One accepted message.
pub struct Received {
    pub meta: Value,
    pub raw: Vec<u8>,
}

impl Received {
    pub fn parsed(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(&self.raw)
            .expect("a message the parser reads")
    }

    pub fn header(&self, name: &str) -> String {
        self.parsed()
            .header_raw(name)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    }

    pub fn subject(&self) -> String {
        self.parsed().subject().unwrap_or_default().to_string()
    }

    pub fn text(&self) -> String {
        self.parsed()
            .body_text(0)
            .map(|t| t.into_owned())
            .unwrap_or_default()
    }

    pub fn html(&self) -> String {
        self.parsed()
            .body_html(0)
            .map(|t| t.into_owned())
            .unwrap_or_default()
    }

    pub fn to(&self) -> String {
        self.meta["rcptTos"][0]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let ok = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "openssl {args:?} failed");
}

/// A certificate authority and a server certificate for 127.0.0.1 signed by it (rustls
/// takes no self-signed server certificate as its own root).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=Signet test mail authority",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
    (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    )
}

fn available() -> bool {
    Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

impl Sink {
    /// A running sink; `None` (the test is skipped) only when the `mail` part was skipped by
    /// name and aiosmtpd is missing.
    pub fn start(opts: SinkOptions) -> Option<Sink> {
        let missing = (!available())
            .then(|| "the SMTP test server needs aiosmtpd (pip install aiosmtpd)".to_string());
        if !signet_testkit::part("mail", missing) {
            return None;
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("received");
        let port = free_port();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/mail/sink.py");
        let mut cmd = Command::new("python3");
        cmd.arg(&script)
            .args(["--port", &port.to_string(), "--dir"])
            .arg(&dir)
            .args(["--fail-first", &opts.fail_first.to_string()]);
        let mut ca_file = None;
        if opts.tls {
            let (ca, cert, key) = certificates(tmp.path());
            cmd.arg("--cert").arg(cert).arg("--key").arg(key);
            ca_file = Some(ca);
        }
        if let Some((user, password)) = &opts.auth {
            cmd.args(["--user", user, "--password", password]);
        }
        if opts.delay_ms > 0 {
            cmd.args(["--delay-ms", &opts.delay_ms.to_string()]);
        }
        for r in &opts.reject {
            cmd.args(["--reject", r]);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the SMTP sink");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP sink did not start");
        Some(Sink {
            port,
            dir,
            ca_file,
            _child: crate::harness::Process(child),
            _tmp: tmp,
        })
    }

    /// Waits (up to `secs`) until `done` holds for what was received, and answers it.
    pub async fn wait_for(
        &self,
        what: &str,
        secs: u64,
        done: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let got = self.received();
            if done(&got) {
                return got;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "timed out waiting for {what}; got {} messages",
                got.len()
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Every message accepted so far, in the order accepted.
    pub fn received(&self) -> Vec<Received> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        names.retain(|p| p.extension().is_some_and(|e| e == "eml"));
        names.sort();
        names
            .iter()
            .map(|p| Received {
                raw: std::fs::read(p).unwrap(),
                meta: serde_json::from_slice(&std::fs::read(p.with_extension("json")).unwrap())
                    .unwrap(),
            })
            .collect()
    }
}
