// The signature pad: draw (finger, pen, mouse; the strokes are kept as points and times in
// the pad's own coordinates, so turning the phone redraws them at the new size), type, or
// upload a picture, traced into outlines here (the picture never leaves the device).
import { useEffect, useRef, useState } from "preact/hooks";
import { say } from "./api";
import { outlinePath, trace, type Outline } from "./trace";

export const PAD_W = 600;
export const PAD_H = 200;
export type Point = [number, number, number];
export type SignatureValue =
  | { kind: "drawn"; width: number; height: number; strokes: Point[][] }
  | { kind: "typed"; text: string }
  | { kind: "traced"; width: number; height: number; paths: Outline[] };

/** The largest picture taken. */
const MAX_UPLOAD = 1024 * 1024;

interface Props {
  words: Record<string, string>;
  initials: boolean;
  name: string;
  value: SignatureValue | null;
  onApply: (v: SignatureValue) => void;
  onCancel: () => void;
}

export function Pad({ words, initials, name, value, onApply, onCancel }: Props) {
  const [mode, setMode] = useState<"draw" | "type" | "upload">(value?.kind === "typed" ? "type" : value?.kind === "traced" ? "upload" : "draw");
  const [traced, setTraced] = useState<Outline[] | null>(value?.kind === "traced" ? value.paths : null);
  const [strokes, setStrokes] = useState<Point[][]>(value?.kind === "drawn" ? value.strokes : []);
  const [typed, setTyped] = useState(value?.kind === "typed" ? value.text : initials ? initialsOf(name) : name);
  const [error, setError] = useState("");
  const canvas = useRef<HTMLCanvasElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const drawing = useRef<Point[] | null>(null);
  const started = useRef(0);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  // Redraw whenever the strokes change or the pad changes size (a phone turned).
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const draw = () => {
      const ratio = window.devicePixelRatio || 1;
      const w = c.clientWidth;
      const h = c.clientHeight;
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
      const g = c.getContext("2d");
      if (!g) return;
      g.setTransform((w * ratio) / PAD_W, 0, 0, (h * ratio) / PAD_H, 0, 0);
      g.lineWidth = 3;
      g.lineCap = "round";
      g.lineJoin = "round";
      g.strokeStyle = "#10213a";
      for (const s of strokes) {
        g.beginPath();
        s.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
        if (s.length === 1) g.lineTo(s[0][0] + 0.1, s[0][1]);
        g.stroke();
      }
    };
    draw();
    const ro = new ResizeObserver(draw);
    ro.observe(c);
    return () => ro.disconnect();
  }, [strokes, mode]);

  const at = (e: PointerEvent): Point => {
    const r = canvas.current!.getBoundingClientRect();
    const x = Math.min(PAD_W, Math.max(0, ((e.clientX - r.left) / r.width) * PAD_W));
    const y = Math.min(PAD_H, Math.max(0, ((e.clientY - r.top) / r.height) * PAD_H));
    if (!started.current) started.current = e.timeStamp;
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10, Math.max(0, Math.round(e.timeStamp - started.current))];
  };
  const down = (e: PointerEvent) => {
    e.preventDefault();
    canvas.current!.setPointerCapture(e.pointerId);
    drawing.current = [at(e)];
    setStrokes((s) => [...s, drawing.current!]);
  };
  const move = (e: PointerEvent) => {
    if (!drawing.current) return;
    const p = at(e);
    const last = drawing.current[drawing.current.length - 1];
    if (p[2] < last[2]) p[2] = last[2];
    drawing.current.push(p);
    setStrokes((s) => [...s.slice(0, -1), [...drawing.current!]]);
  };
  const up = () => {
    drawing.current = null;
  };

  const upload = async (e: Event) => {
    setError("");
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > MAX_UPLOAD || !/^image\/(png|jpeg)$/.test(file.type)) return setError(say(words, "upload_hint"));
    try {
      const picture = await createImageBitmap(file);
      const paths = trace(picture, picture.width, picture.height);
      picture.close();
      if (!paths) return setError(say(words, "upload_none"));
      setTraced(paths);
    } catch {
      setError(say(words, "upload_none"));
    }
  };

  const apply = () => {
    if (mode === "upload") {
      if (!traced) return setError(say(words, "signature_empty"));
      return onApply({ kind: "traced", width: PAD_W, height: PAD_H, paths: traced });
    }
    if (mode === "draw") {
      if (!strokes.length) return setError(say(words, "signature_empty"));
      onApply({ kind: "drawn", width: PAD_W, height: PAD_H, strokes });
    } else {
      if (!typed.trim()) return setError(say(words, "signature_empty"));
      onApply({ kind: "typed", text: typed.trim() });
    }
  };

  const heading = say(words, initials ? "initials_heading" : "signature_heading");
  return (
    <dialog ref={dialog} class="pad" aria-labelledby="pad-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id="pad-title">{heading}</h2>
      <div class="tabs" role="tablist">
        <button role="tab" type="button" aria-selected={mode === "draw"} onClick={() => setMode("draw")}>{say(words, "draw")}</button>
        <button role="tab" type="button" aria-selected={mode === "type"} onClick={() => setMode("type")}>{say(words, "type")}</button>
        <button role="tab" type="button" aria-selected={mode === "upload"} onClick={() => setMode("upload")}>{say(words, "upload")}</button>
      </div>
      {mode === "draw" ? (
        <div class="draw">
          <p class="hint" id="draw-hint">{say(words, "draw_hint")}</p>
          <canvas
            ref={canvas}
            class="surface"
            role="img"
            aria-label={heading}
            aria-describedby="draw-hint"
            onPointerDown={down as any}
            onPointerMove={move as any}
            onPointerUp={up}
            onPointerCancel={up}
          />
          <button type="button" class="link" onClick={() => setStrokes([])}>{say(words, "clear")}</button>
        </div>
      ) : mode === "upload" ? (
        <div class="upload">
          <p id="upload-hint" class="hint">{say(words, "upload_hint")}</p>
          {/* The browser's own button speaks the browser's language: ours speaks the page's. */}
          <input id="upload" class="visually-hidden" type="file" accept="image/png,image/jpeg" aria-describedby="upload-hint" onChange={upload} />
          <label for="upload" class="button secondary">{say(words, "upload")}</label>
          <div class="traced-preview">
            {traced && (
              <svg viewBox={`0 0 ${PAD_W} ${PAD_H}`} role="img" aria-label={heading}>
                <path d={outlinePath(traced)} fill="#10213a" fill-rule="evenodd" />
              </svg>
            )}
          </div>
        </div>
      ) : (
        <div class="type">
          <label for="typed">{say(words, "type_hint")}</label>
          <input id="typed" value={typed} maxLength={100} autoComplete="name" onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
          <p class="typed-preview" aria-hidden="true">{typed}</p>
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>{say(words, "cancel")}</button>
        <button type="button" class="primary" onClick={apply}>{say(words, "apply")}</button>
      </div>
    </dialog>
  );
}

function initialsOf(name: string): string {
  return name.split(/\s+/).filter(Boolean).map((w) => w[0]).join("").toUpperCase();
}

/** A drawn signature as an SVG path for the page's preview. */
export function pathOf(strokes: Point[][]): string {
  return strokes.map((s) => s.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join("") + (s.length === 1 ? "l0.1 0" : "")).join("");
}
