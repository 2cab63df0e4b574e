import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';
import { DevcodeBindings } from './devcode-bindings.js';
import { decodeDeviceEntry } from './device-decoder.js';
import { DeviceRegistrar } from './device-registrar.js';
import { tokenMatches } from './device-tokens.js';
import { FrameChecker } from './frame-checker.js';
import { IngestBatchWriter } from './ingest-batch-writer.js';
import { IngestLookupCache } from './ingest-cache.js';
import { IngestLookupRepository } from './ingest-lookups.repository.js';
import { IngestMinutes } from './ingest-minutes.js';
import { IngestQueue } from './ingest-queue.js';
import type { IngestStore } from './ingest-store.js';
import type { DataloggerEntry, FrameKind, IngestOptions, IngestResult } from './ingest.types.js';
import { emptyMetrics, type BadReason, type IngestMetrics } from './metrics.js';

export type { DataloggerEntry, DeviceEntry, IngestOptions, IngestResult } from './ingest.types.js';

/**
 * Ingestion (architecture.md §5), the façade the MQTT broker, the bridge and HTTP ingest call:
 * frames from MQTT or HTTP are validated on arrival (`FrameChecker`, decoding in `device-decoder.ts`),
 * queued and written in batches (`IngestQueue` → `IngestBatchWriter` → `IngestStore.commit`, planned
 * by `planWrite`), with devices resolved and registered by `DeviceRegistrar` and dataloggers/devices
 * cached by `IngestLookupCache`. `submit*` resolves when the frame is committed, so MQTT
 * acknowledges (PUBACK) only stored data. Bad frames are rejected, counted per datalogger
 * (`dataloggers.bad_frames`) and in `metrics`, and never throw.
 */
export class IngestService {
  readonly metrics: IngestMetrics = emptyMetrics();
  private readonly cache: IngestLookupCache;
  private readonly checker: FrameChecker;
  private readonly writer: IngestBatchWriter;
  private readonly queue: IngestQueue;
  /** Operator devcode bindings (issue 14), reloaded every few seconds. */
  readonly bindings: DevcodeBindings;
  /** Frames and datapoints per minute of this instance, written to `ingest_minutes` (issue 14). */
  readonly minutes: IngestMinutes;

  constructor(db: Db, store: IngestStore, opts: IngestOptions, now: Clock, log: FastifyBaseLogger) {
    const lookups = new IngestLookupRepository(db);
    this.cache = new IngestLookupCache(lookups, now);
    this.bindings = new DevcodeBindings(() => db, now);
    this.checker = new FrameChecker(opts.limits, this.cache, decodeDeviceEntry, now, this.bindings);
    const registrar = new DeviceRegistrar(this.cache, lookups, now);
    this.minutes = new IngestMinutes(db, now, log);
    this.writer = new IngestBatchWriter(store, registrar, this.metrics, now, this.minutes);
    this.queue = new IngestQueue(opts, this.writer, this.metrics, now, log, () => this.cache.clear());
  }

  /** The write side; replaceable (tests inject storage failures). */
  get store(): IngestStore {
    return this.writer.store;
  }

  set store(store: IngestStore) {
    this.writer.store = store;
  }

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
    return this.queue.busy;
  }

  /** Forget cached dataloggers/devices (after a token change, a rebind, a device deletion). */
  invalidate(pn?: string): void {
    this.cache.invalidate(pn);
  }

  /** The datalogger behind a PN (cached a few seconds), or undefined. */
  datalogger(pn: string): Promise<DataloggerEntry | undefined> {
    return this.cache.datalogger(pn);
  }

  /** Checks a device token against the datalogger's stored SHA-256. */
  async verifyToken(pn: string, token: string | undefined | null): Promise<DataloggerEntry | undefined> {
    if (!pn || !token) return undefined;
    const dl = await this.datalogger(pn);
    return dl && tokenMatches(token, dl.tokenHash) ? dl : undefined;
  }

  /**
   * Counts a frame refused before it reached the service (MQTT packet or HTTP body over the size
   * limit): `pn` is the authenticated datalogger's, if known.
   */
  countRefused(pn: string | undefined, reason: BadReason, detail = ''): void {
    this.metrics.framesReceived += 1;
    const dl = pn ? this.cache.peekDatalogger(pn) : undefined;
    this.queue.reject(dl?.id, reason, detail);
  }

  /** Writes everything queued; resolves when the queue is empty (or a batch failed: frames answered `internal`). */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private async submit(kind: FrameKind, pn: string, payload: unknown, wait: boolean): Promise<IngestResult> {
    this.metrics.framesReceived += 1;
    if (this.queue.closed) return this.queue.reject(undefined, 'busy', 'shutting down', false);
    const c = await this.checker.check(kind, pn, payload);
    if (!c.ok) return this.queue.reject(c.dl?.id, c.reason, c.detail);
    return this.queue.enqueue(kind, pn, c, wait);
  }
}
