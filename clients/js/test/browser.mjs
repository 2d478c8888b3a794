// The installed package in a browser (Debian's Chromium, through the front end's playwright-
// core): bundled as a page would bundle it, it calls the live server from a page of that
// server's own origin and verifies a webhook with Web Crypto. Run by tests/it/clients.rs in the
// folder the tarball was installed into, with SIGNET_BASE_URL, SIGNET_API_KEY, CHROMIUM and
// FRONTEND (the front end's folder, whose packages it borrows).
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(join(process.env.FRONTEND, "package.json"));
const { chromium } = require("playwright-core");
const esbuild = require("esbuild");

const built = await esbuild.build({
  stdin: { contents: 'export * from "signet-client";', resolveDir: process.cwd() },
  bundle: true,
  format: "iife",
  globalName: "SignetClient",
  platform: "browser",
  write: false,
});
const bundle = built.outputFiles[0].text;

// A delivery signed as Signet signs one.
const key = randomBytes(32);
const secret = `whsec_${key.toString("base64url")}`;
const body = JSON.stringify({ id: "evt_1", type: "documents.document.executed", createdAt: "2026-11-29T00:00:00Z", test: true, data: { document: { id: "doc_1", state: "executed" } } });
const stamp = String(Math.floor(Date.now() / 1000));
const sig = `v1,${createHmac("sha256", key).update(`msg_1.${stamp}.${body}`).digest("base64")}`;
const headers = { "webhook-id": "msg_1", "webhook-timestamp": stamp, "webhook-signature": sig };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${process.env.SIGNET_BASE_URL}/api/openapi.json`);
  await page.addScriptTag({ content: bundle });
  const got = await page.evaluate(
    async ({ apiKey, body, headers, secret }) => {
      const { Signet, verifyWebhook, SignetError } = globalThis.SignetClient;
      const out = {};
      try {
        new Signet();
      } catch (e) {
        out.noKey = String(e.message);
      }
      const signet = new Signet({ apiKey, baseUrl: location.origin });
      out.usage = await signet.get("/api/v1/usage");
      try {
        await signet.get("/api/v1/documents/{id}", { params: { path: { id: "doc_missing" } } });
      } catch (e) {
        out.missing = e instanceof SignetError ? e.kind : String(e);
      }
      out.event = await verifyWebhook(body, new Headers(headers), secret);
      out.tampered = await verifyWebhook(body.replace("doc_1", "doc_2"), headers, secret).then(() => "accepted", (e) => e.name);
      return out;
    },
    { apiKey: process.env.SIGNET_API_KEY, body, headers, secret },
  );
  assert.deepEqual(errors, []);
  assert.match(got.noKey, /SIGNET_API_KEY/);
  assert.ok(["free", "pro"].includes(got.usage.plan), JSON.stringify(got.usage));
  assert.equal(got.missing, "not_found");
  assert.equal(got.event.type, "documents.document.executed");
  assert.equal(got.event.data.document.id, "doc_1");
  assert.equal(got.tampered, "WebhookVerificationError");
  console.log("browser: ok");
} finally {
  await browser.close();
}
