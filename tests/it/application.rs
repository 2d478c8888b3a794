//! The application's sign-in and people over HTTP, as a browser and an attacker reach them
//! (issue 39): a link asked for answers alike for every address and arrives by email; its
//! page's button sets an `HttpOnly` cookie; the cookie works only for GraphQL and only from
//! the application's own origin with its header; REST never reads it; roles are enforced by
//! the resolvers through GraphQL directly; invitations arrive in the person's language and
//! open the workspace they invite to; a person switches workspaces; a removed member is out
//! at once; signing out (here or everywhere) ends sessions.

use futures_util::StreamExt;
use serde_json::{Value, json};
use signet_accounts::people::{links, members};
use signet_core::actor::Role;
use signet_core::plans::Plan;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::both;
use crate::graphql::{data, kind};
use crate::harness::{Answer, TestApp, mails_to};

/// A browser on the application's own page: its origin, the header its calls carry, and
/// the cookie it was given.
pub(crate) struct Browser<'a> {
    app: &'a TestApp,
    pub(crate) origin: String,
    pub(crate) cookie: Option<String>,
    pub(crate) marked: bool,
    /// The application's test/live switch (`X-Signet-Mode`), when set.
    pub(crate) mode: Option<&'static str>,
}

impl<'a> Browser<'a> {
    fn new(app: &'a TestApp) -> Browser<'a> {
        Browser {
            app,
            origin: app.base.clone(),
            cookie: None,
            marked: true,
            mode: None,
        }
    }

    async fn post(&self, path: &str, body: Value) -> Answer {
        let req = self
            .app
            .client
            .post(format!("{}{path}", self.app.base))
            .header("content-type", "application/json")
            .header("origin", &self.origin)
            .body(body.to_string());
        self.app.send(self.dressed(req)).await
    }

    /// A GET of the application's own (a document's files).
    async fn get(&self, path: &str) -> Answer {
        let req = self
            .app
            .client
            .get(format!("{}{path}", self.app.base))
            .header("origin", &self.origin);
        self.app.send(self.dressed(req)).await
    }

    fn dressed(&self, mut req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if self.marked {
            req = req.header("x-signet-session", "1");
        }
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        if let Some(m) = self.mode {
            req = req.header("x-signet-mode", m);
        }
        req
    }

    pub(crate) async fn gql(&self, query: &str, vars: Value) -> Answer {
        self.post("/graphql", json!({"query": query, "variables": vars}))
            .await
    }

    /// Takes a member out (or, naming the person signed in, leaves); whether it was done.
    async fn remove(&self, user_id: &str) -> bool {
        let r = self
            .gql(
                "mutation($u: String!) { removeMember(userId: $u) }",
                json!({"u": user_id}),
            )
            .await;
        data(&r)["removeMember"] == true
    }

    /// Redeems a link as the link's page does, keeping the cookie it sets.
    async fn redeem(&mut self, token: &str) -> Answer {
        let a = self
            .post("/app/v1/sign-in/redeem", json!({"token": token}))
            .await;
        if a.status == 200 {
            let set = a.header("set-cookie").to_string();
            self.cookie = Some(set.split(';').next().unwrap().to_string());
        }
        a
    }
}

pub(crate) async fn person(app: &TestApp, ws: &str, email: &str, name: &str, role: Role) -> String {
    let id = members::ensure_person(app.ctx(), email, name, "en")
        .await
        .unwrap();
    members::set_member(app.ctx(), ws, &id, role, None)
        .await
        .unwrap();
    id
}

/// A browser signed in as the person with this address (through a link `signet admin`
/// would print).
pub(crate) async fn signed_in<'a>(app: &'a TestApp, user_id: &str) -> Browser<'a> {
    let link = links::issue_for_operator(app.ctx(), user_id).await.unwrap();
    let mut b = Browser::new(app);
    let a = b.redeem(&link.token).await;
    assert_eq!(a.status, 200, "{}", a.body);
    b
}

/// Waits until every application email queued so far has gone (the workers run beside the
/// test).
async fn emails_sent(app: &TestApp) {
    use signet_storage::sea_orm::ConnectionTrait as _;
    app.run_pending_jobs().await;
    crate::harness::until("the application's emails to go", || async {
        let db = &app.ctx().db;
        let row = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT COUNT(*) AS n FROM outbox WHERE kind = 'people_email' AND state IN ('queued', 'running')",
                Vec::<signet_storage::sea_orm::Value>::new(),
            ))
            .await
            .unwrap()
            .unwrap();
        (row.try_get::<i64>("", "n").unwrap() == 0).then_some(())
    })
    .await;
}

