import { applyScale, type DeviceDefinition, type FieldDef } from '@sunwatch/protocol';

/**
 * Compact binary form of one device sample (the `data` column of `samples` / `device_latest`).
 *
 * Layout, for a definition with F fields (in definition order, `def.fields`):
 *
 *   [ presence bitmap: ceil(F / 8) bytes, bit i (LSB first) of byte i>>3 = field i present ]
 *   [ for each present field, in field order: its raw register words, big-endian,
 *     1 word (2 bytes) or 2 words (4 bytes) per `field.register.words` ]
 *
 * raw = round(value / scale), two's complement when `register.signed`, exactly what the
 * datalogger sent, so decoding yields `applyScale(raw, scale)` — the decoder's own value.
 * A value that does not fit its register (or is not finite) is left out.
 * A 100-field device with 1-word fields costs 13 + 200 bytes (~2.1 bytes per value).
 *
 * Definitions may only ever append fields (never reorder or remove), so old samples stay readable.
 */

interface Layout {
  fields: readonly FieldDef[];
  bitmapBytes: number;
  index: Map<string, number>;
  words: Uint8Array;
  min: Float64Array;
  max: Float64Array;
}

const LAYOUTS = new WeakMap<DeviceDefinition, Layout>();

function layoutOf(def: DeviceDefinition): Layout {
  let l = LAYOUTS.get(def);
  if (!l) {
    const n = def.fields.length;
    const words = new Uint8Array(n);
    const min = new Float64Array(n);
    const max = new Float64Array(n);
    def.fields.forEach((f, i) => {
      const w = f.register.words;
      words[i] = w;
      const bits = 16 * w;
      min[i] = f.register.signed ? -(2 ** (bits - 1)) : 0;
      max[i] = f.register.signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    });
    l = {
      fields: def.fields,
      bitmapBytes: (n + 7) >> 3,
      index: new Map(def.fields.map((f, i) => [f.id, i])),
      words,
      min,
      max,
    };
    LAYOUTS.set(def, l);
  }
  return l;
}

/** Encodes scaled values keyed by field id; unknown ids and values that do not fit are skipped. */
export function encodeSample(def: DeviceDefinition, values: Record<string, number>): Uint8Array {
  const l = layoutOf(def);
  const n = l.fields.length;
  const raws = new Float64Array(n);
  const present = new Uint8Array(n);
  let size = l.bitmapBytes;
  for (let i = 0; i < n; i++) {
    const v = values[l.fields[i]!.id];
    if (v === undefined || !Number.isFinite(v)) continue;
    const raw = Math.round(v / l.fields[i]!.scale);
    if (raw < l.min[i]! || raw > l.max[i]!) continue;
    raws[i] = raw;
    present[i] = 1;
    size += 2 * l.words[i]!;
  }
  // A (pooled) Buffer: binds to SQLite/pg without a copy or a wrapper.
  const out = Buffer.allocUnsafe(size).fill(0, 0, l.bitmapBytes);
  let p = l.bitmapBytes;
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    out[i >> 3]! |= 1 << (i & 7);
    let raw = raws[i]!;
    if (l.words[i] === 1) {
      if (raw < 0) raw += 0x10000;
      out[p++] = raw >>> 8;
      out[p++] = raw & 0xff;
    } else {
      if (raw < 0) raw += 0x100000000;
      out[p++] = (raw >>> 24) & 0xff;
      out[p++] = (raw >>> 16) & 0xff;
      out[p++] = (raw >>> 8) & 0xff;
      out[p++] = raw & 0xff;
    }
  }
  return out;
}

/** Decodes `encodeSample` output back to scaled values keyed by field id. Throws on a truncated sample. */
export function decodeSample(def: DeviceDefinition, data: Uint8Array): Record<string, number> {
  const l = layoutOf(def);
  const n = l.fields.length;
  const out: Record<string, number> = {};
  let p = l.bitmapBytes;
  if (data.length < p) throw new RangeError(`sample of ${data.length} bytes is shorter than its bitmap (${p})`);
  for (let i = 0; i < n; i++) {
    if (!(data[i >> 3]! & (1 << (i & 7)))) continue;
    const f = l.fields[i]!;
    let raw: number;
    if (l.words[i] === 1) {
      if (p + 2 > data.length) throw new RangeError(`sample truncated at field ${f.id}`);
      raw = (data[p]! << 8) | data[p + 1]!;
      p += 2;
      if (f.register.signed && raw >= 0x8000) raw -= 0x10000;
    } else {
      if (p + 4 > data.length) throw new RangeError(`sample truncated at field ${f.id}`);
      raw = ((data[p]! << 24) >>> 0) + (data[p + 1]! << 16) + (data[p + 2]! << 8) + data[p + 3]!;
      p += 4;
      if (f.register.signed && raw >= 0x80000000) raw -= 0x100000000;
    }
    out[f.id] = applyScale(raw, f.scale);
  }
  return out;
}

/** Reads one field of an encoded sample without decoding the rest; undefined when absent. */
export function sampleField(def: DeviceDefinition, data: Uint8Array, id: string): number | undefined {
  const l = layoutOf(def);
  const target = l.index.get(id);
  if (target === undefined || !(data[target >> 3]! & (1 << (target & 7)))) return undefined;
  let p = l.bitmapBytes;
  for (let i = 0; i < target; i++) if (data[i >> 3]! & (1 << (i & 7))) p += 2 * l.words[i]!;
  const f = l.fields[target]!;
  let raw: number;
  if (l.words[target] === 1) {
    raw = (data[p]! << 8) | data[p + 1]!;
    if (f.register.signed && raw >= 0x8000) raw -= 0x10000;
  } else {
    raw = ((data[p]! << 24) >>> 0) + (data[p + 1]! << 16) + (data[p + 2]! << 8) + data[p + 3]!;
    if (f.register.signed && raw >= 0x80000000) raw -= 0x100000000;
  }
  return applyScale(raw, f.scale);
}
