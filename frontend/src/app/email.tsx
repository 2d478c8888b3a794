// Email: the wording of the eight kinds per language, edited beside the preview the API
// renders (`previewEmailTemplate`), saved or reset to the standard words; the email log of
// the mode the switch says, filtered by status, kind, address and document; and the
// addresses a bounce or a complaint suppressed, each liftable. Owners and admins change
// wording and lift suppressions; the server refuses anyone else.
import { useEffect, useRef, useState } from "preact/hooks";
import type { EmailOut, EmailPageOut, EmailPreviewOut, EmailTemplateOut, SuppressionOut, SuppressionPageOut } from "../shared/api/graphql";
import { Confirm, Field, LanguageField, Notice, Table } from "../shared/ui";
import { lang, t, when, type Key } from "../shared/words";
import { gql, mode } from "./api";

type Note = { kind: "ok" | "error"; text: string };
type Tab = "wording" | "log" | "suppressed";

const KINDS = ["invitation", "reminder", "completed", "declined", "voided", "expired", "code", "receipt"];
const STATUSES = ["sent", "delivered", "bounced", "complained", "failed", "paused"];
const FIELDS = ["subject", "preview", "body", "buttonLabel", "footer"] as const;
type Wording = Record<(typeof FIELDS)[number], string>;

export function Email({ canWrite }: { canWrite: boolean }) {
  const [tab, setTab] = useState<Tab>("wording");
  const [note, setNote] = useState<Note | null>(null);
  const fail = (e: unknown) => setNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  return (
    <>
      <h1>{t("email.title")}</h1>
      <p>{t("email.lead")}</p>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <div class="segmented" role="group" aria-label={t("email.title")}>
        {(["wording", "log", "suppressed"] as Tab[]).map((x) => (
          <button type="button" key={x} aria-pressed={tab === x} onClick={() => { setTab(x); setNote(null); }}>{t(`email.tab.${x}` as Key)}</button>
        ))}
      </div>
      {tab === "wording" && <WordingEditor canWrite={canWrite} onNote={setNote} fail={fail} />}
      {tab === "log" && <Log fail={fail} />}
      {tab === "suppressed" && <Suppressed canWrite={canWrite} onNote={setNote} fail={fail} />}
    </>
  );
}

const TEMPLATE = "kind locale subject preview body buttonLabel footer updatedAt standard { subject preview body buttonLabel footer } saved { subject preview body buttonLabel footer } variables { name description }";

function savedOf(x: EmailTemplateOut): Wording {
  const s = x.saved;
  return { subject: s?.subject ?? "", preview: s?.preview ?? "", body: s?.body ?? "", buttonLabel: s?.buttonLabel ?? "", footer: s?.footer ?? "" };
}

