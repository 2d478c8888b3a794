//! Throwaway PostgreSQL and Redis for the test run, started once per test binary on free
//! ports unless `TEST_DATABASE_URL` / `TEST_REDIS_URL` name existing ones. Each server runs
//! under a small shell watchdog that stops it when this test process ends, however it ends,
//! and removes its folder.
//! With `CI=true` a server that cannot be started fails the tests that need it; elsewhere
//! those tests say they were skipped.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub struct External {
    /// Admin URL (database `postgres`), used to create one database per test.
    pub pg_admin: String,
    pub redis: String,
}

impl External {
    /// A new, empty database of its own on the shared PostgreSQL server; its URL.
    pub async fn fresh_database(&self) -> String {
        use signet_storage::sea_orm::{ConnectionTrait, Database};
        let name = signet_resolvers::ids::new_id("t").to_lowercase();
        let admin = Database::connect(&self.pg_admin)
            .await
            .expect("connect to PostgreSQL");
        admin
            .execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .expect("create test database");
        admin.close().await.ok();
        self.pg_admin
            .rsplit_once('/')
            .map(|(base, _)| format!("{base}/{name}"))
            .unwrap()
    }
}

static SERVERS: OnceLock<Result<External, String>> = OnceLock::new();

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.starts_with(b"0\n"))
        .unwrap_or(false)
}

fn pg_bindir() -> Option<PathBuf> {
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output()
        && out.status.success()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if dir.join("postgres").exists() {
            return Some(dir);
        }
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|d| d.join("postgres").exists())
        .collect();
    dirs.sort();
    dirs.pop()
}

/// Runs `script` under `sh`, as the postgres user when we are root, stopping it once this
/// process is gone and then removing `scratch`, the server's own folder (a PostgreSQL
/// cluster is half a gigabyte; left behind, each test run added one to /tmp).
fn supervised(
    script: &str,
    as_postgres: bool,
    scratch: Option<&std::path::Path>,
) -> Result<(), String> {
    let me = std::process::id();
    let remove = scratch
        .map(|d| format!("; rm -rf '{}'", d.display()))
        .unwrap_or_default();
    let body = format!(
        "{script} & child=$!; while [ -d /proc/{me} ] && kill -0 $child 2>/dev/null; do sleep 0.5; done; kill -INT $child 2>/dev/null; wait $child{remove}"
    );
    let mut cmd = if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", "sh", "-c", &body]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", &body]);
        c
    };
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd.spawn()
        .map(|_| ())
        .map_err(|e| format!("cannot start {script}: {e}"))
}

fn wait_port(port: u16, what: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!("{what} did not start listening on port {port}"))
}

fn start_postgres() -> Result<String, String> {
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        return Ok(url);
    }
    let bin = pg_bindir().ok_or("PostgreSQL server binaries not found (install postgresql)")?;
    let root = is_root();
    let dir = std::env::temp_dir().join(format!("signet-test-pg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    if root {
        let ok = Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(&dir)
            .status();
        if !ok.map(|s| s.success()).unwrap_or(false) {
            return Err("cannot hand the PostgreSQL folder to the postgres user".into());
        }
    }
    let data = dir.join("data");
    let initdb = format!(
        "{} -D {} -U postgres --auth=trust -E UTF8 --no-sync >/dev/null",
        bin.join("initdb").display(),
        data.display()
    );
    let status = if root {
        Command::new("runuser")
            .args(["-u", "postgres", "--", "sh", "-c", &initdb])
            .status()
    } else {
        Command::new("sh").args(["-c", &initdb]).status()
    };
    if !status.map(|s| s.success()).unwrap_or(false) {
        return Err(format!("initdb failed in {}", data.display()));
    }
    let port = free_port();
    supervised(
        &format!(
            "{} -D {} -p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500",
            bin.join("postgres").display(),
            data.display(),
            dir.display()
        ),
        root,
        Some(&dir),
    )?;
    wait_port(port, "PostgreSQL")?;
    Ok(format!("postgres://postgres@127.0.0.1:{port}/postgres"))
}

fn start_redis() -> Result<String, String> {
    if let Ok(url) = std::env::var("TEST_REDIS_URL") {
        return Ok(url);
    }
    let bin = [
        "redis-server",
        "/usr/bin/redis-server",
        "/usr/local/bin/redis-server",
    ]
    .into_iter()
    .find(|b| Command::new(b).arg("--version").output().is_ok())
    .ok_or("redis-server not found (apt-get install redis-server)")?;
    let port = free_port();
    supervised(
        &format!(
            "{bin} --port {port} --bind 127.0.0.1 --save '' --appendonly no --loglevel warning"
        ),
        false,
        None,
    )?;
    wait_port(port, "Redis")?;
    Ok(format!("redis://127.0.0.1:{port}"))
}

/// The shared servers, or why they are not there. Under `CI=true` a missing server panics.
pub fn external() -> Option<&'static External> {
    let got = SERVERS.get_or_init(|| {
        let pg = start_postgres()?;
        let redis = start_redis()?;
        Ok(External {
            pg_admin: pg,
            redis,
        })
    });
    match got {
        Ok(e) => Some(e),
        Err(why) => {
            signet_testkit::part(
                "postgres",
                Some(format!("PostgreSQL and Redis could not be started: {why}")),
            );
            None
        }
    }
}
