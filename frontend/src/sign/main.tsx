// The signing page: a person opens the link from their email, accepts the disclosure, walks
// through their fields, signs or declines. Everything it sends is checked again on the server.
import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import { api, embedded, Failed, keepForReturn, keepPass, PAID, returnedElsewhere, say, start, tell, whenPassEnds, type Area, type FieldView, type Gate, type PageOut, type PaymentView, type View } from "./api";
import { Pad, pathOf, type SignatureValue } from "./pad";
import { outlinePath } from "./trace";
import "./sign.css";

type Value = string | boolean | SignatureValue | null;

const view = signal<View | null>(null);
const failure = signal<Failed | null>(null);

/** A session that could not start: its link was used, ran out, or never existed. */
const ended = signal(false);

async function load() {
  try {
    if (embedded) {
      try {
        await start();
      } catch {
        ended.value = true;
        tell("expired", { reason: "the session has ended" });
        return;
      }
      tell("loaded");
    }
    const v = await api.view();
    preloadFirstPage(v);
    view.value = v;
  } catch (e) {
    failure.value = e instanceof Failed ? e : new Failed(0, { kind: "network", message: String(e) });
    tell("error", { message: failure.value.message });
  }
}

/** How the pages' pictures are chosen from their widths: the same for the preload and the page. */
const SIZES = "(max-width: 790px) 100vw, 750px";

function picture(page: PageOut) {
  const widths = Object.keys(page.images).map(Number).sort((a, b) => a - b);
  return { src: page.images[widths[0]], srcset: widths.map((px) => `${page.images[px]} ${px}w`).join(", ") };
}

/** Asks for the first page's picture as soon as the view is here, while the page is still
 * being drawn: the browser picks the same width from the same list as the page will. */
function preloadFirstPage(v: View) {
  const first = v.document.pages?.[0];
  if (!first) return;
  const { src, srcset } = picture(first);
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "image";
  link.href = src;
  link.setAttribute("imagesrcset", srcset);
  link.setAttribute("imagesizes", SIZES);
  link.setAttribute("fetchpriority", "high");
  document.head.appendChild(link);
  // Should the first picture never load, the text still comes.
  setTimeout(growText, 1000);
}

/** How many pages carry their text layer (selectable, read aloud). The first two at once;
 * the others a couple a frame once the first page is visible, so that a long document's
 * thousands of words do not hold back its first picture. */
const textPages = signal(2);
let growing = false;

function growText() {
  if (growing) return;
  growing = true;
  const step = () => {
    const total = view.value?.document.pages?.length ?? 0;
    if (textPages.value >= total) return;
    textPages.value += 2;
    setTimeout(step, 16);
  };
  step();
}

/** Tells the caller's page that the page is visible. */
function shown() {
  tell("ready");
  growText();
}

/** What a stage means to the caller's page. */
function told(stage: string, self: boolean) {
  if (stage === "signed" || stage === "executed") tell("completed", { stage });
  else if (stage === "declined") tell(self ? "declined" : "error", self ? {} : { reason: "declined" });
  else if (stage === "expired") tell("expired", { reason: "the document expired" });
  else if (stage === "voided") tell("error", { reason: "voided" });
}

