//! Whether this process is ready to serve (`/readyz`): its database, Redis (when used) and
//! file store answer, each within two seconds.

use std::collections::BTreeMap;
use std::time::Duration;

use sea_orm::ConnectionTrait;

use crate::Ctx;

/// How long one check may take before it counts as down.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Each part's state: `ok`, `not used`, or `down: <why>`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Readiness {
    pub ready: bool,
    pub checks: BTreeMap<&'static str, String>,
}

/// Works out the process's readiness now.
pub async fn readiness(ctx: &Ctx) -> Readiness {
    let database = check(async {
        ctx.db
            .conn
            .execute_unprepared("SELECT 1")
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let redis = async {
        match ctx.budget.redis_state() {
            Some(r) => Some(check(async { r.ping().await.map_err(|e| e.to_string()) }).await),
            None => None,
        }
    };
    let blobs = check(async { ctx.blobs.check().await.map_err(|e| e.to_string()) });
    let (database, redis, blobs) = tokio::join!(database, redis, blobs);
    let mut checks = BTreeMap::new();
    checks.insert("database", database);
    checks.insert("redis", redis.unwrap_or_else(|| "not used".into()));
    checks.insert("blobs", blobs);
    Readiness {
        ready: checks.values().all(|v| v == "ok" || v == "not used"),
        checks,
    }
}

async fn check(f: impl std::future::Future<Output = Result<(), String>>) -> String {
    match tokio::time::timeout(CHECK_TIMEOUT, f).await {
        Ok(Ok(())) => "ok".into(),
        Ok(Err(why)) => format!("down: {why}"),
        Err(_) => format!("down: no answer within {} s", CHECK_TIMEOUT.as_secs()),
    }
}
