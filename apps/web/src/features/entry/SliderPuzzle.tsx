/**
 * Slider puzzle shown before a sign-in (spec §4 "Slider puzzle"): drag the piece onto the gap.
 * A drop further than the tolerance from the gap, or along a perfectly uniform trail, fails;
 * the puzzle then shows the failure and resets after 1 s with a new gap.
 *
 * Not a security boundary: the gap position is ALWAYS exposed as `data-gap-x` on the track
 * (end-to-end tests read it). The puzzle only adds friction; the server throttles brute force.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import { ArrowRightIcon, CheckIcon, CloseIcon, ReloadIcon } from './icons';
import { useTranslation } from 'react-i18next';
import {
  MAX_OFFSET,
  PIECE_SIZE,
  PUZZLE_HEIGHT,
  PUZZLE_WIDTH,
  RESET_DELAY_MS,
  clampOffset,
  randomGap,
  verifyDrop,
} from './puzzle-logic';
import type { Gap, TrailPoint } from './puzzle-logic';
import { FALLBACK_BACKGROUND, drawPuzzleBackground } from './puzzle-image';
import './entry.css';

export type PuzzleStatus = 'idle' | 'dragging' | 'success' | 'fail';

export interface SliderPuzzleProps {
  /** Tolerance in px between the dropped piece and the gap; default 5, clamped to 1..10. */
  accuracy?: number;
  onSuccess: () => void;
  onFail?: (reason: 'distance' | 'trail') => void;
  /** Random source for the gap and the image (tests pass a fixed one). */
  random?: () => number;
  /** Clock for the drag trail, in ms. */
  now?: () => number;
}

interface Scene {
  gap: Gap;
  seed: number;
}

function newScene(random: () => number): Scene {
  return { gap: randomGap(random), seed: Math.floor(random() * 2 ** 31) };
}

interface Drag {
  /** Where the press was, in the track's layout px. */
  grabX: number;
  /** The piece's offset when the press began. */
  startOffset: number;
  x: number;
  trail: TrailPoint[];
  detach?: () => void;
}

const TRACK_HEIGHT = 40;