function App() {
  const v = view.value;
  const f = failure.value;
  useEffect(() => {
    if (!v) return;
    document.documentElement.lang = v.document.language;
    document.documentElement.dir = v.document.dir;
    document.title = `${v.document.title} · ${say(v.words, "document")}`;
  }, [v?.document.language, v?.document.title]);
  // While the document is not rendered yet (moments after sending), look again shortly.
  // While the person waits (their turn, the others, the sealed copy), the page follows the
  // document live: the server answers once it changes.
  useEffect(() => {
    if (!v) return;
    if (v.stage === "sign" && !v.document.pages && !v.verify) {
      const t = setTimeout(load, 1000);
      return () => clearTimeout(t);
    }
    if (v.verify || (v.stage !== "waiting" && v.stage !== "signed")) return;
    let stop = false;
    const asked = Date.now();
    api.viewChanged(v.version).then(
      (next) => {
        // Unchanged and quick (the server could not wait): ask again a little later.
        const later = next.version === v.version && Date.now() - asked < 2000 ? 5000 : 0;
        setTimeout(() => { if (!stop) view.value = next; }, later);
      },
      () => { if (!stop) setTimeout(() => { if (!stop) load(); }, 5000); },
    );
    return () => { stop = true; };
  }, [v]);
  // The caller's page hears of each new stage, and of a screen with nothing more to load.
  const stage = useRef<string | null>(null);
  useEffect(() => {
    if (!v) return;
    if (v.verify || v.consent || v.stage !== "sign") shown();
    if (stage.current !== null && stage.current !== v.stage) told(v.stage, v.person.status === "declined");
    else if (stage.current === null && (v.stage === "expired" || v.stage === "voided")) told(v.stage, false);
    stage.current = v.stage;
  }, [v?.stage, v?.verify]);
  if (ended.value) return <Status heading="This signing session has ended" body="Start it again from the app you were signing in." />;
  if (f) {
    if (f.status === 404) return <Status heading="This link does not open a document" body="Check that you opened the whole link from your email. If it still fails, ask the sender for a new one." />;
    return <Status heading="Something went wrong" body={f.message} retry />;
  }
  if (!v) return <p class="loading" role="status">…</p>;
  const w = v.words;
  if (v.verify) return <Verify v={v} gate={v.verify} />;
  switch (v.stage) {
    case "waiting":
      return <Status heading={say(w, "waiting_heading")} body={say(w, "waiting_body")} title={v.document.title} />;
    case "signed":
      return <Status heading={say(w, "signed_heading")} body={say(w, "signed_next")} title={v.document.title} />;
    case "executed":
      return <Status heading={say(w, "executed_heading")} title={v.document.title} download={v.document.sealed ? say(w, "download") : undefined} />;
    case "declined":
      return <Status heading={say(w, "declined_heading")} body={v.person.status === "declined" ? say(w, "declined_self") : say(w, "ended_contact", { sender: v.document.sender })} title={v.document.title} />;
    case "voided":
      return <Status heading={say(w, "voided_heading")} body={say(w, "ended_contact", { sender: v.document.sender })} title={v.document.title} />;
    case "expired":
      return <Status heading={say(w, "expired_heading")} body={say(w, "ended_contact", { sender: v.document.sender })} title={v.document.title} />;
  }
  if (v.consent) return <Consent v={v} />;
  return <Signing v={v} />;
}