/// The sign-in link in the last email to `to`.
fn emailed_link(app: &TestApp, to: &str) -> String {
    let mails = mails_to(app, to);
    let (_, text) = mails.last().unwrap_or_else(|| panic!("no email to {to}"));
    let at = text.find("/app/sign-in#").expect("a sign-in link") + "/app/sign-in#".len();
    text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

const ME: &str =
    "{ me { person { id email name } role workspace { id name } workspaces { id role } scopes } }";

both!(a_person_signs_in_from_the_emailed_link, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "ada@example.com", "Ada", Role::Owner).await;
    let browser = Browser::new(&app);

    // The same answer whether or not the address is anyone's.
    let known = browser
        .post("/app/v1/sign-in", json!({"email": " Ada@Example.com"}))
        .await;
    let unknown = browser
        .post("/app/v1/sign-in", json!({"email": "nobody@example.com"}))
        .await;
    assert_eq!(known.status, 202, "{}", known.body);
    assert_eq!(unknown.status, 202);
    assert_eq!(known.body, unknown.body);
    assert_eq!(known.header("cache-control"), "no-store");
    // Not an address, or from another site: refused before anything is counted or sent.
    let bad = browser
        .post("/app/v1/sign-in", json!({"email": "not an address"}))
        .await;
    assert_eq!(bad.status, 400);
    let mut elsewhere = Browser::new(&app);
    elsewhere.origin = "https://evil.example".into();
    let a = elsewhere
        .post("/app/v1/sign-in", json!({"email": "ada@example.com"}))
        .await;
    assert_eq!(a.status, 403, "{}", a.body);

    emails_sent(&app).await;
    let to_ada = mails_to(&app, "ada@example.com");
    assert_eq!(to_ada.len(), 1, "one email for one request");
    assert_eq!(to_ada[0].0, "Your sign-in link");
    assert!(mails_to(&app, "nobody@example.com").is_empty());
    let token = emailed_link(&app, "ada@example.com");
    assert_eq!(token.len(), 43);

    // The link's button, from another site or without the header: refused, and the link
    // is still good.
    let mut forged = Browser::new(&app);
    forged.origin = "https://evil.example".into();
    assert_eq!(forged.redeem(&token).await.status, 403);
    let mut unmarked = Browser::new(&app);
    unmarked.marked = false;
    assert_eq!(unmarked.redeem(&token).await.status, 403);

    let mut b = Browser::new(&app);
    let a = b.redeem(&token).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["workspaceId"], ws.as_str());
    let set = a.header("set-cookie");
    assert!(set.starts_with("signet-session="), "{set}");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(part), "{set} lacks {part}");
    }
    // Plain http on this machine: the one place the cookie cannot be Secure.
    assert!(!set.contains("Secure"), "{set}");
    // Used once.
    assert_eq!(Browser::new(&app).redeem(&token).await.status, 404);

    let me = b.gql(ME, json!({})).await;
    let me = &data(&me)["me"];
    assert_eq!(me["person"]["id"], ada.as_str());
    assert_eq!(me["role"], "owner");
    assert_eq!(me["workspace"]["id"], ws.as_str());

    // The cookie from another origin, or without the header, opens nothing.
    let mut stolen = Browser::new(&app);
    stolen.cookie = b.cookie.clone();
    stolen.origin = "https://evil.example".into();
    let a = stolen.gql(ME, json!({})).await;
    assert_eq!(a.status, 403, "{}", a.body);
    stolen.origin = app.base.clone();
    stolen.marked = false;
    assert_eq!(stolen.gql(ME, json!({})).await.status, 403);
    // REST takes only a key: the cookie is not a credential there.
    let rest = app
        .client
        .get(format!("{}/api/v1/usage", app.base))
        .header("cookie", b.cookie.clone().unwrap())
        .header("origin", &app.base)
        .header("x-signet-session", "1");
    assert_eq!(app.send(rest).await.status, 401);

    // Signing out ends the session and clears the cookie.
    let out = b.post("/app/v1/sign-out", json!({})).await;
    assert_eq!(out.status, 204, "{}", out.body);
    assert!(out.header("set-cookie").contains("Max-Age=0"));
    assert_eq!(b.gql(ME, json!({})).await.status, 401);
});

