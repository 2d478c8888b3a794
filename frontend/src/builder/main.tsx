// The builder frame, on the caller's website: a person writes a template and places its
// fields; each save tells the hosting page `saved` with the template's id and version, on its
// website only. The frame's link is exchanged once for the frame's own key (templates:read
// and templates:write, nothing else), kept in this page's memory only; every call is the
// public API's.
import { render } from "preact";
import { signal } from "@preact/signals";
import type { JSONContent } from "@tiptap/core";
import { Builder, Refused } from "./Builder";
import type { BuilderApi, Check, Preview, Saved, Stored } from "./Builder";
import { preferred, t, use } from "./words";
import "./builder.css";

type Start = { key: string; origin: string; name: string | null; language: string };

const state = signal<"loading" | "ended" | "ready">("loading");
const token = location.pathname.split("/").filter(Boolean).pop() ?? "";
let key = "";
let startName: string | null = null;
/** The website the frame is on: the only one its messages go to. */
let host: string | null = document.querySelector<HTMLMetaElement>('meta[name="signet-origin"]')?.content ?? null;

/** Tells the hosting page (its website only) what happened. */
function tell(type: string, detail: Record<string, unknown> = {}) {
  if (!host || window.parent === window) return;
  window.parent.postMessage({ signet: 1, type, detail, ...(type === "resize" ? { height: detail.height } : {}) }, host);
}

async function call<T>(method: string, path: string, body?: unknown, auth = `Bearer ${key}`): Promise<T> {
  const headers: Record<string, string> = { Authorization: auth };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // Every save is its own: a retry of the same save is the browser's, never ours.
  if (method === "POST" && path.startsWith("/api/")) headers["Idempotency-Key"] = crypto.randomUUID();
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  const json = await res.json().catch(() => ({}));
  if (res.status === 401) {
    state.value = "ended";
    tell("expired", { reason: "the session has ended" });
  }
  if (!res.ok) throw new Refused(json?.error?.message ?? `${res.status}`, res.status);
  return json as T;
}

const saved = (x: { id: string; version: number; name: string }): Saved => ({ id: x.id, version: x.version, name: x.name });

const api: BuilderApi = {
  check: (source: JSONContent) => call<Check>("POST", "/api/v1/documents/check", { source, forTemplate: true }),
  preview: (source, paper, profile) => call<Preview>("POST", "/api/v1/templates/preview", { source, paper, profile }),
  create: async (name, source, paper, profile) => saved(await call("POST", "/api/v1/templates/source", { name, source, paper, profile })),
  version: async (id, version, name, source, paper, profile) =>
    saved(await call("POST", `/api/v1/templates/${encodeURIComponent(id)}/versions`, { version, name, source, paper, profile })),
  load: (id) => call<Stored>("GET", `/api/v1/templates/${encodeURIComponent(id)}/source`),
  upload: async (name, fileName, file) => saved(await call("POST", "/api/v1/templates/file", { name, fileName, file, placeFields: true })),
  page: (id, page) => call("GET", `/api/v1/templates/${encodeURIComponent(id)}/pages/${page}`),
};

async function start() {
  try {
    const s = await call<Start>("POST", "/page/v1/frame/start", { frame: "builder" }, `Link ${token}`);
    key = s.key;
    host = s.origin;
    startName = s.name;
    await use(preferred() ?? s.language);
    // The link is spent: the frame's address no longer holds anything useful.
    history.replaceState(null, "", "/builder/session");
  } catch {
    state.value = "ended";
    tell("expired", { reason: "the session has ended" });
    return;
  }
  state.value = "ready";
  tell("loaded");
}

function App() {
  if (state.value === "loading") return <p class="loading" role="status">{t("loading")}</p>;
  if (state.value === "ended") return <main class="ended"><p class="notice error" role="alert">{t("ended")}</p></main>;
  return (
    <main>
      <h1 class="visually-hidden">{t("title")}</h1>
      <Builder api={api} name={startName}
        onSaved={(s) => tell("saved", { templateId: s.id, version: s.version, name: s.name })}
        onError={(message) => tell("error", { message })} />
    </main>
  );
}

new ResizeObserver(() => tell("resize", { height: document.body.scrollHeight })).observe(document.body);
const root = document.getElementById("app") as HTMLElement;
root.replaceChildren();
render(<App />, root);
start();
