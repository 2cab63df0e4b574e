import {
  activeAlarms,
  decodeDevice,
  DEVICE_STATUS,
  energyCounters,
  getDefinition,
  HeartbeatSchema,
  IngestFrameSchema,
  powerOf,
  type DeviceDefinition,
  type Heartbeat,
  type IngestDevice,
  type IngestFrame,
} from '@sunwatch/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import { type DayAgg, type DayKind, type IngestStore, type SampleRow, type WritePlan } from './ingest-store.js';
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
}

export interface IngestResult {
  ok: boolean;
  reason?: BadReason;
  detail?: string;
  /** Samples newly stored / already present (resends) / device entries rejected. */
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
  expires: number;
}

interface DeviceEntry {
  id: number;
  dataloggerId: number;
  def: DeviceDefinition;
  expires: number;
}

interface Pending {
  kind: 'data' | 'heartbeat';
  pn: string;
  frame: IngestFrame | Heartbeat;
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

const DL_TTL_MS = 5_000;
const DEV_TTL_MS = 60_000;
const FUTURE_LIMIT_MS = 24 * 3600_000;

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

function parsePayload(payload: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof payload === 'string' || payload instanceof Uint8Array) {
    try {
      const text =
        typeof payload === 'string'
          ? payload
          : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  }
  return { ok: true, value: payload };
}

export class IngestService {
  readonly metrics: IngestMetrics = emptyMetrics();
  private pending: Pending[] = [];
  private pendingBad = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private waiters: Array<() => void> = [];
  private closed = false;
  private readonly dls = new Map<string, DataloggerEntry>();
  private readonly devs = new Map<string, DeviceEntry>();

  constructor(
    private readonly db: Db,
    private readonly store: IngestStore,
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
  async datalogger(pn: string): Promise<DataloggerEntry | undefined> {
    return (await this.resolveDataloggers([pn])).get(pn);
  }

  /** Checks a device token against the datalogger's stored SHA-256. */
  async verifyToken(pn: string, token: string | undefined | null): Promise<DataloggerEntry | undefined> {
    if (!pn || !token) return undefined;
    const dl = await this.datalogger(pn);
    return dl && tokenMatches(token, dl.tokenHash) ? dl : undefined;
  }

  /** Writes everything queued; resolves when the queue is empty. */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.pendingBad.size > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flushNow();
    }
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  // ---------------------------------------------------------------- queueing