function WordingEditor({ canWrite, onNote, fail }: { canWrite: boolean; onNote: (n: Note | null) => void; fail: (e: unknown) => void }) {
  const [locale, setLocale] = useState(lang.value);
  const [kind, setKind] = useState("invitation");
  const [all, setAll] = useState<EmailTemplateOut[] | null>(null);
  const [draft, setDraft] = useState<Wording | null>(null);
  const [preview, setPreview] = useState<EmailPreviewOut | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = all?.find((x) => x.kind === kind) ?? null;

  const load = async () => {
    try {
      const d = await gql<{ emailTemplates: { data: EmailTemplateOut[] } }>(`query($l: String) { emailTemplates(locale: $l) { data { ${TEMPLATE} } } }`, { l: locale });
      setAll(d.emailTemplates.data);
    } catch (e) {
      fail(e);
    }
  };
  useEffect(() => void load(), [locale]);
  useEffect(() => {
    if (current) setDraft(savedOf(current));
  }, [current?.kind, current?.locale, current?.updatedAt]);

  // The preview follows the words a moment after typing stops; a problem (an unknown
  // variable, a field too long) is shown in its place.
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(async () => {
      try {
        const d = await gql<{ previewEmailTemplate: EmailPreviewOut }>(
          "mutation($k: String!, $i: EmailWordingInput!) { previewEmailTemplate(kind: $k, input: $i) { kind locale subject preview body html } }",
          { k: kind, i: { locale, ...draft } },
        );
        setPreview(d.previewEmailTemplate);
        setProblem(null);
      } catch (e) {
        setProblem((e as Error).message);
      }
    }, 350);
    return () => clearTimeout(timer);
  }, [draft, kind, locale]);

  const save = async (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    setBusy(true);
    try {
      const d = await gql<{ saveEmailTemplate: EmailTemplateOut }>(`mutation($k: String!, $i: EmailWordingInput!) { saveEmailTemplate(kind: $k, input: $i) { ${TEMPLATE} } }`, { k: kind, i: { locale, ...draft } });
      setAll((old) => old?.map((x) => (x.kind === kind ? d.saveEmailTemplate : x)) ?? null);
      onNote({ kind: "ok", text: t("email.saved", { kind: t(`email.kind.${kind}` as Key) }) });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    setResetting(false);
    try {
      const d = await gql<{ resetEmailTemplate: EmailTemplateOut }>(`mutation($k: String!, $l: String) { resetEmailTemplate(kind: $k, locale: $l) { ${TEMPLATE} } }`, { k: kind, l: locale });
      setAll((old) => old?.map((x) => (x.kind === kind ? d.resetEmailTemplate : x)) ?? null);
      setDraft(savedOf(d.resetEmailTemplate));
      onNote({ kind: "ok", text: t("email.resetDone", { kind: t(`email.kind.${kind}` as Key) }) });
    } catch (err) {
      fail(err);
    }
  };

  const set = (f: (typeof FIELDS)[number], v: string) => draft && setDraft({ ...draft, [f]: v });
  const labels: Record<(typeof FIELDS)[number], string> = {
    subject: t("email.subject"), preview: t("email.previewLine"), body: t("email.body"), buttonLabel: t("email.button"), footer: t("email.footer"),
  };
  const long = (f: string) => f === "body" || f === "footer";
  const max: Record<string, number> = { subject: 200, preview: 300, body: 10000, buttonLabel: 60, footer: 1000 };

  return (
    <section aria-labelledby="wording-title">
      <h2 id="wording-title" class="visually-hidden">{t("email.tab.wording")}</h2>
      <div class="grid">
        <LanguageField label={t("email.language")} value={locale} onChange={(c) => { setAll(null); setLocale(c); }} />
        <Field label={t("email.kind")}>
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
              {KINDS.map((k) => <option value={k} key={k}>{t(`email.kind.${k}` as Key)}{all?.find((x) => x.kind === k)?.saved ? ` · ${t("email.customised")}` : ""}</option>)}
            </select>
          )}
        </Field>
      </div>
      {!current || !draft ? (
        <p role="status">{t("common.loading")}</p>
      ) : (
        <div class="wording">
          <form class="card" onSubmit={save}>
            <p class="hint">{current.saved ? t("email.savedAt", { when: when(Date.parse(current.updatedAt ?? "")) }) : t("email.standardNow")} {t("email.blankHint")}</p>
            {FIELDS.map((f) => (
              <Field label={labels[f]} key={f}>
                {(id) => long(f) ? (
                  <textarea id={id} dir="auto" rows={f === "body" ? 8 : 3} maxLength={max[f]} readOnly={!canWrite} placeholder={current.standard[f] ?? ""}
                    value={draft[f]} onInput={(e) => set(f, e.currentTarget.value)} />
                ) : (
                  <input id={id} dir="auto" maxLength={max[f]} readOnly={!canWrite} placeholder={current.standard[f] ?? ""}
                    value={draft[f]} onInput={(e) => set(f, e.currentTarget.value)} />
                )}
              </Field>
            ))}
            <details class="variables">
              <summary>{t("email.variables", { count: String(current.variables.length) })}</summary>
              <ul>
                {current.variables.map((v) => <li key={v.name}><code dir="ltr">{`{{${v.name}}}`}</code> <span lang="en">{v.description}</span></li>)}
              </ul>
            </details>
            {canWrite && (
              <div class="actions start">
                <button class="primary" type="submit" disabled={busy}>{t("email.save")}</button>
                {current.saved && <button class="secondary" type="button" onClick={() => setResetting(true)}>{t("email.reset")}</button>}
              </div>
            )}
          </form>
          <Preview preview={preview} problem={problem} />
        </div>
      )}
      {resetting && (
        <Confirm title={t("email.resetTitle", { kind: t(`email.kind.${kind}` as Key) })} text={t("email.resetText")} confirm={t("email.reset")}
          cancel={t("common.cancel")} danger onConfirm={reset} onCancel={() => setResetting(false)} />
      )}
    </section>
  );
}

function Preview({ preview, problem }: { preview: EmailPreviewOut | null; problem: string | null }) {
  return (
    <section class="card email-preview" aria-labelledby="preview-title" aria-live="polite">
      <h3 id="preview-title">{t("email.preview")}</h3>
      {problem && <p class="notice error" role="alert">{problem}</p>}
      {preview && (
        <>
          <dl class="email-head">
            <dt>{t("email.subject")}</dt><dd><bdi>{preview.subject}</bdi></dd>
            <dt>{t("email.previewLine")}</dt><dd><bdi>{preview.preview}</bdi></dd>
          </dl>
          <Rendered html={preview.html} label={t("email.preview")} />
          <details>
            <summary>{t("email.plain")}</summary>
            <pre dir="auto" class="plain">{preview.body}</pre>
          </details>
        </>
      )}
    </section>
  );
}

