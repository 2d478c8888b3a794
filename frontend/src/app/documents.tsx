// Documents: the list (filtered by state or external id, fifty at a time), one document with
// where each person is, kept current by the documentStatus subscription, its audit trail and
// files, and what may be done to it (send, remind, void, test-sign); and a new document from
// a template or from words. The server decides every rule; the page offers what the state
// and the person's scopes allow.
import { useEffect, useRef, useState } from "preact/hooks";
import type { AuditEventOut, DocumentOut, DocumentPageOut, PersonOut, TemplateOut, TemplatePageOut } from "../shared/api/graphql";
import { Confirm, Field, Notice, Table, useSubmit } from "../shared/ui";
import { lang, t, when, type Key } from "../shared/words";
import { download, gql, mode, watch } from "./api";

type Note = { kind: "ok" | "error"; text: string };
type Go = (to: string) => void;

const PAGE = 50;
const STATES = ["draft", "sent", "opened", "signed", "executed", "declined", "expired", "voided"];
const PERSON = "id seat name email action order status invitedAt openedAt signedAt declinedAt embedded";
const PAYMENT = "id amount currency fee status seat refunded receiptUrl receiptNumber paidAt";
const DOC = `id state test title description externalId createdAt updatedAt sentAt completedAt expiresAt reason templateId approval { id state } people { ${PERSON} } payments { ${PAYMENT} }`;
/** States a document can still be voided in. */
const OPEN = new Set(["draft", "sent", "opened", "signed"]);

const at = (s: string | null | undefined) => (s ? when(Date.parse(s)) : "");
const failed = (e: unknown): Note => ({ kind: "error", text: t("common.error", { message: (e as Error).message }) });

export function StateBadge({ state }: { state: string }) {
  const known = STATES.includes(state);
  return <span class={`badge state-${known ? state : "other"}`}>{known ? t(`state.${state}` as Key) : state}</span>;
}

