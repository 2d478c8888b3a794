// Scribe: a guided drafting form in a frame on the caller's website. The person picks a play,
// names who signs for each seat, answers the play's questions round by round, and gets a
// DRAFT (never sent); the hosting page is told `drafted` with its id, on its website only.
// The frame's link is exchanged once for the frame's own key (plays:read, drafts:write,
// 50 drafts a day), kept in this page's memory only; every call is the public API's.
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import { preferred, t, use } from "./words";
import "./scribe.css";

type Seat = { role: string; label: string };
type Option = { value: string; label: string };
type Question = { id: string; ask: string; options: Option[]; default: string | null };
type PlaySummary = { name: string; title: string; description: string; language: string };
type Playbook = { name: string; title: string; description: string | null; plays: string[] };
type Play = PlaySummary & { seats: Seat[]; questions: Question[] };
type Draft = {
  status: "needs_input" | "draft";
  draftRef: string;
  questions: Question[];
  answers: Record<string, string>;
  documentId: string | null;
  document: { id: string; title: string } | null;
};

type Step =
  | { at: "loading" }
  | { at: "ended" }
  | { at: "pick"; plays: PlaySummary[]; playbooks: Playbook[] }
  | { at: "people"; play: Play }
  | { at: "questions"; play: Play; draft: Draft }
  | { at: "drafted"; play: Play; draft: Draft };

const step = signal<Step>({ at: "loading" });
const problem = signal<string | null>(null);
const name = signal<string>("");

const token = location.pathname.split("/").filter(Boolean).pop() ?? "";
let key = "";
/** The website the frame is on: the only one its messages go to. */
let host: string | null = document.querySelector<HTMLMetaElement>('meta[name="signet-origin"]')?.content ?? null;

/** Tells the hosting page (its website only) what happened. */
function tell(type: string, detail: Record<string, unknown> = {}) {
  if (!host || window.parent === window) return;
  window.parent.postMessage({ signet: 1, type, detail, ...(type === "resize" ? { height: detail.height } : {}) }, host);
}

class Failed extends Error {}

async function call<T>(method: string, path: string, body?: unknown, auth = `Bearer ${key}`): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { Authorization: auth, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Failed(json?.error?.message ?? `${res.status}`);
  return json as T;
}

const api = <T,>(method: string, path: string, body?: unknown) => call<T>(method, `/api/v1${path}`, body);

async function load() {
  try {
    const s = await call<{ key: string; origin: string; name: string | null; language: string }>(
      "POST", "/page/v1/frame/start", { frame: "scribe" }, `Link ${token}`);
    key = s.key;
    host = s.origin;
    name.value = s.name ?? "";
    use(preferred() ?? s.language);
    // The link is spent: the frame's address no longer holds anything useful.
    history.replaceState(null, "", "/scribe/session");
  } catch {
    step.value = { at: "ended" };
    tell("expired", { reason: "the session has ended" });
    return;
  }
  tell("loaded");
  await pick();
}

async function pick() {
  try {
    const [plays, books] = await Promise.all([
      api<{ data: PlaySummary[] }>("GET", "/plays"),
      api<{ data: Playbook[] }>("GET", "/playbooks"),
    ]);
    step.value = { at: "pick", plays: plays.data, playbooks: books.data };
    problem.value = null;
  } catch (e) {
    fail(e);
  }
}

function fail(e: unknown) {
  const message = e instanceof Error ? e.message : String(e);
  problem.value = t("error", { message });
  tell("error", { message });
}

/** Runs `work` with the button busy and the problem, if any, shown. */
function useBusy(): [boolean, (work: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  return [busy, async (work) => {
    setBusy(true);
    problem.value = null;
    try { await work(); } catch (e) { fail(e); } finally { setBusy(false); }
  }];
}

function advance(play: Play, draft: Draft) {
  if (draft.status === "draft") {
    step.value = { at: "drafted", play, draft };
    tell("drafted", { draftId: draft.documentId, play: play.name });
  } else {
    step.value = { at: "questions", play, draft };
  }
}

/** Moves focus to the step's heading, so a screen reader hears where the person is. */
function Heading({ text }: { text: string }) {
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => h.current?.focus(), [text]);
  return <h1 tabIndex={-1} ref={h}>{text}</h1>;
}

