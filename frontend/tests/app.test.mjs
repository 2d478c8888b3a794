// The application in a real browser (Debian's chromium through playwright-core) against
// `signet serve` sending its email over SMTP to a local server: the first owner, made with
// `signet admin`, asks for a sign-in link, receives it, opens it and signs in; invites a
// person (who receives the invitation in French), changes and removes them; reads the
// activity record and their sessions; switches workspace; the same screens on a 375-pixel
// phone and in Arabic (right to left); a viewer sees only what a viewer may, and the server
// refuses the rest when asked directly; a passkey registered with Chromium's virtual
// authenticator signs its person in; an admin makes a live key in Developers, uses it with a
// plain HTTP client, and finds a failed request in the API log by the id of its answer; adds
// a webhook endpoint on a local receiver, sees a document's delivery and delivers it again;
// rewords a reminder beside its preview and lifts a real bounce's suppression. axe-core
// (WCAG 2.1 AA) on every screen. Screenshots go to docs/app/ with SCREENSHOTS=1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { mkdtempSync, existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join } from "node:path";
import { axe, cleanEnv, freePort, launch, mailed, serve, shot, smtpSink } from "./support.mjs";

const here = new URL(".", import.meta.url).pathname;
const root = join(here, "..", "..");
const shots = process.env.SCREENSHOTS === "1" ? join(root, "docs", "app") : mkdtempSync(join(tmpdir(), "signet-app-shots-"));
const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache", "signet-target");
const BIN = process.env.BROWSER_TEST_SIGNET ?? join(target, "debug", "signet");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

let server, base, data, browser, sink, acme, beacon;

const cli = (args) => execFileSync(BIN, args, { env: { ...cleanEnv, SIGNET_DATA_DIR: data, SIGNET_PUBLIC_URL: base }, encoding: "utf8" });
const json = (args) => JSON.parse(cli([...args, "--json"]));

before(async () => {
  assert.ok(existsSync(BIN), `the signet binary is built: ${BIN}`);
  assert.ok(existsSync(CHROMIUM), `chromium is installed: ${CHROMIUM}`);
  data = mkdtempSync(join(tmpdir(), "signet-app-"));
  const port = await freePort();
  // A host name, not an address: WebAuthn refuses IP addresses as the relying party.
  base = `http://localhost:${port}`;
  sink = await smtpSink();
  acme = json(["admin", "workspace", "create", "--name", "Acme Lettings", "--plan", "pro"]).id;
  beacon = json(["admin", "workspace", "create", "--name", "Beacon Legal", "--plan", "free"]).id;
  // The first owner of the installation comes from the command line.
  json(["admin", "person", "add", "--workspace", acme, "--email", "olga@example.com", "--name", "Olga Owner", "--role", "owner"]);
  json(["admin", "person", "add", "--workspace", beacon, "--email", "olga@example.com", "--name", "Olga Owner", "--role", "admin"]);
  json(["admin", "person", "add", "--workspace", acme, "--email", "vic@example.com", "--name", "Vic Viewer", "--role", "viewer"]);
  json(["admin", "person", "add", "--workspace", acme, "--email", "pia@example.com", "--name", "Pia Passkey", "--role", "member"]);
  json(["admin", "person", "add", "--workspace", acme, "--email", "dora@example.com", "--name", "Dora Admin", "--role", "admin"]);
  // The receiver of the webhook test is a local http server: allowed for tests only.
  server = await serve(BIN, data, base, {
    SIGNET_SMTP_URL: `smtp://127.0.0.1:${sink.port}`, SIGNET_WEBHOOKS_ALLOW_PRIVATE: "true", SIGNET_WEBHOOKS_ALLOW_HTTP: "true",
  });
  browser = await launch(CHROMIUM);
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
  sink?.close();
  await new Promise((r) => setTimeout(r, 300));
  if (data) rmSync(data, { recursive: true, force: true });
});

/** A page that fails the test on any script error or failed request (but the 401 of a
 * signed-out `me`, which sends the page to sign in). */
async function open(viewport = { width: 1280, height: 900 }, locale = "en-GB") {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && !(r.status() === 401 && r.url().endsWith("/graphql")) && errors.push(`${r.status()} ${r.url()}`));
  return { context, page, errors };
}

/** Signs in with a link printed by `signet admin` (the operator's way in). */
async function signInByCli(page, email) {
  const { url } = json(["admin", "person", "sign-in-link", "--email", email]);
  await page.goto(url);
  // The link's one button, whatever the browser's language.
  await page.locator("main button.primary").click();
  await page.waitForURL(`${base}/app`);
}

