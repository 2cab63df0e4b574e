import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { arrowStep, resizeBy, type Box, type Offset, type Size } from './geometry';
import { followPointer, viewport } from './pointer';

export interface DialogResize {
  /** The size set by a resize (undefined until one, and always on a compact screen). */
  size: Size | undefined;
  /** The corner grip's pointerdown: follows the pointer until it is released. */
  startResize: (e: ReactPointerEvent<HTMLElement>) => void;
  /** The corner grip's arrow keys: 16 px per press. */
  keyResize: (e: KeyboardEvent<HTMLElement>) => void;
  /** Back to the natural size (a new opening, a screen that became compact). */
  reset: () => void;
  /** A move ends the resize's anchoring (the box may go where it is dragged). */
  releaseAnchor: () => void;
}

/**
 * The resize half of a draggable dialog, shared by the app's `DraggableModal` (antd) and the
 * entry page's own dialogs (no antd): the lower right corner grip resizes, never below 400 × 300
 * nor past the viewport, and the upper left corner stays where the resize started. A centred box
 * re-centres itself when its size changes, so the offset is shifted back after each layout.
 * `fallbackWidth` is the width assumed before the box is measured.
 */
export function useDialogResize(
  box: RefObject<HTMLDivElement | null>,
  compact: boolean,
  setOffset: Dispatch<SetStateAction<Offset>>,
  fallbackWidth: number,
): DialogResize {
  const [size, setSize] = useState<Size | undefined>();
  /** During a resize: where the upper left corner must stay. */
  const anchor = useRef<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const at = anchor.current;
    const r = box.current?.getBoundingClientRect();
    if (!at || !r || !size) return;
    const dx = at.left - r.left;
    const dy = at.top - r.top;
    if (Math.abs(dx) > 0.01 || Math.abs(dy) > 0.01) setOffset((o) => ({ x: o.x + dx, y: o.y + dy }));
  }, [size, box, setOffset]);

  const startBox = (): Box => {
    const r = box.current?.getBoundingClientRect();
    const b = r
      ? { left: r.left, top: r.top, width: r.width, height: r.height }
      : { left: 0, top: 0, width: fallbackWidth, height: 300 };
    anchor.current = { left: b.left, top: b.top };
    return size ? { ...b, ...size } : b;
  };

  const startResize = (e: ReactPointerEvent<HTMLElement>) => {
    if (compact || e.button !== 0) return;
    e.stopPropagation();
    const from = startBox();
    followPointer(e, (dx, dy) => setSize(resizeBy(from, dx, dy, viewport())));
  };

  const keyResize = (e: KeyboardEvent<HTMLElement>) => {
    const step = compact ? undefined : arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setSize(resizeBy(startBox(), step[0], step[1], viewport()));
  };

  const reset = useCallback(() => {
    anchor.current = null;
    setSize(undefined);
  }, []);
  const releaseAnchor = useCallback(() => {
    anchor.current = null;
  }, []);

  return { size: compact ? undefined : size, startResize, keyResize, reset, releaseAnchor };
}
