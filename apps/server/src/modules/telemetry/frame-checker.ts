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

/** The first issue of a schema failure, as ingestion reports it. */
function issue(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.')}: ${i.message}` : 'invalid frame';
}

/** Ingestion's check of a frame's head (everything but the device entries). */
export function checkFrameHead(
  value: unknown,
): { ok: true; frame: z.infer<typeof FrameHeadSchema> } | { ok: false; detail: string } {
  const head = FrameHeadSchema.safeParse(value);
  return head.success ? { ok: true, frame: head.data } : { ok: false, detail: issue(head.error) };
}

export type CheckedDevice =
  | { ok: true; device: PreparedDevice }
  | { ok: false; reason: Extract<BadReason, 'schema' | 'limits' | 'unknown_devcode' | 'decode'>; detail: string };

/**
 * Ingestion's check and decoding of one device entry of a frame: strict schema, value count,
 * listed once (`seen`, keyed by devcode|devaddr|sn), then the decoder. The frame checker runs it
 * for every entry; the operator's raw-data parsing runs the same function, so both agree.
 */
export function checkDeviceEntry(
  entry: unknown,
  where: string,
  limits: Pick<IngestLimitsConfig, 'maxValues'>,
  decode: DeviceDecode,
  seen?: Set<string>,
): CheckedDevice {
  const parsed = DeviceSchema.safeParse(entry);
  if (!parsed.success) return { ok: false, reason: 'schema', detail: `${where}.${issue(parsed.error)}` };
  const dev = parsed.data;
  const count = valuesOfDevice(dev);
  if (count > limits.maxValues) {
    return { ok: false, reason: 'limits', detail: `${where}: ${count} values is over ${limits.maxValues}` };
  }
  if (seen) {
    const key = `${dev.devcode}|${dev.devaddr}|${dev.sn}`;
    if (seen.has(key)) return { ok: false, reason: 'schema', detail: `${where}: device listed twice` };
    seen.add(key);
  }
  const decoded = decode(dev);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, detail: `${where}: ${decoded.detail}` };
  return { ok: true, device: decoded.device };
}

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
    /** Operator devcode bindings (issue 14): the devcodes a datalogger may report, null = any. */
    private readonly bindings?: {
      allowed(pn: string, typeCode: string): Promise<ReadonlySet<number> | null>;
    },
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
    if (kind === 'heartbeat') {
      const hb = HeartbeatSchema.safeParse(value);
      if (!hb.success) return fail('schema', issue(hb.error));
      if (hb.data.pn !== pn) return fail('pn_mismatch', `frame pn ${hb.data.pn} is not ${pn}`);
      return { ok: true, dl, ts: hb.data.ts, heartbeat: hb.data, devices: [] };
    }
    const head = checkFrameHead(value);
    if (!head.ok) return fail('schema', head.detail);
    const frame = head.frame;
    if (frame.pn !== pn) return fail('pn_mismatch', `frame pn ${frame.pn} is not ${pn}`);
    if (frame.devices.length > limits.maxDevices) {
      return fail('limits', `${frame.devices.length} devices is over ${limits.maxDevices}`);
    }
    const window = this.timestampWindow(dl, frame.ts);
    if (window) return fail('timestamp', window);
    const allowed = this.bindings ? await this.bindings.allowed(pn, dl.typeCode ?? '') : null;
    const devices: PreparedDevice[] = [];
    const keys = new Set<string>();
    let slice = performance.now();
    for (let i = 0; i < frame.devices.length; i++) {
      const checked = checkDeviceEntry(frame.devices[i], `devices.${i}`, limits, this.decode, keys);
      if (!checked.ok) return fail(checked.reason, checked.detail);
      if (allowed && !allowed.has(checked.device.dev.devcode)) {
        return fail('unbound_devcode', `devices.${i}: devcode ${checked.device.dev.devcode} is not bound to ${pn}`);
      }
      devices.push(checked.device);
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
