// The signing page's first load, in headless Chromium on this machine: bytes transferred and
// the time until the first page picture is visible, for a 1-page and a 20-page document, on a
// fresh browser (nothing cached) at phone and desktop sizes. Run with a release build:
//
//   cargo build --release && node bench/signing-page.mjs [runs]
//
// Figures go to bench/RESULTS.md by hand. Aim: the first page visible in under 300 ms at p95
// (under 400 ms for 20 pages) and under 150 KB transferred for a 1-page document. Two clocks:
// the browser's paint time of the first picture from the start of the navigation (Element
// Timing), and the bench's own, from before `page.goto` in a fresh context.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { createRequire } from "node:module";

const root = new URL("..", import.meta.url).pathname;
const require = createRequire(join(root, "frontend", "package.json"));
const { chromium } = require("playwright-core");
const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache", "signet-target");
const BIN = process.env.BENCH_SIGNET ?? join(target, "release", "signet");
const runs = Number(process.argv[2] ?? 10);

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SIGNET_")));
const data = mkdtempSync(join(tmpdir(), "signet-bench-page-"));
const port = await new Promise((ok) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => ok(port)); });
});
const base = `http://127.0.0.1:${port}`;
const cli = (args) => JSON.parse(execFileSync(BIN, args, { env: { ...env, SIGNET_DATA_DIR: data }, encoding: "utf8" }));
const ws = cli(["admin", "workspace", "create", "--name", "Bench Lettings", "--plan", "pro", "--json"]);
const key = cli(["admin", "key", "create", "--workspace", ws.id, "--mode", "live", "--all-scopes", "--json"]).key;
const server = spawn(BIN, ["serve"], {
  env: { ...env, SIGNET_DATA_DIR: data, SIGNET_LISTEN: `127.0.0.1:${port}`, SIGNET_PUBLIC_URL: base, SIGNET_ANONYMOUS_PER_MINUTE: "100000", RUST_LOG: "warn" },
  stdio: ["ignore", "ignore", "inherit"],
});
for (let i = 0; i < 300; i++) {
  try { if ((await fetch(`${base}/api/openapi.json`)).ok) break; } catch {}
  await new Promise((r) => setTimeout(r, 100));
}

const para = (t) => ({ type: "paragraph", content: [{ type: "text", text: t }] });
const words = "The tenant keeps the studio clean and tidy, pays the rent on time, and tells the landlord at once of any damage. ".repeat(6);
function source(pages) {
  const content = [{ type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Lease of the studio" }] }];
  for (let i = 0; i < pages * 6 - 2; i++) content.push(para(`${i + 1}. ${words}`));
  content.push({ type: "paragraph", content: [{ type: "text", text: "Start date: " }, { type: "fieldTag", attrs: { name: "Start date", type: "date", role: "client" } }] });
  content.push({ type: "signatureBlock", attrs: { role: "client" } });
  return { type: "doc", content };
}

async function linkFor(email) {
  const dir = join(data, "mail");
  for (let i = 0; i < 600; i++) {
    for (const f of existsSync(dir) ? readdirSync(dir) : []) {
      // Finished emails only: each is written to a hidden temporary file, then renamed.
      if (f.startsWith(".") || !f.endsWith(".eml")) continue;
      let raw;
      try {
        raw = readFileSync(join(dir, f), "utf8");
      } catch {
        continue;
      }
      if (!raw.includes(email)) continue;
      const m = raw.replace(/=\r?\n/g, "").match(/\/s\/([A-Za-z0-9_-]{43})/);
      if (m) return `${base}/s/${m[1]}`;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no link for ${email}`);
}

async function documentOf(pages) {
  const email = `p${pages}-${Date.now()}@example.com`;
  const res = await fetch(`${base}/api/v1/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `bench-${email}` },
    body: JSON.stringify({ title: `Lease (${pages} pages)`, source: source(pages), people: [{ name: "Ada Tenant", email, role: "client" }], sendNow: true }),
  });
  const doc = await res.json();
  const link = await linkFor(email);
  // Wait until it is rendered: the page shows pictures at once.
  for (let i = 0; i < 600; i++) {
    const v = await (await fetch(`${base}/page/v1/view`, { headers: { Authorization: `Link ${link.split("/s/")[1]}` } })).json();
    if (v.document?.pages) return { link, pages: v.document.pages.length, id: doc.id };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("never rendered");
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

console.log("| document | screen | first page painted p50 / p95 (ms from navigation) | bench's wall clock p50 / p95 (ms) | bytes transferred (KB) | requests |");
console.log("|---|---|---|---|---|---|");
for (const pages of [1, 20]) {
  const doc = await documentOf(pages);
  for (const [screen, viewport, scale] of [["phone 375", { width: 375, height: 740 }, 2], ["desktop 1280", { width: 1280, height: 900 }, 1]]) {
    const times = [];
    const painted = [];
    let bytes = 0;
    let requests = 0;
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      let total = 0;
      let count = 0;
      cdp.on("Network.loadingFinished", (e) => { total += e.encodedDataLength; count++; });
      const t0 = Date.now();
      await page.goto(doc.link);
      // The consent screen first; the bench accepts it once per document, so later runs
      // open straight onto the pages.
      const consent = page.locator("label.check input");
      const pageImg = page.locator(".sheet img").first();
      await Promise.race([consent.waitFor(), pageImg.waitFor()]);
      if (await consent.isVisible()) {
        await consent.check();
        await page.locator("form button.primary").click();
        await pageImg.waitFor();
        await page.waitForFunction(() => document.querySelector(".sheet img")?.complete);
        await context.close();
        i--;
        continue;
      }
      await page.waitForFunction(() => { const i = document.querySelector(".sheet img"); return i && i.complete && i.naturalWidth > 0; });
      times.push(Date.now() - t0);
      // When the browser painted the first page's picture, from the start of the navigation
      // (the Element Timing API): what the person sees, without the bench's own steps.
      painted.push(await page.evaluate(() => new Promise((done) => {
        new PerformanceObserver((list) => {
          const e = list.getEntries().find((x) => x.identifier === "first-page");
          if (e) done(e.renderTime || e.loadTime);
        }).observe({ type: "element", buffered: true });
      })));
      await page.waitForLoadState("networkidle");
      bytes += total;
      requests += count;
      await context.close();
    }
    console.log(`| ${doc.pages} page${doc.pages > 1 ? "s" : ""} | ${screen} | ${Math.round(pct(painted, 50))} / ${Math.round(pct(painted, 95))} | ${pct(times, 50)} / ${pct(times, 95)} | ${(bytes / runs / 1024).toFixed(1)} | ${Math.round(requests / runs)} |`);
  }
}
await browser.close();
server.kill("SIGINT");
