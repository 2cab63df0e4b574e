import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import v8 from 'node:v8';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from '../context.js';
import type { ActionCallObserver } from '../http/action-endpoint.js';
import { BAD_REASONS, type IngestMetrics } from '../modules/telemetry/metrics.js';

/** Label of calls whose action name is not in the catalogue (keeps the label set bounded). */
export const UNKNOWN_ACTION = '(unknown)';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The V8 heap in use right after the process's last major (mark-compact) collection: the live
 * heap, the leak indicator. `nodejs_heap_size_used_bytes` is read at scrape time and swings with
 * the garbage not yet collected (±40 % under load, bench/README "Soak"); this one moves only when
 * what survives a full collection moves. One observer per process (GC is process-wide), started by
 * the first ServerMetrics; unset until the first major collection.
 */
const liveHeap: { bytes?: number; observer?: PerformanceObserver } = {};

function observeMajorCollections(): void {
  if (liveHeap.observer) return;
  liveHeap.observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== perfConstants.NODE_PERFORMANCE_GC_MAJOR) continue;
      liveHeap.bytes = v8.getHeapStatistics().used_heap_size;
    }
  });
  liveHeap.observer.observe({ entryTypes: ['gc'] });
}

interface ActionSeries {
  calls: Counter.Internal;
  latency: Histogram.Internal<'action'>;
}

/**
 * The Prometheus metrics of one server instance (prom-client, its own registry: several servers
 * in one test process never share counters). Names and labels: docs/operations.md.
 *
 * Hot paths pay one call each: `actionDone` per action call (a cached child series, no label
 * hashing after the first call of an action) and the ingest queue's `onBatch` per batch. Ingest
 * counters, queue depths, connections and pool use are read from the live objects at scrape time.
 */
export class ServerMetrics implements ActionCallObserver {
  readonly registry = new Registry();
  private readonly known: ReadonlySet<string>;
  private readonly series = new Map<string, ActionSeries>();
  private readonly errorSeries = new Map<string, Counter.Internal>();
  private readonly calls: Counter<'action'>;
  private readonly errors: Counter<'action' | 'code'>;
  private readonly latency: Histogram<'action'>;
  private readonly batchSeconds: Histogram;
  private readonly batchFrames: Histogram;

