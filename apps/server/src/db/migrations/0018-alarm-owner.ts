import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Alarm list performance and the owner at alarm time (issue 11, s22-ap):
 * - `alarms.owner_id`: the plant's owner when the alarm was raised (vendor `uid`: "0 if the device
 *   had no owner at alarm time"); written by ingestion and the offline job, backfilled here from the
 *   current owner of each alarm's plant (the best knowledge there is for old rows);
 * - `alarms_dl_list_idx (datalogger_id, started_at, id, level, handled, ended_at)`: the per-datalogger
 *   path of small scopes in list order, and a narrow covering index for exact scoped counts
 *   (index-only on both engines);
 * - `alarms_started_idx` becomes `(started_at, id)` so the newest-first walk of wide scopes needs no
 *   sort for the `started_at desc, id desc` order on PostgreSQL too.
 */
/** Alarms without an owner get their plant's current owner (the backfill of 0018). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function backfillAlarmOwners(db: Kysely<any>): Promise<void> {
  await sql`update alarms set owner_id = (
      select p.owner_id from dataloggers dl join projects p on p.id = dl.project_id
      where dl.id = alarms.datalogger_id)
    where owner_id is null`.execute(db);
}

export function alarmOwner(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('alarms').addColumn('owner_id', 'integer').execute();
      await backfillAlarmOwners(db);
      await db.schema
        .createIndex('alarms_dl_list_idx')
        .on('alarms')
        .columns(['datalogger_id', 'started_at', 'id', 'level', 'handled', 'ended_at'])
        .execute();
      await db.schema.dropIndex('alarms_started_idx').execute();
      await db.schema.createIndex('alarms_started_idx').on('alarms').columns(['started_at', 'id']).execute();
      // alarms_datalogger_idx (datalogger_id, started_at) is a prefix of the new index.
      await db.schema.dropIndex('alarms_datalogger_idx').execute();
      if (d.engine === 'postgres') await sql`analyze alarms`.execute(db);
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
