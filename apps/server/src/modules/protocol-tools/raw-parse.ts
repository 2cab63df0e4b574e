import {
  ApiError,
  decodeDevice,
  encodeRegisters,
  formatValue,
  getDefinition,
  rawToWords,
  toRaw,
  translateDeviceText,
  type DeviceDefinition,
  type RawDeviceRow,
  type RawFieldRow,
  type RawParseDat,
  type RegisterBlock,
} from '@sunwatch/protocol';
import type { IngestLimitsConfig } from '../../config.js';
import { decodeDeviceEntry } from '../telemetry/device-decoder.js';
import { checkDeviceEntry, checkFrameHead } from '../telemetry/frame-checker.js';
import { decodeSample } from '../telemetry/sample-codec.js';

/**
 * Raw-data parsing of the operator's protocol tools (issue 14): a pasted frame read the way a
 * datalogger sends it and run through INGESTION'S OWN check and decoder (`checkDeviceEntry` →
 * `decodeDeviceEntry` → `encodeSample`), so what this shows is what ingestion stores — there is
 * no second decoder. The values shown are the stored sample decoded back (`decodeSample`); for an
 * entry ingestion would refuse, the protocol decoder's partial result and its errors.
 */

/** Placeholders for what a bare register dump does not carry (the decoder does not read them). */
const BARE_DEVADDR = 1;
const BARE_SN = '-';

export interface PastedInput {
  format: RawParseDat['format'];
  frameError: string;
  entries: unknown[];
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * The pasted text → device entries as ingestion receives them:
 * - hex words (whitespace and a `0x` prefix allowed) starting at register `start`;
 * - a JSON array of register blocks `[{start, hex}]`;
 * - a JSON device entry `{devcode?, devaddr?, sn?, registers?, values?}`;
 * - a JSON frame `{pn, ts, devices: [...]}` (entries exactly as given).
 * `devcode` (and placeholder devaddr/sn) fill in what the first three do not name. Text that is none
 * of these answers err 6 (frame).
 */
export function readPasted(text: string, devcode: number, start: number): PastedInput {
  const t = text.trim();
  const bare = (registers: unknown): Record<string, unknown> => ({
    devcode,
    devaddr: BARE_DEVADDR,
    sn: BARE_SN,
    registers,
  });
  if (t.startsWith('{') || t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new ApiError(6, 'frame');
    }
    if (Array.isArray(v)) {
      if (v.length === 0 || !v.every((b) => isRecord(b) && 'start' in b)) throw new ApiError(6, 'frame');
      return { format: 'blocks', frameError: '', entries: [bare(v)] };
    }
    if (!isRecord(v)) throw new ApiError(6, 'frame');
    if ('devices' in v) {
      const head = checkFrameHead(v);
      const devices = Array.isArray(v.devices) ? (v.devices as unknown[]) : [];
      return { format: 'frame', frameError: head.ok ? '' : head.detail, entries: devices };
    }
    if (!('registers' in v) && !('values' in v)) throw new ApiError(6, 'frame');
    return {
      format: 'device',
      frameError: '',
      entries: [{ devcode, devaddr: BARE_DEVADDR, sn: BARE_SN, ...v }],
    };
  }
  const hex = t.replace(/\s+/g, '').replace(/^0x/i, '');
  if (hex === '' || !/^[0-9a-fA-F]+$/.test(hex)) throw new ApiError(6, 'frame');
  return { format: 'hex', frameError: '', entries: [bare([{ start, hex: hex.toUpperCase() }])] };
}

function hexOf(def: DeviceDefinition, id: string, value: number): string {
  const f = def.fields.find((x) => x.id === id)!;
  const raw = toRaw(f, value);
  if (raw === undefined) return '';
  return rawToWords(raw, f.register.words)
    .map((w) => w.toString(16).toUpperCase().padStart(4, '0'))
    .join('');
}

