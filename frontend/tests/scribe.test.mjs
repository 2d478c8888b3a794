// Scribe in a real browser, against the real `signet serve`: a caller's page on its own origin
// shows <signet-scribe> for a session link; the person picks a play, names who signs, answers
// the questions round by round and gets a draft; the caller's page hears `drafted` with the
// draft's id, which the API confirms is a draft. The frame is framed only by that website,
// its link works once, a page in Arabic reads right to left, and axe (WCAG 2.1 AA) passes on
// every screen. Screenshots go to docs/scribe/ with SCREENSHOTS=1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, CHROMIUM, axe, cleanEnv, framePage, freePort, hostSite, keyed, launch, serve, shot as shoot, shotsDir } from "./support.mjs";

const shots = shotsDir("scribe");
let data, base, server, browser, key, host;
const cli = (args) => execFileSync(BIN, args, { env: { ...cleanEnv, SIGNET_DATA_DIR: data }, encoding: "utf8" });
const shot = (page, name) => shoot(page, shots, name);
const api = keyed(() => base, () => key);
const hostPage = (url) => framePage({
  base, loader: "/embed/scribe.js", tag: "signet-scribe", events: ["loaded", "drafted", "expired", "error"],
  title: "New agreement", heading: "Draft an agreement", url,
});

