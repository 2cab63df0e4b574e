import { describe, expect, it } from 'vitest';
import { arrowStep, clampOffset, clampSize, DIALOG_MIN_HEIGHT, DIALOG_MIN_WIDTH, isCompact, resizeBy } from './geometry';

const desktop = { width: 1280, height: 800 };

describe('dialog geometry', () => {
  it('never sizes a dialog below 400 × 300 on a desktop, nor beyond the viewport', () => {
    expect(clampSize({ width: 100, height: 50 }, desktop)).toEqual({ width: DIALOG_MIN_WIDTH, height: DIALOG_MIN_HEIGHT });
    expect(clampSize({ width: 640, height: 480 }, desktop)).toEqual({ width: 640, height: 480 });
    expect(clampSize({ width: 5000, height: 5000 }, desktop)).toEqual({ width: 1264, height: 784 });
  });

  it('gives a phone narrower than the minimum a dialog as wide as its screen', () => {
    expect(clampSize({ width: 100, height: 100 }, { width: 360, height: 740 })).toEqual({ width: 344, height: 300 });
  });

  it('resizes from the grip with the upper left corner fixed: the box follows the pointer', () => {
    const start = { left: 360, top: 100, width: 560, height: 420 };
    expect(resizeBy(start, 90, 60, desktop)).toEqual({ width: 650, height: 480 });
    expect(resizeBy(start, -40, -20, desktop)).toEqual({ width: 520, height: 400 });
  });

  it('clamps a grip drag at 400 × 300 when dragged smaller', () => {
    const start = { left: 360, top: 100, width: 560, height: 420 };
    expect(resizeBy(start, -400, -400, desktop)).toEqual({ width: 400, height: 300 });
  });

  it('never grows a dialog past the right or bottom edge of the viewport', () => {
    const start = { left: 360, top: 100, width: 560, height: 420 };
    // room: 1280 - 8 - 360 = 912 wide, 800 - 8 - 100 = 692 high
    expect(resizeBy(start, 2000, 2000, desktop)).toEqual({ width: 912, height: 692 });
    // a dialog already past the edge may shrink but not grow
    const past = { left: 900, top: 600, width: 560, height: 420 };
    expect(resizeBy(past, 50, 50, desktop)).toEqual({ width: 560, height: 420 });
    expect(resizeBy(past, -60, -60, desktop)).toEqual({ width: 500, height: 360 });
    // the minimum wins over the room left at the right edge
    expect(resizeBy({ left: 1100, top: 100, width: 420, height: 320 }, -100, 0, desktop).width).toBe(400);
  });

  it('treats a screen narrower than the minimum dialog as compact (no drag, no resize)', () => {
    expect(isCompact({ width: 360, height: 740 })).toBe(true);
    expect(isCompact({ width: 415, height: 740 })).toBe(true);
    expect(isCompact({ width: 416, height: 740 })).toBe(false);
    expect(isCompact(desktop)).toBe(false);
  });

  it('keeps the title bar reachable when dragged', () => {
    const rect = { left: 440, top: 100, width: 400 };
    expect(clampOffset({ x: 50, y: 20 }, rect, desktop)).toEqual({ x: 50, y: 20 });
    expect(clampOffset({ x: -5000, y: -5000 }, rect, desktop)).toEqual({ x: 48 - 840, y: -100 });
    expect(clampOffset({ x: 5000, y: 5000 }, rect, desktop)).toEqual({ x: 1280 - 48 - 440, y: 800 - 48 - 100 });
  });

  it('maps arrow keys to steps', () => {
    expect(arrowStep('ArrowLeft')).toEqual([-16, 0]);
    expect(arrowStep('ArrowDown', 10)).toEqual([0, 10]);
    expect(arrowStep('Enter')).toBeUndefined();
  });
});