/** Decoded values → the rows the page shows (definition order, titles and labels in `locale`). */
export function fieldRows(def: DeviceDefinition, values: Record<string, number>, locale: string): RawFieldRow[] {
  const rows: RawFieldRow[] = [];
  for (const f of def.fields) {
    const v = values[f.id];
    if (v === undefined) continue;
    const label = f.enum?.[String(v)];
    rows.push({
      id: f.id,
      title: translateDeviceText(f.title, { devcode: def.devcode, id: f.id, kind: 'field' }, locale),
      unit: f.unit ?? '',
      value: v,
      display:
        label !== undefined
          ? translateDeviceText(label, { devcode: def.devcode, id: f.id, kind: 'enum' }, locale)
          : formatValue(f, v),
      address: f.register.address,
      hex: hexOf(def, f.id, v),
      group: f.group ?? '',
      internal: f.internal === true,
    });
  }
  return rows;
}

function field<T>(entry: unknown, key: string, ok: (v: unknown) => v is T, fallback: T): T {
  return isRecord(entry) && ok(entry[key]) ? entry[key] : fallback;
}
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function registersOf(entry: unknown): RegisterBlock[] {
  const r = isRecord(entry) ? entry.registers : undefined;
  if (!Array.isArray(r)) return [];
  return r
    .filter((b): b is RegisterBlock => isRecord(b) && isInt(b.start) && typeof b.hex === 'string')
    .map((b) => ({ start: b.start, hex: b.hex }));
}

/**
 * One device entry through ingestion's check and decoder. `seen` spans the entries of one frame
 * (a device listed twice is refused, as ingestion does).
 */
export function parseEntry(
  entry: unknown,
  where: string,
  limits: Pick<IngestLimitsConfig, 'maxValues'>,
  locale: string,
  seen?: Set<string>,
): RawDeviceRow {
  const devcode = field(entry, 'devcode', isInt, 0);
  const base = {
    devcode,
    devaddr: field(entry, 'devaddr', isInt, 0),
    sn: field(entry, 'sn', isStr, ''),
    name: getDefinition(devcode)?.name ?? '',
  };
  const checked = checkDeviceEntry(entry, where, limits, decodeDeviceEntry, seen);
  if (checked.ok) {
    const { def, data } = checked.device;
    // What ingestion stores, read back as every screen reads it.
    const stored = decodeSample(def, data);
    let registers = registersOf(entry);
    if (registers.length === 0) registers = encodeRegisters(def, stored);
    return {
      ...base,
      accepted: true,
      reason: '',
      detail: '',
      errors: [],
      registers,
      fields: fieldRows(def, stored, locale),
    };
  }
  const def = getDefinition(devcode);
  const partial = def ? decodeDevice(def, entry as Record<string, unknown>) : undefined;
  return {
    ...base,
    accepted: false,
    reason: checked.reason,
    detail: checked.detail,
    errors: partial?.errors ?? [],
    registers: registersOf(entry),
    fields: def && partial ? fieldRows(def, partial.values, locale) : [],
  };
}

/** `parseRawData`: the pasted text read and every device entry parsed. */
export function parseRaw(
  text: string,
  devcode: number,
  start: number,
  limits: Pick<IngestLimitsConfig, 'maxValues'>,
  locale: string,
): RawParseDat {
  const input = readPasted(text, devcode, start);
  const seen = new Set<string>();
  const devices = input.entries.map((e, i) =>
    parseEntry(e, input.format === 'frame' ? `devices.${i}` : 'device', limits, locale, seen),
  );
  return { format: input.format, frameError: input.frameError, devices };
}

/**
 * A stored sample re-parsed: the register words it keeps (each known field's words exactly as
 * sent; frames themselves are not stored) rebuilt into blocks and run through `parseEntry`.
 */
export function reparseStored(
  dev: { devcode: number; devaddr: number; sn: string },
  data: Uint8Array,
  limits: Pick<IngestLimitsConfig, 'maxValues'>,
  locale: string,
): RawDeviceRow {
  const def = getDefinition(dev.devcode);
  if (!def) {
    return {
      ...dev,
      name: '',
      accepted: false,
      reason: 'unknown_devcode',
      detail: `unknown devcode ${dev.devcode}`,
      errors: [],
      registers: [],
      fields: [],
    };
  }
  let registers: RegisterBlock[];
  try {
    registers = encodeRegisters(def, decodeSample(def, data));
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ...dev,
      name: def.name,
      accepted: false,
      reason: 'decode',
      detail,
      errors: [detail],
      registers: [],
      fields: [],
    };
  }
  return parseEntry({ devcode: dev.devcode, devaddr: dev.devaddr, sn: dev.sn, registers }, 'sample', limits, locale);
}
