import { activeAlarms, DEVICE_STATUS, energyCounters, powerOf, type DeviceDefinition } from '@sunwatch/protocol';
import { localDay } from '../../shared/local-time.js';
import type { AlarmInfo, RunSample } from './alarm-runs.js';
import type { DayAgg, DayKind, WritePlan } from './ingest-store.js';
import type { DeviceEntry, IngestResult } from './ingest.types.js';

/** One sample of a batch to insert, with what planning needs. */
export interface Candidate {
  /** The answer of the frame it came from (counts stored / duplicates). */
  result: IngestResult;
  dev: DeviceEntry;
  ts: number;
  values: Record<string, number>;
  status: number | undefined;
  data: Uint8Array;
  /** Seconds east of UTC of the device's local days. */
  tz: number;
  /** Number of values. */
  n: number;
  /** The device's firmware version the frame reported (`fw`), if any ('' counts as none). */
  fw?: string | undefined;
}

/** A device whose reported firmware differs from the known one: written by the batch, then cached. */
export interface FirmwareChange {
  dev: DeviceEntry;
  fw: string;
}

/** Counts of a plan, added to the metrics once its transaction committed. */
export interface PlanStats {
  stored: number;
  duplicates: number;
  points: number;
}

/** Status of a device from its sample: the reported status, else the worst active alarm. */
export function deviceStatus(reported: number | undefined, alarms: ReadonlyArray<{ level: number }>): number {
  if (reported !== undefined) return reported;
  let worst = -1;
  for (const a of alarms) worst = Math.max(worst, a.level);
  if (worst >= 2) return DEVICE_STATUS.FAULT;
  if (worst === 1) return DEVICE_STATUS.ERROR;
  if (worst === 0) return DEVICE_STATUS.WARNING;
  return DEVICE_STATUS.NORMAL;
}

const NO_ALARMS: readonly AlarmInfo[] = [];

/**
 * Active alarms of a sample, cheaply: none when every alarm source reads 0 (the usual case); the
 * previous sample's array when the sources read the same (so equal sets share one array and
 * `evaluateAlarmRun` skips them); else the definition's fault table, one entry per code.
 */
function sampleAlarms(
  def: DeviceDefinition,
  values: Record<string, number>,
  prevValues: Record<string, number> | undefined,
  prevAlarms: readonly AlarmInfo[],
): readonly AlarmInfo[] {
  let any = false;
  for (const src of def.alarms) {
    const v = values[src.field];
    if (v !== undefined && v > 0) {
      any = true;
      break;
    }
  }
  if (!any) return NO_ALARMS;
  if (
    prevValues &&
    prevAlarms !== NO_ALARMS &&
    def.alarms.every((src) => prevValues[src.field] === values[src.field])
  ) {
    return prevAlarms;
  }
  const seen = new Set<number>();
  const out: AlarmInfo[] = [];
  for (const a of activeAlarms(def, { values })) {
    if (seen.has(a.code)) continue;
    seen.add(a.code);
    out.push({ level: a.level, code: a.code, description: a.description });
  }
  if (prevAlarms.length === out.length && out.every((a, i) => prevAlarms[i]!.code === a.code)) return prevAlarms;
  return out;
}

/**
 * Pure: the newly inserted samples of a batch (`inserted[i]` for `cands[i]`) → day rollups, latest
 * values, device status and alarm runs (docs/decisions.md, telemetry). A resent sample (not inserted)
 * only counts as a duplicate. A sample ahead of `now` (allowed within INGEST_MAX_FUTURE_MS for clock
 * skew) is stored and rolled up, but never becomes the latest value, the status or an alarm
 * transition. The firmware a device's newest sample reports (`fw`) is planned only when it differs
 * from the known one (`DeviceEntry.firmware`), so an unchanged version costs no statement.
 * Adds to each candidate's `result`; returns the plan, its counts and the planned firmware changes.
 */