before(async () => {
  assert.ok(existsSync(BIN), `the signet binary is built: ${BIN}`);
  assert.ok(existsSync(CHROMIUM), `chromium is installed: ${CHROMIUM}`);
  data = mkdtempSync(join(tmpdir(), "signet-scribe-"));
  base = `http://127.0.0.1:${await freePort()}`;
  host = await hostSite(hostPage);
  const ws = JSON.parse(cli(["admin", "workspace", "create", "--name", "Acme Partners", "--plan", "pro", "--json"]));
  cli(["admin", "workspace", "update", ws.id, "--embed-origin", host.origin]);
  key = JSON.parse(cli(["admin", "key", "create", "--workspace", ws.id, "--mode", "test", "--all-scopes", "--json"])).key;
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

async function session() {
  const s = await api("POST", "/api/v1/embedded/scribe-session", { origin: host.origin, name: "Pilot with Beta Ltd" });
  assert.equal(s.status, 200, JSON.stringify(s.json));
  return s.json;
}

test("a person drafts from a play in Scribe on the caller's page, which hears `drafted`", async () => {
  const s = await session();
  assert.ok(s.url.startsWith(`${base}/scribe/`), s.url);
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => process.env.DEBUG && console.log("console:", m.text()));
  page.on("response", (r) => process.env.DEBUG && console.log("response:", r.status(), r.url()));
  const policies = [];
  page.on("response", (r) => r.url().includes("/scribe/") && policies.push(r.headers()["content-security-policy"]));
  await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
  const frame = page.frameLocator("#frame iframe");
  await frame.getByRole("heading", { name: "Choose a document" }).waitFor();
  assert.ok(policies[0]?.includes(`frame-ancestors ${host.origin}`), policies[0]);
  const inner = page.frames().find((f) => f.url().startsWith(base));
  await axe(inner, "pick");
  await shot(page, "1-pick");

  await frame.getByRole("button", { name: /Mutual non-disclosure agreement/ }).click();
  await frame.getByRole("heading", { name: "Mutual non-disclosure agreement" }).waitFor();
  assert.equal(await frame.getByLabel("Title of the draft").inputValue(), "Pilot with Beta Ltd");
  const seats = frame.locator("fieldset.seat");
  await seats.nth(0).getByLabel("Name").fill("Ada Lovelace");
  await seats.nth(0).getByLabel("Email address").fill("ada@example.com");
  await seats.nth(1).getByLabel("Name").fill("Bo Chen");
  await seats.nth(1).getByLabel("Email address").fill("bo@example.com");
  await axe(inner, "people");
  await shot(page, "2-people");
  await frame.getByRole("button", { name: "Continue" }).click();

  // Round by round: each question's options are clickable; the defaults are chosen already.
  await frame.getByRole("heading", { name: "A few questions" }).waitFor();
  await frame.getByRole("radio", { name: "three years" }).check();
  await frame.getByRole("radio", { name: "No, neither party solicits the other's staff" }).check();
  await axe(inner, "questions");
  await shot(page, "3-questions");
  await frame.getByRole("button", { name: "Continue" }).click();
  // A later round asks what the earlier answers opened, its default chosen already.
  await frame.getByRole("radio", { name: "twelve months" }).waitFor();
  assert.equal(await frame.getByRole("radio", { name: "twelve months" }).isChecked(), true);
  await frame.getByRole("radio", { name: "six months" }).check();
  await frame.getByRole("button", { name: "Continue" }).click();

  await frame.getByRole("heading", { name: "Your draft is ready" }).waitFor();
  // The draft's pages, drawn as a send will lay them out.
  await frame.getByRole("img", { name: "Page 1" }).waitFor({ timeout: 30000 });
  assert.ok(await frame.locator(".pages .box").count() >= 2, "each person's fields are marked");
  await axe(inner, "drafted");
  await shot(page, "4-drafted");
  const drafted = await page.waitForFunction(() => window.events.find(([t]) => t === "drafted"));
  const [, detail] = await drafted.jsonValue();
  assert.equal(detail.play, "mutual-nda");
  const doc = await api("GET", `/api/v1/documents/${detail.draftId}`);
  assert.equal(doc.status, 200);
  assert.equal(doc.json.state, "draft");
  assert.equal(doc.json.title, "Pilot with Beta Ltd");
  assert.deepEqual(doc.json.people.map((p) => p.email).sort(), ["ada@example.com", "bo@example.com"]);
  const events = await page.evaluate(() => window.events.map(([t]) => t));
  assert.deepEqual(events, ["loaded", "drafted"]);
  assert.deepEqual(errors, []);

  // The link worked once: opened again, it has ended, and the caller's page is told.
  const again = await context.newPage();
  await again.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
  await again.frameLocator("#frame iframe").getByText("This page has ended").waitFor();
  await again.waitForFunction(() => window.events.some(([t]) => t === "expired"));
  await context.close();
});

test("Scribe reads right to left in Arabic and fits a phone, a tablet and a desk", async () => {
  for (const [locale, width, height] of [["ar", 768, 1024], ["ar", 1280, 900], ["ar", 375, 800], ["en", 375, 800]]) {
    const tag = `${locale}-${width}`;
    const s = await session();
    const context = await browser.newContext({ viewport: { width, height }, locale });
    const page = await context.newPage();
    await page.goto(`${host.origin}/?url=${encodeURIComponent(s.url)}`);
    const frame = page.frameLocator("#frame iframe");
    await frame.getByRole("heading", { name: locale === "ar" ? "اختر مستندًا" : "Choose a document" }).waitFor();
    const inner = page.frames().find((f) => f.url().startsWith(base));
    assert.equal(await inner.evaluate(() => document.documentElement.dir), locale === "ar" ? "rtl" : "ltr");
    const fits = () => inner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    assert.ok(await fits(), `${tag}: no sideways scroll`);
    await axe(inner, `pick ${tag}`);
    await shot(page, `5-pick-${tag}`);
    await frame.getByRole("button", { name: /Mutual non-disclosure agreement/ }).click();
    await frame.locator("fieldset.seat").first().waitFor();
    assert.ok(await fits(), `${tag}: the people screen does not scroll sideways`);
    await axe(inner, `people ${tag}`);
    await shot(page, `6-people-${tag}`);
    await context.close();
  }
});

test("a link's page is framed by its website only, and an unknown link by nobody", async () => {
  const s = await session();
  const res = await fetch(s.url);
  assert.equal(res.status, 200);
  assert.ok(res.headers.get("content-security-policy").includes(`frame-ancestors ${host.origin}`));
  assert.equal(res.headers.get("x-frame-options"), null);
  const unknown = await fetch(`${base}/scribe/${"A".repeat(43)}`);
  assert.equal(unknown.status, 404);
  assert.ok(unknown.headers.get("content-security-policy").includes("frame-ancestors 'none'"));
  // Not a website on the list: 409, and no link.
  const refused = await api("POST", "/api/v1/embedded/scribe-session", { origin: "https://elsewhere.example.com" });
  assert.equal(refused.status, 409, JSON.stringify(refused.json));
});
