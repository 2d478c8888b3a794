//! The people of a workspace, at the resolvers (issue 39's first part): sign-in links are
//! used once, within 15 minutes, and voided by a newer one; asking for one answers alike for
//! known and unknown addresses and is bounded per address and per client; a session acts
//! with its person's role, ends when they end it (or all of them), when it is left unused,
//! and at once when its membership goes.

use std::time::Duration;

use crate::both;
use signet_accounts::people::{links, members, sessions};
use signet_core::actor::{Principal, Role};
use signet_core::plans::Plan;
use signet_core::{DomainError, Scope};

const IP: &str = "203.0.113.7";

async fn person(app: &crate::harness::TestApp, ws: &str, email: &str, role: Role) -> String {
    let id = members::ensure_person(app.ctx(), email, "Ada Owner", "en")
        .await
        .unwrap();
    members::set_member(app.ctx(), ws, &id, role, None)
        .await
        .unwrap();
    id
}

both!(a_link_signs_in_once_and_a_newer_one_voids_it, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, " Ada@Example.com ", Role::Owner).await;
    // The address is one person, however it is written.
    assert_eq!(
        members::ensure_person(app.ctx(), "ada@example.com", "Other", "fr")
            .await
            .unwrap(),
        ada
    );
    let ip = IP.parse().unwrap();
    let old = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
    let new = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
    assert_ne!(old.token, new.token);
    assert!(matches!(
        links::redeem(app.ctx(), &old.token, ip, "test").await,
        Err(DomainError::NotFound(_))
    ));
    let signed = links::redeem(app.ctx(), &new.token, ip, "Firefox")
        .await
        .unwrap();
    assert_eq!(signed.workspace_id, ws);
    assert!(matches!(
        links::redeem(app.ctx(), &new.token, ip, "test").await,
        Err(DomainError::NotFound(_))
    ));
    let actor = sessions::authenticate(app.ctx(), &signed.token)
        .await
        .unwrap();
    assert_eq!(actor.workspace_id.to_string(), ws);
    assert!(matches!(
        &actor.principal,
        Principal::Session { user_id, role: Role::Owner, .. } if *user_id == ada
    ));
    // A made-up session or link opens nothing.
    let fake = sessions::secret().unwrap();
    assert!(sessions::authenticate(app.ctx(), &fake).await.is_err());
    assert!(links::redeem(app.ctx(), &fake, ip, "test").await.is_err());
});

both!(a_link_runs_out_after_fifteen_minutes, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "late@example.com", Role::Admin).await;
    let link = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
    app.advance(Duration::from_secs(15 * 60 + 1));
    assert!(matches!(
        links::redeem(app.ctx(), &link.token, IP.parse().unwrap(), "test").await,
        Err(DomainError::NotFound(_))
    ));
});

both!(two_tries_at_one_link_open_one_session, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "race@example.com", Role::Member).await;
    let link = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
    let ip = IP.parse().unwrap();
    let tries = (0..6).map(|_| links::redeem(app.ctx(), &link.token, ip, "test"));
    let results = futures_util::future::join_all(tries).await;
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    for r in &results {
        assert!(
            matches!(r, Ok(_) | Err(DomainError::NotFound(_))),
            "a loser is told the link is spent, not a database error: {r:?}"
        );
    }
});

