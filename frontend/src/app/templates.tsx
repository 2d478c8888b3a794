// Templates: the list of those ready to send from, a new one from a file (a PDF, Word, Excel,
// PowerPoint or image file with text tags; what was removed or changed is said), and one
// template's seats, questions and fields with the defaults its documents start with.
// Writing a template from words, or its next version, is the builder's (builder.tsx).
import { useEffect, useState } from "preact/hooks";
import type { TemplateOut, TemplatePageOut } from "../shared/api/graphql";
import { Field, LanguageField, Notice, Table, useSubmit } from "../shared/ui";
import { t, when } from "../shared/words";
import { gql, mode } from "./api";
import { TemplateBuilder } from "./builder";

type Note = { kind: "ok" | "error"; text: string };
type Go = (to: string) => void;

/** The largest file the service takes (10 MB before base64). */
const MAX_FILE = 10 * 1024 * 1024;
const TEMPLATE = "id kind name externalId version approved seats questions paper profile pages warnings createdAt updatedAt fields { name type role required } defaults { description clientDescription message sendOptions }";

const failed = (e: unknown): Note => ({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
const at = (s: string) => when(Date.parse(s));

export function Templates({ route, go, canWrite }: { route: string; go: Go; canWrite: boolean }) {
  const rest = route.slice("/app/templates".length).replace(/^\//, "");
  if (canWrite && rest === "new") return <TemplateBuilder id={null} go={go} />;
  if (canWrite && rest.endsWith("/edit")) return <TemplateBuilder id={decodeURIComponent(rest.slice(0, -"/edit".length))} go={go} />;
  if (rest) return <OneTemplate id={decodeURIComponent(rest)} go={go} canWrite={canWrite} />;
  return <List go={go} canWrite={canWrite} />;
}

function List({ go, canWrite }: { go: Go; canWrite: boolean }) {
  const [list, setList] = useState<TemplateOut[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const load = async (cursor: string | null) => {
    try {
      const d = await gql<{ templates: TemplatePageOut }>(
        "query($c: String) { templates(limit: 50, cursor: $c, all: true) { data { id kind name version seats updatedAt } page { nextCursor } } }",
        { c: cursor },
      );
      setList((old) => (cursor ? [...(old ?? []), ...d.templates.data] : d.templates.data));
      setNext(d.templates.page.nextCursor ?? null);
    } catch (e) {
      setNote(failed(e));
    }
  };
  useEffect(() => void load(null), [mode.value]);
  const open = (id: string) => go(`/app/templates/${encodeURIComponent(id)}`);
  return (
    <>
      <h1>{t("tpl.title")}</h1>
      <p>{t("tpl.lead")}</p>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      {canWrite && (
        <div class="actions start">
          <a class="button primary" href="/app/templates/new" onClick={(e) => { e.preventDefault(); go("/app/templates/new"); }}>{t("tpl.write")}</a>
        </div>
      )}
      {canWrite && <Upload onMade={open} onError={(e) => setNote(failed(e))} />}
      {list === null ? (
        !note && <p role="status">{t("common.loading")}</p>
      ) : list.length === 0 ? (
        <p>{t("docs.noTemplates")}</p>
      ) : (
        <Table caption={t("tpl.title")} head={[t("people.name"), t("tpl.kind"), t("tpl.seats"), t("tpl.version"), t("docs.updated")]}>
          {list.map((x) => (
            <tr key={x.id}>
              <td><a href={`/app/templates/${encodeURIComponent(x.id)}`} onClick={(e) => { e.preventDefault(); open(x.id); }}><bdi>{x.name}</bdi></a></td>
              <td>{kindName(x.kind)}</td>
              <td>{x.seats.map((s) => <code key={s} class="seat-chip">{s}</code>)}</td>
              <td>{x.version}</td>
              <td class="time">{at(x.updatedAt)}</td>
            </tr>
          ))}
        </Table>
      )}
      {next && list && (
        <div class="actions start">
          <button type="button" class="secondary" onClick={() => load(next)}>{t("activity.older")}</button>
        </div>
      )}
    </>
  );
}

function kindName(kind: string): string {
  switch (kind) {
    case "source": return t("tpl.kindWords");
    case "html": return "HTML";
    case "pdf": return "PDF";
    case "office": return t("tpl.kindOffice");
    case "picture": return t("tpl.kindPicture");
    default: return kind;
  }
}

/** The text tag in a sentence kept left to right inside right-to-left words (Unicode
 * isolates), so that Arabic shows `{{Signature;…}}` and not its braces turned around. */
function isolated(text: string): string {
  return text.replace(/\{\{[^}]*\}\}/g, (tag) => `\u2066${tag}\u2069`);
}

function base64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

/** A template from a file: its name, the file; conversion happens on the server, which may
 * take a few seconds for an Office file or a picture. */
function Upload({ onMade, onError }: { onMade: (id: string) => void; onError: (e: unknown) => void }) {
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const [busy, submit] = useSubmit(async () => {
    if (!file || file.size > MAX_FILE) return;
    const d = await gql<{ createTemplateFromFile: TemplateOut }>(
      "mutation($i: TemplateFileInput!) { createTemplateFromFile(input: $i) { id } }",
      { i: { name: name.trim() || file.name, fileName: file.name, file: base64(await file.arrayBuffer()) } },
    );
    onMade(d.createTemplateFromFile.id);
  }, onError);
  return (
    <form class="card upload" onSubmit={submit}>
      <h2>{t("tpl.upload")}</h2>
      <p class="hint" id="tags-hint">{isolated(t("tpl.uploadHint"))}</p>
      <Field label={t("tpl.file")}>
        {(id) => (
          <input id={id} type="file" required aria-describedby="tags-hint"
            accept=".pdf,.docx,.doc,.odt,.rtf,.xlsx,.xls,.ods,.pptx,.ppt,.odp,.png,.jpg,.jpeg,.webp,.tif,.tiff,application/pdf,image/*"
            onChange={(e) => { const f = e.currentTarget.files?.[0] ?? null; setFile(f); setTooBig(!!f && f.size > MAX_FILE); }} />
        )}
      </Field>
      {tooBig && <Notice kind="error">{t("tpl.tooBig")}</Notice>}
      <Field label={t("dev.optional", { label: t("people.name") })}>
        {(id) => <input id={id} value={name} maxLength={200} placeholder={file?.name ?? ""} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <div class="actions start">
        <button type="submit" class="primary" disabled={busy || tooBig}>{busy ? t("tpl.reading") : t("tpl.make")}</button>
      </div>
    </form>
  );
}

type SendDefaults = { subject?: string; expiryDays?: number; reminderDays?: number[]; signingOrder?: boolean; language?: string };

function OneTemplate({ id, go, canWrite }: { id: string; go: Go; canWrite: boolean }) {
  const [tpl, setTpl] = useState<TemplateOut | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  useEffect(() => {
    gql<{ template: TemplateOut }>(`query($id: String!) { template(id: $id) { ${TEMPLATE} } }`, { id }).then((d) => setTpl(d.template), (e) => setNote(failed(e)));
  }, [id, mode.value]);
  const back = <p><a href="/app/templates" onClick={(e) => { e.preventDefault(); go("/app/templates"); }}>{t("tpl.back")}</a></p>;
  if (!tpl) return <>{back}{note ? <Notice kind="error">{note.text}</Notice> : <p role="status">{t("common.loading")}</p>}</>;
  return (
    <>
      {back}
      <div class="title-row">
        <h1><bdi>{tpl.name}</bdi></h1>
        <span class="tag">{kindName(tpl.kind)}</span>
        <span class="tag">{t("tpl.versionN", { n: String(tpl.version) })}</span>
      </div>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      {tpl.warnings.length > 0 && (
        <div class="card warnings" role="note">
          <h2>{t("tpl.warnings")}</h2>
          <ul>{tpl.warnings.map((w) => <li key={w}><bdi>{w}</bdi></li>)}</ul>
        </div>
      )}
      <dl class="facts">
        <dt>{t("tpl.seats")}</dt><dd>{tpl.seats.map((s) => <code key={s} class="seat-chip">{s}</code>)}</dd>
        {tpl.questions.length > 0 && <><dt>{t("docs.questions")}</dt><dd>{tpl.questions.join(", ")}</dd></>}
        {tpl.pages != null && <><dt>{t("tpl.pages")}</dt><dd>{tpl.pages}</dd></>}
        <dt>{t("tpl.paper")}</dt><dd>{tpl.paper}</dd>
        <dt>{t("docs.updated")}</dt><dd>{at(tpl.updatedAt)}</dd>
      </dl>
      <section aria-labelledby="fields-title">
        <h2 id="fields-title">{t("tpl.fields")}</h2>
        <Table caption={t("tpl.fields")} head={[t("people.name"), t("tpl.type"), t("docs.seat"), t("tpl.required")]}>
          {tpl.fields.map((f) => (
            <tr key={f.name + f.role}>
              <td><bdi>{f.name}</bdi></td>
              <td>{f.type}</td>
              <td><code>{f.role}</code></td>
              <td>{f.required ? t("tpl.yes") : t("tpl.no")}</td>
            </tr>
          ))}
        </Table>
      </section>
      {canWrite && <Defaults tpl={tpl} onSaved={(x) => { setTpl(x); setNote({ kind: "ok", text: t("common.saved") }); }} onError={(e) => setNote(failed(e))} />}
      {canWrite && (
        <div class="actions start">
          {tpl.kind !== "html" && (
            <a class="button secondary" href={`/app/templates/${encodeURIComponent(tpl.id)}/edit`}
              onClick={(e) => { e.preventDefault(); go(`/app/templates/${encodeURIComponent(tpl.id)}/edit`); }}>
              {tpl.kind === "source" ? t("tpl.editWords") : t("tpl.placeFields")}
            </a>
          )}
          <a class="button primary" href="/app/documents/new" onClick={(e) => { e.preventDefault(); go("/app/documents/new"); }}>{t("docs.new")}</a>
        </div>
      )}
    </>
  );
}

/** What the template's documents start with: descriptions, the invitation's message and
 * subject, expiry, reminders, signing order and language. */
function Defaults({ tpl, onSaved, onError }: { tpl: TemplateOut; onSaved: (t: TemplateOut) => void; onError: (e: unknown) => void }) {
  const d = tpl.defaults;
  const send = (d.sendOptions ?? {}) as SendDefaults;
  const [description, setDescription] = useState(d.description ?? "");
  const [clientDescription, setClientDescription] = useState(d.clientDescription ?? "");
  const [message, setMessage] = useState(d.message ?? "");
  const [subject, setSubject] = useState(send.subject ?? "");
  const [expiry, setExpiry] = useState(send.expiryDays ? String(send.expiryDays) : "");
  const [reminders, setReminders] = useState((send.reminderDays ?? []).join(", "));
  const [order, setOrder] = useState(!!send.signingOrder);
  const [language, setLanguage] = useState(send.language ?? "en");
  const [busy, submit] = useSubmit(async () => {
    const days = reminders.split(/[,\s]+/).filter(Boolean).map(Number);
    const input = {
      description: description.trim() || null,
      clientDescription: clientDescription.trim() || null,
      message: message.trim() || null,
      send: {
        subject: subject.trim() || null,
        expiryDays: expiry.trim() ? Number(expiry) : null,
        reminderDays: days.length ? days : null,
        signingOrder: order,
        language,
      },
    };
    const r = await gql<{ setTemplateDefaults: TemplateOut }>(
      `mutation($id: String!, $i: TemplateDefaultsInput!) { setTemplateDefaults(id: $id, input: $i) { ${TEMPLATE} } }`,
      { id: tpl.id, i: input },
    );
    onSaved(r.setTemplateDefaults);
  }, onError);
  return (
    <form class="card" onSubmit={submit} aria-labelledby="defaults-title">
      <h2 id="defaults-title">{t("tpl.defaults")}</h2>
      <p class="hint">{t("tpl.defaultsLead")}</p>
      <Field label={t("tpl.description")}>{(id) => <input id={id} value={description} maxLength={500} onInput={(e) => setDescription(e.currentTarget.value)} />}</Field>
      <Field label={t("tpl.clientDescription")}>{(id) => <input id={id} value={clientDescription} maxLength={500} onInput={(e) => setClientDescription(e.currentTarget.value)} />}</Field>
      <Field label={t("tpl.subject")}>{(id) => <input id={id} value={subject} maxLength={200} onInput={(e) => setSubject(e.currentTarget.value)} />}</Field>
      <Field label={t("tpl.message")}>{(id) => <textarea id={id} rows={4} maxLength={2000} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />}</Field>
      <div class="two">
        <Field label={t("tpl.expiry")}>{(id) => <input id={id} type="number" min={1} max={365} value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />}</Field>
        <Field label={t("tpl.reminders")}>{(id) => <input id={id} value={reminders} inputMode="numeric" placeholder="3, 7" onInput={(e) => setReminders(e.currentTarget.value)} />}</Field>
      </div>
      <LanguageField label={t("tpl.language")} value={language} onChange={setLanguage} />
      <label class="check"><input type="checkbox" checked={order} onChange={(e) => setOrder(e.currentTarget.checked)} />{t("tpl.signingOrder")}</label>
      <div class="actions start">
        <button type="submit" class="primary" disabled={busy}>{t("common.save")}</button>
      </div>
    </form>
  );
}
