// The signed-in person's own account: their name and language, where they are signed in
// (each session can be ended), and signing out everywhere.
import { useEffect, useState } from "preact/hooks";
import type { MeOut, PasskeyOut, SessionOut } from "../shared/api/graphql";
import { Field, LanguageField, Notice, Table, useSubmit } from "../shared/ui";
import { t, use, when } from "../shared/words";
import { gql } from "./api";
import { create, passkeysHere } from "./passkey";

export function Account({ me, onChange }: { me: MeOut; onChange: () => void }) {
  const [name, setName] = useState(me.person.name);
  const [language, setLanguage] = useState(me.person.language);
  const [sessions, setSessions] = useState<SessionOut[] | null>(null);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const fail = (e: unknown) => setNotice({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  const load = () =>
    gql<{ mySessions: SessionOut[] }>("{ mySessions { id createdAt lastSeenAt clientIp userAgent current } }").then(
      (d) => setSessions(d.mySessions),
      fail,
    );
  useEffect(() => void load(), []);

  const save = async (e: Event) => {
    e.preventDefault();
    try {
      await gql("mutation($n: String, $l: String) { updateMe(name: $n, language: $l) { person { id } } }", { n: name, l: language });
      await use(language);
      setNotice({ kind: "ok", text: t("common.saved") });
      onChange();
    } catch (err) {
      fail(err);
    }
  };
  const end = async (id: string, current: boolean) => {
    try {
      await gql("mutation($id: String!) { endSession(id: $id) }", { id });
      if (current) location.assign("/app/sign-in");
      else await load();
    } catch (err) {
      fail(err);
    }
  };
  const everywhere = async () => {
    try {
      await gql("mutation { signOutEverywhere }");
      location.assign("/app/sign-in");
    } catch (err) {
      fail(err);
    }
  };

  return (
    <>
      <h1>{t("account.title")}</h1>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <form class="card" onSubmit={save}>
        <div class="grid">
          <Field label={t("account.name")}>{(id) => <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
          <LanguageField label={t("account.language")} value={language} onChange={setLanguage} />
        </div>
        <p class="hint"><bdi>{me.person.email}</bdi></p>
        <div class="actions start"><button class="primary" type="submit">{t("common.save")}</button></div>
      </form>
      <Passkeys onNotice={setNotice} />
      <h2>{t("account.sessions")}</h2>
      {sessions === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : (
        <Table caption={t("account.sessions")} head={[t("account.started"), t("account.lastSeen"), t("account.from"), t("account.browser"), ""]}>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>{when(s.createdAt)}{s.current && <strong class="tag">{t("account.thisOne")}</strong>}</td>
              <td>{when(s.lastSeenAt)}</td>
              <td><bdi>{s.clientIp}</bdi></td>
              <td class="agent"><bdi>{s.userAgent}</bdi></td>
              <td><button type="button" class="secondary small" onClick={() => end(s.id, s.current)}>{t("account.end")}</button></td>
            </tr>
          ))}
        </Table>
      )}
      <div class="actions start">
        <button type="button" class="danger" onClick={everywhere}>{t("account.everywhere")}</button>
      </div>
    </>
  );
}

type Notice = { kind: "ok" | "error"; text: string };

/** The person's passkeys: listed, added (the browser makes it), removed. */
function Passkeys({ onNotice }: { onNotice: (n: Notice) => void }) {
  const [list, setList] = useState<PasskeyOut[] | null>(null);
  const [name, setName] = useState("");
  const fail = (e: unknown) => onNotice({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  const load = () => gql<{ passkeys: PasskeyOut[] }>("{ passkeys { id name algorithm createdAt lastUsedAt } }").then((d) => setList(d.passkeys), fail);
  useEffect(() => void load(), []);
  const [busy, add] = useSubmit(async () => {
    const { passkeyOptions } = await gql<{ passkeyOptions: Record<string, unknown> }>("mutation { passkeyOptions }");
    const made = await create(passkeyOptions);
    await gql("mutation($i: PasskeyIn!) { addPasskey(input: $i) { id } }", { i: { name, ...made } });
    onNotice({ kind: "ok", text: t("account.passkeyAdded", { name }) });
    setName("");
    await load();
  }, fail);
  const remove = async (p: PasskeyOut) => {
    try {
      await gql("mutation($id: String!) { removePasskey(id: $id) }", { id: p.id });
      onNotice({ kind: "ok", text: t("account.passkeyRemoved", { name: p.name }) });
      await load();
    } catch (err) {
      fail(err);
    }
  };
  return (
    <>
      <h2>{t("account.passkeys")}</h2>
      <p class="hint">{t("account.passkeysLead")}</p>
      {list === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : list.length === 0 ? (
        <p>{t("account.noPasskeys")}</p>
      ) : (
        <Table caption={t("account.passkeys")} head={[t("people.name"), t("account.kind"), t("account.added"), t("account.lastSeen"), ""]}>
          {list.map((p) => (
            <tr key={p.id}>
              <td><bdi>{p.name}</bdi></td>
              <td>{p.algorithm}</td>
              <td>{when(p.createdAt)}</td>
              <td>{p.lastUsedAt ? when(p.lastUsedAt) : "—"}</td>
              <td><button type="button" class="secondary small" onClick={() => remove(p)}>{t("people.remove")}</button></td>
            </tr>
          ))}
        </Table>
      )}
      {passkeysHere && (
        <form class="inline" onSubmit={add}>
          <Field label={t("account.passkeyName")}>
            {(id) => <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <button class="primary" type="submit" disabled={busy}>{t("account.addPasskey")}</button>
        </form>
      )}
    </>
  );
}