both!(roles_are_enforced_by_the_resolvers_through_graphql, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let owner = person(&app, &ws, "owner@example.com", "Olga", Role::Owner).await;
    let admin = person(&app, &ws, "admin@example.com", "Adam", Role::Admin).await;
    let viewer = person(&app, &ws, "viewer@example.com", "Vera", Role::Viewer).await;
    let other_ws = app.workspace(Plan::Pro).await;
    let stranger = person(&app, &other_ws, "x@example.com", "Xan", Role::Owner).await;
    let (o, a, v) = (
        signed_in(&app, &owner).await,
        signed_in(&app, &admin).await,
        signed_in(&app, &viewer).await,
    );
    const INVITE: &str =
        "mutation($i: InviteIn!) { inviteMember(input: $i) { userId role email } }";
    let invite = |email: &str, role: &str, lang: &str| json!({"i": {"email": email, "name": "New Person", "role": role, "language": lang}});

    // A viewer reads documents but not the members, and changes nothing.
    assert!(
        data(&v.gql("{ documents { data { id } } }", json!({})).await)["documents"].is_object()
    );
    let r = v.gql("{ members { userId } }", json!({})).await;
    assert_eq!(kind(&r), "forbidden", "{}", r.body);
    let r = v
        .gql(INVITE, invite("n1@example.com", "member", "en"))
        .await;
    assert_eq!(kind(&r), "forbidden");
    assert!(
        r.body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("viewer"),
        "{}",
        r.body
    );
    let r = v.gql("{ activity { id } }", json!({})).await;
    assert_eq!(kind(&r), "forbidden");

    // An admin invites members but cannot make, demote or remove an owner.
    let r = a
        .gql(INVITE, invite("Fleur@example.com", "member", "fr"))
        .await;
    let fleur = data(&r)["inviteMember"]["userId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(data(&r)["inviteMember"]["email"], "fleur@example.com");
    let r = a
        .gql(INVITE, invite("boss@example.com", "owner", "en"))
        .await;
    assert_eq!(kind(&r), "forbidden");
    let change =
        "mutation($u: String!, $r: String!) { changeMemberRole(userId: $u, role: $r) { role } }";
    let r = a.gql(change, json!({"u": fleur, "r": "owner"})).await;
    assert_eq!(kind(&r), "forbidden");
    let r = a.gql(change, json!({"u": owner, "r": "admin"})).await;
    assert_eq!(kind(&r), "forbidden");
    let remove = "mutation($u: String!) { removeMember(userId: $u) }";
    assert_eq!(kind(&a.gql(remove, json!({"u": owner})).await), "forbidden");
    // Inviting an address already a member is a conflict.
    let r = a
        .gql(INVITE, invite("fleur@example.com", "viewer", "en"))
        .await;
    assert_eq!(kind(&r), "conflict");
    // Another workspace's person is not found here, whoever asks.
    let r = o.gql(change, json!({"u": stranger, "r": "viewer"})).await;
    assert_eq!(kind(&r), "not_found");
    assert_eq!(
        kind(&o.gql(remove, json!({"u": stranger})).await),
        "not_found"
    );

    // The owner may; the last owner stays one.
    let r = o.gql(change, json!({"u": owner, "r": "admin"})).await;
    assert_eq!(kind(&r), "conflict", "{}", r.body);
    let r = o.gql(change, json!({"u": admin, "r": "owner"})).await;
    assert_eq!(data(&r)["changeMemberRole"]["role"], "owner");

    // The invitation arrives in the person's language and opens this workspace.
    emails_sent(&app).await;
    let mails = mails_to(&app, "fleur@example.com");
    assert_eq!(mails.len(), 1);
    assert!(mails[0].0.contains("vous invite"), "{}", mails[0].0);
    assert!(mails[0].1.contains("membre"), "{}", mails[0].1);
    let token = emailed_link(&app, "fleur@example.com");
    let mut f = Browser::new(&app);
    assert_eq!(f.redeem(&token).await.status, 200);
    let me = f.gql(ME, json!({})).await;
    assert_eq!(data(&me)["me"]["role"], "member");

    // The record says who did what, and from where.
    let r = o
        .gql(
            "{ activity { actor action subject detail clientIp } }",
            json!({}),
        )
        .await;
    let lines = data(&r)["activity"].as_array().unwrap().clone();
    let invited = lines
        .iter()
        .find(|l| l["action"] == "member.invited")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(invited["actor"], admin.as_str());
    assert_eq!(invited["subject"], "fleur@example.com");
    assert_eq!(invited["clientIp"], "127.0.0.1");
    assert!(
        lines
            .iter()
            .any(|l| l["action"] == "member.role_changed" && l["detail"] == "admin→owner")
    );
});

