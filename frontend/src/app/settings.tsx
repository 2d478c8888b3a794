// Workspace settings: the name, time zone and default language; the sender of its emails;
// test mode for the whole workspace; embedding; the AI drafting switch; payments through the
// workspace's own Stripe account; the plan and what of
// it is used; the report of documents sent and completed per day, by team; and the teams.
// Owners and admins; every rule is the server's.
import { useEffect, useState } from "preact/hooks";
import type { PaymentsConnectOut, PaymentsStatusOut, ReportOut, TeamOut, TeamsOut, UsageCounterOut, UsageOut, WorkspaceSettings } from "../shared/api/graphql";
import { Confirm, Field, LanguageField, Notice, Table, useSubmit } from "../shared/ui";
import { lang, t, type Key } from "../shared/words";
import { gql } from "./api";

type Note = { kind: "ok" | "error"; text: string };
type Patch = Partial<Record<keyof WorkspaceSettings, unknown>>;

const SETTINGS = "id name plan timeZone language senderName senderEmail replyTo testMode embedding embedOrigins aiDrafting aiDailyLimit createdAt";

export function Settings({ onChanged }: { onChanged: () => Promise<void> }) {
  const [s, setS] = useState<WorkspaceSettings | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  // Moves whenever the teams change, so the report's list of teams follows.
  const [teamsAt, setTeamsAt] = useState(0);
  const fail = (e: unknown) => setNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  useEffect(() => {
    gql<{ workspaceSettings: WorkspaceSettings }>(`{ workspaceSettings { ${SETTINGS} } }`).then((d) => setS(d.workspaceSettings), fail);
  }, []);
  /** Saves one section's fields; the page (its name, its test band) follows. */
  const save = async (patch: Patch, done: string) => {
    // Only what differs is sent, so the activity record names what really changed.
    const now = (s ?? {}) as Record<string, unknown>;
    const diff = Object.fromEntries(Object.entries(patch).filter(([k, v]) => JSON.stringify(v ?? "") !== JSON.stringify(now[k] ?? "")));
    if (Object.keys(diff).length) {
      const d = await gql<{ updateWorkspaceSettings: WorkspaceSettings }>(
        `mutation($i: WorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { ${SETTINGS} } }`, { i: diff });
      setS(d.updateWorkspaceSettings);
      // The page catches up (its name, its test band) before saying it is done.
      if ("name" in diff || "testMode" in diff) await onChanged();
    }
    setNote({ kind: "ok", text: done });
  };
  return (
    <>
      <h1>{t("settings.title")}</h1>
      <p>{t("settings.lead")}</p>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      {!s ? (
        !note && <p role="status">{t("common.loading")}</p>
      ) : (
        <>
          <General s={s} save={save} fail={fail} />
          <Sender s={s} save={save} fail={fail} />
          <TestMode s={s} save={save} fail={fail} />
          <Embedding s={s} save={save} fail={fail} />
          <Ai s={s} save={save} fail={fail} />
          <Payments onNote={setNote} fail={fail} />
          <Usage fail={fail} />
          <Report timeZone={s.timeZone} version={teamsAt} fail={fail} />
          <Teams onNote={setNote} onChanged={() => setTeamsAt((n) => n + 1)} fail={fail} />
        </>
      )}
    </>
  );
}

type Section = { s: WorkspaceSettings; save: (p: Patch, done: string) => Promise<void>; fail: (e: unknown) => void };

/** The time zones the browser knows, the workspace's first if it is not among them. */
function zones(current: string): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  const list = all.includes("UTC") ? all : ["UTC", ...all];
  return list.includes(current) ? list : [current, ...list];
}

function General({ s, save, fail }: Section) {
  const [name, setName] = useState(s.name);
  const [zone, setZone] = useState(s.timeZone);
  const [language, setLanguage] = useState(s.language ?? "en");
  // No language saved means English: choosing English again is no change.
  const [busy, submit] = useSubmit(() => save({ name, timeZone: zone, language: language === (s.language ?? "en") ? s.language : language }, t("settings.saved")), fail);
  return (
    <section aria-labelledby="general-title">
      <form class="card" onSubmit={submit}>
        <h2 id="general-title">{t("settings.general")}</h2>
        <div class="grid">
          <Field label={t("settings.name")}>{(id) => <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
          <Field label={t("settings.timeZone")}>
            {(id) => (
              <select id={id} value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
                {zones(s.timeZone).map((z) => <option value={z} key={z}>{z}</option>)}
              </select>
            )}
          </Field>
          <LanguageField label={t("settings.language")} value={language} onChange={setLanguage} />
        </div>
        <p class="hint">{t("settings.generalHint")}</p>
        <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("common.save")}</button></div>
      </form>
    </section>
  );
}

