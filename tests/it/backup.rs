//! Backing up the embedded default while it serves, and restoring it into an empty folder:
//! every executed document's sealed PDF comes back valid.

use std::process::Command;

use serde_json::json;
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::harness::{Kind, TestApp};

/// Runs `signet ARGS` against the installation in `dir` (its own database and authority).
fn cli_in(app: &TestApp, dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_signet"))
        .args(args)
        .envs(app.env())
        .env_remove("REDIS_URL")
        .env("SIGNET_DATA_DIR", dir)
        .env(
            "DATABASE_URL",
            format!("sqlite:{}/signet.db", dir.display()),
        )
        .current_dir(dir)
        .output()
        .expect("signet runs");
    crate::harness::outcome(out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_restores_with_every_sealed_pdf_valid() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(
            &ws,
            Mode::Test,
            &[
                "documents:read",
                "documents:write",
                "templates:read",
                "templates:write",
            ],
        )
        .await;
    // A template made from an uploaded PDF: its file is in the store, named by its source.
    let pdf = crate::templates::tagged_pdf();
    let (status, t) = crate::templates::post_file(&app, &key, "Lease", "lease.pdf", &pdf).await;
    assert_eq!(status, 201, "{t}");
    let template_file = format!("templates/{}/v1.pdf", t["id"].as_str().unwrap());
    let template_bytes = std::fs::read(app.dir.path().join("blobs").join(&template_file)).unwrap();
    // Three documents signed by everyone and sealed.
    let mut executed = Vec::new();
    for _ in 0..3 {
        let d = crate::documents::create(&app, &key, json!({"sendNow": true})).await;
        assert_eq!(d.status, 201, "{}", d.body);
        let id = d.body["id"].as_str().unwrap().to_string();
        app.run_pending_jobs().await;
        for seat in ["client", "provider"] {
            let s = app
                .post(
                    &format!("/api/v1/documents/{id}/test-sign"),
                    &key,
                    &[("idempotency-key", &format!("ts-{id}-{seat}"))],
                    &json!({"seat": seat}).to_string(),
                )
                .await;
            assert_eq!(s.status, 200, "{}", s.body);
            app.run_pending_jobs().await;
        }
        executed.push(id);
    }
    // Sends keep coming while the backup is taken.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load = {
        let (base, key, stop) = (app.base.clone(), key.clone(), stop.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut made = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && made < 200 {
                let r = client
                    .post(format!("{base}/api/v1/documents"))
                    .bearer_auth(&key)
                    .header("idempotency-key", format!("load-send-{made}"))
                    .header("content-type", "application/json")
                    .body(crate::documents::body(json!({"sendNow": true})))
                    .send()
                    .await
                    .unwrap();
                let status = r.status();
                assert_eq!(status, 201, "{}", r.text().await.unwrap());
                made += 1;
            }
            made
        })
    };
    let backup = tempfile::tempdir().unwrap();
    let to = backup.path().join("copy");
    let (code, _, err) = app.cli(&["admin", "backup", "--to", to.to_str().unwrap()]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let made = load.await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("backed up"), "{err}");
    assert!(made > 0);
    // As private as the data folder: every folder 0700 and every file 0600, whatever the
    // umask (contracts, signatures, names and the sealing key are in it).
    assert_private(&to);
    // A second backup into the same folder is refused: nothing is overwritten; with
    // `--json`, said as JSON.
    let (code, out, err) = app.cli(&["admin", "backup", "--to", to.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let said: serde_json::Value = serde_json::from_str(out.trim())
        .or_else(|_| serde_json::from_str(err.trim()))
        .unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    assert!(said.to_string().contains("not empty"), "{said}");
    let json_copy = backup.path().join("json");
    let (code, out, err) = app.cli(&[
        "admin",
        "backup",
        "--to",
        json_copy.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let said: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        said["manifest"]["documents"].as_u64().unwrap() > 0,
        "{said}"
    );

    // Restored into an empty installation.
    let restored = tempfile::tempdir().unwrap();
    let (code, _, err) = cli_in(
        &app,
        restored.path(),
        &["admin", "restore", "--from", to.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    for part in ["signet.db", "blobs"] {
        assert_private(&restored.path().join(part));
    }
    // Not over an installation that has a database.
    let (code, _, err) = cli_in(
        &app,
        restored.path(),
        &["admin", "restore", "--from", to.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    assert!(err.contains("exists"), "{err}");

    // Every executed document is there, its sealed PDF valid against the restored authority.
    let db = rusqlite::Connection::open(restored.path().join("signet.db")).unwrap();
    let (code, root, err) = cli_in(&app, restored.path(), &["admin", "ca", "export", "--test"]);
    assert_eq!(code, 0, "{err}");
    let root_file = restored.path().join("root.pem");
    std::fs::write(&root_file, root).unwrap();
    for id in &executed {
        let (state, sealed): (String, String) = db
            .query_row(
                "SELECT state, sealed_blob FROM documents WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(state, "executed");
        let pdf = restored.path().join("blobs").join(&sealed);
        assert!(pdf.is_file(), "{}", pdf.display());
        if let Some(pyhanko) = crate::sealing::tool("pyhanko") {
            let out = crate::sealing::validate(&pyhanko, &root_file, &pdf);
            assert!(out.contains("The signature is judged VALID."), "{out}");
        }
    }
    let total: i64 = db
        .query_row("SELECT COUNT(*) FROM documents", [], |r| r.get(0))
        .unwrap();
    assert!(total >= 3);
    // The template's file came back with it.
    assert_eq!(
        std::fs::read(restored.path().join("blobs").join(&template_file)).unwrap(),
        template_bytes
    );

    // A file the database names that is gone from the store is named by the backup, a
    // template's as much as a document's.
    std::fs::remove_file(app.dir.path().join("blobs").join(&template_file)).unwrap();
    let again = backup.path().join("again");
    let (code, _, err) = app.cli(&["admin", "backup", "--to", again.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1 files the database names are not in the copy")
            && err.contains(&template_file),
        "{err}"
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(again.join("backup.json")).unwrap()).unwrap();
    assert_eq!(manifest["missing"], json!([template_file]));
}

/// Every folder under `path` (and itself) is 0700 and every file 0600.
fn assert_private(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    if path.is_dir() {
        assert_eq!(mode, 0o700, "{}", path.display());
        for entry in std::fs::read_dir(path).unwrap().flatten() {
            assert_private(&entry.path());
        }
    } else {
        assert_eq!(mode, 0o600, "{}", path.display());
    }
}
