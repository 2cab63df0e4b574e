import {
  activeAlarms,
  decodeDevice,
  DEVICE_STATUS,
  energyCounters,
  getDefinition,
  HeartbeatSchema,
  IngestDeviceSchema,
  IngestFrameSchema,
  powerOf,
  type DeviceDefinition,
  type Heartbeat,
  type IngestDevice,
} from '@sunwatch/protocol';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import {
  type DayAgg,
  type DayKind,
  type IngestStore,
  type NewDevice,
  type SampleInsert,
  type WritePlan,
} from './ingest-store.js';
import { scanFrameBytes, scanFrameValue, valuesOfDevice } from './frame-limits.js';
import type { IngestLimitsConfig } from '../../config.js';
import { emptyMetrics, type BadReason, type IngestMetrics } from './metrics.js';
import { decodeRegistersFast } from './fast-decode.js';
import { encodeSample } from './sample-codec.js';
import { tokenMatches } from './device-tokens.js';
import type { AlarmInfo, RunSample } from './alarm-runs.js';

/**
 * Ingestion (architecture.md §5): frames from MQTT or HTTP are validated on arrival, queued,
 * and written in batches — every `batchMs` (or sooner when `maxBatch` frames wait), one
 * transaction per batch, one batch at a time. `submit*` resolves when the frame is committed,
 * so MQTT acknowledges (PUBACK) only stored data. Bad frames are rejected, counted per
 * datalogger (`dataloggers.bad_frames`) and in `metrics`, and never throw.
 */

export interface IngestOptions {
  batchMs: number;
  maxBatch: number;
  /** Frames waiting beyond this: HTTP gets "busy", MQTT waits (its PUBACK is delayed). */
  maxQueue: number;
  /** Frame size limits and the timestamp window (config `telemetry.limits`). */
  limits: IngestLimitsConfig;
  /** Sample rows per write transaction (bounds how long one SQLite commit holds the event loop). */
  maxBatchRows?: number;
}

export interface IngestResult {
  ok: boolean;
  reason?: BadReason;
  detail?: string;
  /** Samples newly stored / already present (resends) / device entries rejected (always 0: a bad entry refuses the frame). */
  stored: number;
  duplicates: number;
  rejected: number;
}

export interface DataloggerEntry {
  id: number;
  pn: string;
  tokenHash: string | null;
  projectId: number | null;
  /** Seconds east of UTC for local days: the plant's, else the datalogger's. */
  tz: number;
  /** First registration (epoch ms): the backfill window starts INGEST_BACKFILL_DAYS before it. */
  createdAt: number;
  expires: number;
}

/** A device row: `id` is 0 until the write transaction that registers it sets it. */
export interface DeviceEntry {
  id: number;
  dataloggerId: number;
  def: DeviceDefinition;
  expires: number;
}

/** One device entry of a frame, validated and decoded on arrival. */
interface PreparedDevice {
  dev: IngestDevice;
  def: DeviceDefinition;
  values: Record<string, number>;
  data: Uint8Array;
  /** Number of values. */
  n: number;
}

interface Pending {
  kind: 'data' | 'heartbeat';
  pn: string;
  dl: DataloggerEntry;
  ts: number;
  heartbeat?: Heartbeat;
  devices: PreparedDevice[];
  receivedAt: number;
  result: IngestResult;
  resolve: (r: IngestResult) => void;
}

interface Candidate {
  item: Pending;
  dev: DeviceEntry;
  ts: number;
  values: Record<string, number>;
  status: number | undefined;
  data: Uint8Array;
  tz: number;
  /** Number of values. */
  n: number;
}

type Registration = NewDevice & { entry: DeviceEntry };

type Checked =
  | { ok: true; dl: DataloggerEntry; ts: number; heartbeat?: Heartbeat; devices: PreparedDevice[] }
  | { ok: false; reason: BadReason; detail: string; dl?: DataloggerEntry };

