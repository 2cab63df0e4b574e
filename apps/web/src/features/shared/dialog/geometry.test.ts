import { describe, expect, it } from 'vitest';
import { arrowStep, clampOffset, clampSize, DIALOG_MIN_HEIGHT, DIALOG_MIN_WIDTH } from './geometry';

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
