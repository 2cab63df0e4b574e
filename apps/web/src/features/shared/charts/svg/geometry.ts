/**
 * Pure geometry of the small SVG charts (donut, bars): no DOM, unit-tested. Angles in radians,
 * 0 at twelve o'clock, clockwise (the way people read a pie).
 */

export interface ArcSegment<T> {
  item: T;
  value: number;
  /** Share of the whole, 0…1. */
  share: number;
  start: number;
  end: number;
  /** SVG path of the ring segment (outer arc, then inner arc back). */
  d: string;
}

const TAU = Math.PI * 2;

function point(cx: number, cy: number, r: number, angle: number): [number, number] {
  return [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
}

const fmt = (n: number) => (Math.abs(n) < 1e-9 ? '0' : String(Math.round(n * 1000) / 1000));

/** Path of one ring segment from `start` to `end` between radii `inner` and `outer`. */
export function ringPath(cx: number, cy: number, inner: number, outer: number, start: number, end: number): string {
  const sweep = end - start;
  if (sweep <= 0) return '';
  if (sweep >= TAU - 1e-9) {
    // a full ring: two half arcs per circle (one arc cannot start and end at the same point),
    // the inner circle drawn the other way round so even-odd and non-zero both leave the hole
    const [ox, oy] = point(cx, cy, outer, 0);
    const [ox2, oy2] = point(cx, cy, outer, Math.PI);
    const [ix, iy] = point(cx, cy, inner, 0);
    const [ix2, iy2] = point(cx, cy, inner, Math.PI);
    return [
      `M${fmt(ox)} ${fmt(oy)}`,
      `A${fmt(outer)} ${fmt(outer)} 0 1 1 ${fmt(ox2)} ${fmt(oy2)}`,
      `A${fmt(outer)} ${fmt(outer)} 0 1 1 ${fmt(ox)} ${fmt(oy)}Z`,
      `M${fmt(ix)} ${fmt(iy)}`,
      `A${fmt(inner)} ${fmt(inner)} 0 1 0 ${fmt(ix2)} ${fmt(iy2)}`,
      `A${fmt(inner)} ${fmt(inner)} 0 1 0 ${fmt(ix)} ${fmt(iy)}Z`,
    ].join('');
  }
  const large = sweep > Math.PI ? 1 : 0;
  const [x1, y1] = point(cx, cy, outer, start);
  const [x2, y2] = point(cx, cy, outer, end);
  const [x3, y3] = point(cx, cy, inner, end);
  const [x4, y4] = point(cx, cy, inner, start);
  return [
    `M${fmt(x1)} ${fmt(y1)}`,
    `A${fmt(outer)} ${fmt(outer)} 0 ${large} 1 ${fmt(x2)} ${fmt(y2)}`,
    `L${fmt(x3)} ${fmt(y3)}`,
    `A${fmt(inner)} ${fmt(inner)} 0 ${large} 0 ${fmt(x4)} ${fmt(y4)}`,
    'Z',
  ].join('');
}

/**
 * Ring segments of the positive values, in order, together covering the whole circle. Zero,
 * negative and non-finite values get no segment; an all-zero input gives none (the caller
 * shows an empty state). `gap` (radians) is left between neighbouring segments when there
 * are several.
 */
export function donutSegments<T>(
  items: readonly T[],
  valueOf: (item: T) => number,
  { cx, cy, inner, outer, gap = 0 }: { cx: number; cy: number; inner: number; outer: number; gap?: number },
): ArcSegment<T>[] {
  const kept = items
    .map((item) => ({ item, value: valueOf(item) }))
    .filter((x) => Number.isFinite(x.value) && x.value > 0);
  const total = kept.reduce((s, x) => s + x.value, 0);
  if (total <= 0) return [];
  const pad = kept.length > 1 ? gap : 0;
  let at = 0;
  return kept.map(({ item, value }) => {
    const share = value / total;
    const start = at;
    const end = at + share * TAU;
    at = end;
    // the gap is taken out of each segment's own sweep, never more than half of it
    const inset = Math.min(pad / 2, (end - start) / 4);
    return { item, value, share, start, end, d: ringPath(cx, cy, inner, outer, start + inset, end - inset) };
  });
}

/** A "nice" axis maximum and its ticks (1, 2, 5 × 10ⁿ steps) for values ≥ 0; integers if asked. */
export function niceTicks(max: number, count = 4, integer = false): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step0 = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const step = integer ? Math.max(1, Math.ceil(step0)) : step0;
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(Math.round(v * 1e9) / 1e9);
  return ticks;
}

export interface BarRect {
  index: number;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Bars of `values` in the plot box (x0, y0, width, height), each centred in its equal slot,
 * at most `maxBar` wide, scaled to `top` (the axis maximum). Negative and non-finite values
 * are drawn as 0.
 */
export function barRects(
  values: readonly number[],
  box: { x: number; y: number; width: number; height: number },
  top: number,
  maxBar = 36,
): BarRect[] {
  const n = values.length;
  if (n === 0) return [];
  const slot = box.width / n;
  const width = Math.max(1, Math.min(maxBar, slot * 0.6));
  return values.map((raw, index) => {
    const value = Number.isFinite(raw) && raw > 0 ? raw : 0;
    const h = top > 0 ? (Math.min(value, top) / top) * box.height : 0;
    return {
      index,
      value,
      x: box.x + slot * index + (slot - width) / 2,
      y: box.y + box.height - h,
      width,
      height: h,
    };
  });
}
