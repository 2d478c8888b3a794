// The browser's side of passkeys: WebAuthn's options come from the server as JSON with
// base64url strings; the browser wants bytes, and its answers go back as base64url.
export const passkeysHere = typeof window !== "undefined" && "PublicKeyCredential" in window;

function bytes(b64url: string): ArrayBuffer {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out.buffer;
}

function text(buf: ArrayBuffer): string {
  let raw = "";
  for (const b of new Uint8Array(buf)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

interface Descriptor { type: "public-key"; id: string }

/** Makes a passkey from the server's registration options; answers what the server keeps. */
export async function create(options: Record<string, unknown>): Promise<{ clientDataJson: string; attestationObject: string }> {
  const o = options as { challenge: string; user: { id: string; name: string; displayName: string }; excludeCredentials: Descriptor[] };
  const credential = (await navigator.credentials.create({
    publicKey: {
      ...(options as unknown as PublicKeyCredentialCreationOptions),
      challenge: bytes(o.challenge),
      user: { ...o.user, id: bytes(o.user.id) },
      excludeCredentials: o.excludeCredentials.map((d) => ({ type: d.type, id: bytes(d.id) })),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("no passkey was made");
  const r = credential.response as AuthenticatorAttestationResponse;
  return { clientDataJson: text(r.clientDataJSON), attestationObject: text(r.attestationObject) };
}

/** Answers the server's sign-in challenge with a passkey the person picks. */
export async function get(options: Record<string, unknown>) {
  const o = options as { challenge: string; rpId: string; timeout: number; userVerification: UserVerificationRequirement };
  const credential = (await navigator.credentials.get({
    publicKey: { challenge: bytes(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials: [] },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("no passkey was used");
  const r = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    clientDataJson: text(r.clientDataJSON),
    authenticatorData: text(r.authenticatorData),
    signature: text(r.signature),
    userHandle: r.userHandle ? text(r.userHandle) : null,
  };
}
