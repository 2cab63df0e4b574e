import type { DeviceDefinition, FieldDef } from './types.js';
import type { IngestDevice, RegisterBlock } from './frame.js';
import { fieldIndex } from './registry.js';

/** A device sample decoded with its definition. */
export interface DecodedDevice {
  /** Field id → scaled numeric value (enum fields: the raw state number). */
  values: Record<string, number>;
  /** Field id → label, for enum fields whose value is a known state. */
  labels: Record<string, string>;
  /** Everything that was wrong with the input; decoding never throws. */
  errors: string[];
}

/** Number of decimals a scale carries (0.1 → 1, 0.001 → 2… 3, 10 → 0). */
export function scaleDecimals(scale: number): number {
  const s = String(scale);
  const exp = /e-(\d+)$/.exec(s);
  if (exp) {
    const mant = s.split('e')[0]!;
    return Number(exp[1]) + (mant.split('.')[1]?.length ?? 0);
  }
  return s.split('.')[1]?.length ?? 0;
}

/** raw × scale without binary noise (2307 × 0.1 = 230.7, not 230.70000000000002). */
export function applyScale(raw: number, scale: number): number {
  const d = scaleDecimals(scale);
  const v = raw * scale;
  const out = d === 0 ? v : Number(v.toFixed(d));
  return out === 0 ? 0 : out; // no -0
}

function rawBounds(words: 1 | 2 | 3, signed: boolean | undefined): { min: number; max: number } {
  const bits = 16 * words;
  return signed ? { min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 } : { min: 0, max: 2 ** bits - 1 };
}

/** The raw register value a field value is written as, or undefined when it does not fit. */
export function toRaw(field: Pick<FieldDef, 'scale' | 'register'>, value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const raw = Math.round(value / field.scale);
  const { min, max } = rawBounds(field.register.words, field.register.signed);
  return raw < min || raw > max ? undefined : raw;
}

/** Split a raw value into big-endian words (two's complement for negatives). */
export function rawToWords(raw: number, words: 1 | 2 | 3): number[] {
  const span = 2 ** (16 * words);
  let u = raw < 0 ? raw + span : raw;
  const out: number[] = new Array<number>(words);
  for (let i = words - 1; i >= 0; i--) {
    out[i] = u % 0x10000;
    u = Math.floor(u / 0x10000);
  }
  return out;
}

/** Big-endian words → the raw value (two's complement when `signed`). */
export function wordsToRaw(ws: number[], signed: boolean | undefined): number {
  let u = 0;
  for (const w of ws) u = u * 0x10000 + w;
  const span = 2 ** (16 * ws.length);
  return signed && u >= span / 2 ? u - span : u;
}

