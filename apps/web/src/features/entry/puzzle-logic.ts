/**
 * Pure logic of the login slider puzzle (spec §4 "Slider puzzle", §9): geometry, tolerance,
 * and the drag-trail check. Kept free of React and the DOM so it can be unit-tested.
 *
 * The puzzle is UX friction against careless scripted sign-in attempts, not a security
 * boundary: the server throttles brute force (error 13). That is why the gap position is
 * exposed in the DOM for end-to-end tests.
 */

/** Width of the puzzle image and of the slider track, in CSS pixels. */
export const PUZZLE_WIDTH = 352;
/** Height of the puzzle image. */
export const PUZZLE_HEIGHT = 176;
/** Edge length of the square puzzle piece (and of the slider handle). */
export const PIECE_SIZE = 64;
/** Furthest left offset the piece (and the handle) can reach. */
export const MAX_OFFSET = PUZZLE_WIDTH - PIECE_SIZE;
/** Default tolerance between the dropped piece and the gap. */
export const DEFAULT_ACCURACY = 5;
export const MIN_ACCURACY = 1;
export const MAX_ACCURACY = 10;
/** Delay before a failed puzzle resets (spec §9 "puzzle reset delay 1 s"). */
export const RESET_DELAY_MS = 1000;

/** Margin kept between the gap and the image edges. */
const EDGE = 8;

export interface Gap {
  x: number;
  y: number;
}

export interface TrailPoint {
  /** Left offset of the piece, in px. */
  x: number;
  /** Timestamp in ms (performance.now() or Date.now()). */
  t: number;
}

export type PuzzleVerdict = { ok: true } | { ok: false; reason: 'distance' | 'trail' };

/** Tolerance in px: the given accuracy, default 5, clamped to 1..10. */
export function clampAccuracy(accuracy?: number): number {
  if (accuracy === undefined || !Number.isFinite(accuracy)) return DEFAULT_ACCURACY;
  return Math.min(MAX_ACCURACY, Math.max(MIN_ACCURACY, accuracy));
}

/** Keeps a piece offset inside the track. */
export function clampOffset(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(MAX_OFFSET, Math.max(0, x));
}

/**
 * A random gap position. The gap never overlaps the piece's start position (x ≥ one piece
 * plus a margin), so a drop without moving can never succeed.
 */
export function randomGap(random: () => number = Math.random): Gap {
  const minX = PIECE_SIZE + 2 * EDGE;
  const maxX = MAX_OFFSET - EDGE;
  const minY = EDGE;
  const maxY = PUZZLE_HEIGHT - PIECE_SIZE - EDGE;
  return {
    x: Math.round(minX + random() * (maxX - minX)),
    y: Math.round(minY + random() * (maxY - minY)),
  };
}

/** Whether the dropped piece sits on the gap within the (clamped) tolerance. */
export function isWithinTolerance(pieceX: number, gapX: number, accuracy?: number): boolean {
  return Math.abs(pieceX - gapX) <= clampAccuracy(accuracy);
}

const EPSILON = 1e-6;

/**
 * A bot signature: fewer than 3 points, or every step of the trail equal in both distance and
 * time (a scripted linear move). Human trails are irregular in at least one of the two.
 */
export function isUniformTrail(trail: readonly TrailPoint[]): boolean {
  if (trail.length < 3) return true;
  const first = trail[0]!;
  const second = trail[1]!;
  const dx0 = second.x - first.x;
  const dt0 = second.t - first.t;
  for (let i = 2; i < trail.length; i++) {
    const prev = trail[i - 1]!;
    const cur = trail[i]!;
    if (Math.abs(cur.x - prev.x - dx0) > EPSILON || Math.abs(cur.t - prev.t - dt0) > EPSILON) return false;
  }
  return true;
}

/** The verdict on one drop: distance first, then the shape of the trail. */
export function verifyDrop(input: {
  pieceX: number;
  gapX: number;
  trail: readonly TrailPoint[];
  accuracy?: number;
}): PuzzleVerdict {
  if (!isWithinTolerance(input.pieceX, input.gapX, input.accuracy)) return { ok: false, reason: 'distance' };
  if (isUniformTrail(input.trail)) return { ok: false, reason: 'trail' };
  return { ok: true };
}
