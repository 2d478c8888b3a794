/** Every answer that is not a success is thrown as a `SignetError` in the spec's error shape. */

export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "dependency"
  | "timeout"
  | "transport";

const BY_STATUS: Record<number, ErrorKind> = {
  400: "invalid",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
  504: "timeout",
};

export class SignetError extends Error {
  /** One of invalid, unauthenticated, forbidden, not_found, conflict, rate_limited,
   * dependency, timeout, or `transport` when no answer came (`status` is then undefined). */
  readonly kind: ErrorKind | string;
  readonly status: number | undefined;
  /** Quote it to support. */
  readonly requestId: string | undefined;
  /** Whether the same request may succeed later (the client has retried it already). */
  readonly retryable: boolean;
  /** Seconds, from Retry-After. */
  readonly retryAfter: number | undefined;

  constructor(
    kind: ErrorKind | string,
    message: string,
    opts: { status?: number; requestId?: string; retryable?: boolean; retryAfter?: number } = {},
  ) {
    super(`${kind}: ${message}${opts.requestId ? ` (request ${opts.requestId})` : ""}`);
    this.name = "SignetError";
    this.kind = kind;
    this.status = opts.status;
    this.requestId = opts.requestId;
    this.retryable = opts.retryable ?? false;
    this.retryAfter = opts.retryAfter;
  }

  /** The error of an answer that is not a success (its body is read). */
  static async fromResponse(response: Response): Promise<SignetError> {
    const text = await response.text().catch(() => "");
    let kind = "";
    let message = "";
    let requestId: string | undefined;
    let retryable = response.status >= 500;
    try {
      const err = JSON.parse(text)?.error;
      if (err && typeof err === "object") {
        kind = String(err.kind ?? "");
        message = String(err.message ?? "");
        requestId = typeof err.requestId === "string" ? err.requestId : undefined;
        retryable = Boolean(err.retryable ?? retryable);
      }
    } catch {
      // Not the spec's shape (a proxy in front): named from the status.
    }
    if (!kind) {
      kind = BY_STATUS[response.status] ?? "dependency";
      message = message || text.slice(0, 200) || response.statusText;
    }
    return new SignetError(kind, message, {
      status: response.status,
      requestId: requestId ?? response.headers.get("request-id") ?? undefined,
      retryable: retryable || response.status === 429,
      retryAfter: retryAfterSeconds(response),
    });
  }
}

export function retryAfterSeconds(response: Response): number | undefined {
  const value = response.headers.get("retry-after");
  if (value === null) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? Math.max(0, n) : undefined;
}
