import {
  ApiError,
  COLLECTOR_LOGS_MAX_DAYS,
  LOG_RETENTION_DAYS,
  SAMPLE_RETENTION_DAYS,
  type ActionLogRow,
  type Catalogue,
  type LogRetention,
  type OperatorCollectorLogRow,
  type ParsedParamsOf,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { PruneOptions } from '../../db/prune.js';
import type { SamplePruneResult, SampleRetention } from '../../db/sample-retention.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { ActionLog } from '../action-log/action-log.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DataloggerEvents } from '../dataloggers/datalogger-events.service.js';
import { PlatformSettingsRepository } from './platform-settings.repository.js';

type CollectorParams = ParsedParamsOf<Catalogue['queryCollectorLogs']>;
type ActionParams = ParsedParamsOf<Catalogue['queryActionLog']>;
type RetentionParams = ParsedParamsOf<Catalogue['setLogRetention']>;

const DAY_MS = 86_400_000;
/** The prune job's name in the `jobs` table (its lease and last run). */
export const PRUNE_LOGS_JOB = 'prune-logs';
/** How often the prune job runs. */
export const PRUNE_LOGS_EVERY_MS = 3600_000;

/** The settings keys (platform_settings) of the retentions. */
export const RETENTION_KEYS = {
  actionLog: 'log_retention.action_log_days',
  collectorLog: 'log_retention.collector_log_days',
  samples: 'retention.sample_days',
} as const;

function validDays(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= LOG_RETENTION_DAYS.min && v <= LOG_RETENTION_DAYS.max
    ? v
    : undefined;
}

function validSampleDays(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= SAMPLE_RETENTION_DAYS.min && v <= SAMPLE_RETENTION_DAYS.max
    ? v
    : undefined;
}

/**
 * The operator's `log` and `actionLog` pages (issue 14): reads of the platform's datalogger log
 * (DataloggerEvents) and action log (ActionLog) — the services that write them, no copy — and
 * the retention of both (days kept: the operator's setting in platform_settings, else the
 * environment seed), applied by the prune job in batches. Issue 16 adds the raw samples to the
 * same setting and job (SampleRetention: batched deletes on SQLite, month partitions on PostgreSQL).
 */
export class OperatorLogsService {
  private readonly settings: PlatformSettingsRepository;

  constructor(
    private readonly deps: {
      db: Db;
      now: Clock;
      defaults: { actionLogDays: number; collectorLogDays: number; sampleDays: number };
      actionLog: Pick<ActionLog, 'list' | 'prune' | 'flush'>;
      events: Pick<DataloggerEvents, 'listPlatform' | 'prune'>;
      audit?: Pick<AuditService, 'record'>;
      samples?: Pick<SampleRetention, 'prune' | 'ensurePartitions'>;
      /** Issue 16: the web app's reported events, kept as long as the action log. */
      webEvents?: { prune(before: number, opts?: PruneOptions): Promise<number> };
    },
  ) {
    this.settings = new PlatformSettingsRepository(deps.db);
  }

  async collectorLogs(
    p: CollectorParams,
  ): Promise<{ total: number; page: number; pagesize: number; log: OperatorCollectorLogRow[] }> {
    if (p.to <= p.from || p.to - p.from > COLLECTOR_LOGS_MAX_DAYS * DAY_MS) throw new ApiError(6, 'to');
    const { total, rows } = await this.deps.events.listPlatform(
      { pn: p.pn, exact: p.exact, from: p.from, to: p.to, kinds: p.kinds, result: p.result },
      p.page,
      p.pagesize,
    );
    return { total, page: p.page, pagesize: p.pagesize, log: rows };
  }

  async actionLog(p: ActionParams): Promise<{ total: number; page: number; pagesize: number; log: ActionLogRow[] }> {
    if (p.from !== undefined && p.to !== undefined && p.to <= p.from) throw new ApiError(6, 'to');
    const { total, rows } = await this.deps.actionLog.list(
      { usr: p.usr, action: p.actionName, errOnly: p.errOnly, err: p.err, from: p.from, to: p.to, ip: p.ip },
      p.page,
      p.pagesize,
    );
    return { total, page: p.page, pagesize: p.pagesize, log: rows };
  }

