// Fields placed on a file's pages (a template made from a PDF, Word, Excel, PowerPoint or
// picture file): the pages as pictures, each field a box the person draws by dragging, moves,
// resizes, and sets as in the words' builder. Only the boxes are saved: the file and its
// pages stay the stored version's.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { JSONContent } from "@tiptap/core";
import { FIELD_TYPES } from "./editor";
import { FieldSettings, Problems, Section } from "./Builder";
import type { BuilderApi, Check, Problem, Stored } from "./Builder";
import { t } from "./words";

/** A field at its place: its attributes and its box in points from the page's top-left. */
export type Placed = Record<string, unknown> & { name: string; type: string; role: string; page: number; x: number; y: number; width: number; height: number };
type Page = { width: number; height: number; image: string | null };

/** A new box's size in points when the person clicks rather than drags. */
function sizeOf(type: string): [number, number] {
  switch (type) {
    case "signature": return [180, 36];
    case "initials": return [60, 30];
    case "checkbox": return [14, 14];
    case "radio": return [120, 40];
    default: return [150, 20];
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** The file's fields as the source model writes them. */
export function fileSource(fields: Placed[]): JSONContent {
  return { type: "doc", file: { fields } } as unknown as JSONContent;
}

/** The index of the field a check's path names (`source.file.fields[3].attrs.name`). */
const fieldOf = (p: Problem) => Number(/file\.fields\[(\d+)\]/.exec(p.path)?.[1] ?? -1);

export function FileFields(props: {
  api: BuilderApi; stored: Stored; seats: string[]; fields: Placed[];
  onChange: (fields: Placed[]) => void; check: Check | null;
  /** The seats' panel, shown beside the pages while no field is selected. */
  children?: ComponentChildren;
}) {
  const { api, stored, fields, onChange, seats } = props;
  const file = (stored.source as { file?: { pages?: [number, number][] } }).file;
  const sizes = file?.pages ?? [];
  const [pages, setPages] = useState<(Page | null)[]>(sizes.map(() => null));
  const [selected, setSelected] = useState<number | null>(null);
  const [type, setType] = useState("signature");
  const [seat, setSeat] = useState("");
  const seatNow = seats.includes(seat) ? seat : seats[0] ?? "";
  const [failed, setFailed] = useState<string | null>(null);

  // The pages' pictures, one after another (each is drawn once on the server, then kept).
  useEffect(() => {
    let gone = false;
    (async () => {
      for (let i = 0; i < sizes.length && !gone; i++) {
        try {
          const p = await api.page(stored.id, i + 1);
          if (!gone) setPages((old) => old.map((o, k) => (k === i ? p : o)));
        } catch (e) {
          setFailed((e as Error).message);
          return;
        }
      }
    })();
    return () => { gone = true; };
  }, [stored.id]);

  const problems = props.check?.problems ?? [];
  const taken = (name: string) => fields.some((f) => f.name.toLowerCase() === name.toLowerCase());
  const fresh = (ty: string, s: string) => {
    const base = `${t(`type_${ty}` as "type_text")} (${s})`;
    if (!taken(base)) return base;
    for (let i = 2; ; i++) if (!taken(`${base} ${i}`)) return `${base} ${i}`;
  };
  const add = (page: number, x: number, y: number, w?: number, h?: number) => {
    if (!seatNow) return;
    const [dw, dh] = sizeOf(type);
    const [pw, ph] = sizes[page - 1];
    const width = clamp(w ?? dw, 4, pw), height = clamp(h ?? dh, 4, ph);
    const f: Placed = {
      name: fresh(type, seatNow), type, role: seatNow, page,
      x: clamp(x, 0, pw - width), y: clamp(y, 0, ph - height), width, height,
    };
    if (type === "radio" || type === "select") f.options = ["Yes", "No"];
    if (type === "payment") { f.amount = "10.00"; f.currency = "usd"; }
    onChange([...fields, f]);
    setSelected(fields.length);
  };
  const update = (i: number, changes: Partial<Placed>) => {
    onChange(fields.map((f, k) => {
      if (k !== i) return f;
      const next = { ...f, ...changes } as Placed;
      for (const [key, v] of Object.entries(changes)) if (v === null) delete next[key];
      return next;
    }));
  };
  const remove = (i: number) => {
    onChange(fields.filter((_, k) => k !== i));
    setSelected(null);
  };

  const one = selected !== null ? fields[selected] : null;
  return (
    <div class="builder-body">
      <div class="page-wrap">
        <div class="toolbar" role="toolbar" aria-label={t("toolbar")}>
          <div class="group insert">
            <select aria-label={t("fieldType")} value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {FIELD_TYPES.map((ty) => <option key={ty} value={ty}>{t(`type_${ty}` as "type_text")}</option>)}
            </select>
            <select aria-label={t("seatName")} value={seatNow} disabled={!seats.length} onChange={(e) => setSeat(e.currentTarget.value)}>
              {seats.length ? seats.map((s) => <option key={s} value={s}>{s}</option>) : <option value="">{t("needSeat")}</option>}
            </select>
          </div>
        </div>
        <p class="hint">{t("placeLead")}</p>
        {failed && <p class="notice error" role="alert">{t("error", { message: failed })}</p>}
        <div class="file-pages">
          {sizes.map(([pw, ph], i) => (
            <PageBoxes key={i} page={i + 1} size={[pw, ph]} picture={pages[i]} fields={fields} selected={selected}
              bad={new Set(problems.map(fieldOf))} canAdd={!!seatNow}
              onSelect={setSelected} onAdd={add} onMove={update} onRemove={remove} />
          ))}
        </div>
      </div>
      <aside class="side" aria-label={t("title")}>
        {one && selected !== null ? (
          <FieldSettings key={selected} attrs={one} seats={seats}
            problems={problems.filter((p) => fieldOf(p) === selected)}
            set={(c) => update(selected, c as Partial<Placed>)}
            onDone={() => setSelected(null)} onDelete={() => remove(selected)} />
        ) : (
          <>
          {props.children}
          <Section title={t("fields")}>
            {fields.length === 0 ? <p class="hint">{t("placeLead")}</p> : (
              <ul class="fields">
                {fields.map((f, i) => (
                  <li key={i}>
                    <button type="button" class="link" onClick={() => setSelected(i)}><bdi>{f.name}</bdi></button>
                    <span class="hint">{t("fieldOf", { type: t(`type_${f.type}` as "type_text"), seat: f.role })} · {t("previewPage", { page: f.page })}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          </>
        )}
        <Problems check={props.check} onPick={(p) => { const i = fieldOf(p); if (i >= 0) setSelected(i); }} />
      </aside>
    </div>
  );
}

type Drag = { kind: "draw" | "move" | "size"; index: number; x0: number; y0: number; start: Placed | null; now?: [number, number, number, number] };

/** One page: its picture, its boxes, and the pointer and keys that place them. */
function PageBoxes(props: {
  page: number; size: [number, number]; picture: Page | null; fields: Placed[]; selected: number | null; bad: Set<number>; canAdd: boolean;
  onSelect: (i: number | null) => void; onAdd: (page: number, x: number, y: number, w?: number, h?: number) => void;
  onMove: (i: number, c: Partial<Placed>) => void; onRemove: (i: number) => void;
}) {
  const { page, size: [pw, ph] } = props;
  const sheet = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  /** A pointer's place on the page, in points. */
  const at = (e: PointerEvent): [number, number] => {
    const r = sheet.current!.getBoundingClientRect();
    return [clamp(((e.clientX - r.left) / r.width) * pw, 0, pw), clamp(((e.clientY - r.top) / r.height) * ph, 0, ph)];
  };
  const down = (e: PointerEvent, kind: Drag["kind"], index: number) => {
    if (e.button !== 0) return;
    if (kind === "draw" && !props.canAdd) return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    const [x, y] = at(e);
    setDrag({ kind, index, x0: x, y0: y, start: index >= 0 ? { ...props.fields[index] } : null });
    if (index >= 0) props.onSelect(index);
  };
  const move = (e: PointerEvent) => {
    if (!drag) return;
    const [x, y] = at(e);
    if (drag.kind === "draw") {
      setDrag({ ...drag, now: [Math.min(x, drag.x0), Math.min(y, drag.y0), Math.abs(x - drag.x0), Math.abs(y - drag.y0)] });
    } else if (drag.start) {
      const s = drag.start;
      if (drag.kind === "move") {
        props.onMove(drag.index, { x: clamp(s.x + x - drag.x0, 0, pw - s.width), y: clamp(s.y + y - drag.y0, 0, ph - s.height) });
      } else {
        props.onMove(drag.index, { width: clamp(s.width + x - drag.x0, 4, pw - s.x), height: clamp(s.height + y - drag.y0, 4, ph - s.y) });
      }
    }
  };
  const up = () => {
    if (drag?.kind === "draw") {
      const r = drag.now;
      if (r && r[2] >= 8 && r[3] >= 6) props.onAdd(page, r[0], r[1], r[2], r[3]);
      // A click on the page: it lets go of the selected field, or places a new one.
      else if (props.selected !== null) props.onSelect(null);
      else props.onAdd(page, drag.x0, drag.y0);
    }
    setDrag(null);
  };
  const key = (e: KeyboardEvent, i: number) => {
    const f = props.fields[i];
    const step = e.shiftKey ? 10 : 1;
    const dx = e.key === "ArrowLeft" ? -step : e.key === "ArrowRight" ? step : 0;
    const dy = e.key === "ArrowUp" ? -step : e.key === "ArrowDown" ? step : 0;
    if (dx || dy) {
      e.preventDefault();
      if (e.altKey) props.onMove(i, { width: clamp(f.width + dx, 4, pw - f.x), height: clamp(f.height + dy, 4, ph - f.y) });
      else props.onMove(i, { x: clamp(f.x + dx, 0, pw - f.width), y: clamp(f.y + dy, 0, ph - f.height) });
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      props.onRemove(i);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      props.onSelect(i);
    }
  };
  const pct = (v: number, of: number) => `${(v / of) * 100}%`;
  const label = t("previewPage", { page });
  return (
    <figure class="file-page">
      <div ref={sheet} class="sheet-boxes" style={{ aspectRatio: `${pw} / ${ph}` }}
        onPointerDown={(e) => down(e, "draw", -1)} onPointerMove={move} onPointerUp={up} onPointerCancel={() => setDrag(null)}>
        {props.picture?.image ? <img src={props.picture.image} alt={label} draggable={false} /> : <p class="loading" role="status">{t("loading")}</p>}
        {props.fields.map((f, i) => f.page === page && (
          <div key={i} role="button" tabIndex={0} aria-pressed={props.selected === i}
            class={`placed type-${f.type}${props.selected === i ? " on" : ""}${props.bad.has(i) ? " has-problem" : ""}`}
            style={{ left: pct(f.x, pw), top: pct(f.y, ph), width: pct(f.width, pw), height: pct(f.height, ph) }}
            onPointerDown={(e) => down(e, "move", i)} onKeyDown={(e) => key(e, i)}>
            <span class="tag" aria-hidden="true">{f.name} · {f.role}</span>
            <span class="visually-hidden">{t("box", { name: f.name, type: t(`type_${f.type}` as "type_text"), seat: f.role })}</span>
            <span class="grip" aria-hidden="true" onPointerDown={(e) => down(e, "size", i)} />
          </div>
        ))}
        {drag?.kind === "draw" && drag.now && (
          <div class="placed drawing" style={{ left: pct(drag.now[0], pw), top: pct(drag.now[1], ph), width: pct(drag.now[2], pw), height: pct(drag.now[3], ph) }} />
        )}
      </div>
      <figcaption>
        {label}
        <button type="button" class="small secondary" disabled={!props.canAdd} onClick={() => props.onAdd(page, pw / 2 - 75, ph / 2 - 15)}>{t("addField", { page })}</button>
      </figcaption>
    </figure>
  );
}