/** Tags and attributes the service's email HTML uses; anything else is left out. */
const TAGS = new Set(["div", "table", "tbody", "tr", "td", "p", "a", "br", "blockquote", "bdi", "strong", "em", "span", "b", "i", "ul", "ol", "li", "h1", "h2", "h3"]);
const ATTRS = new Set(["width", "align", "cellpadding", "cellspacing", "role", "dir", "lang", "colspan", "href"]);

/** A copy of the email's HTML that obeys the page's policy: inline style attributes (which
 * `style-src 'self'` refuses; renamed `data-style` before parsing) are given through the
 * element's style object instead, links do not lead anywhere, and nothing but known tags is
 * copied. */
function copied(node: Node): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.textContent ?? "");
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const from = node as Element;
  const tag = from.tagName.toLowerCase();
  if (!TAGS.has(tag)) return null;
  const to = document.createElement(tag);
  for (const a of Array.from(from.attributes)) {
    if (a.name === "data-style") to.style.cssText = a.value;
    else if (ATTRS.has(a.name)) to.setAttribute(a.name, a.value);
  }
  if (tag === "a") {
    to.setAttribute("tabindex", "-1");
    to.addEventListener("click", (e) => e.preventDefault());
  }
  for (const c of Array.from(from.childNodes)) {
    const n = copied(c);
    if (n) to.appendChild(n);
  }
  return to;
}

/** The email's HTML as a mail client shows it, apart from the page's own styles. */
function Rendered({ html, label }: { html: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // Parsed with its style attributes renamed: the parser would apply the page's policy
    // to them (and report each one refused).
    const inert = html.replace(/<[a-zA-Z][^>]*>/g, (tag) => tag.replace(/\sstyle="/g, ' data-style="'));
    const doc = new DOMParser().parseFromString(inert, "text/html");
    const body = document.createElement("div");
    body.style.cssText = doc.body.getAttribute("data-style") ?? "";
    const root = doc.documentElement;
    body.setAttribute("lang", root.getAttribute("lang") ?? "en");
    body.setAttribute("dir", root.getAttribute("dir") ?? "ltr");
    for (const c of Array.from(doc.body.childNodes)) {
      const n = copied(c);
      if (n) body.appendChild(n);
    }
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: "open" });
    shadow.replaceChildren(body);
  }, [html]);
  return <div class="email-frame" ref={host} role="document" aria-label={label} />;
}

/** A filter's choice: any, or one of `values`, each named by the words `${words}.${value}`. */
function AnyOf(p: { label: string; words: string; values: string[]; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={p.label}>
      {(id) => (
        <select id={id} value={p.value} onChange={(e) => p.onChange(e.currentTarget.value)}>
          <option value="">{t("email.any")}</option>
          {p.values.map((v) => <option value={v} key={v}>{t(`${p.words}.${v}` as Key)}</option>)}
        </select>
      )}
    </Field>
  );
}