  constructor(actions: Iterable<string>, ctx: AppContext) {
    this.known = new Set(actions);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.calls = new Counter({
      name: 'sunwatch_action_calls_total',
      help: 'Action calls answered, by action.',
      labelNames: ['action'],
      registers,
    });
    this.errors = new Counter({
      name: 'sunwatch_action_errors_total',
      help: 'Action calls answered with err != 0, by action and error code.',
      labelNames: ['action', 'code'],
      registers,
    });
    this.latency = new Histogram({
      name: 'sunwatch_action_duration_seconds',
      help: 'Time from the request to the answer of an action call, by action.',
      labelNames: ['action'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.batchSeconds = new Histogram({
      name: 'sunwatch_ingest_batch_commit_seconds',
      help: 'Wall time of one ingestion batch (plan, transaction, commit).',
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.batchFrames = new Histogram({
      name: 'sunwatch_ingest_batch_frames',
      help: 'Frames written per ingestion batch.',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
      registers,
    });

    const ingest = (): IngestMetrics => ctx.services.telemetry.metrics;
    ctx.services.telemetry.metrics.onBatch = (ms, frames) => this.batchDone(ms, frames);
    /** A counter whose value is read from the ingest counters at scrape time. */
    const ingestCounter = (name: string, help: string, read: (m: IngestMetrics) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          const m = ingest();
          this.reset();
          this.inc(read(m));
        },
      });
    ingestCounter(
      'sunwatch_ingest_frames_received_total',
      'Data frames and heartbeats received.',
      (m) => m.framesReceived,
    );
    ingestCounter(
      'sunwatch_ingest_frames_accepted_total',
      'Frames that passed the checks and were queued.',
      (m) => m.framesAccepted,
    );
    ingestCounter('sunwatch_ingest_heartbeats_total', 'Heartbeats received.', (m) => m.heartbeats);
    ingestCounter(
      'sunwatch_ingest_samples_stored_total',
      'New samples stored (one per device per timestamp).',
      (m) => m.samplesStored,
    );
    ingestCounter(
      'sunwatch_ingest_samples_duplicate_total',
      'Samples already stored (resends), ignored.',
      (m) => m.samplesDuplicate,
    );
    ingestCounter('sunwatch_ingest_datapoints_total', 'Values of newly stored samples.', (m) => m.datapointsStored);
    ingestCounter('sunwatch_ingest_batches_total', 'Ingestion batches written.', (m) => m.batches);
    new Counter({
      name: 'sunwatch_ingest_bad_frames_total',
      help: 'Frames (or device entries) refused or not stored, by reason.',
      labelNames: ['reason'],
      registers,
      collect() {
        const m = ingest();
        if (!m) return;
        this.reset();
        for (const reason of BAD_REASONS) this.inc({ reason }, m.badByReason[reason]);
      },
    });
    // Issue 16: web error reporting, read from the collector's counters at scrape time.
    new Counter({
      name: 'sunwatch_web_events_received_total',
      help: 'Events reported by the web app (errors, slow-page traces, session replays), by kind.',
      labelNames: ['kind'],
      registers,
      collect() {
        const m = ctx.services.webErrors.metrics;
        this.reset();
        for (const [kind, n] of Object.entries(m.received)) this.inc({ kind }, n);
      },
    });
    new Counter({
      name: 'sunwatch_web_events_dropped_total',
      help: 'Web app events refused by the rate limits of the collector.',
      registers,
      collect() {
        this.reset();
        this.inc(ctx.services.webErrors.metrics.dropped);
      },
    });
    observeMajorCollections();
    new Gauge({
      name: 'sunwatch_heap_live_bytes',
      help: 'V8 heap used right after the last major (mark-compact) collection: the live heap, the leak indicator.',
      registers,
      collect() {
        if (liveHeap.bytes !== undefined) this.set(liveHeap.bytes);
      },
    });
    new Gauge({
      name: 'sunwatch_queue_depth',
      help: 'Items waiting in an in-process queue: ingest (frames), action_log (rows).',
      labelNames: ['queue'],
      registers,
      collect() {
        this.set({ queue: 'ingest' }, ctx.services.telemetry.metrics.queued);
        this.set({ queue: 'action_log' }, ctx.services.actionLog.queued);
      },
    });
    new Gauge({
      name: 'sunwatch_mqtt_connected_dataloggers',
      help: 'Dataloggers holding a signed-in connection to this instance (embedded broker only).',
      registers,
      collect() {
        const n = ctx.services.telemetry.mqtt?.connectedDataloggers?.();
        if (n !== undefined) this.set(n);
      },
    });
    new Gauge({
      name: 'sunwatch_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting = queries waiting for one, max).',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = ctx.database.pool;
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
        this.set({ state: 'max' }, pool.options.max ?? 10);
      },
    });
  }

  /** One answered action call (from the action endpoint's onResponse hook). */
  actionDone(action: string, err: number, ms: number): void {
    const name = this.known.has(action) ? action : UNKNOWN_ACTION;
    let s = this.series.get(name);
    if (!s) {
      s = { calls: this.calls.labels(name), latency: this.latency.labels(name) };
      this.series.set(name, s);
    }
    s.calls.inc();
    s.latency.observe(ms / 1000);
    if (err !== 0) {
      const key = `${name}\u0000${err}`;
      let e = this.errorSeries.get(key);
      if (!e) {
        e = this.errors.labels(name, String(err));
        this.errorSeries.set(key, e);
      }
      e.inc();
    }
  }

  /** One ingestion batch written (IngestMetrics.onBatch). */
  batchDone(ms: number, frames: number): void {
    this.batchSeconds.observe(ms / 1000);
    this.batchFrames.observe(frames);
  }
}
