// The packed tarball, installed into a fresh folder, against a live `signet serve` (started
// by tests/it/clients.rs, which sets SIGNET_BASE_URL, SIGNET_API_KEY: a test key with every
// scope, and SIGNET_LIMITED_KEY: a test key with a budget of a few requests a minute).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { SERVICE_VERSION, Signet, SignetError, WebhookVerificationError, verifyWebhook } from "signet-client";
import { saveSignedPdf } from "signet-client/node";

const BASE = process.env.SIGNET_BASE_URL;

const source = () => ({
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Services agreement" }] },
    { type: "paragraph", content: [{ type: "text", text: "The provider does the work; the client pays." }] },
    { type: "signatureBlock", attrs: { role: "client" } },
    { type: "signatureBlock", attrs: { role: "provider" } },
  ],
});

const newDocument = (signet, extra = {}) =>
  signet.post("/api/v1/documents", {
    body: {
      title: "Services agreement",
      source: source(),
      people: [
        { name: "Ada Client", email: "ada@example.com", role: "client" },
        { name: "Bob Provider", email: "bob@example.com", role: "provider" },
      ],
      ...extra,
    },
  });

async function waitFor(predicate, what, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await predicate();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A local webhook receiver keeping every delivery's raw body and headers. */
async function receiver() {
  const deliveries = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks/signet`,
    deliveries,
    ofType: (t) => deliveries.filter((d) => JSON.parse(d.body).type === t),
    close: () => new Promise((r) => server.close(r)),
  };
}

test("the installed package is used and speaks the server's version", async () => {
  const where = fileURLToPath(import.meta.resolve("signet-client"));
  assert.match(where, /node_modules\/signet-client\/dist\/index\.js$/);
  assert.ok(!where.includes("/clients/js/"), where);
  const health = await fetch(`${BASE}/health`);
  assert.equal(health.headers.get("service-version"), SERVICE_VERSION);
});

test("a key is required", () => {
  const saved = process.env.SIGNET_API_KEY;
  delete process.env.SIGNET_API_KEY;
  try {
    assert.throws(() => new Signet(), /SIGNET_API_KEY/);
  } finally {
    process.env.SIGNET_API_KEY = saved;
  }
});

test("from words to a sealed PDF, with a verified webhook", async () => {
  const signet = new Signet();
  const hooks = await receiver();
  const hook = await signet.post("/api/v1/webhooks", {
    body: { eventTypes: ["documents.document.sent", "documents.document.executed"], url: hooks.url },
  });
  assert.match(hook.secret, /^whsec_/);

  const doc = await newDocument(signet, { metadata: { deal: "js-42" }, externalId: "js-deal-42" });
  assert.equal(doc.state, "draft");
  assert.equal(doc.test, true);
  const sent = await signet.post("/api/v1/documents/{id}/send", { params: { path: { id: doc.id } } });
  assert.equal(sent.state, "sent");
  for (const seat of ["client", "provider"]) {
    await signet.post("/api/v1/documents/{id}/test-sign", { params: { path: { id: doc.id } }, body: { seat } });
  }
  const executed = await waitFor(async () => {
    const d = await signet.get("/api/v1/documents/{id}", { params: { path: { id: doc.id } } });
    return d.state === "executed" && d;
  }, "the document to be executed");
  assert.ok(executed.people.filter((p) => p.action === "sign").every((p) => p.status === "signed"));

  // The sealed PDF as bytes and saved to a file: the same, judged by pyHanko.
  const pdf = await signet.signedPdf(doc.id);
  assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), "%PDF-");
  const dir = mkdtempSync(join(tmpdir(), "signet-js-"));
  const file = join(dir, "signed.pdf");
  await saveSignedPdf(signet, doc.id, file);
  assert.deepEqual(readFileSync(file), Buffer.from(pdf));
  assert.ok(!existsSync(`${file}.part`));
  const root = join(dir, "test-root.pem");
  writeFileSync(root, Buffer.from(await (await fetch(`${BASE}/ca/test-root.pem`)).arrayBuffer()));
  const out = spawnSync("pyhanko", ["sign", "validate", "--pretty-print", "--trust-replace", "--trust", root, file], { encoding: "utf8" });
  assert.equal(out.error, undefined, "pyhanko is on the PATH (scripts/test installs pyhanko-cli)");
  assert.match(out.stdout, /The signature is judged VALID\./, out.stdout + out.stderr);
  const csv = Buffer.from(await signet.auditLog(doc.id)).toString();
  assert.match(csv, /signed/);

  const [delivery] = await waitFor(() => hooks.ofType("documents.document.executed").length && hooks.ofType("documents.document.executed"), "the executed webhook");
  const event = await verifyWebhook(delivery.body, delivery.headers, hook.secret);
  assert.equal(event.type, "documents.document.executed");
  assert.equal(event.data.document.id, doc.id);
  assert.equal(event.webhookId, delivery.headers["webhook-id"]);
  // A Headers object and a string body do as well.
  assert.equal((await verifyWebhook(delivery.body.toString(), new Headers(delivery.headers), hook.secret)).id, event.id);

  // Tampered, another secret, too old: refused.
  const tampered = Buffer.from(delivery.body.toString().replace(doc.id, "doc_other"));
  await assert.rejects(verifyWebhook(tampered, delivery.headers, hook.secret), WebhookVerificationError);
  await assert.rejects(verifyWebhook(delivery.body, delivery.headers, `whsec_${"A".repeat(43)}`), WebhookVerificationError);
  await assert.rejects(
    verifyWebhook(delivery.body, delivery.headers, hook.secret, { now: Number(delivery.headers["webhook-timestamp"]) + 301 }),
    /older than the tolerance/,
  );
  // Either signature header is enough.
  const { "webhook-signature": _, ...onlyService } = delivery.headers;
  assert.equal((await verifyWebhook(delivery.body, onlyService, hook.secret)).id, event.id);
  await hooks.close();
});

test("a rotated secret verifies with the old and the new", async () => {
  const signet = new Signet();
  const hooks = await receiver();
  const hook = await signet.post("/api/v1/webhooks", { body: { eventTypes: ["documents.document.executed"], url: hooks.url } });
  const rotated = await signet.post("/api/v1/webhooks/{id}/rotate", { params: { path: { id: hook.id } } });
  assert.notEqual(rotated.secret, hook.secret);
  await signet.post("/api/v1/webhooks/{id}/test", { params: { path: { id: hook.id } }, body: {} });
  const [delivery] = await waitFor(() => hooks.deliveries.length && hooks.deliveries, "the test delivery");
  assert.equal(delivery.headers["webhook-signature"].split(" ").length, 2);
  assert.equal((await verifyWebhook(delivery.body, delivery.headers, hook.secret)).test, true);
  assert.equal((await verifyWebhook(delivery.body, delivery.headers, rotated.secret)).test, true);
  assert.equal((await verifyWebhook(delivery.body, delivery.headers, [`whsec_${"B".repeat(43)}`, rotated.secret])).test, true);
  await hooks.close();
});

test("every page and the filters", async () => {
  const signet = new Signet();
  const batch = randomUUID().slice(0, 12);
  const made = [];
  for (let i = 0; i < 5; i++) made.push((await newDocument(signet, { metadata: { batch, n: String(i) } })).id);
  const seen = [];
  for await (const d of signet.each("/api/v1/documents", { params: { query: { limit: 2, metadata: { batch } } } })) seen.push(d.id);
  assert.deepEqual(seen, [...made].reverse());
  const only = await signet.get("/api/v1/documents", { params: { query: { metadata: { batch, n: "3" } } } });
  assert.deepEqual(only.data.map((d) => d.id), [made[3]]);
  assert.equal(only.page.nextCursor, null);
});

test("errors are thrown with the spec's shape", async () => {
  const signet = new Signet();
  await assert.rejects(signet.get("/api/v1/documents/{id}", { params: { path: { id: "doc_does_not_exist" } } }), (e) => {
    assert.ok(e instanceof SignetError);
    assert.equal(e.kind, "not_found");
    assert.equal(e.status, 404);
    assert.ok(e.requestId);
    assert.equal(e.retryable, false);
    return true;
  });
  await assert.rejects(signet.post("/api/v1/documents", { body: { title: "x", source: {}, people: [] } }), (e) => e.kind === "invalid" && e.message.length > 0);
  await assert.rejects(new Signet({ apiKey: "svc_test_not_a_key" }).get("/api/v1/documents"), (e) => e.kind === "unauthenticated");
});

test("the same idempotency key answers the first result", async () => {
  const signet = new Signet();
  const body = {
    title: "Once",
    source: source(),
    people: [
      { name: "Ada", email: "ada@example.com", role: "client" },
      { name: "Bob", email: "bob@example.com", role: "provider" },
    ],
  };
  const key = `js-${randomUUID()}`;
  const first = await signet.api.POST("/api/v1/documents", { body, headers: { "Idempotency-Key": key } });
  const again = await signet.api.POST("/api/v1/documents", { body, headers: { "Idempotency-Key": key } });
  assert.equal(again.data.id, first.data.id);
  assert.equal(again.response.headers.get("idempotent-replayed"), "true");
  // Without a key, each call is its own document.
  assert.notEqual((await signet.post("/api/v1/documents", { body })).id, (await signet.post("/api/v1/documents", { body })).id);
});

test("a 429 is retried after Retry-After", async () => {
  const limited = process.env.SIGNET_LIMITED_KEY;
  const impatient = new Signet({ apiKey: limited, maxRetries: 0 });
  let refused;
  for (let i = 0; i < 20 && !refused; i++) {
    await impatient.get("/api/v1/documents", { params: { query: { limit: 1 } } }).catch((e) => {
      refused = e;
    });
  }
  assert.ok(refused instanceof SignetError, "the budget ran out");
  assert.equal(refused.kind, "rate_limited");
  assert.equal(refused.retryable, true);
  assert.ok(refused.retryAfter >= 0 && refused.retryAfter <= 60);
  const started = Date.now();
  const page = await new Signet({ apiKey: limited }).get("/api/v1/documents", { params: { query: { limit: 1 } } });
  assert.ok(Array.isArray(page.data));
  assert.ok((Date.now() - started) / 1000 >= refused.retryAfter - 1.5);
});

test("a download before execution is not found and leaves no file", async () => {
  const signet = new Signet();
  const doc = await newDocument(signet);
  const file = join(mkdtempSync(join(tmpdir(), "signet-js-")), "out.pdf");
  await assert.rejects(saveSignedPdf(signet, doc.id, file), (e) => e.kind === "not_found");
  assert.ok(!existsSync(file) && !existsSync(`${file}.part`));
});

test("a server that cannot be reached is a transport error", async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise((r) => probe.listen(0, "127.0.0.1", r));
  const port = probe.address().port;
  await new Promise((r) => probe.close(r));
  const nowhere = new Signet({ apiKey: "svc_test_any", baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
  await assert.rejects(nowhere.get("/api/v1/documents"), (e) => {
    assert.ok(e instanceof SignetError);
    assert.equal(e.kind, "transport");
    assert.equal(e.retryable, true);
    assert.equal(e.status, undefined);
    return true;
  });
});