both!(asking_for_a_link_answers_alike_and_is_bounded, |app| {
    let ws = app.workspace(Plan::Pro).await;
    person(&app, &ws, "known@example.com", Role::Member).await;
    let ip = IP.parse().unwrap();
    let known = links::request(app.ctx(), "known@example.com", ip)
        .await
        .unwrap();
    assert!(known.is_some(), "a member's address gets a link");
    assert!(
        links::request(app.ctx(), "nobody@example.com", ip)
            .await
            .unwrap()
            .is_none()
    );
    // Five an hour per address, known or not; the sixth is refused alike.
    for address in ["known@example.com", "nobody@example.com"] {
        // One asked above for each.
        for _ in 1..links::PER_ADDRESS_HOUR {
            links::request(app.ctx(), address, ip).await.unwrap();
        }
        assert!(matches!(
            links::request(app.ctx(), address, ip).await,
            Err(DomainError::RateLimited { .. })
        ));
    }
    // A stranger who spent an address's allowance from their client has not spent its
    // person's, from theirs; in all, an address gets twenty an hour.
    let mut from_elsewhere = 0;
    for i in 1..=30 {
        let client: std::net::IpAddr = format!("192.0.2.{i}").parse().unwrap();
        if links::request(app.ctx(), "known@example.com", client)
            .await
            .is_ok()
        {
            from_elsewhere += 1;
        }
    }
    assert_eq!(
        from_elsewhere,
        links::PER_ADDRESS_ALL_HOUR - links::PER_ADDRESS_HOUR
    );
    // Thirty an hour from one client, whatever the addresses.
    let other: std::net::IpAddr = "198.51.100.9".parse().unwrap();
    let mut allowed = 0;
    for i in 0..40 {
        match links::request(app.ctx(), &format!("p{i}@example.com"), other).await {
            Ok(_) => allowed += 1,
            Err(DomainError::RateLimited { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(allowed, links::PER_CLIENT_HOUR);
    // Another hour, another allowance.
    app.advance(Duration::from_secs(3600));
    assert!(
        links::request(app.ctx(), "known@example.com", ip)
            .await
            .is_ok()
    );
    // Not an address at all is a plain 400.
    assert!(matches!(
        links::request(app.ctx(), "not an address", ip).await,
        Err(DomainError::Invalid(_))
    ));
});

both!(a_session_acts_with_its_role_and_ends, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let viewer = person(&app, &ws, "viewer@example.com", Role::Viewer).await;
    let ip = IP.parse().unwrap();
    let mut opened = Vec::new();
    for agent in ["phone", "laptop", "tablet"] {
        let link = links::issue_for_operator(app.ctx(), &viewer).await.unwrap();
        opened.push(
            links::redeem(app.ctx(), &link.token, ip, agent)
                .await
                .unwrap(),
        );
    }
    let actor = sessions::authenticate(app.ctx(), &opened[0].token)
        .await
        .unwrap();
    assert!(actor.require(Scope::DocumentsRead).is_ok());
    assert!(
        actor.require(Scope::DocumentsWrite).is_err(),
        "a viewer only reads"
    );
    for admins_only in [
        Scope::WebhooksRead,
        Scope::NotificationsRead,
        Scope::SettingsRead,
    ] {
        assert!(actor.require(admins_only).is_err(), "{admins_only}");
        assert!(
            !members::scopes_of(Role::Member).contains(admins_only),
            "{admins_only}"
        );
        assert!(members::scopes_of(Role::Admin).contains(admins_only));
    }
    assert!(members::scopes_of(Role::Member).contains(Scope::DocumentsWrite));
    let list = sessions::list(app.ctx(), &actor).await.unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(list.iter().filter(|s| s.current).count(), 1);
    // Ending one ends only that one; another person's session id is not found.
    sessions::end(app.ctx(), &actor, Some(&opened[1].session_id))
        .await
        .unwrap();
    assert!(
        sessions::authenticate(app.ctx(), &opened[1].token)
            .await
            .is_err()
    );
    assert!(
        sessions::authenticate(app.ctx(), &opened[2].token)
            .await
            .is_ok()
    );
    let other = person(&app, &ws, "other@example.com", Role::Owner).await;
    let link = links::issue_for_operator(app.ctx(), &other).await.unwrap();
    let theirs = links::redeem(app.ctx(), &link.token, ip, "x")
        .await
        .unwrap();
    assert!(matches!(
        sessions::end(app.ctx(), &actor, Some(&theirs.session_id)).await,
        Err(DomainError::NotFound(_))
    ));
    // Sign out everywhere.
    assert_eq!(sessions::end(app.ctx(), &actor, None).await.unwrap(), 2);
    assert!(
        sessions::authenticate(app.ctx(), &opened[0].token)
            .await
            .is_err()
    );
    assert!(
        sessions::authenticate(app.ctx(), &theirs.token)
            .await
            .is_ok()
    );
    // A key is not a person with sessions.
    let key = app
        .key(&ws, signet_core::Mode::Live, &["account:read"])
        .await;
    let by_key = app.actor(&key).await;
    assert!(sessions::list(app.ctx(), &by_key).await.is_err());
});

both!(a_session_ends_unused_and_when_its_membership_goes, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "idle@example.com", Role::Member).await;
    let ip = IP.parse().unwrap();
    let open = |app: &crate::harness::TestApp| {
        let (ctx, ada) = (app.ctx().clone(), ada.clone());
        async move {
            let link = links::issue_for_operator(&ctx, &ada).await.unwrap();
            links::redeem(&ctx, &link.token, ip, "x").await.unwrap()
        }
    };
    let day = 24 * 3600;
    // Used within every fortnight, it lasts, up to thirty days in all.
    let s = open(&app).await;
    app.advance(Duration::from_secs(13 * day));
    assert!(sessions::authenticate(app.ctx(), &s.token).await.is_ok());
    app.advance(Duration::from_secs(13 * day));
    assert!(sessions::authenticate(app.ctx(), &s.token).await.is_ok());
    app.advance(Duration::from_secs(5 * day));
    assert!(
        sessions::authenticate(app.ctx(), &s.token).await.is_err(),
        "30 days in all"
    );
    // Fourteen days unused, it ends.
    let s = open(&app).await;
    app.advance(Duration::from_secs(14 * day + 1));
    assert!(
        sessions::authenticate(app.ctx(), &s.token).await.is_err(),
        "14 days unused"
    );
    // The membership goes: the session is refused at once.
    let s = open(&app).await;
    assert!(sessions::authenticate(app.ctx(), &s.token).await.is_ok());
    use signet_storage::sea_orm::{ConnectionTrait, Value};
    app.ctx()
        .db
        .conn
        .execute_raw(app.ctx().db.stmt(
            "DELETE FROM members WHERE user_id = $1",
            [Value::from(ada.as_str())],
        ))
        .await
        .unwrap();
    assert!(sessions::authenticate(app.ctx(), &s.token).await.is_err());
});

both!(
    the_last_owner_stays_and_a_removed_member_loses_that_workspace_only,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let other_ws = app.workspace(Plan::Free).await;
        let owner = person(&app, &ws, "owner@example.com", Role::Owner).await;
        assert!(matches!(
            members::remove(app.ctx(), &ws, &owner).await,
            Err(DomainError::Conflict { .. })
        ));
        assert_eq!(members::list(app.ctx(), &ws).await.unwrap().len(), 1);
        // Nor be made anything else.
        assert!(matches!(
            members::set_member(app.ctx(), &ws, &owner, Role::Admin, None).await,
            Err(DomainError::Conflict { .. })
        ));
        // Two owners removing each other at once, on two threads: one stays.
        let second = person(&app, &ws, "second@example.com", Role::Owner).await;
        let remove = |who: &String| {
            let (ctx, ws, who) = (app.ctx().clone(), ws.clone(), who.clone());
            tokio::spawn(async move { members::remove(&ctx, &ws, &who).await })
        };
        let (a, b) = (remove(&owner), remove(&second));
        let (a, b) = (a.await.unwrap(), b.await.unwrap());
        assert_eq!(
            [&a, &b].iter().filter(|r| r.is_ok()).count(),
            1,
            "{a:?} {b:?}"
        );
        assert!(
            [&a, &b]
                .iter()
                .any(|r| matches!(r, Err(DomainError::Conflict { .. }))),
            "{a:?} {b:?}"
        );
        let left = members::list(app.ctx(), &ws).await.unwrap();
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].role, "owner");
        // A member of two workspaces, signed in to each, taken out of one.
        let both_ws = person(&app, &ws, "twice@example.com", Role::Member).await;
        members::set_member(app.ctx(), &other_ws, &both_ws, Role::Admin, None)
            .await
            .unwrap();
        let ip = IP.parse().unwrap();
        let link = links::issue_for_operator(app.ctx(), &both_ws)
            .await
            .unwrap();
        let here = links::redeem(app.ctx(), &link.token, ip, "x")
            .await
            .unwrap();
        assert_eq!(here.workspace_id, ws, "the first workspace joined");
        members::remove(app.ctx(), &ws, &both_ws).await.unwrap();
        assert!(
            sessions::authenticate(app.ctx(), &here.token)
                .await
                .is_err()
        );
        let link = links::issue_for_operator(app.ctx(), &both_ws)
            .await
            .unwrap();
        let there = links::redeem(app.ctx(), &link.token, ip, "x")
            .await
            .unwrap();
        assert_eq!(there.workspace_id, other_ws);
        let actor = sessions::authenticate(app.ctx(), &there.token)
            .await
            .unwrap();
        assert!(matches!(
            actor.principal,
            Principal::Session {
                role: Role::Admin,
                ..
            }
        ));
        assert!(matches!(
            members::remove(app.ctx(), &ws, &both_ws).await,
            Err(DomainError::NotFound(_))
        ));
        // Added again later, they do not get back the session they had.
        app.advance(Duration::from_secs(1));
        members::set_member(app.ctx(), &ws, &both_ws, Role::Member, None)
            .await
            .unwrap();
        assert!(
            sessions::authenticate(app.ctx(), &here.token)
                .await
                .is_err()
        );
    }
);

