import { sql, type Kysely, type Migration } from 'kysely';
import { FIRMWARE_UPGRADE_STATUS } from '@sunwatch/protocol';

/**
 * Issue 13: at most one running upgrade task per datalogger, enforced by the database. The engine
 * checked "no running task" and then inserted; two starts at the same moment (a manual or batch
 * start during a strategy pass, or two server instances) both inserted, and the second wiped the
 * first's partial image on the datalogger (found by the canary test over MQTT, session 25). The
 * engine now inserts with ON CONFLICT DO NOTHING against this partial unique index and answers
 * "already upgrading" when nothing was inserted.
 */
export function upgradeTaskPerDatalogger(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      // tasks left running twice for one datalogger by the old check: the newest stays, the others
      // end as abnormal exits (the datalogger can only have been flashing one of them)
      await sql`
        update upgrade_tasks
           set status = ${FIRMWARE_UPGRADE_STATUS.exception}, phase = 'done', ended_at = updated_at,
               error = 'superseded by a newer task of the same datalogger'
         where ended_at is null
           and id not in (select max(id) from upgrade_tasks where ended_at is null group by pn)`.execute(db);
      await db.schema
        .createIndex('upgrade_tasks_running_pn_uq')
        .on('upgrade_tasks')
        .column('pn')
        .unique()
        .where(sql.ref('ended_at'), 'is', null)
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('upgrade_tasks_running_pn_uq').execute();
    },
  };
}
