// The application's calls: GraphQL with the session cookie (the browser sends it; the page
// never sees it) and the `X-Signet-Session` header every call of the application carries,
// and the three calls of signing in and out. A 401 means the session is gone.
import { signal } from "@preact/signals";

export class Failed extends Error {
  constructor(public status: number, public kind: string, message: string) {
    super(message);
  }
}

/** The application's test/live switch: which documents GraphQL, the socket and the files
 * work on (`X-Signet-Mode`). Kept for the tab only, so a new tab starts live. */
export type Mode = "live" | "test";
const kept = sessionStorage.getItem("signet-mode");
export const mode = signal<Mode>(kept === "test" ? "test" : "live");
export function setMode(m: Mode) {
  sessionStorage.setItem("signet-mode", m);
  mode.value = m;
}

function headers(): Record<string, string> {
  return { "content-type": "application/json", "x-signet-session": "1", "x-signet-mode": mode.value };
}

async function post(path: string, body: unknown): Promise<Response> {
  try {
    return await fetch(path, { method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body) });
  } catch (e) {
    throw new Failed(0, "network", String(e));
  }
}

/** Saves one of a document's files (its signed PDF, its audit trail) from the application's
 * own route, read with the session; the browser's download names it. */
export async function download(path: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: "same-origin", headers: headers() });
  } catch (e) {
    throw new Failed(0, "network", String(e));
  }
  if (!res.ok) throw await failure(res);
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "download";
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Follows one subscription over the graphql-transport-ws socket (the cookie goes with the
 * upgrade; the mode in `connection_init`). Each result goes to `onData`; a refusal or a lost
 * socket to `onEnd`, after which the caller may start again. Returns the way to stop. */
export function watch<T>(query: string, variables: Record<string, unknown>, onData: (d: T) => void, onEnd: (why: string | null) => void): () => void {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql/ws`;
  const socket = new WebSocket(url, "graphql-transport-ws");
  let stopped = false;
  socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init", payload: { mode: mode.value } }));
  socket.onmessage = (m) => {
    let msg: { type?: string; payload?: { data?: T; errors?: { message: string }[] } | { message: string }[] };
    try {
      msg = JSON.parse(String(m.data));
    } catch {
      return;
    }
    if (msg.type === "connection_ack") {
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query, variables } }));
    } else if (msg.type === "ping") {
      socket.send(JSON.stringify({ type: "pong" }));
    } else if (msg.type === "next" && msg.payload && !Array.isArray(msg.payload)) {
      if (msg.payload.errors?.length) {
        stopped = true;
        onEnd(msg.payload.errors[0].message);
        socket.close();
      } else if (msg.payload.data) onData(msg.payload.data);
    } else if (msg.type === "error") {
      stopped = true;
      onEnd(Array.isArray(msg.payload) ? msg.payload[0]?.message ?? "error" : "error");
      socket.close();
    }
  };
  socket.onclose = () => {
    if (!stopped) onEnd(null);
  };
  return () => {
    stopped = true;
    socket.close();
  };
}

async function failure(res: Response): Promise<Failed> {
  let body: { error?: { kind?: string; message?: string } } = {};
  try {
    body = await res.json();
  } catch {}
  return new Failed(res.status, body.error?.kind ?? "internal", body.error?.message ?? res.statusText);
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await post("/graphql", { query, variables });
  if (!res.ok) throw await failure(res);
  const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: { kind?: string } }[] };
  if (body.errors?.length) {
    const e = body.errors[0];
    throw new Failed(200, e.extensions?.kind ?? "internal", e.message);
  }
  return body.data as T;
}

export async function askForLink(email: string): Promise<void> {
  const res = await post("/app/v1/sign-in", { email });
  if (res.status !== 202) throw await failure(res);
}

export async function redeem(token: string): Promise<void> {
  const res = await post("/app/v1/sign-in/redeem", { token });
  if (!res.ok) throw await failure(res);
}

export async function signOut(): Promise<void> {
  const res = await post("/app/v1/sign-out", {});
  if (!res.ok && res.status !== 401) throw await failure(res);
}

/** Signs in with a passkey: a challenge, the browser's answer, a session. */
export async function passkeySignIn(answer: (options: Record<string, unknown>) => Promise<unknown>): Promise<void> {
  const res = await post("/app/v1/passkey/options", {});
  if (!res.ok) throw await failure(res);
  const signed = await post("/app/v1/passkey/sign-in", await answer(await res.json()));
  if (!signed.ok) throw await failure(signed);
}
