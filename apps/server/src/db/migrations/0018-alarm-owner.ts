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
 * - `alarm_counts`: alarms per datalogger × level × handled × open (no end time), kept by triggers
 *   on both engines, so the exact `total` of a list narrowed only by scope, type, status and
 *   history sums a few rows per datalogger instead of counting every alarm;
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
      await db.schema
        .createTable('alarm_counts')
        .addColumn('datalogger_id', 'integer', (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('handled', 'integer', (c) => c.notNull())
        .addColumn('open', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('alarm_counts_pk', ['datalogger_id', 'level', 'handled', 'open'])
        .execute();
      await sql`insert into alarm_counts (datalogger_id, level, handled, open, n)
        select datalogger_id, level, handled, case when ended_at is null then 1 else 0 end, count(*)
        from alarms group by datalogger_id, level, handled, case when ended_at is null then 1 else 0 end`.execute(db);
      const dec = (r: 'old') => sql.raw(`update alarm_counts set n = n - 1 where datalogger_id = ${r}.datalogger_id
        and level = ${r}.level and handled = ${r}.handled and open = (case when ${r}.ended_at is null then 1 else 0 end);`);
      const inc = (r: 'new') => sql.raw(`insert into alarm_counts (datalogger_id, level, handled, open, n)
        values (${r}.datalogger_id, ${r}.level, ${r}.handled, case when ${r}.ended_at is null then 1 else 0 end, 1)
        on conflict (datalogger_id, level, handled, open) do update set n = alarm_counts.n + 1;`);
      if (d.engine === 'postgres') {
        await sql`create function alarm_counts_apply() returns trigger language plpgsql as $$
          begin
            if tg_op in ('DELETE', 'UPDATE') then ${dec('old')} end if;
            if tg_op in ('INSERT', 'UPDATE') then ${inc('new')} end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger alarm_counts_trg after insert or delete or update of datalogger_id, level, handled, ended_at
          on alarms for each row execute function alarm_counts_apply()`.execute(db);
        await sql`analyze alarms`.execute(db);
      } else {
        await sql`create trigger alarm_counts_ins after insert on alarms begin ${inc('new')} end`.execute(db);
        await sql`create trigger alarm_counts_del after delete on alarms begin ${dec('old')} end`.execute(db);
        await sql`create trigger alarm_counts_upd after update of datalogger_id, level, handled, ended_at on alarms
          begin ${dec('old')} ${inc('new')} end`.execute(db);
      }
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
