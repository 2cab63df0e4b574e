import { describe, expect, it } from 'vitest';
import { barRects, donutSegments, niceTicks, ringPath } from './geometry';

const TAU = Math.PI * 2;
const ring = { cx: 80, cy: 80, inner: 50, outer: 75 };

describe('donut geometry', () => {
  it('gives the segments shares and angles that sum to the whole circle, in order', () => {
    const segs = donutSegments([3, 1, 4, 2], (v) => v, ring);
    expect(segs.map((s) => s.value)).toEqual([3, 1, 4, 2]);
    expect(segs.reduce((n, s) => n + s.share, 0)).toBeCloseTo(1, 12);
    expect(segs[0]!.start).toBe(0);
    expect(segs.at(-1)!.end).toBeCloseTo(TAU, 12);
    for (let i = 1; i < segs.length; i++) expect(segs[i]!.start).toBeCloseTo(segs[i - 1]!.end, 12);
    // each sweep is proportional to its value: 3 of 10 is 108°
    expect(segs[0]!.end - segs[0]!.start).toBeCloseTo(TAU * 0.3, 12);
    // a segment over half the circle uses the large-arc flag, one under it does not
    expect(segs[2]!.d).toMatch(/A75 75 0 0 1/);
    const big = donutSegments([7, 3], (v) => v, ring);
    expect(big[0]!.d).toMatch(/A75 75 0 1 1/);
    expect(big[1]!.d).toMatch(/A75 75 0 0 1/);
  });

  it('draws no segment for zero, negative or non-finite values, and none at all for a zero total', () => {
    expect(donutSegments([0, 0, 0], (v) => v, ring)).toEqual([]);
    expect(donutSegments([], (v: number) => v, ring)).toEqual([]);
    const segs = donutSegments([0, 5, -2, Number.NaN, 5], (v) => v, ring);
    expect(segs.map((s) => s.value)).toEqual([5, 5]);
    expect(segs[0]!.share).toBe(0.5);
  });

  it('draws a single slice as a full ring with a hole (two closed circles, no gap)', () => {
    const [only, ...rest] = donutSegments([{ v: 9 }], (x) => x.v, { ...ring, gap: 0.05 });
    expect(rest).toEqual([]);
    expect(only!.share).toBe(1);
    expect(only!.end - only!.start).toBeCloseTo(TAU, 12);
    // outer circle through (80,5) and (80,155); inner through (80,30) and (80,130)
    expect(only!.d).toBe('M80 5A75 75 0 1 1 80 155A75 75 0 1 1 80 5ZM80 30A50 50 0 1 0 80 130A50 50 0 1 0 80 30Z');
  });

  it('starts at twelve o’clock and goes clockwise', () => {
    const [a, b] = donutSegments([1, 1], (v) => v, ring);
    // first half: from the top (80,5) to the bottom (80,155) through the right side
    expect(a!.d.startsWith('M80 5A75 75 0 0 1 80 155L80 130')).toBe(true);
    expect(b!.d.startsWith('M80 155A75 75 0 0 1 80 5')).toBe(true);
  });

  it('takes the gap out of each segment, never more than a quarter of a tiny one', () => {
    const segs = donutSegments([999, 1], (v) => v, { ...ring, gap: 0.1 });
    // the angles themselves still tile the circle; only the drawn path is inset
    expect(segs[1]!.end).toBeCloseTo(TAU, 12);
    expect(segs[1]!.d).not.toBe('');
    expect(ringPath(0, 0, 1, 2, 1, 1)).toBe('');
  });
});

describe('bar geometry', () => {
  it('picks nice ticks that cover the maximum', () => {
    expect(niceTicks(7, 4, true)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(1, 4, true)).toEqual([0, 1]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
    const t = niceTicks(0.37);
    expect(t[0]).toBe(0);
    expect(t.at(-1)!).toBeGreaterThanOrEqual(0.37);
    expect(t).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
  });

  it('lays bars in equal slots, scaled to the axis top, zero and negative bars flat on the baseline', () => {
    const box = { x: 10, y: 0, width: 300, height: 100 };
    const bars = barRects([4, 0, 8, -1], box, 8);
    expect(bars).toHaveLength(4);
    expect(bars.map((b) => b.height)).toEqual([50, 0, 100, 0]);
    // bottoms all on the baseline
    for (const b of bars) expect(b.y + b.height).toBe(100);
    // centred in 75 px slots, capped at 36 px wide
    expect(bars[0]!.width).toBe(36);
    expect(bars[0]!.x + 18).toBeCloseTo(10 + 37.5, 9);
    expect(bars[3]!.x + 18).toBeCloseTo(10 + 3 * 75 + 37.5, 9);
    // a narrow plot (phone) gets narrower bars that stay inside their slot
    const narrow = barRects([1, 2, 3, 4, 5, 6, 7], { x: 0, y: 0, width: 140, height: 50 }, 7);
    for (const b of narrow) expect(b.width).toBeLessThanOrEqual(20);
    expect(narrow.at(-1)!.x + narrow.at(-1)!.width).toBeLessThanOrEqual(140);
    expect(barRects([], box, 1)).toEqual([]);
    // an all-zero axis draws nothing tall
    expect(barRects([0, 0], box, 0).map((b) => b.height)).toEqual([0, 0]);
  });
});
