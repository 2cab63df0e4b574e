import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { CheckedFrame, FrameKind, IngestOptions, IngestResult, Pending } from './ingest.types.js';
import { yieldToLoop } from './ingest.types.js';
import type { BadReason, IngestMetrics } from './metrics.js';

const DEFAULT_BATCH_ROWS = 64;
/** After a failed batch, leftover bad-frame counters are written again after this long. */
const RETRY_MS = 1_000;

/**
 * The queue and flusher of checked frames (docs/security/ingest.md promises 2 and 3): frames wait
 * until `batchMs` passed or `maxBatch` frames wait, then are written one batch at a time (at most
 * about `maxBatchRows` sample rows per transaction), yielding to the event loop between batches.
 * `enqueue` resolves when the frame's batch committed (so MQTT acknowledges only stored data) or
 * failed (`internal`). Over `maxQueue` a caller waits or is answered `busy`. Refused frames are
 * counted here and written per datalogger with the next batch; a failed batch never retries in a
 * tight loop.
 */
export class IngestQueue {
  private pending: Pending[] = [];
  /** Refused frames per datalogger id, written with the next batch. */
  private pendingBad = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private waiters: Array<() => void> = [];
  private closedFlag = false;

  constructor(
    private readonly opts: Pick<IngestOptions, 'batchMs' | 'maxBatch' | 'maxQueue' | 'maxBatchRows'>,
    /** Writes one batch in one transaction; throws when it did not commit. */
    private readonly writer: { write(items: readonly Pending[], bad: ReadonlyMap<number, number>): Promise<void> },
    private readonly metrics: IngestMetrics,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
    /** Called after a failed batch (the caches may hold ids of rows that were rolled back). */
    private readonly onBatchFailed: () => void,
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Whether the queue is over its limit. */
  get busy(): boolean {
    return this.pending.length >= this.opts.maxQueue;
  }

  /** Queues a checked frame; resolves with its answer once its batch committed or failed. */
  async enqueue(kind: FrameKind, pn: string, frame: CheckedFrame, wait: boolean): Promise<IngestResult> {
    while (this.pending.length >= this.opts.maxQueue) {
      if (!wait) return this.reject(frame.dl.id, 'busy', 'ingestion queue full', false);
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return new Promise<IngestResult>((resolve) => {
      this.pending.push({
        kind,
        pn,
        dl: frame.dl,
        ts: frame.ts,
        heartbeat: frame.heartbeat,
        devices: frame.devices,
        receivedAt: this.now(),
        result: { ok: true, stored: 0, duplicates: 0, rejected: 0 },
        resolve,
      });
      this.metrics.queued = this.pending.length;
      if (this.pending.length > this.metrics.maxQueued) this.metrics.maxQueued = this.pending.length;
      this.schedule();
    });
  }

  /** Counts a refused frame (on its datalogger too when `count`, written with the next batch). */
  reject(dataloggerId: number | undefined, reason: BadReason, detail: string, count = true): IngestResult {
    this.metrics.badByReason[reason] += 1;
    if (count) {
      this.metrics.badFrames += 1;
      if (dataloggerId !== undefined) {
        this.pendingBad.set(dataloggerId, (this.pendingBad.get(dataloggerId) ?? 0) + 1);
        this.schedule();
      }
    }
    return { ok: false, reason, detail, stored: 0, duplicates: 0, rejected: 0 };
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
    this.closedFlag = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.timer = undefined;
    this.retryTimer = undefined;
  }

  private schedule(): void {
    if (this.flushing || this.closedFlag) return;
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
    if (this.retryTimer || this.closedFlag) return;
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

  /** One batch; false when its transaction failed (its frames answer `internal`). */
  private async process(items: Pending[]): Promise<boolean> {
    // performance.now() measures the batch's duration (monotonic), not the time of day.
    const started = performance.now();
    const bad = this.pendingBad;
    this.pendingBad = new Map();
    let ok = true;
    try {
      await this.writer.write(items, bad);
    } catch (err) {
      ok = false;
      this.log.error({ err }, 'ingestion batch failed');
      for (const [id, n] of bad) this.pendingBad.set(id, (this.pendingBad.get(id) ?? 0) + n);
      this.onBatchFailed();
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
    this.metrics.onBatch?.(this.metrics.lastBatchMs, items.length);
    return ok;
  }
}