both!(
    a_person_switches_workspaces_and_a_removed_member_is_out_at_once,
    |app| {
        let first = app.workspace(Plan::Pro).await;
        let second = app.workspace(Plan::Free).await;
        let third = app.workspace(Plan::Free).await;
        let boss = person(&app, &second, "boss@example.com", "Bo", Role::Owner).await;
        let sam = person(&app, &first, "sam@example.com", "Sam", Role::Member).await;
        person(&app, &second, "sam@example.com", "Sam", Role::Viewer).await;
        let sam_b = signed_in(&app, &sam).await;
        let other_b = signed_in(&app, &sam).await;
        let me = sam_b.gql(ME, json!({})).await;
        assert_eq!(data(&me)["me"]["workspace"]["id"], first.as_str());
        assert_eq!(data(&me)["me"]["workspaces"].as_array().unwrap().len(), 2);

        let switch = "mutation($w: String!) { switchWorkspace(workspaceId: $w) }";
        assert_eq!(
            kind(&sam_b.gql(switch, json!({"w": third})).await),
            "not_found"
        );
        assert!(data(&sam_b.gql(switch, json!({"w": second})).await)["switchWorkspace"] == true);
        let me = sam_b.gql(ME, json!({})).await;
        assert_eq!(data(&me)["me"]["role"], "viewer");
        assert_eq!(data(&me)["me"]["workspace"]["id"], second.as_str());

        // Two sessions listed; the second browser's ended from the first.
        let r = sam_b.gql("{ mySessions { id current } }", json!({})).await;
        let list = data(&r)["mySessions"].as_array().unwrap().clone();
        assert_eq!(list.len(), 2);
        let theirs = list.iter().find(|s| s["current"] == false).unwrap()["id"].clone();
        let end = "mutation($id: String!) { endSession(id: $id) }";
        // Another person's session is not found, and stays open.
        let boss_b = signed_in(&app, &boss).await;
        assert_eq!(
            kind(&boss_b.gql(end, json!({"id": theirs})).await),
            "not_found"
        );
        assert_eq!(other_b.gql(ME, json!({})).await.status, 200);
        assert!(data(&sam_b.gql(end, json!({"id": theirs})).await)["endSession"] == true);
        assert_eq!(other_b.gql(ME, json!({})).await.status, 401);

        // Taken out of the workspace it acts in: the next request is refused.
        assert!(boss_b.remove(&sam).await);
        assert_eq!(sam_b.gql(ME, json!({})).await.status, 401);

        // Signing out everywhere ends every session of the person.
        let s1 = signed_in(&app, &sam).await;
        let s2 = signed_in(&app, &sam).await;
        let r = s1.gql("mutation { signOutEverywhere }", json!({})).await;
        assert_eq!(data(&r)["signOutEverywhere"], 2);
        assert_eq!(s2.gql(ME, json!({})).await.status, 401);
    }
);

both!(a_key_is_no_person_and_cannot_touch_owners, |app| {
    let (ws, key) = app.owner().await;
    person(&app, &ws, "owner@example.com", "Olga", Role::Owner).await;
    let q = json!({"query": "{ me { role } }"}).to_string();
    let a = app.post("/graphql", &key, &[], &q).await;
    assert_eq!(kind(&a), "forbidden", "{}", a.body);
    let q = json!({"query": "mutation { inviteMember(input: {email: \"o2@example.com\", name: \"O\", role: \"owner\"}) { role } }"}).to_string();
    let a = app.post("/graphql", &key, &[], &q).await;
    assert_eq!(kind(&a), "forbidden", "{}", a.body);
    let q = json!({"query": "mutation { inviteMember(input: {email: \"m2@example.com\", name: \"M\", role: \"member\"}) { role } }"}).to_string();
    let a = app.post("/graphql", &key, &[], &q).await;
    assert_eq!(data(&a)["inviteMember"]["role"], "member");
});