function Sender({ s, save, fail }: Section) {
  const [name, setName] = useState(s.senderName ?? "");
  const [from, setFrom] = useState(s.senderEmail ?? "");
  const [reply, setReply] = useState(s.replyTo ?? "");
  const [busy, submit] = useSubmit(() => save({ senderName: name, senderEmail: from, replyTo: reply }, t("settings.saved")), fail);
  return (
    <section aria-labelledby="sender-title">
      <form class="card" onSubmit={submit}>
        <h2 id="sender-title">{t("settings.sender")}</h2>
        <p class="hint">{t("settings.senderLead")}</p>
        <div class="grid">
          <Field label={t("settings.senderName")}>{(id) => <input id={id} maxLength={100} placeholder={s.name} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
          <Field label={t("settings.senderEmail")}>{(id) => <input id={id} type="email" maxLength={254} value={from} onInput={(e) => setFrom(e.currentTarget.value)} />}</Field>
          <Field label={t("settings.replyTo")}>{(id) => <input id={id} type="email" maxLength={254} placeholder={from} value={reply} onInput={(e) => setReply(e.currentTarget.value)} />}</Field>
        </div>
        <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("common.save")}</button></div>
      </form>
    </section>
  );
}

function TestMode({ s, save, fail }: Section) {
  const [asking, setAsking] = useState(false);
  const flip = async () => {
    setAsking(false);
    try {
      await save({ testMode: !s.testMode }, s.testMode ? t("settings.testOff") : t("settings.testOn"));
    } catch (e) {
      fail(e);
    }
  };
  return (
    <section aria-labelledby="test-title" class="card">
      <h2 id="test-title">{t("settings.testMode")}</h2>
      <p>{s.testMode ? t("settings.testIsOn") : t("settings.testIsOff")}</p>
      <div class="actions start">
        <button type="button" class={s.testMode ? "primary" : "secondary"} onClick={() => setAsking(true)}>
          {s.testMode ? t("settings.turnTestOff") : t("settings.turnTestOn")}
        </button>
      </div>
      {asking && (
        <Confirm title={s.testMode ? t("settings.turnTestOff") : t("settings.turnTestOn")}
          text={s.testMode ? t("settings.testOffText") : t("settings.testOnText")}
          confirm={s.testMode ? t("settings.turnTestOff") : t("settings.turnTestOn")} cancel={t("common.cancel")}
          danger={!s.testMode} onConfirm={flip} onCancel={() => setAsking(false)} />
      )}
    </section>
  );
}

function Embedding({ s, save, fail }: Section) {
  const [on, setOn] = useState(s.embedding);
  const [sites, setSites] = useState(s.embedOrigins.join("\n"));
  const [busy, submit] = useSubmit(async () => {
    await save({ embedding: on, embedOrigins: sites.split("\n").map((l) => l.trim()).filter(Boolean) }, t("settings.saved"));
  }, fail);
  useEffect(() => setSites(s.embedOrigins.join("\n")), [s.embedOrigins.join("\n")]);
  return (
    <section aria-labelledby="embed-title">
      <form class="card" onSubmit={submit}>
        <h2 id="embed-title">{t("settings.embedding")}</h2>
        <p class="hint">{t("settings.embeddingLead")}</p>
        <label class="check"><input type="checkbox" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} /> {t("settings.embeddingOn")}</label>
        <Field label={t("settings.sites")}>
          {(id) => <textarea id={id} dir="ltr" rows={3} maxLength={4000} placeholder="https://app.example.com" value={sites} onInput={(e) => setSites(e.currentTarget.value)} />}
        </Field>
        <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("common.save")}</button></div>
      </form>
    </section>
  );
}

function Ai({ s, save, fail }: Section) {
  const [on, setOn] = useState(s.aiDrafting);
  const [limit, setLimit] = useState(String(s.aiDailyLimit));
  const [busy, submit] = useSubmit(() => save({ aiDrafting: on, aiDailyLimit: Number(limit) }, t("settings.saved")), fail);
  return (
    <section aria-labelledby="ai-title">
      <form class="card" onSubmit={submit}>
        <h2 id="ai-title">{t("settings.ai")}</h2>
        <p class="hint">{t("settings.aiLead")}</p>
        <label class="check"><input type="checkbox" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} /> {t("settings.aiOn")}</label>
        <div class="grid">
          <Field label={t("settings.aiLimit")}>{(id) => <input id={id} type="number" min={1} max={1000} required value={limit} onInput={(e) => setLimit(e.currentTarget.value)} />}</Field>
        </div>
        <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("common.save")}</button></div>
      </form>
    </section>
  );
}

