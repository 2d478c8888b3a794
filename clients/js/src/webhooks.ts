/** Verifying a webhook delivery (Standard Webhooks) with Web Crypto: `webhook-id`,
 * `webhook-timestamp` and a signature header (`webhook-signature`, or `service-signature`
 * carrying the same values) whose `v1,<base64 HMAC-SHA256 of id.timestamp.body>` matches one of
 * the endpoint's secrets. During a rotation a delivery carries one signature per live secret, so
 * a receiver holding either the old or the new secret accepts it. */

import { SignetError } from "./errors.js";

export const TOLERANCE_SECONDS = 300;
/** A delivery carries one signature per live secret (two while rotating); more is not ours. */
const MAX_SIGNATURES = 16;

export class WebhookVerificationError extends SignetError {
  constructor(message: string) {
    super("invalid", message);
    this.name = "WebhookVerificationError";
  }
}

/** A verified delivery. `webhookId` is the same on every retry and replay of it: skip ids
 * already handled. `data.document` is the document as it was; fetch it for its present. */
export interface WebhookEvent {
  webhookId: string;
  id: string;
  type: string;
  createdAt: string;
  test: boolean;
  data: { document?: { id: string; state: string; title?: string; [key: string]: unknown }; [key: string]: unknown };
}

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** Seconds since the epoch; for tests. */
  now?: number;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(" ") : v;
  }
  return undefined;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  let s = text.replace(/-/g, "+").replace(/_/g, "/");
  s += "=".repeat((4 - (s.length % 4)) % 4);
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  try {
    return fromBase64(secret.replace(/^whsec_/, "").trim());
  } catch {
    throw new TypeError("not a webhook secret (whsec_...)");
  }
}

/** The typed event of a delivery; throws `WebhookVerificationError` when it is not from
 * Signet, was changed, or is older (or newer) than the tolerance.
 *
 * `body` is the raw body exactly as received (before any JSON parsing); `secret` is the
 * endpoint's `whsec_...` secret, or several (the old and the new one while rotating). */
export async function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: HeaderSource,
  secret: string | string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const raw: Uint8Array<ArrayBuffer> = typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body);
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0) throw new TypeError("no webhook secret given");
  const keys = await Promise.all(
    secrets.map((s) => crypto.subtle.importKey("raw", keyBytes(s), { name: "HMAC", hash: "SHA-256" }, false, ["verify"])),
  );
  const msgId = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signatures = [header(headers, "webhook-signature"), header(headers, "service-signature")].filter(Boolean).join(" ");
  if (!msgId || !stamp || !signatures) {
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or a signature header");
  }
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError("webhook-timestamp is not a number");
  const sent = Number(stamp);
  const now = options.now ?? Date.now() / 1000;
  const tolerance = options.toleranceSeconds ?? TOLERANCE_SECONDS;
  if (sent < now - tolerance) throw new WebhookVerificationError("the delivery is older than the tolerance");
  if (sent > now + tolerance) throw new WebhookVerificationError("the delivery is dated in the future");
  const prefix = new TextEncoder().encode(`${msgId}.${stamp}.`);
  const signed = new Uint8Array(prefix.length + raw.length);
  signed.set(prefix);
  signed.set(raw, prefix.length);
  let matched = false;
  for (const given of signatures.split(/\s+/).slice(0, MAX_SIGNATURES)) {
    const [version, value] = given.split(",", 2);
    if (version !== "v1" || !value) continue;
    let mac: Uint8Array<ArrayBuffer>;
    try {
      mac = fromBase64(value);
    } catch {
      continue;
    }
    // crypto.subtle.verify compares in constant time.
    for (const key of keys) {
      if (await crypto.subtle.verify("HMAC", key, mac, signed)) {
        matched = true;
        break;
      }
    }
    if (matched) break;
  }
  if (!matched) throw new WebhookVerificationError("no signature matches the secret");
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
  if (!event || typeof event !== "object" || Array.isArray(event)) throw new WebhookVerificationError("the body is not an event");
  return {
    webhookId: msgId,
    id: String(event.id ?? ""),
    type: String(event.type ?? ""),
    createdAt: String(event.createdAt ?? ""),
    test: Boolean(event.test),
    data: (event.data && typeof event.data === "object" ? event.data : {}) as WebhookEvent["data"],
  };
}
