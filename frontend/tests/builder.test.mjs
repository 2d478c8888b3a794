// The builder in a real browser, against the real `signet serve`: a caller's page on its own
// origin shows <signet-builder> for a session link; a person writes a two-party agreement
// with the keyboard and the panels (heading, words, a question, two seats, a date field, two
// signature blocks), sees the pages drawn, and saves; the caller's page hears `saved` with the
// template's id; a document made from that template is signed through the signing page by
// both people to a seal pdfsig calls valid. Saving again makes version 2. The frame is
// framed only by that website, a third website is refused, a page in Arabic reads right to
// left, and axe (WCAG 2.1 AA) passes on every screen. Screenshots go to docs/embedding/ with
// SCREENSHOTS=1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, CHROMIUM, axe, cleanEnv, framePage, freePort, hostSite, keyed, launch, serve, shot as shoot, shotsDir } from "./support.mjs";

const shots = shotsDir("embedding");
let data, base, server, browser, key, host;
const cli = (args) => execFileSync(BIN, args, { env: { ...cleanEnv, SIGNET_DATA_DIR: data }, encoding: "utf8" });
const shot = (page, name) => shoot(page, shots, name);
const api = keyed(() => base, () => key);
const hostPage = (url) => framePage({
  base, loader: "/embed/builder.js", tag: "signet-builder", events: ["loaded", "saved", "expired", "error"],
  title: "Templates", heading: "Write a template", url, wide: 1400,
});

/** The signing link emailed to `to` (the .eml files of the embedded default). */
async function linkFor(to) {
  const dir = join(data, "mail");
  for (let i = 0; i < 1800; i++) {
    for (const f of existsSync(dir) ? readdirSync(dir) : []) {
      if (f.startsWith(".") || !f.endsWith(".eml")) continue;
      let raw = "";
      try { raw = readFileSync(join(dir, f), "utf8"); } catch { continue; }
      if (!raw.includes(`<${to}>`) && !raw.includes(`To: ${to}`)) continue;
      const m = raw.replace(/=\r?\n/g, "").match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (m) return `${base}/s/${m[1]}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no signing link emailed to ${to}`);
}

before(async () => {
  assert.ok(existsSync(BIN), `the signet binary is built: ${BIN}`);
  assert.ok(existsSync(CHROMIUM), `chromium is installed: ${CHROMIUM}`);
  data = mkdtempSync(join(tmpdir(), "signet-builder-"));
  base = `http://127.0.0.1:${await freePort()}`;
  host = await hostSite(hostPage);
  const ws = JSON.parse(cli(["admin", "workspace", "create", "--name", "Acme Partners", "--plan", "free", "--json"]));
  cli(["admin", "workspace", "update", ws.id, "--embed-origin", host.origin]);
  key = JSON.parse(cli(["admin", "key", "create", "--workspace", ws.id, "--mode", "live", "--all-scopes", "--json"])).key;
  server = await serve(BIN, data, base);
  browser = await launch(CHROMIUM);
});

after(async () => {
  await browser?.close();
  host?.server.close();
  server?.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 300));
  if (data && !process.env.KEEP) rmSync(data, { recursive: true, force: true });
});

async function session(name = "Consulting agreement") {
  const s = await api("POST", "/api/v1/embedded/builder-session", { origin: host.origin, name });
  assert.equal(s.status, 200, JSON.stringify(s.json));
  return s.json;
}

/** Signs as the person the link is for: consent, the date when asked, each signature typed. */
async function signThrough(link, { date } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("heading", { name: "Before you sign" }).waitFor();
  await page.getByLabel("I agree to use electronic records and signatures.").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText(/\d+ of \d+ required fields filled/).waitFor();
  if (date) await page.getByLabel(/^Start date( \(Required\))?$/).fill(date);
  await page.getByRole("button", { name: /signature/i }).first().click();
  await page.getByRole("tab", { name: "Type" }).click();
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText(/(\d+) of \1 required fields filled/).waitFor();
  await page.getByRole("button", { name: "Finish" }).click();
  await page.getByRole("heading", { name: /^(You have signed|This document is complete)$/ }).waitFor();
  await context.close();
}

