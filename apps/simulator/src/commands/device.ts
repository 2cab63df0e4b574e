import {
  decodeControlWrite,
  encodeControl,
  fieldIndex,
  formatRegisterWords,
  getDefinition,
  normalizeHexBytes,
  parseRegisterWords,
  rawToWords,
  type DeviceDefinition,
  type IngestFrame,
} from '@sunwatch/protocol';
import { numericValues, quantise } from '../frames.js';
import { currentControlValue } from '../settings.js';
import type { LiveDatalogger } from '../runtime.js';
import type { DeviceSpec } from '../types.js';
import type { CommandContext, CommandHandlers, CommandOutcome } from './types.js';

/**
 * Commands to a device behind the datalogger (issue 10; commands.ts in the protocol):
 * - `ctrl`: a register write of one control. The value is checked against the control (unknown
 *   control or register → code 9, a value outside its items or ranges → code 6), applied to the
 *   device's settings (the plant's physics and the read-back fields of the next frames follow it,
 *   settings.ts) and answered like a Modbus "write multiple registers" reply; a battery refuses
 *   to sleep while current flows (code 8, rejected);
 * - `read`: the control's current register words;
 * - `passthrough`: raw Modbus RTU bytes; function 3/4 (read registers) is answered with the
 *   device's registers (controls and measured fields), anything else with an exception reply;
 * - `sync`: resends the device's stored samples of a time range (the server stores the missing
 *   ones and counts the rest as duplicates).
 * A device that is not behind this datalogger does not answer: code 1.
 */

const fail = (code: number, error: string): CommandOutcome => ({ ok: false, code, error });

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The device a command names (sn, else devaddr and devcode). */
function deviceOf(logger: LiveDatalogger, params: Record<string, unknown>): DeviceSpec | undefined {
  const sn = typeof params.sn === 'string' ? params.sn : '';
  const devaddr = num(params.devaddr);
  const devcode = num(params.devcode);
  return logger.spec.devices.find(
    (d) =>
      (sn === '' || d.sn === sn) &&
      (devaddr === undefined || d.devaddr === devaddr) &&
      (devcode === undefined || d.devcode === devcode) &&
      (sn !== '' || devaddr !== undefined),
  );
}

function target(ctx: CommandContext): { dev: DeviceSpec; def: DeviceDefinition } | CommandOutcome {
  const dev = deviceOf(ctx.logger, ctx.params);
  if (!dev) return fail(1, 'no such device behind this datalogger (no answer)');
  const def = getDefinition(dev.devcode);
  if (!def) return fail(9, `devcode ${dev.devcode} has no protocol`);
  return { dev, def };
}

/** Modbus CRC-16 (poly 0xA001, init 0xFFFF), appended low byte first. */
export function modbusCrc(bytes: readonly number[]): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b & 0xff;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const withCrc = (bytes: number[]): number[] => {
  const crc = modbusCrc(bytes);
  return [...bytes, crc & 0xff, crc >>> 8];
};

const toHexBytes = (bytes: readonly number[]): string =>
  bytes.map((b) => (b & 0xff).toString(16).toUpperCase().padStart(2, '0')).join(' ');

