// An uploaded picture of a signature, traced into outlines in the browser: the picture never
// leaves the person's device, and the sealed PDF carries vector shapes, never a picture.
//
// The picture is fitted into the pad (600 × 200), its ink found (darker than a threshold
// chosen from its own histogram), the boundary of the ink followed along pixel edges into
// closed outlines, and each outline simplified (Ramer–Douglas–Peucker, under a pixel).
// Outlines are filled even-odd, so the holes of letters stay open.

import { PAD_H, PAD_W } from "./pad";

export type Outline = [number, number][];

/** At most this many points in all; the server holds the same bound. */
const MAX_POINTS = 20000;
/** At most this many outlines; the server holds the same bound. */
const MAX_PATHS = 1000;

/** The threshold between ink and paper (Otsu's method), never above `cap`. */
function threshold(lum: Uint8Array, cap: number): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of lum) hist[v]++;
  const total = lum.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i];
  let sumB = 0, wB = 0, best = 0, at = cap;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB, mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) { best = between; at = t; }
  }
  return Math.min(at, cap);
}

function simplify(points: Outline, epsilon: number): Outline {
  if (points.length < 3) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = points[a], [bx, by] = points[b];
    const dx = bx - ax, dy = by - ay, len = Math.hypot(dx, dy) || 1;
    let far = -1, farD = 0;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs(dy * (points[i][0] - ax) - dx * (points[i][1] - ay)) / len;
      if (d > farD) { farD = d; far = i; }
    }
    if (far >= 0 && farD > epsilon) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

/** A closed outline simplified: split at the point farthest from its first, each half
 * simplified (both ends of a closed outline are the same point, which the line test cannot
 * measure from). */
function simplifyClosed(loop: Outline, epsilon: number): Outline {
  if (loop.length < 4) return loop;
  const [x0, y0] = loop[0];
  let far = 1, farD = -1;
  for (let i = 1; i < loop.length; i++) {
    const d = (loop[i][0] - x0) ** 2 + (loop[i][1] - y0) ** 2;
    if (d > farD) { farD = d; far = i; }
  }
  const a = simplify(loop.slice(0, far + 1), epsilon);
  const b = simplify([...loop.slice(far), loop[0]], epsilon);
  return [...a, ...b.slice(1, -1)];
}

function area(o: Outline): number {
  let s = 0;
  for (let i = 0; i < o.length; i++) {
    const [x1, y1] = o[i], [x2, y2] = o[(i + 1) % o.length];
    s += x1 * y2 - x2 * y1;
  }
  return Math.abs(s) / 2;
}

/** The outlines of the ink of a picture, in pad units; null when there is no ink, or too
 * much detail (a photograph rather than a signature). */
export function trace(picture: CanvasImageSource, width: number, height: number): Outline[] | null {
  const W = PAD_W, H = PAD_H;
  const c = document.createElement("canvas");
  c.width = W;
  c.height = H;
  const g = c.getContext("2d", { willReadFrequently: true });
  if (!g || !width || !height) return null;
  g.fillStyle = "#fff";
  g.fillRect(0, 0, W, H);
  const scale = Math.min((W - 8) / width, (H - 8) / height);
  const dw = width * scale, dh = height * scale;
  g.drawImage(picture, (W - dw) / 2, (H - dh) / 2, dw, dh);
  const px = g.getImageData(0, 0, W, H).data;
  const lum = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) lum[i] = Math.round(0.299 * px[i * 4] + 0.587 * px[i * 4 + 1] + 0.114 * px[i * 4 + 2]);
  const t = threshold(lum, 190);
  const ink = new Uint8Array(W * H);
  let inked = 0;
  for (let i = 0; i < W * H; i++) if (lum[i] < t) { ink[i] = 1; inked++; }
  // No ink, or mostly ink (a dark photograph): not a signature.
  if (inked < 20 || inked > W * H * 0.5) return null;
  const on = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && ink[y * W + x] === 1;

  // Directed edges between ink and paper, ink on the right, keyed by their start corner.
  const key = (x: number, y: number) => y * (W + 1) + x;
  const edges = new Map<number, number[]>();
  const add = (x1: number, y1: number, x2: number, y2: number) => {
    const k = key(x1, y1);
    const list = edges.get(k);
    if (list) list.push(key(x2, y2));
    else edges.set(k, [key(x2, y2)]);
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!on(x, y)) continue;
      if (!on(x, y - 1)) add(x, y, x + 1, y);
      if (!on(x + 1, y)) add(x + 1, y, x + 1, y + 1);
      if (!on(x, y + 1)) add(x + 1, y + 1, x, y + 1);
      if (!on(x - 1, y)) add(x, y + 1, x, y);
    }
  }
  const outlines: Outline[] = [];
  let points = 0;
  for (const [start, ends] of edges) {
    while (ends.length) {
      const loop: Outline = [];
      let at = start;
      let next = ends.pop()!;
      loop.push([at % (W + 1), Math.floor(at / (W + 1))]);
      while (next !== start) {
        at = next;
        loop.push([at % (W + 1), Math.floor(at / (W + 1))]);
        const out = edges.get(at);
        if (!out || !out.length) break;
        next = out.pop()!;
      }
      const simple = simplifyClosed(loop, 0.75);
      if (simple.length < 3 || area(simple) < 4) continue;
      outlines.push(simple);
      points += simple.length;
      if (points > MAX_POINTS || outlines.length > MAX_PATHS) return null;
    }
  }
  return outlines.length ? outlines : null;
}

/** Outlines as an SVG path (fill-rule evenodd). */
export function outlinePath(paths: Outline[]): string {
  return paths.map((p) => p.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join("") + "Z").join("");
}
