// The signing page in a real browser (Debian's chromium through playwright-core): a person
// opens the link from the real email, consents, draws a signature with mouse moves, fills
// every field type and signs; a declined document with a required reason; Arabic and
// Japanese pages; the access code and emailed code checks with a lock-out; embedding in a
// page served on a second local origin, with its events, and refused on a third; a 375-pixel phone;
// axe-core (WCAG 2.1 AA) on every screen. Screenshots go
// to docs/signing/. Run by `node --test frontend/tests/` (the test suite's `browser` test).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync, rmSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { axe, cleanEnv, freePort, hostSite, launch, serve } from "./support.mjs";

const here = new URL(".", import.meta.url).pathname;
const root = join(here, "..", "..");
// Screenshots go to docs/signing/ when SCREENSHOTS=1 (to refresh the docs), else to a
// temporary folder, so that running the tests changes no file of the checkout.
const shots = process.env.SCREENSHOTS === "1" ? join(root, "docs", "signing") : mkdtempSync(join(tmpdir(), "signet-shots-"));
const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache", "signet-target");
const BIN = process.env.BROWSER_TEST_SIGNET ?? join(target, "debug", "signet");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

let server, base, key, data, browser, workspace;

/** The emails written so far, as text: finished `.eml` files only (the server writes each to
 * a hidden temporary file first, then renames it). */
function emails(dir) {
  const out = [];
  for (const f of existsSync(dir) ? readdirSync(dir) : []) {
    if (f.startsWith(".") || !f.endsWith(".eml")) continue;
    try {
      out.push(readFileSync(join(dir, f), "utf8"));
    } catch {
      // Gone between the listing and the read: not an email of ours yet.
    }
  }
  return out;
}

// The caller's own SIGNET_ settings stay out of the server under test.
const env = cleanEnv;

function cli(args) {
  return execFileSync(BIN, args, { env: { ...env, SIGNET_DATA_DIR: data }, encoding: "utf8" });
}

async function api(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `idem-${Math.random().toString(36).slice(2)}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const tag = (name, type, extra = {}) => ({
  type: "paragraph",
  content: [{ type: "text", text: `${name}: ` }, { type: "fieldTag", attrs: { name, type, role: "client", ...extra } }],
});

function source() {
  return {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] },
      { type: "paragraph", content: [{ type: "text", text: "The tenant pays the rent on the first day of each month, by bank transfer." }] },
      tag("Start date", "date"),
      tag("Pets", "checkbox", { required: false }),
      tag("Agree to the house rules", "checkbox"),
      tag("Billing", "radio", { options: ["monthly", "yearly"] }),
      tag("Parking", "select", { options: ["none", "one space", "two spaces"] }),
      tag("Occupants", "number"),
      tag("Contact email", "email", { autofill: "email" }),
      tag("Full name", "name", { autofill: "name", editable: false }),
      tag("Company", "company", { required: false, placeholder: "If renting for a company" }),
      tag("Phone", "phone", { tooltip: "For the caretaker" }),
      tag("Notes", "text", { required: false }),
      tag("Initials", "initials"),
      { type: "signatureBlock", attrs: { role: "client" } },
    ],
  };
}

async function sendDocument(extra = {}, people) {
  const doc = await api("POST", "/api/v1/documents", {
    title: "Studio lease",
    source: source(),
    people: people ?? [{ name: "Ada Tenant", email: `ada-${Math.random().toString(36).slice(2)}@example.com`, role: "client" }],
    sendNow: true,
    ...extra,
  });
  return doc;
}

/** The signing link emailed to `to` (the .eml files of the embedded default). The invitation
 * waits for the render and then the page pictures, both on threads in the idle scheduling
 * class: while the rest of the suite fills both cores, they wait for it (up to a minute). */
async function linkFor(to) {
  const dir = join(data, "mail");
  for (let i = 0; i < 600; i++) {
    for (const raw of emails(dir)) {
      if (!raw.includes(`To: ${to}`) && !raw.includes(`<${to}>`)) continue;
      const m = raw.replace(/=\r?\n/g, "").match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (m) return `${base}/s/${m[1]}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no signing link emailed to ${to}`);
}

async function shot(page, name) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
}

before(async () => {
  assert.ok(existsSync(BIN), `the signet binary is built: ${BIN}`);
  assert.ok(existsSync(CHROMIUM), `chromium is installed: ${CHROMIUM}`);
  data = mkdtempSync(join(tmpdir(), "signet-browser-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const ws = JSON.parse(cli(["admin", "workspace", "create", "--name", "Acme Lettings", "--plan", "pro", "--json"]));
  workspace = ws.id;
  const k = JSON.parse(cli(["admin", "key", "create", "--workspace", ws.id, "--mode", "live", "--all-scopes", "--json"]));
  key = k.key ?? k.token ?? k.secret;
  assert.ok(key, JSON.stringify(k));
  server = await serve(BIN, data, base);
  browser = await launch(CHROMIUM);
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 300));
  if (data && process.env.SCREENSHOTS !== "1") rmSync(data, { recursive: true, force: true });
});

test("a person opens their link, consents, fills every field, draws a signature and signs", async () => {
  const email = `ada-${Date.now()}@example.com`;
  const doc = await sendDocument({}, [{ name: "Ada Tenant", email, role: "client" }]);
  const link = await linkFor(email);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(link);
  // Opening the link changes nothing until the page shows the document.
  assert.equal((await api("GET", `/api/v1/documents/${doc.id}`)).state, "sent");

  await page.getByRole("heading", { name: "Before you sign" }).waitFor();
  await axe(page, "consent");
  await shot(page, "1-consent");
  const proceed = page.getByRole("button", { name: "Continue" });
  assert.equal(await proceed.isDisabled(), true);
  await page.getByLabel("I agree to use electronic records and signatures.").check();
  await proceed.click();

  await page.locator(".sheet img").first().waitFor();
  await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
  await page.getByText(/\d+ of \d+ required fields filled/).waitFor();
  for (let i = 0; i < 50 && (await api("GET", `/api/v1/documents/${doc.id}`)).state !== "opened"; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal((await api("GET", `/api/v1/documents/${doc.id}`)).state, "opened", "the page reported a real view");
  await axe(page, "document");
  await shot(page, "2-document");
  // The text layer lets the browser find words on the page pictures.
  assert.ok(await page.locator(".text span", { hasText: "The tenant pays the rent" }).count());

  const field = (name) => page.getByLabel(new RegExp(`^${name}( \\(Required\\))?$`));
  await field("Start date").fill("2027-01-01");
  await field("Agree to the house rules").check();
  await page.getByRole("radio", { name: "yearly" }).check();
  await field("Parking").selectOption("one space");
  await field("Occupants").fill("2");
  await field("Phone").fill("+44 20 7946 0958");
  await field("Notes").fill("Keys at the front desk.");
  assert.equal(await field("Full name").isDisabled(), true, "a name filled in for the person is theirs");
  assert.equal(await field("Contact email").inputValue(), email);

  // Initials: typed. The signature: drawn with the mouse.
  await page.getByRole("button", { name: /Initials/ }).click();
  await page.getByRole("tab", { name: "Type" }).click();
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("button", { name: /client signature/ }).click();
  const pad = page.locator("canvas.surface");
  await pad.waitFor();
  const box = await pad.boundingBox();
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 24; i++) {
    await page.mouse.move(box.x + 30 + i * 18, box.y + box.height * (0.5 + 0.3 * Math.sin(i / 2)), { steps: 2 });
  }
  await page.mouse.up();
  await axe(page, "signature pad");
  await shot(page, "3-signature-pad");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.locator(".sign-here.done svg").waitFor();

  const finish = page.getByRole("button", { name: "Finish" });
  await page.getByText(/(\d+) of \1 required fields filled/).waitFor();
  await shot(page, "4-filled");
  await finish.click();
  // "You have signed"; the page follows the document live, so once sealed (which can be
  // moments later) it says so without a reload.
  await page.getByRole("heading", { name: /^(You have signed|This document is complete)$/ }).waitFor();
  await axe(page, "signed");
  await shot(page, "5-signed");
  assert.deepEqual(errors, []);

  // Sealed by the worker: executed, and the signed copy downloads from the page.
  let state;
  for (let i = 0; i < 300; i++) {
    state = (await api("GET", `/api/v1/documents/${doc.id}`)).state;
    if (state === "executed") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(state, "executed");
  await page.reload();
  await page.getByRole("heading", { name: "This document is complete" }).waitFor();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download the signed copy" }).click();
  const file = await (await download).path();
  assert.ok(readFileSync(file).subarray(0, 4).toString() === "%PDF");
  await shot(page, "6-complete");
  await context.close();
});

test("declining asks for the reason the sender requires, and ends the document", async () => {
  const email = `dee-${Date.now()}@example.com`;
  const doc = await sendDocument({ send: { requireDeclineReason: true } }, [{ name: "Dee Tenant", email, role: "client" }]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(await linkFor(email));
  await page.getByRole("button", { name: "Decline" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Decline to sign" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Decline to sign" }).click();
  assert.equal(await dialog.isVisible(), true, "no reason, no decline");
  await dialog.getByRole("alert").filter({ hasText: "Please give a reason." }).waitFor();
  await axe(page, "decline");
  await dialog.getByLabel(/Reason/).fill("The rent is not what we agreed.");
  await shot(page, "7-decline");
  await dialog.getByRole("button", { name: "Decline to sign" }).click();
  await page.getByRole("heading", { name: "This document was declined" }).waitFor();
  await axe(page, "declined");
  assert.equal((await api("GET", `/api/v1/documents/${doc.id}`)).state, "declined");
  await context.close();
});

/** The newest one-time code emailed to `to`, once it is there (`after`: codes seen before). */
async function codeFor(to, after = []) {
  const dir = join(data, "mail");
  for (let i = 0; i < 200; i++) {
    for (const raw of emails(dir)) {
      if ((!raw.includes(`To: ${to}`) && !raw.includes(`<${to}>`)) || raw.includes("/s/")) continue;
      const m = raw.replace(/=\r?\n/g, "").match(/^\s*(\d{6})\s*$/m);
      if (m && !after.includes(m[1])) return m[1];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code emailed to ${to}`);
}