/// The websocket of subscriptions takes the cookie only from the application's origin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_subscription_socket_takes_the_cookie_only_from_the_application() {
    let app = TestApp::start(crate::harness::Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "ada@example.com", "Ada", Role::Member).await;
    let b = signed_in(&app, &ada).await;
    let cookie = b.cookie.clone().unwrap();
    for (origin, acked) in [(app.base.as_str(), true), ("https://evil.example", false)] {
        assert_eq!(
            app_socket_from(&app, origin, &cookie, json!({}))
                .await
                .is_some(),
            acked,
            "origin {origin}"
        );
    }
}

const KEY_FIELDS: &str =
    "id name mode hint scopes draftOnly dailyLimit perMinute allow expiresAt revokedAt";

both!(
    an_admin_makes_a_key_that_works_once_shown_and_revokes_it,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let admin = person(&app, &ws, "admin@example.com", "Adam", Role::Admin).await;
        let member = person(&app, &ws, "member@example.com", "Mia", Role::Member).await;
        let (a, m) = (
            signed_in(&app, &admin).await,
            signed_in(&app, &member).await,
        );
        let create = format!(
            "mutation($i: ApiKeyIn!) {{ createApiKey(input: $i) {{ secret key {{ {KEY_FIELDS} }} }} }}"
        );
        let input = |extra: Value| {
            let mut i = json!({"name": "Billing system", "mode": "live", "scopes": ["account:read", "documents:read"]});
            i.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            json!({"i": i})
        };
        let made = a
        .gql(&create, input(json!({"perMinute": 30, "dailyLimit": 100, "expiresInDays": 90, "allow": ["127.0.0.1", "10.0.0.0/8"]})))
        .await;
        let made = data(&made)["createApiKey"].clone();
        let secret = made["secret"].as_str().unwrap().to_string();
        assert!(secret.starts_with("svc_live_"), "{made}");
        let key = &made["key"];
        assert_eq!(key["perMinute"], 30);
        assert_eq!(key["allow"], json!(["127.0.0.1/32", "10.0.0.0/8"]));
        assert_eq!(key["hint"], &secret[secret.len() - 4..]);
        // It works with a plain HTTP client, within its scopes.
        assert_eq!(app.get("/api/v1/usage", Some(&secret)).await.status, 200);
        assert_eq!(app.get("/api/v1/webhooks", Some(&secret)).await.status, 401);
        // Listed without its secret.
        let listed = a.gql("{ apiKeys { id hint } }", json!({})).await;
        assert!(!data(&listed).to_string().contains(&secret));
        // Bad options are named.
        for (extra, field) in [
            (json!({"scopes": []}), "scopes"),
            (json!({"scopes": ["documents:delete"]}), "scopes"),
            (json!({"perMinute": 0}), "perMinute"),
            (json!({"allow": ["not-an-address"]}), "allow"),
            (json!({"allow": vec!["127.0.0.1"; 21]}), "allow"),
            (json!({"mode": "prod"}), "mode"),
            (json!({"expiresInDays": 4000}), "expiresInDays"),
        ] {
            let r = a.gql(&create, input(extra.clone())).await;
            crate::graphql::invalid_naming(&r, field, &extra);
        }
        // A member cannot make keys; nor can a key, whatever its scopes.
        assert_eq!(kind(&m.gql(&create, input(json!({}))).await), "forbidden");
        let (_, all) = app.owner().await;
        let body = json!({"query": create, "variables": input(json!({}))}).to_string();
        assert_eq!(
            kind(&app.post("/graphql", &all, &[], &body).await),
            "forbidden"
        );
        // Another workspace's key is not found; this one's is revoked at once.
        let revoke = "mutation($id: String!) { revokeApiKey(id: $id) { revokedAt } }";
        let theirs = app.actor(&all).await;
        let their_key = signet_accounts::keys::list(app.ctx(), &theirs.workspace_id)
            .await
            .unwrap()[0]
            .id
            .clone();
        assert_eq!(
            kind(&a.gql(revoke, json!({"id": their_key})).await),
            "not_found"
        );
        let r = a.gql(revoke, json!({"id": key["id"]})).await;
        assert!(data(&r)["revokeApiKey"]["revokedAt"].is_i64());
        assert_eq!(app.get("/api/v1/usage", Some(&secret)).await.status, 401);
        let lines = a.gql("{ activity { action subject } }", json!({})).await;
        let actions: Vec<&str> = data(&lines)["activity"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["action"].as_str().unwrap())
            .collect();
        assert_eq!(actions[..2], ["key.revoked", "key.created"]);
    }
);

