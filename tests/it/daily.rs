//! A key's daily limit of drafts and sends: atomic under concurrency, per key, and answered
//! with 429 until midnight UTC.

use crate::both;
use signet_accounts::keys::{self, KeyCreateIn};
use signet_core::actor::Scopes;
use signet_core::{DomainError, Mode, limits};

both!(daily_limit_counts_exactly_under_concurrency, |app| {
    let (ws, _) = app.owner().await;
    let make = |daily_limit| KeyCreateIn {
        daily_limit,
        ..KeyCreateIn::new(&ws, Mode::Test, Scopes::parse(["documents:write"]).unwrap())
    };
    let limited = app.key_with(make(Some(5))).await;
    let unlimited = app.key_with(make(None)).await;
    let ip = "127.0.0.1".parse().unwrap();
    let actor = keys::authenticate(app.ctx(), &limited, ip).await.unwrap();
    let spends = (0..12).map(|_| limits::spend_daily(app.ctx(), &actor));
    let results = futures_util::future::join_all(spends).await;
    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        5,
        "exactly the limit is allowed"
    );
    for r in results.into_iter().filter_map(Result::err) {
        let DomainError::RateLimited {
            retry_after_secs, ..
        } = r
        else {
            panic!("{r:?}")
        };
        assert!((1..=86_400).contains(&retry_after_secs));
    }
    let free = keys::authenticate(app.ctx(), &unlimited, ip).await.unwrap();
    for _ in 0..20 {
        limits::spend_daily(app.ctx(), &free).await.unwrap();
    }
});
