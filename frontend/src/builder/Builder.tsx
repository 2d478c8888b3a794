// The template builder: the person writes the template's words, adds seats (the people who
// sign) and questions (what the sender answers for each document), inserts fields and
// signature blocks for a seat, sees the check's problems at their place and the pages as a
// signer will, and saves: a new template, then each save its next version. Used by the
// builder frame (the frame's own key) and the application's templates screen (its
// session); `api` is the difference.
import type { Editor, JSONContent } from "@tiptap/core";
import { NodeSelection } from "@tiptap/pm/state";
import type { ComponentChildren } from "preact";
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import {
  FIELD_TYPES, freshName, makeEditor, nodesOf, positionOf, problemDecorations, problemsKey,
  questionsIn, renameSeat, seatsIn, sourceOf,
} from "./editor";
import { FileFields, fileSource } from "./FileFields";
import type { Placed } from "./FileFields";
import { t } from "./words";

export type Problem = { path: string; message: string };
export type Check = { ok: boolean; problems: Problem[]; warnings: Problem[]; roles: string[]; questions: string[] };
export type Preview = {
  pages: { width: number; height: number; image: string | null }[];
  fields: { name: string; type: string; role: string; page: number; x: number; y: number; width: number; height: number }[];
};
export type Saved = { id: string; version: number; name: string };
export type Stored = { id: string; name: string; kind: string; version: number; source: JSONContent; paper: string; profile: string };

/** What the builder asks of the server. */
export type BuilderApi = {
  check(source: JSONContent): Promise<Check>;
  preview(source: JSONContent, paper: string, profile: string): Promise<Preview>;
  create(name: string, source: JSONContent, paper: string, profile: string): Promise<Saved>;
  version(id: string, version: number, name: string, source: JSONContent, paper: string, profile: string): Promise<Saved>;
  load(id: string): Promise<Stored>;
  /** A new template from a file (base64) whose fields are placed afterwards. */
  upload(name: string, fileName: string, file: string): Promise<Saved>;
  /** A page of a template made from a file. */
  page(id: string, page: number): Promise<{ width: number; height: number; image: string | null }>;
};

/** An error the server explained; `status` tells a conflict from the rest. */
export class Refused extends Error {
  constructor(message: string, readonly status: number) { super(message); }
}

const SEAT = /^[a-z][a-z0-9_]{0,39}$/;
const KEY = /^[a-z][a-z0-9_]{0,39}$/;
/** A seat or question key from what a person typed: lower case, words joined by `_`. */
const slug = (s: string) => s.trim().toLowerCase().normalize("NFKD").replace(/[^\w\s-]/g, "").replace(/[\s-]+/g, "_").replace(/^[^a-z]+/, "").slice(0, 40);

function useDebounced(value: unknown, ms: number, run: () => void) {
  useEffect(() => {
    const id = setTimeout(run, ms);
    return () => clearTimeout(id);
  }, [value]);
}

type Props = {
  api: BuilderApi;
  /** The starting name of a new template. */
  name?: string | null;
  /** A template to write the next version of. */
  templateId?: string | null;
  onSaved: (s: Saved) => void;
  onError?: (message: string) => void;
};

export function Builder(props: Props) {
  // undefined while the template is read; null for a new one.
  const [stored, setStored] = useState<Stored | null | undefined>(props.templateId ? undefined : null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (props.templateId) props.api.load(props.templateId).then(setStored, (e) => setFailed((e as Error).message));
  }, [props.templateId]);
  if (failed) return <p class="notice error" role="alert">{t("error", { message: failed })}</p>;
  if (stored === undefined) return <p class="loading" role="status">{t("loading")}</p>;
  if (stored && stored.kind !== "source") return <FileBuilder key={stored.id} {...props} stored={stored} />;
  return <WordsBuilder {...props} stored={stored} onFile={(s) => { setStored(s); props.onSaved({ id: s.id, version: s.version, name: s.name }); }} />;
}

/** What saving shares: the template as saved so far, the name, the note, the save itself
 * (a new template, then each save its next version; a conflict keeps the words). */