both!(the_api_log_finds_a_request_by_the_id_of_its_answer, |app| {
    let (ws, key) = app.owner().await;
    let admin = person(&app, &ws, "admin@example.com", "Adam", Role::Admin).await;
    let viewer = person(&app, &ws, "viewer@example.com", "Vi", Role::Viewer).await;
    let failed = app
        .get(
            "/api/v1/documents/doc_00000000000000000000000000",
            Some(&key),
        )
        .await;
    assert_eq!(failed.status, 404);
    let request_id = failed.header("request-id").to_string();
    app.ctx().api_log.flush().await;
    let a = signed_in(&app, &admin).await;
    let q =
        "query($s: ApiLogSearch) { apiLog(search: $s) { requestId keyId route status errorKind } }";
    let r = a.gql(q, json!({"s": {"requestId": request_id}})).await;
    let lines = data(&r)["apiLog"].as_array().unwrap().clone();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["status"], 404);
    assert_eq!(lines[0]["errorKind"], "not_found");
    assert_eq!(lines[0]["route"], "v1.documents.get");
    // By key and status, newest first, bounded.
    let r = a.gql(q, json!({"s": {"status": 404, "limit": 1000}})).await;
    assert!(
        data(&r)["apiLog"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["status"] == 404)
    );
    // A viewer does not read it; another workspace's admin does not find the line.
    let v = signed_in(&app, &viewer).await;
    assert_eq!(
        kind(&v.gql(q, json!({"s": {"requestId": request_id}})).await),
        "forbidden"
    );
    let other = app.workspace(Plan::Pro).await;
    let stranger = person(&app, &other, "x@example.com", "X", Role::Owner).await;
    let s = signed_in(&app, &stranger).await;
    let r = s.gql(q, json!({"s": {"requestId": request_id}})).await;
    assert_eq!(data(&r)["apiLog"], json!([]));
});

both!(
    only_owners_and_admins_decide_approvals_and_as_themselves,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let admin = person(&app, &ws, "admin@example.com", "Adam Admin", Role::Admin).await;
        let member = person(&app, &ws, "member@example.com", "Mia", Role::Member).await;
        let (a, m) = (
            signed_in(&app, &admin).await,
            signed_in(&app, &member).await,
        );
        let decline = "mutation($id: String!) { declineSend(approvalId: $id, by: \"Someone Else\", note: \"not now\") { state } }";
        // A test-mode draft-only key's send: a person decides it in the application too.
        let approval = crate::conformance::approval(&app, &ws).await;
        let r = m.gql(decline, json!({"id": approval})).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        // A test approval is found from the test switch only, as a key finds its own mode's.
        let r = a.gql(decline, json!({"id": approval})).await;
        assert_eq!(kind(&r), "not_found", "{}", r.body);
        let mut a = a;
        a.mode = Some("test");
        let r = a.gql(decline, json!({"id": approval})).await;
        let decided = &data(&r)["declineSend"];
        assert_eq!(decided["state"], "declined");
        // Recorded as the person signed in, whatever name was typed.
        use signet_storage::sea_orm::ConnectionTrait as _;
        let db = &app.ctx().db;
        let by: String = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT decided_by FROM approvals WHERE id = $1",
                [signet_storage::sea_orm::Value::from(approval.as_str())],
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get("", "decided_by")
            .unwrap();
        assert_eq!(by, admin);
        // And in the activity record, with where the person was.
        let lines = a
            .gql("{ activity { actor action subject clientIp } }", json!({}))
            .await;
        let line = &data(&lines)["activity"][0];
        assert_eq!(line["action"], "approval.declined");
        assert_eq!(line["subject"], approval.as_str());
        assert_eq!(line["actor"], admin.as_str());
        assert_eq!(line["clientIp"], "127.0.0.1");
    }
);