export function Documents({ route, go, canWrite }: { route: string; go: Go; canWrite: boolean }) {
  const rest = route.slice("/app/documents".length).replace(/^\//, "");
  if (rest === "new" && canWrite) return <NewDocument go={go} />;
  // Keyed by the id: another document (a revision's new draft) starts afresh.
  if (rest && rest !== "new") return <OneDocument key={rest} id={decodeURIComponent(rest)} go={go} canWrite={canWrite} />;
  return <List go={go} canWrite={canWrite} />;
}

function List({ go, canWrite }: { go: Go; canWrite: boolean }) {
  const [state, setState] = useState("");
  const [externalId, setExternalId] = useState("");
  const [meta, setMeta] = useState("");
  // Only the latest read is shown: an earlier, slower answer (other filters) never
  // overwrites it.
  const latest = useRef(0);
  const [docs, setDocs] = useState<DocumentOut[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const load = async (cursor: string | null) => {
    const mine = ++latest.current;
    try {
      // `key=value`: the documents whose metadata holds that value under that key.
      const pair = meta.trim();
      const eq = pair.indexOf("=");
      if (pair && eq < 1) throw new Error(t("docs.metadataForm"));
      const m = pair ? [{ key: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() }] : null;
      const d = await gql<{ documents: DocumentPageOut }>(
        `query($s: String, $e: String, $m: [MetadataPair!], $l: Int, $c: String) { documents(state: $s, externalId: $e, metadata: $m, limit: $l, cursor: $c) { data { ${DOC} } page { nextCursor } } }`,
        { s: state || null, e: externalId.trim() || null, m, l: PAGE, c: cursor },
      );
      if (mine !== latest.current) return;
      setDocs((old) => (cursor ? [...(old ?? []), ...d.documents.data] : d.documents.data));
      setNext(d.documents.page.nextCursor ?? null);
      setNote(null);
    } catch (e) {
      if (mine === latest.current) setNote(failed(e));
    }
  };
  // The switch changes which documents there are: read again.
  useEffect(() => void load(null), [state, mode.value]);
  const open = (e: Event, id: string) => {
    e.preventDefault();
    go(`/app/documents/${encodeURIComponent(id)}`);
  };
  return (
    <>
      <div class="title-row">
        <h1>{t("docs.title")}</h1>
        {canWrite && <a class="button primary" href="/app/documents/new" onClick={(e) => { e.preventDefault(); go("/app/documents/new"); }}>{t("docs.new")}</a>}
      </div>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <form class="inline" role="search" onSubmit={(e) => { e.preventDefault(); void load(null); }}>
        <Field label={t("docs.state")}>
          {(id) => (
            <select id={id} value={state} onChange={(e) => setState(e.currentTarget.value)}>
              <option value="">{t("docs.anyState")}</option>
              {STATES.map((s) => <option value={s} key={s}>{t(`state.${s}` as Key)}</option>)}
            </select>
          )}
        </Field>
        <Field label={t("docs.externalId")}>
          {(id) => <input id={id} value={externalId} maxLength={200} onInput={(e) => setExternalId(e.currentTarget.value)} />}
        </Field>
        <Field label={t("docs.metadata")}>
          {(id) => <input id={id} value={meta} maxLength={600} dir="ltr" placeholder="crm.id=42" onInput={(e) => setMeta(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary">{t("dev.search")}</button>
      </form>
      {docs === null ? (
        !note && <p role="status">{t("common.loading")}</p>
      ) : docs.length === 0 ? (
        <p>{t("docs.none")}</p>
      ) : (
        <Table caption={t("docs.title")} head={[t("docs.name"), t("docs.state"), t("docs.people"), t("docs.updated")]}>
          {docs.map((d) => {
            const signing = d.people.filter((p) => p.action !== "cc");
            const done = signing.filter((p) => p.status === "signed").length;
            return (
              <tr key={d.id}>
                <td>
                  <a href={`/app/documents/${encodeURIComponent(d.id)}`} onClick={(e) => open(e, d.id)}><bdi>{d.title}</bdi></a>
                  {d.externalId && <div class="hint"><bdi>{d.externalId}</bdi></div>}
                </td>
                <td><StateBadge state={d.state} /></td>
                <td>{t("docs.signedOf", { done: String(done), all: String(signing.length) })}</td>
                <td class="time">{at(d.updatedAt)}</td>
              </tr>
            );
          })}
        </Table>
      )}
      {next && docs && (
        <div class="actions start">
          <button type="button" class="secondary" onClick={() => load(next)}>{t("activity.older")}</button>
        </div>
      )}
    </>
  );
}

function personStatus(p: PersonOut): string {
  if (p.action === "cc") return t("person.cc");
  const known = ["waiting", "invited", "opened", "signed", "declined"].includes(p.status);
  return known ? t(`person.${p.status}` as Key) : p.status;
}

function personTime(p: PersonOut): string {
  return at(p.declinedAt ?? p.signedAt ?? p.openedAt ?? p.invitedAt);
}

function OneDocument({ id, go, canWrite }: { id: string; go: Go; canWrite: boolean }) {
  const [doc, setDoc] = useState<DocumentOut | null>(null);
  const [audit, setAudit] = useState<AuditEventOut[] | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [live, setLive] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const [embedding, setEmbedding] = useState<PersonOut | null>(null);
  const [revising, setRevising] = useState(false);
  const seen = useRef("");
  const readAudit = () =>
    gql<{ documentAuditLog: AuditEventOut[] }>(
      "query($id: String!) { documentAuditLog(id: $id, limit: 500) { seq time event description person } }",
      { id },
    ).then((d) => setAudit(d.documentAuditLog), (e) => setNote(failed(e)));

  // The document as it is now, then again after every change: its trail is read again when
  // something changed.
  useEffect(() => {
    let stop = () => {};
    let retry: ReturnType<typeof setTimeout> | undefined;
    // A socket lost is opened again every 3 seconds, at most 20 times in a row without news
    // (a session that ended would otherwise knock for ever).
    let tries = 0;
    const follow = () => {
      stop = watch<{ documentStatus: DocumentOut }>(
        `subscription($id: String!) { documentStatus(id: $id) { ${DOC} } }`,
        { id },
        (d) => {
          tries = 0;
          setLive(true);
          setDoc(d.documentStatus);
          const mark = d.documentStatus.updatedAt + d.documentStatus.people.map((p) => p.status).join();
          if (mark !== seen.current) {
            seen.current = mark;
            void readAudit();
          }
        },
        (why) => {
          setLive(false);
          if (why) setNote({ kind: "error", text: t("common.error", { message: why }) });
          else if (++tries <= 20) retry = setTimeout(follow, 3000);
          else setNote({ kind: "error", text: t("docs.lost") });
        },
      );
    };
    follow();
    return () => {
      clearTimeout(retry);
      stop();
    };
  }, [id, mode.value]);

  const act = async (query: string, vars: Record<string, unknown>, done: string) => {
    try {
      const d = await gql<Record<string, DocumentOut>>(query, vars);
      const out = Object.values(d)[0];
      if (out?.id === id) setDoc(out);
      setNote({ kind: "ok", text: done });
      void readAudit();
    } catch (e) {
      setNote(failed(e));
    }
  };
  const get = async (file: string) => {
    try {
      await download(`/app/v1/documents/${encodeURIComponent(id)}/${file}`);
    } catch (e) {
      setNote(failed(e));
    }
  };

  const back = (
    <p><a href="/app/documents" onClick={(e) => { e.preventDefault(); go("/app/documents"); }}>{t("docs.back")}</a></p>
  );
  if (!doc) return <>{back}{note ? <Notice kind={note.kind}>{note.text}</Notice> : <p role="status">{t("common.loading")}</p>}</>;
  const out = doc.state === "sent" || doc.state === "opened" || doc.state === "signed";
  return (
    <>
      {back}
      <div class="title-row">
        <h1><bdi>{doc.title}</bdi></h1>
        <StateBadge state={doc.state} />
        {doc.test && <span class="tag">{t("mode.test")}</span>}
        <span class={`live ${live ? "on" : ""}`} role="status">{live ? t("docs.live") : ""}</span>
      </div>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <dl class="facts">
        {doc.externalId && <><dt>{t("docs.externalId")}</dt><dd><bdi>{doc.externalId}</bdi></dd></>}
        <dt>{t("docs.created")}</dt><dd>{at(doc.createdAt)}</dd>
        {doc.sentAt && <><dt>{t("docs.sent")}</dt><dd>{at(doc.sentAt)}</dd></>}
        {doc.completedAt && <><dt>{t("docs.completed")}</dt><dd>{at(doc.completedAt)}</dd></>}
        {doc.expiresAt && !doc.completedAt && <><dt>{t("docs.expires")}</dt><dd>{at(doc.expiresAt)}</dd></>}
        {doc.reason && <><dt>{t("docs.reason")}</dt><dd><bdi>{doc.reason}</bdi></dd></>}
        {doc.approval && <><dt>{t("docs.approval")}</dt><dd>{t(`approval.${doc.approval.state}` as Key)}</dd></>}
      </dl>
      <div class="actions start">
        {canWrite && doc.state === "draft" && (
          <button type="button" class="primary" onClick={() => act(`mutation($id: String!) { sendDocument(id: $id) { ${DOC} } }`, { id }, t("docs.sentNote"))}>{t("docs.send")}</button>
        )}
        {canWrite && doc.state === "draft" && <button type="button" class="secondary" aria-expanded={revising} onClick={() => setRevising(!revising)}>{t("docs.revise")}</button>}
        {canWrite && out && doc.people.some((p) => !p.embedded && (p.status === "invited" || p.status === "opened")) && (
          <button type="button" class="secondary" onClick={() => act(`mutation($id: String!) { remindDocument(id: $id) { ${DOC} } }`, { id }, t("docs.remindedAll"))}>{t("docs.remindAll")}</button>
        )}
        {doc.state === "executed" && <button type="button" class="secondary" onClick={() => get("signed.pdf")}>{t("docs.signedPdf")}</button>}
        <button type="button" class="secondary" onClick={() => get("audit-log.csv")}>{t("docs.auditCsv")}</button>
        {canWrite && OPEN.has(doc.state) && <button type="button" class="danger" onClick={() => setVoiding(true)}>{t("docs.void")}</button>}
      </div>

      {revising && <Revise id={id} go={go} onCancel={() => setRevising(false)} />}

      <section aria-labelledby="people-title">
        <h2 id="people-title">{t("docs.people")}</h2>
        <Table caption={t("docs.people")} head={[t("people.name"), t("docs.seat"), t("docs.status"), t("docs.when"), ""]}>
          {doc.people.map((p) => (
            <tr key={p.id}>
              <td><bdi>{p.name}</bdi><div class="hint"><bdi>{p.email}</bdi></div></td>
              <td><code>{p.seat}</code></td>
              <td><span class={`badge person-${p.status}`}>{personStatus(p)}</span></td>
              <td class="time">{personTime(p)}</td>
              <td class="row-actions">
                {canWrite && out && (p.status === "invited" || p.status === "opened") && !p.embedded && (
                  <button type="button" class="secondary small" onClick={() => act(`mutation($id: String!, $s: String) { remindDocument(id: $id, seat: $s) { ${DOC} } }`, { id, s: p.seat }, t("docs.reminded", { name: p.name }))}>{t("docs.remind")}</button>
                )}
                {canWrite && out && p.embedded && (p.status === "invited" || p.status === "opened") && (
                  <button type="button" class="secondary small" onClick={() => setEmbedding(p)}>{t("docs.embed")}</button>
                )}
                {canWrite && doc.test && out && (p.status === "invited" || p.status === "opened") && (
                  <button type="button" class="secondary small" onClick={() => act(`mutation($id: String!, $s: String!) { testSignDocument(id: $id, seat: $s) { ${DOC} } }`, { id, s: p.seat }, t("docs.testSigned", { name: p.name }))}>{t("docs.testSign")}</button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </section>

      {doc.payments.length > 0 && (
        <section aria-labelledby="payments-title">
          <h2 id="payments-title">{t("docs.payments")}</h2>
          <Table caption={t("docs.payments")} head={[t("docs.seat"), t("docs.amount"), t("docs.fee"), t("docs.status"), t("docs.receipt")]}>
            {doc.payments.map((p) => (
              <tr key={p.id}>
                <td><code>{p.seat}</code></td>
                <td>{money(p.amount, p.currency)}</td>
                <td>{money(p.fee, p.currency)}</td>
                <td><span class={`badge payment-${p.status}`}>{t(`pay.${p.status}` as Key)}</span>{p.paidAt && <div class="hint">{when(Date.parse(p.paidAt))}</div>}</td>
                <td>{p.receiptUrl && <a href={p.receiptUrl} target="_blank" rel="noopener noreferrer">{p.receiptNumber ?? t("docs.receipt")}</a>}</td>
              </tr>
            ))}
          </Table>
        </section>
      )}

      <section aria-labelledby="audit-title">
        <h2 id="audit-title">{t("docs.audit")}</h2>
        {audit === null ? (
          <p role="status">{t("common.loading")}</p>
        ) : (
          <Table caption={t("docs.audit")} head={[t("docs.when"), t("docs.event"), t("docs.person")]}>
            {audit.map((a) => (
              <tr key={a.seq}>
                <td class="time">{at(a.time)}</td>
                <td><bdi>{a.description}</bdi></td>
                <td><bdi>{a.person ?? ""}</bdi></td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      {voiding && (
        <VoidDialog onCancel={() => setVoiding(false)} onVoid={(reason) => {
          setVoiding(false);
          void act(`mutation($id: String!, $r: String) { voidDocument(id: $id, reason: $r) { ${DOC} } }`, { id, r: reason || null }, t("docs.voided"));
        }} />
      )}
      {embedding && <EmbedDialog id={id} person={embedding} onDone={() => setEmbedding(null)} />}
    </>
  );
}

/** A signing link for a person signed inside the caller's own website: made for one allowed
 * website, good once and for an hour, shown here to copy into the page's frame. */
function EmbedDialog({ id, person, onDone }: { id: string; person: PersonOut; onDone: () => void }) {
  const [origin, setOrigin] = useState("");
  const [made, setMade] = useState<{ url: string; expiresAt: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const make = async () => {
    try {
      const d = await gql<{ embedSession: { url: string; expiresAt: string } }>(
        "mutation($id: String!, $s: String!, $o: String!) { embedSession(id: $id, seat: $s, origin: $o) { url expiresAt } }",
        { id, s: person.seat, o: origin.trim() },
      );
      setMade(d.embedSession);
      setProblem(null);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  return (
    <Confirm title={t("docs.embedTitle", { name: person.name })} text={made ? t("docs.embedMade", { when: at(made.expiresAt) }) : t("docs.embedText")}
      confirm={made ? t("common.close") : t("docs.makeLink")} cancel={t("common.cancel")} onConfirm={made ? onDone : make} onCancel={onDone}>
      {problem && <p class="notice error" role="alert">{problem}</p>}
      {made ? (
        <p><code class="key" data-testid="embed-url">{made.url}</code></p>
      ) : (
        <Field label={t("docs.origin")}>
          {(fid) => <input id={fid} type="url" dir="ltr" required maxLength={300} placeholder="https://app.example.com" value={origin} onInput={(e) => setOrigin(e.currentTarget.value)} />}
        </Field>
      )}
    </Confirm>
  );
}

/** An amount in minor units, as the application's language writes its currency. */
function money(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(lang.value, { style: "currency", currency: code }).format(minor / 10 ** digits);
}

/** Voiding asks why (the people are told) and cannot be undone. */
function VoidDialog({ onVoid, onCancel }: { onVoid: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState("");
  return (
    <Confirm title={t("docs.voidTitle")} text={t("docs.voidText")} confirm={t("docs.void")} cancel={t("common.cancel")} danger
      onConfirm={() => onVoid(reason.trim())} onCancel={onCancel}>
      <Field label={t("docs.voidReason")}>
        {(id) => <textarea id={id} rows={3} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}
      </Field>
    </Confirm>
  );
}

function NewDocument({ go }: { go: Go }) {
  const [from, setFrom] = useState<"template" | "words">("template");
  return (
    <>
      <p><a href="/app/documents" onClick={(e) => { e.preventDefault(); go("/app/documents"); }}>{t("docs.back")}</a></p>
      <h1>{t("docs.new")}</h1>
      {mode.value === "test" && <p class="hint">{t("mode.testNew")}</p>}
      <fieldset class="choice">
        <legend>{t("docs.from")}</legend>
        <label class="check"><input type="radio" name="from" checked={from === "template"} onChange={() => setFrom("template")} />{t("docs.fromTemplate")}</label>
        <label class="check"><input type="radio" name="from" checked={from === "words"} onChange={() => setFrom("words")} />{t("docs.fromWords")}</label>
      </fieldset>
      {from === "template" ? <FromTemplate go={go} /> : <FromWords go={go} />}
    </>
  );
}

type Row = { name: string; email: string; role: string };

function PeopleRows({ rows, onChange, fixed }: { rows: Row[]; onChange: (r: Row[]) => void; fixed: boolean }) {
  const set = (i: number, k: keyof Row, v: string) => onChange(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  return (
    <fieldset class="people-rows">
      <legend>{t("docs.people")}</legend>
      {rows.map((r, i) => (
        <div class="person-row" key={i}>
          {fixed ? (
            <p class="seat"><code>{r.role}</code></p>
          ) : (
            <Field label={t("docs.roleWord")}>{(id) => <input id={id} value={r.role} required pattern="[A-Za-z0-9_\-]{1,40}" onInput={(e) => set(i, "role", e.currentTarget.value)} />}</Field>
          )}
          <Field label={t("people.name")}>{(id) => <input id={id} value={r.name} required maxLength={200} autoComplete="off" onInput={(e) => set(i, "name", e.currentTarget.value)} />}</Field>
          <Field label={t("people.email")}>{(id) => <input id={id} type="email" value={r.email} required maxLength={254} autoComplete="off" onInput={(e) => set(i, "email", e.currentTarget.value)} />}</Field>
          {!fixed && rows.length > 1 && (
            <button type="button" class="secondary small" onClick={() => onChange(rows.filter((_, j) => j !== i))}>{t("docs.removePerson")}</button>
          )}
        </div>
      ))}
      {!fixed && rows.length < 20 && (
        <button type="button" class="secondary small" onClick={() => onChange([...rows, { name: "", email: "", role: `signer_${rows.length + 1}` }])}>{t("docs.addPerson")}</button>
      )}
    </fieldset>
  );
}

function FromTemplate({ go }: { go: Go }) {
  const [templates, setTemplates] = useState<TemplateOut[] | null>(null);
  const [chosen, setChosen] = useState<TemplateOut | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [title, setTitle] = useState("");
  const [sendNow, setSendNow] = useState(true);
  const [note, setNote] = useState<Note | null>(null);
  useEffect(() => {
    // Every template to choose from, a page of 200 at a time, at most 1,000.
    (async () => {
      const all: TemplateOut[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 5; i++) {
        const d: { templates: TemplatePageOut } = await gql<{ templates: TemplatePageOut }>(
          "query($c: String) { templates(limit: 200, cursor: $c) { data { id name kind seats questions version } page { nextCursor } } }", { c: cursor });
        all.push(...d.templates.data);
        cursor = d.templates.page.nextCursor ?? null;
        if (!cursor) break;
      }
      all.sort((a, b) => a.name.localeCompare(b.name));
      setTemplates(all);
    })().catch((e) => setNote(failed(e)));
  }, [mode.value]);
  const pick = (id: string) => {
    const tpl = templates?.find((x) => x.id === id) ?? null;
    setChosen(tpl);
    setRows((tpl?.seats ?? []).map((s) => ({ name: "", email: "", role: s })));
    setAnswers({});
  };
  const [busy, submit] = useSubmit(async () => {
    if (!chosen) return;
    const input = {
      people: rows.map((r) => ({ name: r.name.trim(), email: r.email.trim(), role: r.role })),
      title: title.trim() || null,
      variableValues: Object.keys(answers).length ? answers : null,
      sendNow,
    };
    const d = await gql<{ createDocumentFromTemplate: DocumentOut }>(
      "mutation($id: String!, $i: TemplateDocumentInput!) { createDocumentFromTemplate(id: $id, input: $i) { id } }",
      { id: chosen.id, i: input },
    );
    go(`/app/documents/${encodeURIComponent(d.createDocumentFromTemplate.id)}`);
  }, (e) => setNote(failed(e)));
  if (templates === null) return note ? <Notice kind="error">{note.text}</Notice> : <p role="status">{t("common.loading")}</p>;
  if (templates.length === 0) return <p>{t("docs.noTemplates")}</p>;
  return (
    <form onSubmit={submit}>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <Field label={t("docs.template")}>
        {(id) => (
          <select id={id} value={chosen?.id ?? ""} required onChange={(e) => pick(e.currentTarget.value)}>
            <option value="">{t("docs.chooseTemplate")}</option>
            {templates.map((x) => <option value={x.id} key={x.id}>{x.name}</option>)}
          </select>
        )}
      </Field>
      {chosen && (
        <>
          <Field label={t("dev.optional", { label: t("docs.name") })}>
            {(id) => <input id={id} value={title} maxLength={200} placeholder={chosen.name} onInput={(e) => setTitle(e.currentTarget.value)} />}
          </Field>
          <PeopleRows rows={rows} onChange={setRows} fixed />
          {chosen.questions.length > 0 && (
            <fieldset class="people-rows">
              <legend>{t("docs.questions")}</legend>
              {chosen.questions.map((q) => (
                <Field label={q} key={q}>
                  {(id) => <input id={id} required maxLength={500} value={answers[q] ?? ""} onInput={(e) => setAnswers({ ...answers, [q]: e.currentTarget.value })} />}
                </Field>
              ))}
            </fieldset>
          )}
          <label class="check"><input type="checkbox" checked={sendNow} onChange={(e) => setSendNow(e.currentTarget.checked)} />{t("docs.sendNow")}</label>
          <div class="actions start">
            <button type="submit" class="primary" disabled={busy}>{sendNow ? t("docs.makeAndSend") : t("docs.makeDraft")}</button>
          </div>
        </>
      )}
    </form>
  );
}

/** The words as the source model: a blank line between paragraphs, `# ` and `## ` headings,
 * and a signature block for each person who signs, at the end. */
/** The words of a source made of plain paragraphs and headings followed by signature
 * blocks (what `sourceOf` makes), with its blocks' roles; `null` for anything richer (fields,
 * marks, lists, tables), which only the builder or the API can revise without loss. */
export function wordsOf(source: unknown): { text: string; roles: string[] } | null {
  type Node = { type?: string; attrs?: Record<string, unknown>; content?: Node[]; text?: string; marks?: unknown[] };
  const doc = source as Node;
  if (doc?.type !== "doc" || !Array.isArray(doc.content)) return null;
  const blocks: string[] = [];
  const roles: string[] = [];
  for (const n of doc.content) {
    if (n.type === "signatureBlock" && typeof n.attrs?.role === "string" && Object.keys(n.attrs).length === 1) {
      roles.push(n.attrs.role as string);
      continue;
    }
    if (roles.length) return null;
    const inline = n.content ?? [];
    if (!inline.every((c) => c.type === "text" && typeof c.text === "string" && !c.marks?.length)) return null;
    const text = inline.map((c) => c.text).join("");
    if (n.type === "paragraph" && !n.attrs) blocks.push(text);
    else if (n.type === "heading" && [1, 2, 3].includes(n.attrs?.level as number) && Object.keys(n.attrs ?? {}).length === 1) blocks.push(`${"#".repeat(n.attrs!.level as number)} ${text}`);
    else return null;
  }
  return { text: blocks.join("\n\n"), roles };
}

/** A draft's words, edited as they were written: saving makes a new draft (a new id) that
 * keeps the people and choices. */
function Revise({ id, go, onCancel }: { id: string; go: Go; onCancel: () => void }) {
  const [words, setWords] = useState<{ text: string; roles: string[] } | null | undefined>(undefined);
  const [text, setText] = useState("");
  const [note, setNote] = useState<Note | null>(null);
  useEffect(() => {
    gql<{ documentSource: { source: unknown } }>("query($id: String!) { documentSource(id: $id) { source } }", { id }).then(
      (d) => { const w = wordsOf(d.documentSource.source); setWords(w); setText(w?.text ?? ""); },
      (e) => setNote(failed(e)),
    );
  }, [id]);
  const [busy, submit] = useSubmit(async () => {
    if (!words) return;
    const d = await gql<{ reviseDocument: DocumentOut }>(
      "mutation($id: String!, $i: DocumentReviseInput!) { reviseDocument(id: $id, input: $i) { id } }",
      { id, i: { source: sourceOf(text, words.roles) } },
    );
    go(`/app/documents/${encodeURIComponent(d.reviseDocument.id)}`);
  }, (e) => setNote(failed(e)));
  return (
    <section class="card" aria-labelledby="revise-title">
      <h2 id="revise-title">{t("docs.revise")}</h2>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      {words === undefined ? (
        !note && <p role="status">{t("common.loading")}</p>
      ) : words === null ? (
        <p>{t("docs.reviseRich")}</p>
      ) : (
        <form onSubmit={submit}>
          <p class="hint">{t("docs.reviseHint")}</p>
          <Field label={t("docs.words")}>
            {(fid) => <textarea id={fid} dir="auto" rows={12} required maxLength={100000} value={text} onInput={(e) => setText(e.currentTarget.value)} />}
          </Field>
          <div class="actions start">
            <button class="primary" type="submit" disabled={busy}>{t("docs.saveRevision")}</button>
            <button class="secondary" type="button" onClick={onCancel}>{t("common.cancel")}</button>
          </div>
        </form>
      )}
    </section>
  );
}

export function sourceOf(text: string, roles: string[]) {
  const content: unknown[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const b = block.trim();
    if (!b) continue;
    const h = /^(#{1,3})\s+(.*)$/s.exec(b);
    if (h) content.push({ type: "heading", attrs: { level: h[1].length }, content: [{ type: "text", text: h[2].replace(/\s+/g, " ") }] });
    else content.push({ type: "paragraph", content: [{ type: "text", text: b.replace(/\s*\n\s*/g, " ") }] });
  }
  for (const role of roles) content.push({ type: "signatureBlock", attrs: { role } });
  return { type: "doc", content };
}

function FromWords({ go }: { go: Go }) {
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [rows, setRows] = useState<Row[]>([{ name: "", email: "", role: "signer_1" }]);
  const [sendNow, setSendNow] = useState(true);
  const [note, setNote] = useState<Note | null>(null);
  const [busy, submit] = useSubmit(async () => {
    const roles = [...new Set(rows.map((r) => r.role.trim()))];
    const input = {
      title: title.trim(),
      source: sourceOf(text, roles),
      people: rows.map((r) => ({ name: r.name.trim(), email: r.email.trim(), role: r.role.trim() })),
      sendNow,
    };
    const d = await gql<{ createDocument: DocumentOut }>("mutation($i: DocumentCreateInput!) { createDocument(input: $i) { id } }", { i: input });
    go(`/app/documents/${encodeURIComponent(d.createDocument.id)}`);
  }, (e) => setNote(failed(e)));
  return (
    <form onSubmit={submit}>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <Field label={t("docs.name")}>
        {(id) => <input id={id} value={title} required maxLength={200} onInput={(e) => setTitle(e.currentTarget.value)} />}
      </Field>
      <Field label={t("docs.words")}>
        {(id) => <textarea id={id} rows={12} required maxLength={200000} value={text} aria-describedby="words-hint" onInput={(e) => setText(e.currentTarget.value)} />}
      </Field>
      <p class="hint" id="words-hint">{t("docs.wordsHint")}</p>
      <PeopleRows rows={rows} onChange={setRows} fixed={false} />
      <label class="check"><input type="checkbox" checked={sendNow} onChange={(e) => setSendNow(e.currentTarget.checked)} />{t("docs.sendNow")}</label>
      <div class="actions start">
        <button type="submit" class="primary" disabled={busy}>{sendNow ? t("docs.makeAndSend") : t("docs.makeDraft")}</button>
      </div>
    </form>
  );
}