export function SliderPuzzle({
  accuracy,
  onSuccess,
  onFail,
  random = Math.random,
  now = () => performance.now(),
}: SliderPuzzleProps) {
  const { t } = useTranslation('entry');
  const [scene, setScene] = useState<Scene>(() => newScene(random));
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState<PuzzleStatus>('idle');
  const drag = useRef<Drag | null>(null);
  const trackRef = useRef<HTMLDivElement | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const image = useMemo(() => drawPuzzleBackground(scene.seed), [scene.seed]);
  const background = image ? `url(${image})` : FALLBACK_BACKGROUND;

  // the latest values for the window listeners attached during a drag
  const latest = useRef({ gapX: scene.gap.x, accuracy, onSuccess, onFail, now });
  useEffect(() => {
    latest.current = { gapX: scene.gap.x, accuracy, onSuccess, onFail, now };
  });

  const reset = useCallback(() => {
    clearTimeout(resetTimer.current);
    resetTimer.current = undefined;
    drag.current?.detach?.();
    drag.current = null;
    setScene(newScene(random));
    setOffset(0);
    setStatus('idle');
  }, [random]);

  useEffect(
    () => () => {
      clearTimeout(resetTimer.current);
      drag.current?.detach?.();
    },
    [],
  );

  const finish = useCallback(() => {
    const d = drag.current;
    if (!d) return;
    d.detach?.();
    drag.current = null;
    const { gapX, accuracy: acc } = latest.current;
    const verdict = verifyDrop({ pieceX: d.x, gapX, trail: d.trail, accuracy: acc });
    if (verdict.ok) {
      setStatus('success');
      latest.current.onSuccess();
      return;
    }
    setStatus('fail');
    latest.current.onFail?.(verdict.reason);
    resetTimer.current = setTimeout(reset, RESET_DELAY_MS);
  }, [reset]);

  const moveTo = useCallback((x: number) => {
    const d = drag.current;
    if (!d) return;
    d.x = clampOffset(x);
    d.trail.push({ x: d.x, t: latest.current.now() });
    setOffset(d.x);
  }, []);

  /**
   * A client x in the track's layout px, measured with the track's geometry of this moment:
   * the dialog may still be zooming in when the press starts (and CSS zoom scales it on narrow
   * screens), so nothing is measured ahead of time and the grabbed point stays under the pointer.
   */
  const layoutX = (clientX: number): number => {
    const r = trackRef.current?.getBoundingClientRect();
    return r && r.width > 0 ? ((clientX - r.left) * PUZZLE_WIDTH) / r.width : clientX;
  };

  // The whole track takes the press (not only the handle, which may still be moving under the
  // pointer while the dialog zooms in); the piece then moves with the pointer.
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (status !== 'idle' || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    const start: Drag = { grabX: layoutX(e.clientX), startOffset: offset, x: offset, trail: [{ x: offset, t: now() }] };
    const onMove = (ev: PointerEvent) => moveTo(start.startOffset + layoutX(ev.clientX) - start.grabX);
    const onUp = () => finish();
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
    start.detach = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
    };
    drag.current = start;
    setStatus('dragging');
  };

  // keyboard: arrows move the piece (Shift for larger steps), Enter or Space drops it
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (status === 'success' || status === 'fail') return;
    const step = e.shiftKey ? 10 : 2;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      if (!drag.current) {
        drag.current = { grabX: 0, startOffset: offset, x: offset, trail: [{ x: offset, t: now() }] };
        setStatus('dragging');
      }
      moveTo(drag.current.x + (e.key === 'ArrowRight' ? step : -step));
    } else if ((e.key === 'Enter' || e.key === ' ') && drag.current) {
      e.preventDefault();
      finish();
    }
  };

  const refresh = () => {
    if (status === 'success') return;
    reset();
  };

  const handleIcon = status === 'success' ? <CheckIcon /> : status === 'fail' ? <CloseIcon /> : <ArrowRightIcon />;

  return (
    <div className="sw-puzzle" style={{ width: PUZZLE_WIDTH }} data-status={status}>
      <div
        className="sw-puzzle-image"
        style={{ width: PUZZLE_WIDTH, height: PUZZLE_HEIGHT, backgroundImage: background }}
        aria-hidden="true"
      >
        <div
          className="sw-puzzle-gap"
          style={{ left: scene.gap.x, top: scene.gap.y, width: PIECE_SIZE, height: PIECE_SIZE }}
        />
        <div
          className="sw-puzzle-piece"
          style={{
            left: offset,
            top: scene.gap.y,
            width: PIECE_SIZE,
            height: PIECE_SIZE,
            backgroundImage: background,
            backgroundSize: `${PUZZLE_WIDTH}px ${PUZZLE_HEIGHT}px`,
            backgroundPosition: `-${scene.gap.x}px -${scene.gap.y}px`,
          }}
        />
        {status === 'success' || status === 'fail' ? (
          <div className={`sw-puzzle-banner sw-puzzle-banner-${status}`} role="status">
            {status === 'success' ? t('puzzle.success') : t('puzzle.fail')}
          </div>
        ) : null}
      </div>
      <button
        type="button"
        className="sw-puzzle-refresh"
        data-testid="puzzle-refresh"
        aria-label={t('puzzle.refresh')}
        title={t('puzzle.refresh')}
        onClick={refresh}
        disabled={status === 'success'}
      >
        <ReloadIcon />
      </button>
      <div
        ref={trackRef}
        className="sw-puzzle-track"
        data-testid="puzzle-track"
        data-gap-x={scene.gap.x}
        data-status={status}
        style={{ width: PUZZLE_WIDTH, height: TRACK_HEIGHT }}
        onPointerDown={onPointerDown}
      >
        <div className="sw-puzzle-fill" style={{ width: offset + PIECE_SIZE / 2 }} />
        <span className="sw-puzzle-hint" style={{ opacity: offset > 8 ? 0 : 1 }}>
          {t('puzzle.hint')}
        </span>
        <div
          className="sw-puzzle-handle"
          data-testid="puzzle-handle"
          role="slider"
          tabIndex={0}
          aria-label={t('puzzle.handle')}
          aria-valuemin={0}
          aria-valuemax={MAX_OFFSET}
          aria-valuenow={Math.round(offset)}
          style={{ left: offset, width: PIECE_SIZE, height: TRACK_HEIGHT }}
          onKeyDown={onKeyDown}
        >
          {handleIcon}
        </div>
      </div>
    </div>
  );
}

export default SliderPuzzle;
