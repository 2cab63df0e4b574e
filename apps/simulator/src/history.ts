import type { IngestFrame } from '@sunwatch/protocol';
import { DataloggerSim } from './datalogger.js';
import type { PlantState } from './plant.js';
import type { DataloggerSpec, FleetSpec } from './types.js';

const DAY_MS = 86_400_000;

export interface HistoryOptions {
  fleet: FleetSpec | DataloggerSpec[];
  /** Days back from `to` (default 7); ignored when `from` is given. */
  days?: number;
  from?: number;
  /** End (exclusive of later samples), default now. */
  to?: number;
  /** Seconds between history samples (default: each datalogger's collect interval). */
  interval?: number;
  /** Resume these plants (keyed by PN) instead of starting fresh; their lastTs bounds `from`. */
  states?: Record<string, PlantState | undefined>;
  /** Frames per batch handed to `onBatch` (default 1000). */
  batchSize?: number;
  /**
   * Receives frames in time order (all dataloggers interleaved). Without it the frames are
   * collected and returned.
   */
  onBatch?: (frames: IngestFrame[]) => Promise<void> | void;
}

export interface HistoryResult {
  /** Number of frames produced. */
  count: number;
  /** Frames, when no `onBatch` was given. */
  frames: IngestFrame[];
  /** The simulators, positioned at their last sample: continue live from here. */
  sims: DataloggerSim[];
  from: number;
  to: number;
}

/**
 * The frames the fleet would have sent over a past period — the same frames a live run
 * produces for those times — computed as fast as the physics allows (no timers, no I/O unless
 * `onBatch` does some).
 */
export async function generateHistory(opts: HistoryOptions): Promise<HistoryResult> {
  const specs = Array.isArray(opts.fleet) ? opts.fleet : opts.fleet.dataloggers;
  const to = opts.to ?? Date.now();
  const from = opts.from ?? to - (opts.days ?? 7) * DAY_MS;
  const batchSize = opts.batchSize ?? 1000;
  const sims = specs.map((s) => new DataloggerSim(structuredClone(s), opts.states?.[s.pn]));
  const stepMs = (sim: DataloggerSim) => (opts.interval ?? sim.spec.collectInterval) * 1000;
  const next = sims.map((sim) => {
    const step = stepMs(sim);
    const after = Math.max(from, sim.lastTs === null ? -Infinity : sim.lastTs + 1);
    return Math.ceil(after / step) * step;
  });
  const frames: IngestFrame[] = [];
  let batch: IngestFrame[] = [];
  let count = 0;
  for (;;) {
    // The earliest pending sample across the fleet (time order, like a real fleet).
    let t = Infinity;
    for (const n of next) if (n < t) t = n;
    if (t > to || t === Infinity) break;
    for (let i = 0; i < sims.length; i++) {
      if (next[i] !== t) continue;
      const f = sims[i]!.frameAt(t);
      count += 1;
      if (opts.onBatch) {
        batch.push(f);
        if (batch.length >= batchSize) {
          await opts.onBatch(batch);
          batch = [];
        }
      } else frames.push(f);
      next[i] = t + stepMs(sims[i]!);
    }
  }
  if (opts.onBatch && batch.length > 0) await opts.onBatch(batch);
  return { count, frames, sims, from, to };
}