test("a person asked for an access code and an emailed code passes both, and five wrong tries lock the link", async () => {
  const email = `cody-${Date.now()}@example.com`;
  const doc = await sendDocument({}, [{ name: "Cody Tenant", email, role: "client", accessCode: "blue river 42", emailCode: true }]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(await linkFor(email));
  await page.getByRole("heading", { name: "Confirm it is you" }).waitFor();
  assert.equal(await page.locator(".sheet img").count(), 0, "nothing of the document before the checks");
  const proceed = page.getByRole("button", { name: "Continue" });
  assert.equal(await proceed.isDisabled(), true);
  await axe(page, "verify");
  await shot(page, "verify-1-check");

  await page.getByRole("button", { name: "Email me a code" }).click();
  await page.getByText(/We sent a 6-digit code to \u2068?c•••@example\.com/).waitFor();
  assert.equal(await page.getByRole("button", { name: "Send a new code" }).isDisabled(), true, "not again at once");
  const code = await codeFor(email);
  await page.getByLabel("Access code").fill("blue river 41");
  await page.getByLabel("Code from your email").fill(code);
  await proceed.click();
  // Both asked: the page does not say which was wrong.
  await page.getByRole("alert").filter({ hasText: "One of the codes is not right, or the emailed code has run out. Tries left: 4." }).waitFor();
  await axe(page, "verify, a wrong code");
  await shot(page, "verify-2-wrong-code");
  await page.getByLabel("Access code").fill("blue river 42");
  await proceed.click();
  await page.getByRole("heading", { name: "Before you sign" }).waitFor();
  // The pass lasts for the tab: a reload does not ask again.
  await page.reload();
  await page.getByRole("heading", { name: "Before you sign" }).waitFor();
  assert.equal((await api("GET", `/api/v1/documents/${doc.id}`)).people[0].checks.join(), "accessCode,emailCode");
  assert.deepEqual(errors, []);
  await context.close();

  // Five wrong access codes lock the link for a while.
  const other = `lock-${Date.now()}@example.com`;
  await sendDocument({}, [{ name: "Lou Tenant", email: other, role: "client", accessCode: "green field" }]);
  const locked = await (await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })).newPage();
  await locked.goto(await linkFor(other));
  await locked.getByRole("heading", { name: "Confirm it is you" }).waitFor();
  for (let n = 1; n <= 5; n++) {
    await locked.getByLabel("Access code").fill(`guess ${n}`);
    await locked.getByRole("button", { name: "Continue" }).click();
    const expect = n < 5 ? `That access code is not right. Tries left: ${5 - n}.` : "Too many wrong tries. You can try again at";
    await locked.getByRole("alert").filter({ hasText: expect }).waitFor();
  }
  assert.equal(await locked.getByLabel("Access code").isDisabled(), true);
  await axe(locked, "verify, locked");
  await shot(locked, "verify-3-locked-phone");
  await locked.reload();
  await locked.getByRole("alert").filter({ hasText: "Too many wrong tries." }).waitFor();
});