test("a person writes a two-party agreement in the builder; the caller hears `saved`; it is signed to a valid seal", async () => {
  const s = await session();
  assert.ok(s.url.startsWith(`${base}/builder/`), s.url);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Nothing the page does is refused by its own policy (TipTap's inline styles were).
  const refused = [];
  page.on("console", (m) => {
    if (process.env.DEBUG) console.log("console:", m.text());
    if (m.text().includes("Content Security Policy")) refused.push(m.text());
  });
  const policies = [];
  page.on("response", (r) => r.url().includes("/builder/") && policies.push(r.headers()["content-security-policy"]));
  await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
  const frame = page.frameLocator("#frame iframe");
  const words = frame.getByRole("textbox", { name: "The template's words" });
  await words.waitFor();
  assert.ok(policies[0]?.includes(`frame-ancestors ${host.origin}`), policies[0]);
  const inner = page.frames().find((f) => f.url().startsWith(base));
  assert.equal(await frame.getByLabel("Template name").inputValue(), "Consulting agreement");

  // The seats first: typed as words, kept as one-word seats.
  await frame.getByLabel("Seat", { exact: true }).last().fill("Client");
  await frame.getByRole("button", { name: "Add a seat" }).click();
  await frame.getByLabel("Seat", { exact: true }).last().fill("provider");
  await frame.getByRole("button", { name: "Add a seat" }).click();
  await frame.locator("code.seat", { hasText: "provider" }).waitFor();

  // The words, from the keyboard: a heading, a paragraph with a question, a date field.
  await words.click();
  await frame.getByRole("combobox", { name: "Text" }).selectOption("h1");
  await words.pressSequentially("Consulting agreement");
  await page.keyboard.press("Enter");
  await words.pressSequentially("The provider advises the client for a fee of ");
  await frame.getByLabel("Question", { exact: true }).fill("fee");
  await frame.getByRole("button", { name: "Add a question" }).click();
  await words.pressSequentially("per month, starting on ");
  await frame.getByRole("combobox", { name: "Type" }).first().selectOption("date");
  await frame.getByRole("combobox", { name: "Seat" }).first().selectOption("client");
  await frame.getByRole("button", { name: "Insert · Field" }).click();
  // The new field is selected and its settings are open: named here.
  const fieldName = frame.getByLabel("Field name");
  await fieldName.fill("Start date");
  await axe(inner, "field settings");
  await shot(page, "builder-1-field");
  await frame.getByRole("button", { name: "Done" }).click();
  await page.keyboard.press("End");
  await words.pressSequentially(".");

  // A signature block for each seat, from the seats' panel.
  for (const seat of ["client", "provider"]) {
    await frame.locator(".seats li", { has: frame.locator("code.seat", { hasText: seat }) }).getByRole("button", { name: "Signature block" }).click();
  }
  await frame.getByText("No problems found.").waitFor({ timeout: 10000 });
  await axe(inner, "written");
  await shot(page, "builder-2-written");

  // The pages as a signer sees them, with the fields' boxes.
  await frame.getByRole("button", { name: "Preview" }).click();
  await frame.getByRole("img", { name: "Page 1" }).waitFor({ timeout: 30000 });
  assert.ok(await frame.locator(".preview .box").count() >= 3, "the date field and two signatures are boxed");
  await axe(inner, "preview");
  await shot(page, "builder-3-preview");

  await frame.getByRole("button", { name: "Save template" }).click();
  await frame.getByText("Saved as version 1.").waitFor();
  const saved = await page.waitForFunction(() => window.events.find(([t]) => t === "saved"));
  const [, detail] = await saved.jsonValue();
  assert.equal(detail.version, 1);
  const tpl = await api("GET", `/api/v1/templates/${detail.templateId}`);
  assert.equal(tpl.status, 200);
  assert.deepEqual(tpl.json.seats, ["client", "provider"]);
  assert.deepEqual(tpl.json.questions, ["fee"]);
  const fields = tpl.json.fields;
  assert.deepEqual(fields.filter((f) => f.name === "Start date").map((f) => [f.type, f.role]), [["date", "client"]]);
  assert.deepEqual(fields.filter((f) => f.type === "signature").map((f) => f.role).sort(), ["client", "provider"]);

  // Saved again after a change: version 2 of the same template, told again.
  await words.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await words.pressSequentially("Either party may end this agreement with a month's notice.");
  await frame.getByText("Changes not saved").waitFor();
  await frame.getByRole("button", { name: "Save template" }).click();
  await frame.getByText("Saved as version 2.").waitFor();
  await page.waitForFunction(() => window.events.filter(([t]) => t === "saved").length === 2);
  assert.equal((await api("GET", `/api/v1/templates/${detail.templateId}`)).json.version, 2);
  assert.deepEqual(await page.evaluate(() => window.events.map(([t]) => t)), ["loaded", "saved", "saved"]);
  assert.deepEqual(errors, []);
  assert.deepEqual(refused, []);
  await context.close();

  // A document from it, signed by both people through the signing page, sealed.
  const stamp = Date.now();
  const ada = `ada-${stamp}@example.com`, bo = `bo-${stamp}@example.com`;
  const doc = await api("POST", `/api/v1/templates/${detail.templateId}/documents`, {
    people: [{ name: "Ada Client", email: ada, role: "client" }, { name: "Bo Provider", email: bo, role: "provider" }],
    variableValues: { fee: "$4,000" },
    sendNow: true,
  });
  assert.equal(doc.status, 201, JSON.stringify(doc.json));
  await signThrough(await linkFor(ada), { date: "2027-02-01" });
  await signThrough(await linkFor(bo));
  let state;
  for (let i = 0; i < 600; i++) {
    state = (await api("GET", `/api/v1/documents/${doc.json.id}`)).json.state;
    if (state === "executed") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(state, "executed");
  const sealed = Buffer.from(await (await fetch(`${base}/api/v1/documents/${doc.json.id}/signed.pdf`, { headers: { Authorization: `Bearer ${key}` } })).arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), "signet-built-"));
  writeFileSync(join(dir, "signed.pdf"), sealed);
  const checked = execFileSync("pdfsig", [join(dir, "signed.pdf")], { encoding: "utf8" });
  assert.match(checked, /Signature Validation: Signature is Valid\./, checked);
  const text = execFileSync("pdftotext", [join(dir, "signed.pdf"), "-"], { encoding: "utf8" });
  assert.match(text, /The provider advises the client for a fee of \$4,000 per month, starting on/);
  assert.match(text, /month's notice/);
  rmSync(dir, { recursive: true, force: true });
});

test("fields are placed on an uploaded PDF by dragging boxes and moved with the keys", async () => {
  // A PDF without text tags, printed by Chromium.
  const maker = await browser.newPage();
  await maker.setContent(`<html><body style="font-family: sans-serif; font-size: 16px">
    <h1>Bike lease</h1><p>The rider keeps the blue bike for a year and returns it serviced.</p>
    <p style="margin-top: 80px">Rider: ____________________</p></body></html>`);
  const pdf = await maker.pdf({ width: "8.5in", height: "11in", margin: { top: "1in", left: "1in", right: "1in", bottom: "1in" } });
  await maker.close();

  const s = await session("Bike lease");
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
  const frame = page.frameLocator("#frame iframe");
  await frame.getByRole("button", { name: "Start from a file" }).waitFor();
  await frame.locator(".from-file input[type=file]").setInputFiles({ name: "bike-lease.pdf", mimeType: "application/pdf", buffer: pdf });
  await frame.getByRole("img", { name: "Page 1" }).waitFor({ timeout: 60000 });
  const made = await page.waitForFunction(() => window.events.find(([t]) => t === "saved"));
  const [, first] = await made.jsonValue();
  assert.equal(first.version, 1);

  await frame.getByRole("textbox", { name: "Seat" }).fill("rider");
  await frame.getByRole("button", { name: "Add a seat" }).click();
  await frame.getByRole("combobox", { name: "Type" }).selectOption("signature");
  // A box drawn by dragging on the page, where the rider signs.
  const sheet = frame.locator(".sheet-boxes").first();
  const box = await sheet.boundingBox();
  const from = [box.x + box.width * 0.2, box.y + box.height * 0.35];
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move(from[0] + box.width * 0.15, from[1] + box.height * 0.02, { steps: 5 });
  await page.mouse.move(from[0] + box.width * 0.3, from[1] + box.height * 0.05, { steps: 5 });
  await page.mouse.up();
  await frame.getByLabel("Field name").fill("Rider signature");
  await axe(page.frames().find((f) => f.url().startsWith(base)), "file fields");
  await shot(page, "builder-5-file");
  await frame.getByRole("button", { name: "Done" }).click();
  // Moved with the keys: ten points right.
  const placed = frame.getByRole("button", { name: "Rider signature: Signature for rider" });
  await placed.focus();
  await page.keyboard.press("Shift+ArrowRight");
  await frame.getByText("No problems found.").waitFor();
  await frame.getByRole("button", { name: "Save template" }).click();
  await frame.getByText("Saved as version 2.").waitFor();

  const tpl = (await api("GET", `/api/v1/templates/${first.templateId}`)).json;
  assert.equal(tpl.version, 2);
  assert.equal(tpl.kind, "pdf");
  assert.deepEqual(tpl.seats, ["rider"]);
  const [area] = tpl.fields.find((f) => f.name === "Rider signature").areas;
  assert.equal(area.page, 1);
  // Drawn from 20% across, 35% down, 30% wide; then moved 10 points.
  assert.ok(Math.abs(area.x - (612 * 0.2 + 10)) < 4, JSON.stringify(area));
  assert.ok(Math.abs(area.y - 792 * 0.35) < 4, JSON.stringify(area));
  assert.ok(Math.abs(area.width - 612 * 0.3) < 4, JSON.stringify(area));
  assert.deepEqual(errors, []);
  await context.close();
});

test("the builder reads right to left in Arabic and fits a phone, a tablet and a desk", async () => {
  for (const [locale, width, height] of [["ar", 1280, 900], ["ar", 375, 800], ["en", 375, 800], ["en", 768, 1024]]) {
    const tag = `${locale}-${width}`;
    const s = await session();
    const context = await browser.newContext({ viewport: { width, height }, locale });
    const page = await context.newPage();
    await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
    const frame = page.frameLocator("#frame iframe");
    await frame.locator(".page-words").waitFor();
    const inner = page.frames().find((f) => f.url().startsWith(base));
    assert.equal(await inner.evaluate(() => document.documentElement.dir), locale === "ar" ? "rtl" : "ltr");
    await frame.locator("form.inline input").first().fill("client");
    await frame.locator("form.inline button").first().click();
    await frame.locator(".page-words").click();
    await frame.locator(".page-words").pressSequentially(locale === "ar" ? "اتفاقية خدمات بين الطرفين." : "A services agreement between the parties.");
    await frame.locator(".seats li button").nth(1).click();
    await frame.locator(".signature-block").waitFor();
    const fits = () => inner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    assert.ok(await fits(), `${tag}: no sideways scroll`);
    await axe(inner, `builder ${tag}`);
    await shot(page, `builder-4-${tag}`);
    await context.close();
  }
});

test("a builder link's page is framed by its website only; a third website gets no link", async () => {
  const s = await session();
  const res = await fetch(s.url);
  assert.equal(res.status, 200);
  assert.ok(res.headers.get("content-security-policy").includes(`frame-ancestors ${host.origin}`));
  assert.equal(res.headers.get("x-frame-options"), null);
  const unknown = await fetch(`${base}/builder/${"A".repeat(43)}`);
  assert.equal(unknown.status, 404);
  assert.ok(unknown.headers.get("content-security-policy").includes("frame-ancestors 'none'"));
  const refused = await api("POST", "/api/v1/embedded/builder-session", { origin: "https://elsewhere.example.com" });
  assert.equal(refused.status, 409, JSON.stringify(refused.json));
  // The loader is served to any website.
  const loader = await fetch(`${base}/embed/builder.js`);
  assert.equal(loader.status, 200);
  assert.ok((await loader.text()).includes("signet-builder"));
});