function Pick({ plays, playbooks }: { plays: PlaySummary[]; playbooks: Playbook[] }) {
  const [busy, run] = useBusy();
  const choose = (playName: string) => run(async () => {
    const play = await api<Play>("GET", `/plays/${encodeURIComponent(playName)}`);
    step.value = { at: "people", play };
  });
  const byName = new Map(plays.map((p) => [p.name, p]));
  const item = (p: PlaySummary) => (
    <li key={p.name}>
      <button type="button" class="choice" disabled={busy} onClick={() => choose(p.name)}>
        <strong lang={p.language} dir="auto">{p.title}</strong>
        <span lang={p.language} dir="auto">{p.description}</span>
      </button>
    </li>
  );
  return (
    <main>
      <Heading text={t("pickTitle")} />
      <p class="hint">{t("pickLead")}</p>
      {playbooks.map((b) => {
        const inBook = b.plays.map((n) => byName.get(n)).filter((p): p is PlaySummary => !!p);
        if (!inBook.length) return null;
        return (
          <section key={b.name} aria-labelledby={`book-${b.name}`}>
            <h2 id={`book-${b.name}`}>{b.title}</h2>
            {b.description && <p class="hint">{b.description}</p>}
            <ul class="choices">{inBook.map(item)}</ul>
          </section>
        );
      })}
      <section aria-labelledby="all-plays">
        <h2 id="all-plays">{t("allPlays")}</h2>
        {plays.length ? <ul class="choices">{plays.map(item)}</ul> : <p>{t("noPlays")}</p>}
      </section>
    </main>
  );
}

function People({ play }: { play: Play }) {
  const [busy, run] = useBusy();
  const [title, setTitle] = useState(name.value || play.title);
  const [people, setPeople] = useState(play.seats.map((s) => ({ role: s.role, name: "", email: "" })));
  const set = (i: number, k: "name" | "email", v: string) =>
    setPeople(people.map((p, j) => (j === i ? { ...p, [k]: v } : p)));
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const draft = await api<Draft>("POST", "/drafts", { play: play.name, people, title: title.trim() || undefined });
      advance(play, draft);
    });
  };
  return (
    <main>
      <Heading text={play.title} />
      <form onSubmit={submit}>
        <div class="field">
          <label for="title">{t("draftTitle")}</label>
          <input id="title" value={title} maxLength={300} onInput={(e) => setTitle(e.currentTarget.value)} />
        </div>
        <h2>{t("peopleTitle")}</h2>
        {play.seats.map((s, i) => (
          <fieldset key={s.role} class="seat">
            <legend lang={play.language} dir="auto">{s.label}</legend>
            <div class="grid">
              <div class="field">
                <label for={`name-${i}`}>{t("name")}</label>
                <input id={`name-${i}`} required autoComplete="off" maxLength={200} value={people[i].name}
                  onInput={(e) => set(i, "name", e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for={`email-${i}`}>{t("email")}</label>
                <input id={`email-${i}`} type="email" required autoComplete="off" maxLength={320} value={people[i].email}
                  onInput={(e) => set(i, "email", e.currentTarget.value)} />
              </div>
            </div>
          </fieldset>
        ))}
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => pick()}>{t("back")}</button>
          <button type="submit" class="primary" disabled={busy}>{busy ? t("working") : t("continue")}</button>
        </div>
      </form>
    </main>
  );
}