test("the first owner signs in from the emailed link, runs the people and switches workspace", async () => {
  const { page, errors } = await open();
  await page.goto(`${base}/app`);
  // Nobody signed in: the page asks for an address.
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/app/sign-in");
  await axe(page, "sign in");
  await shot(page, shots, "1-sign-in");
  await page.getByLabel("Email address").fill("olga@example.com");
  await page.getByRole("button", { name: "Email me a link" }).click();
  await page.getByRole("status").filter({ hasText: "sign-in link is on its way" }).waitFor();
  await axe(page, "link sent");

  // The link arrives over SMTP; opening it changes nothing until its button is pressed.
  const token = await mailed(sink, "olga@example.com", /\/app\/sign-in#([A-Za-z0-9_-]{43})/);
  await page.goto(`${base}/app/sign-in#${token}`);
  await page.getByRole("heading", { name: "Finish signing in" }).waitFor();
  await axe(page, "the link's page");
  await shot(page, shots, "2-link");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Documents first, for whoever may read them.
  await page.getByRole("heading", { name: "Documents" }).waitFor();
  // The token left the address bar.
  assert.equal(page.url(), `${base}/app`);
  await page.getByRole("link", { name: "People" }).click();
  await page.getByRole("heading", { name: "People" }).waitFor();
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "signet-session");
  assert.ok(session?.httpOnly, JSON.stringify(cookies));
  assert.equal(session.sameSite, "Lax");
  assert.equal(await page.evaluate(() => document.cookie), "", "the page cannot read the session");

  // Invite someone, in French.
  await page.getByLabel("Email address").fill("fleur@example.com");
  await page.getByLabel("Name", { exact: true }).fill("Fleur Membre");
  await page.getByLabel("Role", { exact: true }).selectOption("member");
  await page.getByLabel("Their language").selectOption("fr");
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await page.getByRole("status").filter({ hasText: "fleur@example.com is a member now" }).waitFor();
  const row = page.getByRole("row").filter({ hasText: "fleur@example.com" });
  await row.waitFor();
  await axe(page, "people");
  await shot(page, shots, "3-people");
  const invitation = await mailed(sink, "fleur@example.com", /(Olga Owner vous invite dans Acme Lettings)/);
  assert.ok(invitation);
  await mailed(sink, "fleur@example.com", /\/app\/sign-in#([A-Za-z0-9_-]{43})/);

  // Change the role, then remove, through the confirmation dialog.
  await row.getByLabel("Role of Fleur Membre").selectOption("viewer");
  await page.getByRole("status").filter({ hasText: "Fleur Membre is now Viewer." }).waitFor();
  await row.getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove Fleur Membre?" });
  await dialog.waitFor();
  await axe(page, "the remove dialog");
  await shot(page, shots, "4-remove");
  await dialog.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("status").filter({ hasText: "Fleur Membre was removed." }).waitFor();
  // The list is read again after the notice: wait for the row to go, rather than count at once.
  await page.getByRole("row").filter({ hasText: "fleur@example.com" }).waitFor({ state: "detached" });

  // The record says who did it.
  await page.getByRole("link", { name: "Activity" }).click();
  await page.getByRole("heading", { name: "Activity" }).waitFor();
  await page.getByRole("cell", { name: "invited fleur@example.com (Member)" }).waitFor();
  await page.getByRole("cell", { name: "changed the role of fleur@example.com (Member → Viewer)" }).waitFor();
  assert.ok(await page.getByRole("cell", { name: "Olga Owner" }).first().isVisible());
  await axe(page, "activity");
  await shot(page, shots, "5-activity");

  // Their sessions.
  await page.getByRole("link", { name: "Your account" }).click();
  await page.getByRole("heading", { name: "Where you are signed in" }).waitFor();
  await page.getByText("This browser").waitFor();
  await axe(page, "account");
  await shot(page, shots, "6-account");

  // Another workspace, where Olga is an admin.
  await page.getByLabel("Workspace").selectOption(beacon);
  await page.waitForURL(`${base}/app`);
  await page.getByRole("link", { name: "People" }).click();
  await page.getByRole("heading", { name: "People" }).waitFor();
  assert.equal(await page.getByLabel("Workspace").inputValue(), beacon);
  // An admin cannot make owners: the choice is not offered (and the server refuses it).
  const roles = await page.getByLabel("Role", { exact: true }).locator("option").allTextContents();
  assert.deepEqual(roles, ["Admin", "Member", "Viewer"]);
  assert.deepEqual(errors, []);
});

test("the screens on a phone and in Arabic, right to left", async () => {
  for (const [viewport, suffix] of [[{ width: 375, height: 812 }, "phone"], [{ width: 1280, height: 900 }, "wide"]]) {
    const { page, errors, context } = await open(viewport, "ar");
    // Before anyone is known, the browser's language.
    await page.goto(`${base}/app/sign-in`);
    await page.getByRole("heading", { name: "تسجيل الدخول" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
    await axe(page, `sign in, Arabic, ${suffix}`);
    await shot(page, shots, `ar-sign-in-${suffix}`);
    await signInByCli(page, "olga@example.com");
    await page.goto(`${base}/app/people`);
    await page.getByRole("heading", { name: "الأشخاص" }).or(page.getByRole("heading", { name: "People" })).waitFor();
    if (suffix === "phone") {
      await axe(page, "people, phone");
      await shot(page, shots, "phone-people");
      // On a phone the screens are behind the menu button, which says where one is.
      assert.equal(await page.getByRole("link", { name: "Your account" }).isVisible(), false);
      const menu = page.getByRole("button", { name: /^(Menu|القائمة): / });
      assert.equal(await menu.getAttribute("aria-expanded"), "false");
      await menu.click();
      await axe(page, "the menu open, phone");
      await shot(page, shots, "phone-menu");
      // Olga chooses Arabic for herself.
      await page.getByRole("link", { name: "Your account" }).click();
      assert.equal(await menu.getAttribute("aria-expanded"), "false", "opening a screen closes the menu");
      await page.getByLabel("Language").selectOption("ar");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "تم الحفظ." }).waitFor();
      await axe(page, "account, Arabic, phone");
      await shot(page, shots, "ar-account-phone");
      await menu.click();
      await page.getByRole("link", { name: "الأشخاص" }).click();
    }
    await page.getByRole("heading", { name: "الأشخاص" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await axe(page, `people, Arabic, ${suffix}`);
    await shot(page, shots, `ar-people-${suffix}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a viewer sees only what a viewer may, and the server refuses the rest", async () => {
  const { page, errors } = await open();
  await signInByCli(page, "vic@example.com");
  await page.getByRole("heading", { name: "Documents" }).waitFor();
  const nav = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
  assert.deepEqual(nav, ["Documents", "Templates", "Approvals", "Your account"]);
  // Reading, not making: no new document, no upload.
  assert.equal(await page.getByRole("link", { name: "New document" }).count(), 0);
  await page.getByRole("link", { name: "Templates" }).click();
  await page.getByRole("heading", { name: "Templates" }).waitFor();
  assert.equal(await page.getByRole("heading", { name: "A template from a file" }).count(), 0);
  await page.getByRole("link", { name: "Your account" }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor();
  // Asked directly, with the viewer's own session, the server says no.
  const answer = await page.evaluate(async () => {
    const res = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signet-session": "1" },
      body: JSON.stringify({ query: "mutation { inviteMember(input: {email: \"x@example.com\", name: \"X\", role: \"admin\"}) { role } }" }),
    });
    return res.json();
  });
  assert.equal(answer.errors[0].extensions.kind, "forbidden", JSON.stringify(answer));
  await axe(page, "a viewer's account");
  assert.deepEqual(errors, []);
});

test("a person registers a passkey with Chromium's virtual authenticator and signs in with it", async () => {
  const { page, context, errors } = await open();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await signInByCli(page, "pia@example.com");
  await page.goto(`${base}/app/account`);
  await page.getByRole("heading", { name: "Your account" }).waitFor();
  await page.getByText("No passkey yet.").waitFor();
  await page.getByLabel("Name of the new passkey").fill("Laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByRole("status").filter({ hasText: "The passkey Laptop is added." }).waitFor();
  await page.getByRole("cell", { name: "Laptop" }).waitFor();
  await page.getByRole("cell", { name: "ES256" }).waitFor();
  await axe(page, "passkeys");
  await shot(page, shots, "7-passkeys");

  // Signed out, the passkey alone signs Pia in again: no email.
  const before = sink.messages.filter((m) => m.to.includes("pia@example.com")).length;
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL(`${base}/app`);
  await page.getByRole("link", { name: "Your account" }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor();
  const used = page.getByRole("row").filter({ hasText: "Laptop" });
  assert.notEqual(await used.getByRole("cell").nth(3).textContent(), "—", "the passkey's last use is shown");
  assert.equal(sink.messages.filter((m) => m.to.includes("pia@example.com")).length, before);

  // Removed, it signs nobody in.
  await used.getByRole("button", { name: "Remove" }).click();
  await page.getByText("No passkey yet.").waitFor();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.getByRole("alert").filter({ hasText: "The passkey did not sign you in." }).waitFor();
  assert.deepEqual(errors.filter((e) => !e.includes("/app/v1/passkey/sign-in")), []);
});

test("an admin makes a live key, uses it, and finds a failed request in the API log", async () => {
  const { page, errors } = await open();
  await signInByCli(page, "dora@example.com");
  await page.getByRole("link", { name: "Developers" }).click();
  await page.getByRole("heading", { name: "Developers", level: 1 }).waitFor();
  await page.getByLabel("Name", { exact: true }).fill("Billing system");
  await page.getByLabel("Mode").selectOption("live");
  await page.getByLabel("Requests a minute (optional)").fill("60");
  await page.getByRole("button", { name: "Make the key" }).click();
  await page.getByRole("heading", { name: "Copy the key now" }).waitFor();
  const secret = (await page.getByTestId("secret").textContent()).trim();
  assert.match(secret, /^svc_live_[0-9A-Za-z]{32}$/);
  await axe(page, "a key made");
  await shot(page, shots, "8-key-made");

  // The key works from a plain HTTP client; a failed request leaves its id in the answer.
  const usage = await fetch(`${base}/api/v1/usage`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(usage.status, 200);
  const missing = await fetch(`${base}/api/v1/documents/doc_00000000000000000000000000`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(missing.status, 404);
  const requestId = (await missing.json()).error.requestId ?? missing.headers.get("request-id");
  assert.ok(requestId?.startsWith("req_"), requestId);

  await page.getByRole("button", { name: "I have copied it" }).click();
  await page.getByRole("row").filter({ hasText: "Billing system" }).waitFor();
  assert.equal(await page.getByText(secret).count(), 0, "the secret is shown once");
  // The API log is written a few tens of milliseconds after the answer.
  for (let i = 0; i < 50; i++) {
    await page.getByLabel("Request id").fill(requestId);
    await page.getByRole("button", { name: "Search" }).click();
    if (await page.getByRole("cell", { name: requestId }).count()) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const line = page.getByRole("row").filter({ hasText: requestId });
  await line.getByRole("cell", { name: "404 not_found" }).waitFor();
  await axe(page, "the API log");
  await shot(page, shots, "9-api-log");
  // The record says who made the key.
  await page.getByRole("link", { name: "Activity" }).click();
  await page.getByRole("row").filter({ hasText: "Dora Admin" }).filter({ hasText: "made the API key Billing system (live)" }).waitFor();
  assert.deepEqual(errors, []);
});

test("an admin adds a webhook endpoint, reads its deliveries and delivers one again", async () => {
  // A local receiver that keeps every delivery's webhook-id and event.
  const received = [];
  const receiver = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ id: req.headers["webhook-id"], type: JSON.parse(body).type });
      res.writeHead(200).end();
    });
  });
  await new Promise((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
  try {
    const { page, errors } = await open();
    await signInByCli(page, "dora@example.com");
    await page.getByRole("link", { name: "Developers" }).click();
    await page.getByRole("heading", { name: "Webhook endpoints" }).waitFor();
    await page.getByLabel("Name (optional)").fill("Billing receiver");
    await page.getByLabel("Address (https)").fill(hookUrl);
    await page.getByRole("button", { name: "Add the endpoint" }).click();
    await page.getByRole("heading", { name: "Copy the signing secret now" }).waitFor();
    assert.match((await page.getByTestId("secret").textContent()).trim(), /^whsec_/);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("row").filter({ hasText: "Billing receiver" }).waitFor();

    // A live document sent with a key of the workspace reaches the receiver.
    const { key } = json(["admin", "key", "create", "--workspace", acme, "--mode", "live", "--all-scopes"]);
    const made = await fetch(`${base}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-${Date.now()}` },
      body: JSON.stringify({
        title: "Hook check", sendNow: true, people: [{ name: "Hugo", email: "hugo@example.com", role: "client" }],
        source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Agreed." }] }, { type: "signatureBlock", attrs: { role: "client" } }] },
      }),
    });
    assert.equal(made.status, 201, await made.text());
    for (let i = 0; i < 600 && !received.some((r) => r.type === "documents.document.sent"); i++) await new Promise((r) => setTimeout(r, 100));
    const first = received.find((r) => r.type === "documents.document.sent");
    assert.ok(first, JSON.stringify(received));

    const row = page.getByRole("row").filter({ hasText: "Billing receiver" });
    await row.getByRole("button", { name: "Deliveries" }).click();
    const attempt = page.getByRole("row").filter({ hasText: "documents.document.sent" }).first();
    await attempt.waitFor();
    await axe(page, "webhook deliveries");
    await shot(page, shots, "10-webhooks");
    await attempt.getByRole("button", { name: "Deliver again" }).click();
    await page.getByRole("status").filter({ hasText: "queued again" }).waitFor();
    for (let i = 0; i < 600 && received.filter((r) => r.id === first.id).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(received.filter((r) => r.id === first.id).length, 2, "delivered again with the same webhook-id");
    assert.deepEqual(errors, []);
  } finally {
    receiver.close();
  }
});

/** The signing link emailed to `to` (the sink keeps the raw message; soft line breaks of
 * quoted-printable undone). The invitation waits for the pages' pictures, which can take
 * minutes on two cores while the whole suite runs beside it: up to three are waited for. */
async function signingLink(to) {
  for (let i = 0; i < 1800; i++) {
    for (const m of sink.messages) {
      if (!m.to.includes(to)) continue;
      const found = m.data.replace(/=\r?\n/g, "").match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (found) return `${base}/s/${found[1]}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no signing link emailed to ${to}`);
}

test("a member writes a document, sends it, watches another browser sign it live and downloads the signed copy", async () => {
  const email = `tara-${Date.now()}@example.com`;
  const { page, errors, context } = await open();
  await signInByCli(page, "pia@example.com");
  await page.getByRole("link", { name: "Documents" }).click();
  await page.getByRole("heading", { name: "Documents" }).waitFor();
  await page.getByRole("link", { name: "New document" }).click();
  await page.getByRole("radio", { name: "Your own words" }).check();
  await page.getByLabel("Title", { exact: true }).fill("Garden lease");
  await page.getByLabel("The document's words").fill("# Garden lease\n\nThe tenant may use the garden from spring.\n\nRent is paid on the first day of each month.");
  await page.getByLabel("Seat (a role word)").fill("tenant");
  await page.getByLabel("Name", { exact: true }).fill("Tara Tenant");
  await page.getByLabel("Email address").fill(email);
  await axe(page, "new document");
  await shot(page, shots, "20-new-document");
  await page.getByRole("button", { name: "Make and send" }).click();
  await page.getByRole("heading", { name: "Garden lease", level: 1 }).waitFor();
  await page.locator(".title-row .badge", { hasText: "Sent" }).waitFor();
  await page.getByText("Updates live").waitFor();

  // Someone else signs in their own browser; this page follows without a reload.
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const signer = await other.newPage();
  await signer.goto(await signingLink(email));
  await signer.getByLabel("I agree to use electronic records and signatures.").check();
  await signer.getByRole("button", { name: "Continue" }).click();
  await signer.getByRole("button", { name: /tenant signature/ }).click();
  await signer.getByRole("tab", { name: "Type" }).click();
  await signer.getByRole("button", { name: "Apply" }).click();
  await signer.getByRole("button", { name: "Finish" }).click();
  await signer.getByRole("heading", { name: /^(You have signed|This document is complete)$/ }).waitFor();
  await other.close();

  const tara = page.getByRole("row").filter({ hasText: "Tara Tenant" });
  await tara.locator(".badge", { hasText: "Signed" }).waitFor();
  await page.locator(".title-row .badge", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
  await page.getByRole("row").filter({ hasText: /signed/i }).filter({ hasText: "Tara Tenant" }).first().waitFor();
  await axe(page, "a completed document");
  await shot(page, shots, "21-document-completed");

  // The signed copy and the audit trail, read with the session.
  const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the signed PDF" }).click()]);
  const bytes = await import("node:fs").then((fs) => pdf.path().then((p) => fs.readFileSync(p)));
  assert.equal(bytes.subarray(0, 5).toString(), "%PDF-");
  assert.match(pdf.suggestedFilename(), /\.pdf$/);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the audit trail (CSV)" }).click()]);
  const text = await import("node:fs").then((fs) => csv.path().then((p) => fs.readFileSync(p, "utf8")));
  assert.ok(text.startsWith("time,event,") && text.includes(email), text.slice(0, 300));

  // The list says so too; in test mode these live documents are not there.
  await page.getByRole("link", { name: "← All documents" }).click();
  await page.getByRole("row").filter({ hasText: "Garden lease" }).filter({ hasText: "Completed" }).filter({ hasText: "1 of 1 signed" }).waitFor();
  await shot(page, shots, "22-documents");
  await page.getByRole("button", { name: "Test mode" }).click();
  await page.getByRole("status").filter({ hasText: "Test mode: you see test documents" }).waitFor();
  await page.getByText("No document here yet.").waitFor();
  assert.equal(await page.getByRole("button", { name: "Test mode" }).getAttribute("aria-pressed"), "true");
  await axe(page, "test mode");
  await shot(page, shots, "23-test-mode");
  assert.deepEqual(errors, []);
  await context.close();
});

test("an admin approves a draft-only key's send, and a member cannot", async () => {
  const { key } = json(["admin", "key", "create", "--workspace", acme, "--mode", "live", "--all-scopes", "--draft-only"]);
  const made = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-${Date.now()}` },
    body: JSON.stringify({
      title: "Supplier terms", sendNow: true, people: [{ name: "Sam Supplier", email: "sam@example.com", role: "supplier" }],
      source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Terms agreed." }] }, { type: "signatureBlock", attrs: { role: "supplier" } }] },
    }),
  });
  const answer = await made.text();
  assert.ok(made.ok, answer);
  const doc = JSON.parse(answer);

  // A member sees what waits but has no say.
  const member = await open();
  await signInByCli(member.page, "pia@example.com");
  await member.page.goto(`${base}/app/approvals`);
  const waiting = member.page.getByRole("row").filter({ hasText: "Supplier terms" });
  await waiting.waitFor();
  assert.equal(await waiting.getByRole("button").count(), 0);
  await member.context.close();

  const { page, errors, context } = await open();
  await signInByCli(page, "dora@example.com");
  await page.getByRole("link", { name: "Approvals" }).click();
  const row = page.getByRole("row").filter({ hasText: "Supplier terms" });
  await row.waitFor();
  await axe(page, "approvals");
  await shot(page, shots, "24-approvals");
  await row.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("status").filter({ hasText: "Supplier terms is approved." }).waitFor();
  await row.waitFor({ state: "detached" });
  const now = await (await fetch(`${base}/api/v1/documents/${doc.id}`, { headers: { authorization: `Bearer ${key}` } })).json();
  assert.equal(now.state, "sent", JSON.stringify(now));
  await page.getByRole("button", { name: "Approved" }).click();
  await page.getByRole("row").filter({ hasText: "Supplier terms" }).waitFor();

  // Declined with a note, which stays with the approval.
  const second = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-2-${Date.now()}` },
    body: JSON.stringify({
      title: "Catering order", sendNow: true, people: [{ name: "Cal Caterer", email: "cal@example.com", role: "caterer" }],
      source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Lunch for ten." }] }, { type: "signatureBlock", attrs: { role: "caterer" } }] },
    }),
  });
  assert.ok(second.ok, await second.clone().text());
  await page.getByRole("button", { name: "Waiting" }).click();
  await page.getByRole("row").filter({ hasText: "Catering order" }).getByRole("button", { name: "Decline" }).click();
  await page.getByLabel("A note for whoever asked (optional)").fill("Wrong caterer");
  await axe(page, "declining");
  await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
  await page.getByRole("status").filter({ hasText: "Catering order is declined." }).waitFor();
  await page.getByRole("button", { name: "Declined" }).click();
  await page.getByRole("row").filter({ hasText: "Catering order" }).filter({ hasText: "Wrong caterer" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a member makes a template from a PDF with text tags, sets what its documents start with, and sends from it", async () => {
  // A PDF printed by Chromium, with text tags in its words.
  const maker = await browser.newPage();
  await maker.setContent(`<html><body style="font-family: sans-serif; font-size: 14px">
    <h1>Bike storage</h1><p>The holder may keep one bike in the shed.</p>
    <p style="margin-bottom: 48px">Holder: {{Holder signature;type=signature;role=holder;height=40;width=180}}</p>
    <p>Date: {{Start date;type=date;role=holder}}</p></body></html>`);
  const pdf = await maker.pdf({ width: "8.5in", height: "11in", margin: { top: "1in", left: "1in", right: "1in", bottom: "1in" } });
  await maker.close();

  const { page, errors, context } = await open();
  await signInByCli(page, "pia@example.com");
  await page.getByRole("link", { name: "Templates" }).click();
  await page.getByRole("heading", { name: "A template from a file" }).waitFor();
  await page.getByLabel("File").setInputFiles({ name: "bike-storage.pdf", mimeType: "application/pdf", buffer: pdf });
  await page.getByLabel("Name (optional)").fill("Bike storage");
  await page.getByRole("button", { name: "Make the template" }).click();
  await page.getByRole("heading", { name: "Bike storage", level: 1 }).waitFor();
  const fields = page.getByRole("region", { name: "Fields" });
  await fields.getByRole("row").filter({ hasText: "Holder signature" }).filter({ hasText: "signature" }).waitFor();
  await fields.getByRole("row").filter({ hasText: "Start date" }).waitFor();

  // Its defaults, kept: read again after a reload.
  await page.getByLabel("Invitation subject").fill("Your bike storage permit");
  await page.getByLabel("Expires after (days)").fill("14");
  await page.getByLabel("Remind on these days after sending").fill("3, 7");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  await page.reload();
  await page.getByRole("heading", { name: "Bike storage", level: 1 }).waitFor();
  assert.equal(await page.getByLabel("Invitation subject").inputValue(), "Your bike storage permit");
  assert.equal(await page.getByLabel("Expires after (days)").inputValue(), "14");
  assert.equal(await page.getByLabel("Remind on these days after sending").inputValue(), "3, 7");
  await axe(page, "a template");
  await shot(page, shots, "25-template");

  // A document from it: its one seat, sent at once.
  await page.getByRole("link", { name: "New document" }).click();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "Bike storage" });
  await page.getByLabel("Name", { exact: true }).fill("Hal Holder");
  await page.getByLabel("Email address").fill("hal@example.com");
  await page.getByRole("button", { name: "Make and send" }).click();
  await page.getByRole("heading", { name: "Bike storage", level: 1 }).waitFor();
  await page.locator(".title-row .badge", { hasText: "Sent" }).waitFor();
  const invitation = await mailed(sink, "hal@example.com", /Subject: (.*Your bike storage permit.*)/);
  assert.ok(invitation);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a member writes a template in the builder, saves it, and saves its changed words as version 2", async () => {
  const { page, errors, context } = await open();
  await signInByCli(page, "pia@example.com");
  await page.getByRole("link", { name: "Templates" }).click();
  await page.getByRole("link", { name: "Write a template" }).click();
  const words = page.getByRole("textbox", { name: "The template's words" });
  await words.waitFor();
  await page.getByLabel("Template name").fill("Dog walking");
  await page.getByLabel("Seat", { exact: true }).last().fill("owner");
  await page.getByRole("button", { name: "Add a seat" }).click();
  await words.click();
  await words.pressSequentially("The walker takes the dog out twice a day.");
  await page.locator(".seats li", { hasText: "owner" }).getByRole("button", { name: "Signature block" }).click();
  await page.getByText("No problems found.").waitFor();
  await axe(page, "the builder");
  await shot(page, shots, "26-builder");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.getByText("Saved as version 1.").waitFor();
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/")[3]);
  assert.ok(id.startsWith("tpl_"), page.url());
  // The caret before the first word: a click at the paragraph's start.
  await words.getByText("The walker takes").click({ position: { x: 1, y: 8 } });
  await words.pressSequentially("Dog walking. ");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.getByText("Saved as version 2.").waitFor();
  // The template's page: version 2, its one seat; its words open again in the builder.
  await page.goto(`${base}/app/templates/${encodeURIComponent(id)}`);
  await page.getByRole("heading", { name: "Dog walking", level: 1 }).waitFor();
  await page.getByText("Version 2").waitFor();
  await page.getByRole("link", { name: "Change the words" }).click();
  await page.getByText("Dog walking. The walker takes the dog out twice a day.").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("an admin rewords a reminder beside its preview, resets it, reads the email log and lifts a bounce's suppression", async () => {
  const { page, errors, context } = await open();
  // The preview obeys the page's policy: a refused inline style would be reported here.
  const refused = [];
  page.on("console", (m) => /Content Security Policy/i.test(m.text()) && refused.push(m.text()));
  await signInByCli(page, "dora@example.com");
  await page.getByRole("link", { name: "Email" }).click();
  await page.getByRole("heading", { name: "Email", level: 1 }).waitFor();
  await page.getByLabel("Kind of email").selectOption("reminder");
  const preview = page.getByRole("region", { name: "Preview" });
  await preview.getByText(/Consulting Agreement/).first().waitFor();

  await page.getByLabel("Subject").fill("Friendly nudge: {{document.title}}");
  await page.getByLabel("Message").fill("Hello {{person.name}},\n\nThe papers for {{document.title}} are waiting for you.");
  await preview.getByText("Friendly nudge: Consulting Agreement").waitFor();
  // The email's own HTML, as a mail client draws it: its words and its inline styles.
  const frame = page.getByRole("document", { name: "Preview" });
  await frame.getByText("Hello Ada Lovelace,").waitFor();
  await frame.getByText("The papers for Consulting Agreement are waiting for you.").waitFor();
  const button = frame.getByRole("link").filter({ hasText: /sign/i }).first();
  assert.equal(await button.evaluate((a) => getComputedStyle(a).backgroundColor), "rgb(29, 78, 216)");
  // A variable this kind does not have is named before anything is saved.
  await page.getByLabel("Subject").fill("Nudge {{payment.amount}}");
  await preview.getByRole("alert").filter({ hasText: "payment.amount" }).waitFor();
  await page.getByLabel("Subject").fill("Friendly nudge: {{document.title}}");
  await preview.getByRole("alert").waitFor({ state: "detached" });
  await axe(page, "email wording");
  await shot(page, shots, "26-email-wording");
  await page.getByRole("button", { name: "Save wording" }).click();
  await page.getByRole("status").filter({ hasText: "The wording of “Reminder” is saved." }).waitFor();
  const saved = await (await page.request.post(`${base}/graphql`, {
    headers: { "content-type": "application/json", "x-signet-session": "1", origin: base },
    data: { query: "{ emailTemplates(locale: \"en\") { data { kind saved { subject body } } } }" },
  })).json();
  const reminder = saved.data.emailTemplates.data.find((x) => x.kind === "reminder");
  assert.equal(reminder.saved.subject, "Friendly nudge: {{document.title}}");
  assert.match(reminder.saved.body, /waiting for you/);
  await page.getByRole("button", { name: "Reset to standard" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset to standard" }).click();
  await page.getByRole("status").filter({ hasText: "“Reminder” is back to the standard wording." }).waitFor();
  assert.equal(await page.getByLabel("Subject").inputValue(), "");

  // A live invitation that bounces for good: the mail server's report, piped in as an MTA
  // would, suppresses the address.
  const { key } = json(["admin", "key", "create", "--workspace", acme, "--mode", "live", "--all-scopes"]);
  const made = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-bounce-${Date.now()}` },
    body: JSON.stringify({
      title: "Parking permit", sendNow: true, people: [{ name: "Gus Gone", email: "gus.gone@example.net", role: "holder" }],
      source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "One space." }] }, { type: "signatureBlock", attrs: { role: "holder" } }] },
    }),
  });
  assert.ok(made.ok, await made.clone().text());
  let local = null;
  for (let i = 0; i < 600 && !local; i++) {
    const m = sink.messages.find((x) => x.to.includes("gus.gone@example.net"));
    local = m?.data.match(/^Message-ID:\s*<([^@>]+)@/im)?.[1] ?? null;
    if (!local) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(local, "the invitation reached the mail server");
  const report = readFileSync(join(root, "tests", "it", "mail", "feedback", "postfix-hard-bounce.eml"), "utf8").replaceAll("eml_PLACEHOLDER", local);
  execFileSync(BIN, ["admin", "email", "feedback"], { input: report, env: { ...cleanEnv, SIGNET_DATA_DIR: data, SIGNET_PUBLIC_URL: base } });

  await page.getByRole("button", { name: "Sent emails" }).click();
  await page.getByLabel("Status").selectOption("bounced");
  const bounced = page.getByRole("row").filter({ hasText: "gus.gone@example.net" });
  await bounced.filter({ hasText: "Bounced" }).waitFor();
  await axe(page, "email log");
  await shot(page, shots, "27-email-log");
  await page.getByRole("button", { name: "Suppressed addresses" }).click();
  const row = page.getByRole("row").filter({ hasText: "gus.gone@example.net" });
  await row.waitFor();
  await axe(page, "suppressed addresses");
  await shot(page, shots, "28-email-suppressed");
  await row.getByRole("button", { name: "Let emails go again" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Let emails go again" }).click();
  await page.getByRole("status").filter({ hasText: "Emails go to gus.gone@example.net again." }).waitFor();
  await row.waitFor({ state: "detached" });
  // Each change is in the activity record.
  await page.getByRole("link", { name: "Activity" }).click();
  await page.getByRole("row").filter({ hasText: "let emails go to gus.gone@example.net again" }).waitFor();
  await page.getByRole("row").filter({ hasText: "changed the wording of the “Reminder” email (en: subject, body)" }).waitFor();
  await page.getByRole("row").filter({ hasText: "reset the wording of the “Reminder” email (en)" }).waitFor();
  assert.deepEqual(refused, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("an admin renames the workspace, sets who its emails come from, turns test mode on and off, makes a team and reads the report", async () => {
  const { page, errors, context } = await open();
  await signInByCli(page, "dora@example.com");
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  const general = page.locator("form").filter({ has: page.getByRole("heading", { name: "Workspace" }) });
  await general.getByLabel("Name").fill("Acme Lettings Ltd");
  await general.getByLabel("Time zone").selectOption("Europe/Paris");
  await general.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").filter({ hasText: "The settings are saved." }).waitFor();
  // The top bar follows the new name.
  await page.locator("header .workspace").filter({ hasText: "Acme Lettings Ltd" }).waitFor();
  const sender = page.locator("form").filter({ has: page.getByRole("heading", { name: "Emails" }) });
  await sender.getByLabel("Sender name").fill("Acme front desk");
  await sender.getByLabel("Replies go to").fill("desk@acme.example");
  await sender.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").filter({ hasText: "The settings are saved." }).waitFor();
  await axe(page, "settings");
  await shot(page, shots, "29-settings");

  // Test mode for everyone: the band says so, the switch cannot undo it, a live key works
  // on test documents.
  await page.getByRole("button", { name: "Turn test mode on" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Turn test mode on" }).click();
  await page.getByRole("status").filter({ hasText: "This workspace is in test mode" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Test mode", exact: true }).isDisabled(), true);
  const { key } = json(["admin", "key", "create", "--workspace", acme, "--mode", "live", "--all-scopes"]);
  const made = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-pinned-${Date.now()}` },
    body: JSON.stringify({ title: "Practice lease", people: [{ name: "Tia Tenant", email: "tia@example.com", role: "tenant" }], source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Practice." }] }, { type: "signatureBlock", attrs: { role: "tenant" } }] } }),
  });
  const practice = await made.json();
  assert.equal(practice.test, true, JSON.stringify(practice));
  await shot(page, shots, "30-settings-test-mode");
  await page.getByRole("button", { name: "Turn test mode off" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Turn test mode off" }).click();
  await page.getByRole("status").filter({ hasText: "Test mode is off." }).waitFor();
  await page.locator("header .mode-switch:not([disabled])").waitFor();

  // A team, a person on it, and the report read by team.
  await page.getByLabel("New team's name").fill("Lettings desk");
  await page.getByRole("button", { name: "Add team" }).click();
  await page.getByRole("status").filter({ hasText: "The team Lettings desk is made." }).waitFor();
  const adding = page.getByRole("form", { name: "Add a person to Lettings desk" });
  await adding.getByLabel("Email address").fill("dora@example.com");
  await adding.getByLabel("Name").fill("Dora Admin");
  await adding.getByRole("button", { name: "Add person" }).click();
  await page.getByRole("table", { name: "Lettings desk" }).getByRole("row").filter({ hasText: "dora@example.com" }).waitFor();
  await page.getByLabel("Team", { exact: true }).selectOption({ label: "Lettings desk" });
  await page.getByRole("img", { name: /documents sent and .* completed from/ }).waitFor();
  await axe(page, "settings with a team and the report");
  await page.getByRole("heading", { name: "Teams" }).scrollIntoViewIfNeeded();
  await shot(page, shots, "31-settings-teams");

  // Back to the name the other tests know; every change is in the activity record.
  await general.getByLabel("Name").fill("Acme Lettings");
  await general.getByRole("button", { name: "Save" }).click();
  await page.locator("header .workspace").filter({ hasText: /^Acme Lettings$/ }).waitFor();
  await page.getByRole("link", { name: "Activity" }).click();
  await page.getByRole("row").filter({ hasText: "changed the settings: testMode (test mode on)" }).waitFor();
  await page.getByRole("row").filter({ hasText: "changed the settings: senderName, replyTo" }).waitFor();
  await page.getByRole("row").filter({ hasText: "added dora@example.com to a team" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a member finds a document by its metadata and makes a signing link for a person who signs inside the caller's site", async () => {
  json(["admin", "workspace", "update", acme, "--embed-origin", "https://portal.example.com", "--embedding", "on"]);
  const { key } = json(["admin", "key", "create", "--workspace", acme, "--mode", "live", "--all-scopes"]);
  const made = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `idem-meta-${Date.now()}` },
    body: JSON.stringify({
      title: "Storage unit 12", sendNow: true, metadata: { "crm.id": "77" }, embedded: ["renter"],
      people: [{ name: "Rita Renter", email: "rita@example.com", role: "renter" }],
      source: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Unit 12." }] }, { type: "signatureBlock", attrs: { role: "renter" } }] },
    }),
  });
  assert.ok(made.ok, await made.clone().text());
  const { page, errors, context } = await open();
  await signInByCli(page, "pia@example.com");
  await page.getByRole("heading", { name: "Documents", level: 1 }).waitFor();
  // Not key=value: said so, nothing asked.
  await page.getByLabel("Metadata (key=value)").fill("crm.id");
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  await page.getByRole("alert").filter({ hasText: "key=value" }).waitFor();
  await page.getByLabel("Metadata (key=value)").fill("crm.id=77");
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  // The document was in the list before the search too: wait for the filtered answer itself.
  await page.waitForFunction(() => document.querySelectorAll("main table tbody tr").length === 1);
  await page.getByRole("row").filter({ hasText: "Storage unit 12" }).waitFor();
  assert.equal(await page.getByRole("table").getByRole("row").count(), 2, "the heading row and the one document");
  await page.getByRole("link", { name: "Storage unit 12" }).click();
  await page.getByRole("button", { name: "Link for your site" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Your website").fill("https://elsewhere.example.com");
  await dialog.getByRole("button", { name: "Make the link" }).click();
  await dialog.getByRole("alert").waitFor();
  await dialog.getByLabel("Your website").fill("https://portal.example.com");
  await dialog.getByRole("button", { name: "Make the link" }).click();
  const url = await dialog.getByTestId("embed-url").textContent();
  assert.match(url, /\/e\/[A-Za-z0-9_-]+/);
  await axe(page, "embed link");
  await shot(page, shots, "32-embed-link");
  await dialog.getByRole("button", { name: "Close" }).click();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a member keeps a document from words as a draft, edits its words, and gets a new draft", async () => {
  const { page, errors, context } = await open();
  await signInByCli(page, "pia@example.com");
  await page.getByRole("link", { name: "New document" }).click();
  await page.getByRole("radio", { name: "Your own words" }).check();
  await page.getByLabel("Title", { exact: true }).fill("Bike shed rules");
  await page.getByLabel("The document's words").fill("# Bike shed\n\nBikes stay inside.");
  await page.getByLabel("Seat (a role word)").fill("rider");
  await page.getByLabel("Name", { exact: true }).fill("Ria Rider");
  await page.getByLabel("Email address").fill("ria@example.com");
  await page.getByLabel("Send it now").uncheck();
  await page.getByRole("button", { name: /^Make/ }).click();
  await page.getByRole("heading", { name: "Bike shed rules", level: 1 }).waitFor();
  const first = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Edit the words" }).click();
  const words = page.getByLabel("The document's words");
  assert.equal(await words.inputValue(), "# Bike shed\n\nBikes stay inside.");
  await words.fill("# Bike shed\n\nBikes stay inside.\n\nThe last one out locks the door.");
  await axe(page, "revising a draft");
  await shot(page, shots, "33-revise");
  await page.getByRole("button", { name: "Save as a new draft" }).click();
  await page.waitForURL((u) => u.pathname !== first && u.pathname.startsWith("/app/documents/doc_"));
  await page.getByRole("heading", { name: "Bike shed rules", level: 1 }).waitFor();
  // The new draft holds the new words and the same person; the old one is gone.
  await page.getByRole("button", { name: "Edit the words" }).click();
  assert.match(await page.getByLabel("The document's words").inputValue(), /locks the door/);
  await page.getByRole("cell", { name: /Ria Rider/ }).waitFor();
  const old = await page.evaluate(async (p) => (await fetch("/graphql", {
    method: "POST", headers: { "content-type": "application/json", "x-signet-session": "1" },
    body: JSON.stringify({ query: "query($id: String!) { document(id: $id) { id } }", variables: { id: decodeURIComponent(p.split("/").pop()) } }),
  })).json(), first);
  assert.equal(old.errors?.[0]?.extensions?.kind, "not_found", JSON.stringify(old));
  assert.deepEqual(errors, []);
  await context.close();
});

test("every screen at 1280 and 375 pixels, in English and Arabic, passes axe", async () => {
  for (const lang of ["en", "ar"]) {
    for (const [width, height] of [[1280, 900], [375, 812]]) {
      const { page, errors, context } = await open({ width, height });
      await signInByCli(page, "dora@example.com");
      // Dora's language, as she would choose it in Your account.
      await page.evaluate(async (l) => {
        await fetch("/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-signet-session": "1" },
          body: JSON.stringify({ query: "mutation($l: String) { updateMe(language: $l) { role } }", variables: { l } }),
        });
      }, lang);
      for (const path of ["/app/documents", "/app/documents/new", "/app/templates", "/app/templates/new", "/app/approvals", "/app/people", "/app/email", "/app/developers", "/app/activity", "/app/settings", "/app/account"]) {
        await page.goto(`${base}${path}`);
        await page.locator("main h1").waitFor({ timeout: 10_000 }).catch((e) => assert.fail(`${path} at ${width}px in ${lang} shows no heading: ${e}`));
        await page.getByRole("status").filter({ hasText: /Loading|جارٍ التحميل/ }).waitFor({ state: "detached" }).catch(() => {});
        assert.equal(await page.evaluate(() => document.documentElement.dir), lang === "ar" ? "rtl" : "ltr");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${path} at ${width}px in ${lang} is ${overflow}px wider than the screen`);
        await axe(page, `${path} at ${width}px in ${lang}`);
        await shot(page, shots, `screens-${lang}-${width}-${path.slice("/app/".length).replace(/\//g, "-")}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});
