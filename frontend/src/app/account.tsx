// The signed-in person's own account: their name and language, where they are signed in
// (each session can be ended), and signing out everywhere.
import { useEffect, useState } from "preact/hooks";
import type { MeOut, SessionOut } from "../shared/api/graphql";
import { Field, LanguageField, Notice, Table } from "../shared/ui";
import { t, use, when } from "../shared/words";
import { gql } from "./api";

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