function Status({ heading, body, title, download, retry }: { heading: string; body?: string; title?: string; download?: string; retry?: boolean }) {
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => h.current?.focus(), [heading]);
  const save = async () => {
    const blob = await api.sealed();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${title ?? "document"}-signed.pdf`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };
  return (
    <main class="status">
      {title && <p class="doc-title">{title}</p>}
      <h1 ref={h} tabIndex={-1}>{heading}</h1>
      {body && <p>{body}</p>}
      {download && <button type="button" class="primary" onClick={save}>{download}</button>}
      {retry && <button type="button" class="primary" onClick={() => { failure.value = null; load(); }}>↻</button>}
    </main>
  );
}

function Consent({ v }: { v: View }) {
  const w = v.words;
  const c = v.consent!;
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const accept = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      view.value = await api.consent(c.version, c.sha256);
    } catch (err) {
      setError(err instanceof Failed ? err.message : say(w, "error"));
      setBusy(false);
    }
  };
  return (
    <main class="consent">
      {v.document.test && <p class="test-banner">{say(w, "test_banner")}</p>}
      <p class="doc-title">{v.document.title}</p>
      <p>{say(w, "from", { sender: v.document.sender })}</p>
      <h1>{say(w, "consent_heading")}</h1>
      <section class="disclosure" aria-labelledby="disclosure-title" tabIndex={0}>
        <h2 id="disclosure-title">{c.title}</h2>
        {c.text.split(/\n+/).filter((p) => p.trim()).map((p) => <p>{p}</p>)}
      </section>
      <form onSubmit={accept}>
        <label class="check">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed((e.target as HTMLInputElement).checked)} />
          <span>{say(w, "consent_accept")}</span>
        </label>
        {error && <p class="error" role="alert">{error}</p>}
        <div class="actions">
          <DeclineButton v={v} />
          <button type="submit" class="primary" disabled={!agreed || busy}>{say(w, "consent_continue")}</button>
        </div>
      </form>
    </main>
  );
}

/** An address inside a sentence of either direction: kept whole, in its own direction. */
const isolate = (s: string) => `\u2068${s}\u2069`;

/** The check screen: the access code the sender gave, and/or a code emailed on request. */
function Verify({ v, gate: first }: { v: View; gate: Gate }) {
  const w = v.words;
  const [gate, setGate] = useState(first);
  const [access, setAccess] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [note, setNote] = useState(first.codeSent ? say(w, "email_code_sent", { address: isolate(first.address), minutes: first.codeMinutes }) : "");
  // When another code may be asked for, and a clock to count down to it.
  const [nextAt, setNextAt] = useState(Date.now() + first.nextCodeIn * 1000);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (nextAt <= now) return;
    const t = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(t);
  }, [nextAt, now]);
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => h.current?.focus(), []);
  const clock = (ms: number) => new Intl.DateTimeFormat(v.document.language, { hour: "numeric", minute: "2-digit" }).format(new Date(ms));
  const locked = gate.lockedUntil !== null && gate.lockedUntil > Date.now();
  const wait = Math.max(0, Math.ceil((nextAt - now) / 1000));
  const show = (g: Gate) => {
    setGate(g);
    setNextAt(Date.now() + g.nextCodeIn * 1000);
    setNow(Date.now());
    if (g.lockedUntil) setError(say(w, "verify_locked", { time: clock(g.lockedUntil) }));
  };
  const sendCode = async () => {
    setError("");
    try {
      const out = await api.code();
      show(out.gate);
      if (out.sent) setNote(say(w, "email_code_sent", { address: isolate(out.gate.address), minutes: out.gate.codeMinutes }));
      else if (out.gate.codesLeft === 0) setError(say(w, "email_code_limit"));
      setTimeout(() => document.getElementById("email-code")?.focus(), 0);
    } catch {
      setError(say(w, "error"));
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      const out = await api.verify(gate.accessCode ? access : null, gate.emailCode ? code : null);
      if (out.pass) {
        keepPass(out.pass);
        view.value = await api.view();
        return;
      }
      show(out.gate);
      if (!out.gate.lockedUntil) {
        const left = out.gate.triesLeft;
        const both = out.wrong.length > 1;
        setError(say(w, both ? "verify_wrong_both" : out.wrong.includes("accessCode") ? "verify_wrong_access" : "verify_wrong_email", { left }));
        document.getElementById(out.wrong.includes("accessCode") ? "access-code" : "email-code")?.focus();
      }
    } catch {
      setError(say(w, "error"));
    }
    setBusy(false);
  };
  useEffect(() => {
    if (locked && gate.lockedUntil) setError(say(w, "verify_locked", { time: clock(gate.lockedUntil) }));
  }, []);
  return (
    <main class="consent verify">
      {v.document.test && <p class="test-banner">{say(w, "test_banner")}</p>}
      <p class="doc-title">{v.document.title}</p>
      <p>{say(w, "from", { sender: v.document.sender })}</p>
      <h1 ref={h} tabIndex={-1}>{say(w, "verify_heading")}</h1>
      <p>{say(w, "verify_body")}</p>
      <form onSubmit={submit} noValidate>
        {gate.accessCode && (
          <div class="entry">
            <label for="access-code">{say(w, "access_code")}</label>
            <input id="access-code" type="text" autoComplete="off" spellcheck={false} maxLength={64} aria-describedby="access-code-hint" value={access} onInput={(e) => setAccess((e.target as HTMLInputElement).value)} disabled={locked} />
            <p id="access-code-hint" class="hint">{say(w, "access_code_hint")}</p>
          </div>
        )}
        {gate.emailCode && (
          <div class="entry">
            <label for="email-code">{say(w, "email_code")}</label>
            <div class="code-row">
              <input id="email-code" type="text" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" maxLength={6} aria-describedby="email-code-note" value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value.replace(/\D/g, ""))} disabled={locked} />
              <button type="button" class="secondary" onClick={sendCode} disabled={locked || wait > 0 || gate.codesLeft === 0}>
                {say(w, gate.codeSent || note ? "email_code_again" : "email_code_send")}
              </button>
            </div>
            <p id="email-code-note" class="hint" role="status" aria-live="polite">
              {note}
              {wait > 0 && !locked ? ` ${say(w, "email_code_wait", { seconds: wait })}` : ""}
            </p>
          </div>
        )}
        {error && <p class="error" role="alert">{error}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || locked || (gate.accessCode && !access.trim()) || (gate.emailCode && code.length !== 6)}>{say(w, "verify_continue")}</button>
        </div>
      </form>
    </main>
  );
}

function filled(f: FieldView, v: Value): boolean {
  if (f.type === "checkbox") return v === true;
  if (v === null || v === undefined) return false;
  return typeof v === "string" ? v.trim() !== "" : true;
}

function Signing({ v }: { v: View }) {
  const w = v.words;
  const [values, setValues] = useState<Record<string, Value>>(() => {
    const out: Record<string, Value> = {};
    for (const f of v.fields) out[f.id] = f.type === "checkbox" ? f.value === "true" : f.value;
    // Back from Checkout in this tab: what the person had filled in before paying.
    const kept = keptValues();
    for (const f of v.fields) if (f.editable && kept[f.id] !== undefined) out[f.id] = kept[f.id];
    return out;
  });
  const [pad, setPad] = useState<FieldView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // The field the walk is at; -1 before the person starts.
  const [current, setCurrent] = useState(-1);
  const opened = useRef(false);
  const required = v.fields.filter((f) => f.required && f.type !== "payment");
  const done = required.filter((f) => filled(f, values[f.id])).length;
  const payment = v.fields.find((f) => f.type === "payment")?.payment;
  const paidUp = !payment || PAID.includes(payment.status);
  const ready = done === required.length && paidUp;
  const order = useMemo(() => v.fields.filter((f) => f.editable), [v.fields]);
  // On a phone a field's box on the page is too small to type in: the page shows what each
  // holds, and the bar below edits the current one at a readable size.
  const compact = useNarrow();
  // Signature and initials open their own dialog from their box on the page.
  const at = order[current];
  const editing = compact && at && at.type !== "signature" && at.type !== "initials" ? at : undefined;

  const set = (id: string, value: Value) => setValues((s) => ({ ...s, [id]: value }));
  const focusField = (i: number) => {
    const f = order[i];
    if (!f) return;
    setCurrent(i);
    const spot = document.getElementById(compact ? `pick-${f.id}` : `field-${f.id}`);
    spot?.scrollIntoView({ block: "center", behavior: "smooth" });
    setTimeout(() => document.getElementById(`field-${f.id}`)?.focus({ preventScroll: true }), 0);
  };
  const next = () => {
    const start = (current + 1) % Math.max(order.length, 1);
    for (let k = 0; k < order.length; k++) {
      const i = (start + k) % order.length;
      if (order[i].required && !filled(order[i], values[order[i].id])) return focusField(i);
    }
    focusField(start);
  };
  const previous = () => focusField((Math.max(current, 0) - 1 + order.length) % Math.max(order.length, 1));

  // `opened` is the person's first act on the page (a scroll, a tap, a key), never a
  // picture loading: a link scanner that runs scripts loads pictures too. Focus is not an
  // act: the page moves focus itself.
  useEffect(() => {
    const acted = (e: Event) => {
      if (!e.isTrusted || opened.current) return;
      opened.current = true;
      api.opened().catch(() => { opened.current = false; });
    };
    const kinds = ["scroll", "wheel", "pointerdown", "keydown", "touchstart"] as const;
    for (const k of kinds) window.addEventListener(k, acted, { passive: true, capture: true });
    return () => { for (const k of kinds) window.removeEventListener(k, acted, { capture: true }); };
  }, []);

  // Checkout is Stripe's own page: the signing page goes there (a new tab inside a frame,
  // which Checkout refuses to be shown in) and comes back once paid.
  payNow.value = async () => {
    setError("");
    paying.value = true;
    const out: Record<string, unknown> = {};
    for (const f of v.fields) if (f.type === "number" && f.editable && values[f.id]) out[f.id] = values[f.id];
    try {
      const { url } = await api.pay(out);
      if (embedded) {
        window.open(url, "_blank", "noopener");
        paying.value = false;
      } else {
        keepValues(values);
        keepForReturn();
        location.assign(url);
      }
    } catch (err) {
      const e = err as Failed;
      setError(e instanceof Failed ? say(w, "field_invalid", { reason: e.message }) : say(w, "error"));
      paying.value = false;
    }
  };
  // Back from Checkout, or paying in another tab: Stripe's confirmation reaches the server
  // in moments, and the page looks for it.
  const waiting = !!payment && payment.status === "open";
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const t = setInterval(async () => {
      if (++tries > 120) return clearInterval(t);
      try {
        const next = await api.view();
        const p = next.fields.find((f) => f.type === "payment")?.payment;
        if (!p || p.status !== "open") { clearInterval(t); view.value = next; }
      } catch { /* asked again */ }
    }, 2000);
    return () => clearInterval(t);
  }, [waiting]);

  const finish = async () => {
    setError("");
    setBusy(true);
    const out: Record<string, unknown> = {};
    for (const f of v.fields) {
      if (!f.editable) continue;
      const x = values[f.id];
      if (x === null || x === undefined || x === "") continue;
      out[f.id] = x;
    }
    try {
      view.value = await api.sign(out);
      window.scrollTo(0, 0);
    } catch (err) {
      const e = err as Failed;
      setError(e instanceof Failed ? say(w, "field_invalid", { reason: e.message }) : say(w, "error"));
      setBusy(false);
    }
  };

  const pages = v.document.pages;
  return (
    <div class="signing">
      <header class="bar top">
        <div class="who">
          <p class="doc-title">{v.document.title}</p>
          <p class="from">{say(w, "from", { sender: v.document.sender })}</p>
        </div>
        <DeclineButton v={v} />
      </header>
      {v.document.test && <p class="test-banner">{say(w, "test_banner")}</p>}
      <main class="pages" aria-label={v.document.title}>
        {!pages && <p class="loading" role="status">{say(w, "loading")}</p>}
        {pages?.map((p, i) => (
          <Page
            key={i}
            page={p}
            n={i + 1}
            total={pages.length}
            words={w}
            fields={v.fields.filter((f) => f.page === i + 1)}
            copies={v.fields.flatMap((f) => f.areas.filter((a) => a.page === i + 1).map((a) => ({ f, a })))}
            values={values}
            onSeen={i === 0 ? shown : undefined}
            onChange={set}
            onPad={setPad}
            compact={compact}
            onFocusField={(id) => setCurrent(Math.max(0, order.findIndex((f) => f.id === id)))}
            onPick={(id) => focusField(Math.max(0, order.findIndex((f) => f.id === id)))}
          />
        ))}
      </main>
      <footer class="bar bottom">
        {editing && (
          <div class={`editor type-${editing.type}`}>
            <label for={`field-${editing.id}`} class="editor-label">
              {editing.name}
              {editing.required ? ` (${say(w, "required")})` : ""}
            </label>
            <Field f={editing} value={values[editing.id] ?? null} words={w} onChange={set} onPad={setPad} onFocus={() => {}} />
          </div>
        )}
        <p class="progress" role="status" aria-live="polite">{say(w, "progress", { done, total: required.length })}</p>
        {error && <p class="error" role="alert">{error}</p>}
        <div class="actions">
          <button type="button" class="secondary" onClick={previous} aria-label={say(w, "previous_field")}><span class="back" aria-hidden="true">‹</span></button>
          <button type="button" class="secondary" onClick={next}>{say(w, "next_field")}</button>
          <button type="button" class="primary" disabled={!ready || busy} aria-describedby={ready ? undefined : "finish-hint"} onClick={finish}>{say(w, "finish")}</button>
        </div>
        {!ready && <p id="finish-hint" class="hint">{say(w, done === required.length ? "pay_to_finish" : "finish_hint")}</p>}
      </footer>
      {pad && (
        <Pad
          words={w}
          initials={pad.type === "initials"}
          name={v.person.name}
          value={(values[pad.id] as SignatureValue) ?? null}
          onCancel={() => setPad(null)}
          onApply={(s) => { set(pad.id, s); const id = pad.id; setPad(null); setTimeout(() => document.getElementById(`field-${id}`)?.focus(), 0); }}
        />
      )}
    </div>
  );
}

/** Whether the screen is a phone's width. */
function useNarrow(): boolean {
  const query = "(max-width: 640px)";
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setNarrow(m.matches);
    m.addEventListener("change", on);
    return () => m.removeEventListener("change", on);
  }, []);
  return narrow;
}

interface PageProps {
  page: PageOut; n: number; total: number; words: Record<string, string>;
  fields: FieldView[]; copies: { f: FieldView; a: Area }[]; values: Record<string, Value>;
  onSeen?: () => void; onChange: (id: string, v: Value) => void; onPad: (f: FieldView) => void; onFocusField: (id: string) => void;
  compact: boolean; onPick: (id: string) => void;
}

function Page({ page, n, total, words, fields, copies, values, onSeen, onChange, onPad, onFocusField, compact, onPick }: PageProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setScale(el.clientWidth / page.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [page.width]);
  const { src, srcset } = picture(page);
  const withText = n <= textPages.value;
  const pct = (a: number, of: number) => `${(a / of) * 100}%`;
  return (
    <section class="page" aria-label={say(words, "page_of", { n, total })}>
      <div class="sheet" ref={box} style={{ aspectRatio: `${page.width} / ${page.height}` }}>
        <img
          src={src}
          srcset={srcset}
          sizes={SIZES}
          alt=""
          loading={n <= 2 ? "eager" : "lazy"}
          decoding="async"
          fetchpriority={n === 1 ? "high" : "auto"}
          // The Element Timing API's name for the first picture (bench/signing-page.mjs).
          elementtiming={n === 1 ? "first-page" : undefined}
          onLoad={onSeen}
        />
        <div class="text" style={{ fontSize: `${scale}px` }}>
          {withText && page.text.map((r) => (
            <span style={{ left: pct(r.x, page.width), top: pct(r.y, page.height), width: pct(r.width, page.width), height: pct(r.height, page.height), fontSize: `${r.size}em`, lineHeight: `${r.height / r.size}` }}>{r.text}</span>
          ))}
        </div>
        {fields.map((f) => (
          <div
            class={`field type-${f.type}${f.required ? " required" : ""}`}
            style={{ left: pct(f.x, page.width), top: pct(f.y, page.height), width: pct(f.width, page.width), height: pct(f.height, page.height) }}
          >
            {compact && f.type !== "signature" && f.type !== "initials" && f.type !== "payment" ? (
              <Pick f={f} value={values[f.id] ?? null} words={words} onPick={() => onPick(f.id)} />
            ) : (
              <Field f={f} value={values[f.id] ?? null} words={words} onChange={onChange} onPad={onPad} onFocus={() => onFocusField(f.id)} />
            )}
          </div>
        ))}
        {copies.map(({ f, a }) => (
          <div
            class={`field copy type-${f.type}${f.required ? " required" : ""}`}
            style={{ left: pct(a.x, page.width), top: pct(a.y, page.height), width: pct(a.width, page.width), height: pct(a.height, page.height) }}
          >
            <Copy f={f} value={values[f.id] ?? null} words={words} onPad={onPad} onPick={() => onPick(f.id)} />
          </div>
        ))}
      </div>
    </section>
  );
}

/** Another place of a field written several times (initials on every page): it shows the
 * field's one value; choosing it opens the pad, or goes to the field, to change that value. */
function Copy({ f, value, words, onPad, onPick }: { f: FieldView; value: Value; words: Record<string, string>; onPad: (f: FieldView) => void; onPick: () => void }) {
  const sign = f.type === "signature" || f.type === "initials";
  const s = sign ? (value as SignatureValue | null) : null;
  const shown = sign ? "" : value === true ? "✓" : value === false || value === null ? "" : String(value);
  const label = `${f.name}${f.required ? ` (${say(words, "required")})` : ""}${shown ? `: ${shown}` : ""}`;
  return (
    <button type="button" class={`${sign ? "sign-here" : "pick"}${filled(f, value) ? " done" : ""}`} aria-label={label} disabled={!f.editable} onClick={() => (sign ? onPad(f) : onPick())}>
      {sign && !s && say(words, f.type === "initials" ? "add_initials" : "add_signature")}
      {s && <SignatureMark s={s} />}
      {!sign && <span aria-hidden="true">{shown}</span>}
    </button>
  );
}

/** A signature or initials as signed: typed, traced or drawn. */
function SignatureMark({ s }: { s: SignatureValue }) {
  if (s.kind === "typed") return <span class="typed">{s.text}</span>;
  if (s.kind === "traced")
    return (
      <svg viewBox={`0 0 ${s.width} ${s.height}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
        <path d={outlinePath(s.paths)} fill="#10213a" fill-rule="evenodd" />
      </svg>
    );
  return (
    <svg viewBox={`0 0 ${s.width} ${s.height}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      <path d={pathOf(s.strokes)} fill="none" stroke="#10213a" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

function Field({ f, value, words, onChange, onPad, onFocus }: { f: FieldView; value: Value; words: Record<string, string>; onChange: (id: string, v: Value) => void; onPad: (f: FieldView) => void; onFocus: () => void }) {
  const id = `field-${f.id}`;
  const label = `${f.name}${f.required ? ` (${say(words, "required")})` : ""}`;
  const common = { id, title: f.tooltip ?? undefined, onFocus, "aria-label": label, "aria-required": f.required, disabled: !f.editable };
  const text = (e: Event) => onChange(f.id, (e.target as HTMLInputElement).value);
  switch (f.type) {
    case "signature":
    case "initials": {
      const s = value as SignatureValue | null;
      const action = say(words, s ? "edit" : f.type === "initials" ? "add_initials" : "add_signature");
      return (
        <button
          type="button"
          class={`sign-here${s ? " done" : ""}`}
          id={id}
          title={f.tooltip ?? undefined}
          onFocus={onFocus}
          aria-label={`${s ? "" : `${action}: `}${label}${s?.kind === "typed" ? `: ${s.text}` : ""}`}
          onClick={() => onPad(f)}
        >
          {!s && say(words, f.type === "initials" ? "add_initials" : "add_signature")}
          {s && <SignatureMark s={s} />}
        </button>
      );
    }
    case "checkbox":
      return <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(f.id, (e.target as HTMLInputElement).checked)} />;
    case "select":
      return (
        <select {...common} value={(value as string) ?? ""} onChange={text}>
          <option value="">{f.placeholder ?? say(words, "choose")}</option>
          {f.options.map((o) => <option value={o}>{o}</option>)}
        </select>
      );
    case "radio":
      return (
        <fieldset class="radio" id={id} aria-label={label} title={f.tooltip ?? undefined}>
          {f.options.map((o, i) => (
            <label>
              <input type="radio" name={id} value={o} checked={value === o} disabled={!f.editable} onFocus={onFocus} onChange={() => onChange(f.id, o)} id={i === 0 ? `${id}-first` : undefined} />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      );
    case "payment":
      return <Payment f={f} words={words} onFocus={onFocus} />;
    default: {
      const type = f.type === "email" ? "email" : f.type === "phone" ? "tel" : f.type === "date" ? "date" : "text";
      const auto = f.type === "name" ? "name" : f.type === "email" ? "email" : f.type === "company" ? "organization" : f.type === "phone" ? "tel" : "off";
      return (
        <input
          type={type as "text"}
          inputMode={f.type === "number" ? "decimal" : undefined}
          autoComplete={auto}
          placeholder={f.placeholder ?? undefined}
          value={(value as string) ?? ""}
          onInput={text}
          maxLength={f.type === "text" ? 1000 : 200}
          {...common}
        />
      );
    }
  }
}

/** An amount as its currency writes it, with the page's language. */
function money(p: PaymentView, lang: string): string {
  if (p.amount === null) return p.currency.toUpperCase();
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency: p.currency.toUpperCase(), minimumFractionDigits: p.decimals, maximumFractionDigits: p.decimals }).format(p.amount / 10 ** p.decimals);
  } catch {
    return `${(p.amount / 10 ** p.decimals).toFixed(p.decimals)} ${p.currency.toUpperCase()}`;
  }
}

/** A payment field: the amount and a button to Stripe's hosted Checkout; once Stripe has
 * confirmed it, what was paid and the receipt. Card details never reach this page. */
function Payment({ f, words, onFocus }: { f: FieldView; words: Record<string, string>; onFocus: () => void }) {
  const p = f.payment;
  if (!p) return null;
  const lang = document.documentElement.lang || "en";
  const amount = money(p, lang);
  if (PAID.includes(p.status)) {
    return (
      <p class="payment done" id={`field-${f.id}`} tabIndex={-1}>
        <span>✓ {say(words, "paid", { amount })}</span>
        {p.receiptUrl && <a href={p.receiptUrl} target="_blank" rel="noopener noreferrer">{say(words, "payment_receipt")}</a>}
      </p>
    );
  }
  const confirming = returned && p.status === "open";
  const text = confirming ? say(words, "payment_confirming") : say(words, "pay", { amount: p.amount === null ? "" : amount }).trim();
  // The name says what is paid for after what the button shows.
  const label = p.description ? `${text}: ${p.description}` : text;
  return (
    <button type="button" class="pay-here" id={`field-${f.id}`} onFocus={onFocus} disabled={confirming || paying.value} aria-label={label} onClick={() => payNow.value?.()}>
      {text}
    </button>
  );
}

/** What the person filled in, kept in this tab (never sent anywhere) while they are on
 * Checkout, for this signing page only. */
const valuesKey = `signet-values:${location.pathname}`;
function keepValues(values: Record<string, Value>) {
  try { sessionStorage.setItem(valuesKey, JSON.stringify(values)); } catch { /* not kept: filled in again */ }
}
function keptValues(): Record<string, Value> {
  try {
    const raw = sessionStorage.getItem(valuesKey);
    sessionStorage.removeItem(valuesKey);
    return raw ? JSON.parse(raw) : {};
  } catch {
    return {};
  }
}

/** The person came back from Checkout (`?payment=done`): the page waits for Stripe's word. */
const returned = new URLSearchParams(location.search).get("payment") === "done";
/** Opens Checkout with the values the page holds (set by the signing screen). */
const payNow = signal<(() => void) | null>(null);
const paying = signal(false);

/** A field's box on a phone: what it holds; tapping it edits it in the bar below. */
function Pick({ f, value, words, onPick }: { f: FieldView; value: Value; words: Record<string, string>; onPick: () => void }) {
  const shown = value === true ? "✓" : value === false || value === null ? "" : String(value);
  const label = `${f.name}${f.required ? ` (${say(words, "required")})` : ""}${shown ? `: ${shown}` : ""}`;
  return (
    <button type="button" id={`pick-${f.id}`} class={`pick${filled(f, value) ? " done" : ""}`} aria-label={label} disabled={!f.editable} onClick={onPick}>
      <span aria-hidden="true">{shown}</span>
    </button>
  );
}

function DeclineButton({ v }: { v: View }) {
  const w = v.words;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => { if (open) dialog.current?.showModal(); }, [open]);
  const confirm = async (e: Event) => {
    e.preventDefault();
    if (v.requireDeclineReason && !reason.trim()) return setError(say(w, "decline_reason_needed"));
    try {
      view.value = await api.decline(reason.trim() || null);
    } catch (err) {
      setError(err instanceof Failed ? err.message : say(w, "error"));
    }
  };
  return (
    <>
      <button type="button" class="secondary decline" onClick={() => setOpen(true)}>{say(w, "decline")}</button>
      {open && (
        <dialog ref={dialog} class="decline-dialog" aria-labelledby="decline-title" onCancel={(e) => { e.preventDefault(); setOpen(false); }}>
          <form onSubmit={confirm} noValidate>
            <h2 id="decline-title">{say(w, "decline_heading")}</h2>
            <p>{say(w, "decline_body")}</p>
            <label for="decline-reason">{say(w, "decline_reason")}{v.requireDeclineReason ? ` (${say(w, "required")})` : ` (${say(w, "optional")})`}</label>
            <textarea id="decline-reason" rows={3} maxLength={1000} aria-required={v.requireDeclineReason} aria-invalid={!!error} aria-describedby={error ? "decline-error" : undefined} value={reason} onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)} />
            {error && <p class="error" role="alert" id="decline-error">{error}</p>}
            <div class="actions">
              <button type="button" class="secondary" onClick={() => setOpen(false)}>{say(w, "cancel")}</button>
              <button type="submit" class="danger">{say(w, "decline_confirm")}</button>
            </div>
          </form>
        </dialog>
      )}
    </>
  );
}

whenPassEnds(load);
if (embedded) {
  // In a frame that grows to its content: no full-screen heights, and the size reported.
  document.documentElement.classList.add("embedded");
  const report = () => tell("resize", { height: document.body.scrollHeight });
  new ResizeObserver(report).observe(document.body);
  // The frame is as tall as the page, so the part of it the person sees is wherever the
  // caller's page is scrolled: dialogs open there, not in the middle of the whole frame.
  const root = document.documentElement.style;
  new IntersectionObserver(
    ([e]) => {
      root.setProperty("--seen-top", `${Math.max(0, e.intersectionRect.top)}px`);
      root.setProperty("--seen-height", `${e.intersectionRect.height}px`);
    },
    { threshold: Array.from({ length: 101 }, (_, i) => i / 100) },
  ).observe(document.body);
}
if (returnedElsewhere) {
  // Checkout's own tab, opened from a signing frame: the frame follows the payment itself.
  // (No link here, so no language either: the words are English.)
  render(
    <main class="status"><h1>Thank you</h1><p role="status">Your payment is with the processor. Close this tab and go back to the document to finish signing.</p></main>,
    document.getElementById("app")!,
  );
} else {
  // The view is asked for before the first drawing, so the two overlap.
  load();
  render(<App />, document.getElementById("app")!);
}
