//! `signet listen`: long-polls a relay endpoint and forwards each stored delivery, with its
//! exact headers and body, to a local receiver, so the receiver's own signature check passes.
//! The id of the last delivery forwarded is kept in a state file, so a restart resumes there.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;

#[derive(clap::Args)]
pub struct ListenArgs {
    /// The relay endpoint (wh_…), made with POST /api/v1/webhooks and `relay: true`.
    #[arg(long)]
    pub endpoint: String,
    /// Where to post each delivery, for example http://localhost:3000/hooks.
    #[arg(long)]
    pub forward_to: String,
    /// An API key with webhooks:read.
    #[arg(long, env = "SIGNET_API_KEY", hide_env_values = true)]
    pub key: String,
    /// The Signet server.
    #[arg(long, env = "SIGNET_BASE_URL", default_value = "http://127.0.0.1:8080")]
    pub base_url: String,
    /// Where the last forwarded id is kept (default: ~/.signet/listen/<endpoint>).
    #[arg(long)]
    pub state_file: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    name: String,
    value: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    id: String,
    webhook_id: String,
    event_type: String,
    headers: Vec<Header>,
    body: String,
}

#[derive(Deserialize)]
struct Page {
    data: Vec<Item>,
}

fn state_file(args: &ListenArgs) -> PathBuf {
    args.state_file.clone().unwrap_or_else(|| {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."));
        home.join(".signet").join("listen").join(&args.endpoint)
    })
}

fn save(path: &PathBuf, id: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, id)?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

pub async fn run(args: ListenArgs) -> anyhow::Result<()> {
    if !args.endpoint.starts_with("wh_") {
        bail!(
            "--endpoint: expected a webhook endpoint id (wh_…), got {:?}",
            args.endpoint
        );
    }
    let forward = reqwest::Url::parse(&args.forward_to)
        .with_context(|| format!("--forward-to: not a URL: {}", args.forward_to))?;
    let base = args.base_url.trim_end_matches('/').to_string();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .context("building the HTTP client")?;
    let receiver = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .context("building the HTTP client")?;
    let state = state_file(&args);
    let mut after = std::fs::read_to_string(&state)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    match &after {
        Some(a) => eprintln!(
            "signet listen: resuming after {a} (state in {})",
            state.display()
        ),
        None => eprintln!(
            "signet listen: forwarding new deliveries of {} to {forward}",
            args.endpoint
        ),
    }
    // Without a state file, start after the newest stored delivery rather than replaying the
    // past day.
    let mut first = after.is_none();
    loop {
        // The first call only learns where "now" is: the newest delivery, not forwarded.
        let (limit, wait) = if first { (1, 0) } else { (100, 25) };
        let mut url = format!(
            "{base}/api/v1/webhooks/{}/relay?limit={limit}&wait={wait}",
            args.endpoint
        );
        if let Some(a) = &after {
            url.push_str(&format!("&after={a}"));
        }
        let resp = match client.get(&url).bearer_auth(&args.key).send().await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("signet listen: cannot reach {base}: {e}; trying again in 2 s");
                tokio::time::sleep(Duration::from_secs(2)).await;
                continue;
            }
        };
        let status = resp.status();
        if status.as_u16() == 401 || status.as_u16() == 404 || status.as_u16() == 400 {
            let body = resp.text().await.unwrap_or_default();
            bail!("the relay answered {status}: {body}");
        }
        if !status.is_success() {
            eprintln!("signet listen: the relay answered {status}; trying again in 2 s");
            tokio::time::sleep(Duration::from_secs(2)).await;
            continue;
        }
        let page: Page = resp.json().await.context("reading the relay's answer")?;
        if first {
            first = false;
            if let Some(last) = page.data.last() {
                after = Some(last.id.clone());
                save(&state, &last.id)?;
            }
            continue;
        }
        for item in page.data {
            loop {
                let mut req = receiver.post(forward.clone()).body(item.body.clone());
                for h in &item.headers {
                    req = req.header(h.name.as_str(), h.value.as_str());
                }
                let now = chrono::Utc::now().format("%H:%M:%S");
                match req.send().await {
                    Ok(r) => {
                        println!(
                            "{now}  {}  {}  {}  -> {}",
                            item.id,
                            item.event_type,
                            item.webhook_id,
                            r.status().as_u16()
                        );
                        break;
                    }
                    Err(e) => {
                        println!(
                            "{now}  {}  {}  {}  -> not delivered ({e}); retrying in 2 s",
                            item.id, item.event_type, item.webhook_id
                        );
                        tokio::time::sleep(Duration::from_secs(2)).await;
                    }
                }
            }
            save(&state, &item.id)?;
            after = Some(item.id);
        }
    }
}
