import { useEffect, useState } from 'react';
import { isCompact, type Size } from './geometry';

export function viewport(): Size {
  return { width: window.innerWidth, height: window.innerHeight };
}

/** Whether the screen is too narrow to drag or resize dialogs (geometry's isCompact), kept current. */
export function useCompactScreen(): boolean {
  const [compact, setCompact] = useState(() => isCompact(viewport()));
  useEffect(() => {
    const onResize = () => setCompact(isCompact(viewport()));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return compact;
}

/**
 * Follows one pointer drag from its pointerdown: `onMove` gets the travel since the start. The
 * pointerdown's default is NOT prevented (that would suppress the compatibility mousedown that,
 * for one, closes an open Select dropdown of the dialog); text selection is held off by
 * `user-select: none` on the document for the drag's length instead.
 */
export function followPointer(start: { clientX: number; clientY: number; pointerId: number }, onMove: (dx: number, dy: number) => void): void {
  const root = document.documentElement;
  const before = root.style.userSelect;
  root.style.userSelect = 'none';
  root.classList.add('sw-dragging');
  const move = (ev: PointerEvent) => {
    if (ev.pointerId !== start.pointerId) return;
    onMove(ev.clientX - start.clientX, ev.clientY - start.clientY);
  };
  const end = (ev: PointerEvent) => {
    if (ev.pointerId !== start.pointerId) return;
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    root.style.userSelect = before;
    root.classList.remove('sw-dragging');
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}
