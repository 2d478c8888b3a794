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
}
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

const token = location.pathname.split("/").filter(Boolean).pop() ?? "";

// The pass, once the person confirmed who they are: kept for this tab only (it ends with
// the tab), sent with every call.
const passKey = `signet-pass:${token.slice(0, 12)}`;
let pass: string | null = (() => { try { return sessionStorage.getItem(passKey); } catch { return null; } })();
export function keepPass(p: string) {
  pass = p;
  try { sessionStorage.setItem(passKey, p); } catch { /* storage off: the pass lives in memory */ }
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
  opened: () => call<void>("POST", "/page/v1/opened", {}),
  consent: (version: string, sha256: string) => call<View>("POST", "/page/v1/consent", { version, sha256 }),
  sign: (values: Record<string, unknown>) => call<View>("POST", "/page/v1/sign", { values }),
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
