//! Payments through Stripe Connect, against the Stripe stand-in (testkit/stripe/standin.py),
//! on both backend sets: connecting through onboarding, readiness kept from Stripe's events,
//! a document paid while signing through Checkout with the fee exactly 2% on Free and 0 on
//! Pro, formulas, prices, payment links and a zero-decimal currency, a declined card, an
//! expired Checkout, refunds and disputes, replayed, tampered and stale events, the receipt
//! email, the webhook and the sealed certificate.

use std::process::Command;

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::documents::source;
use crate::harness::{Kind, Options, TestApp, links, mails_to, page, signed_pdf, test_sign, until};
use crate::standin::Keys;

macro_rules! both_paid {
    ($name:ident, |$app:ident| $body:block) => {
        mod $name {
            use super::*;

            async fn run(kind: Kind) {
                let opts = Options {
                    stripe: true,
                    ..Options::default()
                };
                let Some($app) = TestApp::start_with(kind, opts).await else {
                    return;
                };
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                run(Kind::Sqlite).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_redis() {
                run(Kind::PostgresRedis).await
            }
        }
    };
}

const OWNER: &str = "owner@example.net";

/// The signing link of the invitation emailed last.
fn last_link(app: &TestApp) -> String {
    links(app)
        .into_iter()
        .rev()
        .find(|(to, _)| to == OWNER)
        .unwrap_or_else(|| {
            panic!(
                "an invitation: {:?}",
                crate::harness::mails(app)
                    .iter()
                    .map(|m| (&m.0, &m.1))
                    .collect::<Vec<_>>()
            )
        })
        .1
}

fn stripe(app: &TestApp) -> &Keys {
    app.stripe.as_ref().expect("an app with payments")
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A workspace on `plan` with a test key of every scope. Its test documents' emails go to
/// its sender address, `owner@example.net`.
async fn workspace(app: &TestApp, plan: Plan) -> String {
    let ws = app.workspace(plan).await;
    signet_accounts::workspaces::update(
        app.ctx(),
        &ws,
        signet_accounts::workspaces::WorkspacePatch {
            sender_email: Some(OWNER.into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    app.key(&ws, Mode::Test, &all).await
}

/// `POST /payments/connect` with `key`.
async fn connect_call(app: &TestApp, key: &str) -> crate::harness::Answer {
    app.call(reqwest::Method::POST, "/api/v1/payments/connect", key, None)
        .await
}

async fn status(app: &TestApp, key: &str) -> Value {
    let r = app.get("/api/v1/payments/status", Some(key)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// Connects the key's workspace through the stand-in's hosted onboarding; answers the
/// account once Stripe's event made it `connected`.
async fn connect(app: &TestApp, key: &str) -> String {
    let r = connect_call(app, key).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let url = r.body["url"].as_str().unwrap().to_string();
    let account = r.body["accountId"].as_str().unwrap().to_string();
    assert!(url.starts_with(&stripe(app).url), "{url}");
    // The person submits their details on Stripe's page and comes back to Settings.
    let page = no_redirects().get(&url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let back = no_redirects()
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(crate::standin::encoded(&[("state", "complete")]))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), 303);
    let location = back.headers()["location"].to_str().unwrap();
    assert_eq!(location, format!("{}/app/settings?payments=back", app.base));
    until("the account's readiness from Stripe's event", || async {
        (status(app, key).await["status"] == "connected").then_some(())
    })
    .await;
    account
}

/// A document of a connected workspace on `plan` where the client pays with `payment`, sent,
/// and the client's signing link, the client having consented: its key, id and link.
async fn paid_document(app: &TestApp, plan: Plan, payment: Value) -> (String, String, String) {
    let key = workspace(app, plan).await;
    connect(app, &key).await;
    let id = send(app, &key, paying(payment, vec![])).await;
    let token = last_link(app);
    client_view(app, &token).await;
    (key, id, token)
}

/// A two-party agreement where the client pays with `payment` (the tag's attributes).
fn paying(payment: Value, extra_fields: Vec<Value>) -> Value {
    let mut src = source();
    let line = src["content"][5]["content"].as_array_mut().unwrap();
    line.extend(extra_fields);
    let mut tag =
        json!({"name": "Deposit", "type": "payment", "role": "client", "description": "Deposit"});
    for (k, v) in payment.as_object().unwrap() {
        tag[k] = v.clone();
    }
    line.push(json!({"type": "fieldTag", "attrs": tag}));
    src
}

fn invitations(app: &TestApp) -> usize {
    links(app).iter().filter(|(to, _)| to == OWNER).count()
}

/// Sends a document with `src` at once; answers its id once its invitation is out.
async fn send(app: &TestApp, key: &str, src: Value) -> String {
    let before = invitations(app);
    // In order: the client (who pays) is invited first, and is the one test invitation.
    let r = crate::documents::create(
        app,
        key,
        json!({"source": src, "sendNow": true, "send": {"signingOrder": true}}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap().to_string();
    // The invitation waits for the pages; the app's own workers draw them.
    until("the invitation", || async {
        app.run_pending_jobs().await;
        (invitations(app) > before).then_some(())
    })
    .await;
    id
}

/// The client's view, having consented.
async fn client_view(app: &TestApp, token: &str) -> Value {
    let (s, view) = page(app, "GET", "/page/v1/view", token, None).await;
    assert_eq!(s, 200, "{view}");
    if !view["consent"].is_null() {
        let shown = &view["consent"];
        let (s, e) = page(
            app,
            "POST",
            "/page/v1/consent",
            token,
            Some(json!({"version": shown["version"], "sha256": shown["sha256"]})),
        )
        .await;
        assert_eq!(s, 200, "{e}");
    }
    page(app, "GET", "/page/v1/view", token, None).await.1
}

fn payment_field(view: &Value) -> Value {
    view["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["type"] == "payment")
        .cloned()
        .unwrap_or_else(|| panic!("a payment field: {view}"))
}

/// Pays the Checkout at `url` on the stand-in's hosted page with `card`: the status, and
/// where the page sends the person.
async fn pay_page(url: &str, card: &str) -> (u16, String) {
    let r = no_redirects()
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(crate::standin::encoded(&[
            ("card", card),
            ("action", "pay"),
        ]))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let to = r
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, to)
}

async fn document(app: &TestApp, key: &str, id: &str) -> Value {
    let r = app.get(&format!("/api/v1/documents/{id}"), Some(key)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// Waits until the document's first payment is `want`, as Stripe's events say.
async fn payment_becomes(app: &TestApp, key: &str, id: &str, want: &str) -> Value {
    until(&format!("the payment to be {want}"), || async {
        let d = document(app, key, id).await;
        let p = d["payments"][0].clone();
        (p["status"] == want).then_some(p)
    })
    .await
}

async fn audit_events(app: &TestApp, id: &str) -> Vec<String> {
    crate::documents::audit_chain(app, id).await
}

/// Signs the client's fields (not the payment: it is filled in by paying).
async fn sign_client(app: &TestApp, token: &str, values: Value) -> (u16, Value) {
    let view = client_view(app, token).await;
    let mut all = crate::harness::values_for(&view["fields"]);
    for (k, v) in values.as_object().unwrap() {
        all[k] = v.clone();
    }
    page(
        app,
        "POST",
        "/page/v1/sign",
        token,
        Some(json!({"values": all})),
    )
    .await
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext")
        .args(["-layout", path.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

both_paid!(
    a_workspace_connects_through_onboarding_and_readiness_follows_stripe,
    |app| {
        let key = workspace(&app, Plan::Free).await;
        let before = status(&app, &key).await;
        assert_eq!(before["status"], "not_connected");
        assert_eq!(before["available"], true);
        assert_eq!(before["feePercent"], 2);
        assert_eq!(before["mode"], "test");
        let account = connect(&app, &key).await;
        // Asking again links the same account, no second one.
        let again = connect_call(&app, &key).await;
        assert_eq!(again.body["accountId"], account.as_str());
        // Stripe asks for more: needs_attention, with what is due; a send with a payment waits.
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/accounts/{account}/onboard"),
                json!({"state": "needs_info"}),
            )
            .await;
        let now = until("needs_attention", || async {
            let s = status(&app, &key).await;
            (s["status"] == "needs_attention").then_some(s)
        })
        .await;
        assert_eq!(now["due"], json!(["individual.verification.document"]));
        let refused = crate::documents::create(
            &app,
            &key,
            json!({"source": paying(json!({"amount": "10.00"}), vec![]), "sendNow": true}),
        )
        .await;
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert!(
            refused.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("says needs_attention")
        );
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/accounts/{account}/onboard"),
                json!({"state": "complete"}),
            )
            .await;
        until("connected again", || async {
            (status(&app, &key).await["status"] == "connected").then_some(())
        })
        .await;
        // A member's key without money:write cannot connect or disconnect.
        let ws = app.actor(&key).await.workspace_id.to_string();
        let reader = app.key(&ws, Mode::Test, &["money:read"]).await;
        let no = connect_call(&app, &reader).await;
        assert_eq!(no.status, 401, "{}", no.body);
        // Live mode is another account, not connected.
        let live = app.key(&ws, Mode::Live, &["money:read"]).await;
        assert_eq!(status(&app, &live).await["status"], "not_connected");
        // Disconnecting forgets the account.
        let gone = app
            .call(
                reqwest::Method::DELETE,
                "/api/v1/payments/connect",
                &key,
                None,
            )
            .await;
        assert_eq!(gone.status, 200, "{}", gone.body);
        assert_eq!(gone.body["status"], "not_connected");
    }
);

both_paid!(
    a_signer_pays_through_checkout_and_the_record_shows_it,
    |app| {
        let (key, id, token) = paid_document(
            &app,
            Plan::Free,
            json!({"amount": "250.00", "currency": "EUR"}),
        )
        .await;
        // A payment seat cannot be test-signed.
        let ts = app
            .post(
                &format!("/api/v1/documents/{id}/test-sign"),
                &key,
                &[],
                &json!({"seat": "client"}).to_string(),
            )
            .await;
        assert_eq!(ts.status, 403, "{}", ts.body);
        let view = client_view(&app, &token).await;
        let field = payment_field(&view);
        assert_eq!(field["payment"]["amount"], 25000);
        assert_eq!(field["payment"]["currency"], "eur");
        assert_eq!(field["payment"]["status"], "due");
        assert_eq!(field["editable"], false);
        // Signing waits for the payment; the page cannot fill the field itself.
        let (s, e) = sign_client(&app, &token, json!({})).await;
        assert_eq!(s, 409, "{e}");
        let forged = json!({ field["id"].as_str().unwrap(): "paid" });
        let (s, e) = sign_client(&app, &token, forged).await;
        assert_eq!(s, 400, "{e}");
        // Paying opens Checkout on the workspace's account with the 2% fee; asking again gives
        // the same page.
        let (s, pay) = page(&app, "POST", "/page/v1/pay", &token, Some(json!({}))).await;
        assert_eq!(s, 200, "{pay}");
        assert_eq!(
            (pay["amount"].as_i64(), pay["currency"].as_str()),
            (Some(25000), Some("eur"))
        );
        let (_, again) = page(&app, "POST", "/page/v1/pay", &token, Some(json!({}))).await;
        assert_eq!(again["url"], pay["url"]);
        let url = pay["url"].as_str().unwrap();
        let cs = url.rsplit('/').next().unwrap();
        let session = stripe(&app)
            .api(
                "GET",
                &format!("/v1/checkout/sessions/{cs}"),
                &[],
                Some(&connected_account(&app, &key).await),
            )
            .await;
        assert_eq!(session["amount_total"], 25000);
        // A declined card changes nothing: the session stays open, nobody is charged.
        let (s, _) = pay_page(url, "4000000000000002").await;
        assert_eq!(s, 402);
        let d = document(&app, &key, &id).await;
        assert_eq!(d["payments"][0]["status"], "open");
        // The test card pays; the person comes back to their signing page, and only Stripe's
        // signed event makes it paid.
        let (s, to) = pay_page(url, "4242424242424242").await;
        assert_eq!(s, 303);
        // Back to the page without the link: the processor never sees it.
        assert_eq!(to, format!("{}/s/back?payment=done", app.base));
        assert!(
            !session.to_string().contains(&token),
            "the link went to the processor"
        );
        let p = payment_becomes(&app, &key, &id, "paid").await;
        assert_eq!(p["amount"], 25000);
        assert_eq!(p["fee"], 500, "2% of 250.00 EUR on Free");
        assert_eq!(p["seat"], "client");
        assert!(p["receiptUrl"].as_str().unwrap().starts_with("http"));
        let receipt = p["receiptNumber"].as_str().unwrap().to_string();
        let view = client_view(&app, &token).await;
        assert_eq!(payment_field(&view)["payment"]["status"], "paid");
        let (s, e) = sign_client(&app, &token, json!({})).await;
        assert_eq!(s, 200, "{e}");
        // One payment, one receipt, one webhook, whatever is replayed.
        let events = stripe(&app)
            .control("GET", "/_test/events", json!({}))
            .await;
        let completed = events
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "checkout.session.completed" && e["data"]["object"]["id"] == cs)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/events/{completed}/resend"),
                json!({}),
            )
            .await;
        app.run_pending_jobs().await;
        let receipts = until("the receipt", || async {
            app.run_pending_jobs().await;
            let m: Vec<_> = mails_to(&app, OWNER)
                .into_iter()
                .filter(|(s, _)| s.contains("Receipt"))
                .collect();
            (!m.is_empty()).then_some(m)
        })
        .await;
        assert_eq!(receipts.len(), 1, "{receipts:?}");
        assert!(receipts[0].0.contains("250.00 EUR"), "{:?}", receipts[0]);
        let trail = audit_events(&app, &id).await;
        assert_eq!(
            trail.iter().filter(|e| *e == "payment_paid").count(),
            1,
            "{trail:?}"
        );
        let hooks = outbox_topics(&app, &id).await;
        assert_eq!(
            hooks
                .iter()
                .filter(|t| *t == "documents.payment.updated")
                .count(),
            1,
            "{hooks:?}"
        );
        // Refunds and disputes made at Stripe show up as the payment's status.
        let charge = charge_of(&app, &key, &id).await;
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/charges/{charge}/refund"),
                json!({"amount": 5000}),
            )
            .await;
        let p = payment_becomes(&app, &key, &id, "partially_refunded").await;
        assert_eq!(p["refunded"], 5000);
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/charges/{charge}/dispute"),
                json!({}),
            )
            .await;
        payment_becomes(&app, &key, &id, "disputed").await;
        // The first event again, now out of order: Stripe is asked, and it is still disputed.
        stripe(&app)
            .control(
                "POST",
                &format!("/_test/events/{completed}/resend"),
                json!({}),
            )
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(
            document(&app, &key, &id).await["payments"][0]["status"],
            "disputed"
        );
        let trail = audit_events(&app, &id).await;
        assert_eq!(
            trail.iter().filter(|e| *e == "payment_paid").count(),
            1,
            "{trail:?}"
        );
        // The provider signs; the certificate of the sealed copy shows the payment.
        test_sign(&app, &key, &id, &["provider"]).await;
        let text = pdf_text(&signed_pdf(&app, &key, &id).await);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("250.00 EUR paid through Stripe"), "{flat}");
        assert!(flat.contains(&format!("receipt {receipt}")), "{flat}");
        assert!(flat.contains("service fee 5.00 EUR"), "{flat}");
    }
);

both_paid!(
    formulas_prices_links_and_yen_are_worked_out_by_the_server,
    |app| {
        // Pro: no fee. Yen have no minor unit. The formula reads the client's own number.
        let key = workspace(&app, Plan::Pro).await;
        let account = connect(&app, &key).await;
        let seats = json!({"type": "fieldTag", "attrs": {"name": "Seats", "type": "number", "role": "client"}});
        let id = send(
            &app,
            &key,
            paying(
                json!({"formula": "Seats * 1500", "currency": "JPY"}),
                vec![seats],
            ),
        )
        .await;
        let token = last_link(&app);
        let view = client_view(&app, &token).await;
        let seats_id = view["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "Seats")
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(payment_field(&view)["payment"]["amount"].is_null());
        assert_eq!(payment_field(&view)["payment"]["decimals"], 0);
        let (s, e) = page(
            &app,
            "POST",
            "/page/v1/pay",
            &token,
            Some(json!({"values": {}})),
        )
        .await;
        assert_eq!(s, 400, "the number is needed: {e}");
        let (s, pay) = page(
            &app,
            "POST",
            "/page/v1/pay",
            &token,
            Some(json!({"values": {&seats_id: "3"}})),
        )
        .await;
        assert_eq!(s, 200, "{pay}");
        assert_eq!(
            (pay["amount"].as_i64(), pay["currency"].as_str()),
            (Some(4500), Some("jpy"))
        );
        // Another number: the first Checkout is ended at Stripe and another opened.
        let (_, other) = page(
            &app,
            "POST",
            "/page/v1/pay",
            &token,
            Some(json!({"values": {&seats_id: "2"}})),
        )
        .await;
        assert_eq!(other["amount"], 3000);
        assert_ne!(other["url"], pay["url"]);
        let (s, _) = pay_page(pay["url"].as_str().unwrap(), "4242424242424242").await;
        assert_eq!(s, 400, "the replaced Checkout cannot be paid");
        let (s, _) = pay_page(other["url"].as_str().unwrap(), "4242424242424242").await;
        assert_eq!(s, 303);
        let p = payment_becomes(&app, &key, &id, "paid").await;
        assert_eq!(
            (p["amount"].as_i64(), p["fee"].as_i64()),
            (Some(3000), Some(0))
        );
        assert_eq!(
            document(&app, &key, &id).await["payments"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        // The number the amount was worked out from cannot change after paying.
        let (s, e) = sign_client(&app, &token, json!({&seats_id: "5"})).await;
        assert_eq!(s, 400, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("was 2 when you paid"),
            "{e}"
        );
        let (s, e) = sign_client(&app, &token, json!({&seats_id: "2"})).await;
        assert_eq!(s, 200, "{e}");

        // A price of the connected account, and a payment link of two of it; Free's fee.
        let free = workspace(&app, Plan::Free).await;
        let acct = connect(&app, &free).await;
        assert_ne!(acct, account);
        let price = stripe(&app)
            .api(
                "POST",
                "/v1/prices",
                &[("currency", "usd"), ("unit_amount", "1999")],
                Some(&acct),
            )
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let link = stripe(&app)
            .api(
                "POST",
                "/v1/payment_links",
                &[
                    ("line_items[0][price]", &price),
                    ("line_items[0][quantity]", "2"),
                ],
                Some(&acct),
            )
            .await["url"]
            .as_str()
            .unwrap()
            .to_string();
        for (attrs, amount, fee) in [
            (json!({"price": price}), 1999, 40),
            (json!({"link": link}), 3998, 80),
        ] {
            let id = send(&app, &free, paying(attrs.clone(), vec![])).await;
            let token = last_link(&app);
            client_view(&app, &token).await;
            let (s, pay) = page(&app, "POST", "/page/v1/pay", &token, Some(json!({}))).await;
            assert_eq!(s, 200, "{attrs}: {pay}");
            assert_eq!(pay["amount"], amount, "{attrs}");
            let (s, _) = pay_page(pay["url"].as_str().unwrap(), "4242424242424242").await;
            assert_eq!(s, 303);
            let p = payment_becomes(&app, &free, &id, "paid").await;
            assert_eq!(p["fee"], fee, "{attrs}");
        }
    }
);

both_paid!(
    an_expired_checkout_and_forged_or_stale_events_change_nothing,
    |app| {
        let (key, id, token) = paid_document(
            &app,
            Plan::Free,
            json!({"amount": "12.00", "currency": "usd"}),
        )
        .await;
        let (s, pay) = page(&app, "POST", "/page/v1/pay", &token, Some(json!({}))).await;
        assert_eq!(s, 200, "{pay}");
        let cs = pay["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        // The person leaves Checkout; later it expires at Stripe.
        stripe(&app)
            .control("POST", &format!("/_test/checkout/{cs}/abandon"), json!({}))
            .await;
        stripe(&app)
            .control("POST", &format!("/_test/checkout/{cs}/expire"), json!({}))
            .await;
        payment_becomes(&app, &key, &id, "expired").await;
        // Coming back opens a new Checkout, paid once.
        let (_, next) = page(&app, "POST", "/page/v1/pay", &token, Some(json!({}))).await;
        assert_ne!(next["url"], pay["url"]);
        let account = connected_account(&app, &key).await;
        let events = stripe(&app)
            .control("GET", "/_test/events", json!({}))
            .await;
        let expired = events
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "checkout.session.expired" && e["account"] == account.as_str())
            .unwrap()
            .clone();
        let body = serde_json::to_vec(&expired).unwrap();
        let secret = &stripe(&app).test_hook;
        let now = app.ctx().now() / 1000;
        let hook = |sig: String, body: Vec<u8>| {
            let app = &app;
            async move {
                app.client
                    .post(format!("{}/hooks/stripe", app.base))
                    .header("Stripe-Signature", sig)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        };
        // Signed right: accepted (and changes nothing, it was applied).
        assert_eq!(hook(sign(secret, now, &body), body.clone()).await, 200);
        // Tampered, signed with another secret, or older than five minutes: refused.
        let mut tampered = expired.clone();
        tampered["data"]["object"]["status"] = json!("complete");
        let forged = serde_json::to_vec(&tampered).unwrap();
        assert_eq!(hook(sign(secret, now, &body), forged).await, 400);
        assert_eq!(
            hook(sign("whsec_not_ours", now, &body), body.clone()).await,
            400
        );
        assert_eq!(
            hook(sign(secret, now - 600, &body), body.clone()).await,
            400
        );
        // A live secret's signature over a test event: refused.
        assert_eq!(
            hook(sign(&stripe(&app).live_hook, now, &body), body.clone()).await,
            400
        );
        // A made-up event signed right names a payment: it is read again from Stripe, which
        // says it is open, so nothing is paid.
        let fake = json!({"id": "evt_madeup", "object": "event", "type": "checkout.session.completed",
            "livemode": false, "account": expired["account"], "created": now,
            "data": {"object": {"id": next["url"].as_str().unwrap().rsplit('/').next().unwrap(),
                "object": "checkout.session", "status": "complete", "payment_status": "paid",
                "metadata": expired["data"]["object"]["metadata"], "client_reference_id": null}}});
        let fake_body = serde_json::to_vec(&fake).unwrap();
        let expired_id = expired["data"]["object"]["metadata"]["signet_payment"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(hook(sign(secret, now, &fake_body), fake_body).await, 200);
        let d = document(&app, &key, &id).await;
        let statuses: Vec<&str> = d["payments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["expired", "open"], "{d}");
        assert_eq!(d["payments"][0]["id"], expired_id.as_str());
        let (s, _) = sign_client(&app, &token, json!({})).await;
        assert_eq!(s, 409);
    }
);

/// `Stripe-Signature` as Stripe makes it.
fn sign(secret: &str, t: i64, body: &[u8]) -> String {
    use ring::hmac;
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut signed = format!("{t}.").into_bytes();
    signed.extend_from_slice(body);
    let tag = hmac::sign(&key, &signed);
    let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    format!("t={t},v1={hex}")
}

async fn connected_account(app: &TestApp, key: &str) -> String {
    status(app, key).await["accountId"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn charge_of(app: &TestApp, key: &str, id: &str) -> String {
    use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};
    let _ = key;
    let db = &app.ctx().db;
    let row = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT charge_id FROM payments WHERE document_id = $1 AND charge_id IS NOT NULL",
            [Sql::from(id)],
        ))
        .await
        .unwrap()
        .expect("a charge");
    row.try_get("", "charge_id").unwrap()
}

async fn outbox_topics(app: &TestApp, id: &str) -> Vec<String> {
    use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};
    let db = &app.ctx().db;
    let rows = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT payload FROM outbox WHERE kind = 'event' AND document_id = $1",
            [Sql::from(id)],
        ))
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            let p: Value =
                serde_json::from_str(&r.try_get::<String>("", "payload").unwrap()).unwrap();
            p["type"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// Stripe's real test mode, when `STRIPE_TEST_SECRET_KEY` (a platform's `sk_test_…` with
/// Connect on) is in the environment. No machine of this project reaches Stripe, so it does
/// not run in CI: it says so and passes. With a key, Signet makes a real connected account and
/// an onboarding link through Stripe's API, refuses a payment document while the account is
/// not onboarded, and forgets the account again. (Events cannot reach a test server without a
/// public address; the stand-in's tests cover what follows them.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_stripe_test_mode_when_a_key_is_given() {
    let Some(secret) = std::env::var("STRIPE_TEST_SECRET_KEY")
        .ok()
        .filter(|k| k.starts_with("sk_test_"))
    else {
        eprintln!("STRIPE_TEST_SECRET_KEY is not set: Stripe's real test mode is not tried");
        return;
    };
    let opts = Options {
        stripe_real_test_key: Some(secret),
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let key = workspace(&app, Plan::Free).await;
    let r = connect_call(&app, &key).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body["url"]
            .as_str()
            .unwrap()
            .starts_with("https://connect.stripe.com/"),
        "{}",
        r.body
    );
    assert!(r.body["accountId"].as_str().unwrap().starts_with("acct_"));
    assert_eq!(status(&app, &key).await["status"], "needs_attention");
    let refused = crate::documents::create(
        &app,
        &key,
        json!({"source": paying(json!({"amount": "10.00"}), vec![]), "sendNow": true}),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let gone = app
        .call(
            reqwest::Method::DELETE,
            "/api/v1/payments/connect",
            &key,
            None,
        )
        .await;
    assert_eq!(gone.body["status"], "not_connected");
}

/// Stripe unreachable: connecting is a `dependency` error the caller may retry, and nothing is
/// kept half-made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stripe_unreachable_is_a_retryable_dependency_error() {
    let opts = Options {
        stripe: true,
        stripe_api_base: Some("http://127.0.0.1:9".into()),
        ..Options::default()
    };
    let Some(app) = TestApp::start_with(Kind::Sqlite, opts).await else {
        return;
    };
    let key = workspace(&app, Plan::Free).await;
    let r = connect_call(&app, &key).await;
    assert_eq!(r.status, 502, "{}", r.body);
    assert_eq!(r.body["error"]["kind"], "dependency");
    assert_eq!(r.body["error"]["retryable"], true);
    assert_eq!(status(&app, &key).await["status"], "not_connected");
}
