/**
 * The entry page's own dialogs (experience code, apply, notice, app download), draggable by
 * their title bar and resizable from the lower right corner like the app's dialogs (spec §2
 * "Dialogs: draggable and resizable, minimum 400 x 300"). The same antd-free geometry and
 * pointer helpers as `DraggableModal` (features/shared/dialog), so the entry page's first load
 * stays without antd. Mouse, pen or touch; keyboard: the title bar and the grip take the focus,
 * arrow keys move or resize by 16 px. A resize keeps the upper left corner in place. On a screen
 * narrower than the minimum (a phone) nothing moves. Position and size start afresh at each opening.
 */
import {
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { arrowStep, clampOffset, resizeBy, type Box, type Offset, type Size } from '../shared/dialog/geometry';
import { followPointer, useCompactScreen, viewport } from '../shared/dialog/pointer';

export interface MovableDialog {
  box: React.RefObject<HTMLDivElement | null>;
  /** The dialog box's style: its offset and, once resized, its size. */
  style: CSSProperties;
  /** Props of the title bar (the drag handle). */
  handle: {
    onPointerDown?: (e: ReactPointerEvent<HTMLElement>) => void;
    onKeyDown?: (e: KeyboardEvent<HTMLElement>) => void;
    tabIndex?: number;
    'aria-label'?: string;
    style?: CSSProperties;
    'data-testid': string;
  };
  /** The body's style: it scrolls once the box has a set height. */
  bodyStyle: CSSProperties | undefined;
  /** The corner grip (null on a compact screen). */
  grip: React.ReactElement | null;
}

export function useMovableDialog(labels: { move: string; resize: string }, width?: number): MovableDialog {
  const compact = useCompactScreen();
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 });
  const [size, setSize] = useState<Size>();
  const box = useRef<HTMLDivElement | null>(null);
  /** During a resize: where the upper left corner must stay (the mask centres the box otherwise). */
  const anchor = useRef<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const at = anchor.current;
    const r = box.current?.getBoundingClientRect();
    if (!at || !r || !size) return;
    const dx = at.left - r.left;
    const dy = at.top - r.top;
    if (Math.abs(dx) > 0.01 || Math.abs(dy) > 0.01) setOffset((o) => ({ x: o.x + dx, y: o.y + dy }));
  }, [size]);

  const baseRect = (at: Offset) => {
    const r = box.current?.getBoundingClientRect();
    return r ? { left: r.left - at.x, top: r.top - at.y, width: r.width } : { left: 0, top: 0, width: 0 };
  };

  const startMove = (e: ReactPointerEvent<HTMLElement>) => {
    // The close button inside the title bar stays a button.
    if (compact || e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
    const from = offset;
    const base = baseRect(from);
    anchor.current = null;
    followPointer(e, (dx, dy) => setOffset(clampOffset({ x: from.x + dx, y: from.y + dy }, base, viewport())));
  };

  const keyMove = (e: KeyboardEvent<HTMLElement>) => {
    const step = compact || e.target !== e.currentTarget ? undefined : arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    anchor.current = null;
    setOffset(clampOffset({ x: offset.x + step[0], y: offset.y + step[1] }, baseRect(offset), viewport()));
  };

  const startBox = (): Box => {
    const r = box.current?.getBoundingClientRect();
    const b = r
      ? { left: r.left, top: r.top, width: r.width, height: r.height }
      : { left: 0, top: 0, width: width ?? 440, height: 300 };
    anchor.current = { left: b.left, top: b.top };
    return size ? { ...b, ...size } : b;
  };

  const startResize = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (compact || e.button !== 0) return;
    e.stopPropagation();
    const from = startBox();
    followPointer(e, (dx, dy) => setSize(resizeBy(from, dx, dy, viewport())));
  };

  const keyResize = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = compact ? undefined : arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setSize(resizeBy(startBox(), step[0], step[1], viewport()));
  };

  const shown = compact ? undefined : size;
  const moved = compact ? { x: 0, y: 0 } : offset;
  return {
    box,
    style: {
      position: 'relative',
      width: shown ? shown.width : width,
      ...(shown ? { height: shown.height, display: 'flex', flexDirection: 'column', overflow: 'hidden' } : {}),
      ...(moved.x || moved.y ? { transform: `translate(${moved.x}px, ${moved.y}px)`, animation: 'none' } : {}),
    },
    handle: compact
      ? { 'data-testid': 'dialog-drag-handle' }
      : {
          onPointerDown: startMove,
          onKeyDown: keyMove,
          tabIndex: 0,
          'aria-label': labels.move,
          style: { cursor: 'move', userSelect: 'none', touchAction: 'none' },
          'data-testid': 'dialog-drag-handle',
        },
    bodyStyle: shown ? { flex: '1 1 auto', minHeight: 0, overflow: 'auto' } : undefined,
    grip: compact ? null : (
      <div
        className="sw-dialog-resize"
        data-testid="dialog-resize-handle"
        role="separator"
        tabIndex={0}
        aria-label={labels.resize}
        onPointerDown={startResize}
        onKeyDown={keyResize}
      />
    ),
  };
}
