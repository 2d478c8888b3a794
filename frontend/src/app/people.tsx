// The people of the workspace: who, with which role; an owner or admin invites, changes
// roles and removes (the server refuses whatever the role may not do; the page only shows
// what it may).
import { useEffect, useState } from "preact/hooks";
import type { MeOut, MemberOut } from "../shared/api/graphql";
import { Confirm, Field, LanguageField, Notice, Table, useSubmit } from "../shared/ui";
import { lang, t, when, type Key } from "../shared/words";
import { Failed, gql } from "./api";

const ROLES = ["owner", "admin", "member", "viewer"] as const;
const roleWord = (r: string) => t(`role.${r}` as Key);

export function People({ me }: { me: MeOut }) {
  const [list, setList] = useState<MemberOut[] | null>(null);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [removing, setRemoving] = useState<MemberOut | null>(null);
  const manage = me.scopes.includes("people:write");
  const owner = me.role === "owner";
  const load = () =>
    gql<{ members: MemberOut[] }>("{ members { userId email name role joinedAt } }").then(
      (d) => setList(d.members),
      (e: Failed) => setNotice({ kind: "error", text: t("common.error", { message: e.message }) }),
    );
  useEffect(() => void load(), []);
  const fail = (e: unknown) => setNotice({ kind: "error", text: t("common.error", { message: (e as Error).message }) });

  const changeRole = async (m: MemberOut, role: string) => {
    try {
      await gql("mutation($u: String!, $r: String!) { changeMemberRole(userId: $u, role: $r) { role } }", { u: m.userId, r: role });
      setNotice({ kind: "ok", text: t("people.roleChanged", { name: m.name, role: roleWord(role) }) });
      await load();
    } catch (e) {
      fail(e);
      await load();
    }
  };
  const remove = async (m: MemberOut) => {
    setRemoving(null);
    try {
      await gql("mutation($u: String!) { removeMember(userId: $u) }", { u: m.userId });
      if (m.userId === me.person.id) {
        location.assign("/app");
        return;
      }
      setNotice({ kind: "ok", text: t("people.removed", { name: m.name }) });
      await load();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <>
      <h1>{t("people.title")}</h1>
      <p>{t("people.lead")}</p>
      <p class="hint">{t("people.roles")}</p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {manage && <Invite owner={owner} onDone={(email) => { setNotice({ kind: "ok", text: t("people.invited", { email }) }); void load(); }} onError={fail} />}
      {list === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : (
        <Table caption={t("people.title")} head={[t("people.name"), t("people.email"), t("people.role"), t("people.joined"), t("people.actions")]}>
          {list.map((m) => {
            const self = m.userId === me.person.id;
            // Owners are an owner's to change; nobody changes their own role here.
            const editable = manage && !self && (owner || m.role !== "owner");
            return (
              <tr key={m.userId}>
                <td><bdi>{m.name}</bdi>{self && <span class="hint"> ({t("people.you")})</span>}</td>
                <td><bdi>{m.email}</bdi></td>
                <td>
                  {editable ? (
                    <select aria-label={t("people.roleOf", { name: m.name })} value={m.role}
                      onChange={(e) => changeRole(m, e.currentTarget.value)}>
                      {ROLES.filter((r) => owner || r !== "owner").map((r) => <option value={r} key={r}>{roleWord(r)}</option>)}
                    </select>
                  ) : roleWord(m.role)}
                </td>
                <td>{when(m.joinedAt)}</td>
                <td>
                  {(editable || self) && (
                    <button type="button" class="secondary small" onClick={() => setRemoving(m)}>
                      {self ? t("people.leave") : t("people.remove")}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      {removing && (
        <Confirm title={t("people.removeTitle", { name: removing.name })} text={t("people.removeText", { name: removing.name })}
          confirm={removing.userId === me.person.id ? t("people.leave") : t("people.remove")} cancel={t("common.cancel")} danger
          onConfirm={() => remove(removing)} onCancel={() => setRemoving(null)} />
      )}
    </>
  );
}

function Invite({ owner, onDone, onError }: { owner: boolean; onDone: (email: string) => void; onError: (e: unknown) => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("member");
  const [language, setLanguage] = useState(lang.value);
  const [busy, submit] = useSubmit(async () => {
    const d = await gql<{ inviteMember: MemberOut }>(
      "mutation($i: InviteIn!) { inviteMember(input: $i) { email } }",
      { i: { email, name, role, language } },
    );
    setEmail("");
    setName("");
    onDone(d.inviteMember.email);
  }, onError);
  return (
    <form class="card" onSubmit={submit}>
      <h2>{t("people.invite")}</h2>
      <div class="grid">
        <Field label={t("people.email")}>{(id) => <input id={id} type="email" required maxLength={254} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}</Field>
        <Field label={t("people.name")}>{(id) => <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <Field label={t("people.role")}>
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              {ROLES.filter((r) => owner || r !== "owner").map((r) => <option value={r} key={r}>{roleWord(r)}</option>)}
            </select>
          )}
        </Field>
        <LanguageField label={t("people.language")} value={language} onChange={setLanguage} />
      </div>
      <div class="actions start">
        <button class="primary" type="submit" disabled={busy}>{t("people.send")}</button>
      </div>
    </form>
  );
}
