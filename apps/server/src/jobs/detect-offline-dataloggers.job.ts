import { ALARM_LEVEL, DEVICE_STATUS } from '@sunwatch/protocol';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';

/** Code of the offline alarm (level 3), as ERR_COLLECTOR_OFFLINE. */
export const OFFLINE_ALARM_CODE = 263;
/** A datalogger is offline after 3 missed heartbeats, and never sooner than this. */
export const MIN_OFFLINE_WINDOW_S = 180;

/** Seconds of silence after which a datalogger with this heartbeat interval is offline. */
export function offlineWindowSeconds(heartbeatInterval: number): number {
  return Math.max(3 * heartbeatInterval, MIN_OFFLINE_WINDOW_S);
}

/**
 * Marks dataloggers offline that sent no frame or heartbeat for 3 × heartbeat_interval (at least
 * 3 minutes): datalogger and its devices status 1 (offline), an offline alarm (level 3) opened.
 * Ingestion clears it when the datalogger is heard again. Returns the ids marked offline.
 */
export async function detectOfflineDataloggers(ctx: Pick<AppContext, 'db' | 'now'>): Promise<number[]> {
  const now = ctx.now();
  const candidates = await ctx.db
    .selectFrom('dataloggers')
    .select(['id', 'pn', 'last_seen_at', 'heartbeat_interval'])
    .where('status', '=', DEVICE_STATUS.NORMAL)
    .where('last_seen_at', 'is not', null)
    .where(
      sql<boolean>`last_seen_at + (case when heartbeat_interval * 3 > ${MIN_OFFLINE_WINDOW_S}
        then heartbeat_interval * 3 else ${MIN_OFFLINE_WINDOW_S} end) * 1000 < ${now}`,
    )
    .execute();
  const marked: number[] = [];
  for (const dl of candidates) {
    const done = await ctx.db.transaction().execute(async (trx) => {
      // Guarded by last_seen_at: a frame that arrived meanwhile keeps it online.
      const res = await trx
        .updateTable('dataloggers')
        .set({ status: DEVICE_STATUS.OFFLINE })
        .where('id', '=', dl.id)
        .where('status', '=', DEVICE_STATUS.NORMAL)
        .where('last_seen_at', '=', dl.last_seen_at)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('devices')
        .set({ status: DEVICE_STATUS.OFFLINE })
        .where('datalogger_id', '=', dl.id)
        .execute();
      const open = await trx
        .selectFrom('alarms')
        .select('id')
        .where('datalogger_id', '=', dl.id)
        .where('level', '=', ALARM_LEVEL.OFFLINE)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      if (!open) {
        // The owner at alarm time (0018): the plant's owner now.
        const plant = await trx
          .selectFrom('dataloggers as x')
          .innerJoin('projects as p', 'p.id', 'x.project_id')
          .select('p.owner_id')
          .where('x.id', '=', dl.id)
          .executeTakeFirst();
        await trx
          .insertInto('alarms')
          .values({
            datalogger_id: dl.id,
            device_id: null,
            level: ALARM_LEVEL.OFFLINE,
            code: OFFLINE_ALARM_CODE,
            description: 'Datalogger offline',
            started_at: now,
            ended_at: null,
            handled: 0,
            owner_id: plant?.owner_id ?? null,
          })
          .execute();
      }
      // The datalogger log (issue 10): a heartbeat gap.
      await trx
        .insertInto('datalogger_events')
        .values({
          ts: now,
          pn: dl.pn,
          kind: 'offline',
          detail: `no heartbeat for ${Math.round((now - Number(dl.last_seen_at)) / 1000)} s (window ${offlineWindowSeconds(Number(dl.heartbeat_interval))} s)`,
        })
        .execute();
      return true;
    });
    if (done) marked.push(dl.id);
  }
  return marked;
}
