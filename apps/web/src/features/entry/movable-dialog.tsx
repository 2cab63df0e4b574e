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
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { arrowStep, clampOffset, type Offset } from '../shared/dialog/geometry';
import { followPointer, useCompactScreen, viewport } from '../shared/dialog/pointer';
import { useDialogResize } from '../shared/dialog/use-dialog-resize';

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
  const box = useRef<HTMLDivElement | null>(null);
  const { size: shown, startResize, keyResize, releaseAnchor } = useDialogResize(box, compact, setOffset, width ?? 440);

  const baseRect = (at: Offset) => {
    const r = box.current?.getBoundingClientRect();
    return r ? { left: r.left - at.x, top: r.top - at.y, width: r.width } : { left: 0, top: 0, width: 0 };
  };

  const startMove = (e: ReactPointerEvent<HTMLElement>) => {
    // The close button inside the title bar stays a button.
    if (compact || e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
    const from = offset;
    const base = baseRect(from);
    releaseAnchor();
    followPointer(e, (dx, dy) => setOffset(clampOffset({ x: from.x + dx, y: from.y + dy }, base, viewport())));
  };

  const keyMove = (e: KeyboardEvent<HTMLElement>) => {
    const step = compact || e.target !== e.currentTarget ? undefined : arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    releaseAnchor();
    setOffset(clampOffset({ x: offset.x + step[0], y: offset.y + step[1] }, baseRect(offset), viewport()));
  };

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
