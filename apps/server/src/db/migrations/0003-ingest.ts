import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/** Job leases (jobs), and the index the offline detection scans. */
export function ingest(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('jobs')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('last_run_at', d.bigint)
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('dataloggers_status_seen_idx')
        .on('dataloggers')
        .columns(['status', 'last_seen_at'])
        .execute();
      await db.schema
        .createIndex('alarms_open_idx')
        .on('alarms')
        .columns(['datalogger_id', 'ended_at', 'level'])
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
