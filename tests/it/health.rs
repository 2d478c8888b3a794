//! Probes: `/healthz` says the process is up; `/readyz` says whether its database, Redis and
//! file store answer, with a 503 naming what is down. Neither takes a key or spends the
//! address's budget, since a balancer behind one address asks every second.

use crate::both_quiet;

both_quiet!(probes_say_up_and_ready_and_name_what_is_down, |app| {
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

    // The file store gone (its folder is now a file): not ready, and it says which part.
    let blobs = app.dir.path().join("blobs");
    std::fs::remove_dir_all(&blobs).ok();
    std::fs::write(&blobs, b"not a folder").unwrap();
    let mut answer = app.get("/readyz", None).await;
    for _ in 0..40 {
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
});
