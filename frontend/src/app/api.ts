// The application's calls: GraphQL with the session cookie (the browser sends it; the page
// never sees it) and the `X-Signet-Session` header every call of the application carries,
// and the three calls of signing in and out. A 401 means the session is gone.
export class Failed extends Error {
  constructor(public status: number, public kind: string, message: string) {
    super(message);
  }
}

const HEADERS = { "content-type": "application/json", "x-signet-session": "1" };

async function post(path: string, body: unknown): Promise<Response> {
  try {
    return await fetch(path, { method: "POST", credentials: "same-origin", headers: HEADERS, body: JSON.stringify(body) });
  } catch (e) {
    throw new Failed(0, "network", String(e));
  }
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
