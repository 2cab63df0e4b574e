/**
 * Device alarm transitions over the newly inserted samples of one device in one write batch
 * (issue 3 fix: every sample counts, not only the newest). Pure; both ingest stores call it inside
 * the batch transaction with what the database holds for the device:
 *
 * - `storedLatest`: the device's `last_sample_at` before the batch (null: no sample yet);
 * - `open`: the codes of its open device alarms (level < 3).
 *
 * Rule (README "Telemetry ingestion"):
 * - samples NEWER than `storedLatest` continue the current state in timestamp order: a code opens
 *   at the first sample where it is active and not open, an open code closes at the first sample
 *   where it is gone. After the run the open set is exactly the newest sample's codes, as before.
 * - samples at or OLDER than `storedLatest` (a backfill or a late resend) never touch the current
 *   state: among themselves, in timestamp order, a code that appears at one of them (absent at the
 *   previous one) and is gone at a later one is a closed historical episode; a code active at the
 *   first or still active at the last of these old samples is ignored (its start or end is unknown).
 */

export interface AlarmInfo {
  level: number;
  code: number;
  description: string;
}

export interface RunSample {
  ts: number;
  /** Active alarms of the sample (codes unique). */
  alarms: readonly AlarmInfo[];
}

export interface AlarmRunResult {
  /**
   * Changes of the current state in time order (apply in this order): `open` set → open that alarm
   * at `ts` (unless already open); else close the open alarm of `code` at `ts`.
   */
  transitions: Array<{ ts: number; code: number; open?: AlarmInfo }>;
  /** Closed historical episodes from old samples. */
  episodes: Array<AlarmInfo & { start: number; end: number }>;
}

/** `samples` in ascending ts. */
export function evaluateAlarmRun(
  samples: readonly RunSample[],
  storedLatest: number | null,
  open: ReadonlySet<number>,
): AlarmRunResult {
  const out: AlarmRunResult = { transitions: [], episodes: [] };
  let i = 0;
  if (storedLatest !== null) {
    // Old samples: episodes with both ends inside the run.
    const started = new Map<number, { info: AlarmInfo; start: number } | null>();
    let prev: readonly AlarmInfo[] | undefined;
    for (; i < samples.length && samples[i]!.ts <= storedLatest; i++) {
      const s = samples[i]!;
      if (s.alarms !== prev) {
        const now = new Set<number>();
        for (const a of s.alarms) {
          now.add(a.code);
          if (!started.has(a.code)) started.set(a.code, i === 0 ? null : { info: a, start: s.ts });
        }
        for (const [code, st] of started) {
          if (now.has(code)) continue;
          if (st) out.episodes.push({ ...st.info, start: st.start, end: s.ts });
          started.delete(code);
        }
        prev = s.alarms;
      }
    }
  }
  // New samples: continue the current state.
  const state = new Set(open);
  let prev: readonly AlarmInfo[] | undefined;
  for (; i < samples.length; i++) {
    const s = samples[i]!;
    if (s.alarms === prev) continue;
    prev = s.alarms;
    const now = new Set<number>();
    for (const a of s.alarms) {
      now.add(a.code);
      if (!state.has(a.code)) {
        state.add(a.code);
        out.transitions.push({ ts: s.ts, code: a.code, open: a });
      }
    }
    for (const code of state) {
      if (now.has(code)) continue;
      state.delete(code);
      out.transitions.push({ ts: s.ts, code });
    }
  }
  return out;
}