function useSaving(props: Props, stored: Stored | null) {
  const [saved, setSaved] = useState<{ id: string; version: number } | null>(stored ? { id: stored.id, version: stored.version } : null);
  const [name, setName] = useState(stored?.name ?? props.name ?? "");
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const save = async (source: JSONContent, paper: string, profile: string) => {
    if (busy) return;
    const n = name.trim() || t("untitled");
    setBusy(true);
    setNote(null);
    try {
      const s = saved
        ? await props.api.version(saved.id, saved.version, n, source, paper, profile)
        : await props.api.create(n, source, paper, profile);
      setSaved({ id: s.id, version: s.version });
      setName(s.name);
      setDirty(false);
      setNote({ kind: "ok", text: t("saved", { version: s.version }) });
      props.onSaved(s);
    } catch (e) {
      if (e instanceof Refused && e.status === 409 && saved) {
        // Someone saved meanwhile: these words become the next version on the next save.
        try {
          const now = await props.api.load(saved.id);
          setSaved({ id: saved.id, version: now.version });
        } catch { /* the message below says enough */ }
        setNote({ kind: "error", text: t("conflict") });
      } else {
        const message = (e as Error).message;
        setNote({ kind: "error", text: t("error", { message }) });
        props.onError?.(message);
      }
    } finally {
      setBusy(false);
    }
  };
  return { saved, name, setName, dirty, setDirty, busy, note, setNote, save };
}

type Saving = ReturnType<typeof useSaving>;

function Head({ saving, onSave, canSave, children }: { saving: Saving; onSave: () => void; canSave: boolean; children?: ComponentChildren }) {
  return (
    <>
      <div class="builder-head">
        <label class="name-field">
          <span>{t("name")}</span>
          <input value={saving.name} maxLength={200} placeholder={t("untitled")} onInput={(e) => { saving.setName(e.currentTarget.value); saving.setDirty(true); }} />
        </label>
        {children}
        <div class="save">
          {saving.dirty && saving.saved && <span class="unsaved">{t("unsaved")}</span>}
          <button type="button" class="primary" disabled={saving.busy || !canSave} onClick={onSave}>{saving.busy ? t("saving") : t("save")}</button>
        </div>
      </div>
      {saving.note && <p class={`notice ${saving.note.kind}`} role={saving.note.kind === "error" ? "alert" : "status"}>{saving.note.text}</p>}
    </>
  );
}

/** The largest file taken (10 MB before base64). */
const MAX_FILE = 10 * 1024 * 1024;

function base64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

