import { getDefinition } from '@sunwatch/protocol';
import { balance } from './models/battery.js';
import { loadPower } from './models/load.js';
import { pvPower, siteConditions, type SiteConditions } from './models/pv.js';
import { hashString } from './models/random.js';
import type { DataloggerSpec, DeviceSpec } from './types.js';
import { alarmAt, type DeviceAlarm } from './alarms.js';
import { policyOf, type DeviceSettings } from './settings.js';

/** Devcodes that produce PV power (their share of the array). */
export const PV_DEVCODES: ReadonlySet<number> = new Set([2341, 2376, 2428, 5121, 5122]);
/** Off-grid / hybrid inverters that carry the battery and the load. */
export const HYBRID_DEVCODES: ReadonlySet<number> = new Set([2341, 2376, 2428]);

export interface Counters {
  /** Plant level, kWh. */
  load: number;
  imported: number;
  exported: number;
  charged: number;
  discharged: number;
}

export interface DeviceState {
  /** Energy this device generated, kWh (cumulative). */
  generated: number;
  /** Energy generated today (local day `todayDay`), kWh. */
  today: number;
  todayDay: number;
  runningHours: number;
}

/** Everything that persists between frames (JSON-serialisable, so a fleet can resume). */
export interface PlantState {
  lastTs: number | null;
  seq: number;
  soc: number;
  counters: Counters;
  devices: Record<string, DeviceState>;
  /** Settings written by `ctrl` commands (issue 10, settings.ts); absent = factory defaults. */
  settings?: DeviceSettings;
}

/** Instantaneous view of a plant at a sample time (what the devices measure). */
export interface Snapshot {
  ts: number;
  cond: SiteConditions;
  /** PV AC power per PV device (W), after faults and curtailment. */
  pvByDevice: Record<string, number>;
  /** PV power the array could deliver per device (before curtailment), W. */
  pvAvailByDevice: Record<string, number>;
  pvW: number;
  loadW: number;
  /** + discharge / − charge. */
  batteryW: number;
  /** + import / − export. */
  gridW: number;
  soc: number;
  counters: Counters;
  alarms: Record<string, DeviceAlarm | null>;
}

const DAY_MS = 86_400_000;

export function seedOf(spec: DataloggerSpec): number {
  return spec.seed ?? hashString(spec.pn);
}

export function localDay(ms: number, tzOffsetS: number): number {
  return Math.floor((ms + tzOffsetS * 1000) / DAY_MS);
}

function pvShares(spec: DataloggerSpec): Map<string, number> {
  const pv = spec.devices.filter((d) => PV_DEVCODES.has(d.devcode));
  const total = pv.reduce((s, d) => s + (getDefinition(d.devcode)?.ratedPower ?? 1), 0);
  return new Map(pv.map((d) => [d.sn, (getDefinition(d.devcode)?.ratedPower ?? 1) / total]));
}

/**
 * A fresh plant state at `startTs`: counters as if the plant had been running for a while
 * (installed 120–900 days earlier), half-charged battery.
 */
