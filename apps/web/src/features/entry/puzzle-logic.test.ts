import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACCURACY,
  MAX_OFFSET,
  PIECE_SIZE,
  PUZZLE_HEIGHT,
  PUZZLE_WIDTH,
  clampAccuracy,
  clampOffset,
  isUniformTrail,
  isWithinTolerance,
  randomGap,
  verifyDrop,
} from './puzzle-logic';
import type { TrailPoint } from './puzzle-logic';

const human: TrailPoint[] = [
  { x: 0, t: 0 },
  { x: 12, t: 16 },
  { x: 40, t: 35 },
  { x: 77, t: 49 },
  { x: 101, t: 80 },
  { x: 110, t: 131 },
  { x: 108, t: 190 },
];

describe('puzzle geometry', () => {
  it('is 352 px wide with a 64 px piece', () => {
    expect(PUZZLE_WIDTH).toBe(352);
    expect(PIECE_SIZE).toBe(64);
    expect(MAX_OFFSET).toBe(288);
  });

  it('keeps offsets inside the track', () => {
    expect(clampOffset(-5)).toBe(0);
    expect(clampOffset(500)).toBe(MAX_OFFSET);
    expect(clampOffset(120.5)).toBe(120.5);
    expect(clampOffset(Number.NaN)).toBe(0);
  });

  it('places random gaps inside the image, away from the start position', () => {
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const gap = randomGap(() => r);
      expect(gap.x).toBeGreaterThanOrEqual(PIECE_SIZE);
      expect(gap.x).toBeLessThanOrEqual(MAX_OFFSET);
      expect(gap.y).toBeGreaterThanOrEqual(0);
      expect(gap.y + PIECE_SIZE).toBeLessThanOrEqual(PUZZLE_HEIGHT);
    }
    expect(randomGap(() => 0).x).not.toBe(randomGap(() => 0.9).x);
  });
});

describe('tolerance', () => {
  it('defaults to 5 px and clamps to 1..10', () => {
    expect(clampAccuracy()).toBe(DEFAULT_ACCURACY);
    expect(clampAccuracy(5)).toBe(5);
    expect(clampAccuracy(0)).toBe(1);
    expect(clampAccuracy(-3)).toBe(1);
    expect(clampAccuracy(0.5)).toBe(1);
    expect(clampAccuracy(11)).toBe(10);
    expect(clampAccuracy(1000)).toBe(10);
    expect(clampAccuracy(7)).toBe(7);
    expect(clampAccuracy(Number.NaN)).toBe(5);
    expect(clampAccuracy(Number.POSITIVE_INFINITY)).toBe(5);
  });

  it('accepts a drop within the tolerance on either side', () => {
    expect(isWithinTolerance(105, 100)).toBe(true);
    expect(isWithinTolerance(95, 100)).toBe(true);
    expect(isWithinTolerance(105.5, 100)).toBe(false);
    expect(isWithinTolerance(94, 100)).toBe(false);
  });

  it('uses the clamped accuracy', () => {
    expect(isWithinTolerance(110, 100, 50)).toBe(true); // clamped to 10
    expect(isWithinTolerance(111, 100, 50)).toBe(false);
    expect(isWithinTolerance(101, 100, 0)).toBe(true); // clamped to 1
    expect(isWithinTolerance(102, 100, 0)).toBe(false);
  });
});

describe('drag trail', () => {
  it('rejects fewer than 3 points', () => {
    expect(isUniformTrail([])).toBe(true);
    expect(isUniformTrail([{ x: 0, t: 0 }])).toBe(true);
    expect(
      isUniformTrail([
        { x: 0, t: 0 },
        { x: 100, t: 50 },
      ]),
    ).toBe(true);
  });

  it('rejects a trail whose steps are all equal in distance and time', () => {
    const bot = Array.from({ length: 11 }, (_, i) => ({ x: i * 10, t: 1000 + i * 16 }));
    expect(isUniformTrail(bot)).toBe(true);
  });

  it('accepts a trail with equal distances but uneven timing', () => {
    const trail = [0, 16, 35, 48, 70].map((t, i) => ({ x: i * 10, t }));
    expect(isUniformTrail(trail)).toBe(false);
  });

  it('accepts a trail with equal timing but uneven distances', () => {
    const trail = [0, 8, 30, 45, 50].map((x, i) => ({ x, t: i * 16 }));
    expect(isUniformTrail(trail)).toBe(false);
  });

  it('accepts a human-like trail', () => {
    expect(isUniformTrail(human)).toBe(false);
  });
});

describe('verifyDrop', () => {
  it('passes a human trail that ends on the gap', () => {
    expect(verifyDrop({ pieceX: 108, gapX: 110, trail: human })).toEqual({ ok: true });
  });

  it('fails a drop away from the gap', () => {
    expect(verifyDrop({ pieceX: 108, gapX: 150, trail: human })).toEqual({ ok: false, reason: 'distance' });
  });

  it('fails a uniform trail even on the gap', () => {
    const bot = Array.from({ length: 12 }, (_, i) => ({ x: i * 10, t: i * 20 }));
    expect(verifyDrop({ pieceX: 110, gapX: 110, trail: bot })).toEqual({ ok: false, reason: 'trail' });
  });
});
