// The signing page's calls. The link's token is the credential: sent in a header, never in a
// URL the page requests, so no log or Referer carries it.

export type Stage = "sign" | "waiting" | "signed" | "executed" | "declined" | "voided" | "expired";

export interface TextRun { x: number; y: number; width: number; height: number; size: number; text: string }
export interface PageOut { width: number; height: number; images: Record<string, string>; text: TextRun[] }
export interface FieldView {
  id: string; name: string; type: string; required: boolean;
  page: number; x: number; y: number; width: number; height: number;
  placeholder: string | null; tooltip: string | null; options: string[];
  value: string | null; editable: boolean;
  /** The field's other places: one value, shown in each. */
  areas: Area[];
  /** A payment field's amount (minor units; none while a formula waits for a number) and
   * where its payment stands: due, open, paid, partially_refunded, refunded, disputed. */
  payment?: PaymentView;
}
export interface PaymentView {
  amount: number | null; currency: string; decimals: number; description: string | null;
  source: "fixed" | "formula" | "price" | "link"; status: string; receiptUrl: string | null;
}
/** Statuses of a payment the processor confirmed (whatever happened after). */
export const PAID = ["paid", "partially_refunded", "refunded", "disputed"];
export interface Area { page: number; x: number; y: number; width: number; height: number }
export interface View {
  stage: Stage;
  document: { title: string; test: boolean; language: string; dir: "ltr" | "rtl"; sender: string; pages: PageOut[] | null; sealed: boolean };
  person: { name: string; email: string; seat: string; status: string };
  consent: { version: string; title: string; text: string; sha256: string } | null;
  fields: FieldView[];
  requireDeclineReason: boolean;
  /** When the sender asks who the person is: the check screen, until they pass. */
  verify: Gate | null;
  words: Record<string, string>;
  version: string;
}
export interface Gate {
  accessCode: boolean; emailCode: boolean; address: string; codeSent: boolean;
  nextCodeIn: number; codesLeft: number; triesLeft: number; lockedUntil: number | null; codeMinutes: number;
}
export interface VerifyOut { pass: string | null; wrong: ("accessCode" | "emailCode")[]; gate: Gate }
export interface ApiError { kind: string; message: string; field?: string }

export class Failed extends Error {
  constructor(public status: number, public error: ApiError) { super(error.message); }
}

let token = location.pathname.split("/").filter(Boolean).pop() ?? "";
// Back from the processor's Checkout (`/s/back`): the link was kept in this tab, never given
// to the processor; the address bar gets it back.
const RETURN_KEY = "signet-return";
if (location.pathname === "/s/back") {
  let kept: string | null = null;
  try { kept = sessionStorage.getItem(RETURN_KEY); } catch { /* storage off */ }
  if (kept) {
    token = kept;
    history.replaceState(null, "", `/s/${kept}${location.search}`);
  }
}
/** Keeps the link in this tab while the person is on the processor's Checkout. */
export function keepForReturn() {
  try { sessionStorage.setItem(RETURN_KEY, token); } catch { /* storage off: the person opens their link again */ }
}
/** At `/s/back` without a kept link: Checkout was opened in its own tab (from a frame). */
export const returnedElsewhere = location.pathname === "/s/back";

/** Shown in a frame on the caller's website (`/e/{token}`): an embedded session. */
export const embedded = location.pathname.startsWith("/e/");
/** The website the frame is on: the only one its messages go to. */
let host: string | null = embedded ? document.querySelector<HTMLMetaElement>('meta[name="signet-origin"]')?.content ?? null : null;

// The pass, once the person confirmed who they are: kept for this tab only (it ends with
// the tab), sent with every call. In a frame it lives in memory only.
const passKey = `signet-pass:${token.slice(0, 12)}`;
let pass: string | null = embedded ? null : (() => { try { return sessionStorage.getItem(passKey); } catch { return null; } })();
export function keepPass(p: string) {
  pass = p;
  if (embedded) return;
  try { sessionStorage.setItem(passKey, p); } catch { /* storage off: the pass lives in memory */ }
}

const toldOnce = new Set<string>();
/** Tells the caller's page what happened (embedded only, to its website only). Each event
 * but `error` and `resize` is told once. */
export function tell(type: string, detail: Record<string, unknown> = {}) {
  if (!embedded || !host || window.parent === window) return;
  if (type !== "error" && type !== "resize") {
    if (toldOnce.has(type)) return;
    toldOnce.add(type);
  }
  window.parent.postMessage({ signet: 1, type, detail, ...(type === "resize" ? { height: detail.height } : {}) }, host);
}

let started: Promise<void> | null = null;
/** An embedded page exchanges its link, once, for a session kept in memory. */
export function start(): Promise<void> {
  if (!embedded) return Promise.resolve();
  started ??= (async () => {
    const out = await call<{ session: string; origin: string; expiresAt: number }>("POST", "/page/v1/embed/start", {});
    token = out.session;
    host = out.origin;
    // The link is spent: the address bar of the frame no longer holds anything useful.
    history.replaceState(null, "", "/e/session");
  })();
  return started;
}

let onPassEnded = () => {};
/** What the page does when its pass runs out (it loads the check screen again). */
export function whenPassEnds(f: () => void) { onPassEnded = f; }

function headers(json: boolean): Record<string, string> {
  return {
    Authorization: `Link ${token}`,
    ...(pass ? { "Signet-Pass": pass } : {}),
    ...(json ? { "Content-Type": "application/json" } : {}),
  };
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  if (res.status === 403 && pass !== null) {
    // The pass ran out: the person confirms who they are again.
    pass = null;
    try { sessionStorage.removeItem(passKey); } catch { /* nothing kept */ }
    onPassEnded();
  }
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Failed(res.status, json.error ?? { kind: "unknown", message: res.statusText });
  return json as T;
}

export const api = {
  view: () => call<View>("GET", "/page/v1/view"),
  /** The view once it differs from `version` (or after 25 seconds). */
  viewChanged: (version: string) => call<View>("GET", `/page/v1/view?wait=25&version=${encodeURIComponent(version)}`),
  opened: () => call<void>("POST", "/page/v1/opened", {}),
  consent: (version: string, sha256: string) => call<View>("POST", "/page/v1/consent", { version, sha256 }),
  sign: (values: Record<string, unknown>) => call<View>("POST", "/page/v1/sign", { values }),
  /** Stripe's hosted Checkout for the person's payment, for the amount the server works out. */
  pay: (values: Record<string, unknown>) => call<{ url: string; amount: number; currency: string }>("POST", "/page/v1/pay", { values }),
  decline: (reason: string | null) => call<View>("POST", "/page/v1/decline", { reason }),
  code: () => call<{ sent: boolean; gate: Gate }>("POST", "/page/v1/code", {}),
  verify: (accessCode: string | null, emailCode: string | null) => call<VerifyOut>("POST", "/page/v1/verify", { accessCode, emailCode }),
  async sealed(): Promise<Blob> {
    const res = await fetch("/page/v1/signed.pdf", { headers: headers(false), cache: "no-store", credentials: "omit" });
    if (!res.ok) throw new Failed(res.status, { kind: "not_found", message: res.statusText });
    return res.blob();
  },
};

/** A word of the page, with {placeholders} filled in. */
export function say(words: Record<string, string>, key: string, vars: Record<string, string | number> = {}): string {
  return (words[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? `{${k}}`));
}