export function initialState(spec: DataloggerSpec): PlantState {
  const seed = seedOf(spec);
  const ageDays = 120 + (seed % 780);
  const pvDaily = spec.system.pvKWp * 3.4;
  const loadDaily = spec.system.load.dailyKWh;
  const cap = spec.system.battery?.capacityKWh ?? 0;
  const shares = pvShares(spec);
  const selfUse = Math.min(pvDaily, loadDaily) * 0.6;
  const devices: Record<string, DeviceState> = {};
  for (const d of spec.devices) {
    devices[d.sn] = {
      generated: round1(pvDaily * ageDays * (shares.get(d.sn) ?? 0)),
      today: 0,
      todayDay: -1,
      runningHours: PV_DEVCODES.has(d.devcode) ? Math.round(ageDays * 10.5) : 0,
    };
  }
  return {
    lastTs: null,
    seq: 0,
    soc: spec.system.battery ? Math.min(spec.system.battery.maxSoc, Math.max(spec.system.battery.minSoc, 55)) : 0,
    counters: {
      load: round1(loadDaily * ageDays),
      imported: round1(Math.max(0, loadDaily - selfUse) * ageDays),
      exported: spec.system.exportAllowed ? round1(Math.max(0, pvDaily - selfUse) * ageDays) : 0,
      charged: round1(cap * 0.7 * ageDays),
      discharged: round1(cap * 0.7 * 0.92 * ageDays),
    },
    devices,
  };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * The plant's powers at `ts` for a step of `dtS` seconds; updates `state` (SOC, counters).
 * Powers are taken at the end of the step and held for its length.
 */
export function stepPlant(spec: DataloggerSpec, state: PlantState, ts: number, dtS: number): Snapshot {
  const seed = seedOf(spec);
  const site = { lat: spec.site.lat, lon: spec.site.lon, tzOffset: spec.site.tzOffset, seed };
  const cond = siteConditions(site, ts);
  const shares = pvShares(spec);
  const alarms: Record<string, DeviceAlarm | null> = {};
  for (const d of spec.devices) alarms[d.sn] = alarmAt(spec, d, ts);
  const hybridRated = spec.devices
    .filter((d) => HYBRID_DEVCODES.has(d.devcode))
    .reduce((s, d) => s + (getDefinition(d.devcode)?.ratedPower ?? 0), 0);
  const pvAvailTotal = pvPower(
    { kWp: spec.system.pvKWp, acLimitW: sumRated(spec.devices.filter((d) => PV_DEVCODES.has(d.devcode))) },
    cond.poa,
    cond.ambientC,
  );
  const policy = policyOf(spec, state.settings);
  const pvAvailByDevice: Record<string, number> = {};
  let pvAvail = 0;
  for (const [sn, share] of shares) {
    const faulted = alarms[sn]?.level === 2;
    const dev = spec.devices.find((d) => d.sn === sn);
    const cap = policy.pvCap[sn];
    const capW = cap === undefined || !dev ? Infinity : cap * (getDefinition(dev.devcode)?.ratedPower ?? 0);
    const w = faulted ? 0 : Math.min(capW, pvAvailTotal * share);
    pvAvailByDevice[sn] = w;
    pvAvail += w;
  }
  const loadW = loadPower(
    { ...spec.system.load, maxW: spec.system.load.maxW ?? (hybridRated > 0 ? hybridRated * 0.9 : undefined) },
    seed,
    ts,
    spec.site.tzOffset,
  );
  const b = balance({
    pvW: pvAvail,
    loadW,
    dtS,
    soc: state.soc,
    battery: spec.system.battery ? { ...spec.system.battery, ...policy.battery } : undefined,
    exportAllowed: spec.system.exportAllowed,
    priority: policy.priority,
    gridChargeW: policy.gridChargeW,
  });
  // Curtailment is spread over the PV devices in proportion to what they could deliver.
  const ratio = pvAvail > 0 ? b.pvW / pvAvail : 0;
  const pvByDevice: Record<string, number> = {};
  for (const [sn, w] of Object.entries(pvAvailByDevice)) pvByDevice[sn] = w * ratio;

  const h = dtS / 3600;
  state.soc = b.soc;
  const c = state.counters;
  c.load += (b.loadW * h) / 1000;
  c.imported += (Math.max(0, b.gridW) * h) / 1000;
  c.exported += (Math.max(0, -b.gridW) * h) / 1000;
  c.charged += b.chargedKWh;
  c.discharged += b.dischargedKWh;
  const day = localDay(ts, spec.site.tzOffset);
  for (const d of spec.devices) {
    const ds = (state.devices[d.sn] ??= { generated: 0, today: 0, todayDay: day, runningHours: 0 });
    if (ds.todayDay !== day) {
      ds.todayDay = day;
      ds.today = 0;
    }
    const w = pvByDevice[d.sn] ?? 0;
    ds.generated += (w * h) / 1000;
    ds.today += (w * h) / 1000;
    if (w > 0) ds.runningHours += h;
  }
  return {
    ts,
    cond,
    pvByDevice,
    pvAvailByDevice,
    pvW: b.pvW,
    loadW: b.loadW,
    batteryW: b.batteryW,
    gridW: b.gridW,
    soc: b.soc,
    counters: { ...c },
    alarms,
  };
}

function sumRated(devices: DeviceSpec[]): number {
  return devices.reduce((s, d) => s + (getDefinition(d.devcode)?.ratedPower ?? 0), 0);
}

/**
 * Advances a plant to `ts`: steps of at most the collect interval from the last sample (so a
 * long gap is integrated as it would have been measured), and returns the snapshot at `ts`.
 */
export function advancePlant(spec: DataloggerSpec, state: PlantState, ts: number): Snapshot {
  const interval = spec.collectInterval * 1000;
  if (state.lastTs === null) state.lastTs = ts - interval;
  if (ts <= state.lastTs) throw new RangeError(`${spec.pn}: sample time ${ts} is not after ${state.lastTs}`);
  let t = state.lastTs;
  while (ts - t > interval) {
    stepPlant(spec, state, t + interval, spec.collectInterval);
    t += interval;
  }
  const snap = stepPlant(spec, state, ts, (ts - t) / 1000);
  state.lastTs = ts;
  return snap;
}
