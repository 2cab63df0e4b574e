import { HeartbeatSchema, IngestDeviceSchema, IngestFrameSchema } from '@sunwatch/protocol';
import { z } from 'zod';
import type { IngestLimitsConfig } from '../../config.js';
import type { Clock } from '../../shared/clock.js';
import type { DeviceDecode } from './device-decoder.js';
import { scanFrameBytes, scanFrameValue, valuesOfDevice } from './frame-limits.js';
import type { Checked, DataloggerEntry, FrameKind, PreparedDevice } from './ingest.types.js';
import { yieldToLoop } from './ingest.types.js';
import type { BadReason } from './metrics.js';

const DAY_MS = 86_400_000;
/** Work between two yields to the event loop while validating one frame. */
const SLICE_MS = 2;
/** Frames larger than this yield around `JSON.parse`. */
const YIELD_BYTES = 16 * 1024;

/**
 * The frame shape checked first; each device entry is then checked on its own (time-sliced).
 * Unknown keys refuse the frame (a typo must not silently drop data).
 */
const FrameHeadSchema = IngestFrameSchema.extend({ devices: z.array(z.unknown()).min(1) }).strict();
const DeviceSchema = IngestDeviceSchema.strict();

/**
 * Validates and decodes a whole frame before anything is queued or written (docs/security/ingest.md
 * promises 1, 2, 5, 6): size and shape limits (bytes scanned before JSON.parse), schema, datalogger,
 * PN, timestamp window, every device entry (known devcode, decodes without an error, at least one
 * value, listed once). The first failure refuses the frame. Yields to the event loop around the
 * parse of a large frame and every few ms of decoding.
 */
export class FrameChecker {
  constructor(
    private readonly limits: IngestLimitsConfig,
    /** The datalogger behind a PN (cached lookup). */
    private readonly dataloggers: { datalogger(pn: string): Promise<DataloggerEntry | undefined> },
    private readonly decode: DeviceDecode,
    private readonly now: Clock,
  ) {}

  async check(kind: FrameKind, pn: string, payload: unknown): Promise<Checked> {
    const limits = this.limits;
    const dl = await this.dataloggers.datalogger(pn);
    if (!dl) return { ok: false, reason: 'unknown_pn', detail: `no datalogger ${pn}` };
    const fail = (reason: BadReason, detail: string): Checked => ({ ok: false, reason, detail, dl });
    let value: unknown;
    if (typeof payload === 'string' || payload instanceof Uint8Array) {
      const bytes =
        typeof payload === 'string'
          ? Buffer.from(payload, 'utf8')
          : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
      if (bytes.length > limits.maxPacketBytes) {
        return fail('too_large', `${bytes.length} bytes is over ${limits.maxPacketBytes}`);
      }
      const why = scanFrameBytes(bytes, limits);
      if (why) return fail('limits', why);
      if (bytes.length > YIELD_BYTES) await yieldToLoop();
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        return fail('json', 'not JSON');
      }
      if (bytes.length > YIELD_BYTES) await yieldToLoop();
    } else {
      const why = scanFrameValue(payload, limits);
      if (why) return fail('limits', why);
      value = payload;
    }
    const issue = (e: z.ZodError) => {
      const i = e.issues[0];
      return i ? `${i.path.join('.')}: ${i.message}` : 'invalid frame';
    };
    if (kind === 'heartbeat') {
      const hb = HeartbeatSchema.safeParse(value);
      if (!hb.success) return fail('schema', issue(hb.error));
      if (hb.data.pn !== pn) return fail('pn_mismatch', `frame pn ${hb.data.pn} is not ${pn}`);
      return { ok: true, dl, ts: hb.data.ts, heartbeat: hb.data, devices: [] };
    }
    const head = FrameHeadSchema.safeParse(value);
    if (!head.success) return fail('schema', issue(head.error));
    const frame = head.data;
    if (frame.pn !== pn) return fail('pn_mismatch', `frame pn ${frame.pn} is not ${pn}`);
    if (frame.devices.length > limits.maxDevices) {
      return fail('limits', `${frame.devices.length} devices is over ${limits.maxDevices}`);
    }
    const window = this.timestampWindow(dl, frame.ts);
    if (window) return fail('timestamp', window);
    const devices: PreparedDevice[] = [];
    const keys = new Set<string>();
    let slice = performance.now();
    for (let i = 0; i < frame.devices.length; i++) {
      const where = `devices.${i}`;
      const parsed = DeviceSchema.safeParse(frame.devices[i]);
      if (!parsed.success) return fail('schema', `${where}.${issue(parsed.error)}`);
      const dev = parsed.data;
      const count = valuesOfDevice(dev);
      if (count > limits.maxValues) return fail('limits', `${where}: ${count} values is over ${limits.maxValues}`);
      const key = `${dev.devcode}|${dev.devaddr}|${dev.sn}`;
      if (keys.has(key)) return fail('schema', `${where}: device listed twice`);
      keys.add(key);
      const decoded = this.decode(dev);
      if (!decoded.ok) return fail(decoded.reason, `${where}: ${decoded.detail}`);
      devices.push(decoded.device);
      // performance.now() measures elapsed work (monotonic), not the time of day: not a clock read.
      if (performance.now() - slice > SLICE_MS) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
    return { ok: true, dl, ts: frame.ts, devices };
  }

  /**
   * Why a sample time is outside [registration − backfill days, now + max future], or undefined
   * when it is inside (promise 6).
   */
  timestampWindow(dl: Pick<DataloggerEntry, 'createdAt'>, ts: number): string | undefined {
    const oldest = dl.createdAt - this.limits.backfillDays * DAY_MS;
    if (ts < oldest) return `timestamp before the backfill window (${this.limits.backfillDays} days)`;
    if (ts > this.now() + this.limits.maxFutureMs) return 'timestamp in the future';
    return undefined;
  }
}