function Questions({ play, draft }: { play: Play; draft: Draft }) {
  const [busy, run] = useBusy();
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(draft.questions.filter((q) => q.default).map((q) => [q.id, q.default as string])));
  const answer = (body: Record<string, unknown>) => run(async () => {
    const next = await api<Draft>("POST", `/drafts/${encodeURIComponent(draft.draftRef)}/answers`, body);
    advance(play, next);
  });
  const submit = (e: Event) => {
    e.preventDefault();
    return answer({ answers: chosen });
  };
  return (
    <main>
      <Heading text={t("questionsTitle")} />
      <p class="hint">{t("questionsLead")}</p>
      <form onSubmit={submit}>
        {draft.questions.map((q) => (
          <fieldset key={q.id} class="question" lang={play.language} dir="auto">
            <legend dir="auto">{q.ask}</legend>
            <div class="options">
              {q.options.map((o) => (
                <label key={o.value} class={chosen[q.id] === o.value ? "option on" : "option"}>
                  <input type="radio" name={q.id} value={o.value} required checked={chosen[q.id] === o.value}
                    onChange={() => setChosen({ ...chosen, [q.id]: o.value })} />
                  <span dir="auto">{o.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => answer({ answers: chosen, useDefaults: true })}>
            {t("defaults")}
          </button>
          <button type="submit" class="primary" disabled={busy}>{busy ? t("working") : t("continue")}</button>
        </div>
      </form>
    </main>
  );
}

function Drafted({ play, draft }: { play: Play; draft: Draft }) {
  const title = draft.document?.title ?? play.title;
  return (
    <main>
      <Heading text={t("draftedTitle")} />
      <p class="notice ok" role="status">{t("draftedLead", { title })}</p>
      {Object.keys(draft.answers).length > 0 && (
        <section aria-labelledby="answers">
          <h2 id="answers">{t("answers")}</h2>
          <dl class="answers">
            {play.questions.filter((q) => q.id in draft.answers).map((q) => (
              <div key={q.id} lang={play.language}>
                <dt dir="auto">{q.ask}</dt>
                <dd dir="auto">{q.options.find((o) => o.value === draft.answers[q.id])?.label ?? draft.answers[q.id]}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <Pages draftRef={draft.draftRef} />
      <div class="actions start">
        <button type="button" class="secondary" onClick={() => pick()}>{t("another")}</button>
      </div>
    </main>
  );
}

type Pictures = { pages: { width: number; height: number; image: string | null }[]; fields: { role: string; page: number; x: number; y: number; width: number; height: number }[] };

/** The draft's pages as a send will lay them out, each field's box marked with its seat. */
function Pages({ draftRef }: { draftRef: string }) {
  const [pictures, setPictures] = useState<Pictures | null>(null);
  useEffect(() => {
    api<Pictures>("GET", `/drafts/${encodeURIComponent(draftRef)}/pages`).then(setPictures, fail);
  }, [draftRef]);
  const pct = (v: number, of: number) => `${(v / of) * 100}%`;
  return (
    <section aria-labelledby="pages">
      <h2 id="pages">{t("pagesTitle")}</h2>
      {!pictures && <p class="hint" role="status">{t("drawing")}</p>}
      <div class="pages">
        {pictures?.pages.map((p, i) => (
          <figure key={i} class="page" style={{ aspectRatio: `${p.width} / ${p.height}` }}>
            {p.image && <img src={p.image} alt={t("page", { page: String(i + 1) })} />}
            {pictures.fields.filter((f) => f.page === i + 1).map((f, k) => (
              <span key={k} class="box" aria-hidden="true" style={{ left: pct(f.x, p.width), top: pct(f.y, p.height), width: pct(f.width, p.width), height: pct(f.height, p.height) }}>
                <span>{f.role}</span>
              </span>
            ))}
          </figure>
        ))}
      </div>
    </section>
  );
}

function App() {
  const s = step.value;
  return (
    <div class="scribe">
      {problem.value && <p class="notice error" role="alert">{problem.value}</p>}
      {s.at === "loading" && <p class="loading" role="status">{t("loading")}</p>}
      {s.at === "ended" && <main><p class="notice error" role="alert">{t("ended")}</p></main>}
      {s.at === "pick" && <Pick plays={s.plays} playbooks={s.playbooks} />}
      {s.at === "people" && <People play={s.play} />}
      {s.at === "questions" && <Questions key={s.draft.questions.map((q) => q.id).join()} play={s.play} draft={s.draft} />}
      {s.at === "drafted" && <Drafted play={s.play} draft={s.draft} />}
    </div>
  );
}

// The hosting page sizes the frame to the content.
new ResizeObserver(() => tell("resize", { height: document.body.scrollHeight })).observe(document.body);
use(preferred() ?? "en");
const root = document.getElementById("app") as HTMLElement;
root.replaceChildren();
render(<App />, root);
load();
