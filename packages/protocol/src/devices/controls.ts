import { applyScale, formatValue, rawToWords, wordsToBlocks, wordsToRaw, type DecodedDevice } from './decoder.js';
import type { RegisterBlock } from './frame.js';
import { fieldIndex } from './registry.js';
import type { ControlDef, CtrlItem, DeviceDefinition } from './types.js';

/** The item list of a control, with `itemRange` expanded (keys "25.0", vals "25.0V"). */
export function controlItems(c: ControlDef): CtrlItem[] | undefined {
  if (c.item) return c.item;
  if (!c.itemRange) return undefined;
  const { ranges, decimals, suffix, prefix } = c.itemRange;
  const out: CtrlItem[] = [...(prefix ?? [])];
  const unit = 10 ** decimals;
  for (const r of ranges) {
    const lo = Math.round(r.min * unit);
    const hi = Math.round(r.max * unit);
    const step = Math.max(1, Math.round(r.step * unit));
    for (let n = lo; n <= hi; n += step) {
      const key = (n / unit).toFixed(decimals);
      out.push({ key, val: key + suffix });
    }
  }
  return out;
}

export function getControl(def: DeviceDefinition, id: string): ControlDef | undefined {
  return def.controls.find((c) => c.id === id);
}

export type ControlWrite =
  | { ok: true; control: ControlDef; raw: number[]; block: RegisterBlock }
  | { ok: false; reason: 'unknown-control' | 'invalid-value' | 'out-of-range'; message: string };

const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function inRanges(c: ControlDef, n: number): boolean {
  if (!c.ranges) return true;
  return c.ranges.some((r) => {
    if (n < r.min - 1e-9 || n > r.max + 1e-9) return false;
    const steps = (n - r.min) / r.step;
    return Math.abs(steps - Math.round(steps)) < 1e-6;
  });
}

/**
 * Validates a ctrlDevice value against a control (item keys, or the numeric ranges of its hint)
 * and encodes the register write. Item keys are compared as strings first, then numerically
 * ("10" matches "010"). Never throws.
 */
export function encodeControl(def: DeviceDefinition, id: string, val: string): ControlWrite {
  const c = getControl(def, id);
  if (!c) return { ok: false, reason: 'unknown-control', message: `devcode ${def.devcode} has no control ${id}` };
  const { address, words, signed } = c.register;
  const done = (raw: number[]): ControlWrite => ({
    ok: true,
    control: c,
    raw,
    block: wordsToBlocks(new Map(raw.map((w, i) => [address + i, w])))[0]!,
  });
  const text = String(val ?? '').trim();
  if (c.type === 'datetime') {
    const m = DATETIME_RE.exec(text);
    if (!m) return { ok: false, reason: 'invalid-value', message: `${id}: expected YYYY-MM-DD HH:MM:SS` };
    const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
    if (
      date.getUTCMonth() !== mo - 1 ||
      date.getUTCDate() !== d ||
      h > 23 ||
      mi > 59 ||
      s > 59 ||
      y < 2000 ||
      y > 2099
    ) {
      return { ok: false, reason: 'out-of-range', message: `${id}: ${text} is not a valid time` };
    }
    return done([(y - 2000) * 256 + mo, d * 256 + h, mi * 256 + s].slice(0, words));
  }
  const items = controlItems(c);
  let n: number;
  if (items) {
    const hit =
      items.find((it) => it.key === text) ?? items.find((it) => text !== '' && Number(it.key) === Number(text));
    if (!hit) return { ok: false, reason: 'invalid-value', message: `${id}: ${text} is not one of its items` };
    n = Number(hit.key);
    if (!Number.isFinite(n))
      return { ok: false, reason: 'invalid-value', message: `${id}: item key ${hit.key} is not numeric` };
  } else {
    n = Number(text);
    if (text === '' || !Number.isFinite(n))
      return { ok: false, reason: 'invalid-value', message: `${id}: ${text} is not a number` };
    if (!inRanges(c, n))
      return { ok: false, reason: 'out-of-range', message: `${id}: ${text} outside ${c.hint ?? 'its range'}` };
  }
  const raw = Math.round(n / c.scale);
  const bits = 16 * words;
  const [min, max] = signed ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
  if (raw < min || raw > max)
    return { ok: false, reason: 'out-of-range', message: `${id}: ${text} does not fit its register` };
  return done(rawToWords(raw, words));
}

/**
 * Current value of a control for queryDeviceCtrlValue, from its read-back field: the matching
 * item key when it has items, else the number with the scale's decimals. Undefined if unknown.
 */
export function readControlValue(
  def: DeviceDefinition,
  id: string,
  d: Pick<DecodedDevice, 'values'>,
): string | undefined {
  const c = getControl(def, id);
  if (!c?.readback) return undefined;
  const f = fieldIndex(def).get(c.readback);
  const v = d.values[c.readback];
  if (!f || v === undefined) return undefined;
  const items = controlItems(c);
  if (items) return items.find((it) => Number(it.key) === v)?.key;
  const dec = Math.max(0, String(c.scale).split('.')[1]?.length ?? 0);
  return formatValue({ decimals: dec }, applyScale(Math.round(v / c.scale), c.scale));
}

export type ControlDecode =
  | { ok: true; control: ControlDef; value: number; key: string | undefined }
  | { ok: false; reason: 'unknown-control' | 'invalid-value' | 'out-of-range'; message: string };

/** "0001002A" → [1, 42]; undefined when it is not whole 16-bit words of hex. */
export function parseRegisterWords(hex: string): number[] | undefined {
  if (hex.length === 0 || hex.length % 4 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  return hex.match(/.{4}/g)!.map((w) => parseInt(w, 16));
}

/** [1, 42] → "0001002A" (the register words of `ctrl` / `read` commands). */
export function formatRegisterWords(words: readonly number[]): string {
  return words.map((w) => (w & 0xffff).toString(16).toUpperCase().padStart(4, '0')).join('');
}

/**
 * The device side of `encodeControl`: the register write of a `ctrl` command (control id, or
 * the control at `start`, and its words) → the value it sets, checked against the control's items
 * or ranges exactly as `encodeControl` checks it. Datetime controls are accepted as written.
 */
export function decodeControlWrite(
  def: DeviceDefinition,
  id: string | undefined,
  start: number | undefined,
  words: readonly number[],
): ControlDecode {
  const c = (id ? getControl(def, id) : undefined) ?? def.controls.find((x) => x.register.address === start);
  if (!c || (start !== undefined && c.register.address !== start))
    return { ok: false, reason: 'unknown-control', message: `devcode ${def.devcode} has no control ${id ?? start}` };
  if (words.length !== c.register.words)
    return { ok: false, reason: 'invalid-value', message: `${c.id}: ${c.register.words} word(s) expected` };
  const raw = wordsToRaw([...words], c.register.signed);
  if (c.type === 'datetime') return { ok: true, control: c, value: raw, key: undefined };
  const value = applyScale(raw, c.scale);
  const items = controlItems(c);
  if (items) {
    const hit = items.find((it) => Number(it.key) === value);
    if (!hit) return { ok: false, reason: 'out-of-range', message: `${c.id}: ${value} is not one of its items` };
    return { ok: true, control: c, value, key: hit.key };
  }
  if (!inRanges(c, value)) return { ok: false, reason: 'out-of-range', message: `${c.id}: ${value} outside its range` };
  return { ok: true, control: c, value, key: undefined };
}