both!(
    signing_in_over_a_session_ends_it_and_signing_out_always_clears_the_cookie,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let ada = person(&app, &ws, "ada@example.com", "Ada", Role::Member).await;
        let mut b = signed_in(&app, &ada).await;
        let old = b.cookie.clone().unwrap();
        let link = links::issue_for_operator(app.ctx(), &ada).await.unwrap();
        assert_eq!(b.redeem(&link.token).await.status, 200);
        let mut stale = Browser::new(&app);
        stale.cookie = Some(old);
        assert_eq!(
            stale.gql(ME, json!({})).await.status,
            401,
            "the session signed in over ended"
        );
        // A dead cookie is cleared too.
        let out = stale.post("/app/v1/sign-out", json!({})).await;
        assert_eq!(out.status, 204);
        assert!(out.header("set-cookie").contains("Max-Age=0"));
        assert_eq!(
            b.gql(ME, json!({})).await.status,
            200,
            "the new session stays"
        );
    }
);

both!(
    leaving_a_workspace_keeps_the_person_signed_in_to_the_next,
    |app| {
        let first = app.workspace(Plan::Pro).await;
        let second = app.workspace(Plan::Pro).await;
        person(&app, &first, "boss@example.com", "Bo", Role::Owner).await;
        let lea = person(&app, &first, "lea@example.com", "Lea", Role::Member).await;
        person(&app, &second, "lea@example.com", "Lea", Role::Member).await;
        let b = signed_in(&app, &lea).await;
        assert!(b.remove(&lea).await);
        let me = b.gql(ME, json!({})).await;
        assert_eq!(data(&me)["me"]["workspace"]["id"], second.as_str());
        assert_eq!(data(&me)["me"]["workspaces"].as_array().unwrap().len(), 1);
        // Leaving the last one signs them out.
        assert!(b.remove(&lea).await);
        assert_eq!(b.gql(ME, json!({})).await.status, 401);
    }
);

both!(a_workspace_invites_at_most_a_hundred_people_a_day, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let admin = person(&app, &ws, "admin@example.com", "Adam", Role::Admin).await;
    let a = signed_in(&app, &admin).await;
    let invite = "mutation($e: String!) { inviteMember(input: {email: $e, name: \"N\", role: \"viewer\"}) { userId } }";
    for i in 0..signet_accounts::people::team::INVITES_PER_DAY {
        let r = a
            .gql(invite, json!({"e": format!("p{i}@example.com")}))
            .await;
        data(&r);
    }
    let r = a.gql(invite, json!({"e": "one-more@example.com"})).await;
    assert_eq!(kind(&r), "rate_limited", "{}", r.body);
    // A day later, more.
    app.advance(std::time::Duration::from_secs(86_401));
    data(&a.gql(invite, json!({"e": "one-more@example.com"})).await);
});

type AppSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the subscription socket as the application's page does (its origin, the cookie)
/// and sends `connection_init` with `payload`; the socket once acknowledged, or None.
async fn app_socket(app: &TestApp, cookie: &str, payload: Value) -> Option<AppSocket> {
    app_socket_from(app, &app.base, cookie, payload).await
}

