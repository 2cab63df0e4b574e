import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 13, fleet-sized batches (session 27): a batch by filter is no longer refused above 10 000
 * targets; it is recorded at once and its targets are materialised page by page by a durable job
 * of the background runner (db/job-lease.ts), so the batch row carries the job:
 * - `state`: 'materialising' (the job still has pages to create), 'ready' (every target has its
 *   task or was refused), 'failed' (the job gave up: `error`);
 * - what the job needs to create tasks as the action would: `fw_type`, `baud_rate`, `devcode`, `usr`;
 * - progress: `materialised` targets handled so far (tasks created + `refused`), `cursor` the last
 *   key handled (a PN for datalogger batches, a device id for device batches): a page and its
 *   cursor move commit together, so a page is never materialised twice;
 * - the lease of db/job-lease.ts: `lease_owner`, `lease_until` (0 = waiting), `attempts`, `progress`.
 * A batch written before this migration is complete ('ready', materialised = total).
 */
export function upgradeBatchJobs(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const add = (name: string, type: 'text' | 'integer' | 'bigint', def: string | number) =>
        db.schema
          .alterTable('upgrade_batches')
          .addColumn(name, type === 'bigint' ? d.bigint : type, (c) => c.notNull().defaultTo(def))
          .execute();
      await add('state', 'text', 'ready');
      await add('fw_type', 'integer', 0);
      await db.schema.alterTable('upgrade_batches').addColumn('baud_rate', 'integer').execute();
      await db.schema.alterTable('upgrade_batches').addColumn('devcode', 'integer').execute();
      await add('usr', 'text', '');
      await add('materialised', 'integer', 0);
      await add('refused', 'integer', 0);
      await add('cursor', 'text', '');
      await add('error', 'text', '');
      await add('lease_owner', 'text', '');
      await add('lease_until', 'bigint', 0);
      await add('attempts', 'integer', 0);
      await add('progress', 'integer', 0);
      await db.schema.alterTable('upgrade_batches').addColumn('finished_at', d.bigint).execute();
      await db
        .updateTable('upgrade_batches')
        .set((eb) => ({ materialised: eb.ref('total'), progress: 100 }))
        .execute();
      await db.schema
        .createIndex('upgrade_batches_state_idx')
        .on('upgrade_batches')
        .columns(['state', 'lease_until'])
        .execute();
      // queryFirmwareUpgradeBatch counts a batch's tasks by status and phase from this index alone.
      await db.schema
        .createIndex('upgrade_tasks_batch_status_idx')
        .on('upgrade_tasks')
        .columns(['batch_id', 'status', 'phase'])
        .execute();
      await db.schema
        .createIndex('upgrade_batches_account_idx')
        .on('upgrade_batches')
        .columns(['account_id', 'created_at'])
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
