// Signing in: ask for a link with an address (the same answer for every address), and the
// link's own page (`/app/sign-in#<token>`), whose button alone redeems it, so that a mail
// scanner following the link spends nothing.
import { useEffect, useRef, useState } from "preact/hooks";
import { Field, Notice } from "../shared/ui";
import { t } from "../shared/words";
import { askForLink, Failed, passkeySignIn, redeem } from "./api";
import { get, passkeysHere } from "./passkey";

function Frame({ children }: { children: preact.ComponentChildren }) {
  return (
    <main class="narrow" id="main">
      <p class="brand" aria-hidden="true">{t("app.name")}</p>
      {children}
    </main>
  );
}

export function SignIn() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [sent]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await askForLink(email);
      setSent(true);
    } catch (err) {
      setError(t("common.error", { message: err instanceof Failed ? err.message : String(err) }));
    } finally {
      setBusy(false);
    }
  };
  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      await passkeySignIn(get);
      location.replace("/app");
    } catch {
      // A refusal and a cancelled prompt read the same: nothing says which passkeys exist.
      setError(t("signIn.passkeyFailed"));
      setBusy(false);
    }
  };
  return (
    <Frame>
      <h1 ref={heading} tabIndex={-1}>{t("signIn.title")}</h1>
      {sent ? (
        <>
          <Notice>{t("signIn.sent")}</Notice>
          <button type="button" class="link" onClick={() => setSent(false)}>{t("signIn.again")}</button>
        </>
      ) : (
        <form onSubmit={submit}>
          <p>{t("signIn.lead")}</p>
          <Field label={t("signIn.email")}>
            {(id) => (
              <input id={id} type="email" autocomplete="email webauthn" required maxLength={254} value={email}
                onInput={(e) => setEmail(e.currentTarget.value)} />
            )}
          </Field>
          {error && <Notice kind="error">{error}</Notice>}
          <div class="actions start">
            <button class="primary" type="submit" disabled={busy}>{t("signIn.send")}</button>
          </div>
          {passkeysHere && (
            <>
              <p class="or"><span>{t("signIn.or")}</span></p>
              <div class="actions start">
                <button class="secondary" type="button" disabled={busy} onClick={withPasskey}>{t("signIn.passkey")}</button>
              </div>
            </>
          )}
        </form>
      )}
    </Frame>
  );
}

export function LinkPage({ token }: { token: string }) {
  const [gone, setGone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    try {
      await redeem(token);
      // The token leaves the address bar and the history.
      location.replace("/app");
    } catch (err) {
      setBusy(false);
      setGone(err instanceof Failed && err.status === 404 ? t("link.gone") : t("common.error", { message: String((err as Error).message) }));
    }
  };
  return (
    <Frame>
      <h1>{t("link.title")}</h1>
      {gone ? (
        <>
          <Notice kind="error">{gone}</Notice>
          <a class="button secondary" href="/app/sign-in">{t("link.ask")}</a>
        </>
      ) : (
        <>
          <p>{t("link.lead")}</p>
          <div class="actions start">
            <button class="primary" type="button" onClick={go} disabled={busy}>{t("link.go")}</button>
          </div>
        </>
      )}
    </Frame>
  );
}