/** Local "YYYY-MM-DD HH:MM:SS" of the datalogger at simulated time `ms`. */
function localDateTime(ms: number, tzOffsetS: number): string {
  return new Date(ms + tzOffsetS * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The register words of a control as the device holds them now. */
function controlWords(logger: LiveDatalogger, dev: DeviceSpec, def: DeviceDefinition, controlId: string): number[] | undefined {
  const c = def.controls.find((x) => x.id === controlId);
  if (!c) return undefined;
  if (c.type === 'datetime') {
    const set = logger.sim.settingsOf(dev.sn)?.[c.id];
    if (set !== undefined) return rawToWords(set, c.register.words);
    const now = logger.sim.lastTs ?? Date.now();
    const enc = encodeControl(def, c.id, localDateTime(now, logger.spec.site.tzOffset));
    return enc.ok ? enc.raw : undefined;
  }
  const value = currentControlValue(def, c, logger.sim.settingsOf(dev.sn), logger.sim.last?.values[dev.sn]);
  const raw = Math.round(value / c.scale);
  return rawToWords(raw, c.register.words);
}

/** Every register of the device: its measured fields (last frame) and its controls. */
function deviceRegisters(logger: LiveDatalogger, dev: DeviceSpec, def: DeviceDefinition): Map<number, number> {
  const regs = new Map<number, number>();
  const last = logger.sim.last?.values[dev.sn];
  if (last) {
    const values = numericValues(def, quantise(def, last));
    const index = fieldIndex(def);
    for (const [id, v] of Object.entries(values)) {
      const f = index.get(id);
      if (!f) continue;
      const raw = Math.round(v / f.scale);
      rawToWords(raw, f.register.words).forEach((w, i) => regs.set(f.register.address + i, w));
    }
  }
  for (const c of def.controls) {
    const ws = controlWords(logger, dev, def, c.id);
    ws?.forEach((w, i) => regs.set(c.register.address + i, w));
  }
  return regs;
}

const ctrl = (ctx: CommandContext): CommandOutcome => {
  const t = target(ctx);
  if (!('dev' in t)) return t;
  const { dev, def } = t;
  const hex = typeof ctx.params.hex === 'string' ? ctx.params.hex : '';
  const words = parseRegisterWords(hex);
  if (!words) return fail(6, 'hex must be whole register words');
  const id = typeof ctx.params.id === 'string' && ctx.params.id !== '' ? ctx.params.id : undefined;
  const start = num(ctx.params.start);
  const d = decodeControlWrite(def, id, start, words);
  if (!d.ok) return fail(d.reason === 'unknown-control' ? 9 : 6, d.message);
  // A battery refuses to go to sleep while current flows through it.
  if (d.control.id === 'sys_sleep' && Math.abs(ctx.logger.sim.last?.snap.batteryW ?? 0) > 50)
    return fail(8, 'rejected: the battery is carrying current');
  ctx.logger.sim.applySetting(dev.sn, d.control.id, d.value);
  const addr = d.control.register.address;
  // Modbus "write multiple registers" reply: address, 0x10, start, count, CRC.
  const reply = withCrc([dev.devaddr, 0x10, addr >> 8, addr & 0xff, 0, words.length]);
  return { ok: true, result: { hex: toHexBytes(reply), id: d.control.id, words: formatRegisterWords(words) } };
};

const read = (ctx: CommandContext): CommandOutcome => {
  const t = target(ctx);
  if (!('dev' in t)) return t;
  const { dev, def } = t;
  const id = typeof ctx.params.id === 'string' ? ctx.params.id : '';
  const c = def.controls.find((x) => x.id === id) ?? def.controls.find((x) => x.register.address === num(ctx.params.start));
  if (!c) return fail(9, `devcode ${def.devcode} has no control ${id}`);
  const words = controlWords(ctx.logger, dev, def, c.id);
  if (!words) return fail(1, `${c.id}: no value`);
  return { ok: true, result: { id: c.id, start: c.register.address, hex: formatRegisterWords(words) } };
};

const passthrough = (ctx: CommandContext): CommandOutcome => {
  const t = target(ctx);
  if (!('dev' in t)) return t;
  const { dev, def } = t;
  const norm = normalizeHexBytes(typeof ctx.params.hex === 'string' ? ctx.params.hex : '');
  if (!norm) return fail(6, 'hex must be whole bytes');
  const bytes = norm.split(' ').map((b) => parseInt(b, 16));
  if (bytes.length < 2) return fail(6, 'too short for a device frame');
  if (bytes[0] !== dev.devaddr) return fail(1, `no device at address ${bytes[0]} (no answer)`);
  const fn = bytes[1]!;
  if (bytes.length === 8 && (fn === 3 || fn === 4)) {
    const crc = modbusCrc(bytes.slice(0, 6));
    if (bytes[6] !== (crc & 0xff) || bytes[7] !== crc >>> 8) return fail(6, 'CRC error');
  }
  if ((fn === 3 || fn === 4) && (bytes.length === 6 || bytes.length === 8)) {
    const start = (bytes[2]! << 8) | bytes[3]!;
    const count = (bytes[4]! << 8) | bytes[5]!;
    if (count < 1 || count > 125) return { ok: true, result: { hex: toHexBytes(withCrc([dev.devaddr, fn | 0x80, 3])) } };
    const regs = deviceRegisters(ctx.logger, dev, def);
    const data: number[] = [];
    for (let a = start; a < start + count; a++) {
      const w = regs.get(a) ?? 0;
      data.push(w >> 8, w & 0xff);
    }
    return { ok: true, result: { hex: toHexBytes(withCrc([dev.devaddr, fn, data.length, ...data])) } };
  }
  // Illegal function.
  return { ok: true, result: { hex: toHexBytes(withCrc([dev.devaddr, (fn | 0x80) & 0xff, 1])) } };
};

const sync = (ctx: CommandContext): CommandOutcome => {
  const t = target(ctx);
  if (!('dev' in t)) return t;
  const { dev } = t;
  const from = num(ctx.params.from);
  const to = num(ctx.params.to);
  if (from === undefined || to === undefined || to < from) return fail(6, 'from and to (epoch ms, from ≤ to) required');
  const frames: IngestFrame[] = [];
  for (const f of ctx.logger.stored) {
    if (f.ts < from || f.ts > to) continue;
    const entry = f.devices.find((d) => d.sn === dev.sn);
    if (entry) frames.push({ ...f, devices: [entry] });
  }
  return {
    ok: true,
    result: { frames: frames.length },
    after: () => {
      ctx.logger.buffer.push(...frames);
      void ctx.logger.tick();
    },
  };
};

/** Commands to a device behind the datalogger: ctrl, read, passthrough, sync (issue 10). */
export const DEVICE_HANDLERS: CommandHandlers = { ctrl, read, passthrough, sync };
