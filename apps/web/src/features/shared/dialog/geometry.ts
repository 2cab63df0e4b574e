/**
 * Geometry of the draggable, resizable dialogs (spec §2 "Dialogs: draggable and resizable,
 * minimum 400 x 300"), as pure functions for the wrapper and its tests.
 */
export const DIALOG_MIN_WIDTH = 400;
export const DIALOG_MIN_HEIGHT = 300;
/** Space kept free around a dialog at the viewport's edge. */
export const DIALOG_MARGIN = 8;
/** One arrow-key step (move or resize). */
export const DIALOG_KEY_STEP = 16;

export interface Size {
  width: number;
  height: number;
}
export interface Offset {
  x: number;
  y: number;
}
/** A dialog's box on the screen (as getBoundingClientRect gives it). */
export interface Box extends Size {
  left: number;
  top: number;
}

/**
 * A screen too narrow for the minimum dialog (a phone): there the dialog fills the width and is
 * neither dragged nor resized, as a 400 px minimum would not fit.
 */
export function isCompact(viewport: Size): boolean {
  return viewport.width < DIALOG_MIN_WIDTH + 2 * DIALOG_MARGIN;
}

/**
 * A requested size held between the minimum (400 × 300) and the viewport. On a viewport
 * narrower (or lower) than the minimum plus margins, the viewport wins: a phone at 360 px gets a
 * dialog as wide as the screen, never one wider.
 */
export function clampSize(size: Size, viewport: Size): Size {
  const maxW = Math.max(0, viewport.width - 2 * DIALOG_MARGIN);
  const maxH = Math.max(0, viewport.height - 2 * DIALOG_MARGIN);
  return {
    width: Math.round(Math.min(maxW, Math.max(Math.min(DIALOG_MIN_WIDTH, maxW), size.width))),
    height: Math.round(Math.min(maxH, Math.max(Math.min(DIALOG_MIN_HEIGHT, maxH), size.height))),
  };
}

/**
 * The size a drag of the lower right grip asks for: the box as it was when the drag started
 * (`start`), grown by the pointer's travel (`dx`, `dy`). The upper left corner stays where it
 * is, so the grip follows the pointer; the box never grows past the viewport's right or bottom
 * edge (a box already past it may shrink, not grow) and never shrinks below 400 × 300.
 */
export function resizeBy(start: Box, dx: number, dy: number, viewport: Size): Size {
  const roomW = viewport.width - DIALOG_MARGIN - start.left;
  const roomH = viewport.height - DIALOG_MARGIN - start.top;
  return clampSize(
    {
      width: Math.min(start.width + dx, Math.max(roomW, start.width)),
      height: Math.min(start.height + dy, Math.max(roomH, start.height)),
    },
    viewport,
  );
}

/**
 * An offset that keeps the dialog's title bar reachable: `rect` is where the dialog sits at
 * offset 0 (its untransformed box). At least 48 px of it stay inside the viewport horizontally,
 * and its top never leaves the viewport.
 */
export function clampOffset(offset: Offset, rect: { left: number; top: number; width: number }, viewport: Size): Offset {
  const keep = Math.min(48, rect.width);
  const minX = keep - (rect.left + rect.width);
  const maxX = viewport.width - keep - rect.left;
  const minY = -rect.top;
  const maxY = viewport.height - 48 - rect.top;
  return {
    x: Math.round(Math.min(maxX, Math.max(minX, offset.x))),
    y: Math.round(Math.min(Math.max(minY, maxY), Math.max(minY, offset.y))),
  };
}

/** The step of an arrow key ([dx, dy]), or undefined for other keys. */
export function arrowStep(key: string, step = DIALOG_KEY_STEP): [number, number] | undefined {
  switch (key) {
    case 'ArrowLeft':
      return [-step, 0];
    case 'ArrowRight':
      return [step, 0];
    case 'ArrowUp':
      return [0, -step];
    case 'ArrowDown':
      return [0, step];
    default:
      return undefined;
  }
}
