import {
  applyScale,
  encodeRegisters,
  fieldIndex,
  getDefinition,
  type DeviceDefinition,
  type IngestDevice,
} from '@sunwatch/protocol';
import type { FieldValues } from './devices.js';
import type { DeviceSpec } from './types.js';

/** Largest / smallest raw value of a field's register. */
function rawBounds(words: number, signed: boolean | undefined): [number, number] {
  const bits = 16 * words;
  return signed ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
}

/**
 * Values as the device's registers would hold them: rounded to the field's scale and clamped to
 * its register and plausible range; enum labels stay labels. This is exactly what the decoder
 * gives back.
 */
export function quantise(def: DeviceDefinition, values: FieldValues): FieldValues {
  const index = fieldIndex(def);
  const out: FieldValues = {};
  for (const [id, v] of Object.entries(values)) {
    const f = index.get(id);
    if (!f) throw new RangeError(`devcode ${def.devcode}: unknown field ${id}`);
    if (typeof v === 'string') {
      out[id] = v;
      continue;
    }
    const [lo, hi] = rawBounds(f.register.words, f.register.signed);
    let raw = Math.min(hi, Math.max(lo, Math.round((Number.isFinite(v) ? v : 0) / f.scale)));
    if (f.min !== undefined) raw = Math.max(raw, Math.ceil(f.min / f.scale - 1e-9));
    if (f.max !== undefined) raw = Math.min(raw, Math.floor(f.max / f.scale + 1e-9));
    out[id] = applyScale(raw, f.scale);
  }
  return out;
}

/** Field values as the decoder reports them: enum labels turned into their raw states. */
export function numericValues(def: DeviceDefinition, values: FieldValues): Record<string, number> {
  const index = fieldIndex(def);
  const out: Record<string, number> = {};
  for (const [id, v] of Object.entries(values)) {
    if (typeof v === 'number') {
      out[id] = v;
      continue;
    }
    const f = index.get(id);
    const key = f?.enum ? Object.entries(f.enum).find(([, label]) => label === v)?.[0] : undefined;
    if (key === undefined) throw new RangeError(`${id}: ${v} is not a state of the field`);
    out[id] = Number(key);
  }
  return out;
}

/** One device entry of an IngestFrame, as registers or as named values per the device spec. */
export function deviceEntry(dev: DeviceSpec, values: FieldValues, status: number): IngestDevice {
  const def = getDefinition(dev.devcode);
  if (!def) throw new RangeError(`unknown devcode ${dev.devcode}`);
  const q = quantise(def, values);
  const base = { devcode: dev.devcode, devaddr: dev.devaddr, sn: dev.sn, status };
  if (dev.encoding === 'registers') return { ...base, registers: encodeRegisters(def, q) };
  return { ...base, values: q };
}