test("Arabic reads right to left and Japanese in its own words, on a 375-pixel phone too", async () => {
  for (const [lang, heading] of [["ar", null], ["ja", null]]) {
    const email = `${lang}-${Date.now()}@example.com`;
    await sendDocument({}, [{ name: lang === "ar" ? "ليلى حداد" : "山田 花子", email, role: "client", locale: lang }]);
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(await linkFor(email));
    await page.locator("main.consent h1").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.evaluate(() => document.documentElement.dir), lang === "ar" ? "rtl" : "ltr");
    const text = await page.locator("main.consent").innerText();
    assert.ok(!/Before you sign/.test(text), `${lang}: the page is in its language: ${text.slice(0, 200)}`);
    await axe(page, `consent (${lang})`);
    await shot(page, `8-consent-${lang}-phone`);
    await page.locator("label.check input").check();
    await page.locator("form button.primary").click();
    await page.locator(".sheet img").first().waitFor();
    await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
    // On a phone the bar edits the current field at a readable size.
    await page.locator(".bar.bottom .actions button.secondary").nth(1).click();
    const editor = page.locator(".editor input, .editor select").first();
    await editor.waitFor();
    assert.ok(parseFloat(await editor.evaluate((e) => getComputedStyle(e).fontSize)) >= 16, "no zoom on focus");
    await editor.fill("2027-01-01");
    await page.locator(".field button.pick.done").first().waitFor();
    // Each field's box lies on the page where the document draws it.
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll(".field")].map((f) => {
        const r = f.getBoundingClientRect();
        const c = f.firstElementChild.getBoundingClientRect();
        const s = f.closest(".sheet").getBoundingClientRect();
        return { name: f.firstElementChild.getAttribute("aria-label"), left: r.left - s.left, want: (parseFloat(f.style.left) / 100) * s.width, width: r.width, wantWidth: (parseFloat(f.style.width) / 100) * s.width, child: [c.left - r.left, r.right - c.right] };
      }),
    );
    for (const b of boxes) {
      assert.ok(Math.abs(b.left - b.want) < 1.5 && Math.abs(b.width - b.wantWidth) < 1.5, `${lang}: ${b.name} sits where the document draws it: ${JSON.stringify(b)}`);
      assert.ok(b.child[0] > -1.5 && b.child[1] > -1.5, `${lang}: ${b.name}'s control stays in its box: ${JSON.stringify(b)}`);
    }
    // No sideways scrolling on a phone.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    await axe(page, `document (${lang})`);
    await shot(page, `9-document-${lang}-phone`);
    void heading;
    await context.close();
  }
});

