import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The operation history of dataloggers and devices (issue 10): every write sent to or made on a
 * datalogger or a device — who, when, what, old → new value and the result (err code, 0 = done),
 * failures included. Kept apart from the audit log, whose rows roll back with a failed call.
 */
export function operations(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('operation_log'))
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('account_id', 'integer')
        .addColumn('usr', 'text')
        /** The action (ctrlDevice, restartCollector, …) or job that did it. */
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('pn', 'text', (c) => c.notNull())
        /** Null for an operation on the datalogger itself. */
        .addColumn('devcode', 'integer')
        .addColumn('devaddr', 'integer')
        .addColumn('sn', 'text')
        /** OPERATION_KINDS (protocol): ctrl, reboot, reset, unbind, debug, command, edit, … */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** The control field id or the edited attribute; '' when none. */
        .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        /** err code of the outcome: 0 done, else the error answered (2 timeout, 263 offline, …). */
        .addColumn('result', 'integer', (c) => c.notNull())
        /** The datalogger's answer or the error detail (hex bytes of debug, …). */
        .addColumn('detail', 'text')
        .execute();
      await db.schema.createIndex('operation_log_pn_idx').on('operation_log').columns(['pn', 'ts']).execute();
      await db.schema.createIndex('operation_log_sn_idx').on('operation_log').columns(['sn', 'ts']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