  private async submit(kind: 'data' | 'heartbeat', pn: string, payload: unknown, wait: boolean): Promise<IngestResult> {
    this.metrics.framesReceived += 1;
    const parsed = parsePayload(payload);
    if (!parsed.ok) return this.reject(pn, 'json', 'not JSON');
    const schema = kind === 'data' ? IngestFrameSchema : HeartbeatSchema;
    const res = schema.safeParse(parsed.value);
    if (!res.success) {
      const issue = res.error.issues[0];
      return this.reject(pn, 'schema', issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid frame');
    }
    const frame = res.data;
    if (frame.pn !== pn) return this.reject(pn, 'pn_mismatch', `frame pn ${frame.pn} is not ${pn}`);
    if (frame.ts > this.now() + FUTURE_LIMIT_MS) return this.reject(pn, 'timestamp', 'timestamp more than a day ahead');
    if (this.closed) return this.reject(pn, 'busy', 'shutting down', false);
    while (this.pending.length >= this.opts.maxQueue) {
      if (!wait) return this.reject(pn, 'busy', 'ingestion queue full', false);
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return new Promise<IngestResult>((resolve) => {
      this.pending.push({
        kind,
        pn,
        frame,
        receivedAt: this.now(),
        result: { ok: true, stored: 0, duplicates: 0, rejected: 0 },
        resolve,
      });
      this.metrics.queued = this.pending.length;
      if (this.pending.length > this.metrics.maxQueued) this.metrics.maxQueued = this.pending.length;
      this.schedule();
    });
  }

  /** Counts a rejected frame (on the datalogger too, written with the next batch). */
  private reject(pn: string, reason: BadReason, detail: string, count = true): IngestResult {
    this.metrics.badByReason[reason] += 1;
    if (count) {
      this.metrics.badFrames += 1;
      if (pn) this.pendingBad.set(pn, (this.pendingBad.get(pn) ?? 0) + 1);
      this.schedule();
    }
    return { ok: false, reason, detail, stored: 0, duplicates: 0, rejected: 0 };
  }

  private schedule(): void {
    if (this.flushing || this.closed) return;
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
    this.flushing = (async () => {
      try {
        while (this.pending.length > 0 || this.pendingBad.size > 0) {
          const items = this.pending.splice(0, this.opts.maxBatch);
          this.metrics.queued = this.pending.length;
          for (const w of this.waiters.splice(0)) w();
          await this.process(items);
        }
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  // ---------------------------------------------------------------- one batch

  private async process(items: Pending[]): Promise<void> {
    const started = performance.now();
    const bad = this.pendingBad;
    this.pendingBad = new Map();
    try {
      await this.processBatch(items, bad);
    } catch (err) {
      this.log.error({ err }, 'ingestion batch failed');
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
    this.metrics.batchMsTotal += this.metrics.lastBatchMs;
  }

  private async processBatch(items: Pending[], bad: Map<string, number>): Promise<void> {
    const now = this.now();
    const dls = await this.resolveDataloggers([...new Set([...items.map((i) => i.pn), ...bad.keys()])]);
    const badByDl = new Map<number, number>();
    const addBad = (dlId: number, n = 1) => badByDl.set(dlId, (badByDl.get(dlId) ?? 0) + n);
    for (const [pn, n] of bad) {
      const dl = dls.get(pn);
      if (dl) addBad(dl.id, n);
    }
    const seen = new Map<number, WritePlan['dataloggers'][number]>();
    const entries: Array<{ item: Pending; dl: DataloggerEntry; dev: IngestDevice; def: DeviceDefinition }> = [];
    for (const item of items) {
      const dl = dls.get(item.pn);
      if (!dl) {
        item.result = { ...item.result, ok: false, reason: 'unknown_pn', detail: `no datalogger ${item.pn}` };
        this.metrics.badByReason.unknown_pn += 1;
        this.metrics.badFrames += 1;
        continue;
      }
      const s = seen.get(dl.id) ?? { id: dl.id, seenAt: now };
      seen.set(dl.id, s);
      if (item.kind === 'heartbeat') {
        const hb = item.frame as Heartbeat;
        if (hb.fw !== undefined) s.firmware = hb.fw;
        if (hb.signal !== undefined) s.signal = Math.round(hb.signal);
        this.metrics.heartbeats += 1;
        continue;
      }
      for (const dev of (item.frame as IngestFrame).devices) {
        const def = getDefinition(dev.devcode);
        if (!def) {
          item.result.rejected += 1;
          item.result.reason = 'unknown_devcode';
          item.result.detail = `unknown devcode ${dev.devcode}`;
          this.metrics.badByReason.unknown_devcode += 1;
          addBad(dl.id);
          continue;
        }
        entries.push({ item, dl, dev, def });
      }
    }

    // Devices: cached, else found or registered (the first frame of a device registers it).
    const devices = await this.resolveDevices(entries.map((e) => ({ dl: e.dl, dev: e.dev, def: e.def })));

    const candidates: Candidate[] = [];
    const inBatch = new Set<string>();
    entries.forEach((e, i) => {
      const dev = devices[i]!;
      const fast = decodeRegistersFast(e.def, e.dev);
      const decoded = fast ? { values: fast, errors: [] as string[] } : decodeDevice(e.def, e.dev);
      const n = Object.keys(decoded.values).length;
      if (decoded.errors.length > 0) {
        this.metrics.badByReason.decode += 1;
        addBad(e.dl.id);
        e.item.result.reason = 'decode';
        e.item.result.detail = decoded.errors.slice(0, 3).join('; ');
      }
      if (n === 0) {
        e.item.result.rejected += 1;
        return;
      }
      const ts = (e.item.frame as IngestFrame).ts;
      const key = `${dev.id}|${ts}`;
      if (inBatch.has(key)) {
        e.item.result.duplicates += 1;
        this.metrics.samplesDuplicate += 1;
        return;
      }
      inBatch.add(key);
      candidates.push({
        item: e.item,
        dev,
        ts,
        values: decoded.values,
        status: e.dev.status,
        data: encodeSample(e.def, decoded.values),
        tz: e.dl.tz,
        n,
      });
    });

    const rows: SampleRow[] = candidates.map((c) => ({ deviceId: c.dev.id, ts: c.ts, data: c.data }));
    const after: Array<() => void> = [];
    await this.store.commit(rows, (inserted) => this.plan(candidates, inserted, [...seen.values()], badByDl, after));
    for (const f of after) f();
    for (const item of items) {
      if (item.result.ok && item.result.stored + item.result.duplicates === 0 && item.result.rejected > 0) {
        item.result.ok = false;
      }
      if (item.result.ok) this.metrics.framesAccepted += 1;
      else if (item.result.reason !== 'unknown_pn') this.metrics.badFrames += 1;
    }
  }

  /** Pure: newly inserted samples → rollups, latest, status, alarms. `after` updates caches post-commit. */
  private plan(
    cands: Candidate[],
    inserted: boolean[],
    dataloggers: WritePlan['dataloggers'],
    badByDl: Map<number, number>,
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
      const run = runs.get(c.dev.id);
      if (run) run.push(c);
      else runs.set(c.dev.id, [c]);
    });

    const plan: WritePlan = {
      days: [...days.values()],
      latest: [],
      devices: [],
      dataloggers,
      badFrames: [...badByDl].map(([dataloggerId, n]) => ({ dataloggerId, n })),
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
        .select(['d.id', 'd.pn', 'd.device_token_hash', 'd.project_id', 'd.tz_offset', 'p.tz_offset as project_tz'])
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

  private async resolveDevices(
    wanted: Array<{ dl: DataloggerEntry; dev: IngestDevice; def: DeviceDefinition }>,
  ): Promise<DeviceEntry[]> {
    const now = Date.now();
    const keyOf = (w: (typeof wanted)[number]) => `${w.dl.id}|${w.dev.devcode}|${w.dev.devaddr}|${w.dev.sn}`;
    const missing = new Map<string, (typeof wanted)[number]>();
    for (const w of wanted) {
      const k = keyOf(w);
      const c = this.devs.get(k);
      if (!c || c.expires <= now) missing.set(k, w);
    }
    if (missing.size > 0) {
      const list = [...missing.values()];
      for (let i = 0; i < list.length; i += 200) {
        const chunk = list.slice(i, i + 200);
        const created = this.now();
        const ins = await this.db
          .insertInto('devices')
          .values(
            chunk.map((w) => ({
              datalogger_id: w.dl.id,
              pn: w.dl.pn,
              devcode: w.def.devcode,
              devaddr: w.dev.devaddr,
              sn: w.dev.sn,
              alias: '',
              devtype: w.def.devtype,
              device_type: w.def.deviceType,
              model: w.def.name.slice(0, 64),
              brand: String(w.def.brand),
              status: DEVICE_STATUS.NORMAL,
              firmware: '',
              load: 0,
              last_sample_at: null,
              project_id: w.dl.projectId,
              created_at: created,
            })),
          )
          .onConflict((oc) => oc.columns(['pn', 'devcode', 'devaddr', 'sn']).doNothing())
          .executeTakeFirst();
        this.metrics.devicesRegistered += Number(ins.numInsertedOrUpdatedRows ?? 0);
        const rows = await this.db
          .selectFrom('devices')
          .select(['id', 'datalogger_id', 'pn', 'devcode', 'devaddr', 'sn'])
          .where((eb) =>
            eb.or(
              chunk.map((w) =>
                eb.and([
                  eb('pn', '=', w.dl.pn),
                  eb('devcode', '=', w.def.devcode),
                  eb('devaddr', '=', w.dev.devaddr),
                  eb('sn', '=', w.dev.sn),
                ]),
              ),
            ),
          )
          .execute();
        for (const r of rows) {
          const k = `${r.datalogger_id}|${r.devcode}|${r.devaddr}|${r.sn}`;
          const w = missing.get(k);
          if (!w) continue;
          this.devs.set(k, {
            id: r.id,
            dataloggerId: r.datalogger_id,
            def: w.def,
            expires: now + DEV_TTL_MS,
          });
        }
      }
    }
    return wanted.map((w) => {
      const d = this.devs.get(keyOf(w));
      if (!d) throw new Error(`device ${keyOf(w)} could not be registered (moved to another datalogger?)`);
      return d;
    });
  }
}
