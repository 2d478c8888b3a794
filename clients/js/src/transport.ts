/** The fetch under every call: an `Idempotency-Key` for each POST that has none (the same on
 * each retry of it), retries of what may succeed later (a 429, a retryable 5xx, a network
 * failure), waiting as Retry-After says or backing off, and errors thrown as `SignetError`. */

import { SignetError, retryAfterSeconds } from "./errors.js";

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Never wait longer than this between two attempts, whatever Retry-After says. */
export const MAX_WAIT_SECONDS = 60;

export interface TransportOptions {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  /** Milliseconds one attempt may take. */
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function backoffMs(attempt: number): number {
  return Math.min(MAX_WAIT_SECONDS, 0.5 * 2 ** attempt) * (0.5 + Math.random() / 2) * 1000;
}

async function bodyRetryable(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  try {
    const body = await response.clone().json();
    return Boolean(body?.error?.retryable);
  } catch {
    return [502, 503, 504].includes(response.status);
  }
}

export function newIdempotencyKey(): string {
  return `js_${crypto.randomUUID().replaceAll("-", "")}`;
}

export function retryingFetch(opts: TransportOptions): (input: Request) => Promise<Response> {
  const sleep = opts.sleep ?? wait;
  return async (input: Request) => {
    const headers = new Headers(input.headers);
    if (input.method === "POST" && !headers.has("idempotency-key")) {
      headers.set("Idempotency-Key", newIdempotencyKey());
    }
    // Read once, so every attempt sends the same bytes.
    const body = input.body === null ? undefined : await input.arrayBuffer();
    const mayResend = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].includes(input.method) || headers.has("idempotency-key");
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const request = new Request(input.url, {
        method: input.method,
        headers,
        body,
        redirect: input.redirect,
        signal: input.signal ? AbortSignal.any([input.signal, timeout]) : timeout,
      });
      let response: Response;
      try {
        response = await opts.fetch(request);
      } catch (e) {
        if (input.signal?.aborted) throw e;
        // A failure before an answer: a POST is only sent again with its idempotency key.
        if (attempt >= opts.maxRetries || !mayResend) {
          if (timeout.aborted) throw new SignetError("timeout", `no answer within ${opts.timeoutMs} ms`, { retryable: true });
          const cause = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
          throw new SignetError("transport", `no answer from the server: ${cause}`, { retryable: true });
        }
        await sleep(backoffMs(attempt));
        continue;
      }
      if (response.ok) return response;
      if (attempt < opts.maxRetries && RETRY_STATUSES.has(response.status) && (mayResend || response.status === 429) && (await bodyRetryable(response))) {
        const after = retryAfterSeconds(response);
        await response.body?.cancel();
        await sleep(after === undefined ? backoffMs(attempt) : Math.min(after, MAX_WAIT_SECONDS) * 1000);
        continue;
      }
      throw await SignetError.fromResponse(response);
    }
  };
}