  async retention(): Promise<LogRetention> {
    const stored = await this.settings.getMany([
      RETENTION_KEYS.actionLog,
      RETENTION_KEYS.collectorLog,
      RETENTION_KEYS.samples,
    ]);
    const action = validDays(stored.get(RETENTION_KEYS.actionLog)?.value);
    const collector = validDays(stored.get(RETENTION_KEYS.collectorLog)?.value);
    const samples = validSampleDays(stored.get(RETENTION_KEYS.samples)?.value);
    // In the caller's transaction when one is open (setLogRetention): SQLite has one connection.
    const job = await currentDb(this.deps.db)
      .selectFrom('jobs')
      .select(['last_run_at', 'last_error'])
      .where('name', '=', PRUNE_LOGS_JOB)
      .executeTakeFirst();
    return {
      actionLogDays: action ?? this.deps.defaults.actionLogDays,
      collectorLogDays: collector ?? this.deps.defaults.collectorLogDays,
      sampleDays: samples ?? this.deps.defaults.sampleDays,
      source: {
        actionLog: action ? 'setting' : 'default',
        collectorLog: collector ? 'setting' : 'default',
        samples: samples ? 'setting' : 'default',
      },
      defaults: { ...this.deps.defaults },
      lastPruneAt: job?.last_run_at == null ? null : Number(job.last_run_at),
      lastPruneError: job?.last_error ?? '',
    };
  }

  /** Sets the days kept (audited: entity `platform_setting`, before → after). 7 nothing given, 271 no change. */
  async setRetention(caller: Caller, p: RetentionParams): Promise<LogRetention> {
    if (p.actionLogDays === undefined && p.collectorLogDays === undefined && p.sampleDays === undefined)
      throw new ApiError(7, 'actionLogDays');
    const before = await this.retention();
    const changes: Array<[string, number, number, 'actionLog' | 'collectorLog' | 'samples']> = [];
    if (
      p.actionLogDays !== undefined &&
      (before.source.actionLog === 'default' || p.actionLogDays !== before.actionLogDays)
    )
      changes.push([RETENTION_KEYS.actionLog, before.actionLogDays, p.actionLogDays, 'actionLog']);
    if (
      p.collectorLogDays !== undefined &&
      (before.source.collectorLog === 'default' || p.collectorLogDays !== before.collectorLogDays)
    )
      changes.push([RETENTION_KEYS.collectorLog, before.collectorLogDays, p.collectorLogDays, 'collectorLog']);
    if (p.sampleDays !== undefined && (before.source.samples === 'default' || p.sampleDays !== before.sampleDays))
      changes.push([RETENTION_KEYS.samples, before.sampleDays, p.sampleDays, 'samples']);
    if (changes.length === 0) throw new ApiError(271);
    const at = this.deps.now();
    for (const [key, was, days, which] of changes) {
      await this.settings.set(key, days, at, caller.usr);
      await this.deps.audit?.record({
        entity: 'platform_setting',
        entityId: key,
        before: { days: was, source: before.source[which] },
        after: { days },
      });
    }
    return this.retention();
  }

  /**
   * Removes what is older than the retention of each log and of the raw samples, in batches (the
   * prune job), and creates the coming month partitions of the samples (PostgreSQL). Returns the
   * rows removed per log and what the sample retention did.
   */
  async prune(
    opts?: PruneOptions,
  ): Promise<{
    actionLog: number;
    collectorLog: number;
    webEvents: number;
    samples?: SamplePruneResult;
    partitionsCreated: string[];
  }> {
    const r = await this.retention();
    const now = this.deps.now();
    await this.deps.actionLog.flush();
    const actionLog = await this.deps.actionLog.prune(now - r.actionLogDays * DAY_MS, opts);
    const collectorLog = await this.deps.events.prune(now - r.collectorLogDays * DAY_MS, opts);
    const webEvents = (await this.deps.webEvents?.prune(now - r.actionLogDays * DAY_MS, opts)) ?? 0;
    const partitionsCreated = (await this.deps.samples?.ensurePartitions(now)) ?? [];
    const samples = await this.deps.samples?.prune(now - r.sampleDays * DAY_MS, {
      batch: opts?.batch,
      maxBatches: opts?.maxBatches,
    });
    return { actionLog, collectorLog, webEvents, samples, partitionsCreated };
  }
}