test("every screen at 1280 and 375 pixels wide, in English and in Arabic", async () => {
  const simple = { type: "doc", content: [
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] },
    { type: "paragraph", content: [{ type: "text", text: "The tenant pays the rent on the first day of each month, by bank transfer." }] },
    { type: "signatureBlock", attrs: { role: "client" } },
  ] };
  for (const lang of ["en", "ar"]) {
    for (const width of [1280, 375]) {
      const tag = `${lang}-${width}`;
      const name = lang === "ar" ? "ليلى حداد" : "Ada Tenant";
      const context = await browser.newContext(width === 375
        ? { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
        : { viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      // Sign: consent, the document, the pad, signed.
      const email = `${tag}-${Date.now()}@example.com`;
      await sendDocument({ source: simple }, [{ name, email, role: "client", locale: lang }]);
      await page.goto(await linkFor(email));
      await page.locator("main.consent h1").waitFor();
      await axe(page, `consent ${tag}`);
      await shot(page, `${tag}-1-consent`);
      await page.locator("label.check input").check();
      await page.locator("form button.primary").click();
      await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
      await axe(page, `document ${tag}`);
      await shot(page, `${tag}-2-document`);
      await page.locator("button.sign-here").first().click();
      const pad = page.locator("canvas.surface");
      await pad.waitFor();
      const box = await pad.boundingBox();
      await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
      await page.mouse.down();
      for (let i = 1; i <= 16; i++) await page.mouse.move(box.x + 20 + i * (box.width / 20), box.y + box.height * (0.5 + 0.25 * Math.sin(i / 2)));
      await page.mouse.up();
      await axe(page, `pad ${tag}`);
      await shot(page, `${tag}-3-pad`);
      // The upload tab, with nothing chosen yet.
      await page.locator("dialog.pad [role=tab]").nth(2).click();
      await page.locator("dialog.pad label.button").waitFor();
      await axe(page, `upload ${tag}`);
      await shot(page, `${tag}-3b-upload`);
      await page.locator("dialog.pad [role=tab]").nth(0).click();
      await page.locator("dialog.pad button.primary").click();
      await page.locator(".sign-here.done svg").waitFor();
      await page.locator(".bar.bottom button.primary").click();
      await page.locator("main.status h1").waitFor();
      await axe(page, `signed ${tag}`);
      await shot(page, `${tag}-4-signed`);
      // Decline: the dialog, then the declined page.
      const other = `${tag}-decline-${Date.now()}@example.com`;
      await sendDocument({ source: simple }, [{ name, email: other, role: "client", locale: lang }]);
      await page.goto(await linkFor(other));
      await page.locator("main.consent h1").waitFor();
      await page.locator("button.decline").click();
      await page.locator("dialog.decline-dialog textarea").fill(lang === "ar" ? "الإيجار غير صحيح." : "The rent is wrong.");
      await axe(page, `decline ${tag}`);
      await shot(page, `${tag}-5-decline`);
      await page.locator("dialog.decline-dialog button.danger").click();
      await page.locator("main.status h1").waitFor();
      await axe(page, `declined ${tag}`);
      await shot(page, `${tag}-6-declined`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${tag}: no sideways scrolling`);
      // The check screen: an access code and an emailed code, one code sent, one wrong try.
      const checked = `${tag}-verify-${Date.now()}@example.com`;
      await sendDocument({ source: simple }, [{ name, email: checked, role: "client", locale: lang, accessCode: "blue river 42", emailCode: true }]);
      await page.goto(await linkFor(checked));
      await page.locator("main.verify h1").waitFor();
      await page.locator("main.verify .code-row button").click();
      await page.locator("#email-code-note").filter({ hasText: /@/ }).waitFor();
      await page.locator("#access-code").fill("wrong code");
      await page.locator("#email-code").fill("000000");
      await page.locator("main.verify button.primary").click();
      await page.locator("main.verify [role=alert]").waitFor();
      await axe(page, `verify ${tag}`);
      await shot(page, `${tag}-7-verify`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${tag}: the check screen does not scroll sideways`);
      await context.close();
    }
  }
});

/** A caller's page on its own origin: the loader, one <signet-signing>, its events kept. */
test("a PDF template's document is the file's own page: its words are the text layer and its fields sit at their tags", async () => {
  // A PDF printed by Chromium, with text tags in its words.
  const maker = await browser.newPage();
  await maker.setContent(`<html><body style="font-family: sans-serif; font-size: 14px">
    <h1>Parking permit</h1><p>The holder may park one car in bay 12.</p>
    <p style="margin-bottom: 48px">Holder: {{Holder signature;type=signature;role=client;height=40;width=180}}</p>
    <p>Date: {{Permit date;type=date;role=client}}</p></body></html>`);
  const pdf = await maker.pdf({ width: "8.5in", height: "11in", margin: { top: "1in", left: "1in", right: "1in", bottom: "1in" } });
  await maker.close();
  const template = await api("POST", "/api/v1/templates/file", { name: "Parking permit", fileName: "permit.pdf", file: Buffer.from(pdf).toString("base64") });
  assert.equal(template.kind, "pdf");
  // The file's words are there to read and find, its tags are not, and each field's box is
  // where its tag was written in the file.
  const { context, page } = await openConverted(template, `pdf-${Date.now()}@example.com`, "The holder may park one car in bay 12.", 1.5);
  await axe(page, "document from a PDF template");
  await shot(page, "10-pdf-template");
  await context.close();
});

/** Opens a template's document for `email`'s seat `client` and checks what a signer of a
 * converted file relies on: the file's words to read (tags gone) and each box at its tag. */
/** Sends a template to `email` for its seat `client` and opens the signing page past the
 * consent, its first page drawn. */
async function openFor(template, email, { locale = "en", width = 1280 } = {}) {
  const name = locale === "ar" ? "ليلى حداد" : "Ada Holder";
  await api("POST", "/api/v1/documents/send", { templateId: template.id, parties: [{ seat: "client", name, email, locale }] });
  const context = await browser.newContext(width === 375
    ? { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    : { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(await linkFor(email));
  await page.locator("label.check input").check();
  await page.locator("form button.primary").click();
  await page.locator(".sheet img").first().waitFor();
  await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
  return { context, page };
}

async function openConverted(template, email, words, within) {
  const { context, page } = await openFor(template, email);
  assert.equal(await page.getByText(words).count(), 1, `the page's words: ${words}`);
  assert.equal(await page.getByText(/type=|\{\{/).count(), 0);
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll(".field")].map((f) => {
      const r = f.getBoundingClientRect();
      const s = f.closest(".sheet").getBoundingClientRect();
      return { left: r.left - s.left, top: r.top - s.top, width: r.width, sheet: s.width };
    }),
  );
  assert.equal(boxes.length, template.fields.length);
  const pageWidth = template.paper === "a4" ? 595.28 : 612;
  for (const [i, f] of template.fields.entries()) {
    const a = f.areas[0];
    const scale = boxes[i].sheet / pageWidth;
    assert.ok(Math.abs(boxes[i].left - a.x * scale) < within && Math.abs(boxes[i].top - a.y * scale) < within && Math.abs(boxes[i].width - a.width * scale) < within, `${f.name} at its tag: ${JSON.stringify([boxes[i], a])}`);
  }
  return { context, page };
}

test("a Word file's template is LibreOffice's pages, its words the text layer and its fields at their tags", async () => {
  // A Word file written by python-docx, a Word-compatible writer.
  const dir = mkdtempSync(join(tmpdir(), "signet-docx-"));
  execFileSync("python3", ["-c", `
import docx
from docx.shared import Pt
d = docx.Document()
d.add_heading('Parking permit', 1)
d.add_paragraph('The holder may park one car in bay 12 on working days.')
p = d.add_paragraph('Holder: ')
p.add_run('{{Holder signature;type=signature;role=client;height=40;width=180}}')
p.paragraph_format.space_after = Pt(36)
d.add_paragraph('Date: {{Permit date;type=date;role=client}}')
d.save('permit.docx')
`], { cwd: dir });
  const file = readFileSync(join(dir, "permit.docx")).toString("base64");
  rmSync(dir, { recursive: true, force: true });
  const template = await api("POST", "/api/v1/templates/file", { name: "Parking permit (Word)", fileName: "permit.docx", file });
  assert.equal(template.kind, "office");
  const { context, page } = await openConverted(template, `office-${Date.now()}@example.com`, "The holder may park one car in bay 12 on working days.", 1.5);
  await axe(page, "document from a Word template");
  await shot(page, "11-office-template");
  await context.close();
});

test("a photographed page's template is the picture, its tags covered, read by tesseract into the text layer", async () => {
  // A page as a phone would give it: tinted paper, no stated resolution (a PNG screenshot).
  const maker = await browser.newPage({ viewport: { width: 816, height: 1056 }, deviceScaleFactor: 1.5 });
  await maker.setContent(`<html><body style="margin: 0; background: #efe9dc; font-family: serif; font-size: 19px; color: #222">
    <div style="padding: 90px 96px"><h1 style="font-size: 34px">Parking permit</h1>
    <p>The holder may park one car in bay 12 on working days.</p>
    <p style="margin: 56px 0">Holder: {{Holder signature;type=signature;role=client;height=40;width=180}}</p>
    <p>Date: {{Permit date;type=date;role=client}}</p></div></body></html>`);
  const png = await maker.screenshot({ fullPage: false });
  if (process.env.KEEP_PICTURES) writeFileSync(join(process.env.KEEP_PICTURES, "photo.png"), png);
  await maker.close();
  const template = await api("POST", "/api/v1/templates/file", { name: "Parking permit (photo)", fileName: "permit.png", file: Buffer.from(png).toString("base64") });
  assert.equal(template.kind, "picture");
  assert.ok(template.warnings.some((w) => w.includes("does not state its resolution")), JSON.stringify(template.warnings));
  const { context, page } = await openConverted(template, `picture-${Date.now()}@example.com`, /The holder may park one car in bay 12/, 2.5);
  await axe(page, "document from a picture template");
  await shot(page, "12-picture-template");
  await context.close();
});

test("initials written on every page are one field: signed once, they show in each place", async () => {
  const maker = await browser.newPage();
  await maker.setContent(`<html><body style="font-family: sans-serif; font-size: 14px">
    <h1>House rules</h1><p>Quiet hours are from ten at night to seven in the morning.</p>
    <p>Initials: {{Initials;type=initials;role=client;width=60;height=28}}</p>
    <p style="break-before: page">Bins go out on Thursday evenings.</p>
    <p>Initials: {{Initials;type=initials;role=client;width=60;height=28}}</p></body></html>`);
  const pdf = await maker.pdf({ width: "8.5in", height: "11in", margin: { top: "1in", left: "1in", right: "1in", bottom: "1in" } });
  await maker.close();
  const template = await api("POST", "/api/v1/templates/file", { name: "House rules", fileName: "rules.pdf", file: Buffer.from(pdf).toString("base64") });
  assert.equal(template.fields.length, 1);
  assert.deepEqual(template.fields[0].areas.map((a) => a.page), [1, 2]);
  for (const locale of ["en", "ar"]) {
    for (const width of [1280, 375]) {
      const tag = `${locale}-${width}`;
      const { context, page } = await openFor(template, `rules-${tag}-${Date.now()}@example.com`, { locale, width });
      assert.equal(await page.locator(".field").count(), 2, "one box on each page");
      assert.equal(await page.locator(".field.copy").count(), 1);
      // Signing the copy on page 2 opens the pad for the one field.
      await page.locator(".field.copy").scrollIntoViewIfNeeded();
      await page.locator(".field.copy button").click();
      const pad = page.locator("canvas.surface");
      await pad.waitFor();
      await pad.scrollIntoViewIfNeeded();
      const box = await pad.boundingBox();
      await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * (box.width / 16), box.y + box.height * (0.5 + 0.25 * Math.sin(i / 2)));
      await page.mouse.up();
      await page.locator("dialog.pad button.primary").click();
      await page.locator(".field:not(.copy) .sign-here.done svg").waitFor();
      assert.equal(await page.locator(".field.copy .sign-here.done svg").count(), 1, "the copy shows the same initials");
      await axe(page, `initials on every page ${tag}`);
      // In the middle of the screen: clear of the bar fixed at the bottom.
      await page.locator(".field.copy").evaluate((e) => e.scrollIntoView({ block: "center" }));
      await shot(page, locale === "en" && width === 1280 ? "13-repeated-initials" : `13-repeated-initials-${tag}`);
      if (tag === "en-1280") {
        await page.getByRole("button", { name: "Finish" }).click();
        // "You have signed", or already "complete" when sealing was quicker than the page.
        await page.getByRole("heading", { name: /^(You have signed|This document is complete)$/ }).waitFor({ timeout: 30000 });
      }
      await context.close();
    }
  }
});

function hostPage(url, timeout) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme app</title>
<script src="${base}/embed/signing.js"></script></head>
<body style="font-family: sans-serif; margin: 0; background: #f6f3ee">
<header style="padding: 12px 24px; background: #2d3b2f; color: #fff"><strong>Acme Lettings</strong> · Your tenancy</header>
<main style="max-width: 900px; margin: 16px auto; padding: 0 16px"><h1>Sign your lease</h1>
<signet-signing id="signing" url="${url}" load-timeout="${timeout ?? 20000}" title="Sign the lease"></signet-signing></main>
<script>
window.events = [];
for (const t of ["loaded", "ready", "completed", "declined", "expired", "error"])
  document.getElementById("signing").addEventListener(t, (e) => window.events.push([t, e.detail]));
</script></body></html>`;
}

function serveHost() {
  return hostSite((url, params) => hostPage(url, params.get("timeout")));
}

test("a caller's page on another origin signs an embedded seat and hears its events; a third origin is refused", async () => {
  const host = await serveHost();
  const stranger = await serveHost();
  try {
    cli(["admin", "workspace", "update", workspace, "--embed-origin", host.origin]);
    const simple = { type: "doc", content: [
      { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] },
      { type: "paragraph", content: [{ type: "text", text: "The tenant pays the rent on the first day of each month, by bank transfer." }] },
      { type: "signatureBlock", attrs: { role: "client" } },
    ] };
    const email = `emma-${Date.now()}@example.com`;
    const doc = await sendDocument({ source: simple, embedded: ["client"] }, [{ name: "Emma Tenant", email, role: "client" }]);
    const refused = await fetch(`${base}/api/v1/documents/${doc.id}/embed-session`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `idem-${Date.now()}-refused` },
      body: JSON.stringify({ seat: "client", origin: stranger.origin }),
    });
    assert.equal(refused.status, 409, "a website not on the list");
    const s = await api("POST", `/api/v1/documents/${doc.id}/embed-session`, { seat: "client", origin: host.origin });

    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const framePolicy = [];
    page.on("response", (r) => r.url().includes("/e/") && framePolicy.push(r.headers()["content-security-policy"]));
    await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
    const frame = page.frameLocator("signet-signing iframe");
    await frame.getByRole("heading", { name: "Before you sign" }).waitFor();
    assert.ok(framePolicy[0]?.includes(`frame-ancestors ${host.origin}`), framePolicy[0]);
    await page.waitForFunction(() => window.events.some(([t]) => t === "ready"));
    await shot(page, "embed-1-consent");
    await frame.getByLabel("I agree to use electronic records and signatures.").check();
    await frame.getByRole("button", { name: "Continue" }).click();
    await frame.locator(".sheet img").first().waitFor();
    await frame.locator("button.sign-here").first().click();
    const pad = frame.locator("canvas.surface");
    await pad.waitFor();
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
    await page.mouse.down();
    for (let i = 1; i <= 16; i++) await page.mouse.move(box.x + 20 + i * (box.width / 20), box.y + box.height * (0.5 + 0.25 * Math.sin(i / 2)));
    await page.mouse.up();
    await shot(page, "embed-2-pad");
    await frame.locator("dialog.pad button.primary").click();
    await frame.locator(".sign-here.done svg").waitFor();
    await frame.getByRole("button", { name: "Finish" }).click();
    // "You have signed", then, once sealed, the document complete: the frame follows the
    // document live, without a reload.
    await frame.getByRole("heading", { name: "This document is complete" }).waitFor({ timeout: 30000 });
    await page.waitForFunction(() => window.events.some(([t]) => t === "completed"));
    const events = (await page.evaluate(() => window.events)).map(([t]) => t);
    assert.deepEqual(events.slice(0, 3), ["loaded", "ready", "completed"], events.join());
    const height = await page.evaluate(() => document.getElementById("signing").shadowRoot.querySelector("iframe").style.height);
    assert.match(height, /^\d+px$/, "the element grew to its content");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "embed-3-complete");
    assert.equal((await api("GET", `/api/v1/documents/${doc.id}`)).state, "executed");
    const mail = join(data, "mail");
    for (const raw of emails(mail)) {
      assert.ok(!raw.includes(email), "nobody emails an embedded seat");
    }
    await context.close();

    // A session for the allowed site, put in a page on another origin: the browser refuses the
    // frame, so the element hears nothing from it and reports an error.
    const doc2 = await sendDocument({ source: simple, embedded: ["client"] }, [{ name: "Emma Tenant", email: `emma2-${Date.now()}@example.com`, role: "client" }]);
    const s2 = await api("POST", `/api/v1/documents/${doc2.id}/embed-session`, { seat: "client", origin: host.origin });
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${stranger.origin}/?url=${encodeURIComponent(s2.url)}&timeout=3000`);
    await other.waitForFunction(() => window.events.length > 0, null, { timeout: 10000 });
    const heard = (await other.evaluate(() => window.events)).map(([t]) => t);
    assert.deepEqual(heard, ["error"]);
    assert.equal((await api("GET", `/api/v1/documents/${doc2.id}`)).state, "sent", "nothing happened");
  } finally {
    host.server.close();
    stranger.server.close();
  }
});

