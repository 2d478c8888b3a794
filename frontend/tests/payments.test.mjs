// Paying while signing, in a real browser, through the Stripe stand-in's hosted pages
// (testkit/stripe/standin.py): the owner connects the workspace's account from the
// application's Settings on the stand-in's onboarding page; the signer sees the amount at
// its field, is sent to the hosted Checkout, is declined once, pays with the test card, comes
// back to the signing page, which shows the payment once Stripe's signed event confirmed it,
// and signs; the document in the application lists the payment. axe-core on each screen of
// ours; screenshots go to docs/payments/ with SCREENSHOTS=1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { axe, BIN, CHROMIUM, cleanEnv, freePort, keyed, launch, serve, shot, shotsDir } from "./support.mjs";

const here = new URL(".", import.meta.url).pathname;
const root = join(here, "..", "..");
const shots = shotsDir("payments");
const run = Math.random().toString(36).slice(2);
const LIVE_KEY = `sk_live_browser${run}`;
const HOOK = `whsec_browser${run}`;

let standin, stripeUrl, server, base, data, browser, api;

function cli(args) {
  return execFileSync(BIN, args, { env: { ...cleanEnv, SIGNET_DATA_DIR: data, SIGNET_PUBLIC_URL: base }, encoding: "utf8" });
}

