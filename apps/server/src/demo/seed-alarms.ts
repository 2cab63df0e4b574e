import { ALARM_LEVEL, OFFLINE_ALARM_CODE } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Demo dataloggers that get a past alarm history (both owners' plants). */
const DEMO_ALARM_PNS = ['SWNORTH0000001', 'SWSOUTH0000001'] as const;
const HOUR = 3_600_000;

/**
 * Issue 11: a small, ended alarm history on the demo dataloggers (DEMO_DATA only), so the alarm
 * screens have rows before the simulator raises anything: per datalogger two offline episodes
 * that ended (one untreated 2 days ago, one processed 5 days ago). Ended alarms change no status
 * and no "ongoing" count. Idempotent: only where the datalogger has no offline alarm yet.
 */
export async function seedDemoAlarms(app: FastifyInstance | { ctx: AppContext }): Promise<number> {
  const { db } = app.ctx;
  const now = app.ctx.now();
  let created = 0;
  for (const pn of DEMO_ALARM_PNS) {
    const dl = await db
      .selectFrom('dataloggers as x')
      .leftJoin('projects as p', 'p.id', 'x.project_id')
      .select(['x.id', 'p.owner_id'])
      .where('x.pn', '=', pn)
      .executeTakeFirst();
    if (!dl) continue;
    const has = await db
      .selectFrom('alarms')
      .select('id')
      .where('datalogger_id', '=', dl.id)
      .where('code', '=', OFFLINE_ALARM_CODE)
      .executeTakeFirst();
    if (has) continue;
    const rows = [
      { started_at: now - 48 * HOUR, ended_at: now - 47 * HOUR, handled: 0, handled_usr: '', handled_at: null },
      {
        started_at: now - 120 * HOUR,
        ended_at: now - 118 * HOUR,
        handled: 1,
        handled_usr: 'operator',
        handled_at: now - 117 * HOUR,
      },
    ];
    for (const r of rows)
      await db
        .insertInto('alarms')
        .values({
          datalogger_id: dl.id,
          device_id: null,
          level: ALARM_LEVEL.OFFLINE,
          code: OFFLINE_ALARM_CODE,
          description: 'Datalogger offline',
          owner_id: dl.owner_id,
          ...r,
        })
        .execute();
    created += rows.length;
  }
  return created;
}