test("a picture of a signature is traced into outlines in the browser and signs", async () => {
  const simple = { type: "doc", content: [
    { type: "paragraph", content: [{ type: "text", text: "The tenant pays the rent on the first day of each month." }] },
    { type: "signatureBlock", attrs: { role: "client" } },
  ] };
  const email = `uma-${Date.now()}@example.com`;
  const doc = await sendDocument({ source: simple }, [{ name: "Uma Tenant", email, role: "client" }]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(await linkFor(email));
  await page.getByLabel("I agree to use electronic records and signatures.").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.locator("button.sign-here").first().click();
  await page.getByRole("tab", { name: "Upload" }).click();
  // A photographed signature: dark ink on off-white paper, as a PNG.
  const png = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 900;
    c.height = 300;
    const g = c.getContext("2d");
    g.fillStyle = "#f4f1ea";
    g.fillRect(0, 0, 900, 300);
    g.strokeStyle = "#1a1a40";
    g.lineWidth = 9;
    g.lineCap = "round";
    g.beginPath();
    g.moveTo(60, 200);
    g.bezierCurveTo(160, 20, 260, 280, 360, 120);
    g.bezierCurveTo(420, 40, 520, 260, 620, 150);
    g.stroke();
    g.font = "italic 80px serif";
    g.fillStyle = "#1a1a40";
    g.fillText("Uma", 640, 200);
    return c.toDataURL("image/png").split(",")[1];
  });
  await page.locator("#upload").setInputFiles({ name: "signature.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
  await page.locator(".traced-preview svg path").waitFor();
  await axe(page, "upload");
  await shot(page, "3b-signature-upload");
  // A picture with no ink is refused with the page's own words.
  const blank = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 300;
    c.height = 100;
    const g = c.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, 300, 100);
    return c.toDataURL("image/png").split(",")[1];
  });
  await page.locator("#upload").setInputFiles({ name: "blank.png", mimeType: "image/png", buffer: Buffer.from(blank, "base64") });
  await page.getByRole("alert").filter({ hasText: "No signature was found in this picture." }).waitFor();
  await page.locator("#upload").setInputFiles({ name: "signature.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
  await page.locator(".traced-preview svg path").waitFor();
  await page.getByRole("button", { name: "Apply" }).click();
  await page.locator(".sign-here.done svg path[fill-rule='evenodd']").waitFor();
  await page.getByRole("button", { name: "Finish" }).click();
  await page.locator("main.status h1").waitFor();
  const csv = await (await fetch(`${base}/api/v1/documents/${doc.id}/audit-log.csv`, { headers: { Authorization: `Bearer ${key}` } })).text();
  assert.ok(csv.includes("uploaded"), csv);
  assert.deepEqual(errors, []);
  await context.close();
});

