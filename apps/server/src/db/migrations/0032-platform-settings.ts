import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, operator logs:
 * - `platform_settings`: small key/value settings of the whole platform set by the operator (first
 *   use: the days the action log and the datalogger log keep). Values are JSON text.
 * - an index on `datalogger_events.ts`: the operator reads the log of every PN by time range, and
 *   the prune job deletes by age.
 */
export function platformSettings(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_settings')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_by', 'varchar(64)')
        .execute();
      await db.schema.createIndex('datalogger_events_ts_idx').on('datalogger_events').column('ts').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('datalogger_events_ts_idx').execute();
      await db.schema.dropTable('platform_settings').execute();
    },
  };
}