const DL_TTL_MS = 5_000;
const DEV_TTL_MS = 60_000;
const DAY_MS = 86_400_000;
/** Work between two yields to the event loop while validating one frame. */
const SLICE_MS = 2;
const DEFAULT_BATCH_ROWS = 64;
/** After a failed batch, leftover bad-frame counters are written again after this long. */
const RETRY_MS = 1_000;

/**
 * The frame shape checked first; each device entry is then checked on its own (time-sliced).
 * Unknown keys refuse the frame (a typo must not silently drop data).
 */
const FrameHeadSchema = IngestFrameSchema.extend({ devices: z.array(z.unknown()).min(1) }).strict();
const DeviceSchema = IngestDeviceSchema.strict();

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** YYYYMMDD of an instant in a timezone `tz` seconds east of UTC. */
export function localDay(ts: number, tz: number): number {
  const d = new Date(ts + tz * 1000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Status of a device from its sample: the reported status, else the worst active alarm. */
export function deviceStatus(reported: number | undefined, alarms: ReadonlyArray<{ level: number }>): number {
  if (reported !== undefined) return reported;
  let worst = -1;
  for (const a of alarms) worst = Math.max(worst, a.level);
  if (worst >= 2) return DEVICE_STATUS.FAULT;
  if (worst === 1) return DEVICE_STATUS.ERROR;
  if (worst === 0) return DEVICE_STATUS.WARNING;
  return DEVICE_STATUS.NORMAL;
}

const NO_ALARMS: readonly AlarmInfo[] = [];

/**
 * Active alarms of a sample, cheaply: none when every alarm source reads 0 (the usual case); the
 * previous sample's array when the sources read the same (so equal sets share one array and
 * `evaluateAlarmRun` skips them); else the definition's fault table, one entry per code.
 */
function sampleAlarms(
  def: DeviceDefinition,
  values: Record<string, number>,
  prevValues: Record<string, number> | undefined,
  prevAlarms: readonly AlarmInfo[],
): readonly AlarmInfo[] {
  let any = false;
  for (const src of def.alarms) {
    const v = values[src.field];
    if (v !== undefined && v > 0) {
      any = true;
      break;
    }
  }
  if (!any) return NO_ALARMS;
  if (prevValues && prevAlarms !== NO_ALARMS && def.alarms.every((src) => prevValues[src.field] === values[src.field])) {
    return prevAlarms;
  }
  const seen = new Set<number>();
  const out: AlarmInfo[] = [];
  for (const a of activeAlarms(def, { values })) {
    if (seen.has(a.code)) continue;
    seen.add(a.code);
    out.push({ level: a.level, code: a.code, description: a.description });
  }
  if (prevAlarms.length === out.length && out.every((a, i) => prevAlarms[i]!.code === a.code)) return prevAlarms;
  return out;
}

export class IngestService {
  readonly metrics: IngestMetrics = emptyMetrics();
  private pending: Pending[] = [];
  /** Refused frames per datalogger id, written with the next batch. */
  private pendingBad = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private waiters: Array<() => void> = [];
  private closed = false;
  private readonly dls = new Map<string, DataloggerEntry>();
  private readonly devs = new Map<string, DeviceEntry>();
  private readonly dlLookups = new Map<string, Promise<DataloggerEntry | undefined>>();

  constructor(
    private readonly db: Db,
    /** The write side; replaceable (tests inject storage failures). */
    public store: IngestStore,
    private readonly opts: IngestOptions,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  // ---------------------------------------------------------------- entry points

  /** A data frame (IngestFrame JSON as bytes/string, or an object) published under `pn`. */
  submitData(pn: string, payload: unknown, opts: { wait?: boolean } = {}): Promise<IngestResult> {
    return this.submit('data', pn, payload, opts.wait ?? true);
  }

  /** A heartbeat (Heartbeat JSON) published under `pn`. */
  submitHeartbeat(pn: string, payload: unknown, opts: { wait?: boolean } = {}): Promise<IngestResult> {
    return this.submit('heartbeat', pn, payload, opts.wait ?? true);
  }

  /** Whether the queue is over its limit (HTTP answers busy instead of waiting). */
  get busy(): boolean {
    return this.pending.length >= this.opts.maxQueue;
  }

  /** Forget cached dataloggers/devices (after a token change, a rebind, a device deletion). */
  invalidate(pn?: string): void {
    if (pn === undefined) {
      this.dls.clear();
      this.devs.clear();
      return;
    }
    const dl = this.dls.get(pn);
    this.dls.delete(pn);
    if (dl) for (const [k, d] of this.devs) if (d.dataloggerId === dl.id) this.devs.delete(k);
  }

  /** The datalogger behind a PN (cached a few seconds), or undefined. */
  datalogger(pn: string): Promise<DataloggerEntry | undefined> {
    const c = this.dls.get(pn);
    if (c && c.expires > Date.now()) return Promise.resolve(c);
    // Concurrent frames of one datalogger share one lookup (and so are queued together).
    let p = this.dlLookups.get(pn);
    if (!p) {
      p = this.resolveDataloggers([pn])
        .then((m) => m.get(pn))
        .finally(() => this.dlLookups.delete(pn));
      this.dlLookups.set(pn, p);
    }
    return p;
  }

  /** Checks a device token against the datalogger's stored SHA-256. */
  async verifyToken(pn: string, token: string | undefined | null): Promise<DataloggerEntry | undefined> {
    if (!pn || !token) return undefined;
    const dl = await this.datalogger(pn);
    return dl && tokenMatches(token, dl.tokenHash) ? dl : undefined;
  }

  /** Writes everything queued; resolves when the queue is empty (or a batch failed: frames answered `internal`). */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.pendingBad.size > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flushNow();
      if (this.retryTimer) return;
    }
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.timer = undefined;
    this.retryTimer = undefined;
  }

  // ---------------------------------------------------------------- queueing

  private async submit(kind: 'data' | 'heartbeat', pn: string, payload: unknown, wait: boolean): Promise<IngestResult> {
    this.metrics.framesReceived += 1;
    if (this.closed) return this.reject(undefined, 'busy', 'shutting down', false);
    const c = await this.check(kind, pn, payload);
    if (!c.ok) return this.reject(c.dl, c.reason, c.detail);
    while (this.pending.length >= this.opts.maxQueue) {
      if (!wait) return this.reject(c.dl, 'busy', 'ingestion queue full', false);
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return new Promise<IngestResult>((resolve) => {
      this.pending.push({
        kind,
        pn,
        dl: c.dl,
        ts: c.ts,
        heartbeat: c.heartbeat,
        devices: c.devices,
        receivedAt: this.now(),
        result: { ok: true, stored: 0, duplicates: 0, rejected: 0 },
        resolve,
      });
      this.metrics.queued = this.pending.length;
      if (this.pending.length > this.metrics.maxQueued) this.metrics.maxQueued = this.pending.length;
      this.schedule();
    });
  }

  /**
   * Validates and decodes a whole frame before anything is queued or written: size and shape
   * limits (bytes scanned before JSON.parse), schema, datalogger, PN, timestamp window, every
   * device entry (known devcode, decodes without an error, at least one value). The first
   * failure refuses the frame. Yields to the event loop every few ms of work.
   */
  private async check(kind: 'data' | 'heartbeat', pn: string, payload: unknown): Promise<Checked> {
    const limits = this.opts.limits;
    const dl = await this.datalogger(pn);
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
      if (bytes.length > 16 * 1024) await yieldToLoop();
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        return fail('json', 'not JSON');
      }
      if (bytes.length > 16 * 1024) await yieldToLoop();
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
    const now = this.now();
    const oldest = dl.createdAt - limits.backfillDays * DAY_MS;
    if (frame.ts < oldest) return fail('timestamp', `timestamp before the backfill window (${limits.backfillDays} days)`);
    if (frame.ts > now + limits.maxFutureMs) return fail('timestamp', 'timestamp in the future');
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
      const def = getDefinition(dev.devcode);
      if (!def) return fail('unknown_devcode', `${where}: unknown devcode ${dev.devcode}`);
      const fast = decodeRegistersFast(def, dev);
      const decoded = fast ? { values: fast, errors: [] as string[] } : decodeDevice(def, dev);
      if (decoded.errors.length > 0) return fail('decode', `${where}: ${decoded.errors.slice(0, 3).join('; ')}`);
      const n = Object.keys(decoded.values).length;
      if (n === 0) return fail('decode', `${where}: no values`);
      devices.push({ dev, def, values: decoded.values, data: encodeSample(def, decoded.values), n });
      if (performance.now() - slice > SLICE_MS) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
    return { ok: true, dl, ts: frame.ts, devices };
  }

  /** Counts a refused frame (on its datalogger too, written with the next batch). */
  private reject(dl: DataloggerEntry | undefined, reason: BadReason, detail: string, count = true): IngestResult {
    this.metrics.badByReason[reason] += 1;
    if (count) {
      this.metrics.badFrames += 1;
      if (dl) {
        this.pendingBad.set(dl.id, (this.pendingBad.get(dl.id) ?? 0) + 1);
        this.schedule();
      }
    }
    return { ok: false, reason, detail, stored: 0, duplicates: 0, rejected: 0 };
  }

  /**
   * Counts a frame refused before it reached the service (MQTT packet or HTTP body over the size
   * limit): `pn` is the authenticated datalogger's, if known.
   */
  countRefused(pn: string | undefined, reason: BadReason, detail = ''): void {
    this.metrics.framesReceived += 1;
    const dl = pn ? this.dls.get(pn) : undefined;
    this.reject(dl, reason, detail);
  }

  private schedule(): void {
    if (this.flushing || this.closed) return;
    if (this.retryTimer && this.pending.length === 0) return; // only counters left: wait for the retry
    if (this.pending.length >= this.opts.maxBatch) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      void this.flushNow();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flushNow();
    }, this.opts.batchMs);
  }

  private flushNow(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.length === 0 && this.pendingBad.size === 0) return Promise.resolve();
    this.flushing = (async () => {
      // Start asynchronously: `flushing` must be assigned before the `finally` below clears it.
      await Promise.resolve();
      try {
        while (this.pending.length > 0 || this.pendingBad.size > 0) {
          const items = this.takeBatch();
          this.metrics.queued = this.pending.length;
          for (const w of this.waiters.splice(0)) w();
          if (!(await this.process(items))) {
            // Storage failed: what is left (bad-frame counters) is retried later, never in a tight loop.
            this.retryLater();
            break;
          }
          // Let other work (HTTP calls of every tenant) run between two batches.
          await yieldToLoop();
        }
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  private retryLater(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.schedule();
    }, RETRY_MS);
    this.retryTimer.unref();
  }

  /** The next batch: up to maxBatch frames and about maxBatchRows sample rows (at least one frame). */
  private takeBatch(): Pending[] {
    const maxRows = this.opts.maxBatchRows ?? DEFAULT_BATCH_ROWS;
    let rows = 0;
    let n = 0;
    while (n < this.pending.length && n < this.opts.maxBatch) {
      const r = this.pending[n]!.devices.length;
      if (n > 0 && rows + r > maxRows) break;
      rows += r;
      n += 1;
    }
    return this.pending.splice(0, n);
  }

  // ---------------------------------------------------------------- one batch

  /** One batch; false when its transaction failed (its frames answer `internal`). */
  private async process(items: Pending[]): Promise<boolean> {
    const started = performance.now();
    const bad = this.pendingBad;
    this.pendingBad = new Map();
    let ok = true;
    try {
      await this.processBatch(items, bad);
    } catch (err) {
      ok = false;
      this.log.error({ err }, 'ingestion batch failed');
      for (const [id, n] of bad) this.pendingBad.set(id, (this.pendingBad.get(id) ?? 0) + n);
      this.dls.clear();
      this.devs.clear();
      for (const it of items) {
        it.result = { ok: false, reason: 'internal', detail: 'storage error', stored: 0, duplicates: 0, rejected: 0 };
        this.metrics.badByReason.internal += 1;
      }
    }
    for (const it of items) it.resolve(it.result);
    this.metrics.batches += 1;
    this.metrics.lastBatchFrames = items.length;
    this.metrics.lastBatchMs = performance.now() - started;
    if (this.metrics.lastBatchMs > this.metrics.maxBatchMs) this.metrics.maxBatchMs = this.metrics.lastBatchMs;
    this.metrics.batchMsTotal += this.metrics.lastBatchMs;
    return ok;
  }

  private async processBatch(items: Pending[], bad: Map<number, number>): Promise<void> {
    const now = this.now();
    const seen = new Map<number, WritePlan['dataloggers'][number]>();
    const entries: Array<{ item: Pending; p: PreparedDevice }> = [];
    for (const item of items) {
      const dl = item.dl;
      const s = seen.get(dl.id) ?? { id: dl.id, seenAt: now };
      seen.set(dl.id, s);
      if (item.heartbeat) {
        const hb = item.heartbeat;
        if (hb.fw !== undefined) s.firmware = hb.fw;
        if (hb.signal !== undefined) s.signal = Math.round(hb.signal);
        this.metrics.heartbeats += 1;
        continue;
      }
      for (const p of item.devices) entries.push({ item, p });
    }

    // Devices: cached or found; unknown ones are registered by the write transaction itself.
    const { devices, register } = await this.resolveDevices(entries.map((e) => ({ dl: e.item.dl, p: e.p })));

    const candidates: Candidate[] = [];
    const inBatch = new Set<string>();
    entries.forEach((e, i) => {
      const dev = devices[i]!;
      const key = `${e.item.dl.id}|${e.p.dev.devcode}|${e.p.dev.devaddr}|${e.p.dev.sn}|${e.item.ts}`;
      if (inBatch.has(key)) {
        e.item.result.duplicates += 1;
        this.metrics.samplesDuplicate += 1;
        return;
      }
      inBatch.add(key);
      candidates.push({
        item: e.item,
        dev,
        ts: e.item.ts,
        values: e.p.values,
        status: e.p.dev.status,
        data: e.p.data,
        tz: e.item.dl.tz,
        n: e.p.n,
      });
    });

    const rows: SampleInsert[] = candidates.map((c) => ({ device: c.dev, ts: c.ts, data: c.data }));
    const after: Array<() => void> = [];
    const badFrames = [...bad].map(([dataloggerId, n]) => ({ dataloggerId, n }));
    await this.store.commit(register, rows, (inserted) =>
      this.plan(candidates, inserted, [...seen.values()], badFrames, now, after),
    );
    for (const f of after) f();
    const cachedUntil = Date.now() + DEV_TTL_MS;
    for (const r of register) {
      r.entry.expires = cachedUntil;
      this.devs.set(r.key, r.entry);
    }
    this.metrics.devicesRegistered += register.length;
    for (const item of items) if (item.result.ok) this.metrics.framesAccepted += 1;
  }

  /** Pure: newly inserted samples → rollups, latest, status, alarms. `after` updates caches post-commit. */
  private plan(
    cands: Candidate[],
    inserted: boolean[],
    dataloggers: WritePlan['dataloggers'],
    badFrames: WritePlan['badFrames'],
    now: number,
    after: Array<() => void>,
  ): WritePlan {
    const days = new Map<string, DayAgg>();
    const runs = new Map<number, Candidate[]>();
    let stored = 0;
    let points = 0;
    let dups = 0;
    cands.forEach((c, i) => {
      if (!inserted[i]) {
        c.item.result.duplicates += 1;
        dups += 1;
        return;
      }
      c.item.result.stored += 1;
      stored += 1;
      const def = c.dev.def;
      points += c.n;
      const day = localDay(c.ts, c.tz);
      const key = `${c.dev.id}|${day}`;
      let agg = days.get(key);
      if (!agg) {
        agg = {
          deviceId: c.dev.id,
          day,
          samples: 0,
          min: { gen: null, chg: null, dis: null, sold: null, bought: null, used: null },
          max: { gen: null, chg: null, dis: null, sold: null, bought: null, used: null },
          peak: null,
          firstTs: c.ts,
          lastTs: c.ts,
        };
        days.set(key, agg);
      }
      agg.samples += 1;
      if (c.ts < agg.firstTs) agg.firstTs = c.ts;
      if (c.ts > agg.lastTs) agg.lastTs = c.ts;
      const counters = energyCounters(def, c);
      const set = (k: DayKind, v: number | undefined) => {
        if (v === undefined) return;
        const lo = agg.min[k];
        const hi = agg.max[k];
        agg.min[k] = lo === null || v < lo ? v : lo;
        agg.max[k] = hi === null || v > hi ? v : hi;
      };
      set('gen', counters.generated);
      set('chg', counters.charged);
      set('dis', counters.discharged);
      set('sold', counters.sold);
      set('bought', counters.bought);
      set('used', counters.used);
      const w = powerOf(def, c, 'pv') ?? powerOf(def, c, 'generator') ?? powerOf(def, c, 'load');
      if (w !== undefined && Number.isFinite(w)) {
        const kw = Math.round(w) / 1000;
        if (agg.peak === null || kw > agg.peak) agg.peak = kw;
      }
      // A sample ahead of the server clock (allowed within INGEST_MAX_FUTURE_MS for clock skew) is
      // stored and rolled up, but never becomes the latest value, the status or an alarm transition.
      if (c.ts > now) return;
      const run = runs.get(c.dev.id);
      if (run) run.push(c);
      else runs.set(c.dev.id, [c]);
    });

    const plan: WritePlan = {
      days: [...days.values()],
      latest: [],
      devices: [],
      dataloggers,
      badFrames,
    };
    // Every newly inserted sample of a device, in timestamp order, with its active alarms: the
    // store evaluates the transitions against what the database holds (alarm-runs.ts).
    for (const run of runs.values()) {
      for (let i = 1; i < run.length; i++) {
        if (run[i]!.ts < run[i - 1]!.ts) {
          run.sort((a, b) => a.ts - b.ts);
          break;
        }
      }
      const def = run[0]!.dev.def;
      const samples: RunSample[] = new Array<RunSample>(run.length);
      let prevValues: Record<string, number> | undefined;
      let alarms: readonly AlarmInfo[] = NO_ALARMS;
      let anyAlarm = false;
      for (let i = 0; i < run.length; i++) {
        const c = run[i]!;
        alarms = sampleAlarms(def, c.values, prevValues, alarms);
        if (alarms.length > 0) anyAlarm = true;
        samples[i] = { ts: c.ts, alarms };
        prevValues = c.values;
      }
      const c = run[run.length - 1]!;
      plan.latest.push({ deviceId: c.dev.id, ts: c.ts, data: c.data });
      plan.devices.push({
        id: c.dev.id,
        dataloggerId: c.dev.dataloggerId,
        ts: c.ts,
        status: deviceStatus(c.status, alarms),
        run: samples,
        anyAlarm,
      });
    }
    after.push(() => {
      this.metrics.samplesStored += stored;
      this.metrics.samplesDuplicate += dups;
      this.metrics.datapointsStored += points;
    });
    return plan;
  }

  // ---------------------------------------------------------------- lookups (cached)

  private async resolveDataloggers(pns: string[]): Promise<Map<string, DataloggerEntry | undefined>> {
    const now = Date.now();
    const out = new Map<string, DataloggerEntry | undefined>();
    const missing: string[] = [];
    for (const pn of pns) {
      const c = this.dls.get(pn);
      if (c !== undefined && c.expires > now) out.set(pn, c);
      else missing.push(pn);
    }
    for (let i = 0; i < missing.length; i += 500) {
      const chunk = missing.slice(i, i + 500);
      const rows = await this.db
        .selectFrom('dataloggers as d')
        .leftJoin('projects as p', 'p.id', 'd.project_id')
        .select([
          'd.id',
          'd.pn',
          'd.device_token_hash',
          'd.project_id',
          'd.tz_offset',
          'd.created_at',
          'p.tz_offset as project_tz',
        ])
        .where('d.pn', 'in', chunk)
        .execute();
      const found = new Map(rows.map((r) => [r.pn, r]));
      for (const pn of chunk) {
        const r = found.get(pn);
        const e: DataloggerEntry | undefined = r
          ? {
              id: r.id,
              pn: r.pn,
              tokenHash: r.device_token_hash,
              projectId: r.project_id,
              tz: r.project_tz ?? r.tz_offset,
              createdAt: Number(r.created_at),
              expires: now + DL_TTL_MS,
            }
          : undefined;
        if (e) this.dls.set(pn, e);
        else this.dls.delete(pn);
        out.set(pn, e);
      }
    }
    return out;
  }

  /**
   * The device row of each wanted entry: cached, else looked up; a device not stored yet gets an
   * entry with id 0 and a registration the write transaction performs (so a failed or refused
   * batch leaves no device behind). Device identity is (datalogger, devcode, devaddr, SN).
   */
  private async resolveDevices(
    wanted: Array<{ dl: DataloggerEntry; p: PreparedDevice }>,
  ): Promise<{ devices: DeviceEntry[]; register: Registration[] }> {
    const now = Date.now();
    const keyOf = (w: (typeof wanted)[number]) => `${w.dl.id}|${w.p.dev.devcode}|${w.p.dev.devaddr}|${w.p.dev.sn}`;
    const found = new Map<string, DeviceEntry>();
    const missing = new Map<string, (typeof wanted)[number]>();
    for (const w of wanted) {
      const k = keyOf(w);
      const c = this.devs.get(k);
      if (c && c.expires > now) found.set(k, c);
      else missing.set(k, w);
    }
    const register: Registration[] = [];
    if (missing.size > 0) {
      const list = [...missing.values()];
      for (let i = 0; i < list.length; i += 200) {
        const chunk = list.slice(i, i + 200);
        const rows = await this.db
          .selectFrom('devices')
          .select(['id', 'datalogger_id', 'pn', 'devcode', 'devaddr', 'sn'])
          .where((eb) =>
            eb.or(
              chunk.map((w) =>
                eb.and([
                  eb('datalogger_id', '=', w.dl.id),
                  eb('devcode', '=', w.p.def.devcode),
                  eb('devaddr', '=', w.p.dev.devaddr),
                  eb('sn', '=', w.p.dev.sn),
                ]),
              ),
            ),
          )
          .execute();
        for (const r of rows) {
          const k = `${r.datalogger_id}|${r.devcode}|${r.devaddr}|${r.sn}`;
          const w = missing.get(k);
          if (!w) continue;
          const e: DeviceEntry = { id: r.id, dataloggerId: r.datalogger_id, def: w.p.def, expires: now + DEV_TTL_MS };
          this.devs.set(k, e);
          found.set(k, e);
        }
      }
      const created = this.now();
      for (const [k, w] of missing) {
        if (found.has(k)) continue;
        const entry: DeviceEntry = { id: 0, dataloggerId: w.dl.id, def: w.p.def, expires: 0 };
        found.set(k, entry);
        register.push({
          key: k,
          entry,
          row: {
            datalogger_id: w.dl.id,
            pn: w.dl.pn,
            devcode: w.p.def.devcode,
            devaddr: w.p.dev.devaddr,
            sn: w.p.dev.sn,
            devtype: w.p.def.devtype,
            device_type: w.p.def.deviceType,
            model: w.p.def.name.slice(0, 64),
            brand: String(w.p.def.brand),
            status: DEVICE_STATUS.NORMAL,
            project_id: w.dl.projectId,
            created_at: created,
          },
        });
      }
    }
    return { devices: wanted.map((w) => found.get(keyOf(w))!), register };
  }
}
