import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../i18n';
import { SliderPuzzle } from './SliderPuzzle';
import { RESET_DELAY_MS } from './puzzle-logic';

beforeAll(async () => {
  // jsdom has no 2D canvas; the puzzle then falls back to a CSS gradient
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  await i18n.changeLanguage('en_US');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A random source cycling through the given values. */
function cycle(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

/** A clock whose steps are irregular, like a hand's. */
function humanClock(): () => number {
  const steps = [0, 17, 9, 31, 14, 22, 40, 12, 27, 55];
  let t = 1000;
  let i = 0;
  return () => (t += steps[i++ % steps.length]!);
}

function track() {
  return screen.getByTestId('puzzle-track');
}

function gapX(): number {
  return Number(track().getAttribute('data-gap-x'));
}

/** Presses the handle at clientX 10, moves through `xs` (offsets), releases. */
function drag(xs: number[]) {
  const handle = screen.getByTestId('puzzle-handle');
  fireEvent.pointerDown(handle, { clientX: 10, button: 0, pointerType: 'mouse' });
  for (const x of xs) fireEvent.pointerMove(window, { clientX: 10 + x });
  fireEvent.pointerUp(window, { clientX: 10 + (xs.at(-1) ?? 0) });
}

describe('SliderPuzzle', () => {
  it('exposes the handle, the track with the gap x, and the refresh control', () => {
    render(<SliderPuzzle onSuccess={() => {}} random={cycle(0.5)} />);
    expect(screen.getByTestId('puzzle-handle')).toBeTruthy();
    expect(screen.getByTestId('puzzle-refresh')).toBeTruthy();
    expect(Number.isFinite(gapX())).toBe(true);
    expect(gapX()).toBeGreaterThan(64);
  });

  it('succeeds when dropped on the gap along an uneven trail', () => {
    const onSuccess = vi.fn();
    const onFail = vi.fn();
    render(<SliderPuzzle onSuccess={onSuccess} onFail={onFail} random={cycle(0.4)} now={humanClock()} />);
    const target = gapX();
    drag([5, 23, 60, target - 20, target + 4, target + 1]);
    expect(onFail).not.toHaveBeenCalled();
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(track().getAttribute('data-status')).toBe('success');
    expect(screen.getByText('Verified')).toBeTruthy();
  });

  it('honours the accuracy prop (clamped to 1..10)', () => {
    const onSuccess = vi.fn();
    render(<SliderPuzzle onSuccess={onSuccess} accuracy={40} random={cycle(0.4)} now={humanClock()} />);
    const target = gapX();
    drag([7, 30, target - 30, target + 12]); // 12 px off: beyond the clamped 10
    expect(onSuccess).not.toHaveBeenCalled();
    expect(track().getAttribute('data-status')).toBe('fail');
  });

  it('rejects a perfectly uniform trail even on the gap', () => {
    const onSuccess = vi.fn();
    const onFail = vi.fn();
    let t = 0;
    render(<SliderPuzzle onSuccess={onSuccess} onFail={onFail} random={cycle(0.4)} now={() => (t += 16)} />);
    const target = gapX();
    const steps = 8;
    drag(Array.from({ length: steps }, (_, i) => (target * (i + 1)) / steps));
    expect(onSuccess).not.toHaveBeenCalled();
    expect(onFail).toHaveBeenCalledWith('trail');
  });

  it('shows the failure, then resets after 1 s with a new gap', () => {
    vi.useFakeTimers();
    const onFail = vi.fn();
    render(<SliderPuzzle onSuccess={() => {}} onFail={onFail} random={cycle(0.1, 0.2, 0.8, 0.9)} now={humanClock()} />);
    const first = gapX();
    drag([3, 11, 30]);
    expect(onFail).toHaveBeenCalledWith('distance');
    expect(track().getAttribute('data-status')).toBe('fail');
    expect(screen.getByText('Not quite. Try again')).toBeTruthy();
    expect(screen.getByTestId('puzzle-handle').getAttribute('aria-valuenow')).toBe('30');

    act(() => {
      vi.advanceTimersByTime(RESET_DELAY_MS - 1);
    });
    expect(track().getAttribute('data-status')).toBe('fail');

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(track().getAttribute('data-status')).toBe('idle');
    expect(screen.getByTestId('puzzle-handle').getAttribute('aria-valuenow')).toBe('0');
    expect(gapX()).not.toBe(first);
  });

  it('ignores presses while showing a failure', () => {
    vi.useFakeTimers();
    const onFail = vi.fn();
    render(<SliderPuzzle onSuccess={() => {}} onFail={onFail} random={cycle(0.3)} now={humanClock()} />);
    drag([2, 9]);
    drag([4, 20, 50]);
    expect(onFail).toHaveBeenCalledTimes(1);
  });

  it('regenerates the gap on refresh', () => {
    render(<SliderPuzzle onSuccess={() => {}} random={cycle(0.1, 0.2, 0.8, 0.9)} />);
    const first = gapX();
    fireEvent.click(screen.getByTestId('puzzle-refresh'));
    expect(gapX()).not.toBe(first);
    expect(track().getAttribute('data-status')).toBe('idle');
  });

  it('accepts a drag that starts while the dialog is still zooming in (geometry read live)', () => {
    const onSuccess = vi.fn();
    const onFail = vi.fn();
    render(<SliderPuzzle onSuccess={onSuccess} onFail={onFail} random={cycle(0.4)} now={humanClock()} />);
    const target = gapX();
    const el = track();
    const rect = (left: number, width: number) =>
      ({ left, x: left, top: 0, y: 0, width, height: 40, right: left + width, bottom: 40, toJSON: () => ({}) }) as DOMRect;
    // mid zoom-in: half size around the final centre (176 px)
    const geometry = vi.spyOn(el, 'getBoundingClientRect').mockReturnValue(rect(88, 176));
    // a press on the track just beside the still-small handle (layout x 80 > the 64 px piece)
    fireEvent.pointerDown(el, { clientX: 88 + 40, button: 0, pointerType: 'mouse' });
    expect(el.getAttribute('data-status')).toBe('dragging');
    // the zoom ends: full size; the grabbed point (80 px into the track) follows the pointer
    geometry.mockReturnValue(rect(0, 352));
    for (const x of [90, 104, 131, target + 30, target + 84, target + 80]) fireEvent.pointerMove(window, { clientX: x });
    fireEvent.pointerUp(window, { clientX: target + 80 });
    expect(onFail).not.toHaveBeenCalled();
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(el.getAttribute('data-status')).toBe('success');
  });

  it('can be solved with the keyboard', () => {
    const onSuccess = vi.fn();
    render(<SliderPuzzle onSuccess={onSuccess} random={cycle(0.4)} now={humanClock()} />);
    const handle = screen.getByTestId('puzzle-handle');
    const target = gapX();
    while (Number(handle.getAttribute('aria-valuenow')) + 10 <= target)
      fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    while (Number(handle.getAttribute('aria-valuenow')) < target) fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'Enter' });
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });
});