/** A new template from a file whose fields are placed afterwards. */
function FromFile({ api, name, onMade }: { api: BuilderApi; name: string; onMade: (s: Stored) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE) { setProblem(t("fileTooBig")); return; }
    setBusy(true);
    setProblem(null);
    try {
      const made = await api.upload(name.trim() || file.name, file.name, base64(await file.arrayBuffer()));
      onMade(await api.load(made.id));
    } catch (e) {
      setProblem(t("error", { message: (e as Error).message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="from-file">
      <button type="button" class="secondary" disabled={busy} aria-describedby="from-file-hint" onClick={() => input.current?.click()}>{busy ? t("reading") : t("fromFile")}</button>
      <span class="hint" id="from-file-hint">{t("fromFileHint")}</span>
      <input ref={input} type="file" hidden accept=".pdf,.docx,.doc,.odt,.rtf,.xlsx,.xls,.ods,.pptx,.ppt,.odp,.png,.jpg,.jpeg,.webp,.tif,.tiff,application/pdf,image/*"
        onChange={(e) => pick(e.currentTarget.files?.[0])} />
      {problem && <p class="notice error" role="alert">{problem}</p>}
    </div>
  );
}

/** A template made from a file: its pages, the fields placed on them, the seats. */
function FileBuilder(props: Props & { stored: Stored }) {
  const { stored, api } = props;
  const saving = useSaving(props, stored);
  const initial = ((stored.source as { file?: { fields?: Placed[] } }).file?.fields ?? []).map((f) => ({ ...f }));
  const [fields, setFields] = useState<Placed[]>(initial);
  const [extraSeats, setExtraSeats] = useState<string[]>([]);
  const [check, setCheck] = useState<Check | null>(null);
  const inFields = fields.map((f) => f.role).filter((r, i, all) => r && all.indexOf(r) === i);
  const seats = [...inFields, ...extraSeats.filter((s) => !inFields.includes(s))];
  const source = () => ({ type: "doc", file: { ...(stored.source as { file: object }).file, fields } }) as unknown as JSONContent;
  const asked = useRef(0);
  useDebounced(fields, 500, async () => {
    const n = ++asked.current;
    try {
      const c = await api.check(source());
      // An answer about older boxes is dropped: its indices name other fields now.
      if (n === asked.current) setCheck(c);
    } catch { /* saving says what is wrong */ }
  });
  return (
    <div class="builder">
      <Head saving={saving} canSave onSave={() => saving.save(fileSource(fields), stored.paper, stored.profile)} />
      <FileFields api={api} stored={stored} seats={seats} fields={fields} check={check}
        onChange={(f) => { setFields(f); saving.setDirty(true); }}>
        <Seats seats={seats} roles={fields.map((f) => f.role)}
          onAdd={(s) => setExtraSeats((old) => [...old, s])}
          onRename={(from, to) => { setFields((old) => old.map((f) => (f.role === from ? { ...f, role: to } : f))); saving.setDirty(true); }}
          onRemove={(s) => setExtraSeats((old) => old.filter((x) => x !== s))} />
      </FileFields>
    </div>
  );
}

/** A template written in words: the editor, its panels, the preview. */
function WordsBuilder(props: Props & { stored: Stored | null; onFile: (s: Stored) => void }) {
  const { api, stored } = props;
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  // `tick` redraws the panels (any change, the caret's included); `changed` counts changes of
  // the words, which alone ask the server to check or draw again.
  const [tick, setTick] = useState(0);
  const [changed, setChanged] = useState(0);
  const asked = useRef(0);
  const saving = useSaving(props, stored);
  const [paper, setPaper] = useState(stored?.paper ?? "letter");
  const profile = stored?.profile === "contract" ? "contract" : "typeset";
  const [check, setCheck] = useState<Check | null>(null);
  const [extraSeats, setExtraSeats] = useState<string[]>([]);
  const [showPreview, setShowPreview] = useState(false);

  // The editor is made once, with the stored words when a template is opened.
  useEffect(() => {
    if (!host.current) return;
    const made = makeEditor(host.current, stored?.source ?? null, () => {
      setTick((n) => n + 1);
      setChanged((n) => n + 1);
      saving.setDirty(true);
    }, t("editor"));
    made.on("selectionUpdate", () => setTick((n) => n + 1));
    setEditor(made);
    return () => made.destroy();
  }, []);

  const doc = editor?.state.doc;
  const seats = useMemo(() => {
    const inWords = doc ? seatsIn(doc) : [];
    return [...inWords, ...extraSeats.filter((s) => !inWords.includes(s))];
  }, [tick, editor, extraSeats]);
  const questions = useMemo(() => (doc ? questionsIn(doc) : []), [tick, editor]);
  const fields = useMemo(() => (doc ? nodesOf(doc, "fieldTag") : []), [tick, editor]);

  // The check runs a moment after the words stop changing; its problems are shown in place.
  useDebounced(changed, 500, async () => {
    if (!editor) return;
    const n = ++asked.current;
    const words = editor.state.doc;
    try {
      const c = await api.check(sourceOf(editor));
      // An answer about older words is dropped: its paths name other nodes now.
      if (n !== asked.current || editor.state.doc !== words) return;
      setCheck(c);
      const all = [...c.problems];
      editor.view.dispatch(editor.state.tr.setMeta(problemsKey, problemDecorations(editor.state, all)).setMeta("addToHistory", false));
    } catch {
      // The next change checks again; saving says what is wrong.
    }
  });

  const selected = editor && editor.state.selection instanceof NodeSelection && editor.state.selection.node.type.name === "fieldTag"
    ? { pos: editor.state.selection.from, attrs: editor.state.selection.node.attrs as Record<string, unknown> }
    : null;

  const focusAt = (pos: number) => {
    if (!editor) return;
    editor.chain().focus().setNodeSelection(pos).scrollIntoView().run();
  };

  const insertField = (type: string, seat: string) => {
    if (!editor || !seat) return;
    const fieldName = freshName(editor.state.doc, type, seat);
    const attrs: Record<string, unknown> = { name: fieldName, type, role: seat };
    if (type === "radio" || type === "select") attrs.options = ["Yes", "No"];
    if (type === "payment") { attrs.amount = "10.00"; attrs.currency = "usd"; }
    const at = editor.state.selection.from;
    editor.chain().focus().insertContent({ type: "fieldTag", attrs }).run();
    // Select what was inserted, so its settings open at once.
    const found = nodesOf(editor.state.doc, "fieldTag").find((f) => f.node.attrs.name === fieldName);
    if (found) editor.chain().setNodeSelection(found.pos).run();
    void at;
  };

  const insertSignature = (seat: string) => {
    if (!editor || !seat) return;
    // A paragraph after it, where the cursor goes: the next insert never replaces the block.
    editor.chain().focus().insertContent([{ type: "signatureBlock", attrs: { role: seat } }, { type: "paragraph" }]).run();
  };

  const insertChip = (chip: string) => {
    if (!editor || !chip) return;
    editor.chain().focus().insertContent({ type: "variableChip", attrs: { name: chip } })
      .command(({ tr }) => { tr.insertText(" "); return true; }).run();
  };

  const problems = check?.problems ?? [];
  return (
    <div class="builder">
      <Head saving={saving} canSave={!!editor} onSave={() => editor && saving.save(sourceOf(editor), paper, profile)}>
        <label class="small-field">
          <span>{t("paper")}</span>
          <select value={paper} onChange={(e) => { setPaper(e.currentTarget.value); saving.setDirty(true); }}>
            <option value="letter">Letter</option>
            <option value="a4">A4</option>
          </select>
        </label>
        <button type="button" class="secondary" aria-pressed={showPreview} onClick={() => setShowPreview(!showPreview)}>{t("preview")}</button>
      </Head>
      {!saving.saved && <FromFile api={api} name={saving.name} onMade={props.onFile} />}
      {editor && <Toolbar editor={editor} tick={tick} seats={seats} questions={questions} onField={insertField} onSignature={insertSignature} onChip={insertChip} />}
      <div class="builder-body">
        <div class="page-wrap">
          <div ref={host} class="page" />
        </div>
        <aside class="side" aria-label={t("title")}>
          {showPreview && editor ? (
            <PreviewPanel api={api} editor={editor} changed={changed} paper={paper} profile={profile} onClose={() => setShowPreview(false)} />
          ) : selected && editor ? (
            <Inspector key={selected.pos} editor={editor} pos={selected.pos} attrs={selected.attrs} seats={seats} problems={problems} />
          ) : (
            <>
              <Seats seats={seats} roles={[...fields, ...(doc ? nodesOf(doc, "signatureBlock") : [])].map((f) => String(f.node.attrs.role ?? ""))}
                onAdd={(s) => setExtraSeats((old) => [...old, s])}
                onRename={(from, to) => editor && renameSeat(editor, from, to)}
                onRemove={(s) => setExtraSeats((old) => old.filter((x) => x !== s))}
                onSignature={insertSignature} />
              <Questions questions={questions} onAdd={(k) => insertChip(`custom.${k}`)} />
              <Fields fields={fields.map((f) => ({ pos: f.pos, name: String(f.node.attrs.name ?? ""), type: String(f.node.attrs.type ?? ""), role: String(f.node.attrs.role ?? "") }))} onPick={focusAt} />
            </>
          )}
          <Problems check={check} onPick={(p) => { const at = editor && positionOf(editor.state.doc, p.path); if (at) focusAt(at.from); }} />
        </aside>
      </div>
    </div>
  );
}

export function Section({ title, lead, children }: { title: string; lead?: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lead && <p class="hint">{lead}</p>}
      {children}
    </section>
  );
}

function Toolbar(props: {
  editor: Editor; tick: number; seats: string[]; questions: string[];
  onField: (type: string, seat: string) => void; onSignature: (seat: string) => void; onChip: (chip: string) => void;
}) {
  const { editor, seats } = props;
  const [fieldType, setFieldType] = useState("signature");
  const [seat, setSeat] = useState("");
  const seatNow = seats.includes(seat) ? seat : seats[0] ?? "";
  const block = editor.isActive("heading", { level: 1 }) ? "h1" : editor.isActive("heading", { level: 2 }) ? "h2"
    : editor.isActive("heading", { level: 3 }) ? "h3" : editor.isActive("heading", { level: 4 }) ? "h4" : "p";
  const setBlock = (v: string) => {
    const c = editor.chain().focus();
    if (v === "p") c.setParagraph().run();
    else c.setHeading({ level: Number(v.slice(1)) as 1 | 2 | 3 | 4 }).run();
  };
  const heading = editor.isActive("heading");
  const senderOnly = heading && editor.getAttributes("heading").audience === "sender";
  const mark = (name: string, label: string, run: () => void, text: ComponentChildren) => (
    <button type="button" class={`tool ${name}`} title={label} aria-pressed={editor.isActive(name)} onClick={run}><Glyph text={text} label={label} /></button>
  );
  const facts: [string, string][] = [
    ["org.name", t("fact_org")], ["sender.name", t("fact_sender")], ["document.title", t("fact_title")], ["document.date", t("fact_date")],
    ...seats.flatMap((s): [string, string][] => [[`${s}.name`, t("fact_seatName", { seat: s })], [`${s}.email`, t("fact_seatEmail", { seat: s })]]),
    ...props.questions.map((q): [string, string] => [`custom.${q}`, q]),
  ];
  const link = () => {
    const href = prompt(t("linkAddress"), editor.getAttributes("link").href ?? "https://");
    if (href === null) return;
    if (href !== "" && !/^(https?:\/\/|mailto:)/i.test(href.trim())) return;
    if (href === "") editor.chain().focus().extendMarkRange("link").unsetMark("link").run();
    else editor.chain().focus().extendMarkRange("link").setMark("link", { href }).run();
  };
  const inTable = editor.isActive("table");
  return (
    <div class="toolbar" role="toolbar" aria-label={t("toolbar")}>
      <div class="group">
        <select aria-label={t("paragraph")} value={block} onChange={(e) => setBlock(e.currentTarget.value)}>
          <option value="p">{t("paragraph")}</option>
          {[1, 2, 3, 4].map((l) => <option key={l} value={`h${l}`}>{t("heading", { level: l })}</option>)}
        </select>
        {heading && (
          <label class="check">
            <input type="checkbox" checked={senderOnly} onChange={(e) => editor.chain().focus().updateAttributes("heading", { audience: e.currentTarget.checked ? "sender" : null }).run()} />
            {t("senderOnly")}
          </label>
        )}
      </div>
      <div class="group">
        {mark("bold", t("bold"), () => editor.chain().focus().toggleBold().run(), "B")}
        {mark("italic", t("italic"), () => editor.chain().focus().toggleItalic().run(), "I")}
        {mark("underline", t("underline"), () => editor.chain().focus().toggleUnderline().run(), "U")}
        {mark("strike", t("strike"), () => editor.chain().focus().toggleStrike().run(), "S")}
        {mark("link", t("link"), link, (
          <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
            <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
          </svg>
        ))}
      </div>
      <div class="group">
        {mark("bulletList", t("bullets"), () => editor.chain().focus().toggleBulletList().run(), "•")}
        {mark("orderedList", t("numbers"), () => editor.chain().focus().toggleOrderedList().run(), "1.")}
        {mark("blockquote", t("quote"), () => editor.chain().focus().toggleBlockquote().run(), "❝")}
        <button type="button" class="tool" title={t("rule")} onClick={() => editor.chain().focus().setHorizontalRule().run()}><Glyph text="―" label={t("rule")} /></button>
        <button type="button" class="tool" title={t("table")} onClick={() => editor.chain().focus().insertTable({ rows: 2, cols: 2, withHeaderRow: false }).run()}><Glyph text="▦" label={t("table")} /></button>
        <PictureButton editor={editor} />
        <button type="button" class="tool" title={t("undo")} disabled={!editor.can().undo()} onClick={() => editor.chain().focus().undo().run()}><Glyph text="↶" label={t("undo")} /></button>
        <button type="button" class="tool" title={t("redo")} disabled={!editor.can().redo()} onClick={() => editor.chain().focus().redo().run()}><Glyph text="↷" label={t("redo")} /></button>
      </div>
      {inTable && (
        <div class="group">
          <button type="button" class="small secondary" onClick={() => editor.chain().focus().addRowAfter().run()}>{t("addRow")}</button>
          <button type="button" class="small secondary" onClick={() => editor.chain().focus().addColumnAfter().run()}>{t("addColumn")}</button>
          <button type="button" class="small secondary" onClick={() => editor.chain().focus().deleteRow().run()}>{t("deleteRow")}</button>
          <button type="button" class="small secondary" onClick={() => editor.chain().focus().deleteColumn().run()}>{t("deleteColumn")}</button>
          <button type="button" class="small secondary" onClick={() => editor.chain().focus().deleteTable().run()}>{t("deleteTable")}</button>
        </div>
      )}
      <div class="group insert">
        <select aria-label={t("fieldType")} value={fieldType} onChange={(e) => setFieldType(e.currentTarget.value)}>
          {FIELD_TYPES.map((ty) => <option key={ty} value={ty}>{t(`type_${ty}` as "type_text")}</option>)}
        </select>
        <select aria-label={t("seatName")} value={seatNow} disabled={!seats.length} onChange={(e) => setSeat(e.currentTarget.value)}>
          {seats.length ? seats.map((s) => <option key={s} value={s}>{s}</option>) : <option value="">{t("needSeat")}</option>}
        </select>
        <button type="button" class="small primary" disabled={!seatNow} onClick={() => props.onField(fieldType, seatNow)}>{t("insert")} · {t("field")}</button>
        <button type="button" class="small secondary" disabled={!seatNow} onClick={() => props.onSignature(seatNow)}>{t("signatureBlock")}</button>
        <select aria-label={t("facts")} value="" onChange={(e) => { props.onChip(e.currentTarget.value); e.currentTarget.value = ""; }}>
          <option value="">{t("chip")}…</option>
          {facts.map(([k, label]) => <option key={k} value={k}>{label}</option>)}
        </select>
      </div>
    </div>
  );
}

/** A tool's sign, hidden from screen readers, which hear its name. */
function Glyph({ text, label }: { text: ComponentChildren; label: string }) {
  return <><span aria-hidden="true">{text}</span><span class="visually-hidden">{label}</span></>;
}

/** A picture from the person's computer, carried in the words as a `data:` address. */
function PictureButton({ editor }: { editor: Editor }) {
  const input = useRef<HTMLInputElement>(null);
  const pick = (file: File | undefined) => {
    if (!file || file.size > 2 * 1024 * 1024) return;
    const alt = prompt(t("pictureAlt"), "") ?? "";
    const reader = new FileReader();
    reader.onload = () => editor.chain().focus().setImage({ src: String(reader.result), alt }).run();
    reader.readAsDataURL(file);
  };
  return (
    <>
      <button type="button" class="tool" title={t("picture")} onClick={() => input.current?.click()}><Glyph text="🖼" label={t("picture")} /></button>
      <input ref={input} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden onChange={(e) => pick(e.currentTarget.files?.[0])} />
    </>
  );
}

function Seats(props: {
  seats: string[]; roles: string[];
  onAdd: (s: string) => void; onRemove: (s: string) => void; onRename: (from: string, to: string) => void;
  onSignature?: (s: string) => void;
}) {
  const [adding, setAdding] = useState("");
  const [renaming, setRenaming] = useState<{ from: string; to: string } | null>(null);
  const [wrong, setWrong] = useState(false);
  const add = (e: Event) => {
    e.preventDefault();
    const s = slug(adding);
    setWrong(!SEAT.test(s));
    if (!SEAT.test(s) || props.seats.includes(s)) return;
    props.onAdd(s);
    setAdding("");
  };
  const rename = (e: Event) => {
    e.preventDefault();
    if (!renaming) return;
    const to = slug(renaming.to);
    setWrong(!SEAT.test(to));
    if (!SEAT.test(to)) return;
    if (!props.seats.includes(to)) {
      props.onRename(renaming.from, to);
      props.onRemove(renaming.from);
      props.onAdd(to);
    }
    setRenaming(null);
  };
  return (
    <Section title={t("seats")} lead={t("seatsLead")}>
      <ul class="seats">
        {props.seats.map((s) => {
          const count = props.roles.filter((f) => f === s).length;
          return (
            <li key={s}>
              {renaming?.from === s ? (
                <form class="inline" onSubmit={rename}>
                  <input aria-label={t("rename")} value={renaming.to} onInput={(e) => setRenaming({ from: s, to: e.currentTarget.value })} />
                  <button type="submit" class="small primary">{t("done")}</button>
                </form>
              ) : (
                <>
                  <code class="seat">{s}</code>
                  <span class="hint">{t("seatFields", { count })}</span>
                  <button type="button" class="small secondary" onClick={() => setRenaming({ from: s, to: s })}>{t("rename")}</button>
                  {props.onSignature && <button type="button" class="small secondary" onClick={() => props.onSignature?.(s)}>{t("signatureBlock")}</button>}
                </>
              )}
            </li>
          );
        })}
      </ul>
      <form class="inline" onSubmit={add}>
        <input aria-label={t("seatName")} placeholder="client" value={adding} maxLength={40} onInput={(e) => setAdding(e.currentTarget.value)} />
        <button type="submit" class="small secondary">{t("addSeat")}</button>
      </form>
      {wrong && <p class="notice error" role="alert">{t("seatRule")}</p>}
    </Section>
  );
}

function Questions({ questions, onAdd }: { questions: string[]; onAdd: (key: string) => void }) {
  const [adding, setAdding] = useState("");
  const add = (e: Event) => {
    e.preventDefault();
    const k = slug(adding);
    if (!KEY.test(k)) return;
    onAdd(k);
    setAdding("");
  };
  return (
    <Section title={t("questions")} lead={t("questionsLead")}>
      {questions.length > 0 && <ul class="questions">{questions.map((q) => <li key={q}><code class="chip question">{q}</code></li>)}</ul>}
      <form class="inline" onSubmit={add}>
        <input aria-label={t("question")} placeholder="fee" value={adding} maxLength={40} onInput={(e) => setAdding(e.currentTarget.value)} />
        <button type="submit" class="small secondary">{t("addQuestion")}</button>
      </form>
    </Section>
  );
}

function Fields({ fields, onPick }: { fields: { pos: number; name: string; type: string; role: string }[]; onPick: (pos: number) => void }) {
  return (
    <Section title={t("fields")}>
      {fields.length === 0 ? <p class="hint">{t("noFields")}</p> : (
        <ul class="fields">
          {fields.map((f) => (
            <li key={f.pos}>
              <button type="button" class="link" onClick={() => onPick(f.pos)}>
                <bdi>{f.name}</bdi>
              </button>
              <span class="hint">{t("fieldOf", { type: t(`type_${f.type}` as "type_text"), seat: f.role })}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The selected field's settings; each change is written into the words at once. */
function Inspector({ editor, pos, attrs, seats, problems }: { editor: Editor; pos: number; attrs: Record<string, unknown>; seats: string[]; problems: Problem[] }) {
  const set = (changes: Record<string, unknown>) => {
    const node = editor.state.doc.nodeAt(pos);
    if (!node || node.type.name !== "fieldTag") return;
    const tr = editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...changes });
    tr.setSelection(NodeSelection.create(tr.doc, pos));
    editor.view.dispatch(tr);
  };
  const here = problems.filter((p) => positionOf(editor.state.doc, p.path)?.from === pos);
  return (
    <FieldSettings attrs={attrs} seats={seats} problems={here} set={set}
      onDone={() => editor.chain().focus().setTextSelection(pos + 1).run()}
      onDelete={() => editor.chain().focus().deleteRange({ from: pos, to: pos + 1 }).run()} />
  );
}

/** A field's settings, each change written at once through `set`. */
export function FieldSettings({ attrs, seats, problems, set, onDone, onDelete }: {
  attrs: Record<string, unknown>; seats: string[]; problems: Problem[];
  set: (changes: Record<string, unknown>) => void; onDone: () => void; onDelete: () => void;
}) {
  const text = (k: string) => (attrs[k] == null ? "" : String(attrs[k]));
  const blankNull = (v: string) => (v.trim() === "" ? null : v);
  const type = String(attrs.type ?? "text");
  const id = useId();
  const row = (label: string, control: (id: string) => ComponentChildren, k: string) => (
    <div class="field" key={k}>
      <label for={`${id}-${k}`}>{label}</label>
      {control(`${id}-${k}`)}
    </div>
  );
  return (
    <Section title={t("field")}>
      {problems.map((p) => <p key={p.path} class="notice error" role="alert">{p.message}</p>)}
      {row(t("fieldName"), (i) => <input id={i} value={text("name")} maxLength={100} onInput={(e) => set({ name: e.currentTarget.value })} />, "name")}
      {row(t("fieldType"), (i) => (
        <select id={i} value={type} onChange={(e) => set({ type: e.currentTarget.value })}>
          {FIELD_TYPES.map((ty) => <option key={ty} value={ty}>{t(`type_${ty}` as "type_text")}</option>)}
        </select>
      ), "type")}
      {row(t("seatName"), (i) => (
        <select id={i} value={text("role")} onChange={(e) => set({ role: e.currentTarget.value })}>
          {seats.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      ), "role")}
      <label class="check"><input type="checkbox" checked={attrs.required !== false} onChange={(e) => set({ required: e.currentTarget.checked ? null : false })} />{t("required")}</label>
      <label class="check"><input type="checkbox" checked={attrs.locked === true} onChange={(e) => set({ locked: e.currentTarget.checked || null })} />{t("locked")}</label>
      <label class="check"><input type="checkbox" checked={attrs.editable !== false} onChange={(e) => set({ editable: e.currentTarget.checked ? null : false })} />{t("editable")}</label>
      {row(t("autofill"), (i) => (
        <select id={i} value={text("autofill")} onChange={(e) => set({ autofill: blankNull(e.currentTarget.value) })}>
          <option value="">{t("autofillNone")}</option>
          <option value="name">{t("autofillName")}</option>
          <option value="email">{t("autofillEmail")}</option>
          <option value="date_signed">{t("autofillDate")}</option>
        </select>
      ), "autofill")}
      {(type === "radio" || type === "select") && row(t("options"), (i) => (
        <textarea id={i} rows={4} value={Array.isArray(attrs.options) ? (attrs.options as string[]).join("\n") : ""}
          onInput={(e) => set({ options: e.currentTarget.value.split("\n").filter((o) => o.trim()) })} />
      ), "options")}
      {row(t("defaultValue"), (i) => <input id={i} value={text("default")} maxLength={500} onInput={(e) => set({ default: blankNull(e.currentTarget.value) })} />, "default")}
      {row(t("placeholder"), (i) => <input id={i} value={text("placeholder")} maxLength={500} onInput={(e) => set({ placeholder: blankNull(e.currentTarget.value) })} />, "placeholder")}
      {row(t("tooltip"), (i) => <input id={i} value={text("tooltip")} maxLength={500} onInput={(e) => set({ tooltip: blankNull(e.currentTarget.value) })} />, "tooltip")}
      {type === "payment" && (
        <>
          {row(t("amount"), (i) => <input id={i} inputMode="decimal" value={text("amount")} onInput={(e) => set({ amount: blankNull(e.currentTarget.value) })} />, "amount")}
          {row(t("currency"), (i) => <input id={i} maxLength={3} value={text("currency")} onInput={(e) => set({ currency: blankNull(e.currentTarget.value.toLowerCase()) })} />, "currency")}
          {row(t("description"), (i) => <input id={i} maxLength={500} value={text("description")} onInput={(e) => set({ description: blankNull(e.currentTarget.value) })} />, "description")}
          {row(t("formula"), (i) => <input id={i} maxLength={500} value={text("formula")} onInput={(e) => set({ formula: blankNull(e.currentTarget.value) })} />, "formula")}
        </>
      )}
      <div class="actions start">
        <button type="button" class="small primary" onClick={onDone}>{t("done")}</button>
        <button type="button" class="small secondary" onClick={onDelete}>{t("deleteField")}</button>
      </div>
    </Section>
  );
}

export function Problems({ check, onPick }: { check: Check | null; onPick: (p: Problem) => void }) {
  if (!check) return null;
  return (
    <Section title={t("problems")}>
      <p role="status" class={check.problems.length ? "count bad" : "count"}>
        {check.problems.length ? t("problemCount", { count: check.problems.length }) : t("noProblems")}
      </p>
      {check.problems.length > 0 && (
        <ul class="problems">
          {check.problems.map((p, i) => (
            <li key={i}><button type="button" class="link" onClick={() => onPick(p)}>{p.message}</button></li>
          ))}
        </ul>
      )}
      {check.warnings.length > 0 && (
        <>
          <h3>{t("warnings")}</h3>
          <ul class="problems">{check.warnings.map((w, i) => <li key={i}><button type="button" class="link" onClick={() => onPick(w)}>{w.message}</button></li>)}</ul>
        </>
      )}
    </Section>
  );
}

/** The pages as a signer sees them, drawn by the server a moment after the words stop
 * changing, with each field's box marked. */
function PreviewPanel(props: { api: BuilderApi; editor: Editor; changed: number; paper: string; profile: string; onClose: () => void }) {
  // A draw started later reads the newest paper and words, not those of its first render.
  const latest = useRef(props);
  latest.current = props;
  const [preview, setPreview] = useState<Preview | null>(null);
  const [stale, setStale] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const running = useRef(false);
  const again = useRef(false);
  const draw = async () => {
    if (running.current) { again.current = true; return; }
    running.current = true;
    setStale(true);
    try {
      const now = latest.current;
      setPreview(await now.api.preview(sourceOf(now.editor), now.paper, now.profile));
      setProblem(null);
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      running.current = false;
      setStale(false);
      if (again.current) { again.current = false; void draw(); }
    }
  };
  useDebounced(`${props.changed}-${props.paper}`, 1200, draw);
  const id = useId();
  return (
    <section class="preview" aria-labelledby={id}>
      <div class="preview-head">
        <h2 id={id}>{t("preview")}</h2>
        <p class="hint">{t("previewLead")}</p>
        <button type="button" class="small secondary" onClick={props.onClose}>{t("close")}</button>
      </div>
      {stale && <p role="status" class="hint">{t("previewStale")}</p>}
      {problem && <p class="notice error" role="alert">{problem}</p>}
      <div class="preview-pages">
        {preview?.pages.map((p, i) => (
          <figure key={i} class="preview-page" style={{ aspectRatio: `${p.width} / ${p.height}` }}>
            {p.image && <img src={p.image} alt={t("previewPage", { page: i + 1 })} />}
            {preview.fields.filter((f) => f.page === i + 1).map((f, k) => (
              <span key={k} class="box" title={`${f.name} · ${f.role}`} style={{
                insetInlineStart: "auto", left: `${(f.x / p.width) * 100}%`, top: `${(f.y / p.height) * 100}%`,
                width: `${(f.width / p.width) * 100}%`, height: `${(f.height / p.height) * 100}%`,
              }}><span>{f.role}</span></span>
            ))}
            <figcaption>{t("previewPage", { page: i + 1 })}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}
