import type { AppContext } from '../context.js';

export { PRUNE_LOGS_EVERY_MS, PRUNE_LOGS_JOB } from '../modules/operator-logs/operator-logs.service.js';

/**
 * Log retention (issue 14): removes action-log calls and datalogger events older than the days
 * the operator set (else ACTION_LOG_RETENTION_DAYS / COLLECTOR_LOG_RETENTION_DAYS), in batches of
 * bounded DELETEs so a huge table is never locked for long. Runs hourly under the job lease.
 * Issue 16: also the raw samples (SAMPLE_RETENTION_DAYS / the operator's setting; batched deletes
 * on SQLite, whole month partitions on PostgreSQL) and the month partitions created ahead; the web
 * app's reported events (web error reporting) with the action log's retention.
 */
export async function pruneLogs(ctx: Pick<AppContext, 'services' | 'log'>): Promise<void> {
  const removed = await ctx.services.operatorLogs.prune();
  const s = removed.samples;
  if (
    removed.actionLog > 0 ||
    removed.collectorLog > 0 ||
    removed.webEvents > 0 ||
    (s && (s.rows > 0 || s.dropped.length > 0)) ||
    removed.partitionsCreated.length > 0
  )
    ctx.log.info({ removed }, 'logs and samples pruned by retention');
}