/** The wire string of a measured value: fixed to the field's decimals ("230.7", "49.74", "633"). */
export function formatValue(field: Pick<FieldDef, 'decimals'>, n: number): string {
  if (!Number.isFinite(n)) return '--';
  const s = n.toFixed(field.decimals);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** What a screen shows for a field: the enum label, else the formatted number, else "--". */
export function displayValue(field: FieldDef, decoded: Pick<DecodedDevice, 'values' | 'labels'>): string {
  const label = decoded.labels[field.id];
  if (label !== undefined) return label;
  const v = decoded.values[field.id];
  return v === undefined ? '--' : formatValue(field, v);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function enumKeyOf(field: FieldDef, label: string): number | undefined {
  if (!field.enum) return undefined;
  for (const [k, v] of Object.entries(field.enum)) if (v === label) return Number(k);
  return undefined;
}

/** Adds a value after range and enum checks; returns false (and records why) when dropped. */
function accept(field: FieldDef, value: number, out: DecodedDevice, source: string): boolean {
  if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
    out.errors.push(`${field.id}: ${value} out of range [${field.min ?? '-∞'}, ${field.max ?? '∞'}] (${source})`);
    return false;
  }
  out.values[field.id] = value;
  delete out.labels[field.id];
  if (field.enum) {
    const label = field.enum[String(value)];
    if (label !== undefined) out.labels[field.id] = label;
    else out.errors.push(`${field.id}: ${value} is not a known state (${source})`);
  }
  return true;
}

/**
 * Decodes one device entry of an IngestFrame with its definition. Register blocks are read by
 * each field's address/words/signed/scale; `values` are checked against the definition and
 * override registers. Anything malformed (bad hex, partial words, short frames, blocks past
 * 0xFFFF, unknown field ids, values out of range) ends up in `errors`; this never throws.
 */
export function decodeDevice(def: DeviceDefinition, entry: IngestDevice | Record<string, unknown>): DecodedDevice {
  const out: DecodedDevice = { values: {}, labels: {}, errors: [] };
  try {
    decodeInto(def, entry, out);
  } catch (err) {
    out.errors.push(`decoder: ${err instanceof Error ? err.message : String(err)}`);
  }
  return out;
}

function decodeInto(def: DeviceDefinition, entry: unknown, out: DecodedDevice): void {
  if (!isRecord(entry)) {
    out.errors.push('device entry is not an object');
    return;
  }
  if (entry.devcode !== undefined && entry.devcode !== def.devcode) {
    out.errors.push(`devcode ${String(entry.devcode)} does not match definition ${def.devcode}`);
  }
  const words = readBlocks(entry.registers, out.errors);
  if (words.size > 0) {
    for (const f of def.fields) {
      const { address, words: n, signed } = f.register;
      const ws: number[] = [];
      const missing: number[] = [];
      for (let i = 0; i < n; i++) {
        const w = words.get(address + i);
        if (w === undefined) missing.push(address + i);
        else ws.push(w);
      }
      if (missing.length === n) continue; // field not in this frame
      if (missing.length > 0) {
        out.errors.push(`${f.id}: short frame, register ${missing.join(',')} missing`);
        continue;
      }
      accept(f, applyScale(wordsToRaw(ws, signed), f.scale), out, `register ${address}`);
    }
  }
  readValues(def, entry.values, out);
}

/** Register blocks → address → word; malformed blocks are reported and skipped (or cut). */
function readBlocks(blocks: unknown, errors: string[]): Map<number, number> {
  const words = new Map<number, number>();
  if (blocks === undefined || blocks === null) return words;
  if (!Array.isArray(blocks)) {
    errors.push('registers is not an array');
    return words;
  }
  blocks.forEach((b: unknown, i) => {
    const where = `registers[${i}]`;
    if (!isRecord(b)) {
      errors.push(`${where}: not an object`);
      return;
    }
    const { start, hex } = b;
    if (typeof start !== 'number' || !Number.isInteger(start) || start < 0 || start > 0xffff) {
      errors.push(`${where}: start ${String(start)} is not a register address (0..65535)`);
      return;
    }
    if (typeof hex !== 'string') {
      errors.push(`${where}: hex is not a string`);
      return;
    }
    if (!/^[0-9a-fA-F]*$/.test(hex)) {
      errors.push(`${where}: hex contains non-hex characters`);
      return;
    }
    let count = Math.floor(hex.length / 4);
    if (hex.length % 4 !== 0) {
      errors.push(`${where}: ${hex.length} hex digits is not whole 16-bit words; trailing ${hex.length % 4} ignored`);
    }
    if (start + count > 0x10000) {
      errors.push(`${where}: block of ${count} words at ${start} runs past register 0xFFFF`);
      count = 0x10000 - start;
    }
    let clash = false;
    for (let k = 0; k < count; k++) {
      const w = parseInt(hex.slice(4 * k, 4 * k + 4), 16);
      const prev = words.get(start + k);
      if (prev !== undefined && prev !== w) clash = true;
      words.set(start + k, w);
    }
    if (clash) errors.push(`${where}: overlaps an earlier block with different words (later block wins)`);
  });
  return words;
}

function readValues(def: DeviceDefinition, values: unknown, out: DecodedDevice): void {
  if (values === undefined || values === null) return;
  if (!isRecord(values)) {
    out.errors.push('values is not an object');
    return;
  }
  const index = fieldIndex(def);
  for (const [id, v] of Object.entries(values)) {
    const f = index.get(id);
    if (!f) {
      out.errors.push(`unknown field ${id}`);
      continue;
    }
    let n: number | undefined;
    if (typeof v === 'number') n = Number.isFinite(v) ? v : undefined;
    else if (typeof v === 'string') {
      n = enumKeyOf(f, v);
      if (n === undefined && v.trim() !== '') {
        const parsed = Number(v.trim());
        n = Number.isFinite(parsed) ? parsed : undefined;
      }
    }
    if (n === undefined) {
      out.errors.push(`${id}: ${JSON.stringify(v)?.slice(0, 40)} is not a number or known state`);
      continue;
    }
    const raw = toRaw(f, n);
    if (raw === undefined) {
      out.errors.push(`${id}: ${n} does not fit its register`);
      continue;
    }
    accept(f, applyScale(raw, f.scale), out, 'values');
  }
}

export interface EncodeOptions {
  /** Clamp values that do not fit their register instead of throwing. */
  clamp?: boolean;
}

/**
 * The inverse of decodeDevice for register-backed fields: field values (numbers, or enum labels)
 * → contiguous register blocks. Used by the simulator. Throws on unknown fields or values that
 * do not fit (unless `clamp`).
 */
export function encodeRegisters(
  def: DeviceDefinition,
  values: Record<string, number | string>,
  opts: EncodeOptions = {},
): RegisterBlock[] {
  const index = fieldIndex(def);
  const words = new Map<number, number>();
  for (const [id, v] of Object.entries(values)) {
    const f = index.get(id);
    if (!f) throw new RangeError(`devcode ${def.devcode}: unknown field ${id}`);
    let n = typeof v === 'number' ? v : (enumKeyOf(f, v) ?? Number(v));
    if (!Number.isFinite(n)) throw new RangeError(`${id}: ${String(v)} is not a number or known state`);
    let raw = toRaw(f, n);
    if (raw === undefined) {
      if (!opts.clamp) throw new RangeError(`${id}: ${n} does not fit its register`);
      const { min, max } = rawBounds(f.register.words, f.register.signed);
      n = Math.round(n / f.scale);
      raw = Math.min(max, Math.max(min, n));
    }
    rawToWords(raw, f.register.words).forEach((w, i) => words.set(f.register.address + i, w));
  }
  return wordsToBlocks(words);
}

/** address → word map → sorted contiguous blocks. */
export function wordsToBlocks(words: Map<number, number>): RegisterBlock[] {
  const addrs = [...words.keys()].sort((a, b) => a - b);
  const blocks: RegisterBlock[] = [];
  let cur: { start: number; parts: string[] } | undefined;
  for (const a of addrs) {
    const hex = words.get(a)!.toString(16).toUpperCase().padStart(4, '0');
    if (cur && a === cur.start + cur.parts.length) cur.parts.push(hex);
    else {
      if (cur) blocks.push({ start: cur.start, hex: cur.parts.join('') });
      cur = { start: a, parts: [hex] };
    }
  }
  if (cur) blocks.push({ start: cur.start, hex: cur.parts.join('') });
  return blocks;
}