/// As [`app_socket`], with the upgrade's `Origin` set to `origin`.
async fn app_socket_from(
    app: &TestApp,
    origin: &str,
    cookie: &str,
    payload: Value,
) -> Option<AppSocket> {
    use futures_util::SinkExt;
    let url = format!("{}/graphql/ws", app.base.replacen("http", "ws", 1));
    let mut req = url.into_client_request().unwrap();
    let h = req.headers_mut();
    h.insert(
        "sec-websocket-protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    h.insert("cookie", cookie.parse().unwrap());
    h.insert("origin", origin.parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let init = json!({"type": "connection_init", "payload": payload}).to_string();
    socket.send(Message::Text(init.into())).await.unwrap();
    socket_message(&mut socket)
        .await
        .filter(|m| m["type"] == "connection_ack")
        .map(|_| socket)
}

async fn socket_message(socket: &mut AppSocket) -> Option<Value> {
    match tokio::time::timeout(std::time::Duration::from_secs(10), socket.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str(&t).ok(),
        _ => None,
    }
}

/// A person works on test or live documents as the application's switch says: GraphQL with
/// `X-Signet-Mode`, the subscription socket with its `mode`, and the document's files read
/// with the session; each mode's documents are unseen from the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_works_on_test_or_live_documents_as_the_switch_says() {
    use futures_util::SinkExt;
    let app = TestApp::start(crate::harness::Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let ada = person(&app, &ws, "ada@example.com", "Ada", Role::Member).await;
    let mut b = signed_in(&app, &ada).await;
    let input: Value = serde_json::from_str(&crate::documents::body(json!({}))).unwrap();
    let create = "mutation($i: DocumentCreateInput!) { createDocument(input: $i) { id test } }";
    let made = |a: &Answer| {
        let d = data(a)["createDocument"].clone();
        (d["id"].as_str().unwrap().to_string(), d["test"] == true)
    };
    b.mode = Some("test");
    let (test_id, test) = made(&b.gql(create, json!({"i": input})).await);
    assert!(test, "made in test mode");
    b.mode = Some("live");
    let (live_id, test) = made(&b.gql(create, json!({"i": input})).await);
    assert!(!test, "made in live mode");

    let listed = |a: Answer| -> Vec<String> {
        data(&a)["documents"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_str().unwrap().to_string())
            .collect()
    };
    let list = "{ documents { data { id } } }";
    b.mode = None;
    assert_eq!(
        listed(b.gql(list, json!({})).await),
        vec![live_id.clone()],
        "live without the header"
    );
    b.mode = Some("test");
    assert_eq!(listed(b.gql(list, json!({})).await), vec![test_id.clone()]);
    let one = "query($id: String!) { document(id: $id) { id } }";
    assert_eq!(
        kind(&b.gql(one, json!({"id": live_id})).await),
        "not_found",
        "a live document is not found in test mode"
    );

    // The document's files, with the session and the mode.
    let csv = format!("/app/v1/documents/{test_id}/audit-log.csv");
    let got = b.get(&csv).await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert!(got.header("content-type").starts_with("text/csv"));
    assert_eq!(got.header("cache-control"), "no-store");
    let text = got.body.as_str().unwrap();
    assert!(text.starts_with("time,event,"));
    assert!(
        text.contains("Draft created in the application"),
        "the trail says how the draft was made: {text}"
    );
    let pdf = b
        .get(&format!("/app/v1/documents/{test_id}/signed.pdf"))
        .await;
    assert_eq!(pdf.status, 404, "a draft has no signed copy yet");
    b.mode = None;
    assert_eq!(b.get(&csv).await.status, 404, "not in live mode");
    b.mode = Some("prod");
    let bad = b.get(&csv).await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        bad.body.to_string().contains("X-Signet-Mode"),
        "{}",
        bad.body
    );
    b.mode = Some("test");
    b.marked = false;
    assert_eq!(
        b.get(&csv).await.status,
        403,
        "only from the application's pages"
    );
    b.marked = true;
    let rest = b
        .get(&format!("/api/v1/documents/{test_id}/audit-log.csv"))
        .await;
    assert_eq!(rest.status, 401, "the API never reads the cookie");

    // The socket: the mode at connection_init, live without it.
    let cookie = b.cookie.clone().unwrap();
    let watch = |id: &str| {
        json!({"id": "1", "type": "subscribe", "payload": {
            "query": format!("subscription {{ documentStatus(id: \"{id}\") {{ id test }} }}")
        }})
        .to_string()
    };
    let mut socket = app_socket(&app, &cookie, json!({"mode": "test"}))
        .await
        .expect("acknowledged in test mode");
    socket
        .send(Message::Text(watch(&test_id).into()))
        .await
        .unwrap();
    let first = socket_message(&mut socket).await.unwrap();
    assert_eq!(
        first["payload"]["data"]["documentStatus"]["test"], true,
        "{first}"
    );
    let mut socket = app_socket(&app, &cookie, json!({})).await.unwrap();
    socket
        .send(Message::Text(watch(&test_id).into()))
        .await
        .unwrap();
    let first = socket_message(&mut socket).await.unwrap();
    assert!(
        first["payload"]["errors"].is_array() || first["type"] == "error",
        "a test document is not found live: {first}"
    );
    assert!(
        app_socket(&app, &cookie, json!({"mode": "prod"}))
            .await
            .is_none(),
        "a mode that is neither is refused"
    );
}