export function planWrite(
  cands: readonly Candidate[],
  inserted: readonly boolean[],
  dataloggers: WritePlan['dataloggers'],
  badFrames: WritePlan['badFrames'],
  now: number,
): { plan: WritePlan; stats: PlanStats; firmware: FirmwareChange[] } {
  const days = new Map<string, DayAgg>();
  const runs = new Map<number, Candidate[]>();
  const stats: PlanStats = { stored: 0, duplicates: 0, points: 0 };
  const firmware: FirmwareChange[] = [];
  cands.forEach((c, i) => {
    if (!inserted[i]) {
      c.result.duplicates += 1;
      stats.duplicates += 1;
      return;
    }
    c.result.stored += 1;
    stats.stored += 1;
    const def = c.dev.def;
    stats.points += c.n;
    const day = localDay(c.ts, c.tz);
    const key = `${c.dev.id}|${day}`;
    let agg = days.get(key);
    if (!agg) {
      agg = {
        deviceId: c.dev.id,
        day,
        samples: 0,
        min: { gen: null, chg: null, dis: null, sold: null, bought: null, used: null },
        max: { gen: null, chg: null, dis: null, sold: null, bought: null, used: null },
        peak: null,
        firstTs: c.ts,
        lastTs: c.ts,
      };
      days.set(key, agg);
    }
    agg.samples += 1;
    if (c.ts < agg.firstTs) agg.firstTs = c.ts;
    if (c.ts > agg.lastTs) agg.lastTs = c.ts;
    const counters = energyCounters(def, c);
    const set = (k: DayKind, v: number | undefined) => {
      if (v === undefined) return;
      const lo = agg.min[k];
      const hi = agg.max[k];
      agg.min[k] = lo === null || v < lo ? v : lo;
      agg.max[k] = hi === null || v > hi ? v : hi;
    };
    set('gen', counters.generated);
    set('chg', counters.charged);
    set('dis', counters.discharged);
    set('sold', counters.sold);
    set('bought', counters.bought);
    set('used', counters.used);
    const w = powerOf(def, c, 'pv') ?? powerOf(def, c, 'generator') ?? powerOf(def, c, 'load');
    if (w !== undefined && Number.isFinite(w)) {
      const kw = Math.round(w) / 1000;
      if (agg.peak === null || kw > agg.peak) agg.peak = kw;
    }
    if (c.ts > now) return;
    const run = runs.get(c.dev.id);
    if (run) run.push(c);
    else runs.set(c.dev.id, [c]);
  });

  const plan: WritePlan = {
    days: [...days.values()],
    latest: [],
    devices: [],
    dataloggers,
    badFrames,
  };
  // Every newly inserted sample of a device, in timestamp order, with its active alarms: the
  // store evaluates the transitions against what the database holds (alarm-runs.ts).
  for (const run of runs.values()) {
    for (let i = 1; i < run.length; i++) {
      if (run[i]!.ts < run[i - 1]!.ts) {
        run.sort((a, b) => a.ts - b.ts);
        break;
      }
    }
    const def = run[0]!.dev.def;
    const samples: RunSample[] = new Array<RunSample>(run.length);
    let prevValues: Record<string, number> | undefined;
    let alarms: readonly AlarmInfo[] = NO_ALARMS;
    let anyAlarm = false;
    for (let i = 0; i < run.length; i++) {
      const c = run[i]!;
      alarms = sampleAlarms(def, c.values, prevValues, alarms);
      if (alarms.length > 0) anyAlarm = true;
      samples[i] = { ts: c.ts, alarms };
      prevValues = c.values;
    }
    const c = run[run.length - 1]!;
    plan.latest.push({ deviceId: c.dev.id, ts: c.ts, data: c.data });
    const dev: WritePlan['devices'][number] = {
      id: c.dev.id,
      dataloggerId: c.dev.dataloggerId,
      ts: c.ts,
      status: deviceStatus(c.status, alarms),
      run: samples,
      anyAlarm,
    };
    if (c.fw && c.fw !== c.dev.firmware) {
      dev.firmware = c.fw;
      firmware.push({ dev: c.dev, fw: c.fw });
    }
    plan.devices.push(dev);
  }
  return { plan, stats, firmware };
}
