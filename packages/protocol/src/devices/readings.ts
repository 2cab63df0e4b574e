import type { DecodedDevice } from './decoder.js';
import { fieldIndex } from './registry.js';
import {
  ENERGY_COUNTERS,
  type DeviceDefinition,
  type EnergyCounterName,
  type FaultDef,
  type KeyParameter,
  type PowerNode,
  type PowerSource,
} from './types.js';

type Values = Pick<DecodedDevice, 'values'>;

const UNIT_FACTORS: Record<string, { base: string; factor: number }> = {
  w: { base: 'w', factor: 1 },
  kw: { base: 'w', factor: 1000 },
  mw: { base: 'w', factor: 1e6 },
  va: { base: 'va', factor: 1 },
  kva: { base: 'va', factor: 1000 },
  var: { base: 'var', factor: 1 },
  kvar: { base: 'var', factor: 1000 },
  wh: { base: 'wh', factor: 1 },
  kwh: { base: 'wh', factor: 1000 },
  mwh: { base: 'wh', factor: 1e6 },
};

/**
 * Converts between units of one quantity (W↔kW, VA↔kVA, Wh↔kWh; same unit in another case,
 * e.g. "HZ"→"Hz", is the identity). Unrelated units → the value unchanged.
 */
export function convertUnit(value: number, from: string | undefined, to: string | undefined): number {
  if (!from || !to) return value;
  const a = UNIT_FACTORS[from.toLowerCase()];
  const b = UNIT_FACTORS[to.toLowerCase()];
  if (!a || !b || a.base !== b.base) return value;
  return (value * a.factor) / b.factor;
}

function valueIn(def: DeviceDefinition, d: Values, id: string, unit: string): number | undefined {
  const f = fieldIndex(def).get(id);
  const v = d.values[id];
  return f && v !== undefined ? convertUnit(v, f.unit, unit) : undefined;
}

/** A power source → W in Sunwatch's convention, or undefined when its fields are missing. */
export function evalPowerSource(def: DeviceDefinition, src: PowerSource, d: Values): number | undefined {
  const sign = src.sign ?? 1;
  if ('field' in src) {
    const w = valueIn(def, d, src.field, 'W');
    return w === undefined ? undefined : w * sign;
  }
  const v = d.values[src.voltage];
  const i = d.values[src.current];
  if (v === undefined || i === undefined) return undefined;
  const neg = src.currentNeg ? (d.values[src.currentNeg] ?? 0) : 0;
  return v * (i - neg) * sign;
}

/**
 * Power of a node in W, Sunwatch convention: grid + import / − export, battery + discharge /
 * − charge, pv/load/generator ≥ 0. Undefined when the device has no such node or no data.
 */
export function powerOf(def: DeviceDefinition, d: Values, node: PowerNode): number | undefined {
  const src = def.power[node];
  return src ? evalPowerSource(def, src, d) : undefined;
}

/** Cumulative counters (kWh) present in a sample, keyed generated/charged/discharged/sold/bought/used. */
export function energyCounters(def: DeviceDefinition, d: Values): Partial<Record<EnergyCounterName, number>> {
  const out: Partial<Record<EnergyCounterName, number>> = {};
  for (const name of ENERGY_COUNTERS) {
    const id = def.energy[name];
    const v = id === undefined ? undefined : valueIn(def, d, id, 'kWh');
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Value of a querySPKeyParameters key in the key's unit (powers via `power`, Sunwatch sign). */
export function keyParameterValue(def: DeviceDefinition, d: Values, key: KeyParameter): number | undefined {
  const k = def.keyParameters.find((p) => p.key === key);
  if (!k) return undefined;
  if (k.field !== undefined) return valueIn(def, d, k.field, k.unit);
  const w = k.power ? powerOf(def, d, k.power) : undefined;
  return w === undefined ? undefined : convertUnit(w, 'W', k.unit);
}

/** An active alarm of a sample: the fault table entry, or an unknown code at error level. */
export interface ActiveAlarm extends FaultDef {
  field: string;
  known: boolean;
}

/** Alarm codes active in a sample, from the definition's alarm sources (code 0 = none). */
export function activeAlarms(def: DeviceDefinition, d: Values): ActiveAlarm[] {
  const table = new Map(def.faults.map((f) => [f.code, f]));
  const out: ActiveAlarm[] = [];
  const push = (code: number, field: string) => {
    const f = table.get(code);
    out.push(
      f
        ? { ...f, field, known: true }
        : { code, level: 1, description: `Unknown alarm code ${code}`, field, known: false },
    );
  };
  for (const src of def.alarms) {
    const v = d.values[src.field];
    if (v === undefined || !Number.isInteger(v) || v <= 0) continue;
    if (src.mode === 'code') push(v, src.field);
    else for (let bit = 0; bit < 32; bit++) if (Math.floor(v / 2 ** bit) % 2 === 1) push(src.base + bit, src.field);
  }
  return out;
}
