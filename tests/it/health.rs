//! Probes: `/healthz` says the process is up; `/readyz` says whether its database, Redis and
//! file store answer, with a 503 naming what is down. Neither takes a key or spends the
//! address's budget, since a balancer behind one address asks every second.

async fn probes_say_up_and_ready_and_name_what_is_down(kind: crate::harness::Kind) {
    // On PostgreSQL+Redis the files are in a bucket of the test's own, which it removes.
    // S3 bucket names are lowercase letters, digits and hyphens.
    let bucket = signet_core::ids::new_id("h")
        .to_lowercase()
        .replace('_', "-");
    let opts = crate::harness::Options {
        no_worker: true,
        own_bucket: Some(bucket.clone()),
        ..Default::default()
    };
    let Some(app) = crate::harness::TestApp::start_with(kind, opts).await else {
        return;
    };
    let up = app.get("/healthz", None).await;
    assert_eq!(up.status, 200);
    assert_eq!(up.body["status"], "up");

    let ready = app.get("/readyz", None).await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert_eq!(ready.body["status"], "ready");
    assert_eq!(ready.body["checks"]["database"], "ok");
    assert_eq!(ready.body["checks"]["blobs"], "ok");
    let redis = ready.body["checks"]["redis"].as_str().unwrap();
    assert!(
        redis
            == if app.redis_url.is_some() {
                "ok"
            } else {
                "not used"
            },
        "{redis}"
    );

    // More probes than an address's budget for a minute (120): none is refused.
    for _ in 0..150 {
        assert_eq!(app.get("/healthz", None).await.status, 200);
    }
    assert_eq!(app.get("/readyz", None).await.status, 200);

    // The file store gone (its folder is now a file, or its bucket removed): not ready, and
    // it says which part.
    match &app.blob_url {
        Some(_) => {
            crate::servers::external()
                .unwrap()
                .s3
                .remove_bucket(&bucket)
                .await
        }
        None => {
            let blobs = app.dir.path().join("blobs");
            std::fs::remove_dir_all(&blobs).ok();
            std::fs::write(&blobs, b"not a folder").unwrap();
        }
    }
    let mut answer = app.get("/readyz", None).await;
    for _ in 0..100 {
        if answer.status == 503 {
            break;
        }
        // The last answer is reused for a second.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        answer = app.get("/readyz", None).await;
    }
    assert_eq!(answer.status, 503, "{}", answer.body);
    let message = answer.body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("not ready: blobs is down"), "{message}");
    assert_eq!(answer.body["error"]["kind"], "dependency");
    assert_eq!(answer.body["checks"]["database"], "ok");
    assert!(!answer.header("request-id").is_empty());
    // Up is still up: the process runs.
    assert_eq!(app.get("/healthz", None).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_say_up_and_ready_and_name_what_is_down_sqlite() {
    probes_say_up_and_ready_and_name_what_is_down(crate::harness::Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_say_up_and_ready_and_name_what_is_down_postgres_redis() {
    probes_say_up_and_ready_and_name_what_is_down(crate::harness::Kind::PostgresRedis).await;
}

const TOKEN: &str = "metrics-token-for-the-tests-0123";

/// `/metrics` with Prometheus' bearer token, parsed as Prometheus parses it.
async fn scrape(app: &crate::harness::TestApp) -> prometheus_parse::Scrape {
    let res = app
        .client
        .get(format!("{}/metrics", app.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = res.text().await.unwrap();
    prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap()
}

fn value(s: &prometheus_parse::Scrape, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    s.samples
        .iter()
        .find(|x| x.metric == name && labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v)))
        .map(|x| match x.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            _ => f64::NAN,
        })
}

async fn metrics_count_requests_jobs_and_the_pool(kind: crate::harness::Kind) {
    use signet_core::Mode;
    use signet_core::plans::Plan;
    let opts = crate::harness::Options {
        no_worker: true,
        metrics_token: Some(TOKEN.into()),
        ..Default::default()
    };
    let Some(app) = crate::harness::TestApp::start_with(kind, opts).await else {
        return;
    };
    // Without the token, or with another, nothing is told.
    let bare = app.get("/metrics", None).await;
    assert_eq!(bare.status, 401, "{}", bare.body);
    assert_eq!(app.get("/metrics", Some("not-the-token")).await.status, 401);

    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(&ws, Mode::Test, &["documents:read", "documents:write"])
        .await;
    let before = scrape(&app).await;
    let made = crate::documents::create(&app, &key, serde_json::json!({"sendNow": true})).await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(app.get("/api/v1/documents", Some(&key)).await.status, 200);
    let after = scrape(&app).await;

    let created = |s: &prometheus_parse::Scrape| {
        value(
            s,
            "signet_requests_total",
            &[("operation", "v1.documents.create"), ("status", "201")],
        )
        .unwrap_or(0.0)
    };
    assert!(created(&after) >= created(&before) + 1.0);
    // The latency histogram of an operation: buckets never fall, and +Inf is the count.
    let buckets: Vec<f64> = after
        .samples
        .iter()
        .filter(|x| {
            x.metric == "signet_request_duration_seconds"
                && x.labels.get("operation") == Some("v1.documents.list")
        })
        .flat_map(|x| match &x.value {
            prometheus_parse::Value::Histogram(h) => h.iter().map(|b| b.count).collect(),
            _ => Vec::new(),
        })
        .collect();
    assert!(buckets.len() >= 13, "{buckets:?}");
    assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{buckets:?}");
    assert!(buckets.last().copied().unwrap_or(0.0) >= 1.0);
    // No worker runs here: the sent document's render job waits, and its age shows.
    assert!(
        value(
            &after,
            "signet_jobs",
            &[("kind", "render"), ("state", "queued")]
        )
        .unwrap_or(0.0)
            >= 1.0
    );
    assert!(
        value(
            &after,
            "signet_jobs_oldest_due_seconds",
            &[("kind", "render")]
        )
        .is_some()
    );
    assert!(value(&after, "signet_db_connections", &[("state", "open")]).unwrap_or(0.0) >= 1.0);
    for name in [
        "signet_rate_limited_total",
        "signet_webhook_deliveries_total",
        "signet_emails_total",
        "signet_seals_total",
    ] {
        assert!(after.samples.iter().any(|x| x.metric == name), "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_jobs_and_the_pool_sqlite() {
    metrics_count_requests_jobs_and_the_pool(crate::harness::Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_jobs_and_the_pool_postgres_redis() {
    metrics_count_requests_jobs_and_the_pool(crate::harness::Kind::PostgresRedis).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_off_without_a_token() {
    let app = crate::harness::TestApp::start_without_workers(crate::harness::Kind::Sqlite)
        .await
        .unwrap();
    let off = app.get("/metrics", Some(TOKEN)).await;
    assert_eq!(off.status, 404, "{}", off.body);
    assert!(
        off.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("metrics_token")
    );
}

/// Guessing the metrics token spends the address's anonymous budget, like a wrong key: past
/// it every request is refused unchecked, the right token's too, until the minute is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_token_guesses_spend_the_address_budget() {
    let app = crate::harness::TestApp::start_with(
        crate::harness::Kind::Sqlite,
        crate::harness::Options {
            metrics_token: Some(TOKEN.into()),
            anonymous_per_minute: Some(5),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let mut statuses = Vec::new();
    for i in 0..8 {
        let r = app.get("/metrics", Some(&format!("guess-{i}"))).await;
        statuses.push(r.status.as_u16());
        if r.status == 429 {
            assert!(r.header("retry-after").parse::<u64>().unwrap() > 0);
            assert_eq!(r.body["error"]["kind"], "rate_limited");
        }
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
    // Past the budget even the right token is refused unchecked: a right guess looks like
    // a wrong one until the minute is over.
    assert_eq!(app.get("/metrics", Some(TOKEN)).await.status, 429);
}

/// With `log_format = "json"` every line is one JSON object, and each line logged while a
/// request is answered carries that request's id (`span.request_id`): the id a caller reads in
/// `Request-Id` and in an error's `requestId`, so an operator finds a complaint's lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_carry_the_id_of_the_request_that_logged() {
    use signet_core::Mode;
    use signet_core::plans::Plan;
    use signet_storage::sea_orm::ConnectionTrait;
    // Two processes on one store: PostgreSQL (the embedded default serves one).
    let Some(app) =
        crate::harness::TestApp::start_without_workers(crate::harness::Kind::PostgresRedis).await
    else {
        return;
    };
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(&ws, Mode::Test, &["documents:read", "documents:write"])
        .await;
    let made = crate::documents::create(&app, &key, serde_json::json!({"sendNow": true})).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();
    crate::harness::test_sign(&app, &key, &id, &["client", "provider"]).await;
    app.run_pending_jobs().await;
    // The sealed file lost from the store: downloading it is an unexpected error, logged.
    let sealed: String = app
        .ctx()
        .db
        .conn
        .query_one_raw(app.ctx().db.stmt(
            "SELECT sealed_blob FROM documents WHERE id = $1",
            [id.clone().into()],
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get("", "sealed_blob")
        .unwrap();
    app.ctx().blobs.delete(&sealed).await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("serve.log");
    let (server, base) = crate::harness::spawn_server_with(
        &app,
        &["--role", "api"],
        &[
            ("SIGNET_LOG_FORMAT", "json"),
            // The API's own debug line ("request answered") besides the usual info level.
            ("SIGNET_LOG", "info,signet_rest=debug"),
        ],
        std::fs::File::create(&log_path).unwrap(),
    );
    let client = reqwest::Client::new();
    let lost = client
        .get(format!("{base}/api/v1/documents/{id}/signed.pdf"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    assert_eq!(lost.status(), 500);
    let lost_id = lost.headers()["request-id"].to_str().unwrap().to_string();
    let body: serde_json::Value = lost.json().await.unwrap();
    assert_eq!(body["error"]["requestId"], lost_id.as_str());
    // A send with an idempotency key, which runs in a task of its own; the door logs its
    // request line under its span.
    let sent = client
        .post(format!("{base}/api/v1/documents"))
        .bearer_auth(&key)
        .header("idempotency-key", "json-logs-send-1")
        .header("content-type", "application/json")
        .body(crate::documents::body(serde_json::json!({"sendNow": true})))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let sent_id = sent.headers()["request-id"].to_str().unwrap().to_string();
    drop(server);

    let text = std::fs::read_to_string(&log_path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let of = |rid: &str| -> Vec<&serde_json::Value> {
        lines
            .iter()
            .filter(|l| l["span"]["request_id"] == rid)
            .collect()
    };
    let lost_lines = of(&lost_id);
    let error = lost_lines
        .iter()
        .find(|l| l["fields"]["message"] == "unexpected error")
        .unwrap_or_else(|| panic!("no error line carries {lost_id}:\n{text}"));
    assert_eq!(error["level"], "ERROR");
    assert!(
        error["fields"]["detail"]
            .as_str()
            .unwrap()
            .contains("missing"),
        "{error}"
    );
    for (rid, route, status) in [
        (&lost_id, "v1.documents.signedPdf", 500),
        (&sent_id, "v1.documents.create", 201),
    ] {
        let answered = of(rid)
            .into_iter()
            .find(|l| l["fields"]["message"] == "request answered")
            .unwrap_or_else(|| panic!("no answered line carries {rid}:\n{text}"));
        assert_eq!(answered["fields"]["route"], route, "{answered}");
        assert_eq!(answered["fields"]["status"], status, "{answered}");
    }
}
