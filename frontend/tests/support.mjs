// What the browser tests share: a free port, the server's own environment without the
// caller's SIGNET_ settings, axe-core at WCAG 2.1 AA, screenshots, and a small SMTP server
// that keeps every message it is given (the real mail path: the server speaks SMTP to it).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const here = new URL(".", import.meta.url).pathname;
const axeSource = readFileSync(join(here, "..", "node_modules", "axe-core", "axe.min.js"), "utf8");

export function freePort() {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** The environment of a server under test: the caller's own SIGNET_ settings left out. */
export const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SIGNET_")));

/** axe-core on `page`, a Playwright page or frame. */
export async function axe(page, screen) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }),
  );
  const found = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`);
  assert.deepEqual(found, [], `axe on ${screen}`);
}

export async function shot(page, dir, name) {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/** An SMTP server on 127.0.0.1 that accepts every message: `messages` holds each as
 * `{ to, data }`, the data with its quoted-printable soft line breaks joined. */
export async function smtpSink() {
  const messages = [];
  const server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let to = [];
    let data = "";
    const say = (line) => socket.write(`${line}\r\n`);
    say("220 sink ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push({ to, data: data.replace(/=\r?\n/g, "") });
          data = "";
          to = [];
          say("250 kept");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") say("250 sink");
        else if (verb === "MAIL") say("250 ok");
        else if (verb === "RCPT") { to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, "$1")); say("250 ok"); }
        else if (verb === "DATA") { inData = true; say("354 go on"); }
        else if (verb === "QUIT") { say("221 bye"); socket.end(); return; }
        else if (verb === "RSET" || verb === "NOOP") say("250 ok");
        else say("502 not here");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { port: server.address().port, messages, close: () => server.close() };
}

/** The first message to `to` whose data matches `pattern`, waited for (up to a minute): the
 * match's first group. */
export async function mailed(sink, to, pattern) {
  for (let i = 0; i < 600; i++) {
    for (const m of sink.messages) {
      if (!m.to.includes(to)) continue;
      const found = m.data.match(pattern);
      if (found) return found[1];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing matching ${pattern} was emailed to ${to}`);
}

/** `signet serve` on `data`, listening on 127.0.0.1 at `base`'s port, with `base` as its
 * public URL (`http://localhost:PORT` where passkeys need a host name), once it answers; `env` adds
 * settings. Every person of every test comes from 127.0.0.1: the per-address budget of
 * anonymous calls (120 a minute) is for one address's people, not for a whole test suite. */
export async function serve(bin, data, base, env = {}) {
  const server = spawn(bin, ["serve"], {
    env: {
      ...cleanEnv, SIGNET_DATA_DIR: data, SIGNET_LISTEN: `127.0.0.1:${new URL(base).port}`, SIGNET_PUBLIC_URL: base,
      SIGNET_LOG_FORMAT: "text", RUST_LOG: "warn", SIGNET_ANONYMOUS_PER_MINUTE: "100000", ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/openapi.json`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

/** Debian's chromium, headless. */
export function launch(executablePath) {
  return chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** A caller's website on its own origin: every request gets `page(url, params)`, the HTML of
 * a page holding one of the loaders for the session link in `?url=`. */
export async function hostSite(page) {
  const { createServer: createHttpServer } = await import("node:http");
  const port = await freePort();
  const server = createHttpServer((req, res) => {
    const u = new URL(req.url, "http://host");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page(u.searchParams.get("url"), u.searchParams));
  });
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** The server binary and the browser the tests drive (a fresh build's, Debian's). */
const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache", "signet-target");
export const BIN = process.env.BROWSER_TEST_SIGNET ?? join(target, "debug", "signet");
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** Where a test's screenshots go: `docs/<name>` with SCREENSHOTS=1, a temporary folder
 * otherwise. */
export function shotsDir(name) {
  return process.env.SCREENSHOTS === "1" ? join(here, "..", "..", "docs", name) : mkdtempSync(join(tmpdir(), `signet-${name}-shots-`));
}

/** An API caller with `key()`: each call `{status, json}`, a fresh Idempotency-Key each time. */
export function keyed(base, key) {
  return async (method, path, body) => {
    const res = await fetch(base() + path, {
      method,
      headers: { Authorization: `Bearer ${key()}`, "Content-Type": "application/json", "Idempotency-Key": `idem-${Math.random().toString(36).slice(2)}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: await res.json() };
  };
}

/** A caller's page on its own origin showing `<tag>` for the session link `url`, loaded with
 * `loader`, its `events` kept in `window.events`. */
export function framePage({ base, loader, tag, events, title, heading, url, wide = 900 }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme app</title>
<script src="${base}${loader}"></script></head>
<body style="font-family: sans-serif; margin: 0; background: #f6f3ee">
<header style="padding: 12px 24px; background: #2d3b2f; color: #fff"><strong>Acme Partners</strong> · ${title}</header>
<main style="max-width: ${wide}px; margin: 16px auto; padding: 0 16px"><h1>${heading}</h1>
<${tag} id="frame" url="${url}" title="${heading}"></${tag}></main>
<script>
window.events = [];
for (const t of ${JSON.stringify(events)})
  document.getElementById("frame").addEventListener(t, (e) => window.events.push([t, e.detail]));
</script></body></html>`;
}