function Log({ fail }: { fail: (e: unknown) => void }) {
  const [rows, setRows] = useState<EmailOut[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [kind, setKind] = useState("");
  const [to, setTo] = useState("");
  const [documentId, setDocumentId] = useState("");
  const load = async (cursor: string | null) => {
    try {
      const d = await gql<{ emails: EmailPageOut }>(
        "query($s: String, $k: String, $t: String, $d: String, $c: String) { emails(status: $s, kind: $k, to: $t, documentId: $d, limit: 50, cursor: $c) { data { id kind to subject status reason documentId test createdAt } page { nextCursor } } }",
        { s: status || null, k: kind || null, t: to.trim() || null, d: documentId.trim() || null, c: cursor },
      );
      setRows((old) => (cursor ? [...(old ?? []), ...d.emails.data] : d.emails.data));
      setNext(d.emails.page.nextCursor ?? null);
    } catch (e) {
      fail(e);
    }
  };
  useEffect(() => void load(null), [status, kind, mode.value]);
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title" class="visually-hidden">{t("email.tab.log")}</h2>
      <form class="card" role="search" onSubmit={(e) => { e.preventDefault(); void load(null); }}>
        <div class="grid">
          <AnyOf label={t("email.status")} words="email.status" values={STATUSES} value={status} onChange={setStatus} />
          <AnyOf label={t("email.kind")} words="email.kind" values={KINDS} value={kind} onChange={setKind} />
          <Field label={t("email.to")}>{(id) => <input id={id} type="email" maxLength={254} value={to} onInput={(e) => setTo(e.currentTarget.value)} />}</Field>
          <Field label={t("email.document")}>{(id) => <input id={id} maxLength={64} value={documentId} onInput={(e) => setDocumentId(e.currentTarget.value)} />}</Field>
        </div>
        <div class="actions start"><button class="primary" type="submit">{t("dev.search")}</button></div>
      </form>
      {rows === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : rows.length === 0 ? (
        <p>{t("email.noEmails")}</p>
      ) : (
        <Table caption={t("email.tab.log")} head={[t("activity.when"), t("email.kind"), t("email.to"), t("email.subject"), t("email.status")]}>
          {rows.map((m) => (
            <tr key={m.id}>
              <td>{when(Date.parse(m.createdAt))}</td>
              <td>{t(`email.kind.${m.kind}` as Key)}</td>
              <td><bdi>{m.to}</bdi></td>
              <td><bdi>{m.subject}</bdi></td>
              <td class={["bounced", "complained", "failed"].includes(m.status) ? "bad" : undefined}>
                {STATUSES.includes(m.status) ? t(`email.status.${m.status}` as Key) : m.status}
                {m.reason && <div class="hint"><bdi>{m.reason}</bdi></div>}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {next && rows && (
        <div class="actions start"><button type="button" class="secondary" onClick={() => load(next)}>{t("activity.older")}</button></div>
      )}
    </section>
  );
}

function Suppressed({ canWrite, onNote, fail }: { canWrite: boolean; onNote: (n: Note | null) => void; fail: (e: unknown) => void }) {
  const [rows, setRows] = useState<SuppressionOut[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [lifting, setLifting] = useState<SuppressionOut | null>(null);
  const load = async (cursor: string | null) => {
    try {
      const d = await gql<{ emailSuppressions: SuppressionPageOut }>(
        "query($s: String, $c: String) { emailSuppressions(search: $s, limit: 50, cursor: $c) { data { address reason createdAt } page { nextCursor } } }",
        { s: search.trim() || null, c: cursor },
      );
      setRows((old) => (cursor ? [...(old ?? []), ...d.emailSuppressions.data] : d.emailSuppressions.data));
      setNext(d.emailSuppressions.page.nextCursor ?? null);
    } catch (e) {
      fail(e);
    }
  };
  useEffect(() => void load(null), []);
  const lift = async (s: SuppressionOut) => {
    setLifting(null);
    try {
      await gql("mutation($a: String!) { liftEmailSuppression(address: $a) }", { a: s.address });
      onNote({ kind: "ok", text: t("email.lifted", { address: s.address }) });
      await load(null);
    } catch (e) {
      fail(e);
    }
  };
  return (
    <section aria-labelledby="suppressed-title">
      <h2 id="suppressed-title" class="visually-hidden">{t("email.tab.suppressed")}</h2>
      <p class="hint">{t("email.suppressedLead")}</p>
      <form class="card" role="search" onSubmit={(e) => { e.preventDefault(); void load(null); }}>
        <div class="grid">
          <Field label={t("email.searchAddress")}>{(id) => <input id={id} maxLength={254} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />}</Field>
        </div>
        <div class="actions start"><button class="primary" type="submit">{t("dev.search")}</button></div>
      </form>
      {rows === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : rows.length === 0 ? (
        <p>{t("email.noneSuppressed")}</p>
      ) : (
        <Table caption={t("email.tab.suppressed")} head={[t("email.address"), t("email.why"), t("email.since"), ""]}>
          {rows.map((s) => (
            <tr key={s.address}>
              <td><bdi>{s.address}</bdi></td>
              <td lang="en">{s.reason}</td>
              <td>{when(Date.parse(s.createdAt))}</td>
              <td>{canWrite && <button type="button" class="secondary small" onClick={() => setLifting(s)}>{t("email.lift")}</button>}</td>
            </tr>
          ))}
        </Table>
      )}
      {next && rows && (
        <div class="actions start"><button type="button" class="secondary" onClick={() => load(next)}>{t("activity.older")}</button></div>
      )}
      {lifting && (
        <Confirm title={t("email.liftTitle", { address: lifting.address })} text={t("email.liftText")} confirm={t("email.lift")}
          cancel={t("common.cancel")} onConfirm={() => lift(lifting)} onCancel={() => setLifting(null)} />
      )}
    </section>
  );
}
