import { normalizeHexBytes } from '@sunwatch/protocol';
import type { LiveDatalogger } from '../runtime.js';
import type { CommandHandlers, CommandOutcome } from './types.js';

/** Seconds a rebooting (or reset) datalogger stays away before it connects again. */
export const REBOOT_DELAY_S = 3;
/** Longest delay a command may ask for (tests ask for short ones). */
export const MAX_REBOOT_DELAY_S = 60;

const delayOf = (params: Record<string, unknown>): number => {
  const v = Number(params.delay_s);
  return params.delay_s !== undefined && Number.isFinite(v) && v >= 0 && v <= MAX_REBOOT_DELAY_S ? v : REBOOT_DELAY_S;
};

/**
 * Drops the connection (frames sampled meanwhile are buffered), stays down `delayS` seconds, then
 * boots: uptime restarts, and the next tick connects, beats and resends the buffer.
 */
async function goDownAndBoot(logger: LiveDatalogger, delayS: number): Promise<void> {
  await logger.goOffline();
  const timer = setTimeout(() => {
    logger.booted();
    logger.goOnline();
    void logger.tick();
  }, delayS * 1000);
  timer.unref?.();
}

/** CRC-16/MODBUS (poly 0xA001 reflected, init 0xFFFF), as sent: low byte first. */
export function crc16Modbus(bytes: readonly number[]): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b & 0xff;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc & 0xffff;
}

/** The simulated value of a holding/input register of a device (deterministic). */
export function registerValue(devcode: number, register: number, step: number): number {
  return (register * 31 + devcode + step) & 0xffff;
}

/**
 * What the device at `addr` answers to debug bytes, Modbus-RTU style, CRC appended:
 * - `03`/`04` start(2) count(2): a register read → `addr fn 2n words…` (values `registerValue`);
 * - anything else: echoed behind the address (`addr bytes…`), as a device acknowledges a write.
 */
export function debugReply(addr: number, devcode: number, step: number, request: readonly number[]): number[] {
  let body: number[];
  const fn = request[0];
  if (request.length === 5 && (fn === 0x03 || fn === 0x04)) {
    const start = (request[1]! << 8) | request[2]!;
    const count = Math.min((request[3]! << 8) | request[4]!, 125);
    body = [addr, fn, count * 2];
    for (let i = 0; i < count; i++) {
      const v = registerValue(devcode, start + i, step);
      body.push(v >> 8, v & 0xff);
    }
  } else {
    body = [addr, ...request];
  }
  const crc = crc16Modbus(body);
  return [...body, crc & 0xff, crc >> 8];
}

const hexOf = (bytes: readonly number[]) => bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');

/** Forgets what a reset forgets: buffered and stored frames, device settings; the sequence restarts. */
function forget(logger: LiveDatalogger): void {
  logger.buffer.splice(0);
  logger.sim.restartSequence();
  // Device settings and stored frames (device commands, issue 10), where this build has them.
  (logger.sim as { clearSettings?: () => void }).clearSettings?.();
  (logger as unknown as { stored?: unknown[] }).stored?.splice(0);
}

/** Commands to the datalogger itself: reboot, reset, unbind, debug (issue 10). */
export const DATALOGGER_HANDLERS: CommandHandlers = {
  reboot: ({ logger, params }): CommandOutcome => {
    const delay = delayOf(params);
    return { ok: true, result: { delay_s: delay }, after: () => goDownAndBoot(logger, delay) };
  },

  reset: ({ logger, params }): CommandOutcome => {
    const delay = delayOf(params);
    return {
      ok: true,
      result: { delay_s: delay },
      after: async () => {
        forget(logger);
        await goDownAndBoot(logger, delay);
      },
    };
  },

  unbind: (): CommandOutcome => ({ ok: true, result: {} }),

  debug: ({ logger, params }): CommandOutcome => {
    const addr = Number(params.addr);
    const step = Number(params.step ?? 0);
    if (!Number.isInteger(addr) || addr < 0 || addr > 255) return { ok: false, code: 6, error: 'addr must be 0..255' };
    if (!Number.isInteger(step) || step < 0)
      return { ok: false, code: 6, error: 'step must be a non-negative integer' };
    const hex = typeof params.hex === 'string' ? normalizeHexBytes(params.hex) : undefined;
    if (!hex) return { ok: false, code: 6, error: 'hex must be bytes such as "AA BB CC"' };
    const request = hex.split(' ').map((b) => parseInt(b, 16));
    if (request.length > 256) return { ok: false, code: 6, error: 'at most 256 bytes' };
    const dev = logger.spec.devices.find((d) => d.devaddr === addr);
    if (!dev) return { ok: false, code: 1, error: `no device answers at address ${addr}` };
    return { ok: true, result: { hex: hexOf(debugReply(addr, dev.devcode, step, request)) } };
  },
};
