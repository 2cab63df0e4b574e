import { createContext, useCallback, useContext, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { arrowStep, clampOffset, type Offset } from './geometry';
import { followPointer, useCompactScreen, viewport } from './pointer';

const ZERO: Offset = { x: 0, y: 0 };

/**
 * A dialog's drag offset: the title bar's pointerdown (or an arrow key on it) moves the box
 * `box` points at, held so that its title stays reachable (geometry's clampOffset).
 */
export function useDialogMove(enabled: boolean) {
  const [offset, setOffset] = useState<Offset>(ZERO);
  const box = useRef<HTMLDivElement>(null);

  /** The box without the offset `at` (where it sits at offset 0). */
  const baseRect = useCallback((at: Offset) => {
    const r = box.current?.getBoundingClientRect();
    return r ? { left: r.left - at.x, top: r.top - at.y, width: r.width } : { left: 0, top: 0, width: 0 };
  }, []);

  const startMove = (e: PointerEvent<HTMLElement>) => {
    if (!enabled || e.button !== 0) return;
    const from = offset;
    const base = baseRect(from);
    followPointer(e, (dx, dy) => setOffset(clampOffset({ x: from.x + dx, y: from.y + dy }, base, viewport())));
  };

  const keyMove = (e: KeyboardEvent<HTMLElement>) => {
    const step = enabled ? arrowStep(e.key) : undefined;
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setOffset(clampOffset({ x: offset.x + step[0], y: offset.y + step[1] }, baseRect(offset), viewport()));
  };

  return { offset: enabled ? offset : ZERO, setOffset, box, startMove, keyMove };
}

interface MoveHandlers {
  enabled: boolean;
  startMove: (e: PointerEvent<HTMLElement>) => void;
  keyMove: (e: KeyboardEvent<HTMLElement>) => void;
}
const MoveContext = createContext<MoveHandlers | undefined>(undefined);

/**
 * A dialog's title as its drag handle (mouse, touch, or the arrow keys once focused). Inside a
 * `DialogFrame` it needs no props but its content; `DraggableModal` passes its own handlers.
 */
export function DialogHandle({ children, handlers }: { children?: ReactNode; handlers?: MoveHandlers }) {
  const { t } = useTranslation();
  const context = useContext(MoveContext);
  const h = handlers ?? context;
  const on = !!h?.enabled;
  return (
    <div
      className={on ? 'sw-dialog-handle sw-dialog-handle-on' : 'sw-dialog-handle'}
      data-testid="dialog-drag-handle"
      tabIndex={on ? 0 : undefined}
      aria-label={on ? t('personal:dialog.move') : undefined}
      aria-roledescription={on ? t('personal:dialog.moveRole') : undefined}
      onPointerDown={on ? h?.startMove : undefined}
      onKeyDown={on ? h?.keyMove : undefined}
      style={on ? { cursor: 'move', userSelect: 'none', touchAction: 'none', minHeight: 22 } : { minHeight: 22 }}
    >
      {children ?? '\u00a0'}
    </div>
  );
}

/**
 * The movable box around a dialog rendered elsewhere (the `modalRender` of an imperative
 * confirm): its `DialogHandle` drags it. Not resizable: a confirm is a short question, the
 * 400 × 300 minimum of the resizable dialogs would only pad it with blank space.
 */
export function DialogFrame({ children }: { children: ReactNode }) {
  const compact = useCompactScreen();
  const move = useDialogMove(!compact);
  return (
    <MoveContext.Provider value={{ enabled: !compact, startMove: move.startMove, keyMove: move.keyMove }}>
      <div
        ref={move.box}
        className="sw-dmodal"
        data-testid="confirm-box"
        style={{ position: 'relative', transform: `translate(${move.offset.x}px, ${move.offset.y}px)` }}
      >
        {children}
      </div>
    </MoveContext.Provider>
  );
}