const PAY = "status feePercent mode accountId due disabledReason available";

/** Payments: the workspace's own Stripe account for the mode the switch shows, connected on
 * Stripe's pages; its readiness is what Stripe last told Signet. */
function Payments({ onNote, fail }: { onNote: (n: Note) => void; fail: (e: unknown) => void }) {
  const [p, setP] = useState<PaymentsStatusOut | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const load = () => gql<{ paymentsStatus: PaymentsStatusOut }>(`{ paymentsStatus { ${PAY} } }`).then((d) => setP(d.paymentsStatus), fail);
  useEffect(() => {
    load();
    // Back from Stripe's onboarding: its event follows in moments.
    if (new URLSearchParams(location.search).get("payments") !== "back") return;
    onNote({ kind: "ok", text: t("settings.payBack") });
    let n = 0;
    const timer = setInterval(() => { if (++n > 10) clearInterval(timer); load(); }, 3000);
    return () => clearInterval(timer);
  }, []);
  const connect = async () => {
    setBusy(true);
    try {
      const d = await gql<{ connectPayments: PaymentsConnectOut }>(`mutation { connectPayments { url accountId } }`);
      location.assign(d.connectPayments.url);
    } catch (e) {
      fail(e);
      setBusy(false);
    }
  };
  const disconnect = async () => {
    setAsking(false);
    try {
      const d = await gql<{ disconnectPayments: PaymentsStatusOut }>(`mutation { disconnectPayments { ${PAY} } }`);
      setP(d.disconnectPayments);
      onNote({ kind: "ok", text: t("settings.payDisconnected") });
    } catch (e) {
      fail(e);
    }
  };
  return (
    <section aria-labelledby="pay-title" class="card">
      <h2 id="pay-title">{t("settings.payments")}</h2>
      <p>{t("settings.paymentsLead")}</p>
      {!p ? (
        <p role="status">{t("common.loading")}</p>
      ) : !p.available ? (
        <p>{t("settings.payUnavailable")}</p>
      ) : (
        <>
          <p class={`status ${p.status}`} role="status">
            {p.status === "connected" ? t("settings.payConnected") : p.status === "needs_attention" ? t("settings.payNeeds") : t("settings.payNot")}
          </p>
          {p.status === "needs_attention" && p.due.length > 0 && (
            <ul>{p.due.map((d) => <li><code>{d}</code></li>)}</ul>
          )}
          <p>{t("settings.payFee", { fee: String(p.feePercent) })}</p>
          {p.mode === "test" && <p>{t("settings.payTest")}</p>}
          <div class="actions start">
            {p.status !== "connected" && (
              <button type="button" class="primary" disabled={busy} onClick={connect}>
                {p.status === "not_connected" ? t("settings.payConnect") : t("settings.payContinue")}
              </button>
            )}
            {p.status === "connected" && (
              <a class="button secondary" href="https://dashboard.stripe.com/" target="_blank" rel="noopener noreferrer">{t("settings.payDashboard")}</a>
            )}
            {p.status !== "not_connected" && (
              <button type="button" class="secondary" onClick={() => setAsking(true)}>{t("settings.payDisconnect")}</button>
            )}
          </div>
        </>
      )}
      {asking && (
        <Confirm title={t("settings.payDisconnect")} text={t("settings.payDisconnectText")}
          confirm={t("settings.payDisconnect")} cancel={t("common.cancel")} danger onConfirm={disconnect} onCancel={() => setAsking(false)} />
      )}
    </section>
  );
}

function Meter({ label, c }: { label: string; c: UsageCounterOut }) {
  const n = (v: number) => new Intl.NumberFormat(lang.value).format(v);
  return (
    <div class="meter">
      <div class="meter-head"><span>{label}</span><span>{c.limit === null ? t("settings.usedOf", { used: n(c.used), limit: "∞" }) : t("settings.usedOf", { used: n(c.used), limit: n(c.limit) })}</span></div>
      {c.limit !== null && <progress max={c.limit} value={Math.min(c.used, c.limit)} aria-label={label} />}
    </div>
  );
}