#[tokio::test]
async fn people_are_added_listed_removed_and_let_in_from_the_command_line() {
    let app = crate::harness::TestApp::start(crate::harness::Kind::Sqlite)
        .await
        .unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let person = |args: &[&str]| {
        let mut all = vec!["admin", "person"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--workspace", &ws]);
        app.cli(&all)
    };
    let add = |email: &str, role: &str, language: &str| {
        person(&[
            "add",
            "--email",
            email,
            "--name",
            "Ada",
            "--role",
            role,
            "--language",
            language,
            "--json",
        ])
    };
    let (code, out, err) = add("first@example.com", "owner", "en");
    assert_eq!(code, 0, "{err}");
    let made: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(made["role"], "owner");
    assert_eq!(add("second@example.com", "viewer", "fr").0, 0);
    let (code, _, err) = add("third@example.com", "emperor", "en");
    assert_ne!(code, 0);
    assert!(err.contains("emperor"), "{err}");
    let (code, _, err) = add("x@example.com", "member", "tlh");
    assert_ne!(code, 0);
    assert!(err.contains("language"), "{err}");
    let (code, out, _) = person(&["list", "--json"]);
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(list[1]["email"], "second@example.com");
    let (code, _, err) = person(&["remove", "--email", "first@example.com"]);
    assert_ne!(code, 0, "the last owner stays");
    assert!(err.contains("last owner"), "{err}");
    let (code, _, err) = person(&["remove", "--email", "second@example.com"]);
    assert_eq!(code, 0, "{err}");

    // The first owner's way in on an installation without email: a printed link that
    // signs in once.
    let (code, out, err) = app.cli(&[
        "admin",
        "person",
        "sign-in-link",
        "--email",
        "First@example.com",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let printed: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let url = printed["url"].as_str().unwrap();
    let (_, token) = url.split_once("/app/sign-in#").expect(url);
    let ip = IP.parse().unwrap();
    let signed = links::redeem(app.ctx(), token, ip, "cli").await.unwrap();
    assert_eq!(signed.workspace_id, ws);
    assert!(links::redeem(app.ctx(), token, ip, "cli").await.is_err());
    let (code, _, err) = app.cli(&[
        "admin",
        "person",
        "sign-in-link",
        "--email",
        "no@example.com",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("no@example.com"), "{err}");
}

both!(what_sign_in_no_longer_needs_is_purged, |app| {
    use signet_storage::sea_orm::ConnectionTrait as _;
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "purge@example.com", Role::Member).await;
    let ip = IP.parse().unwrap();
    links::request(app.ctx(), "purge@example.com", ip)
        .await
        .unwrap()
        .unwrap();
    let link = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
    let signed = links::redeem(app.ctx(), &link.token, ip, "t")
        .await
        .unwrap();
    let actor = sessions::authenticate(app.ctx(), &signed.token)
        .await
        .unwrap();
    sessions::end(app.ctx(), &actor, None).await.unwrap();
    let app = &app;
    let count = |table: &'static str| async move {
        let db = &app.ctx().db;
        db.conn
            .query_one_raw(db.stmt(
                &format!("SELECT COUNT(*) AS n FROM {table}"),
                Vec::<signet_storage::sea_orm::Value>::new(),
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get::<i64>("", "n")
            .unwrap()
    };
    let tables = ["sign_in_counts", "sign_in_links", "sessions"];
    // Nothing still needed goes.
    signet_accounts::people::purge::purge(app.ctx())
        .await
        .unwrap();
    for t in tables {
        assert!(count(t).await > 0, "{t} kept while still needed");
    }
    app.advance(Duration::from_secs(31 * 86_400));
    signet_accounts::people::purge::purge(app.ctx())
        .await
        .unwrap();
    for t in tables {
        assert_eq!(count(t).await, 0, "{t} purged");
    }
});

both!(
    a_sign_in_link_leaves_an_invitation_alone_and_signing_in_spends_both,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let other = app.workspace(Plan::Pro).await;
        let ada = person(&app, &ws, "inv@example.com", Role::Member).await;
        members::set_member(app.ctx(), &other, &ada, Role::Viewer, None)
            .await
            .unwrap();
        let ip = IP.parse().unwrap();
        let invitation = links::issue_invitation(app.ctx(), &ada, &other)
            .await
            .unwrap();
        // Asking for a sign-in link (anyone may ask for anyone's) does not void the invitation.
        let sign_in = links::request(app.ctx(), "inv@example.com", ip)
            .await
            .unwrap()
            .unwrap();
        let signed = links::redeem(app.ctx(), &invitation.token, ip, "t")
            .await
            .unwrap();
        assert_eq!(
            signed.workspace_id, other,
            "an invitation opens its workspace"
        );
        // Signed in: the other link is spent.
        assert!(matches!(
            links::redeem(app.ctx(), &sign_in.token, ip, "t").await,
            Err(DomainError::NotFound(_))
        ));
    }
);