/** A two-page letter PDF written byte by byte: page 1 asks the client to sign, page 2 states
 * a fee under `squares` white squares of a tenth of a point (invisible in print, a flood of
 * shapes to a program that turns the page into pictures). */
function feePdf(squares) {
  const first = "BT /F1 14 Tf 72 700 Td (Service agreement between the parties.) Tj ET\n"
    + "BT /F1 12 Tf 72 600 Td (Client: {{Client signature;type=signature;role=client;height=30}}) Tj ET\n";
  let second = "BT /F1 28 Tf 72 650 Td (Fee: USD 50,000 a month) Tj ET\n1 1 1 rg\n";
  for (let i = 0; i < squares; i++) second += `${(72 + (i % 4000) * 0.11).toFixed(2)} ${(300 + Math.floor(i / 4000) * 0.11).toFixed(2)} 0.1 0.1 re f\n`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const parts = [];
  for (const [i, content] of [first, second].entries()) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    const packed = deflateSync(Buffer.from(content));
    objects.push(Buffer.concat([Buffer.from(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`), packed, Buffer.from("\nendstream")]));
  }
  parts.push(Buffer.from("%PDF-1.7\n"));
  let at = parts[0].length;
  const offsets = [];
  for (const [i, o] of objects.entries()) {
    offsets.push(at);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(o) ? o : Buffer.from(o), Buffer.from("\nendobj\n")]);
    parts.push(b);
    at += b.length;
  }
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, "0")} 00000 n \n`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

test("a forged PDF template: the fee page the signer is shown, and signs, is the sealed page", async () => {
  // Over the cap (the review's file), refused when the template is made.
  const refused = await fetch(`${base}/api/v1/templates/file`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `forged-${Date.now()}` },
    body: JSON.stringify({ name: "Forged", fileName: "fee.pdf", file: feePdf(1_100_000).toString("base64") }),
  });
  assert.equal(refused.status, 400);
  assert.match((await refused.json()).error.message, /page 2 .*drawing instructions/);

  const template = await api("POST", "/api/v1/templates/file", { name: "Service agreement", fileName: "fee.pdf", file: feePdf(60_000).toString("base64") });
  const email = `fee-${Date.now()}@example.com`;
  const { context, page } = await openFor(template, email);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // The fee page as the signer's browser shows it: its picture's ink, in blocks.
  const second = page.locator(".sheet img").nth(1);
  await second.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => { const i = document.querySelectorAll(".sheet img")[1]; return i?.complete && i.naturalWidth > 0; });
  await page.getByText("Fee: USD 50,000 a month").waitFor();
  await shot(page, "14-forged-fee-page");
  const shown = await second.evaluate((img) => ({ src: img.currentSrc, width: img.naturalWidth }));

  // Signed in the browser: the signature drawn on the pad.
  await page.getByRole("button", { name: /Client signature/ }).click();
  const pad = page.locator("canvas.surface");
  await pad.waitFor();
  const box = await pad.boundingBox();
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 30 + i * 18, box.y + box.height * (0.5 + 0.3 * Math.sin(i / 2)), { steps: 2 });
  await page.mouse.up();
  await page.getByRole("button", { name: "Apply" }).click();
  await page.locator(".sign-here.done svg").waitFor();
  await page.getByRole("button", { name: "Finish" }).click();
  await page.getByRole("heading", { name: /^(You have signed|This document is complete)$/ }).waitFor();
  const docs = await api("GET", `/api/v1/documents?limit=5`);
  const doc = docs.data.find((d) => d.title === "Service agreement");
  let state;
  for (let i = 0; i < 300; i++) {
    state = (await api("GET", `/api/v1/documents/${doc.id}`)).state;
    if (state === "executed") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(state, "executed");

  // The sealed page 2, drawn by poppler at the picture's width, against the picture the
  // browser showed: the same ink, block by block.
  const sealed = Buffer.from(await (await fetch(`${base}/api/v1/documents/${doc.id}/signed.pdf`, { headers: { Authorization: `Bearer ${key}` } })).arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), "signet-sealed-"));
  writeFileSync(join(dir, "s.pdf"), sealed);
  execFileSync("pdftoppm", ["-png", "-f", "2", "-l", "2", "-scale-to-x", String(shown.width), "-scale-to-y", "-1", join(dir, "s.pdf"), join(dir, "p")]);
  const png = readdirSync(dir).find((f) => f.endsWith(".png"));
  const poppler = `data:image/png;base64,${readFileSync(join(dir, png)).toString("base64")}`;
  const compared = await page.evaluate(async ([a, b]) => {
    const ink = async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      const blocks = [];
      for (let by = 0; by < c.height; by += 20) for (let bx = 0; bx < c.width; bx += 20) {
        let s = 0, n = 0;
        for (let y = by; y < Math.min(by + 20, c.height); y++) for (let x = bx; x < Math.min(bx + 20, c.width); x++) { s += 255 - d[(y * c.width + x) * 4]; n++; }
        blocks.push(s / n);
      }
      return blocks;
    };
    const [x, y] = [await ink(a), await ink(b)];
    let worst = 0, total = 0;
    for (let i = 0; i < Math.min(x.length, y.length); i++) { worst = Math.max(worst, Math.abs(x[i] - y[i])); total += x[i]; }
    return { worst, total };
  }, [shown.src, poppler]);
  assert.ok(compared.total > 1000, `the fee page is shown with its ink: ${JSON.stringify(compared)}`);
  assert.ok(compared.worst < 40, `what was shown is the sealed page: ${JSON.stringify(compared)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a voided document's link shows its state and whom to ask, nothing of its pages", async () => {
  for (const [locale, heading, contact] of [
    ["en", "This document was withdrawn", "Questions about it? Contact Acme Lettings."],
    ["ar", "تم سحب هذا المستند", "لأي سؤال عن هذا المستند، تواصل مع Acme Lettings."],
  ]) {
    const email = `void-${locale}-${Date.now()}@example.com`;
    const doc = await sendDocument({}, [{ name: "Ada Tenant", email, role: "client", locale }]);
    const link = await linkFor(email);
    await api("POST", `/api/v1/documents/${doc.id}/void`, { reason: "sent to the wrong person" });
    for (const width of [1280, 375]) {
      const context = await browser.newContext(width === 375 ? { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const pictures = [];
      page.on("request", (r) => r.url().includes("/page/v1/images/") && pictures.push(r.url()));
      await page.goto(link);
      await page.getByRole("heading", { name: heading }).waitFor();
      await page.getByText(contact).waitFor();
      assert.equal(await page.locator(".sheet").count(), 0);
      assert.deepEqual(pictures, [], "no page picture is asked for");
      await axe(page, `voided, ${locale}, at ${width}`);
      await shot(page, locale === "en" ? `15-voided-${width}` : `15-voided-${locale}-${width}`);
      await context.close();
    }
  }
});

/** A context at one of the two widths every screen is checked at. */
function sized(width) {
  return browser.newContext(width === 375
    ? { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    : { viewport: { width: 1280, height: 900 } });
}

/** `/page/v1/view` answered as the server answers it, with `change` made to its JSON. */
async function viewAs(page, change) {
  await page.route("**/page/v1/view*", async (route) => {
    const r = await route.fetch();
    const json = await r.json();
    change(json);
    await route.fulfill({ response: r, json });
  });
}

test("the state screens, the Type tab, the TEST banner and the embedded frame pass axe at both widths, in English and Arabic", async () => {
  const simple = { type: "doc", content: [
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] },
    { type: "paragraph", content: [{ type: "text", text: "The tenant pays the rent on the first day of each month, by bank transfer." }] },
    { type: "signatureBlock", attrs: { role: "client" } },
  ] };
  // Test documents are emailed only to the workspace's own sender address: a workspace of
  // their own, so its mail cannot be taken for another test's.
  const practice = JSON.parse(cli(["admin", "workspace", "create", "--name", "Practice Lettings", "--plan", "pro", "--json"]));
  const sender = `sender-${Date.now()}@example.com`;
  cli(["admin", "workspace", "update", practice.id, "--sender-email", sender]);
  const tk = JSON.parse(cli(["admin", "key", "create", "--workspace", practice.id, "--mode", "test", "--all-scopes", "--json"]));
  const testKey = tk.key ?? tk.token ?? tk.secret;
  const host = await serveHost();
  cli(["admin", "workspace", "update", workspace, "--embed-origin", host.origin]);
  try {
    for (const width of [1280, 375]) {
      // A link that opens nothing (no person, so no language but the browser's).
      const context = await sized(width);
      const page = await context.newPage();
      await page.goto(`${base}/s/${"A".repeat(43)}`);
      await page.getByRole("heading", { name: "This link does not open a document" }).waitFor();
      await axe(page, `bad link at ${width}`);
      await shot(page, `16-bad-link-${width}`);
      await context.close();
    }
    for (const lang of ["en", "ar"]) {
      for (const width of [1280, 375]) {
        const tag = `${lang}-${width}`;
        const name = lang === "ar" ? "ليلى حداد" : "Ada Tenant";
        // Signed with the Type tab, then complete once sealed.
        const email = `states-${tag}-${Date.now()}@example.com`;
        const doc = await sendDocument({ source: simple }, [{ name, email, role: "client", locale: lang }]);
        const link = await linkFor(email);
        let context = await sized(width);
        let page = await context.newPage();
        await page.goto(link);
        await page.locator("main.consent h1").waitFor();
        await page.locator("label.check input").check();
        await page.locator("form button.primary").click();
        await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
        await page.locator("button.sign-here").first().click();
        await page.locator("dialog.pad [role=tab]").nth(1).click();
        await page.locator("dialog.pad #typed").waitFor();
        await axe(page, `Type tab ${tag}`);
        await shot(page, `${tag}-3c-type`);
        await page.locator("dialog.pad button.primary").click();
        await page.locator(".sign-here.done").waitFor();
        await page.locator(".bar.bottom button.primary").click();
        await page.locator("main.status h1").waitFor();
        for (let i = 0; i < 300 && (await api("GET", `/api/v1/documents/${doc.id}`)).state !== "executed"; i++) {
          await new Promise((r) => setTimeout(r, 100));
        }
        await page.reload();
        await page.locator("main.status button.primary").waitFor();
        await axe(page, `complete ${tag}`);
        await shot(page, `${tag}-8-complete`);
        await context.close();

        // Waiting for someone who signs first, expired, and an error: the same link, its
        // view answered as those states are.
        for (const [screen, change] of [
          ["waiting", (v) => { v.stage = "waiting"; }],
          ["expired", (v) => { v.stage = "expired"; }],
        ]) {
          context = await sized(width);
          page = await context.newPage();
          await viewAs(page, change);
          await page.goto(link);
          await page.locator("main.status h1").waitFor();
          await axe(page, `${screen} ${tag}`);
          await shot(page, `${tag}-9-${screen}`);
          // The page keeps asking (long polls): let those in flight go.
          await page.unrouteAll({ behavior: "ignoreErrors" });
          await context.close();
        }
        context = await sized(width);
        page = await context.newPage();
        await page.route("**/page/v1/view*", (route) => route.fulfill({
          status: 500,
          json: { error: { kind: "internal", message: "Something failed on our side; it was logged.", requestId: "req_0", retryable: true } },
        }));
        await page.goto(link);
        await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
        await axe(page, `error ${tag}`);
        await shot(page, `${tag}-9-error`);
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await context.close();

        // A practice document: the TEST banner on the consent and the document screens.
        const res = await fetch(`${base}/api/v1/documents`, {
          method: "POST",
          headers: { Authorization: `Bearer ${testKey}`, "Content-Type": "application/json", "Idempotency-Key": `idem-test-${tag}-${Date.now()}` },
          body: JSON.stringify({ title: "Studio lease", source: simple, people: [{ name, email: `someone-${tag}@example.com`, role: "client", locale: lang }], sendNow: true }),
        });
        assert.equal(res.status, 201, await res.text());
        context = await sized(width);
        page = await context.newPage();
        await page.goto(await linkFor(sender));
        await page.locator("main.consent .test-banner").waitFor();
        await axe(page, `TEST banner, consent ${tag}`);
        await page.locator("label.check input").check();
        await page.locator("form button.primary").click();
        await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
        await page.locator(".test-banner").first().waitFor();
        await axe(page, `TEST banner, document ${tag}`);
        await shot(page, `${tag}-10-test`);
        await context.close();
        // linkFor takes the first link emailed to the sender: that one is used up.
        for (const file of readdirSync(join(data, "mail"))) {
          const path = join(data, "mail", file);
          if (readFileSync(path, "utf8").includes(sender)) rmSync(path);
        }

        // Inside the embedded frame, on the caller's page.
        const framed = await sendDocument({ source: simple, embedded: ["client"] }, [{ name, email: `framed-${tag}-${Date.now()}@example.com`, role: "client", locale: lang }]);
        const session = await api("POST", `/api/v1/documents/${framed.id}/embed-session`, { seat: "client", origin: host.origin });
        context = await sized(width);
        page = await context.newPage();
        await page.goto(`${host.origin}/?url=${encodeURIComponent(session.url)}`);
        await page.frameLocator("signet-signing iframe").locator("main.consent h1").waitFor();
        const frame = page.frames().find((f) => f.url().includes("/e/"));
        assert.ok(frame, "the signing page's frame");
        await axe(frame, `embedded consent ${tag}`);
        await frame.locator("label.check input").check();
        await frame.locator("form button.primary").click();
        await frame.waitForFunction(() => document.querySelector(".sheet img")?.complete);
        await axe(frame, `embedded document ${tag}`);
        await shot(page, `${tag}-11-embedded`);
        await context.close();
      }
    }
  } finally {
    host.server.close();
  }
});