function Usage({ fail }: { fail: (e: unknown) => void }) {
  const [u, setU] = useState<UsageOut | null>(null);
  useEffect(() => {
    const c = "used limit periodStart resetsAt";
    gql<{ usage: UsageOut }>(`{ usage { plan documents { ${c} } emails { ${c} } testEmails { ${c} } } }`).then((d) => setU(d.usage), fail);
  }, []);
  return (
    <section aria-labelledby="usage-title" class="card">
      <h2 id="usage-title">{t("settings.usage")}</h2>
      {!u ? (
        <p role="status">{t("common.loading")}</p>
      ) : (
        <>
          <p>{t("settings.plan", { plan: t(`plan.${u.plan === "pro" ? "pro" : "free"}` as Key) })}</p>
          <Meter label={t("settings.docsMonth")} c={u.documents} />
          <Meter label={t("settings.emailsToday")} c={u.emails} />
          <Meter label={t("settings.testEmailsToday")} c={u.testEmails} />
        </>
      )}
    </section>
  );
}

/** YYYY-MM-DD of a day `back` days before today, in the browser's calendar. */
function day(back: number): string {
  const d = new Date(Date.now() - back * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function Report({ timeZone, version, fail }: { timeZone: string; version: number; fail: (e: unknown) => void }) {
  const [from, setFrom] = useState(day(29));
  const [to, setTo] = useState(day(0));
  const [team, setTeam] = useState("");
  const [teams, setTeams] = useState<TeamOut[]>([]);
  const [r, setR] = useState<ReportOut | null>(null);
  const load = async () => {
    try {
      const d = await gql<{ report: ReportOut; teams: TeamsOut }>(
        "query($f: String, $t: String, $team: String) { report(from: $f, to: $t, team: $team) { from to timeZone team sent completed days { date sent completed } } teams { teams { id name } } }",
        { f: from, t: to, team: team || null },
      );
      setR(d.report);
      setTeams(d.teams.teams);
    } catch (e) {
      fail(e);
    }
  };
  useEffect(() => void load(), [team, version]);
  return (
    <section aria-labelledby="report-title" class="card">
      <h2 id="report-title">{t("settings.report")}</h2>
      <p class="hint">{t("settings.reportLead", { zone: timeZone })}</p>
      <form class="grid" onSubmit={(e) => { e.preventDefault(); void load(); }}>
        <Field label={t("settings.from")}>{(id) => <input id={id} type="date" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />}</Field>
        <Field label={t("settings.to")}>{(id) => <input id={id} type="date" required value={to} onInput={(e) => setTo(e.currentTarget.value)} />}</Field>
        <Field label={t("settings.team")}>
          {(id) => (
            <select id={id} value={team} onChange={(e) => setTeam(e.currentTarget.value)}>
              <option value="">{t("settings.allTeams")}</option>
              {teams.map((x) => <option value={x.id} key={x.id}>{x.name}</option>)}
            </select>
          )}
        </Field>
        <div class="actions start"><button class="secondary" type="submit">{t("settings.show")}</button></div>
      </form>
      {r && <Chart r={r} />}
    </section>
  );
}

/** Documents sent and completed per day as bars, with the same numbers as a table. */
function Chart({ r }: { r: ReportOut }) {
  const W = 720, H = 200, pad = 28;
  const top = Math.max(1, ...r.days.map((d) => Math.max(d.sent, d.completed)));
  const step = (W - pad) / Math.max(1, r.days.length);
  const bar = Math.max(1, step / 2 - 1);
  const y = (v: number) => H - pad - (v / top) * (H - pad * 2);
  const summary = t("settings.chartSummary", { sent: String(r.sent), completed: String(r.completed), from: r.from, to: r.to });
  return (
    <>
      <p class="totals"><span class="swatch sent" /> {t("settings.sent", { n: String(r.sent) })} <span class="swatch completed" /> {t("settings.completed", { n: String(r.completed) })}</p>
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <line x1={pad} x2={W} y1={H - pad} y2={H - pad} class="axis" />
        <text x={pad - 4} y={y(top) + 4} class="tick" text-anchor="end">{top}</text>
        <text x={pad - 4} y={H - pad + 4} class="tick" text-anchor="end">0</text>
        {r.days.map((d, i) => (
          <g key={d.date}>
            <rect class="sent" x={pad + i * step + 1} y={y(d.sent)} width={bar} height={H - pad - y(d.sent)}><title>{`${d.date}: ${d.sent}`}</title></rect>
            <rect class="completed" x={pad + i * step + 1 + bar} y={y(d.completed)} width={bar} height={H - pad - y(d.completed)}><title>{`${d.date}: ${d.completed}`}</title></rect>
          </g>
        ))}
        <text x={pad} y={H - 8} class="tick">{r.from}</text>
        <text x={W} y={H - 8} class="tick" text-anchor="end">{r.to}</text>
      </svg>
      <details>
        <summary>{t("settings.asTable")}</summary>
        <Table caption={t("settings.report")} head={[t("settings.day"), t("settings.sentHead"), t("settings.completedHead")]}>
          {r.days.map((d) => <tr key={d.date}><td>{d.date}</td><td>{d.sent}</td><td>{d.completed}</td></tr>)}
        </Table>
      </details>
    </>
  );
}

function Teams({ onNote, onChanged, fail }: { onNote: (n: Note) => void; onChanged: () => void; fail: (e: unknown) => void }) {
  const [teams, setTeams] = useState<TeamOut[] | null>(null);
  const [name, setName] = useState("");
  const [removing, setRemoving] = useState<TeamOut | null>(null);
  const load = () =>
    gql<{ teams: TeamsOut }>("{ teams { teams { id name members { name email role } } } }").then((d) => setTeams(d.teams.teams), fail);
  const changed = async () => {
    await load();
    onChanged();
  };
  useEffect(() => void load(), []);
  const act = async (query: string, vars: Record<string, unknown>, done: string) => {
    try {
      await gql(query, vars);
      onNote({ kind: "ok", text: done });
      await changed();
    } catch (e) {
      fail(e);
    }
  };
  const [busy, submit] = useSubmit(async () => {
    await gql("mutation($n: String!) { createTeam(name: $n) { id } }", { n: name });
    onNote({ kind: "ok", text: t("settings.teamMade", { name }) });
    setName("");
    await changed();
  }, fail);
  return (
    <section aria-labelledby="teams-title">
      <h2 id="teams-title">{t("settings.teams")}</h2>
      <p class="hint">{t("settings.teamsLead")}</p>
      <form class="inline" onSubmit={submit}>
        <Field label={t("settings.teamName")}>{(id) => <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <button class="primary" type="submit" disabled={busy}>{t("settings.addTeam")}</button>
      </form>
      {teams === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : teams.length === 0 ? (
        <p>{t("settings.noTeams")}</p>
      ) : (
        teams.map((team) => (
          <div class="card" key={team.id}>
            <div class="title-row">
              <h3><bdi>{team.name}</bdi></h3>
              <button type="button" class="secondary small live" onClick={() => setRemoving(team)}>{t("settings.removeTeam")}</button>
            </div>
            {team.members.length > 0 && (
              <Table caption={team.name} head={[t("people.name"), t("people.email"), t("people.role"), ""]}>
                {team.members.map((m) => (
                  <tr key={m.email}>
                    <td><bdi>{m.name}</bdi></td>
                    <td><bdi>{m.email}</bdi></td>
                    <td>{m.role === "admin" ? t("settings.teamAdmin") : t("settings.teamMember")}</td>
                    <td><button type="button" class="secondary small" onClick={() => act("mutation($t: String!, $e: String!) { removeTeamMember(teamId: $t, email: $e) }", { t: team.id, e: m.email }, t("settings.memberRemoved", { email: m.email }))}>{t("people.remove")}</button></td>
                  </tr>
                ))}
              </Table>
            )}
            <AddToTeam team={team} onAdd={(v, done) => act("mutation($t: String!, $e: String!, $n: String!, $r: String!) { addTeamMember(teamId: $t, email: $e, name: $n, role: $r) { email } }", v, done)} />
          </div>
        ))
      )}
      {removing && (
        <Confirm title={t("settings.removeTeamTitle", { name: removing.name })} text={t("settings.removeTeamText")} confirm={t("settings.removeTeam")}
          cancel={t("common.cancel")} danger onCancel={() => setRemoving(null)}
          onConfirm={() => { const x = removing; setRemoving(null); void act("mutation($t: String!) { deleteTeam(id: $t) }", { t: x.id }, t("settings.teamRemoved", { name: x.name })); }} />
      )}
    </section>
  );
}

function AddToTeam({ team, onAdd }: { team: TeamOut; onAdd: (v: Record<string, unknown>, done: string) => Promise<void> }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("member");
  const submit = async (e: Event) => {
    e.preventDefault();
    await onAdd({ t: team.id, e: email, n: name, r: role }, t("settings.memberAdded", { email, team: team.name }));
    setEmail("");
    setName("");
  };
  return (
    <form class="inline" onSubmit={submit} aria-label={t("settings.addTo", { team: team.name })}>
      <Field label={t("people.email")}>{(id) => <input id={id} type="email" required maxLength={254} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}</Field>
      <Field label={t("people.name")}>{(id) => <input id={id} maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
      <Field label={t("people.role")}>
        {(id) => (
          <select id={id} value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            <option value="member">{t("settings.teamMember")}</option>
            <option value="admin">{t("settings.teamAdmin")}</option>
          </select>
        )}
      </Field>
      <button class="secondary" type="submit">{t("settings.addPerson")}</button>
    </form>
  );
}
