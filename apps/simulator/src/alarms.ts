import { getDefinition, type DeviceDefinition, type FaultDef } from '@sunwatch/protocol';
import { hashString, rand } from './models/random.js';
import type { DataloggerSpec, DeviceSpec } from './types.js';

/** An alarm a device reports during a spell: the fault and the field value(s) that carry it. */
export interface DeviceAlarm extends FaultDef {
  /** Field id → raw value to report (a code, or a bit mask). */
  fields: Record<string, number>;
}

const HOUR_MS = 3_600_000;

/** Faults of a definition that its alarm sources can carry, with the field value for each. */
export function reportableFaults(def: DeviceDefinition): DeviceAlarm[] {
  const out: DeviceAlarm[] = [];
  const seen = new Set<number>();
  for (const src of def.alarms) {
    for (const f of def.faults) {
      if (seen.has(f.code)) continue;
      if (src.mode === 'code') {
        out.push({ ...f, fields: { [src.field]: f.code } });
        seen.add(f.code);
      } else {
        const bit = f.code - src.base;
        if (bit >= 0 && bit < 16) {
          out.push({ ...f, fields: { [src.field]: 2 ** bit } });
          seen.add(f.code);
        }
      }
    }
  }
  return out;
}

/**
 * The alarm (if any) a device reports at `ts`. Per device and hour there is a small chance of a
 * warning spell and a smaller one of a fault spell (level ≥ 1), 10–40 minutes inside that hour.
 * Deterministic in (PN, SN, hour).
 */
export function alarmAt(spec: DataloggerSpec, dev: DeviceSpec, ts: number): DeviceAlarm | null {
  const def = getDefinition(dev.devcode);
  if (!def) return null;
  const forced = spec.faults?.[dev.sn];
  if (forced !== undefined) {
    const f = reportableFaults(def).find((x) => x.code === forced);
    if (f) return f;
  }
  const seed = hashString(`${spec.pn}/${dev.sn}`);
  const hour = Math.floor(ts / HOUR_MS);
  const minute = (ts - hour * HOUR_MS) / 60_000;
  const spell = (salt: number, rate: number): boolean => {
    if (rand(seed, hour, salt) >= rate) return false;
    const start = Math.floor(rand(seed, hour, salt + 1) * 30);
    const len = 10 + Math.floor(rand(seed, hour, salt + 2) * 30);
    return minute >= start && minute < start + len;
  };
  const pick = (levels: number[], salt: number): DeviceAlarm | null => {
    const list = reportableFaults(def).filter((f) => levels.includes(f.level));
    if (list.length === 0) return null;
    return list[Math.floor(rand(seed, hour, salt) * list.length)] ?? null;
  };
  if (spell(20, spec.faultRate ?? 0.002)) return pick([1, 2], 23);
  if (spell(30, spec.warningRate ?? 0.01)) return pick([0], 33);
  return null;
}

/**
 * Forces a fault on a device of a datalogger (reported from its next sample on), or clears it with
 * `null` (the device reports normally again). Throws when the device's definition cannot carry
 * that code. Returns the fault.
 */
export function forceFault(spec: DataloggerSpec, sn: string, code: number | null): DeviceAlarm | null {
  const dev = spec.devices.find((d) => d.sn === sn);
  if (!dev) throw new Error(`${spec.pn} has no device ${sn}`);
  if (code === null) {
    if (spec.faults) delete spec.faults[sn];
    return null;
  }
  const def = getDefinition(dev.devcode);
  const fault = def ? reportableFaults(def).find((f) => f.code === code) : undefined;
  if (!fault) throw new Error(`devcode ${dev.devcode} cannot report fault ${code}`);
  spec.faults = { ...spec.faults, [sn]: code };
  return fault;
}

/** Device status reported in the frame (DEVICE_STATUS): 0 normal, 2 fault, 5 error, 4 warning. */
export function statusOf(alarm: DeviceAlarm | null): number {
  if (!alarm) return 0;
  return alarm.level === 2 ? 2 : alarm.level === 1 ? 5 : 4;
}

/** Offline spells of a datalogger: true when it is cut off from the server at `ts`. */
export function offlineAt(spec: DataloggerSpec, ts: number): boolean {
  const rate = spec.offlineRate ?? 0.01;
  if (rate <= 0) return false;
  const seed = hashString(`${spec.pn}/offline`);
  const hour = Math.floor(ts / HOUR_MS);
  const minute = (ts - hour * HOUR_MS) / 60_000;
  // A spell that started in this hour or the previous one (spells may cross the hour).
  for (const h of [hour, hour - 1]) {
    if (rand(seed, h, 1) >= rate) continue;
    const start = (h - hour) * 60 + Math.floor(rand(seed, h, 2) * 50);
    const len = 5 + Math.floor(rand(seed, h, 3) * 35);
    if (minute >= start && minute < start + len) return true;
  }
  return false;
}