/** A call of the stand-in's test controls. */
async function control(method, path, body) {
  const res = await fetch(stripeUrl + path, { method, headers: { "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  assert.ok(res.ok, `${path}: ${res.status}`);
  return res.json();
}

/** The signing link of the invitation emailed to the person. */
async function invitation() {
  const dir = join(data, "mail");
  for (let i = 0; i < 600; i++) {
    for (const f of existsSync(dir) ? readdirSync(dir) : []) {
      if (f.startsWith(".") || !f.endsWith(".eml")) continue;
      const m = readFileSync(join(dir, f), "utf8").replace(/=\r?\n/g, "").match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (m) return `${base}/s/${m[1]}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no invitation was emailed");
}

async function until(what, check) {
  for (let i = 0; i < 600; i++) {
    const got = await check();
    if (got) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited a minute for ${what}`);
}

before(async () => {
  assert.ok(existsSync(BIN), `the signet binary is built: ${BIN}`);
  assert.ok(existsSync(CHROMIUM), `chromium is installed: ${CHROMIUM}`);
  standin = spawn("python3", [join(root, "testkit", "stripe", "standin.py"), "--port", "0", "--any-key", "--until-stdin-closes"], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise((ok) => createInterface({ input: standin.stdout }).once("line", ok));
  stripeUrl = line.replace(/^ready /, "");
  data = mkdtempSync(join(tmpdir(), "signet-payments-"));
  // A host name: the application's sign-in cookie is for it.
  base = `http://localhost:${await freePort()}`;
  const ws = JSON.parse(cli(["admin", "workspace", "create", "--name", "Acme Lettings", "--plan", "free", "--json"]));
  cli(["admin", "person", "add", "--workspace", ws.id, "--email", "olga@example.com", "--name", "Olga Owner", "--role", "owner", "--json"]);
  const k = JSON.parse(cli(["admin", "key", "create", "--workspace", ws.id, "--mode", "live", "--all-scopes", "--json"]));
  const key = k.key ?? k.token ?? k.secret;
  api = keyed(() => base, () => key);
  server = await serve(BIN, data, base, {
    SIGNET_STRIPE_API_BASE: stripeUrl,
    SIGNET_STRIPE_SECRET_KEY: LIVE_KEY,
    SIGNET_STRIPE_WEBHOOK_SECRET: HOOK,
  });
  await control("POST", "/_test/webhooks", { key: LIVE_KEY, url: `${base}/hooks/stripe`, secret: HOOK, connect: true });
  browser = await launch(CHROMIUM);
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
  standin?.stdin.end();
  await new Promise((r) => setTimeout(r, 300));
  if (data) rmSync(data, { recursive: true, force: true });
});

test("a signer pays at their field through Stripe's hosted Checkout, then signs", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // The owner connects the workspace's Stripe account from Settings, on Stripe's own page.
  const { url: signIn } = JSON.parse(cli(["admin", "person", "sign-in-link", "--email", "olga@example.com", "--json"]));
  await page.goto(signIn);
  await page.locator("main button.primary").click();
  await page.waitForURL(`${base}/app`);
  await page.goto(`${base}/app/settings`);
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Payments" }) });
  await section.getByText("Not connected.").waitFor();
  await section.scrollIntoViewIfNeeded();
  await axe(page, "settings, not connected");
  await shot(page, shots, "1-settings-not-connected");
  await section.getByRole("button", { name: "Connect Stripe" }).click();
  await page.waitForURL((u) => u.href.startsWith(`${stripeUrl}/onboard/`));
  await shot(page, shots, "2-stripe-onboarding");
  await page.getByRole("button", { name: "Submit details" }).click();
  await page.waitForURL((u) => u.href.startsWith(`${base}/app/settings?payments=back`));
  await section.getByText("Connected: your Stripe account takes payments.").waitFor({ timeout: 60_000 });
  await section.scrollIntoViewIfNeeded();
  await axe(page, "settings, connected");
  await shot(page, shots, "3-settings-connected");
  assert.equal((await api("GET", "/api/v1/payments/status")).json.status, "connected");

  const sent = await api("POST", "/api/v1/documents", {
    title: "Studio lease",
    source: {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] },
        { type: "paragraph", content: [{ type: "text", text: "The tenant pays a deposit of 49 dollars when signing." }] },
        { type: "paragraph", content: [{ type: "text", text: "Deposit: " }, { type: "fieldTag", attrs: { name: "Deposit", type: "payment", role: "client", amount: "49.00", currency: "usd", description: "Studio deposit" } }] },
        { type: "signatureBlock", attrs: { role: "client" } },
      ],
    },
    people: [{ name: "Ada Tenant", email: "ada@example.com", role: "client" }],
    sendNow: true,
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.json));
  const link = await invitation();

  const signer = await context.newPage();
  signer.on("pageerror", (e) => errors.push(String(e)));
  await signer.goto(link);
  await signer.getByLabel("I agree to use electronic records and signatures.").check();
  await signer.getByRole("button", { name: "Continue" }).click();
  const pay = signer.getByRole("button", { name: "Pay $49.00" });
  await pay.waitFor();
  await signer.waitForFunction(() => document.querySelector(".sheet img")?.complete);
  await signer.getByRole("button", { name: /client signature/ }).click();
  await signer.getByRole("tab", { name: "Type" }).click();
  await signer.getByRole("button", { name: "Apply" }).click();
  await signer.getByText("Pay to finish signing.").waitFor();
  assert.equal(await signer.getByRole("button", { name: "Finish" }).isDisabled(), true, "signing waits for the payment");
  await axe(signer, "the payment field");
  await pay.scrollIntoViewIfNeeded();
  await shot(signer, shots, "4-pay-at-the-field");
  // The same field on a phone, before paying.
  await signer.setViewportSize({ width: 375, height: 812 });
  await pay.scrollIntoViewIfNeeded();
  await shot(signer, shots, "4-pay-at-the-field-phone");
  await signer.setViewportSize({ width: 1280, height: 900 });

  // Stripe's hosted Checkout: declined once, then paid with the test card.
  await pay.click();
  await signer.waitForURL((u) => u.href.startsWith(`${stripeUrl}/pay/`));
  await signer.getByLabel("Card number").fill("4000 0000 0000 0002");
  await signer.getByRole("button", { name: "Pay" }).click();
  await signer.getByRole("alert").getByText("Your card was declined.").waitFor();
  await shot(signer, shots, "5-checkout-declined");
  assert.equal((await api("GET", `/api/v1/documents/${sent.json.id}`)).json.payments[0].status, "open");
  await signer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await signer.getByRole("button", { name: "Pay" }).click();
  await signer.waitForURL((u) => u.href.startsWith(`${link}?payment=done`));

  // Back on the signing page: the payment shows once Stripe's event confirmed it.
  await signer.getByText("Paid $49.00").waitFor({ timeout: 30_000 });
  await signer.getByRole("link", { name: "Receipt" }).waitFor();
  await axe(signer, "paid");
  await shot(signer, shots, "6-paid");
  await signer.getByRole("button", { name: "Finish" }).click();
  await signer.getByRole("heading", { name: /signed/i }).first().waitFor();
  await shot(signer, shots, "7-signed");

  const doc = (await api("GET", `/api/v1/documents/${sent.json.id}`)).json;
  assert.equal(doc.payments.length, 1);
  assert.equal(doc.payments[0].status, "paid");
  assert.equal(doc.payments[0].amount, 4900);
  assert.equal(doc.payments[0].fee, 98, "2% on Free");
  assert.ok(["signed", "executed"].includes(doc.state), doc.state);
  // The document in the application lists the payment with its fee and receipt.
  await page.goto(`${base}/app/documents/${sent.json.id}`);
  const paid = page.locator("section", { has: page.getByRole("heading", { name: "Payments" }) });
  await paid.getByText("$49.00").waitFor();
  await paid.getByText("$0.98").waitFor();
  await paid.getByText("Paid", { exact: true }).waitFor();
  await paid.scrollIntoViewIfNeeded();
  await axe(page, "the document's payments");
  await shot(page, shots, "8-document-payments");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a phone, in Arabic, the payment field shows its amount and opens Checkout", async () => {
  const sent = await api("POST", "/api/v1/documents", {
    title: "عقد إيجار",
    source: {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "عقد إيجار الاستوديو" }] },
        { type: "paragraph", content: [{ type: "text", text: "العربون: " }, { type: "fieldTag", attrs: { name: "Deposit", type: "payment", role: "client", amount: "1200", currency: "jpy", description: "Deposit" } }] },
        { type: "signatureBlock", attrs: { role: "client" } },
      ],
    },
    people: [{ name: "Ada Tenant", email: "ada.ar@example.com", role: "client" }],
    send: { language: "ar" },
    sendNow: true,
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.json));
  const link = await until("the Arabic invitation", async () => {
    const dir = join(data, "mail");
    for (const f of existsSync(dir) ? readdirSync(dir) : []) {
      if (f.startsWith(".") || !f.endsWith(".eml")) continue;
      const raw = readFileSync(join(dir, f), "utf8").replace(/=\r?\n/g, "");
      if (!raw.includes("ada.ar@example.com")) continue;
      const m = raw.match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (m) return `${base}/s/${m[1]}`;
    }
    return null;
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(link);
  await page.locator("input[type=checkbox]").first().check();
  await page.locator("main.consent button.primary").click();
  const pay = page.locator("button.pay-here");
  await pay.waitFor();
  await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
  const label = await pay.textContent();
  assert.match(label, /1,200|١٬٢٠٠/, `the yen amount, with no decimals: ${label}`);
  assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
  await pay.scrollIntoViewIfNeeded();
  await axe(page, "the payment field on a phone, in Arabic");
  await shot(page, shots, "9-pay-phone-ar");
  // The same field in Arabic on a wide screen.
  const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await wide.goto(link);
  await wide.locator("button.pay-here").waitFor();
  await wide.waitForFunction(() => document.querySelector(".sheet img")?.complete);
  await wide.locator("button.pay-here").scrollIntoViewIfNeeded();
  await axe(wide, "the payment field in Arabic");
  await shot(wide, shots, "10-pay-desktop-ar");
  await wide.close();
  await pay.click();
  await page.waitForURL((u) => u.href.startsWith(`${stripeUrl}/pay/`));
  await context.close();
});
